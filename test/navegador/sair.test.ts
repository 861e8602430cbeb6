/**
 * "Sair" in chromium, at 360 and 1280 px, in both faces (issue 19, item 13): on a shared computer
 * it must not hand the account to whoever clicks "Entrar" next. Cestas ends its session and the
 * provider's with the one click on "Sair" (the provider's end-session page submits itself);
 * Mercados returns to / as the spec says. In both, the next "Entrar" reaches the provider's login
 * form instead of logging the previous person straight back in.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { COOKIE_SAIDA as SAIDA_CESTAS } from '../../src/cestas/sessao.ts';
import { COOKIE_SAIDA as SAIDA_MERCADOS } from '../../src/mercados/sessao.ts';
import {
  abrirChromium,
  abrirContexto,
  conferirPagina,
  entrarNoNavegador,
  semChromium,
  type ContextoDeTeste,
} from '../helpers/chromium.ts';
import { criarUsuario, emailUnico } from '../helpers/fabricas.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { zerarLimiteDeLogin } from '../mercados/apoio.ts';
import { NO_PEDIDO, lido } from './cestas-apoio.ts';

const pular = semChromium();
const LARGURAS = [360, 1280] as const;
const FORMULARIO_DO_PROVEDOR = /\/interaction\/[^/]+$/;

describe('sair no navegador encerra de verdade', { skip: pular }, () => {
  let amb: AmbienteDeTeste;
  let navegador: Browser;

  before(async () => {
    amb = await iniciarAmbiente({ mercados: true, relogio: new RelogioDeTeste(NO_PEDIDO) });
    navegador = await abrirChromium();
  });
  after(async () => {
    await navegador.close();
    await amb.fechar();
  });

  async function contexto(largura: number): Promise<ContextoDeTeste> {
    const ctx = await abrirContexto(navegador, { largura, altura: largura === 360 ? 740 : 800 });
    // A page that does not answer in seconds is a failure; 30 s per step would only slow the report.
    ctx.contexto.setDefaultTimeout(8000);
    return ctx;
  }

  /** The addresses the tab shows from now on, in order (redirects included). */
  function enderecos(pagina: Page): string[] {
    const vistos: string[] = [];
    pagina.on('framenavigated', (f) => {
      if (f === pagina.mainFrame()) vistos.push(f.url());
    });
    return vistos;
  }

  /** Whether the browser holds the provider's session cookie. */
  async function sessaoNoProvedor(ctx: ContextoDeTeste): Promise<boolean> {
    return (await ctx.contexto.cookies(amb.idp)).some((c) => c.name === '_session');
  }

  async function temCookie(ctx: ContextoDeTeste, url: string, nome: string): Promise<boolean> {
    return (await ctx.contexto.cookies(url)).some((c) => c.name === nome);
  }

  for (const largura of LARGURAS) {
    test(`Cestas a ${largura} px: um clique em "Sair" encerra a sessão aqui e no provedor, e "Entrar novamente" pede a pessoa`, async () => {
      const u = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: `Nina Saída ${largura}` });
      const ctx = await contexto(largura);
      try {
        const pagina = await ctx.novaPagina();
        await entrarNoNavegador(pagina, `${amb.url}/`, amb.url, { email: u.email, nome: u.nome });
        assert.ok(await sessaoNoProvedor(ctx), 'o login abriu uma sessão no provedor');

        const vistos = enderecos(pagina);
        await Promise.all([
          pagina.waitForURL(`${amb.url}/saiu`),
          pagina.getByRole('navigation', { name: 'Principal' }).getByRole('button', { name: 'Sair' }).click(),
        ]);
        assert.ok(
          vistos.some((e) => e.startsWith(`${amb.idp}/session/end`)),
          `passou pelo encerramento do provedor, sem outro clique: ${vistos.join(' → ')}`,
        );
        assert.match(lido(await pagina.locator('main').textContent()), /Você saiu da Cestaria neste aparelho/);
        await conferirPagina(pagina, ctx, 'sair-cestas-saiu');
        assert.equal(await sessaoNoProvedor(ctx), false, 'a sessão do provedor acabou');
        assert.ok(await temCookie(ctx, amb.url, SAIDA_CESTAS), 'a marca da saída ficou');

        const autorizacao = pagina.waitForRequest((r) => r.url().startsWith(`${amb.idp}/auth?`));
        await pagina.getByRole('link', { name: 'Entrar novamente' }).click();
        assert.equal(new URL((await autorizacao).url()).searchParams.get('prompt'), 'login');
        await pagina.waitForURL(FORMULARIO_DO_PROVEDOR);
        await conferirPagina(pagina, ctx, 'sair-cestas-provedor-pede-de-novo');

        await pagina.fill('#email', u.email);
        await pagina.fill('#nome', u.nome);
        await Promise.all([pagina.waitForURL(`${amb.url}/`), pagina.click('form button[type=submit] >> nth=0')]);
        assert.match(lido(await pagina.locator('main').textContent()), new RegExp(`Olá, ${u.nome}!`));
        assert.equal(await temCookie(ctx, amb.url, SAIDA_CESTAS), false, 'o login apagou a marca');
      } finally {
        await ctx.fechar();
      }
    });

    test(`Mercados a ${largura} px: "Sair" volta ao início, e "Entrar" pede a pessoa ao provedor em vez de entrar direto`, async () => {
      const pessoa = { email: emailUnico(`sair-mercados-${largura}`), nome: `Márcio Saída ${largura}` };
      await zerarLimiteDeLogin(amb.banco);
      const ctx = await contexto(largura);
      try {
        const pagina = await ctx.novaPagina();
        await entrarNoNavegador(pagina, `${amb.urlMercados}/login`, amb.urlMercados, pessoa);
        await pagina.getByRole('heading', { name: `Olá, ${pessoa.nome}!` }).waitFor();

        await Promise.all([
          pagina.waitForURL(`${amb.urlMercados}/`),
          pagina.getByRole('button', { name: 'Sair' }).click(),
        ]);
        const entrar = pagina.locator('main').getByRole('link', { name: 'Entrar' });
        await entrar.waitFor();
        // The spec's logout ends at /: the provider keeps its session, and the mark does the asking.
        assert.ok(await sessaoNoProvedor(ctx), 'o provedor ainda lembra este navegador');
        assert.ok(await temCookie(ctx, amb.urlMercados, SAIDA_MERCADOS), 'a marca da saída ficou');

        const autorizacao = pagina.waitForRequest((r) => r.url().startsWith(`${amb.idp}/auth?`));
        await entrar.click();
        assert.equal(new URL((await autorizacao).url()).searchParams.get('prompt'), 'login');
        await pagina.waitForURL(FORMULARIO_DO_PROVEDOR);
        await conferirPagina(pagina, ctx, 'sair-mercados-provedor-pede-de-novo');

        await pagina.fill('#email', pessoa.email);
        await pagina.fill('#nome', pessoa.nome);
        await Promise.all([
          pagina.waitForURL(`${amb.urlMercados}/dashboard`),
          pagina.click('form button[type=submit] >> nth=0'),
        ]);
        await pagina.getByRole('heading', { name: `Olá, ${pessoa.nome}!` }).waitFor();
        assert.equal(await temCookie(ctx, amb.urlMercados, SAIDA_MERCADOS), false, 'o login apagou a marca');
      } finally {
        await ctx.fechar();
      }
    });

    test(`as duas faces a ${largura} px: "Sair" na Cestas tira a pessoa também do Mercados, no mesmo celular`, async () => {
      const u = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: `Olga Duas Faces ${largura}` });
      await zerarLimiteDeLogin(amb.banco);
      const ctx = await contexto(largura);
      try {
        const pagina = await ctx.novaPagina();
        await entrarNoNavegador(pagina, `${amb.url}/`, amb.url, { email: u.email, nome: u.nome });
        // The provider remembers the person: the Mercados face opens without asking again.
        await pagina.goto(`${amb.urlMercados}/login`);
        await pagina.waitForURL(`${amb.urlMercados}/dashboard`);
        await pagina.getByRole('heading', { name: `Olá, ${u.nome}!` }).waitFor();

        await pagina.goto(`${amb.url}/`);
        await Promise.all([
          pagina.waitForURL(`${amb.url}/saiu`),
          pagina.getByRole('navigation', { name: 'Principal' }).getByRole('button', { name: 'Sair' }).click(),
        ]);
        assert.equal(
          await temCookie(ctx, amb.urlMercados, 'mercadosSession'),
          false,
          'o cookie do Mercados foi apagado',
        );

        // Whoever picks the phone up next finds the Mercados pages asking for a login, not the orders.
        await pagina.goto(`${amb.urlMercados}/pedidos`);
        await pagina.waitForURL(FORMULARIO_DO_PROVEDOR);
        await conferirPagina(pagina, ctx, 'sair-duas-faces-mercados-pede-login');
        assert.doesNotMatch(lido(await pagina.locator('body').textContent()), new RegExp(u.nome));
      } finally {
        await ctx.fechar();
      }
    });
  }
});
