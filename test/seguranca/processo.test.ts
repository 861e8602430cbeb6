/**
 * The real server as a process: killed with SIGKILL in the middle of a stream of order writes,
 * restarted, and checked; SIGTERM drains in-flight requests; the log keeps no secrets.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { DURACAO_SESSAO_MS } from '../../src/cestas/sessao.ts';
import { abrirBanco, migrar } from '../../src/db/banco.ts';
import { Cofre } from '../../src/http/cofre.ts';
import { DIALETO, bancoNovo, urlDoBanco } from '../helpers/banco.ts';
import { criarCicloAberto, criarUsuario } from '../helpers/fabricas.ts';
import { RAIZ, comandoDoScript } from '../helpers/processos.ts';
import { Navegador, entrarPeloProvedor, tokenCsrf } from '../helpers/navegador.ts';

const SEGREDO = randomBytes(32).toString('base64url');

interface Servidor {
  readonly filho: ChildProcess;
  readonly url: string;
  readonly idp: string;
  saida(): string;
}

const START = comandoDoScript('start');

function subir(banco: string, env: Record<string, string> = {}): Promise<Servidor> {
  return subirGenerico(banco, env, /Cestas:\s+(http:\/\/\S+)/);
}

async function subirGenerico(banco: string, env: Record<string, string>, face: RegExp): Promise<Servidor> {
  const filho = spawn(process.execPath, START.args, {
    cwd: RAIZ,
    env: {
      ...process.env,
      ...START.env,
      NODE_ENV: 'development',
      DATABASE_URL: banco,
      CESTAS_PORT: '0',
      DEV_IDP_PORT: '0',
      DEV_SMTP_PORT: '0',
      DEV_MAIL_PORT: '0',
      VARIANTS: 'cestas',
      DEMO_DATA: 'false',
      LOG_LEVEL: 'warn',
      APP_SESSION_SECRET: SEGREDO,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let acumulado = '';
  filho.stdout?.on('data', (c: Buffer) => {
    acumulado += c.toString();
  });
  filho.stderr?.on('data', (c: Buffer) => {
    acumulado += c.toString();
  });
  const inicio = Date.now();
  for (;;) {
    const url = face.exec(acumulado)?.[1];
    const idp = /Login de desenvolvimento:\s+(http:\/\/\S+)/.exec(acumulado)?.[1];
    if (url !== undefined && idp !== undefined) return { filho, url, idp, saida: () => acumulado };
    if (filho.exitCode !== null || Date.now() - inicio > 30_000) throw new Error(`o servidor não subiu: ${acumulado}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function saiu(filho: ChildProcess): Promise<{ codigo: number | null; sinal: string | null }> {
  return filho.exitCode !== null || filho.signalCode !== null
    ? Promise.resolve({ codigo: filho.exitCode, sinal: filho.signalCode })
    : new Promise((r) => filho.once('exit', (codigo, sinal) => r({ codigo, sinal })));
}

function cookiePara(email: string): string {
  const agora = Date.now();
  return `appSession=${new Cofre(SEGREDO, 'appSession').selar({ sid: randomBytes(12).toString('base64url'), identidade: { sub: email, email, name: email }, idToken: undefined, csrf: 'x'.repeat(24), inicio: agora }, agora + DURACAO_SESSAO_MS)}`;
}

test(`SIGKILL no meio de um fluxo de pedidos: depois de reiniciar, todo pedido confirmado com 2xx está lá, inteiro, e nenhum ficou pela metade (${DIALETO})`, async () => {
  const cfg = await bancoNovo();
  const banco = abrirBanco(cfg);
  await migrar(banco, DIALETO);
  const { cicloid, cicloCestaId, ponto } = await criarCicloAberto(banco, 100_000);
  const consumidores: Array<{ id: number; email: string }> = [];
  for (let i = 0; i < 400; i++) consumidores.push(await criarUsuario(banco, { perfil: ['consumidor'] }));
  const servidor = await subir(urlDoBanco(cfg));
  const aceitos = new Map<number, number>();
  let mortos = 0;
  let proximo = 0;
  const trabalhador = async () => {
    while (proximo < consumidores.length) {
      const c = consumidores[proximo++];
      if (c === undefined) return;
      const quantidade = 1 + (c.id % 3);
      try {
        const r = await fetch(`${servidor.url}/pedidoconsumidores`, {
          method: 'POST',
          headers: { cookie: cookiePara(c.email), 'content-type': 'application/json', accept: 'application/json' },
          body: JSON.stringify({ cicloid, pontoEntregaId: ponto, produtos: [{ cicloCestaId, quantidade }] }),
        });
        // Each consumer's first order: created.
        if (r.status === 201) aceitos.set(c.id, quantidade);
        else assert.fail(`status ${r.status}: ${await r.text()}`);
        if (aceitos.size === 120 && mortos === 0) {
          mortos++;
          servidor.filho.kill('SIGKILL');
        }
      } catch (e) {
        if (mortos === 0) throw e;
        return;
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, trabalhador));
  const fim = await saiu(servidor.filho);
  assert.equal(fim.sinal, 'SIGKILL');
  assert.ok(aceitos.size >= 120, `${aceitos.size} aceitos antes da queda`);

  const denovo = await subir(urlDoBanco(cfg));
  try {
    assert.equal(
      (
        await fetch(`${denovo.url}/pedidoconsumidores/${cicloid}`, {
          headers: { cookie: cookiePara(consumidores[0]?.email ?? ''), accept: 'application/json' },
        })
      ).status,
      200,
      'o serviço voltou',
    );
    const pedidos = await banco
      .selectFrom('pedido')
      .select(['id', 'usuarioid'])
      .where('cicloid', '=', cicloid)
      .execute();
    const linhas = await banco.selectFrom('pedidoproduto').select(['pedidoid', 'quantidadeMilesimos']).execute();
    for (const [usuarioid, quantidade] of aceitos) {
      const p = pedidos.find((x) => x.usuarioid === usuarioid);
      assert.ok(p, `pedido aceito de ${usuarioid} sumiu`);
      assert.deepEqual(
        linhas.filter((l) => l.pedidoid === p.id).map((l) => l.quantidadeMilesimos),
        [quantidade * 1000],
      );
    }
    const meiaGravacao = pedidos.filter((p) => linhas.filter((l) => l.pedidoid === p.id).length !== 1);
    assert.deepEqual(meiaGravacao, [], 'nenhum pedido pela metade');
  } finally {
    denovo.filho.kill('SIGTERM');
    await saiu(denovo.filho);
    await banco.destroy();
  }
});

test(`SIGTERM deixa terminar as requisições em andamento e sai com 0 (${DIALETO})`, async () => {
  const cfg = await bancoNovo();
  const banco = abrirBanco(cfg);
  await migrar(banco, DIALETO);
  const { cicloid, cicloCestaId, ponto } = await criarCicloAberto(banco, 100);
  const pessoas: Array<{ id: number; email: string }> = [];
  for (let i = 0; i < 6; i++) pessoas.push(await criarUsuario(banco, { perfil: ['consumidor'] }));
  const servidor = await subir(urlDoBanco(cfg), { LOG_LEVEL: 'info' });
  // Six order saves whose bodies arrive slowly: the server has started each one (headers in)
  // when the signal comes, and the rest of each body only after it.
  const metades: Array<() => void> = [];
  const emAndamento = pessoas.map((p) => {
    const corpo = JSON.stringify({ cicloid, pontoEntregaId: ponto, produtos: [{ cicloCestaId, quantidade: 1 }] });
    const fluxo = new ReadableStream<Uint8Array>({
      async start(controle) {
        controle.enqueue(new TextEncoder().encode(corpo.slice(0, 10)));
        await new Promise<void>((r) => metades.push(r));
        controle.enqueue(new TextEncoder().encode(corpo.slice(10)));
        controle.close();
      },
    });
    return fetch(`${servidor.url}/pedidoconsumidores`, {
      method: 'POST',
      body: fluxo,
      duplex: 'half',
      headers: { cookie: cookiePara(p.email), 'content-type': 'application/json', accept: 'application/json' },
    } as RequestInit).then(async (r) => ({ status: r.status, corpo: await r.text() }));
  });
  const recebidas = () => (servidor.saida().match(/"msg":"incoming request"/g) ?? []).length;
  while (recebidas() < 6 || metades.length < 6) await new Promise((r) => setTimeout(r, 5));
  servidor.filho.kill('SIGTERM');
  while (!servidor.saida().includes('SIGTERM recebido')) await new Promise((r) => setTimeout(r, 5));
  for (const soltar of metades) soltar();
  const respostas = await Promise.all(emAndamento);
  assert.deepEqual(
    respostas.map((r) => r.status),
    respostas.map(() => 201),
    respostas.map((r) => r.corpo).join(' | '),
  );
  assert.deepEqual(await saiu(servidor.filho), { codigo: 0, sinal: null });
  const salvos = await banco.selectFrom('pedido').select('usuarioid').where('cicloid', '=', cicloid).execute();
  assert.equal(salvos.length, 6, 'os seis pedidos foram gravados');
  await banco.destroy();
});

test('o log não guarda cookies, tokens, códigos de autorização nem o token CSRF', async () => {
  const cfg = await bancoNovo();
  const banco = abrirBanco(cfg);
  await migrar(banco, DIALETO);
  const u = await criarUsuario(banco, { perfil: ['consumidor'] });
  await banco.destroy();
  const servidor = await subir(urlDoBanco(cfg), { LOG_LEVEL: 'info' });
  try {
    const nav = new Navegador();
    const pagina = await entrarPeloProvedor(nav, `${servidor.url}/`, { email: u.email });
    const callback = pagina.caminho.find((c) => c.includes('/callback?')) ?? '';
    const codigo = new URL(callback).searchParams.get('code') ?? '';
    const csrf = tokenCsrf(pagina.texto);
    await nav.post(`${servidor.url}/profile`, { form: { _csrf: csrf, nome: 'Outro Nome', cientepolitica: 'true' } });
    await nav.get(`${servidor.url}/profile`, { headers: { authorization: 'Bearer segredo-do-cabecalho' } });
    // An unsubscribe link acts without a login: its token is a secret of its own.
    const tokenDeSaida = 'tokenDeDescadastroQueNaoPodeIrParaOLog123';
    await nav.get(`${servidor.url}/avisos/sair/${tokenDeSaida}`);
    await nav.post(`${servidor.url}/avisos/sair/${tokenDeSaida}`, { form: { 'List-Unsubscribe': 'One-Click' } });
    const sessao = nav.cookie(servidor.url, 'appSession') ?? '';
    await new Promise((r) => setTimeout(r, 100));
    const log = servidor.saida();
    assert.match(log, /"msg":"request completed"/, 'o log de requisições está ligado');
    assert.ok(codigo.length > 10 && sessao.length > 50 && csrf.length > 10);
    for (const [nome, segredo] of [
      ['appSession', sessao],
      ['code', codigo],
      ['csrf', csrf],
      ['authorization', 'segredo-do-cabecalho'],
      ['segredo', SEGREDO],
      ['descadastro', tokenDeSaida],
    ] as const) {
      assert.ok(!log.includes(segredo), `${nome} apareceu no log`);
    }
    assert.match(log, /"url":"\/avisos\/sair\/\[oculto\]"/, 'o link de descadastro aparece só mascarado');
    assert.match(log, /code=%5Boculto%5D/, 'o código do retorno do provedor aparece só mascarado');
  } finally {
    servidor.filho.kill('SIGTERM');
    await saiu(servidor.filho);
  }
});

test(`o limite de tentativas de login vale somando dois processos no mesmo banco (${DIALETO})`, async () => {
  const cfg = await bancoNovo();
  const env = { VARIANTS: 'mercados', MERCADOS_PORT: '0' };
  const subirMercados = async () => {
    const s = await subirGenerico(urlDoBanco(cfg), env, /Mercados:\s+(http:\/\/\S+)/);
    return s;
  };
  const a = await subirMercados();
  const b = await subirMercados();
  try {
    const tentar = (url: string) => fetch(`${url}/auth/idp`, { redirect: 'manual' });
    const statuses: number[] = [];
    for (const url of [a.url, b.url, a.url, b.url, a.url]) statuses.push((await tentar(url)).status);
    assert.deepEqual(statuses, [302, 302, 302, 302, 302]);
    const sexta = await tentar(b.url);
    assert.equal(sexta.status, 429, 'a sexta tentativa, no outro processo, é recusada');
    assert.match(await sexta.text(), /Muitas tentativas de login\. Tente novamente em 15 minutos\./);
  } finally {
    for (const s of [a, b]) {
      s.filho.kill('SIGTERM');
      await saiu(s.filho);
    }
  }
});
