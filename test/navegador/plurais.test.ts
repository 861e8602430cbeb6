/**
 * Quantities in words on a 360 px phone (issue 37), over the demo community: the unit agrees with
 * the number as pt-BR says it (Intl.PluralRules: singular below two), and so does the verb. The
 * Mercados order page says "restam 5 dúzias" and "resta 1 maço"; the Cestas composition page
 * says "40 maços" in the baskets, keeps the unit in agreement while the coordinator types ("1
 * maço", "10 maços"), and a composition one bunch short is refused with "Falta 1 maço".
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { CICLO_COM_MERCADOS } from '../../src/demo/mercados-no-ciclo.ts';
import { liberarParaMercado } from '../../src/domain/mercados-do-ciclo/venda-direta.ts';
import { conferirPagina, descartarOcorrencias, semChromium } from '../helpers/chromium.ts';
import { lido } from './cestas-apoio.ts';
import { montarDemo, pessoaDemo, type PalcoDemo } from './demo-apoio.ts';

const pular = semChromium();
const FABI = pessoaDemo('fabi@exemplo.org');
const ANA = pessoaDemo('ana@exemplo.org');

describe('plurais a 360 px, nas duas faces', { skip: pular }, () => {
  let palco: PalcoDemo;
  const ids = { ciclo: 0, cestaPequena: 0 };

  before(async () => {
    palco = await montarDemo();
    const { amb, id } = palco;
    ids.ciclo = await id('ciclo', CICLO_COM_MERCADOS);
    ids.cestaPequena = (
      await amb.banco
        .selectFrom('ciclocesta as cc')
        .innerJoin('cesta', 'cesta.id', 'cc.cestaId')
        .innerJoin('ciclo', 'ciclo.id', 'cc.cicloid')
        .select('cc.id')
        .where('ciclo.nome', '=', 'Ciclo em composição')
        .where('cesta.nome', '=', 'Cesta Pequena')
        .executeTakeFirstOrThrow()
    ).id;
    // The fair sells one bunch of lettuce and five dozen eggs.
    await liberarParaMercado(
      amb.banco,
      await palco.ana(),
      ids.ciclo,
      await id('mercado', 'Feira da Associação'),
      [
        { produtoId: await id('produto', 'Alface crespa'), quantidadeMilesimos: 1_000, campo: 'itens.0' },
        { produtoId: await id('produto', 'Ovos caipiras'), quantidadeMilesimos: 5_000, campo: 'itens.1' },
      ],
      amb.relogio.agora(),
    );
  });
  after(() => palco?.fechar());

  /** The "Disponível" cell of the order page's row (a card at 360 px) named `produto`. */
  const disponivel = (pagina: Page, produto: string) =>
    pagina
      .getByRole('row')
      .filter({ has: pagina.getByRole('rowheader', { name: new RegExp(`^${produto}`) }) })
      .locator('td[data-rotulo="Disponível"]');

  test('Mercados: "restam 5 dúzias" e "resta 1 maço" no pedido; a composição da cesta diz "2 maços"', async () => {
    const m = palco.amb.urlMercados;
    const { ctx, pagina } = await palco.entrar(`${m}/login`, `${m}/dashboard`, FABI);
    try {
      await pagina.goto(`${m}/ciclos/${ids.ciclo}/pedido`);
      await pagina.getByRole('heading', { name: 'Feira da Associação' }).waitFor();
      assert.equal(lido(await disponivel(pagina, 'Ovos caipiras').innerText()), 'restam 5 dúzias');
      assert.equal(lido(await disponivel(pagina, 'Alface crespa').innerText()), 'resta 1 maço');
      assert.equal(lido(await disponivel(pagina, 'Cesta Grande').innerText()), 'restam 10 cestas');
      const grande = pagina.getByRole('list', { name: 'O que vem em Cesta Grande' });
      assert.deepEqual((await grande.getByRole('listitem').allInnerTexts()).map(lido), [
        'Banana prata: 1 dúzia',
        'Couve manteiga: 2 maços',
        'Mandioca: 1 kg',
      ]);
      const largura = await pagina.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(largura <= 360, `a página tem ${largura} px`);
      await conferirPagina(pagina, ctx, 'plurais-mercados-pedido');
    } finally {
      await ctx.fechar();
    }
  });

  test('Cestas: a composição diz "40 maços", acompanha "1 maço" e "10 maços" ao digitar e recusa com "Falta 1 maço"', async () => {
    const { ctx, pagina } = await palco.entrar(`${palco.amb.url}/`, palco.amb.url, ANA);
    try {
      await pagina.goto(`${palco.amb.url}/composicao/${ids.cestaPequena}`);
      const alface = pagina.getByRole('row').filter({ hasText: 'Alface crespa' });
      const nasCestas = alface.locator('td[data-rotulo="Nas cestas"]');
      const livre = alface.locator('td[data-rotulo="Disponível"]');
      // Dora offered 60 bunches; 20 small baskets take 1 each and 10 medium ones 2: 20 are left.
      assert.equal(lido(await nasCestas.innerText()), '40 maços');
      assert.equal(lido(await livre.innerText()), '20 maços');
      const campo = alface.getByRole('textbox', { name: /Quantidade de Alface crespa/ });
      for (const [porCesta, resta] of [
        ['1,95', '1 maço'],
        ['1,5', '10 maços'],
        ['1,975', '0,5 maço'],
        ['2', '0 maço'],
      ] as const) {
        await campo.fill(porCesta);
        await livre.filter({ hasText: resta }).waitFor();
        assert.equal(lido(await livre.innerText()), resta, `${porCesta} por cesta`);
      }
      await campo.fill('2,05');
      assert.equal(lido(await livre.innerText()), '-1 maço');
      await pagina.getByRole('button', { name: 'Salvar composição' }).click();
      await pagina.getByRole('alert').filter({ hasText: 'Falta 1 maço de Alface crespa' }).waitFor();
      assert.equal(descartarOcorrencias(ctx, /status of 409/), 1, 'a recusa do servidor, de propósito');
      const largura = await pagina.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(largura <= 360, `a página tem ${largura} px`);
      await conferirPagina(pagina, ctx, 'plurais-cestas-composicao');
    } finally {
      await ctx.fechar();
    }
  });
});
