/**
 * `npm run bench:assinaturas [-- --pg URL] [-- --assinaturas N] [-- --smoke]`
 *
 * Subscription generation at scale (issue 23): the bench's database (bench/preparo.ts: 5,000
 * consumers, its cycle in the order window with the orders of 4,000 of them already in), then N
 * subscriptions (5,000 by default: every consumer subscribes to one basket type, in the order
 * they are numbered), and room in the cycle for all of them but the last 100 of one basket type (10 with --smoke).
 * Measured, on SQLite and (with --pg, an EMPTY database) on PostgreSQL:
 * - one generation of the whole cycle, as the periodic round runs it: its time and statements;
 * - the same run again (nothing left to generate): its time and statements;
 * - two processes' generations at once, on a fresh copy of the same data (two child processes):
 *   the total time, and that every subscription was generated exactly once;
 * - one generation with e-mail on, on another fresh copy: each order's receipt written to the
 *   outbox in the same transaction, as the service does.
 * Checked every time, or the script exits 1: each subscription has exactly one row for the
 * cycle; served subscriptions hold exactly one basket line with their quantity; no basket type
 * is reserved beyond its room; the 100 not served are the LAST subscribers of the short type.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import type { BancoConfig } from '../src/config.ts';
import { abrirBanco, type Banco } from '../src/db/banco.ts';
import { carregarConfig } from '../src/config.ts';
import { gerarPedidosDoCiclo } from '../src/domain/assinaturas/geracao.ts';
import { Correio } from '../src/mensagens/correio/correio.ts';
import { diaLocal } from '../src/domain/tempo.ts';
import { prepararBanco, TZ, type DadosDoBench } from './preparo.ts';

const { values } = parseArgs({
  options: {
    pg: { type: 'string' },
    assinaturas: { type: 'string' },
    smoke: { type: 'boolean', default: false },
    // A child's part: generate one cycle in the database given (JSON BancoConfig) and print the summary.
    gerar: { type: 'string' },
    ciclo: { type: 'string' },
  },
});

const N = values.assinaturas !== undefined ? Number(values.assinaturas) : values.smoke ? 300 : 5000;
if (!Number.isInteger(N) || N < 200) throw new Error('--assinaturas: um inteiro a partir de 200');
const CONSUMIDORES = Math.max(N, values.smoke ? 300 : 5000);
const FALTAM = values.smoke ? 10 : 100;
const TAXA = { percentualCentesimos: 0, fixaCentavos: 0 };

interface Medida {
  readonly banco: BancoConfig['tipo'];
  readonly assinaturas: number;
  readonly primeiraMs: number;
  readonly primeiraConsultas: number;
  readonly geradas: number;
  readonly faltaram: number;
  readonly deNovoMs: number;
  readonly deNovoConsultas: number;
  readonly duasAoMesmoTempoMs: number;
  readonly duasGeradas: readonly [number, number];
  readonly comRecibosMs: number;
  readonly comRecibosConsultas: number;
}

/** Subscriptions for the first N consumers (type i % 6), oldest first; room for all but the last FALTAM of type 0. */
async function assinar(cfg: BancoConfig, d: DadosDoBench): Promise<void> {
  const banco = abrirBanco(cfg);
  try {
    const cestas = await banco
      .selectFrom('ciclocesta')
      .select(['id', 'cestaId', 'quantidadeCestas', 'reservadoMilesimos'])
      .where('cicloid', '=', d.cicloPedido)
      .orderBy('id')
      .execute();
    const ids = new Map(
      (await banco.selectFrom('usuario').select(['id', 'email']).execute()).map((u) => [u.email, u.id]),
    );
    const hoje = diaLocal(new Date(), TZ);
    const linhas = d.consumidores.slice(0, N).map((email, i) => ({
      usuarioid: ids.get(email) ?? 0,
      cestaId: cestas[i % cestas.length]?.cestaId ?? 0,
      quantidade: 1,
      pontoEntregaId: d.pontos[i % d.pontos.length] ?? 0,
      frequencia: 'cada_ciclo' as const,
      inicio: hoje.slice(0, 4) + '-01-01',
      fim: hoje.slice(0, 4) + '-12-31',
      mercadoId: null,
      ativa: true,
      // Subscribed one second apart: the order of service is the order of subscription.
      createdAt: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
      updatedAt: new Date().toISOString(),
    }));
    for (let i = 0; i < linhas.length; i += 500)
      await banco
        .insertInto('assinatura')
        .values(linhas.slice(i, i + 500))
        .execute();
    for (const [k, c] of cestas.entries()) {
      const assinantes = linhas.filter((_, i) => i % cestas.length === k).length;
      const livres = c.quantidadeCestas - Math.ceil(Number(c.reservadoMilesimos) / 1000);
      const falta = k === 0 ? FALTAM : 0;
      const quantidadeCestas = c.quantidadeCestas + Math.max(0, assinantes - livres) - falta;
      await banco.updateTable('ciclocesta').set({ quantidadeCestas }).where('id', '=', c.id).execute();
      // Orders take what the composition packs (DOMAIN.md, "Order"): it packs the same number.
      const composta = await banco
        .updateTable('composicao')
        .set({ quantidadeCestas })
        .where('cicloCestaId', '=', c.id)
        .executeTakeFirst();
      if (Number(composta.numUpdatedRows) !== 1) throw new Error(`a cesta do ciclo ${c.id} não tem composição`);
    }
  } finally {
    await banco.destroy();
  }
}

async function reservadoNoCiclo(banco: Banco, d: DadosDoBench): Promise<number> {
  const linhas = await banco
    .selectFrom('ciclocesta')
    .select('reservadoMilesimos')
    .where('cicloid', '=', d.cicloPedido)
    .execute();
  return linhas.reduce((t, l) => t + Number(l.reservadoMilesimos), 0);
}

async function conferir(
  banco: Banco,
  d: DadosDoBench,
  antes: number,
  geradas: number,
  faltaram: number,
): Promise<void> {
  const erros: string[] = [];
  const linhasDoCiclo = await banco
    .selectFrom('assinaturaciclo')
    .select(['assinaturaId', 'situacao'])
    .where('cicloid', '=', d.cicloPedido)
    .execute();
  if (linhasDoCiclo.length !== N) erros.push(`${linhasDoCiclo.length} linhas de assinatura no ciclo, esperadas ${N}`);
  if (new Set(linhasDoCiclo.map((l) => l.assinaturaId)).size !== linhasDoCiclo.length)
    erros.push('uma assinatura com duas linhas no ciclo');
  const cestasDeAssinatura = await banco
    .selectFrom('pedidoproduto as pp')
    .innerJoin('pedido as p', 'p.id', 'pp.pedidoid')
    .select('pp.assinaturaId')
    .where('p.cicloid', '=', d.cicloPedido)
    .where('pp.assinaturaId', 'is not', null)
    .execute();
  if (cestasDeAssinatura.length !== geradas || new Set(cestasDeAssinatura.map((l) => l.assinaturaId)).size !== geradas)
    erros.push(`${cestasDeAssinatura.length} linhas de cesta de assinatura, esperadas ${geradas}, uma por assinatura`);
  // Each served subscription reserved exactly its one basket (in a line of its own, or added to the consumer's one-off line).
  const reservado = await reservadoNoCiclo(banco, d);
  if (reservado - antes !== geradas * 1000)
    erros.push(`as reservas cresceram ${(reservado - antes) / 1000} cestas, esperadas ${geradas}`);
  if (geradas + faltaram !== N || faltaram !== FALTAM)
    erros.push(`${geradas} geradas e ${faltaram} faltaram, esperadas ${N - FALTAM} e ${FALTAM}`);
  const demais = await banco
    .selectFrom('ciclocesta')
    .select(['id', 'quantidadeCestas', 'reservadoMilesimos'])
    .where('cicloid', '=', d.cicloPedido)
    .execute();
  for (const c of demais)
    if (Number(c.reservadoMilesimos) > c.quantidadeCestas * 1000)
      erros.push(`cesta do ciclo ${c.id}: reservadas ${Number(c.reservadoMilesimos) / 1000} de ${c.quantidadeCestas}`);
  // The short ones are the last subscribers of type 0.
  const faltas = await banco
    .selectFrom('assinaturaciclo as ac')
    .innerJoin('assinatura as a', 'a.id', 'ac.assinaturaId')
    .select(['a.createdAt', 'a.cestaId'])
    .where('ac.cicloid', '=', d.cicloPedido)
    .where('ac.situacao', '=', 'faltou')
    .execute();
  const servidasDoTipo = await banco
    .selectFrom('assinaturaciclo as ac')
    .innerJoin('assinatura as a', 'a.id', 'ac.assinaturaId')
    .select((eb) => eb.fn.max('a.createdAt').as('ultima'))
    .where('ac.cicloid', '=', d.cicloPedido)
    .where('ac.situacao', '=', 'gerado')
    .where('a.cestaId', 'in', [...new Set(faltas.map((f) => f.cestaId)), -1])
    .executeTakeFirst();
  const primeiraFalta = faltas.map((f) => f.createdAt).sort()[0];
  if (
    primeiraFalta !== undefined &&
    servidasDoTipo?.ultima !== undefined &&
    servidasDoTipo.ultima !== null &&
    String(servidasDoTipo.ultima) > primeiraFalta
  )
    erros.push('uma assinatura mais nova foi servida antes de uma mais antiga');
  if (erros.length > 0) throw new Error(`conferência falhou: ${erros.join('; ')}`);
}

async function medir(tipo: BancoConfig['tipo'], novoBanco: () => Promise<BancoConfig>): Promise<Medida> {
  // One generation, then again.
  const cfg = await novoBanco();
  const d = await prepararBanco(cfg, {
    consumidores: CONSUMIDORES,
    fornecedores: 60,
    linhas: 400,
    pedintes: Math.round(CONSUMIDORES / 5),
    mercados: 0,
  });
  await assinar(cfg, d);
  let consultas = 0;
  const banco = abrirBanco(cfg, {
    aoConsultar: () => {
      consultas++;
    },
  });
  const agora = new Date();
  const opcoes = { agora, hoje: diaLocal(agora, TZ), taxa: TAXA, tz: TZ };
  try {
    const antes = await reservadoNoCiclo(banco, d);
    consultas = 0;
    let t0 = performance.now();
    const r = await gerarPedidosDoCiclo(banco, d.cicloPedido, opcoes);
    const primeiraMs = performance.now() - t0;
    const primeiraConsultas = consultas;
    await conferir(banco, d, antes, r.gerados, r.faltaram.length);
    consultas = 0;
    t0 = performance.now();
    const deNovo = await gerarPedidosDoCiclo(banco, d.cicloPedido, opcoes);
    const deNovoMs = performance.now() - t0;
    const deNovoConsultas = consultas;
    if (deNovo.gerados !== 0 || deNovo.faltaram.length !== 0)
      throw new Error(`a segunda geração fez ${deNovo.gerados} pedidos e ${deNovo.faltaram.length} faltas`);
    console.log(
      `${tipo}: ${N} assinaturas, ${r.gerados} geradas e ${r.faltaram.length} sem cesta em ${Math.round(primeiraMs)} ms (${primeiraConsultas} consultas); de novo, ${Math.round(deNovoMs)} ms (${deNovoConsultas} consultas)`,
    );

    // Two processes at once, on fresh data.
    const cfg2 = await novoBanco();
    const d2 = await prepararBanco(cfg2, {
      consumidores: CONSUMIDORES,
      fornecedores: 60,
      linhas: 400,
      pedintes: Math.round(CONSUMIDORES / 5),
      mercados: 0,
    });
    await assinar(cfg2, d2);
    const a = abrirBanco(cfg2);
    let duas: { ms: number; ra: Resumo; rb: Resumo };
    try {
      const antes2 = await reservadoNoCiclo(a, d2);
      t0 = performance.now();
      const [ra, rb] = await Promise.all([
        gerarNoutroProcesso(cfg2, d2.cicloPedido),
        gerarNoutroProcesso(cfg2, d2.cicloPedido),
      ]);
      duas = { ms: performance.now() - t0, ra, rb };
      await conferir(a, d2, antes2, ra.gerados + rb.gerados, ra.faltaram.length + rb.faltaram.length);
      console.log(
        `${tipo}: duas gerações ao mesmo tempo, ${ra.gerados} + ${rb.gerados} geradas em ${Math.round(duas.ms)} ms; cada assinatura uma vez`,
      );
    } finally {
      await a.destroy();
    }
    const recibos = await comRecibos(novoBanco);
    console.log(
      `${tipo}: com os recibos na caixa de saída (e-mail ligado), ${Math.round(recibos.ms)} ms (${recibos.consultas} consultas)`,
    );
    return {
      banco: tipo,
      assinaturas: N,
      primeiraMs: Math.round(primeiraMs),
      primeiraConsultas,
      geradas: r.gerados,
      faltaram: r.faltaram.length,
      deNovoMs: Math.round(deNovoMs),
      deNovoConsultas,
      duasAoMesmoTempoMs: Math.round(duas.ms),
      duasGeradas: [duas.ra.gerados, duas.rb.gerados],
      comRecibosMs: Math.round(recibos.ms),
      comRecibosConsultas: recibos.consultas,
    };
  } finally {
    await banco.destroy();
  }
}

interface Resumo {
  readonly gerados: number;
  readonly faltaram: readonly unknown[];
}

/**
 * As the service runs it with e-mail on: each generated order's receipt written to the outbox in
 * the generation's transaction (the sender is pointed at a closed port and never delivers).
 */
async function comRecibos(novoBanco: () => Promise<BancoConfig>): Promise<{ ms: number; consultas: number }> {
  const cfg = await novoBanco();
  const d = await prepararBanco(cfg, {
    consumidores: CONSUMIDORES,
    fornecedores: 60,
    linhas: 400,
    pedintes: Math.round(CONSUMIDORES / 5),
    mercados: 0,
  });
  await assinar(cfg, d);
  let consultas = 0;
  const banco = abrirBanco(cfg, {
    aoConsultar: () => {
      consultas++;
    },
  });
  const relogio = { agora: () => new Date() };
  const correio = new Correio({
    config: carregarConfig({}),
    banco,
    relogio,
    baseUrl: () => 'http://localhost:3000',
    smtp: 'smtp://127.0.0.1:9',
  });
  try {
    const antes = await reservadoNoCiclo(banco, d);
    consultas = 0;
    const agora = new Date();
    const t0 = performance.now();
    const r = await gerarPedidosDoCiclo(banco, d.cicloPedido, {
      agora,
      hoje: diaLocal(agora, TZ),
      taxa: TAXA,
      tz: TZ,
      avisos: correio,
    });
    const ms = performance.now() - t0;
    const n = consultas;
    await conferir(banco, d, antes, r.gerados, r.faltaram.length);
    const recibos = await banco
      .selectFrom('mensagem')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('cicloid', '=', d.cicloPedido)
      .where('tipo', '=', 'recibo')
      .executeTakeFirstOrThrow();
    if (Number(recibos.n) !== r.gerados)
      throw new Error(`${Number(recibos.n)} recibos na caixa de saída, esperados ${r.gerados}`);
    return { ms, consultas: n };
  } finally {
    await correio.fechar();
    await banco.destroy();
  }
}

/** One generation in a child process (as another worker or machine would run it). */
function gerarNoutroProcesso(cfg: BancoConfig, cicloid: number): Promise<Resumo> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [...process.execArgv, fileURLToPath(import.meta.url), '--gerar', JSON.stringify(cfg), '--ciclo', String(cicloid)],
      { maxBuffer: 64 * 1024 * 1024 },
      (erro, saida) => {
        if (erro !== null) reject(erro);
        else resolve(JSON.parse(saida) as Resumo);
      },
    );
  });
}

if (values.gerar !== undefined) {
  const banco = abrirBanco(JSON.parse(values.gerar) as BancoConfig);
  const agora = new Date();
  const r = await gerarPedidosDoCiclo(banco, Number(values.ciclo), {
    agora,
    hoje: diaLocal(agora, TZ),
    taxa: TAXA,
    tz: TZ,
  });
  await banco.destroy();
  process.stdout.write(JSON.stringify(r));
  process.exit(0);
}

const pasta = mkdtempSync(join(tmpdir(), 'cestaria-assinaturas-'));
const medidas: Medida[] = [];
const carga = loadavg()
  .map((x) => x.toFixed(2))
  .join(' ');
try {
  let n = 0;
  medidas.push(await medir('sqlite', async () => ({ tipo: 'sqlite', caminho: join(pasta, `bench-${n++}.db`) })));
  const url = values.pg;
  if (url !== undefined) {
    // The first copy goes in the database given (empty); the second in a schema-less twin created beside it.
    let usado = false;
    const irmao = `${url.replace(/\/([^/?]+)(\?|$)/, '/$1_2$2')}`;
    medidas.push(
      await medir('postgres', async () => {
        if (!usado) {
          usado = true;
          return { tipo: 'postgres', url };
        }
        const admin = abrirBanco({ tipo: 'postgres', url });
        try {
          const nome = new URL(irmao.replace(/^postgres(ql)?:/, 'http:')).pathname.slice(1);
          await sql.raw(`drop database if exists "${nome}"`).execute(admin);
          await sql.raw(`create database "${nome}"`).execute(admin);
        } finally {
          await admin.destroy();
        }
        return { tipo: 'postgres', url: irmao };
      }),
    );
  }
} finally {
  rmSync(pasta, { recursive: true, force: true });
}
console.table(
  medidas.map((m) => ({
    banco: m.banco,
    assinaturas: m.assinaturas,
    'geradas / sem cesta': `${m.geradas} / ${m.faltaram}`,
    'geração ms': m.primeiraMs,
    consultas: m.primeiraConsultas,
    'ms por assinatura': Math.round((m.primeiraMs / m.assinaturas) * 100) / 100,
    'de novo ms': m.deNovoMs,
    'de novo consultas': m.deNovoConsultas,
    'duas ao mesmo tempo ms': m.duasAoMesmoTempoMs,
    'geradas por uma / outra': m.duasGeradas.join(' / '),
    'com recibos ms': m.comRecibosMs,
    'com recibos consultas': m.comRecibosConsultas,
  })),
);
console.log(
  `Carga da máquina (1, 5, 15 min) no início: ${carga}; no fim: ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
if (!values.smoke) {
  mkdirSync('bench/results', { recursive: true });
  writeFileSync(
    join('bench/results', `${new Date().toISOString().slice(0, 10)}-assinaturas.json`),
    `${JSON.stringify({ carga, medidas }, null, 2)}\n`,
  );
}
