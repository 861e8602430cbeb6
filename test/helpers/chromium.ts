/**
 * Real-browser testing: Debian's chromium driven by playwright-core. Every page opened through
 * `abrirContexto` records console errors and uncaught page errors; `conferirPagina` fails the test
 * when there were any, saves screenshots at 360 px and 1280 px, and runs axe-core, failing on
 * serious or critical violations.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { RAIZ } from './processos.ts';

const CANDIDATOS = [
  process.env.CHROMIUM_PATH,
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
];

/** The chromium binary, or null when the machine has none (outside CI the browser tests then skip). */
export function caminhoDoChromium(): string | null {
  for (const c of CANDIDATOS) if (c !== undefined && c !== '' && existsSync(c)) return c;
  return null;
}

/**
 * `test(..., { skip: semChromium() })`: under CI=true a missing browser is a failure, never a
 * silent skip; elsewhere the browser tests skip with the reason.
 */
export function semChromium(): string | false {
  if (caminhoDoChromium() !== null) return false;
  if (process.env.CI === 'true')
    throw new Error('CI=true exige o chromium (/usr/bin/chromium): instale com apt-get install chromium');
  return 'chromium não instalado (apt-get install chromium)';
}

/** Where screenshots go: test-artifacts/telas/<dialect>, printed once per process. */
export const PASTA_DE_TELAS = join(RAIZ, 'test-artifacts', 'telas', process.env.TEST_DIALETO ?? 'sqlite');
let pastaAnunciada = false;

/** How every test's Chromium starts: headless, with nothing of its own on the network. */
function lancamento() {
  const executavel = caminhoDoChromium();
  if (executavel === null) throw new Error('chromium não encontrado');
  return {
    executablePath: executavel,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  };
}

export async function abrirChromium(): Promise<Browser> {
  return chromium.launch(lancamento());
}

/**
 * A Chromium with a profile on disk in `pasta` (not incognito, as a phone's browser is), 360×740,
 * Portuguese: what Chromium's install check needs, since it installs nothing from incognito.
 */
export function abrirChromiumComPerfil(pasta: string): Promise<BrowserContext> {
  return chromium.launchPersistentContext(pasta, {
    ...lancamento(),
    locale: 'pt-BR',
    viewport: { width: 360, height: 740 },
  });
}

/** Console errors and page errors seen by the pages of one context. */
export interface Ocorrencias {
  readonly erros: string[];
}

export interface ContextoDeTeste {
  readonly contexto: BrowserContext;
  readonly ocorrencias: Ocorrencias;
  /** False for a context with JavaScript disabled: axe-core cannot run there. */
  readonly javaScript: boolean;
  novaPagina(): Promise<Page>;
  fechar(): Promise<void>;
}

/**
 * A fresh context (its own cookies), Portuguese locale, 1280×800 unless told otherwise; `fuso`
 * sets the device's time zone (IANA name), otherwise the machine's.
 */
export async function abrirContexto(
  navegador: Browser,
  opcoes: { largura?: number; altura?: number; javaScript?: boolean; fuso?: string } = {},
): Promise<ContextoDeTeste> {
  const contexto = await navegador.newContext({
    locale: 'pt-BR',
    ...(opcoes.fuso === undefined ? {} : { timezoneId: opcoes.fuso }),
    viewport: { width: opcoes.largura ?? 1280, height: opcoes.altura ?? 800 },
    javaScriptEnabled: opcoes.javaScript ?? true,
  });
  const ocorrencias: Ocorrencias = { erros: [] };
  const vigiar = (pagina: Page) => {
    pagina.on('console', (m) => {
      if (m.type() === 'error') ocorrencias.erros.push(`${pagina.url()}: console.error: ${m.text()}`);
    });
    pagina.on('pageerror', (e) => ocorrencias.erros.push(`${pagina.url()}: ${e.message}`));
    // The console only says "Failed to load resource"; this names the resource.
    pagina.on('response', (r) => {
      if (r.status() >= 400 && r.request().resourceType() !== 'document' && r.request().resourceType() !== 'fetch') {
        ocorrencias.erros.push(`${pagina.url()}: ${r.request().resourceType()} ${r.url()} respondeu ${r.status()}`);
      }
    });
  };
  contexto.on('page', vigiar);
  return {
    contexto,
    ocorrencias,
    javaScript: opcoes.javaScript ?? true,
    novaPagina: () => contexto.newPage(),
    fechar: () => contexto.close(),
  };
}

const requerer = createRequire(import.meta.url);
const AXE = readFileSync(requerer.resolve('axe-core/axe.min.js'), 'utf8');

export interface Violacao {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly alvos: string[];
}

/** Runs axe-core on the page as it is now; returns the serious and critical violations. */
export async function violacoesGraves(pagina: Page): Promise<Violacao[]> {
  // Evaluated through the DevTools protocol, so the page's own CSP (no inline scripts) stays on.
  await pagina.evaluate(AXE);
  const todas = await pagina.evaluate(async () => {
    interface ResultadoAxe {
      violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
    }
    const axe = (globalThis as unknown as { axe: { run(contexto: Document, opcoes: object): Promise<ResultadoAxe> } })
      .axe;
    const r = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      alvos: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return todas.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * Saves the page at 360 px and at 1280 px wide as `<nome>-360.png` / `<nome>-1280.png`, checks
 * that nothing overflows horizontally at 360 px, runs axe-core, and throws listing every problem
 * found, console errors included.
 */
export async function conferirPagina(pagina: Page, ctx: ContextoDeTeste, nome: string): Promise<void> {
  mkdirSync(PASTA_DE_TELAS, { recursive: true });
  if (!pastaAnunciada) {
    pastaAnunciada = true;
    console.log(`Capturas de tela em ${PASTA_DE_TELAS}`);
  }
  const problemas: string[] = [];
  const original = pagina.viewportSize() ?? { width: 1280, height: 800 };
  for (const largura of [360, 1280]) {
    await pagina.setViewportSize({ width: largura, height: largura === 360 ? 740 : 800 });
    await pagina.screenshot({ path: join(PASTA_DE_TELAS, `${nome}-${largura}.png`), fullPage: true });
    if (largura === 360) {
      const excesso = await pagina.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      );
      if (excesso > 1) problemas.push(`a ${largura} px a página rola ${excesso} px na horizontal`);
    }
  }
  await pagina.setViewportSize(original);
  const lang = await pagina.getAttribute('html', 'lang');
  if (lang !== 'pt-BR') problemas.push(`<html lang> é ${String(lang)}, deveria ser pt-BR`);
  // With JavaScript disabled axe cannot run (the page's HTML is the same one the JavaScript runs check).
  if (ctx.javaScript)
    for (const v of await violacoesGraves(pagina))
      problemas.push(`axe ${v.impact ?? ''} ${v.id}: ${v.help} em ${v.alvos.join(', ')}`);
  problemas.push(...ctx.ocorrencias.erros);
  if (problemas.length > 0)
    throw new Error(`problemas na página ${nome} (${pagina.url()}):\n  ${problemas.join('\n  ')}`);
}

/** Fails when any page of the context logged a console error or threw. */
export function semErrosNoConsole(ctx: ContextoDeTeste): void {
  if (ctx.ocorrencias.erros.length > 0) throw new Error(`erros no console:\n  ${ctx.ocorrencias.erros.join('\n  ')}`);
}

/**
 * Logs in in the browser: opens `inicio` (which must lead to the development provider's login
 * page), types the e-mail and name, submits, and waits until the browser is back at `origem`.
 */
export async function entrarNoNavegador(
  pagina: Page,
  inicio: string,
  origem: string,
  pessoa: { email: string; nome?: string },
): Promise<void> {
  await pagina.goto(inicio);
  await pagina.waitForURL(/\/interaction\/[^/]+$/);
  await pagina.fill('#email', pessoa.email);
  await pagina.fill('#nome', pessoa.nome ?? pessoa.email.split('@')[0] ?? 'Pessoa');
  await Promise.all([
    pagina.waitForURL((u) => u.href.startsWith(origem)),
    pagina.click('form button[type=submit] >> nth=0'),
  ]);
  await pagina.waitForLoadState('load');
}

/**
 * Forgets the console errors a test caused on purpose (a save the server refused, a connection the
 * test cut), so they do not fail the next `conferirPagina`. Returns how many were forgotten; a
 * test should assert it is at least one, so the expectation stays honest.
 */
export function descartarOcorrencias(ctx: ContextoDeTeste, esperada: RegExp): number {
  const erros = ctx.ocorrencias.erros;
  const restantes = erros.filter((e) => !esperada.test(e));
  const esquecidas = erros.length - restantes.length;
  erros.splice(0, erros.length, ...restantes);
  return esquecidas;
}
