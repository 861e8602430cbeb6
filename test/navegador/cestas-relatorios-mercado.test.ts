/**
 * The coordination, in chromium, narrows the reports of a cycle with markets to one market: on
 * the supplier report's page (a GET form), and on the cycle choice of the product report (a POST
 * form); the page's CSV link keeps the market. Both pages pass the page checks.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { conferirPagina, semChromium } from '../helpers/chromium.ts';
import { cicloComMercados, type CicloComMercados } from '../helpers/ciclo-com-mercados.ts';
import { entrarComo } from '../helpers/sessoes.ts';
import { NO_PEDIDO, entrarComoNovo, lido, montarPalco, type Palco, type Sessao } from './cestas-apoio.ts';

const pular = semChromium();

describe('os relatórios por mercado no navegador', { skip: pular }, () => {
  let palco: Palco;
  let admin: Sessao;
  let c: CicloComMercados;

  before(async () => {
    palco = await montarPalco(NO_PEDIDO);
    const iso = new Date().toISOString();
    const conta = await palco.amb.banco
      .insertInto('appuser')
      .values({
        providerId: 'idp|dono-navegador',
        email: 'dono-navegador@mercados.org',
        emailChave: 'dono-navegador@mercados.org',
        name: 'Dono',
        avatar: null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    c = await cicloComMercados(palco.amb, await entrarComo(palco.amb, ['admin']), conta.id);
    admin = await entrarComoNovo(palco, ['admin'], 'Bruno Coordena');
  });
  after(async () => {
    await admin.ctx.fechar();
    await palco.fechar();
  });

  test('na página dos pedidos aos fornecedores, o filtro deixa um mercado só e o CSV o acompanha', async () => {
    const { pagina, ctx } = admin;
    await pagina.goto(`${palco.amb.url}/pedidosfornecedorestodos/${c.cicloid}`);
    const grupos = async () => (await pagina.locator('tr.grupo').allInnerTexts()).map(lido);
    assert.deepEqual(await grupos(), [`Cestas ${c.id}`, `Feira ${c.id}`, `PNAE ${c.id}`]);
    await pagina.getByLabel('Mercado').selectOption({ label: `Feira ${c.id}` });
    await pagina.getByRole('button', { name: 'Filtrar por mercado' }).click();
    await pagina.waitForURL(`**/pedidosfornecedorestodos/${c.cicloid}?mercadoId=${c.mFeira.id}`);
    assert.deepEqual(await grupos(), [`Feira ${c.id}`]);
    assert.match(lido(await pagina.locator('tfoot').innerText()), /R\$ 72,00/);
    assert.equal(
      await pagina.getByRole('link', { name: 'CSV', exact: true }).getAttribute('href'),
      `/downloadpedidosfornecedoresciclos?cicloId=${c.cicloid}&mercadoId=${c.mFeira.id}&formato=csv`,
    );
    assert.equal(
      await pagina.getByRole('link', { name: 'Planilha (Excel, LibreOffice)' }).getAttribute('href'),
      `/downloadpedidosfornecedoresciclos?cicloId=${c.cicloid}&mercadoId=${c.mFeira.id}&formato=xlsx`,
    );
    await conferirPagina(pagina, ctx, 'cestas-relatorio-fornecedores-mercado');
  });

  test('na escolha de ciclos dos produtos, escolher o ciclo e o mercado mostra só aquele mercado', async () => {
    const { pagina, ctx } = admin;
    await pagina.goto(`${palco.amb.url}/relatorioprodutosciclos`);
    await pagina.locator(`#ciclo-${c.cicloid}`).check();
    await pagina.getByLabel('Mercado').selectOption({ label: `PNAE ${c.id}` });
    await conferirPagina(pagina, ctx, 'cestas-escolha-ciclos-mercado');
    await pagina.getByRole('button', { name: 'Ver relatório' }).click();
    await pagina.locator('table.relatorio').waitFor();
    assert.deepEqual((await pagina.locator('tr.grupo').allInnerTexts()).map(lido), [`PNAE ${c.id}`]);
    assert.match(lido(await pagina.locator('tfoot').innerText()), /R\$ 60,00/);
    // The report page offers the markets again, with the chosen one selected.
    assert.equal(await pagina.getByLabel('Mercado').inputValue(), String(c.mLote.id));
    await conferirPagina(pagina, ctx, 'cestas-relatorio-produtos-mercado');
  });
});
