/**
 * /healthz, /readyz and /metrics on both faces: ready on a normal start, 503 while the database
 * is broken and ready again once it is repaired, and metrics that parse as Prometheus text and
 * count the requests just made, readable only from loopback or with METRICS_TOKEN.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { metricasPermitidas } from '../../src/http/operacao.ts';
import { DIALETO } from '../helpers/banco.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

const TOKEN = 'token-de-metricas-de-teste-0123456789';

interface Amostra {
  readonly nome: string;
  readonly rotulos: Readonly<Record<string, string>>;
  readonly valor: number;
}

/** A strict reader of the Prometheus text format: every line is a comment, blank, or a sample. */
function lerPrometheus(texto: string): Amostra[] {
  const amostras: Amostra[] = [];
  const tipos = new Map<string, string>();
  for (const linha of texto.split('\n')) {
    if (linha === '') continue;
    const tipo = /^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) (counter|gauge|histogram|summary|untyped)$/.exec(linha);
    if (tipo !== null) {
      assert.ok(!tipos.has(tipo[1] ?? ''), `TYPE repetido: ${linha}`);
      tipos.set(tipo[1] ?? '', tipo[2] ?? '');
      continue;
    }
    if (/^# HELP [a-zA-Z_:][a-zA-Z0-9_:]* .+$/.test(linha)) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (-?[0-9.e+-]+|\+Inf|NaN)$/.exec(linha);
    assert.ok(m !== null, `linha fora do formato: ${linha}`);
    const rotulos: Record<string, string> = {};
    const corpo = m[2] ?? '';
    const re = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"(,|$)/g;
    let lidos = 0;
    for (let r = re.exec(corpo); r !== null; r = re.exec(corpo)) {
      rotulos[r[1] ?? ''] = (r[2] ?? '').replace(/\\n/g, '\n').replace(/\\"/g, '"').replace(/\\\\/g, '\\');
      lidos += r[0].length;
    }
    assert.equal(lidos, corpo.length, `rótulos fora do formato: ${linha}`);
    const nome = m[1] ?? '';
    const familia = nome.replace(/_(bucket|sum|count)$/, '');
    assert.ok(tipos.has(nome) || tipos.has(familia), `amostra sem TYPE: ${linha}`);
    amostras.push({ nome, rotulos, valor: Number(m[3]) });
  }
  return amostras;
}

function valorDe(amostras: readonly Amostra[], nome: string, rotulos: Record<string, string>): number | undefined {
  return amostras.find((a) => a.nome === nome && Object.entries(rotulos).every(([k, v]) => a.rotulos[k] === v))?.valor;
}

describe(`saúde, prontidão e métricas (${DIALETO})`, () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
  });
  after(() => amb.fechar());

  test('as duas faces respondem /healthz e /readyz com 200 num início normal', async () => {
    for (const base of [amb.url, amb.urlMercados]) {
      const saude = await fetch(`${base}/healthz`);
      assert.equal(saude.status, 200);
      assert.deepEqual(await saude.json(), { status: 'ok', mensagem: 'Processo no ar.' });
      const pronto = await fetch(`${base}/readyz`);
      assert.equal(pronto.status, 200);
      assert.equal(((await pronto.json()) as { status: string }).status, 'pronto');
    }
  });

  test('/readyz dá 503 com o banco quebrado e volta a 200 quando ele é consertado; /healthz segue 200', async () => {
    await sql`ALTER TABLE kysely_migration RENAME TO kysely_migration_fora`.execute(amb.banco);
    try {
      for (const base of [amb.url, amb.urlMercados]) {
        const r = await fetch(`${base}/readyz`);
        assert.equal(r.status, 503);
        assert.deepEqual(await r.json(), { status: 'indisponivel', mensagem: 'O banco de dados está inacessível.' });
        assert.equal((await fetch(`${base}/healthz`)).status, 200);
      }
    } finally {
      await sql`ALTER TABLE kysely_migration_fora RENAME TO kysely_migration`.execute(amb.banco);
    }
    for (const base of [amb.url, amb.urlMercados]) assert.equal((await fetch(`${base}/readyz`)).status, 200);
  });

  test('/readyz dá 503 nomeando a migração que falta, e volta quando ela está aplicada', async () => {
    const { rows } = await sql<{
      name: string;
      timestamp: string;
    }>`SELECT name, "timestamp" FROM kysely_migration ORDER BY name DESC`.execute(amb.banco);
    const ultima = rows[0];
    assert.ok(ultima);
    await sql`DELETE FROM kysely_migration WHERE name = ${ultima.name}`.execute(amb.banco);
    try {
      const r = await fetch(`${amb.url}/readyz`);
      assert.equal(r.status, 503);
      assert.equal(
        ((await r.json()) as { mensagem: string }).mensagem,
        `Há migrações pendentes no banco de dados: ${ultima.name}.`,
      );
    } finally {
      await sql`INSERT INTO kysely_migration (name, "timestamp") VALUES (${ultima.name}, ${ultima.timestamp})`.execute(
        amb.banco,
      );
    }
    assert.equal((await fetch(`${amb.url}/readyz`)).status, 200);
  });

  test('/metrics é texto Prometheus válido e conta as requisições que acabaram de ser feitas', async () => {
    for (const [face, base] of [
      ['cestas', amb.url],
      ['mercados', amb.urlMercados],
    ] as const) {
      const ler = async () => {
        const r = await fetch(`${base}/metrics`);
        assert.equal(r.status, 200);
        assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
        return lerPrometheus(await r.text());
      };
      const rotulos = { face, method: 'GET', route: '/healthz', status: '200' };
      const antes = valorDe(await ler(), 'cestaria_http_requests_total', rotulos) ?? 0;
      for (let i = 0; i < 5; i++) await fetch(`${base}/healthz`);
      await fetch(`${base}/nao-existe-${face}`);
      const depois = await ler();
      assert.equal(valorDe(depois, 'cestaria_http_requests_total', rotulos), antes + 5);
      assert.equal(valorDe(depois, 'cestaria_http_request_duration_seconds_count', rotulos), antes + 5);
      assert.equal(
        valorDe(depois, 'cestaria_http_request_duration_seconds_bucket', { ...rotulos, le: '+Inf' }),
        antes + 5,
      );
      assert.ok(
        (valorDe(depois, 'cestaria_http_requests_total', { face, route: '(sem rota)', status: '404' }) ?? 0) >= 1,
        'rotas desconhecidas numa série só',
      );
      assert.ok(
        !depois.some((a) => (a.rotulos.route ?? '').includes('nao-existe')),
        'o caminho desconhecido não vira rótulo',
      );
      assert.equal(valorDe(depois, 'cestaria_sessions', {}), 0);
      if (DIALETO === 'postgres')
        assert.ok((valorDe(depois, 'cestaria_db_pool_connections', { state: 'total' }) ?? 0) >= 1, 'uso do pool');
    }
  });

  test('/metrics recusa com 403 quem não é da própria máquina e não traz o token', async () => {
    for (const app of [amb.servicos.cestas, amb.servicos.mercados]) {
      assert.ok(app);
      const r = await app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.7' });
      assert.equal(r.statusCode, 403);
      assert.match(r.body, /As métricas só podem ser lidas da própria máquina/);
      const comToken = await app.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '203.0.113.7',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      assert.equal(comToken.statusCode, 403, 'sem METRICS_TOKEN configurado, nenhum token abre');
    }
  });
});

describe(`/metrics com METRICS_TOKEN (${DIALETO})`, () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true, env: { METRICS_TOKEN: TOKEN } });
  });
  after(() => amb.fechar());

  test('de fora da máquina, só o token certo abre', async () => {
    for (const app of [amb.servicos.cestas, amb.servicos.mercados]) {
      assert.ok(app);
      const pedir = (authorization?: string) =>
        app.inject({
          method: 'GET',
          url: '/metrics',
          remoteAddress: '198.51.100.20',
          ...(authorization === undefined ? {} : { headers: { authorization } }),
        });
      assert.equal((await pedir()).statusCode, 403);
      assert.equal((await pedir(`Bearer ${TOKEN}x`)).statusCode, 403);
      assert.equal((await pedir(`Basic ${TOKEN}`)).statusCode, 403);
      const certo = await pedir(`Bearer ${TOKEN}`);
      assert.equal(certo.statusCode, 200);
      assert.ok(lerPrometheus(certo.body).length > 0);
    }
  });

  test('da própria máquina continua aberto, por HTTP de verdade', async () => {
    assert.equal((await fetch(`${amb.url}/metrics`)).status, 200);
    assert.equal((await fetch(`${amb.urlMercados}/metrics`)).status, 200);
  });
});

test('a regra de acesso às métricas: loopback, ou o token quando configurado', () => {
  for (const ip of ['127.0.0.1', '127.8.9.1', '::1', '::ffff:127.0.0.1'])
    assert.equal(metricasPermitidas(ip, undefined, undefined), true, ip);
  for (const ip of ['10.0.0.1', '192.168.1.5', '::ffff:10.0.0.1', '2001:db8::1', undefined])
    assert.equal(metricasPermitidas(ip, undefined, TOKEN), false, String(ip));
  assert.equal(metricasPermitidas('10.0.0.1', `Bearer ${TOKEN}`, TOKEN), true);
  assert.equal(metricasPermitidas('10.0.0.1', `bearer ${TOKEN}`, TOKEN), true);
  assert.equal(metricasPermitidas('10.0.0.1', `Bearer ${TOKEN}`, undefined), false);
  assert.equal(metricasPermitidas('10.0.0.1', 'Bearer ', TOKEN), false);
});
