/**
 * Links between the faces (issue 18): each face's navigation links to the other, and a person
 * signed in to one reaches the other without the development provider asking again (its
 * session answers the second login). The navigation shows only what the person's roles allow.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { abrirChromium, abrirContexto, conferirPagina, entrarNoNavegador, semChromium } from '../helpers/chromium.ts';
import { criarUsuario } from '../helpers/fabricas.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { zerarLimiteDeLogin } from '../mercados/apoio.ts';
import { NO_PEDIDO, lido } from './cestas-apoio.ts';

const pular = semChromium();
const FORMULARIO_DO_PROVEDOR = /\/interaction\/[^/]+$/;

describe('as duas faces ligadas no navegador', { skip: pular }, () => {
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

  /** Every address the tab requests as a page from now on, redirects included. */
  function enderecos(pagina: Page): string[] {
    const vistos: string[] = [];
    pagina.on('request', (r) => {
      if (r.isNavigationRequest() && r.frame() === pagina.mainFrame()) vistos.push(r.url());
    });
    return vistos;
  }

  for (const largura of [360, 1280] as const) {
    test(`a ${largura} px: da Cestas à Mercados e de volta, sem o provedor pedir a pessoa de novo`, async () => {
      await zerarLimiteDeLogin(amb.banco);
      const u = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: `Lia Duas Faces ${largura}` });
      const ctx = await abrirContexto(navegador, { largura, altura: largura === 360 ? 740 : 800 });
      ctx.contexto.setDefaultTimeout(8000);
      try {
        const pagina = await ctx.novaPagina();
        await entrarNoNavegador(pagina, `${amb.url}/`, amb.url, { email: u.email, nome: u.nome });
        const navCestas = pagina.getByRole('navigation', { name: 'Principal' });
        const paraMercados = navCestas.getByRole('link', { name: 'Mercados', exact: true });
        assert.equal(await paraMercados.getAttribute('href'), `${amb.urlMercados}/dashboard`);
        await conferirPagina(pagina, ctx, `faces-cestas-na-janela-de-${largura}`);

        const vistos = enderecos(pagina);
        await Promise.all([pagina.waitForURL(`${amb.urlMercados}/dashboard`), paraMercados.click()]);
        await pagina.getByRole('heading', { name: `Olá, ${u.nome}!` }).waitFor();
        assert.ok(
          vistos.some((e) => e.startsWith(`${amb.idp}/auth?`)),
          `passou pelo provedor: ${vistos.join(' → ')}`,
        );
        assert.ok(
          !vistos.some((e) => FORMULARIO_DO_PROVEDOR.test(e)),
          `o provedor não pediu a pessoa de novo: ${vistos.join(' → ')}`,
        );

        // Only what a Consumidor may do: no administration links.
        const navMercados = pagina.getByRole('navigation', { name: 'Principal' });
        assert.equal(await navMercados.getByRole('link', { name: 'Usuários' }).count(), 0);
        const paraCestas = navMercados.getByRole('link', { name: 'Cestas', exact: true });
        assert.equal(await paraCestas.getAttribute('href'), `${amb.url}/`);
        await conferirPagina(pagina, ctx, `faces-mercados-na-janela-de-${largura}`);

        const volta = enderecos(pagina);
        await Promise.all([pagina.waitForURL(`${amb.url}/`), paraCestas.click()]);
        assert.match(lido(await pagina.locator('main').textContent()), new RegExp(`Olá, ${u.nome}!`));
        assert.ok(!volta.some((e) => FORMULARIO_DO_PROVEDOR.test(e)), `de volta sem login: ${volta.join(' → ')}`);
      } finally {
        await ctx.fechar();
      }
    });
  }
});
