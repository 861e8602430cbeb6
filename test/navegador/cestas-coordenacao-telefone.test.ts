/**
 * The coordination's pages on a 360 px phone, in chromium (issue 37): a new cycle's form hides the
 * extras until there is surplus, warns of a start date in the past without refusing it, saves a
 * correct form on the first submit and brings a refused one back with everything typed, no new
 * blank rows and each error by its field; a closed cycle says when in the community's time zone;
 * the cycle's orders, the movements and the reports read without sideways scrolling; and
 * "Liberar itens" locks a product without the market's price, says why and links to the price
 * editor.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { COOKIE_SESSAO_MERCADOS } from '../../src/http/sessoes-das-faces.ts';
import { conferirPagina, descartarOcorrencias, semChromium } from '../helpers/chromium.ts';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarCicloComPedidos,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
} from '../helpers/fabricas.ts';
import { Navegador } from '../helpers/navegador.ts';
import { contaComSessao, criarMercadoNoBanco } from '../mercados/apoio.ts';
import { NO_PEDIDO, entrarComoNovo, lido, montarPalco, type Palco, type Sessao } from './cestas-apoio.ts';

const pular = semChromium();

/** The POSTs this page sends to a path, counted from now. */
function contarEnvios(pagina: Page, caminho: RegExp): { readonly total: number } {
  const contagem = { total: 0 };
  pagina.on('request', (r) => {
    if (r.method() === 'POST' && caminho.test(new URL(r.url()).pathname)) contagem.total++;
  });
  return contagem;
}

/**
 * Every table region of the page fits the viewport: no sideways scroll inside it, and every cell
 * (its label included) is between the screen's edges. Returns what does not fit.
 */
async function foraDaTela(pagina: Page): Promise<string[]> {
  return pagina.evaluate(() => {
    const problemas: string[] = [];
    const largura = document.documentElement.clientWidth;
    for (const regiao of document.querySelectorAll('.tabela-rolavel')) {
      const nome = regiao.getAttribute('aria-label') ?? '?';
      if (regiao.scrollWidth > regiao.clientWidth + 1)
        problemas.push(`${nome}: rola ${regiao.scrollWidth - regiao.clientWidth} px de lado`);
      for (const c of regiao.querySelectorAll('tbody td, tbody th, tfoot td, tfoot th')) {
        const r = c.getBoundingClientRect();
        if (r.width > 0 && (r.left < -1 || r.right > largura + 1))
          problemas.push(`${nome}: "${(c.textContent ?? '').trim().slice(0, 30)}" vai de ${r.left} a ${r.right}`);
      }
    }
    return problemas;
  });
}

/** The cycle form's six dates, by field. */
const DATAS_DO_NOVO = {
  dataOfertaInicio: '2026-03-05', // two days before NO_PEDIDO: in the past, and accepted
  dataOfertaFim: '2026-03-08',
  dataPedidoInicio: '2026-03-09',
  dataPedidoFim: '2026-03-12',
  dataRetiradaInicio: '2026-03-14',
  dataRetiradaFim: '2026-03-15',
};

describe('a coordenação do ciclo num telefone de 360 px', { skip: pular }, () => {
  let palco: Palco;
  let admin: Sessao;
  let criado = 0;

  before(async () => {
    palco = await montarPalco(NO_PEDIDO);
    const banco = palco.amb.banco;
    await criarCesta(banco, { nome: 'Cesta da roça', valorCentavos: 7000 });
    await criarCesta(banco, { nome: 'Cesta de frutas', valorCentavos: 5000 });
    await criarPonto(banco, 'Sede da associação');
    await criarProduto(banco, { nome: 'Tomate', unidade: 'kg' });
    admin = await entrarComoNovo(palco, ['admin'], 'Rita Coordena');
  });
  after(async () => {
    await admin.ctx.fechar();
    await palco.fechar();
  });

  const lista = (nome: string) => admin.pagina.locator(`#lista-${nome}`);

  async function preencherDatas(datas: Record<string, string>): Promise<void> {
    for (const [campo, valor] of Object.entries(datas)) await admin.pagina.fill(`#campo-${campo}`, valor);
  }

  test('o novo ciclo: sem extras antes da sobra, uma linha por lista, aviso de início no passado, e salva no primeiro envio', async () => {
    const { pagina, ctx } = admin;
    await pagina.goto(`${palco.amb.url}/ciclo`);
    // Extras are refused at creation (no finalised offers, no surplus): the list is not there, its reason is.
    assert.equal(await lista('cicloProdutos').locator('select, input').count(), 0);
    assert.equal(
      lido(await lista('cicloProdutos').textContent()),
      'Extras (produtos avulsos) Os extras aparecem aqui depois de salvar o ciclo, quando as ofertas finalizadas deixarem sobra além das cestas: só essa sobra pode ser vendida como extra.',
    );
    // With JavaScript, one row to fill in each list; "Adicionar linha" makes more.
    for (const l of ['cicloCestas', 'cicloPontos', 'cicloEntregas'])
      assert.equal(await lista(l).locator('tbody tr').count(), 1, l);

    const inicio = pagina.locator('#campo-dataOfertaInicio');
    const aviso = pagina.locator('#aviso-dataOfertaInicio');
    assert.equal(await aviso.isVisible(), false);
    await inicio.fill('2026-03-05');
    assert.equal(
      lido(await aviso.textContent()),
      'Esta data já passou (hoje é 07/03/2026). Dá para salvar assim, mas confira se não é engano.',
    );
    assert.ok(await aviso.isVisible(), 'o aviso aparece junto ao campo enquanto se digita');
    assert.equal(await inicio.getAttribute('aria-describedby'), 'aviso-dataOfertaInicio');
    await inicio.fill('2026-03-07');
    assert.equal(await aviso.isVisible(), false, 'hoje não é passado');
    assert.equal(await inicio.getAttribute('aria-describedby'), null);

    await pagina.fill('#campo-nome', 'Ciclo de abril');
    await preencherDatas(DATAS_DO_NOVO);
    assert.ok(await aviso.isVisible());
    await lista('cicloCestas').getByLabel('Cesta, linha 1').selectOption({ label: 'Cesta da roça' });
    await lista('cicloCestas').getByLabel('Quantas podem ser vendidas, linha 1').fill('10');
    await lista('cicloPontos').getByLabel('Ponto, linha 1').selectOption({ label: 'Sede da associação' });
    await lista('cicloPontos').getByLabel('Dia, linha 1').fill('2026-03-14');
    await lista('cicloPontos').getByLabel('Das, linha 1').fill('08:00');
    await lista('cicloPontos').getByLabel('Até, linha 1').fill('12:00');
    await lista('cicloEntregas').getByLabel('Data, linha 1').fill('2026-03-13');
    await lista('cicloEntregas').getByLabel('Observação, linha 1').fill('Na sede');
    await conferirPagina(pagina, ctx, 'coordenacao-ciclo-novo');

    const envios = contarEnvios(pagina, /^\/ciclo$/);
    await pagina.getByRole('button', { name: 'Salvar' }).click();
    await pagina.waitForURL(/\/ciclo\/\d+$/);
    assert.equal(envios.total, 1, 'um envio só');
    await pagina.getByText('Ciclo criado.').waitFor();
    criado = Number(new URL(pagina.url()).pathname.split('/').at(-1));
    const banco = palco.amb.banco;
    const ciclo = await banco.selectFrom('ciclo').selectAll().where('id', '=', criado).executeTakeFirstOrThrow();
    assert.equal(ciclo.nome, 'Ciclo de abril');
    assert.equal(ciclo.dataOfertaInicio, '2026-03-05', 'o início no passado foi aceito');
    assert.deepEqual(
      await banco
        .selectFrom('ciclopontoentrega')
        .select(['dataRetirada', 'horaInicio', 'horaFim'])
        .where('cicloid', '=', criado)
        .execute(),
      [{ dataRetirada: '2026-03-14', horaInicio: '08:00', horaFim: '12:00' }],
    );
    assert.deepEqual(
      await banco
        .selectFrom('cicloentrega')
        .select(['dataEntrega', 'observacao'])
        .where('cicloid', '=', criado)
        .execute(),
      [{ dataEntrega: '2026-03-13', observacao: 'Na sede' }],
    );
    // Once saved, its own past start is what it is: no warning on the saved cycle.
    assert.equal(await aviso.isVisible(), false);
    // Still no surplus: the saved cycle says so in place of the extras.
    assert.match(lido(await lista('cicloProdutos').textContent()), /deixarem sobra além das cestas \(ainda não há\)/);
    await conferirPagina(pagina, ctx, 'coordenacao-ciclo-salvo');
  });

  test('a recusa volta com tudo o que foi digitado, cada erro junto ao seu campo e sem linhas em branco a mais', async () => {
    const { pagina, ctx } = admin;
    await pagina.goto(`${palco.amb.url}/ciclo`);
    await pagina.fill('#campo-nome', 'Ciclo de maio');
    await preencherDatas({ ...DATAS_DO_NOVO, dataPedidoFim: '2026-03-08' }); // before the orders start
    await pagina.getByLabel('Ativo').uncheck();
    await lista('cicloCestas').getByLabel('Cesta, linha 1').selectOption({ label: 'Cesta de frutas' });
    await lista('cicloCestas').getByLabel('Quantas podem ser vendidas, linha 1').fill('6');
    await lista('cicloCestas').getByRole('button', { name: 'Adicionar linha' }).click();
    await lista('cicloCestas').getByLabel('Cesta, linha 2').selectOption({ label: 'Cesta da roça' });
    await lista('cicloCestas').getByLabel('Quantas podem ser vendidas, linha 2').fill('4');
    await lista('cicloPontos').getByLabel('Ponto, linha 1').selectOption({ label: 'Sede da associação' });
    await lista('cicloPontos').getByLabel('Das, linha 1').fill('15:00');
    await lista('cicloPontos').getByLabel('Até, linha 1').fill('14:00'); // ends before it starts
    await lista('cicloEntregas').getByLabel('Observação, linha 1').fill('Sem data ainda'); // the date is missing
    // A row added and left blank is no row.
    await lista('cicloEntregas').getByRole('button', { name: 'Adicionar linha' }).click();
    const envios = contarEnvios(pagina, /^\/ciclo$/);
    await pagina.getByRole('button', { name: 'Salvar' }).click();
    await pagina.locator('#resumo-erros').waitFor();
    assert.equal(descartarOcorrencias(ctx, /status of 400/), 1);
    assert.match(lido(await pagina.locator('#resumo-erros').textContent()), /Há 3 campos a corrigir/);

    // Everything typed is back.
    assert.equal(await pagina.locator('#campo-nome').inputValue(), 'Ciclo de maio');
    for (const [campo, valor] of Object.entries({ ...DATAS_DO_NOVO, dataPedidoFim: '2026-03-08' }))
      assert.equal(await pagina.locator(`#campo-${campo}`).inputValue(), valor, campo);
    assert.equal(await pagina.getByLabel('Ativo').isChecked(), false);
    const valores = async (l: string) =>
      lista(l)
        .locator('tbody tr')
        .evaluateAll((linhas) =>
          linhas.map((tr) =>
            [...tr.querySelectorAll('select, input:not([type=hidden])')].map((c) =>
              c instanceof HTMLSelectElement
                ? (c.selectedOptions[0]?.textContent ?? '')
                : (c as HTMLInputElement).value,
            ),
          ),
        );
    // Only the rows typed: no spare blank rows came back (JavaScript adds one when asked).
    assert.deepEqual(await valores('cicloCestas'), [
      ['Cesta de frutas', '6'],
      ['Cesta da roça', '4'],
    ]);
    assert.deepEqual(await valores('cicloPontos'), [['Sede da associação', '', '15:00', '14:00']]);
    assert.deepEqual(await valores('cicloEntregas'), [['', 'Sem data ainda']]);

    // Each error sits by its field, which points at it.
    const junto = async (controle: string, caixa: string, mensagem: RegExp) => {
      const c = pagina.locator(controle);
      assert.equal(await c.getAttribute('aria-invalid'), 'true', controle);
      const descrito = (await c.getAttribute('aria-describedby')) ?? '';
      assert.match(lido(await pagina.locator(`[id="${descrito}"]`).textContent()), mensagem, controle);
      const erro = c.locator(`xpath=ancestor::*[contains(concat(" ", @class, " "), " ${caixa} ") or self::td][1]`);
      assert.match(lido(await erro.locator('.erro').textContent()), mensagem, `${controle}: a mensagem está junto`);
    };
    await junto('#campo-dataPedidoFim', 'campo', /Deve ser igual ou posterior ao início dos pedidos/);
    await junto('#campo-cicloPontos-0-horaFim', 'campo', /Deve ser depois do horário de início/);
    await junto('#campo-cicloEntregas-0-dataEntrega', 'campo', /obrigatório/i);
    await conferirPagina(pagina, ctx, 'coordenacao-ciclo-recusado');

    await pagina.fill('#campo-dataPedidoFim', '2026-03-12');
    await lista('cicloPontos').getByLabel('Até, linha 1').fill('18:00');
    await lista('cicloEntregas').getByLabel('Data, linha 1').fill('2026-03-13');
    await pagina.getByRole('button', { name: 'Salvar' }).click();
    await pagina.waitForURL(/\/ciclo\/\d+$/);
    assert.equal(envios.total, 2, 'corrigido, salva no envio seguinte');
    const id = Number(new URL(pagina.url()).pathname.split('/').at(-1));
    const banco = palco.amb.banco;
    const ciclo = await banco.selectFrom('ciclo').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    assert.equal(ciclo.nome, 'Ciclo de maio');
    assert.equal(Boolean(ciclo.ativo), false);
    assert.equal(
      (await banco.selectFrom('ciclocesta').select('id').where('cicloid', '=', id).execute()).length,
      2,
      'as duas cestas',
    );
  });

  test('com sobra das ofertas, os extras aparecem; fechado, o ciclo diz a hora no fuso da comunidade', async () => {
    const { pagina, ctx } = admin;
    const banco = palco.amb.banco;
    const tomate = await banco
      .selectFrom('produto')
      .select('id')
      .where('nome', '=', 'Tomate')
      .executeTakeFirstOrThrow();
    await criarOfertaFinalizada(banco, criado, [
      { produtoId: tomate.id, quantidadeMilesimos: 10_000, valorCentavos: 300 },
    ]);
    await pagina.goto(`${palco.amb.url}/ciclo/${criado}`);
    assert.match(lido(await pagina.locator('main').textContent()), /Sobra das ofertas ainda sem extra: Tomate 10 kg/);
    await lista('cicloProdutos').getByLabel('Produto, linha 1').selectOption({ label: 'Tomate (kg)' });
    await lista('cicloProdutos').getByLabel('Quantidade disponível, linha 1').fill('4');
    await lista('cicloProdutos').getByLabel('Preço ao consumidor (R$), linha 1').fill('5,00');
    await pagina.getByRole('button', { name: 'Salvar' }).click();
    await pagina.getByText('Ciclo atualizado.').waitFor();
    assert.deepEqual(
      await banco
        .selectFrom('cicloproduto')
        .select(['quantidadeMilesimos', 'valorCentavos'])
        .where('cicloid', '=', criado)
        .execute(),
      [{ quantidadeMilesimos: 4000, valorCentavos: 500 }],
    );

    // Closed at 12:33 UTC: 09:33 in São Paulo, as the audit log shows it.
    palco.amb.relogio.definir('2026-03-13T12:33:00Z');
    await pagina.goto(`${palco.amb.url}/fecharciclo/${criado}`);
    await pagina.getByRole('button', { name: /Fechar ciclo e lançar/ }).click();
    await pagina.waitForURL(`**/ciclo/${criado}`);
    // Without orders nothing is charged, yet the cycle was closed just now, not before.
    await pagina.getByText('Ciclo fechado: nenhuma movimentação nova a registrar.').waitFor();
    assert.match(
      lido(await pagina.locator('#composicao').textContent()),
      /Ciclo fechado em 13\/03\/2026 às 09:33: ofertas, composições, pedidos e datas não mudam mais\./,
    );
    await conferirPagina(pagina, ctx, 'coordenacao-ciclo-fechado');
    await pagina.goto(`${palco.amb.url}/fecharciclo/${criado}`);
    assert.equal(
      lido(await pagina.getByRole('status').filter({ hasText: 'já foi fechado' }).textContent()),
      'Este ciclo já foi fechado em 13/03/2026 às 09:33.',
    );
    palco.amb.relogio.definir(NO_PEDIDO);
  });

  test('pedidos do ciclo, movimentações e relatórios: cartões sem rolar de lado a 360 px, tabela no notebook', async () => {
    const { pagina, ctx } = admin;
    const banco = palco.amb.banco;
    const ponto = await banco
      .selectFrom('pontoentrega')
      .select('id')
      .where('nome', '=', 'Sede da associação')
      .executeTakeFirstOrThrow();
    const cicloid = await criarCicloComPedidos(banco, 3, ponto.id);
    await pagina.goto(`${palco.amb.url}/pedidosconsumidorestodos/${cicloid}`);
    assert.deepEqual(await foraDaTela(pagina), []);
    const aPagar = pagina.locator('tbody td[data-rotulo="A pagar"]');
    assert.equal(await aPagar.count(), 3);
    for (const c of await aPagar.all()) {
      assert.equal(lido(await c.textContent()), 'R$ 54,00');
      assert.ok(await c.isVisible());
    }
    // Each label is written beside its value, as on the consumer pages.
    assert.equal(
      await aPagar.first().evaluate((c) => getComputedStyle(c, '::before').content),
      '"A pagar"',
      'o rótulo da coluna aparece no cartão',
    );
    await conferirPagina(pagina, ctx, 'coordenacao-pedidos-do-ciclo');

    // Closed, the cycle's movements exist: the ledger and the reports of the coordination.
    palco.amb.relogio.definir('2026-03-10T15:00:00Z');
    await pagina.goto(`${palco.amb.url}/fecharciclo/${cicloid}`);
    await pagina.getByRole('button', { name: /Fechar ciclo e lançar/ }).click();
    await pagina.waitForURL(`**/ciclo/${cicloid}`);
    for (const [nome, caminho] of [
      ['coordenacao-movimentacoes', '/movimentacaotodos'],
      ['coordenacao-saldos', '/movimentacao'],
      ['coordenacao-relatorio-fornecedores', `/pedidosfornecedorestodos/${cicloid}`],
    ] as const) {
      await pagina.goto(`${palco.amb.url}${caminho}`);
      assert.deepEqual(await foraDaTela(pagina), [], caminho);
      await conferirPagina(pagina, ctx, nome);
    }
    await pagina.goto(`${palco.amb.url}/pedidosconsumidoresciclos`);
    await pagina
      .getByLabel(/^Ciclo /)
      .first()
      .check();
    await pagina.getByRole('button', { name: 'Ver relatório' }).click();
    await pagina.getByRole('heading', { name: 'Pedidos dos consumidores' }).waitFor();
    assert.deepEqual(await foraDaTela(pagina), []);
    await conferirPagina(pagina, ctx, 'coordenacao-relatorio-consumidores');

    // On a laptop the cycle's orders stay a table, its header row on show.
    await pagina.setViewportSize({ width: 1280, height: 800 });
    await pagina.goto(`${palco.amb.url}/pedidosconsumidorestodos/${cicloid}`);
    const tabela = pagina.getByRole('region', { name: 'Pedidos do ciclo' }).locator('table');
    assert.equal(await tabela.evaluate((t) => getComputedStyle(t).display), 'table');
    assert.ok(await tabela.getByRole('columnheader', { name: 'A pagar' }).isVisible());
    await pagina.setViewportSize({ width: 360, height: 740 });
    palco.amb.relogio.definir(NO_PEDIDO);
  });
});

describe('liberar itens a um mercado, num telefone de 360 px', { skip: pular }, () => {
  let palco: Palco;
  let admin: Sessao;
  let cicloid = 0;
  let feira = 0;
  /** The market's own admin's session in the Mercados face, to follow the link to its price editor. */
  let sessaoDoDono = '';

  before(async () => {
    // The Mercados face runs too: the price editor the page links to is there.
    palco = await montarPalco(NO_PEDIDO, { VARIANTS: 'cestas,mercados' });
    const banco = palco.amb.banco;
    const ciclo = await criarCiclo(banco, { nome: 'Ciclo de março', datas: DATAS_PADRAO });
    cicloid = ciclo.id;
    const tomate = await criarProduto(banco, { nome: 'Tomate', unidade: 'kg' });
    const alface = await criarProduto(banco, { nome: 'Alface', unidade: 'maço' });
    await criarOfertaFinalizada(banco, cicloid, [
      { produtoId: tomate.id, quantidadeMilesimos: 30_000, valorCentavos: 400 },
      { produtoId: alface.id, quantidadeMilesimos: 12_000, valorCentavos: 200 },
    ]);
    const dono = await contaComSessao(palco.amb, new Navegador(), palco.amb.urlMercados, { perfis: ['AdminMercado'] });
    sessaoDoDono = dono.cookie;
    feira = (await criarMercadoNoBanco(banco, { adminId: dono.conta.id, nome: 'Feira da praça', tipo: 'venda_direta' }))
      .id;
    const iso = new Date().toISOString();
    await banco
      .insertInto('precomercado')
      .values({
        mercadoId: feira,
        produtoId: tomate.id,
        precoCentavos: 650,
        ativo: true,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    await banco
      .insertInto('ciclomercado')
      .values({ cicloid, mercadoId: feira, ordemAtendimento: 1, createdAt: iso, updatedAt: iso })
      .execute();
    admin = await entrarComoNovo(palco, ['admin'], 'Rita Coordena');
  });
  after(async () => {
    await admin.ctx.fechar();
    await palco.fechar();
  });

  test('sem preço no mercado, o campo fica travado, diz por quê e leva ao editor de preços; o resto libera', async () => {
    const { pagina, ctx } = admin;
    await pagina.goto(`${palco.amb.url}/ciclo/${cicloid}/mercado/${feira}/liberar`);
    const alface = pagina.getByLabel('Liberar de Alface (maço)');
    const tomate = pagina.getByLabel('Liberar de Tomate (kg)');
    assert.ok(await alface.isDisabled(), 'o campo sem preço está desabilitado, não só parecido');
    assert.ok(await tomate.isEditable());
    const motivo = pagina.locator(`[id="${(await alface.getAttribute('aria-describedby')) ?? ''}"]`);
    assert.equal(
      lido(await motivo.textContent()),
      'Sem preço ativo em Feira da praça: defina o preço no editor de preços de Feira da praça para liberar.',
    );
    assert.ok(await motivo.isVisible());
    const link = motivo.getByRole('link', { name: 'editor de preços de Feira da praça' });
    const destino = `${palco.amb.urlMercados}/mercados/${feira}/precos`;
    assert.equal(await link.getAttribute('href'), destino);
    // The price editor is a page of the Mercados face: without a session there it asks for the login (an unknown address would be 404).
    // A locked field looks it: the page's grey for what cannot change.
    assert.notEqual(
      await alface.evaluate((e) => getComputedStyle(e).backgroundColor),
      await tomate.evaluate((e) => getComputedStyle(e).backgroundColor),
    );
    assert.deepEqual(await foraDaTela(pagina), []);
    await conferirPagina(pagina, ctx, 'coordenacao-liberar-sem-preco');

    await tomate.fill('12');
    await pagina.getByRole('button', { name: 'Salvar o que está liberado' }).click();
    await pagina.getByText('Itens liberados para venda direta.').waitFor();
    assert.deepEqual(
      await palco.amb.banco
        .selectFrom('cicloproduto')
        .select(['quantidadeMilesimos', 'valorCentavos'])
        .where('cicloid', '=', cicloid)
        .where('mercadoId', '=', feira)
        .execute(),
      [{ quantidadeMilesimos: 12_000, valorCentavos: 650 }],
    );
    assert.ok(await pagina.getByLabel('Liberar de Alface (maço)').isDisabled());

    // The link leads to the page where that price is set: the market's price editor, with the
    // lettuce on it without a price (here with the market's own admin logged in to Mercados).
    await admin.ctx.contexto.addCookies([
      { name: COOKIE_SESSAO_MERCADOS, value: sessaoDoDono, url: palco.amb.urlMercados },
    ]);
    await pagina.getByRole('link', { name: 'editor de preços de Feira da praça' }).click();
    await pagina.waitForURL(destino);
    await pagina.getByRole('heading', { name: 'Preços de Feira da praça' }).waitFor();
    assert.match(lido(await pagina.getByRole('row', { name: /Alface/ }).textContent()), /sem preço/);
  });
});
