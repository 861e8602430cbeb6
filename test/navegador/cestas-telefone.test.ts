/**
 * The numbers that matter, on a 360 px phone and on a 1280 px screen, in chromium: what a supplier
 * delivers, a person's credits, debits and balance, and an order's subtotals and total. At 360 px
 * the page never scrolls sideways (nor does any table inside it), and each number is on screen:
 * visible and horizontally inside the viewport. Screenshots of both widths are saved.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { PASTA_DE_TELAS, conferirPagina, semChromium, semErrosNoConsole } from '../helpers/chromium.ts';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';
import { NO_PEDIDO, entrarComoNovo, lido, montarPalco, type Palco, type Sessao } from './cestas-apoio.ts';

const pular = semChromium();
const LARGURAS = [360, 1280] as const;

/** Whether the page, or any scrolling region inside it, scrolls sideways. */
async function rolagemLateral(pagina: Page): Promise<string[]> {
  return pagina.evaluate(() => {
    const problemas: string[] = [];
    const raiz = document.documentElement;
    if (raiz.scrollWidth > window.innerWidth)
      problemas.push(`a página tem ${raiz.scrollWidth} px para ${window.innerWidth} px de tela`);
    for (const e of document.querySelectorAll<HTMLElement>('main *')) {
      const estilo = getComputedStyle(e);
      if ((estilo.overflowX === 'auto' || estilo.overflowX === 'scroll') && e.scrollWidth > e.clientWidth + 1) {
        problemas.push(`${e.tagName.toLowerCase()}.${e.className} rola ${e.scrollWidth - e.clientWidth} px`);
      }
    }
    return problemas;
  });
}

/** A number as a person must see it: shown, with the expected text, wholly inside the viewport's width. */
async function naTela(pagina: Page, alvo: Locator, texto: string, onde: string): Promise<void> {
  assert.equal(await alvo.count(), 1, `${onde}: um só elemento`);
  assert.ok(await alvo.isVisible(), `${onde}: visível`);
  assert.equal(lido(await alvo.innerText()), texto, onde);
  const caixa = await alvo.boundingBox();
  const largura = await pagina.evaluate(() => window.innerWidth);
  assert.ok(caixa !== null, `${onde}: tem caixa`);
  assert.ok(
    caixa.x >= 0 && caixa.x + caixa.width <= largura,
    `${onde}: de ${caixa.x} a ${caixa.x + caixa.width} px, a tela tem ${largura} px`,
  );
}

describe('os números que importam, no telefone e na tela grande', { skip: pular }, () => {
  let palco: Palco;
  const sessoes: Sessao[] = [];
  const nomes = { tomate: 'Tomate cereja orgânico', abobora: 'Abóbora cabotiá' };

  before(async () => {
    palco = await montarPalco(NO_PEDIDO);
  });
  after(async () => {
    for (const s of sessoes) await s.ctx.fechar();
    await palco.fechar();
  });

  async function entrar(perfil: Parameters<typeof entrarComoNovo>[1], nome: string, largura: number): Promise<Sessao> {
    const s = await entrarComoNovo(palco, perfil, nome, { largura });
    sessoes.push(s);
    return s;
  }

  /** The page at this width, saved as `<nome>-<largura>.png` beside the other browser tests' screenshots. */
  async function fotografar(pagina: Page, nome: string, largura: number): Promise<void> {
    await pagina.screenshot({ path: join(PASTA_DE_TELAS, `${nome}-${largura}.png`), fullPage: true });
  }

  for (const largura of LARGURAS) {
    test(`a ${largura} px, a fornecedora vê quanto entregar de cada produto, e quanto vale`, async () => {
      const banco = palco.amb.banco;
      const fornecedora = await entrar(['fornecedor'], `Dora Horta ${largura}`, largura);
      const cesta = await criarCesta(banco, { nome: `Cesta média ${largura}`, valorCentavos: 6000 });
      const ciclo = await criarCiclo(banco, {
        nome: `Ciclo de março ${largura}`,
        datas: DATAS_PADRAO,
        cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
      });
      const tomate = await criarProduto(banco, { nome: `${nomes.tomate} ${largura}`, unidade: 'kg' });
      const abobora = await criarProduto(banco, { nome: `${nomes.abobora} ${largura}`, unidade: 'unidade' });
      const oferta = await criarOfertaFinalizada(
        banco,
        ciclo.id,
        [
          { produtoId: tomate.id, quantidadeMilesimos: 100_000, valorCentavos: 850 },
          { produtoId: abobora.id, quantidadeMilesimos: 40_000, valorCentavos: 1275 },
        ],
        fornecedora.usuario.id,
      );
      const iso = new Date().toISOString();
      const composicao = await banco
        .insertInto('composicao')
        .values({ cicloCestaId: ciclo.cicloCestas[0] ?? 0, quantidadeCestas: 10, createdAt: iso, updatedAt: iso })
        .returning('id')
        .executeTakeFirstOrThrow();
      await banco
        .insertInto('composicaoproduto')
        .values([
          {
            composicaoid: composicao.id,
            ofertaProdutoId: oferta.linhas[0] ?? 0,
            quantidadePorCestaMilesimos: 1500,
            unidade: 'kg',
            createdAt: iso,
            updatedAt: iso,
          },
          {
            composicaoid: composicao.id,
            ofertaProdutoId: oferta.linhas[1] ?? 0,
            quantidadePorCestaMilesimos: 2000,
            unidade: 'unidade',
            createdAt: iso,
            updatedAt: iso,
          },
        ])
        .execute();
      const consumidor = await criarUsuario(banco, { perfil: ['consumidor'] });
      const ponto = await criarPonto(banco);
      const pedido = await banco
        .insertInto('pedido')
        .values({
          cicloid: ciclo.id,
          usuarioid: consumidor.id,
          pontoEntregaId: ponto.id,
          finalizado: true,
          dataConfirmacao: '2026-03-07T12:00:00',
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await banco
        .insertInto('pedidoproduto')
        .values({
          pedidoid: pedido.id,
          cicloCestaId: ciclo.cicloCestas[0] ?? 0,
          quantidadeMilesimos: 4000,
          valorCentavos: 6000,
          createdAt: iso,
          updatedAt: iso,
        })
        .execute();

      const { pagina, ctx } = fornecedora;
      await pagina.getByRole('link', { name: 'Relatórios' }).click();
      await pagina
        .locator('li.cartao', { hasText: `Ciclo de março ${largura}` })
        .getByRole('link', { name: 'Pedidos aos fornecedores', exact: true })
        .click();
      await pagina.waitForURL(`**/pedidosfornecedorestodos/${ciclo.id}`);
      assert.deepEqual(await rolagemLateral(pagina), []);
      const linha = (nome: string) => pagina.locator('tbody tr', { hasText: nome });
      // 4 baskets ordered × 1.5 kg = 6 kg, at R$ 8.50; 10 planned × 1.5 = 15 kg.
      await naTela(pagina, linha(tomate.nome).locator('td[data-rotulo="Pedido"]'), '6', 'tomate pedido');
      await naTela(pagina, linha(tomate.nome).locator('td[data-rotulo="Planejado"]'), '15', 'tomate planejado');
      await naTela(pagina, linha(tomate.nome).locator('td[data-rotulo="Valor"]'), 'R$ 51,00', 'valor do tomate');
      // 4 × 2 = 8 units at R$ 12.75.
      await naTela(pagina, linha(abobora.nome).locator('td[data-rotulo="Pedido"]'), '8', 'abóbora pedida');
      await naTela(pagina, linha(abobora.nome).locator('td[data-rotulo="Valor"]'), 'R$ 102,00', 'valor da abóbora');
      await naTela(pagina, pagina.locator('tfoot tr.total td[data-rotulo="Valor"]'), 'R$ 153,00', 'total');
      await fotografar(pagina, 'cestas-telefone-entregas', largura);
      semErrosNoConsole(ctx);
      if (largura === 360) await conferirPagina(pagina, ctx, 'cestas-telefone-entregas-conferida');
    });

    test(`a ${largura} px, cada movimentação mostra crédito, débito e saldo`, async () => {
      const banco = palco.amb.banco;
      const pessoa = await entrar(['consumidor'], `Helena Pagadora ${largura}`, largura);
      const tipos = new Map(
        (await banco.selectFrom('tipomovimentacao').select(['id', 'nome']).execute()).map((t) => [t.nome, t.id]),
      );
      const iso = new Date().toISOString();
      const mov = (
        data: string,
        tipo: string,
        sentido: 'credito' | 'debito',
        valorCentavos: number,
        descricao: string,
      ) => ({
        usuarioid: pessoa.usuario.id,
        tipoMovimentacaoId: tipos.get(tipo) ?? 0,
        sentido,
        valorCentavos,
        data,
        descricao,
        arquivo: null,
        cicloid: null,
        criadoPor: null,
        createdAt: iso,
        updatedAt: iso,
      });
      await banco
        .insertInto('movimentacao')
        .values([
          mov(
            '2026-03-01',
            'Pedido de consumidor',
            'debito',
            144_50,
            'Pedido do ciclo de fevereiro, com a cesta média e dois extras',
          ),
          mov('2026-03-03', 'Pagamento recebido', 'credito', 1_050_25, 'Pix'),
        ])
        .execute();

      const { pagina, ctx } = pessoa;
      await pagina.goto(`${palco.amb.url}/movimentacaotodos`);
      assert.deepEqual(await rolagemLateral(pagina), []);
      const linha = (descricao: string) => pagina.locator('tbody tr', { hasText: descricao });
      await naTela(
        pagina,
        linha('Pedido do ciclo de fevereiro').locator('td[data-rotulo="Débito"]'),
        'R$ 144,50',
        'débito',
      );
      await naTela(
        pagina,
        linha('Pedido do ciclo de fevereiro').locator('td[data-rotulo="Saldo"]'),
        '−R$ 144,50',
        'saldo depois do débito',
      );
      await naTela(pagina, linha('Pix').locator('td[data-rotulo="Crédito"]'), 'R$ 1.050,25', 'crédito');
      await naTela(pagina, linha('Pix').locator('td[data-rotulo="Saldo"]'), 'R$ 905,75', 'saldo depois do crédito');
      await naTela(
        pagina,
        pagina.locator('tfoot tr.total td[data-rotulo="Crédito"]'),
        'R$ 1.050,25',
        'total de créditos',
      );
      await naTela(pagina, pagina.locator('tfoot tr.total td[data-rotulo="Débito"]'), 'R$ 144,50', 'total de débitos');
      await fotografar(pagina, 'cestas-telefone-movimentacoes', largura);
      semErrosNoConsole(ctx);
      if (largura === 360) await conferirPagina(pagina, ctx, 'cestas-telefone-movimentacoes-conferida');
    });

    test(`a ${largura} px, a confirmação do pedido mostra cada subtotal e o total`, async () => {
      const banco = palco.amb.banco;
      const consumidora = await entrar(['consumidor'], `Fabi Consome ${largura}`, largura);
      const cesta = await criarCesta(banco, { nome: `Cesta grande da estação ${largura}`, valorCentavos: 6000 });
      const ciclo = await criarCiclo(banco, {
        nome: `Ciclo do pedido ${largura}`,
        datas: DATAS_PADRAO,
        cestas: [{ cestaId: cesta.id, quantidadeCestas: 5 }],
        compor: true,
      });
      const mel = await criarProduto(banco, {
        nome: `Mel silvestre de florada ${largura}`,
        unidade: 'kg',
        valorCentavos: 4000,
      });
      const iso = new Date().toISOString();
      const extra = await banco
        .insertInto('cicloproduto')
        .values({
          cicloid: ciclo.id,
          produtoId: mel.id,
          quantidadeMilesimos: 5000,
          valorCentavos: 4000,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const ponto = await criarPonto(banco, `Feira da Praça ${largura}`);
      const pedido = await banco
        .insertInto('pedido')
        .values({
          cicloid: ciclo.id,
          usuarioid: consumidora.usuario.id,
          pontoEntregaId: ponto.id,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await banco
        .insertInto('pedidoproduto')
        .values([
          {
            pedidoid: pedido.id,
            cicloCestaId: ciclo.cicloCestas[0] ?? 0,
            cicloProdutoId: null,
            quantidadeMilesimos: 2000,
            valorCentavos: 6000,
            createdAt: iso,
            updatedAt: iso,
          },
          {
            pedidoid: pedido.id,
            cicloCestaId: null,
            cicloProdutoId: extra.id,
            quantidadeMilesimos: 1500,
            valorCentavos: 4000,
            createdAt: iso,
            updatedAt: iso,
          },
        ])
        .execute();

      const { pagina, ctx } = consumidora;
      await pagina.goto(`${palco.amb.url}/pedidoconsumidoresconfirmacao/${pedido.id}`);
      assert.deepEqual(await rolagemLateral(pagina), []);
      const linha = (nome: string) => pagina.locator('tbody tr', { hasText: nome });
      await naTela(pagina, linha(cesta.nome).locator('td[data-rotulo="Subtotal"]'), 'R$ 120,00', 'subtotal das cestas');
      await naTela(pagina, linha(mel.nome).locator('td[data-rotulo="Quantidade"]'), '1,5 kg', 'quantidade de mel');
      await naTela(pagina, linha(mel.nome).locator('td[data-rotulo="Preço"]'), 'R$ 40,00/kg', 'preço do mel');
      await naTela(pagina, linha(mel.nome).locator('td[data-rotulo="Subtotal"]'), 'R$ 60,00', 'subtotal do mel');
      const rodape = (rotulo: string) => pagina.locator('tfoot tr', { hasText: rotulo }).locator('td');
      await naTela(pagina, rodape('Total'), 'R$ 180,00', 'total');
      await naTela(pagina, rodape('A pagar'), 'R$ 180,00', 'a pagar (sem taxa neste ambiente)');
      await fotografar(pagina, 'cestas-telefone-confirmacao', largura);
      semErrosNoConsole(ctx);
      if (largura === 360) await conferirPagina(pagina, ctx, 'cestas-telefone-confirmacao-conferida');
    });
  }
});
