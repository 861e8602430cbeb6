/**
 * One identity across both faces, as a person meets it in chromium at 360 and 1280 px: a provider
 * account that carries someone else's e-mail under another subject is turned away by the Mercados
 * face with a page that says why and what to do, and nothing of the owner's shows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { abrirChromium, abrirContexto, conferirPagina, semChromium } from '../helpers/chromium.ts';
import { criarUsuario } from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { zerarLimiteDeLogin } from '../mercados/apoio.ts';
import { NO_PEDIDO, lido } from './cestas-apoio.ts';

const pular = semChromium();

describe('uma identidade nas duas faces, no navegador', { skip: pular }, () => {
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

  for (const largura of [360, 1280] as const) {
    test(`a ${largura} px: outra conta do provedor com o e-mail de uma pessoa já ligada é recusada no Mercados, com o porquê`, async () => {
      const dona = await criarUsuario(amb.banco, { perfil: ['admin'], nome: `Dona Ligada ${largura}` });
      // The owner's first login binds her record to her subject.
      await entrarPeloProvedor(new Navegador(), `${amb.url}/`, {
        email: dona.email,
        nome: dona.nome,
        sub: `sub-dona-${largura}`,
      });
      await zerarLimiteDeLogin(amb.banco);
      const ctx = await abrirContexto(navegador, { largura, altura: largura === 360 ? 740 : 800 });
      ctx.contexto.setDefaultTimeout(8000);
      try {
        const pagina = await ctx.novaPagina();
        await pagina.goto(`${amb.urlMercados}/login`);
        await pagina.waitForURL(/\/interaction\/[^/]+$/);
        await pagina.fill('#email', dona.email);
        await pagina.fill('#nome', 'Outra Pessoa');
        await pagina.getByText('Avançado').click();
        await pagina.fill('#sub', `sub-impostor-${largura}`);
        await Promise.all([
          pagina.waitForURL(`${amb.urlMercados}/login?error=outra_conta`),
          pagina.click('form button[type=submit] >> nth=0'),
        ]);
        const alerta = pagina.getByRole('alert');
        await alerta.waitFor();
        assert.match(lido(await alerta.textContent()), /Este e-mail já está ligado a outra conta do provedor de login/);
        assert.match(
          lido(await pagina.locator('main').textContent()),
          /peça à coordenação \(perfil master\) para liberar o seu cadastro/,
        );
        await conferirPagina(pagina, ctx, 'identidade-mercados-outra-conta');
        const status = await pagina.evaluate(
          async () => (await fetch('/auth/status')).json() as Promise<{ authenticated: boolean }>,
        );
        assert.equal(status.authenticated, false, 'nenhuma sessão foi aberta');
      } finally {
        await ctx.fechar();
      }
    });
  }
});
