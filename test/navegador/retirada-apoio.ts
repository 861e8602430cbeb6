/**
 * The pickup app's browser tests over the demo community, as `npm start` loads it, with the
 * community's Pix key set: the demo's "Ciclo em retirada" and its points, a 360 px phone logged in
 * as a demo person through the provider's page, and what the device keeps (IndexedDB) and the
 * server holds (acaoretirada, the ledger) read directly.
 */
import { chaveDaRetirada, tokenDoPedido } from '../../src/domain/retirada/token.ts';
import type { Browser, Page } from 'playwright-core';
import type { TipoDeAcaoDeRetirada } from '../../src/db/tipos.ts';
import { abrirChromium, abrirContexto, type ContextoDeTeste } from '../helpers/chromium.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { zerarLimiteDeLogin } from '../mercados/apoio.ts';

export const PIX = { PIX_CHAVE: 'financeiro@cestas.org', PIX_NOME: 'Associação Raízes', PIX_CIDADE: 'São Carlos' };

export interface PontoDaDemo {
  readonly cicloId: number;
  readonly pontoId: number;
  readonly nome: string;
  /** The app's address of the point. */
  readonly caminho: string;
}

export interface PalcoDaRetirada {
  readonly amb: AmbienteDeTeste;
  readonly navegador: Browser;
  /** The demo's "Ciclo em retirada". */
  readonly cicloId: number;
  ponto(nome: string): Promise<PontoDaDemo>;
  /** A new 360 px phone (its own cookies and storage) logged in as `pessoa`, landing on `caminho` of the app. */
  entrar(
    pessoa: { email: string; nome: string },
    caminho: string,
    /** Called with the new page before it goes anywhere (to watch its requests from the first). */
    aoAbrir?: (pagina: Page) => void,
  ): Promise<{ ctx: ContextoDeTeste; pagina: Page }>;
  /** The receipt QR's token of an order. */
  token(pedidoId: number): string;
  fechar(): Promise<void>;
}

export async function montarRetirada(env: Record<string, string> = {}): Promise<PalcoDaRetirada> {
  const amb = await iniciarAmbiente({ mercados: true, env: { DEMO_DATA: 'true', ...PIX, ...env } });
  const navegador = await abrirChromium().catch(async (e: unknown) => {
    await amb.fechar();
    throw e;
  });
  const ciclo = await amb.banco
    .selectFrom('ciclo')
    .select('id')
    .where('nome', '=', 'Ciclo em retirada')
    .executeTakeFirstOrThrow();
  const chave = chaveDaRetirada(amb.config.sessionSecret);
  return {
    amb,
    navegador,
    cicloId: ciclo.id,
    async ponto(nome) {
      const p = await amb.banco
        .selectFrom('pontoentrega')
        .select('id')
        .where('nome', '=', nome)
        .executeTakeFirstOrThrow();
      return { cicloId: ciclo.id, pontoId: p.id, nome, caminho: `/retirada/${ciclo.id}/${p.id}` };
    },
    async entrar(pessoa, caminho, aoAbrir) {
      await zerarLimiteDeLogin(amb.banco);
      const ctx = await abrirContexto(navegador, { largura: 360, altura: 740 });
      ctx.contexto.setDefaultTimeout(15_000);
      const pagina = await ctx.novaPagina();
      aoAbrir?.(pagina);
      // The app's own login link: the provider's page, then back to the app's address.
      await pagina.goto(`${amb.urlMercados}/login?voltar=${encodeURIComponent(caminho)}`);
      await pagina.waitForURL(/\/interaction\/[^/]+$/);
      await pagina.fill('#email', pessoa.email);
      await pagina.fill('#nome', pessoa.nome);
      await Promise.all([
        pagina.waitForURL(`${amb.urlMercados}${caminho}`),
        pagina.click('form button[type=submit] >> nth=0'),
      ]);
      return { ctx, pagina };
    },
    token: (pedidoId) => tokenDoPedido(chave, pedidoId),
    async fechar() {
      await navegador.close();
      await amb.fechar();
    },
  };
}

/** Waits until the page is controlled by the app's service worker (the first visit installs it). */
export async function esperarServiceWorker(pagina: Page): Promise<{ escopo: string; script: string }> {
  await pagina.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return pagina.evaluate(async () => {
    const r = await navigator.serviceWorker.ready;
    return { escopo: r.scope, script: r.active?.scriptURL ?? '' };
  });
}

/** An action as the device keeps it in its queue (IndexedDB `fila`). */
export interface AcaoNaFila {
  readonly chave: string;
  readonly tipo: TipoDeAcaoDeRetirada;
  readonly pedidoId: string;
  readonly pedidoProdutoId?: string;
  readonly produtoId?: string;
  readonly quantidade?: string;
  readonly substituto?: string;
  readonly valor?: string;
  readonly forma?: string;
  readonly texto?: string;
  readonly feitoEm: string;
}

/** What the device keeps in one of its action stores, in the order the actions were made. */
export async function lerLoja(
  pagina: Page,
  loja: 'fila' | 'enviadas' | 'recusadas',
): Promise<Array<{ acao: AcaoNaFila; mensagem?: string }>> {
  return pagina.evaluate(
    async (nome) =>
      new Promise<Array<{ acao: AcaoNaFila; mensagem?: string; ordem: number }>>((ok, falha) => {
        const pedido = indexedDB.open('cestaria-retirada');
        pedido.onerror = () => falha(new Error('IndexedDB não abriu'));
        pedido.onsuccess = () => {
          const tudo = pedido.result.transaction(nome).objectStore(nome).getAll();
          tudo.onsuccess = () => {
            const lista = tudo.result as Array<{ acao: AcaoNaFila; mensagem?: string; ordem: number }>;
            pedido.result.close();
            ok(lista.sort((a, b) => a.ordem - b.ordem));
          };
        };
      }),
    loja,
  );
}

/** This device's id, as the app made it. */
export async function idDoAparelho(pagina: Page): Promise<string> {
  return pagina.evaluate(
    async () =>
      new Promise<string>((ok, falha) => {
        const pedido = indexedDB.open('cestaria-retirada');
        pedido.onerror = () => falha(new Error('IndexedDB não abriu'));
        pedido.onsuccess = () => {
          const r = pedido.result.transaction('ajustes').objectStore('ajustes').get('dispositivo');
          r.onsuccess = () => {
            pedido.result.close();
            ok(String(r.result));
          };
        };
      }),
  );
}

/** The actions the server holds for a point, in the order they were made. */
export async function acoesNoServidor(amb: AmbienteDeTeste, p: PontoDaDemo) {
  return amb.banco
    .selectFrom('acaoretirada')
    .selectAll()
    .where('cicloid', '=', p.cicloId)
    .where('pontoEntregaId', '=', p.pontoId)
    .orderBy('feitoEm')
    .orderBy('chave')
    .execute();
}

/** The confirmed orders of a point, with the person's name. */
export async function pedidosDoPonto(amb: AmbienteDeTeste, p: PontoDaDemo) {
  return amb.banco
    .selectFrom('pedido')
    .innerJoin('usuario', 'usuario.id', 'pedido.usuarioid')
    .select(['pedido.id', 'pedido.usuarioid', 'usuario.nome'])
    .where('pedido.cicloid', '=', p.cicloId)
    .where('pedido.pontoEntregaId', '=', p.pontoId)
    .where('pedido.finalizado', '=', true)
    .orderBy('pedido.id')
    .execute();
}
