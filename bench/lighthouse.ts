/**
 * `npm run bench:lighthouse [-- --paginas REGEX] [-- --faces cestas,mercados]`
 *
 * Lighthouse 13's mobile preset (its default: a mid-range phone, simulated slow 4G and 4× CPU) on
 * every page of both faces, signed in. The real server runs in a child process on a fresh SQLite
 * database with the demo data; Debian's chromium (driven by playwright-core) logs in through the
 * development provider as a person who may see the page (ana@exemplo.org, master in Cestas and
 * Administrador in Mercados, for most; elias@exemplo.org, Consumidor and Fornecedor in Mercados, for
 * the consumer's and the supplier's pages), one browser per person, and Lighthouse opens each page
 * in that person's browser, so the session cookies go along. Every id in an address is a real one
 * of the demo data, so each page is drawn with content, as its people see it.
 *
 * After Lighthouse, the same browser opens the page again and checks it is the page asked for: the
 * address it ends on (not /unauthorized, not /login), the status of the document (< 400), and, in
 * the Mercados client, no error message where the page should be. A page that fails this counts as
 * below the target, whatever its scores.
 *
 * Prints a table of the performance and accessibility scores and FCP, LCP, TBT and CLS per page,
 * with the failed accessibility audits and the main performance opportunities of each page that
 * misses the target (performance ≥ 95, accessibility 100), and writes it all to
 * bench/results/<date>-lighthouse.json. Installs nothing: `lighthouse` is a devDependency
 * (LIGHTHOUSE_DIR may point at another installation's node_modules/lighthouse instead).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { abrirBanco } from '../src/db/banco.ts';
import { PAGINAS_DA_RETIRADA, PAGINAS_DO_CLIENTE } from '../src/mercados/cliente.ts';
import { parar, portaLivre, subirServidor, RAIZ } from './processos.ts';

const { values } = parseArgs({
  options: {
    paginas: { type: 'string' },
    faces: { type: 'string', default: 'cestas,mercados' },
    // A folder: each page's Chromium trace, DevTools log and Lighthouse result are written there, to be read apart.
    rastros: { type: 'string' },
  },
});

const ALVO = { desempenho: 95, acessibilidade: 100 } as const;

/** Who the pages are seen as, from the demo data (src/demo/dados.ts, src/demo/mercados.ts). */
const PESSOAS = {
  /** master in Cestas, Administrador in Mercados: every Cestas page, and the Mercados pages of the administration. */
  ana: { email: 'ana@exemplo.org', nome: 'Ana' },
  /** Fornecedor and Consumidor in Mercados (and AdminMercado of the Feira da Associação): offers and orders in the demo cycles; a subscriber in Cestas. */
  elias: { email: 'elias@exemplo.org', nome: 'Elias' },
} as const;
type Pessoa = keyof typeof PESSOAS;

/** The flags the closed network here needs (nothing may try to reach the internet). */
const FLAGS_DO_CHROMIUM = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// What this script reads of Lighthouse's result (the LHR); the module itself is loaded at run time.
interface Auditoria {
  readonly id: string;
  readonly title: string;
  readonly score: number | null;
  readonly scoreDisplayMode: string;
  readonly numericValue?: number;
  readonly displayValue?: string;
  readonly details?: {
    readonly type?: string;
    readonly overallSavingsMs?: number;
    readonly items?: ReadonlyArray<Record<string, unknown>>;
  };
}
interface ResultadoLighthouse {
  readonly finalDisplayedUrl: string;
  readonly environment: { readonly benchmarkIndex: number };
  readonly runtimeError?: { readonly message: string };
  readonly categories: Readonly<
    Record<
      'performance' | 'accessibility',
      {
        readonly score: number | null;
        readonly auditRefs: ReadonlyArray<{ readonly id: string; readonly weight: number }>;
      }
    >
  >;
  readonly audits: Readonly<Record<string, Auditoria>>;
}
type Lighthouse = (
  url: string,
  flags: Record<string, unknown>,
) => Promise<
  | {
      readonly lhr: ResultadoLighthouse;
      readonly artifacts: { readonly Trace?: unknown; readonly DevtoolsLog?: unknown };
    }
  | undefined
>;

async function carregarLighthouse(): Promise<Lighthouse> {
  const onde = process.env.LIGHTHOUSE_DIR;
  const especificador =
    onde === undefined || onde === '' ? 'lighthouse' : pathToFileURL(join(onde, 'core', 'index.js')).href;
  try {
    const modulo = (await import(especificador)) as { default: Lighthouse };
    return modulo.default;
  } catch (e) {
    throw new Error(
      `não achei o Lighthouse (${especificador}): rode npm install (é uma devDependency) ou aponte LIGHTHOUSE_DIR para node_modules/lighthouse (${(e as Error).message})`,
      { cause: e },
    );
  }
}

interface Pagina {
  readonly face: 'cestas' | 'mercados';
  readonly caminho: string;
  readonly pessoa: Pessoa;
}

/** The ids the pages need, from the demo data: the cycle in each phase, a market, a lot, a person. */
async function idsDaDemo(caminhoBanco: string) {
  const banco = abrirBanco({ tipo: 'sqlite', caminho: caminhoBanco });
  try {
    const ciclos = new Map(
      (await banco.selectFrom('ciclo').select(['id', 'nome']).execute()).map((c) => [c.nome, c.id]),
    );
    const ciclo = (nome: string) => {
      const id = ciclos.get(nome);
      if (id === undefined) throw new Error(`a demonstração não tem o "${nome}"`);
      return id;
    };
    const pedidos = ciclo('Ciclo com pedidos abertos');
    const primeiro = async (tabela: 'categoria' | 'cesta' | 'produto' | 'pontoentrega' | 'usuario' | 'mercado') =>
      (await banco.selectFrom(tabela).select('id').orderBy('id').limit(1).executeTakeFirstOrThrow()).id;
    const pessoa = async (email: string) =>
      (await banco.selectFrom('usuario').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;
    const lote = await banco
      .selectFrom('lote')
      .select('id')
      .where('cicloid', '=', pedidos)
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    // The Mercados market whose pages are measured: one the cycle with open orders serves (its orders page has content).
    const { mercadoId } = await banco
      .selectFrom('ciclomercado')
      .select('mercadoId')
      .where('cicloid', '=', pedidos)
      .orderBy('mercadoId')
      .limit(1)
      .executeTakeFirstOrThrow();
    // A direct-sale market of that cycle, for the page that releases what it sells.
    const vendaDireta = await banco
      .selectFrom('ciclomercado as cm')
      .innerJoin('mercado as m', 'm.id', 'cm.mercadoId')
      .select('cm.mercadoId')
      .where('cm.cicloid', '=', pedidos)
      .where('m.tipo', '=', 'venda_direta')
      .orderBy('cm.mercadoId')
      .limit(1)
      .executeTakeFirst();
    // The pickup app's pages: the first confirmed order of the cycle in pickup, and its point.
    const naRetirada = await banco
      .selectFrom('pedido')
      .select(['id', 'pontoEntregaId'])
      .where('cicloid', '=', ciclo('Ciclo em retirada'))
      .where('finalizado', '=', true)
      .orderBy('id')
      .limit(1)
      .executeTakeFirstOrThrow();
    return {
      pedidoNaRetirada: naRetirada.id,
      pontoNaRetirada: naRetirada.pontoEntregaId,
      oferta: ciclo('Ciclo com ofertas abertas'),
      composicao: ciclo('Ciclo em composição'),
      pedidos,
      retirada: ciclo('Ciclo em retirada'),
      lote: lote?.id ?? null,
      categoria: await primeiro('categoria'),
      cesta: await primeiro('cesta'),
      produto: await primeiro('produto'),
      pontoentrega: await primeiro('pontoentrega'),
      usuario: await primeiro('usuario'),
      mercado: mercadoId,
      vendaDireta: vendaDireta?.mercadoId ?? null,
      // The master sees a supplier's offer and a consumer's order by naming them (?usuarioid=).
      fornecedora: await pessoa('dora@exemplo.org'),
      consumidora: await pessoa('fabi@exemplo.org'),
    };
  } finally {
    await banco.destroy();
  }
}

type Ids = Awaited<ReturnType<typeof idsDaDemo>>;

/**
 * Each address of the Mercados client (PAGINAS_DO_CLIENTE): the page to measure, with real ids,
 * and who sees it. An address missing here stops the script, so a new page is not left out.
 */
const PAGINAS_MERCADOS: Readonly<Record<string, (ids: Ids) => readonly [string, Pessoa]>> = {
  '/': () => ['/', 'ana'],
  '/unauthorized': () => ['/unauthorized', 'ana'],
  '/dashboard': () => ['/dashboard', 'ana'],
  '/mercados': () => ['/mercados', 'ana'],
  '/mercados/novo': () => ['/mercados/novo', 'ana'],
  '/mercados/:id': (ids) => [`/mercados/${ids.mercado}`, 'ana'],
  '/mercados/:id/editar': (ids) => [`/mercados/${ids.mercado}/editar`, 'ana'],
  '/mercados/:id/precos': (ids) => [`/mercados/${ids.mercado}/precos`, 'ana'],
  '/usuarios': () => ['/usuarios', 'ana'],
  '/avisos': () => ['/avisos', 'ana'],
  '/ciclos': () => ['/ciclos', 'ana'],
  // The consumer's pages: Elias's order in the cycle with open orders, and his orders.
  '/ciclos/:id/pedido': (ids) => [`/ciclos/${ids.pedidos}/pedido`, 'elias'],
  '/pedidos': () => ['/pedidos', 'elias'],
  // The supplier's pages: his offer in the cycle with open offers, and what he delivers in the cycle with orders.
  '/ciclos/:id/oferta': (ids) => [`/ciclos/${ids.oferta}/oferta`, 'elias'],
  '/ciclos/:id/entregas': (ids) => [`/ciclos/${ids.pedidos}/entregas`, 'elias'],
  '/entregas': () => ['/entregas', 'elias'],
  '/mercados/:id/ciclos/:cicloId/pedidos': (ids) => [`/mercados/${ids.mercado}/ciclos/${ids.pedidos}/pedidos`, 'ana'],
  '/ciclos/:id/mercados': (ids) => [`/ciclos/${ids.pedidos}/mercados`, 'ana'],
  // The pickup app (PAGINAS_DA_RETIRADA): the points, a point's list, an order opened.
  '/retirada': () => ['/retirada', 'ana'],
  '/retirada/:cicloId/:pontoId': (ids) => [`/retirada/${ids.retirada}/${ids.pontoNaRetirada}`, 'ana'],
  '/retirada/:cicloId/:pontoId/pedido/:pedidoId': (ids) => [
    `/retirada/${ids.retirada}/${ids.pontoNaRetirada}/pedido/${ids.pedidoNaRetirada}`,
    'ana',
  ],
};

/**
 * Every page of the Cestas face a browser shows (test/cestas/acesso.test.ts MATRIZ lists all its
 * routes; files, downloads, JSON and steps of the login are left out), and every address of the
 * Mercados client (PAGINAS_DO_CLIENTE), with real ids.
 */
function paginas(ids: Ids): Pagina[] {
  const registros = (['categoria', 'cesta', 'produto', 'pontoentrega', 'usuario', 'ciclo'] as const).flatMap((r) => [
    `/${r}-index`,
    `/${r}`,
    `/${r}/${r === 'ciclo' ? ids.pedidos : ids[r]}`,
  ]);
  const cestas = [
    '/',
    '/limitesolar',
    '/profile',
    '/profile/avisos',
    '/mensagens',
    '/auditoria',
    '/relatorios',
    '/saldo',
    '/movimentacao',
    '/movimentacaotodos',
    '/cobrancas',
    '/extratos',
    ...registros,
    `/ciclo/${ids.pedidos}/mercados`,
    `/ciclo/${ids.pedidos}/lotes`,
    ...(ids.lote === null ? [] : [`/ciclo/${ids.pedidos}/lotes/${ids.lote}`]),
    `/ciclo/${ids.pedidos}/mensagem`,
    '/oferta-index',
    `/oferta/${ids.oferta}?usuarioid=${ids.fornecedora}`,
    `/composicao/${ids.composicao}`,
    `/pedidoconsumidores/${ids.pedidos}?usuarioid=${ids.consumidora}`,
    `/pedidoconsumidoresconfirmacao/${ids.pedidos}`,
    `/pedidosconsumidorestodos/${ids.pedidos}`,
    `/fecharciclo/${ids.retirada}`,
    `/pedidosfornecedoressobra/${ids.retirada}`,
    `/pedidosfornecedorestodos/${ids.retirada}`,
    '/pedidosfornecedoresciclos',
    '/pedidosconsumidoresciclos',
    '/relatorioprodutosciclos',
    '/assinaturas/todas',
    ...(ids.vendaDireta === null ? [] : [`/ciclo/${ids.pedidos}/mercado/${ids.vendaDireta}/liberar`]),
  ];
  // A subscriber's own page: Elias subscribes in the demo (one subscription paused, then active).
  const deQuemAssina: Pagina[] = [{ face: 'cestas', caminho: '/assinaturas', pessoa: 'elias' }];
  const mercados = [...PAGINAS_DO_CLIENTE, ...PAGINAS_DA_RETIRADA].map(([url]): Pagina => {
    const escolher = PAGINAS_MERCADOS[url];
    if (escolher === undefined)
      throw new Error(
        `a página ${url} do cliente Mercados não está em PAGINAS_MERCADOS (bench/lighthouse.ts): diga com que ids e quem a vê`,
      );
    const [caminho, pessoa] = escolher(ids);
    return { face: 'mercados', caminho, pessoa };
  });
  return [
    ...cestas.map((caminho): Pagina => ({ face: 'cestas', caminho, pessoa: 'ana' })),
    ...deQuemAssina,
    ...mercados,
  ];
}

/** Logs in on one face through the development provider (the provider may remember the person). */
async function entrar(pagina: Page, inicio: string, origem: string, pessoa: Pessoa): Promise<void> {
  await pagina.goto(inicio);
  await pagina.waitForURL((u) => /\/interaction\/[^/]+$/.test(u.pathname) || u.href.startsWith(origem));
  if (/\/interaction\//.test(pagina.url())) {
    await pagina.fill('#email', PESSOAS[pessoa].email);
    await pagina.fill('#nome', PESSOAS[pessoa].nome);
    await Promise.all([
      pagina.waitForURL((u) => u.href.startsWith(origem)),
      pagina.click('form button[type=submit] >> nth=0'),
    ]);
  }
  await pagina.waitForLoadState('load');
}

interface Medida {
  readonly face: string;
  readonly caminho: string;
  readonly pessoa: string;
  /** Where the page ended, as Lighthouse saw it. */
  readonly url: string;
  readonly desempenho: number | null;
  readonly acessibilidade: number | null;
  readonly fcpMs: number | null;
  readonly lcpMs: number | null;
  readonly tbtMs: number | null;
  readonly cls: number | null;
  readonly bytes: number | null;
  /** Lighthouse's measure of this machine's speed at the time (a loaded machine scores lower, and its TBT grows). */
  readonly indiceDaMaquina: number;
  /** Accessibility audits that failed, and the performance audits that cost the most. */
  readonly falhasDeAcessibilidade: string[];
  readonly oportunidades: string[];
  readonly erro?: string;
}

const pontos = (s: number | null | undefined) => (s === null || s === undefined ? null : Math.round(s * 100));

function medir(p: Pagina, url: string, lhr: ResultadoLighthouse): Medida {
  const a = lhr.audits;
  const valor = (id: string) => a[id]?.numericValue ?? null;
  const falhas = lhr.categories.accessibility.auditRefs
    .map((r) => a[r.id])
    .filter((x): x is Auditoria => x !== undefined && x.scoreDisplayMode === 'binary' && x.score === 0)
    .map((x) => {
      const alvos = (x.details?.items ?? [])
        .map((i) => (i.node as { selector?: string } | undefined)?.selector)
        .filter((s): s is string => s !== undefined)
        .slice(0, 3);
      return `${x.id}: ${x.title}${alvos.length === 0 ? '' : ` (${alvos.join(' | ')})`}`;
    });
  const oportunidades = Object.values(a)
    .filter((x) => x.score !== null && x.score < 0.9 && (x.details?.overallSavingsMs ?? 0) >= 50)
    .sort((x, y) => (y.details?.overallSavingsMs ?? 0) - (x.details?.overallSavingsMs ?? 0))
    .slice(0, 4)
    .map((x) => `${x.id}: ${x.title} (~${Math.round(x.details?.overallSavingsMs ?? 0)} ms)`);
  // What moved, when the layout shifted.
  const deslocamentos = (a['layout-shifts']?.details?.items ?? [])
    .map(
      (i) =>
        `layout-shifts: ${(i.node as { selector?: string } | undefined)?.selector ?? '?'} (${Number(i.score ?? 0).toFixed(3)})`,
    )
    .slice(0, 4);
  oportunidades.push(...deslocamentos);
  return {
    face: p.face,
    caminho: p.caminho,
    pessoa: PESSOAS[p.pessoa].email,
    url: lhr.finalDisplayedUrl,
    desempenho: pontos(lhr.categories.performance.score),
    acessibilidade: pontos(lhr.categories.accessibility.score),
    fcpMs: valor('first-contentful-paint'),
    lcpMs: valor('largest-contentful-paint'),
    tbtMs: valor('total-blocking-time'),
    cls: valor('cumulative-layout-shift'),
    bytes: valor('total-byte-weight'),
    indiceDaMaquina: Math.round(lhr.environment.benchmarkIndex),
    falhasDeAcessibilidade: falhas,
    oportunidades,
    ...(lhr.runtimeError === undefined ? {} : { erro: lhr.runtimeError.message }),
    ...(lhr.finalDisplayedUrl === url ? {} : { erro: `foi parar em ${lhr.finalDisplayedUrl}` }),
  };
}

/** The trace, the DevTools log and the result of one page, named after it (`mercados-mercados-1.trace.json`); the last try wins. */
function guardarRastro(
  pasta: string,
  p: Pagina,
  r: {
    readonly lhr: ResultadoLighthouse;
    readonly artifacts: { readonly Trace?: unknown; readonly DevtoolsLog?: unknown };
  },
): void {
  mkdirSync(pasta, { recursive: true });
  const nome = join(pasta, `${p.face}-${p.caminho.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'raiz'}`);
  writeFileSync(`${nome}.trace.json`, JSON.stringify(r.artifacts.Trace ?? null));
  writeFileSync(`${nome}.devtoolslog.json`, JSON.stringify(r.artifacts.DevtoolsLog ?? null));
  writeFileSync(`${nome}.lhr.json`, JSON.stringify(r.lhr));
}

/**
 * Opens the page again in the person's tab and says what is wrong, if it is not the page asked
 * for: another address at the end (/unauthorized, /login), an error status, or (in the Mercados
 * client, once its data arrived) an error message in place of the page.
 */
async function conferirPagina(aba: Page, p: Pagina, url: string): Promise<string | undefined> {
  const resposta = await aba.goto(url, { waitUntil: 'networkidle' });
  const status = resposta?.status() ?? 0;
  if (status >= 400) return `o documento respondeu ${status}`;
  if (aba.url() !== url) return `foi parar em ${aba.url()}`;
  if (p.face !== 'mercados' || p.caminho === '/unauthorized') return undefined;
  const principal = aba.locator('main');
  await principal
    .locator('.carregando')
    .first()
    .waitFor({ state: 'detached', timeout: 15_000 })
    .catch(() => undefined);
  if (aba.url() !== url) return `foi parar em ${aba.url()}`;
  if ((await principal.locator('.carregando').count()) > 0) return 'a página ainda estava carregando depois de 15 s';
  const alerta = principal.locator('.alerta');
  if ((await alerta.count()) > 0)
    return `a página mostrou um erro: ${(await alerta.first().innerText()).replace(/\s+/g, ' ').trim()}`;
  return undefined;
}

const ms = (v: number | null) => (v === null ? '—' : `${(v / 1000).toFixed(1)} s`);

function tabela(medidas: readonly Medida[]): string {
  const linhas = [
    '| Face | Página | Desempenho | Acessibilidade | FCP | LCP | TBT | CLS | Transferido | Índice da máquina |',
    '|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const m of medidas) {
    linhas.push(
      `| ${m.face} | \`${m.caminho}\` | ${m.desempenho ?? '—'} | ${m.acessibilidade ?? '—'} | ${ms(m.fcpMs)} | ${ms(m.lcpMs)} | ${m.tbtMs === null ? '—' : `${Math.round(m.tbtMs)} ms`} | ${m.cls === null ? '—' : m.cls.toFixed(3)} | ${m.bytes === null ? '—' : `${Math.round(m.bytes / 1024)} KiB`} | ${m.indiceDaMaquina} |`,
    );
  }
  return linhas.join('\n');
}

async function principal(): Promise<void> {
  const lighthouse = await carregarLighthouse();
  const pasta = mkdtempSync(join(tmpdir(), 'cestaria-lighthouse-'));
  const [cestasPorta, mercadosPorta, idpPorta, depuracao] = [
    await portaLivre(),
    await portaLivre(),
    await portaLivre(),
    await portaLivre(),
  ];
  const banco = join(pasta, 'cestaria.db');
  const servidor = await subirServidor({
    NODE_ENV: 'development',
    DEMO_DATA: 'true',
    DEV_SMTP: 'false',
    WORKERS: '1',
    LOG_LEVEL: 'warn',
    DATABASE_URL: `sqlite:${banco}`,
    UPLOAD_DIR: join(pasta, 'arquivos'),
    CESTAS_PORT: String(cestasPorta),
    MERCADOS_PORT: String(mercadosPorta),
    DEV_IDP_PORT: String(idpPorta),
    HOST: '127.0.0.1',
    VARIANTS: 'cestas,mercados',
  });
  let contexto: BrowserContext | null = null;
  try {
    // The provider sends people back to localhost (the faces' public addresses in development).
    const origens = { cestas: `http://localhost:${cestasPorta}`, mercados: `http://localhost:${mercadosPorta}` };
    const faces = new Set((values.faces ?? '').split(','));
    const filtro = values.paginas === undefined ? null : new RegExp(values.paginas);
    const alvos = paginas(await idsDaDemo(banco)).filter(
      (p) => faces.has(p.face) && (filtro === null || filtro.test(p.caminho)),
    );

    const medidas = new Map<Pagina, Medida>();
    // One browser per person, one after the other: each signs in once, on the faces its pages are in.
    for (const pessoa of Object.keys(PESSOAS) as Pessoa[]) {
      const dela = alvos.filter((p) => p.pessoa === pessoa);
      if (dela.length === 0) continue;
      // A persistent context is the browser's default one: the tabs Lighthouse opens share its cookies.
      contexto = await chromium.launchPersistentContext(join(pasta, `perfil-chromium-${pessoa}`), {
        executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
        headless: true,
        args: [...FLAGS_DO_CHROMIUM, `--remote-debugging-port=${depuracao}`],
        locale: 'pt-BR',
      });
      const aba = contexto.pages()[0] ?? (await contexto.newPage());
      if (dela.some((p) => p.face === 'cestas')) await entrar(aba, `${origens.cestas}/`, origens.cestas, pessoa);
      if (dela.some((p) => p.face === 'mercados'))
        await entrar(aba, `${origens.mercados}/login`, origens.mercados, pessoa);
      await aba.goto('about:blank');

      for (const p of dela) {
        const url = `${origens[p.face]}${p.caminho}`;
        let m: Medida | null = null;
        // A trace that failed to record (NO_NAVSTART, NO_FCP on a busy machine) is tried again, twice.
        for (let tentativa = 0; tentativa < 3 && (m === null || m.desempenho === null); tentativa++) {
          const r = await lighthouse(url, {
            port: depuracao,
            output: 'json',
            logLevel: 'error',
            onlyCategories: ['performance', 'accessibility'],
          });
          if (r === undefined) throw new Error(`o Lighthouse não devolveu resultado para ${url}`);
          m = medir(p, url, r.lhr);
          if (values.rastros !== undefined) guardarRastro(values.rastros, p, r);
        }
        if (m === null) throw new Error(`sem medida para ${url}`);
        const problema = m.erro ?? (await conferirPagina(aba, p, url));
        await aba.goto('about:blank');
        if (problema !== undefined) m = { ...m, erro: problema };
        medidas.set(p, m);
        console.log(
          `${p.face.padEnd(8)} ${p.caminho.padEnd(36)} desempenho ${String(m.desempenho ?? '—').padStart(3)}  acessibilidade ${String(m.acessibilidade ?? '—').padStart(3)}  ${PESSOAS[p.pessoa].email} → ${m.url}${m.erro === undefined ? '' : `  (${m.erro})`}`,
        );
      }
      await contexto.close();
      contexto = null;
    }
    const lista = alvos.map((p) => medidas.get(p)).filter((m): m is Medida => m !== undefined);

    const quem = [...new Set(lista.map((m) => m.pessoa))].join(', ');
    console.log(`\nLighthouse 13, perfil móvel, sessões de ${quem} nos dados de demonstração\n`);
    console.log(tabela(lista));
    const abaixo = lista.filter(
      (m) =>
        (m.desempenho ?? 0) < ALVO.desempenho || (m.acessibilidade ?? 0) < ALVO.acessibilidade || m.erro !== undefined,
    );
    if (abaixo.length > 0) {
      console.log(`\nAbaixo do alvo (desempenho ≥ ${ALVO.desempenho}, acessibilidade ${ALVO.acessibilidade}):`);
      for (const m of abaixo) {
        console.log(
          `- ${m.face} ${m.caminho}: desempenho ${m.desempenho ?? '—'}, acessibilidade ${m.acessibilidade ?? '—'}${m.erro === undefined ? '' : ` — ${m.erro}`}`,
        );
        for (const f of [...m.falhasDeAcessibilidade, ...m.oportunidades]) console.log(`    ${f}`);
      }
    }
    const dia = new Date().toISOString().slice(0, 10);
    const destino = join(
      RAIZ,
      'bench',
      'results',
      `${dia}-lighthouse${values.paginas === undefined && faces.size === 2 ? '' : '-parcial'}.json`,
    );
    mkdirSync(join(RAIZ, 'bench', 'results'), { recursive: true });
    writeFileSync(
      destino,
      `${JSON.stringify({ data: new Date().toISOString(), alvo: ALVO, perfil: 'mobile (padrão do Lighthouse 13)', pessoas: quem, paginas: lista }, null, 2)}\n`,
    );
    console.log(`\nresultado em ${destino.replace(`${RAIZ}/`, '')}`);
    process.exitCode = abaixo.length === 0 ? 0 : 1;
  } finally {
    await contexto?.close();
    await parar(servidor);
    rmSync(pasta, { recursive: true, force: true });
  }
}

await principal();
