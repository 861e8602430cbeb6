/**
 * What the Cestas browser tests share: the service and one chromium per test file, a clock set
 * inside a cycle's windows, and logging a registered person in through the provider's page.
 */
import type { Browser, Locator, Page } from 'playwright-core';
import type { Perfil } from '../../src/domain/perfis.ts';
import { abrirChromium, abrirContexto, entrarNoNavegador, type ContextoDeTeste } from '../helpers/chromium.ts';
import { criarUsuario } from '../helpers/fabricas.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

/** Instants inside the windows of DATAS_PADRAO (fabricas.ts). */
export const NA_OFERTA = '2026-03-02T15:00:00Z';
export const NA_COMPOSICAO = '2026-03-05T15:00:00Z';
export const NO_PEDIDO = '2026-03-07T15:00:00Z';

export interface Palco {
  readonly amb: AmbienteDeTeste;
  readonly navegador: Browser;
  fechar(): Promise<void>;
}

export async function montarPalco(instante: string, env: Record<string, string> = {}): Promise<Palco> {
  const amb = await iniciarAmbiente({ relogio: new RelogioDeTeste(instante), env });
  try {
    const navegador = await abrirChromium();
    return {
      amb,
      navegador,
      async fechar() {
        await navegador.close();
        await amb.fechar();
      },
    };
  } catch (e) {
    await amb.fechar();
    throw e;
  }
}

export interface Sessao {
  readonly ctx: ContextoDeTeste;
  readonly pagina: Page;
  readonly usuario: { id: number; email: string; nome: string };
}

/** A new person with these perfis, logged in in a fresh browser context through the provider's page. */
export async function entrarComoNovo(
  palco: Palco,
  perfil: readonly Perfil[],
  nome: string,
  opcoes: { largura?: number; javaScript?: boolean } = {},
): Promise<Sessao> {
  const usuario = await criarUsuario(palco.amb.banco, { perfil, nome });
  const ctx = await abrirContexto(palco.navegador, { ...opcoes, largura: opcoes.largura ?? 360, altura: 740 });
  // A page that does not answer in seconds is a failure; 30 s per step would only slow the report.
  ctx.contexto.setDefaultTimeout(8000);
  const pagina = await ctx.novaPagina();
  await entrarNoNavegador(pagina, `${palco.amb.url}/`, palco.amb.url, { email: usuario.email, nome });
  return { ctx, pagina, usuario };
}

/** Text as a person reads it: "R$ 12,30" whatever the spaces (Intl writes a no-break space). */
export function lido(texto: string | null): string {
  return (texto ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * Clicks a button that ends the session and waits for the farewell page. Nothing else is
 * pressed: the way passes through the provider's end-session page, which submits itself.
 */
export async function sairPor(pagina: Page, origem: string, botao: Locator): Promise<void> {
  await Promise.all([pagina.waitForURL(`${origem}/saiu`), botao.click()]);
}
