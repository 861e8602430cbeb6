/**
 * A person's own account in chromium: the profile page ends every session on every device, and a
 * logout link from another site asks before ending the session.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  abrirContexto,
  conferirPagina,
  entrarNoNavegador,
  semChromium,
  semErrosNoConsole,
} from '../helpers/chromium.ts';
import { NO_PEDIDO, entrarComoNovo, lido, montarPalco, sairPor, type Palco, type Sessao } from './cestas-apoio.ts';

const pular = semChromium();

describe('a conta no navegador', { skip: pular }, () => {
  let palco: Palco;
  let pessoa: Sessao;

  before(async () => {
    palco = await montarPalco(NO_PEDIDO);
    pessoa = await entrarComoNovo(palco, ['consumidor'], 'Dora Duas Telas');
  });
  after(async () => {
    await pessoa.ctx.fechar();
    await palco.fechar();
  });

  test('"Sair de todos os aparelhos" encerra também a sessão do outro aparelho', async () => {
    const url = palco.amb.url;
    const outro = await abrirContexto(palco.navegador, { largura: 1280 });
    try {
      const noOutro = await outro.novaPagina();
      await entrarNoNavegador(noOutro, `${url}/`, url, { email: pessoa.usuario.email, nome: pessoa.usuario.nome });
      await noOutro.goto(`${url}/profile`);
      assert.equal(new URL(noOutro.url()).pathname, '/profile', 'o outro aparelho está dentro');

      const { pagina, ctx } = pessoa;
      await pagina.goto(`${url}/profile`);
      const botao = pagina.getByRole('button', { name: 'Sair de todos os aparelhos' });
      assert.ok(await botao.isVisible(), 'o botão está na página');
      await conferirPagina(pagina, ctx, 'cestas-perfil');
      await sairPor(pagina, url, botao);
      assert.match(lido(await pagina.locator('main').textContent()), /Você saiu da Cestaria/);

      // The other device's session is over. (Its provider session is the provider's: a new visit
      // there logs in again through it, as a new session.)
      const depois = await noOutro.request.get(`${url}/profile`, {
        headers: { accept: 'application/json' },
        maxRedirects: 0,
      });
      assert.equal(depois.status(), 401, 'a sessão do outro aparelho acabou');
      semErrosNoConsole(outro);
    } finally {
      await outro.fechar();
    }
  });

  test('um link de saída vindo de outro site pede confirmação; o botão da página encerra a sessão', async () => {
    const url = palco.amb.url;
    const { pagina, ctx } = pessoa;
    await entrarNoNavegador(pagina, `${url}/`, url, { email: pessoa.usuario.email, nome: pessoa.usuario.nome });
    // A page of another site (an opaque origin) with a link to /logout.
    await pagina.goto(`data:text/html,<a href="${url}/logout">clique aqui</a>`);
    await Promise.all([pagina.waitForURL(`${url}/logout`), pagina.getByRole('link', { name: 'clique aqui' }).click()]);
    assert.match(lido(await pagina.locator('main').textContent()), /Deseja sair da Cestaria neste aparelho\?/);
    await conferirPagina(pagina, ctx, 'cestas-sair-confirmar');
    // Still logged in: the link alone ended nothing.
    await pagina.goto(`${url}/profile`);
    assert.equal(new URL(pagina.url()).pathname, '/profile');
    await pagina.goBack();
    await sairPor(pagina, url, pagina.locator('main').getByRole('button', { name: 'Sair' }));
    const depois = await pagina.request.get(`${url}/profile`, {
      headers: { accept: 'application/json' },
      maxRedirects: 0,
    });
    assert.equal(depois.status(), 401, 'o botão da página encerrou a sessão');
    semErrosNoConsole(ctx);
  });

  test('o link para pular ao conteúdo, com o foco, não cobre a marca', async () => {
    const { pagina } = pessoa;
    await pagina.goto(`${palco.amb.url}/limitesolar`);
    await pagina.keyboard.press('Tab');
    const pular = await pagina.locator('a.pular').boundingBox();
    const marca = await pagina.locator('a.marca').boundingBox();
    assert.ok(pular !== null && marca !== null, 'os dois à vista');
    assert.equal(
      await pagina.evaluate(() => document.activeElement?.className),
      'pular',
      'o primeiro Tab leva ao link',
    );
    const cobre =
      pular.x < marca.x + marca.width &&
      marca.x < pular.x + pular.width &&
      pular.y < marca.y + marca.height &&
      marca.y < pular.y + pular.height;
    assert.equal(cobre, false, `link ${JSON.stringify(pular)} sobre a marca ${JSON.stringify(marca)}`);
  });
});
