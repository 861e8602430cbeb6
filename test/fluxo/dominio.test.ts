import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { abrirBanco, type Banco } from '../../src/db/banco.ts';
import type { Ator } from '../../src/domain/acesso.ts';
import { linhasOfertadas } from '../../src/domain/alocacao.ts';
import { apagarCiclo, salvarCiclo } from '../../src/domain/ciclos/gravacao.ts';
import { exigirJanela } from '../../src/domain/ciclos/janelas.ts';
import { listarCiclos, obterCiclo } from '../../src/domain/ciclos/leitura.ts';
import type { CicloLido } from '../../src/domain/ciclos/modelo.ts';
import { ciclosDoPainel } from '../../src/domain/ciclos/painel.ts';
import { paginaDaComposicao, salvarComposicao } from '../../src/domain/composicao.ts';
import {
  arquivoDaMovimentacao,
  fecharCiclo,
  registrarMovimentacao,
  saldoDe,
  saldos,
  tiposDeMovimentacao,
} from '../../src/domain/financeiro.ts';
import {
  apagarProdutoDaOferta,
  ofertaDe,
  ofertasVisiveis,
  produtosParaOfertar,
  salvarOferta as gravarOferta,
} from '../../src/domain/ofertas.ts';
import { disponibilidade } from '../../src/domain/pedidos/disponibilidade.ts';
import { finalizarPedido } from '../../src/domain/pedidos/finalizar.ts';
import { pedidoDe } from '../../src/domain/pedidos/leituras.ts';
import { salvarPedido as gravarPedido } from '../../src/domain/pedidos/salvar.ts';
import type { Taxa } from '../../src/domain/pedidos/taxa.ts';
import { bancoNovo } from '../helpers/banco.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { recusa } from '../helpers/recusa.ts';

/**
 * The use cases of the cycle, called as the edge calls them, on the cases no other test pins:
 * each assertion here fails when its rule is moved by one step (see docs/reliability.md).
 */

const TAXA: Taxa = { percentualCentesimos: 0, fixaCentavos: 0 };
// The saved order or offer itself (whether it was created is checked in quem-age and over HTTP).
const salvarPedido = async (...a: Parameters<typeof gravarPedido>) => (await gravarPedido(...a)).pedido;
const salvarOferta = async (...a: Parameters<typeof gravarOferta>) => (await gravarOferta(...a)).oferta;
const NA_OFERTA = { agora: new Date('2026-03-02T15:00:00Z'), hoje: '2026-03-02' };
const NO_PEDIDO = { agora: new Date('2026-03-07T15:00:00Z'), hoje: '2026-03-07', taxa: TAXA };
const DEPOIS = { agora: new Date('2026-03-10T15:00:00Z'), hoje: '2026-03-10', taxa: TAXA };

const lido = (dados: Partial<CicloLido['dados']> = {}, listas: Partial<Omit<CicloLido, 'dados'>> = {}): CicloLido => ({
  dados: { nome: `Ciclo ${Math.random().toString(36).slice(2, 8)}`, ...DATAS_PADRAO, ativo: true, ...dados },
  cicloEntregas: null,
  cicloPontos: null,
  cicloCestas: null,
  cicloProdutos: null,
  ...listas,
});

describe('os casos de uso do ciclo, nas bordas', () => {
  let banco: Banco;
  let admin: Ator;
  const atorDe = async (perfil: Array<'consumidor' | 'fornecedor'>, nome: string): Promise<Ator> => {
    const u = await criarUsuario(banco, { perfil, nome });
    return { email: u.email, nome, usuarioid: u.id, perfil, ativo: true };
  };

  before(async () => {
    banco = abrirBanco(await bancoNovo());
    const a = await criarUsuario(banco, { perfil: ['admin'], nome: 'Admin' });
    admin = { email: a.email, nome: 'Admin', usuarioid: a.id, perfil: ['admin'], ativo: true };
  });
  after(() => banco.destroy());

  /**
   * A cycle with one basket type, a finalised offer of two products, and a published extra; with
   * `compor`, the basket is composed (from a supplier of its own) so it can be ordered.
   */
  async function cenario(compor = true) {
    const fornecedora = await atorDe(['fornecedor'], 'Fornecedora');
    const cesta = await criarCesta(banco, {
      nome: `Cesta ${Math.random().toString(36).slice(2, 6)}`,
      valorCentavos: 5000,
    });
    const tomate = await criarProduto(banco, {
      nome: `Tomate ${Math.random().toString(36).slice(2, 6)}`,
      unidade: 'kg',
    });
    const mel = await criarProduto(banco, { nome: `Mel ${Math.random().toString(36).slice(2, 6)}`, unidade: 'kg' });
    const ciclo = await criarCiclo(banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
      compor,
    });
    const cicloCestaId = ciclo.cicloCestas[0] ?? 0;
    const { oferta } = {
      oferta: await salvarOferta(
        banco,
        fornecedora,
        {
          usuarioid: null,
          cicloid: ciclo.id,
          linhas: [
            { produtoid: tomate.id, quantidadeMilesimos: 30_000, valorCentavos: 800, campo: 'produtos.0' },
            { produtoid: mel.id, quantidadeMilesimos: 10_000, valorCentavos: 2500, campo: 'produtos.1' },
          ],
        },
        { ...NA_OFERTA, finalizar: true },
      ),
    };
    const linhaTomate = oferta.produtos.find((p) => p.produtoid === tomate.id)?.ofertaProdutoId ?? 0;
    const linhaMel = oferta.produtos.find((p) => p.produtoid === mel.id)?.ofertaProdutoId ?? 0;
    const salvo = await salvarCiclo(
      banco,
      admin,
      ciclo.id,
      lido(
        { nome: `Ciclo ${ciclo.id}` },
        {
          cicloProdutos: [
            {
              id: null,
              produtoId: mel.id,
              quantidadeMilesimos: 4000,
              valorCentavos: 3000,
              campo: 'cicloProdutos.0.produtoId',
            },
          ],
        },
      ),
      NA_OFERTA.agora,
      NA_OFERTA.hoje,
    );
    const cicloProdutoId = salvo.cicloProdutos[0]?.id ?? 0;
    const ponto = await criarPonto(banco);
    return {
      fornecedora,
      cesta,
      tomate,
      mel,
      cicloid: ciclo.id,
      cicloCestaId,
      linhaTomate,
      linhaMel,
      cicloProdutoId,
      ponto: ponto.id,
    };
  }

  describe('pedidos', () => {
    test('só se pede o que está à venda neste ciclo: cesta ou extra de outro ciclo, cesta desativada, ponto inexistente ou inativo', async () => {
      const a = await cenario();
      const b = await cenario();
      const consumidora = await atorDe(['consumidor'], 'Consumidora');
      const pedir = (linhas: Array<{ cicloCestaId: number | null; cicloProdutoId: number | null }>, ponto = a.ponto) =>
        salvarPedido(
          banco,
          consumidora,
          {
            usuarioid: null,
            cicloid: a.cicloid,
            pontoEntregaId: ponto,
            linhas: linhas.map((l, i) => ({ ...l, quantidadeMilesimos: 1000, campo: `produtos.${i}` })),
          },
          NO_PEDIDO,
        );
      assert.deepEqual(
        (
          await recusa(
            pedir([
              { cicloCestaId: b.cicloCestaId, cicloProdutoId: null },
              { cicloCestaId: null, cicloProdutoId: b.cicloProdutoId },
              { cicloCestaId: a.cicloCestaId, cicloProdutoId: null },
            ]),
          )
        ).detalhes,
        {
          'produtos.0.cicloCestaId': 'Não está à venda neste ciclo',
          'produtos.1.cicloProdutoId': 'Não está à venda neste ciclo',
        },
      );
      await banco.updateTable('cesta').set({ ativo: false }).where('id', '=', a.cesta.id).execute();
      assert.deepEqual((await recusa(pedir([{ cicloCestaId: a.cicloCestaId, cicloProdutoId: null }]))).detalhes, {
        'produtos.0.cicloCestaId': 'Não está à venda neste ciclo',
      });
      await banco.updateTable('cesta').set({ ativo: true }).where('id', '=', a.cesta.id).execute();
      assert.deepEqual(
        (await recusa(pedir([{ cicloCestaId: a.cicloCestaId, cicloProdutoId: null }], 999_999))).detalhes,
        { pontoEntregaId: 'Ponto de entrega inexistente ou inativo' },
      );
      await banco.updateTable('pontoentrega').set({ ativo: false }).where('id', '=', a.ponto).execute();
      assert.equal(
        (await recusa(pedir([{ cicloCestaId: a.cicloCestaId, cicloProdutoId: null }]))).detalhes.pontoEntregaId,
        'Ponto de entrega inexistente ou inativo',
      );
      await banco.updateTable('pontoentrega').set({ ativo: true }).where('id', '=', a.ponto).execute();
      assert.equal(await pedidoDe(banco, a.cicloid, consumidora.usuarioid ?? 0, TAXA), null, 'nada foi gravado');
      const { pedido } = {
        pedido: await pedir([
          { cicloCestaId: a.cicloCestaId, cicloProdutoId: null },
          { cicloCestaId: null, cicloProdutoId: a.cicloProdutoId },
        ]),
      };
      assert.deepEqual(
        pedido.produtos.map((p) => [
          p.tipo,
          p.nome,
          p.unidade,
          p.quantidadeMilesimos,
          p.valorCentavos,
          p.subtotalCentavos,
        ]),
        [
          ['cesta', a.cesta.nome, 'cesta', 1000, 5000, 5000],
          ['extra', a.mel.nome, 'kg', 1000, 3000, 3000],
        ],
      );
      assert.equal(pedido.totalCentavos, 8000);
    });

    test('a falta de um extra diz o que resta, na unidade dele; a de uma cesta, em cestas', async () => {
      const a = await cenario();
      const [c1, c2] = [await atorDe(['consumidor'], 'C1'), await atorDe(['consumidor'], 'C2')];
      const pedir = (ator: Ator, cestas: number, extraMil: number) =>
        salvarPedido(
          banco,
          ator,
          {
            usuarioid: null,
            cicloid: a.cicloid,
            pontoEntregaId: a.ponto,
            linhas: [
              ...(cestas > 0
                ? [
                    {
                      cicloCestaId: a.cicloCestaId,
                      cicloProdutoId: null,
                      quantidadeMilesimos: cestas * 1000,
                      campo: 'produtos.0',
                    },
                  ]
                : []),
              ...(extraMil > 0
                ? [
                    {
                      cicloCestaId: null,
                      cicloProdutoId: a.cicloProdutoId,
                      quantidadeMilesimos: extraMil,
                      campo: 'produtos.1',
                    },
                  ]
                : []),
            ],
          },
          NO_PEDIDO,
        );
      await pedir(c1, 8, 1500);
      const falta = await recusa(pedir(c2, 3, 3000));
      assert.deepEqual(falta, {
        tipo: 'Conflito',
        codigo: 'SEM_ESTOQUE',
        mensagem: `Não há o suficiente: ${a.cesta.nome} (disponível: 2 cestas); ${a.mel.nome} (disponível: 2,5 kg)`,
        detalhes: {
          disponivel: [
            { nome: a.cesta.nome, disponivel: 2, pedido: 3, unidade: 'cesta' },
            { nome: a.mel.nome, disponivel: 2.5, pedido: 3, unidade: 'kg' },
          ],
        },
      });
      // Exactly what is left passes; their own order, saved again, counts its own reservation.
      await pedir(c2, 2, 2500);
      await pedir(c1, 8, 1500);
    });

    test('o preço de uma linha já pedida fica; uma linha nova leva o preço de agora', async () => {
      const a = await cenario();
      const consumidora = await atorDe(['consumidor'], 'Consumidora');
      const linhas = (extra: boolean) => [
        { cicloCestaId: a.cicloCestaId, cicloProdutoId: null, quantidadeMilesimos: 1000, campo: 'produtos.0' },
        ...(extra
          ? [{ cicloCestaId: null, cicloProdutoId: a.cicloProdutoId, quantidadeMilesimos: 1000, campo: 'produtos.1' }]
          : []),
      ];
      const primeiro = await salvarPedido(
        banco,
        consumidora,
        { usuarioid: null, cicloid: a.cicloid, pontoEntregaId: a.ponto, linhas: linhas(false) },
        NO_PEDIDO,
      );
      await banco.updateTable('cesta').set({ valorReferenciaCentavos: 9900 }).where('id', '=', a.cesta.id).execute();
      await banco.updateTable('cicloproduto').set({ valorCentavos: 4100 }).where('id', '=', a.cicloProdutoId).execute();
      const segundo = await salvarPedido(
        banco,
        consumidora,
        { usuarioid: null, cicloid: a.cicloid, pontoEntregaId: a.ponto, linhas: linhas(true) },
        NO_PEDIDO,
      );
      assert.equal(segundo.pedidoId, primeiro.pedidoId, 'o mesmo pedido, alterado');
      assert.deepEqual(
        segundo.produtos.map((p) => [p.nome, p.valorCentavos]),
        [
          [a.cesta.nome, 5000],
          [a.mel.nome, 4100],
        ],
      );
      assert.deepEqual(
        (await pedidoDe(banco, a.cicloid, consumidora.usuarioid ?? 0, TAXA))?.produtos.map((p) => p.valorCentavos),
        [5000, 4100],
      );
    });

    test('confirmar de novo não muda nada: nem a data da confirmação', async () => {
      const a = await cenario();
      const consumidora = await atorDe(['consumidor'], 'Consumidora');
      const { pedidoId } = await salvarPedido(
        banco,
        consumidora,
        {
          usuarioid: null,
          cicloid: a.cicloid,
          pontoEntregaId: a.ponto,
          linhas: [
            { cicloCestaId: a.cicloCestaId, cicloProdutoId: null, quantidadeMilesimos: 1000, campo: 'produtos.0' },
          ],
        },
        NO_PEDIDO,
      );
      const opcoes = { ...NO_PEDIDO, tz: 'America/Sao_Paulo' };
      const primeira = await finalizarPedido(banco, consumidora, pedidoId, opcoes);
      const segunda = await finalizarPedido(banco, consumidora, pedidoId, {
        ...opcoes,
        agora: new Date('2026-03-08T15:00:00Z'),
        hoje: '2026-03-08',
      });
      assert.equal(primeira.dataConfirmacao, '2026-03-07T12:00:00');
      assert.equal(segunda.dataConfirmacao, '2026-03-07T12:00:00');
      const auditorias = await banco
        .selectFrom('auditoria')
        .select('acao')
        .where('entidade', '=', 'pedido')
        .where('entidadeId', '=', String(pedidoId))
        .execute();
      assert.deepEqual(auditorias.map((x) => x.acao).sort(), ['finalizar', 'salvar']);
    });

    test('a posse vem antes das regras: nomear outra pessoa com linhas repetidas é 403, não 400', async () => {
      const a = await cenario();
      const [c1, c2] = [await atorDe(['consumidor'], 'C1'), await atorDe(['consumidor'], 'C2')];
      const repetidas = [0, 1].map((i) => ({
        cicloCestaId: a.cicloCestaId,
        cicloProdutoId: null,
        quantidadeMilesimos: 1000,
        campo: `produtos.${i}`,
      }));
      assert.equal(
        (
          await recusa(
            salvarPedido(
              banco,
              c1,
              { usuarioid: c2.usuarioid, cicloid: a.cicloid, pontoEntregaId: a.ponto, linhas: repetidas },
              NO_PEDIDO,
            ),
          )
        ).codigo,
        'PEDIDO_DE_OUTRA_PESSOA',
      );
      assert.deepEqual(
        (
          await recusa(
            salvarPedido(
              banco,
              c1,
              { usuarioid: null, cicloid: a.cicloid, pontoEntregaId: a.ponto, linhas: repetidas },
              NO_PEDIDO,
            ),
          )
        ).detalhes,
        { 'produtos.1': 'Item repetido no pedido' },
      );
      // An admin naming themselves without the consumidor profile orders for nobody.
      assert.deepEqual(
        (
          await recusa(
            salvarPedido(
              banco,
              admin,
              {
                usuarioid: admin.usuarioid,
                cicloid: a.cicloid,
                pontoEntregaId: a.ponto,
                linhas: repetidas.slice(0, 1),
              },
              NO_PEDIDO,
            ),
          )
        ).detalhes,
        { usuarioid: 'Não há consumidor com este id' },
      );
    });
  });

  test('pedidos: dois extras no mesmo pedido, cada um o seu; regravar acima do que resta é 409 mesmo contando o próprio', async () => {
    const a = await cenario();
    const ciclo = await obterCiclo(banco, a.cicloid, NA_OFERTA.hoje);
    const salvo = await salvarCiclo(
      banco,
      admin,
      a.cicloid,
      lido(
        { nome: ciclo.nome },
        {
          cicloProdutos: [
            { id: a.cicloProdutoId, produtoId: a.mel.id, quantidadeMilesimos: 4000, valorCentavos: 3000, campo: 'p.0' },
            { id: null, produtoId: a.tomate.id, quantidadeMilesimos: 5000, valorCentavos: 900, campo: 'p.1' },
          ],
        },
      ),
      NA_OFERTA.agora,
      NA_OFERTA.hoje,
    );
    const extraTomate = salvo.cicloProdutos.find((p) => p.produtoId === a.tomate.id)?.id ?? 0;
    const consumidora = await atorDe(['consumidor'], 'Dois extras');
    const pedir = (mel: number, tomate: number) =>
      salvarPedido(
        banco,
        consumidora,
        {
          usuarioid: null,
          cicloid: a.cicloid,
          pontoEntregaId: a.ponto,
          linhas: [
            { cicloCestaId: null, cicloProdutoId: extraTomate, quantidadeMilesimos: tomate, campo: 'produtos.0' },
            { cicloCestaId: null, cicloProdutoId: a.cicloProdutoId, quantidadeMilesimos: mel, campo: 'produtos.1' },
          ],
        },
        NO_PEDIDO,
      );
    const pedido = await pedir(1000, 2000);
    assert.deepEqual(
      pedido.produtos.map((p) => [p.cicloProdutoId, p.nome, p.quantidadeMilesimos, p.valorCentavos]),
      [
        [extraTomate, a.tomate.nome, 2000, 900],
        [a.cicloProdutoId, a.mel.nome, 1000, 3000],
      ],
    );
    assert.deepEqual(await recusa(pedir(4500, 2000)), {
      tipo: 'Conflito',
      codigo: 'SEM_ESTOQUE',
      mensagem: `Não há o suficiente: ${a.mel.nome} (disponível: 4 kg)`,
      detalhes: { disponivel: [{ nome: a.mel.nome, disponivel: 4, pedido: 4.5, unidade: 'kg' }] },
    });
    assert.equal((await pedir(4000, 5000)).totalCentavos, 16500);
  });

  test('pedidos: a vitrine do ciclo mostra o que há em cada cesta, e nada numa cesta não composta', async () => {
    const a = await cenario(false);
    // DOMAIN.md: what may be sold is what will be packed, the composition's number (none yet: 0), not the cycle's 10.
    assert.deepEqual(
      (await disponibilidade(banco, a.cicloid, NO_PEDIDO.hoje)).cestas.map((c) => [
        c.nome,
        c.composicao,
        c.disponivel,
        c.emComposicao,
      ]),
      [[a.cesta.nome, [], 0, true]],
    );
    await salvarComposicao(
      banco,
      admin,
      {
        cicloCestaId: a.cicloCestaId,
        quantidadeCestas: 3,
        itens: [{ ofertaProdutoId: a.linhaTomate, quantidadeMilesimos: 500_000, unidade: 'g', campo: 'produtos.0' }],
      },
      NA_OFERTA.agora,
    );
    const disp = await disponibilidade(banco, a.cicloid, NO_PEDIDO.hoje);
    assert.deepEqual(
      disp.cestas.map((c) => [c.nome, c.composicao, c.disponivel, c.emComposicao]),
      [[a.cesta.nome, [{ produto: a.tomate.nome, quantidadeMilesimos: 500_000, unidade: 'g' }], 3, false]],
      'na unidade em que a cesta foi composta: 500 g; 3 compostas de 10',
    );
    assert.deepEqual(
      disp.extras.map((e) => [e.nome, e.disponivelMilesimos, e.valorCentavos]),
      [[a.mel.nome, 4000, 3000]],
    );
  });

  test('quem coordena e também é consumidor ou fornecedor, ao nomear outra pessoa, age por ela', async () => {
    const a = await cenario();
    const coord = await criarUsuario(banco, { perfil: ['admin', 'consumidor', 'fornecedor'], nome: 'Coord' });
    const ator: Ator = {
      email: coord.email,
      nome: 'Coord',
      usuarioid: coord.id,
      perfil: ['admin', 'consumidor', 'fornecedor'],
      ativo: true,
    };
    const consumidora = await atorDe(['consumidor'], 'Por ela');
    const pedido = await salvarPedido(
      banco,
      ator,
      {
        usuarioid: consumidora.usuarioid,
        cicloid: a.cicloid,
        pontoEntregaId: a.ponto,
        linhas: [
          { cicloCestaId: a.cicloCestaId, cicloProdutoId: null, quantidadeMilesimos: 1000, campo: 'produtos.0' },
        ],
      },
      NO_PEDIDO,
    );
    assert.deepEqual(pedido.usuario, { id: consumidora.usuarioid, nome: 'Por ela' });
    const proprio = await salvarPedido(
      banco,
      ator,
      {
        usuarioid: coord.id,
        cicloid: a.cicloid,
        pontoEntregaId: a.ponto,
        linhas: [
          { cicloCestaId: a.cicloCestaId, cicloProdutoId: null, quantidadeMilesimos: 1000, campo: 'produtos.0' },
        ],
      },
      NO_PEDIDO,
    );
    assert.deepEqual(proprio.usuario, { id: coord.id, nome: 'Coord' });
    const oferta = await salvarOferta(
      banco,
      ator,
      {
        usuarioid: a.fornecedora.usuarioid,
        cicloid: a.cicloid,
        linhas: [
          { produtoid: a.tomate.id, quantidadeMilesimos: 30_000, valorCentavos: 800, campo: 'produtos.0' },
          { produtoid: a.mel.id, quantidadeMilesimos: 10_000, valorCentavos: 2500, campo: 'produtos.1' },
        ],
      },
      { ...NA_OFERTA, finalizar: true },
    );
    assert.equal(oferta.usuarioid, a.fornecedora.usuarioid);
    assert.equal((await ofertaDe(banco, a.cicloid, coord.id)).id, null, 'nenhuma oferta em nome de quem coordena');
  });

  describe('ofertas', () => {
    test('produto inexistente ou desativado é recusado na sua linha; rascunho sem linhas vale', async () => {
      const a = await cenario();
      const fornecedor = await atorDe(['fornecedor'], 'Fornecedor');
      const inativo = await criarProduto(banco, { unidade: 'kg' });
      await banco.updateTable('produto').set({ ativo: false }).where('id', '=', inativo.id).execute();
      const linha = (produtoid: number, i: number) => ({
        produtoid,
        quantidadeMilesimos: 1000,
        valorCentavos: 100,
        campo: `produtos.${i}`,
      });
      assert.deepEqual(
        (
          await recusa(
            salvarOferta(
              banco,
              fornecedor,
              {
                usuarioid: null,
                cicloid: a.cicloid,
                linhas: [linha(a.tomate.id, 0), linha(inativo.id, 1), linha(999_999, 2)],
              },
              { ...NA_OFERTA, finalizar: false },
            ),
          )
        ).detalhes,
        {
          'produtos.1.produtoid': 'Produto inexistente ou inativo',
          'produtos.2.produtoid': 'Produto inexistente ou inativo',
        },
      );
      assert.deepEqual(
        (
          await recusa(
            salvarOferta(
              banco,
              fornecedor,
              { usuarioid: null, cicloid: a.cicloid, linhas: [linha(a.tomate.id, 0), linha(a.tomate.id, 1)] },
              { ...NA_OFERTA, finalizar: false },
            ),
          )
        ).detalhes,
        {
          'produtos.1.produtoid': 'Produto repetido na oferta',
        },
      );
      assert.equal((await ofertaDe(banco, a.cicloid, fornecedor.usuarioid ?? 0)).id, null, 'nada foi gravado');
      const vazia = await salvarOferta(
        banco,
        fornecedor,
        { usuarioid: null, cicloid: a.cicloid, linhas: [] },
        { ...NA_OFERTA, finalizar: false },
      );
      assert.deepEqual([vazia.produtos, vazia.finalizada, vazia.totalCentavos], [[], false, 0]);
      assert.notEqual(vazia.id, null);
    });

    test('sem oferta, a oferta de alguém é vazia e em rascunho; tirar uma linha dela "não existe"', async () => {
      const a = await cenario();
      const fornecedor = await atorDe(['fornecedor'], 'Fornecedor');
      assert.deepEqual(await ofertaDe(banco, a.cicloid, fornecedor.usuarioid ?? 0), {
        id: null,
        cicloid: a.cicloid,
        usuarioid: fornecedor.usuarioid,
        finalizada: false,
        finalizadaEm: null,
        produtos: [],
        totalCentavos: 0,
      });
      assert.equal(
        (
          await recusa(
            apagarProdutoDaOferta(
              banco,
              fornecedor,
              { cicloid: a.cicloid, produtoid: a.tomate.id, usuarioid: null },
              NA_OFERTA,
            ),
          )
        ).codigo,
        'LINHA_NAO_ENCONTRADA',
      );
    });

    test('a oferta diz quanto de cada linha as cestas usam', async () => {
      const a = await cenario();
      await salvarComposicao(
        banco,
        admin,
        {
          cicloCestaId: a.cicloCestaId,
          quantidadeCestas: 4,
          itens: [{ ofertaProdutoId: a.linhaTomate, quantidadeMilesimos: 1500, unidade: 'kg', campo: 'produtos.0' }],
        },
        NA_OFERTA.agora,
      );
      const oferta = await ofertaDe(banco, a.cicloid, a.fornecedora.usuarioid ?? 0);
      assert.deepEqual(
        oferta.produtos
          .map((p) => [p.produtoid, p.quantidadeMilesimos, p.alocadoMilesimos])
          .sort((x, y) => Number(x[0]) - Number(y[0])),
        [
          [a.tomate.id, 30_000, 6000],
          [a.mel.id, 10_000, 0],
        ].sort((x, y) => Number(x[0]) - Number(y[0])),
      );
      assert.equal(oferta.totalCentavos, 49_000);
    });

    test('tirar da oferta uma linha livre e outra usada: a recusa nomeia a usada, seja qual for a ordem', async () => {
      for (const usada of ['tomate', 'mel'] as const) {
        const a = await cenario();
        const linha = usada === 'tomate' ? a.linhaTomate : a.linhaMel;
        await salvarComposicao(
          banco,
          admin,
          {
            cicloCestaId: a.cicloCestaId,
            quantidadeCestas: 1,
            itens: [{ ofertaProdutoId: linha, quantidadeMilesimos: 500, unidade: 'kg', campo: 'produtos.0' }],
          },
          NA_OFERTA.agora,
        );
        const r = await recusa(
          salvarOferta(
            banco,
            a.fornecedora,
            { usuarioid: null, cicloid: a.cicloid, linhas: [] },
            { ...NA_OFERTA, finalizar: false },
          ),
        );
        assert.deepEqual(
          r,
          {
            tipo: 'Conflito',
            codigo: 'LINHA_ALOCADA',
            mensagem: `${a[usada].nome} já está em cestas (${a.cesta.nome}): ajuste a composição antes de tirá-lo da oferta`,
            detalhes: { ofertaProdutoId: linha, cestas: [a.cesta.nome] },
          },
          usada,
        );
      }
    });

    test('uma linha em cestas não sai da oferta: a recusa nomeia só as cestas dela', async () => {
      const a = await cenario();
      const outra = await criarCesta(banco, { nome: `Outra ${Math.random().toString(36).slice(2, 6)}` });
      const ciclo = await obterCiclo(banco, a.cicloid, NA_OFERTA.hoje);
      const salvo = await salvarCiclo(
        banco,
        admin,
        a.cicloid,
        lido(
          { nome: ciclo.nome },
          {
            cicloCestas: [
              { id: a.cicloCestaId, cestaId: a.cesta.id, quantidadeCestas: 10, campo: 'c.0' },
              { id: null, cestaId: outra.id, quantidadeCestas: 5, campo: 'c.1' },
            ],
          },
        ),
        NA_OFERTA.agora,
        NA_OFERTA.hoje,
      );
      const outraCc = salvo.cicloCestas.find((c) => c.cestaId === outra.id)?.id ?? 0;
      await salvarComposicao(
        banco,
        admin,
        {
          cicloCestaId: a.cicloCestaId,
          quantidadeCestas: 2,
          itens: [{ ofertaProdutoId: a.linhaTomate, quantidadeMilesimos: 1000, unidade: 'kg', campo: 'produtos.0' }],
        },
        NA_OFERTA.agora,
      );
      await salvarComposicao(
        banco,
        admin,
        {
          cicloCestaId: outraCc,
          quantidadeCestas: 1,
          itens: [{ ofertaProdutoId: a.linhaMel, quantidadeMilesimos: 500, unidade: 'kg', campo: 'produtos.0' }],
        },
        NA_OFERTA.agora,
      );
      const r = await recusa(
        salvarOferta(
          banco,
          a.fornecedora,
          { usuarioid: null, cicloid: a.cicloid, linhas: [] },
          { ...NA_OFERTA, finalizar: false },
        ),
      );
      assert.equal(r.codigo, 'LINHA_ALOCADA');
      const cestasNomeadas = r.detalhes.cestas as string[];
      assert.equal(cestasNomeadas.length, 1);
      assert.ok([a.cesta.nome, outra.nome].includes(cestasNomeadas[0] ?? ''));
      assert.match(r.mensagem, new RegExp(`já está em cestas \\(${cestasNomeadas[0] ?? ''}\\)`));
    });

    test('os produtos para ofertar: os que a pessoa ofertou mais recentemente primeiro, depois por nome; só os ativos', async () => {
      const fornecedor = await atorDe(['fornecedor'], 'Fornecedor de ordem');
      const sufixo = Math.random().toString(36).slice(2, 6);
      const [zebra, abacate, banana, inativo] = [
        await criarProduto(banco, { nome: `Zebra ${sufixo}` }),
        await criarProduto(banco, { nome: `Abacate ${sufixo}` }),
        await criarProduto(banco, { nome: `Banana ${sufixo}` }),
        await criarProduto(banco, { nome: `Inativo ${sufixo}` }),
      ];
      await banco.updateTable('produto').set({ ativo: false }).where('id', '=', inativo.id).execute();
      const c1 = await criarCiclo(banco, { datas: DATAS_PADRAO });
      const c2 = await criarCiclo(banco, { datas: DATAS_PADRAO });
      const linha = (produtoid: number) => ({
        produtoid,
        quantidadeMilesimos: 1000,
        valorCentavos: 100,
        campo: 'produtos.0',
      });
      await salvarOferta(
        banco,
        fornecedor,
        { usuarioid: null, cicloid: c1.id, linhas: [linha(banana.id)] },
        { agora: new Date('2026-03-01T12:00:00Z'), hoje: '2026-03-02', finalizar: false },
      );
      await salvarOferta(
        banco,
        fornecedor,
        { usuarioid: null, cicloid: c2.id, linhas: [linha(zebra.id)] },
        { agora: new Date('2026-03-02T12:00:00Z'), hoje: '2026-03-02', finalizar: false },
      );
      await banco
        .updateTable('oferta')
        .set({ createdAt: '2026-03-01T12:00:00.000Z' })
        .where('cicloid', '=', c1.id)
        .execute();
      await banco
        .updateTable('oferta')
        .set({ createdAt: '2026-03-02T12:00:00.000Z' })
        .where('cicloid', '=', c2.id)
        .execute();
      const meus = async () =>
        (await produtosParaOfertar(banco, fornecedor.usuarioid ?? 0))
          .filter((p) => p.nome.endsWith(sufixo))
          .map((p) => [p.nome, p.ofertadoAntes]);
      assert.deepEqual(await meus(), [
        [zebra.nome, true],
        [banana.nome, true],
        [abacate.nome, false],
      ]);
      // Offered again later: what counts is the most recent offer of each product.
      const c3 = await criarCiclo(banco, { datas: DATAS_PADRAO });
      await salvarOferta(
        banco,
        fornecedor,
        { usuarioid: null, cicloid: c3.id, linhas: [linha(banana.id)] },
        { agora: new Date('2026-03-03T12:00:00Z'), hoje: '2026-03-03', finalizar: false },
      );
      await banco
        .updateTable('oferta')
        .set({ createdAt: '2026-03-03T12:00:00.000Z' })
        .where('cicloid', '=', c3.id)
        .execute();
      assert.deepEqual(await meus(), [
        [banana.nome, true],
        [zebra.nome, true],
        [abacate.nome, false],
      ]);
      const deOutro = (await produtosParaOfertar(banco, admin.usuarioid ?? 0)).filter((p) => p.nome.endsWith(sufixo));
      assert.deepEqual(
        deOutro.map((p) => [p.nome, p.ofertadoAntes]),
        [
          [abacate.nome, false],
          [banana.nome, false],
          [zebra.nome, false],
        ],
      );
    });

    test('a lista de ofertas filtra pelo ciclo pedido', async () => {
      const a = await cenario(false);
      const b = await cenario(false);
      const doA = await ofertasVisiveis(banco, admin, NA_OFERTA.hoje, a.cicloid);
      assert.deepEqual(
        doA.map((o) => o.ciclo.id),
        [a.cicloid],
      );
      const todas = await ofertasVisiveis(banco, admin, NA_OFERTA.hoje, null);
      assert.ok(todas.some((o) => o.ciclo.id === a.cicloid) && todas.some((o) => o.ciclo.id === b.cicloid));
      assert.deepEqual(doA[0]?.totalCentavos, 49_000);
    });
  });

  describe('composição', () => {
    test('a página da composição, inteira: cesta, composição, ofertas, extras, fornecedores e custos', async () => {
      const a = await cenario(false);
      await salvarComposicao(
        banco,
        admin,
        {
          cicloCestaId: a.cicloCestaId,
          quantidadeCestas: 4,
          itens: [
            { ofertaProdutoId: a.linhaTomate, quantidadeMilesimos: 1_500_000, unidade: 'g', campo: 'produtos.0' },
            { ofertaProdutoId: a.linhaMel, quantidadeMilesimos: 500, unidade: 'kg', campo: 'produtos.1' },
          ],
        },
        NA_OFERTA.agora,
      );
      const p = await paginaDaComposicao(banco, a.cicloCestaId);
      const cicloNome = (
        await banco.selectFrom('ciclo').select('nome').where('id', '=', a.cicloid).executeTakeFirstOrThrow()
      ).nome;
      assert.deepEqual(p, {
        cicloCesta: {
          id: a.cicloCestaId,
          cicloid: a.cicloid,
          cicloNome,
          cestaId: a.cesta.id,
          nome: a.cesta.nome,
          quantidadeCestas: 10,
          cestasPedidas: 0,
        },
        composicao: {
          quantidadeCestas: 4,
          produtos: [
            {
              ofertaProdutoId: a.linhaTomate,
              produtoId: a.tomate.id,
              produto: a.tomate.nome,
              fornecedor: 'Fornecedora',
              quantidadePorCestaMilesimos: 1500,
              unidade: 'kg',
              unidadeEscolhida: 'g',
              quantidadeNaUnidadeEscolhida: 1_500_000,
              valorCentavos: 800,
              custoCentavos: 1200,
            },
            {
              ofertaProdutoId: a.linhaMel,
              produtoId: a.mel.id,
              produto: a.mel.nome,
              fornecedor: 'Fornecedora',
              quantidadePorCestaMilesimos: 500,
              unidade: 'kg',
              unidadeEscolhida: 'kg',
              quantidadeNaUnidadeEscolhida: 500,
              valorCentavos: 2500,
              custoCentavos: 1250,
            },
          ],
        },
        // By product name; what baskets leave over, before extras take their part.
        ofertas: [
          {
            ofertaProdutoId: a.linhaMel,
            produtoId: a.mel.id,
            produto: a.mel.nome,
            unidade: 'kg',
            fornecedor: { id: a.fornecedora.usuarioid, nome: 'Fornecedora' },
            valorCentavos: 2500,
            ofertadaMilesimos: 10_000,
            alocadaMilesimos: 2000,
            disponivelMilesimos: 8000,
          },
          {
            ofertaProdutoId: a.linhaTomate,
            produtoId: a.tomate.id,
            produto: a.tomate.nome,
            unidade: 'kg',
            fornecedor: { id: a.fornecedora.usuarioid, nome: 'Fornecedora' },
            valorCentavos: 800,
            ofertadaMilesimos: 30_000,
            alocadaMilesimos: 6000,
            disponivelMilesimos: 24_000,
          },
        ],
        extras: [{ produtoId: a.mel.id, produto: a.mel.nome, unidade: 'kg', quantidadeMilesimos: 4000 }],
        fornecedores: [{ id: a.fornecedora.usuarioid, nome: 'Fornecedora', valorAcumuladoCentavos: 9800 }],
        custoPorCestaCentavos: 2450,
        valorReferenciaCentavos: 5000,
      });
      const outra = await criarCiclo(banco, {
        datas: DATAS_PADRAO,
        cestas: [{ cestaId: a.cesta.id, quantidadeCestas: 3 }],
      });
      const vazia = await paginaDaComposicao(banco, outra.cicloCestas[0] ?? 0);
      assert.deepEqual(
        [vazia.composicao, vazia.ofertas, vazia.extras, vazia.fornecedores, vazia.custoPorCestaCentavos],
        [{ quantidadeCestas: 0, produtos: [] }, [], [], [], 0],
      );
      assert.equal((await recusa(paginaDaComposicao(banco, 999_999))).codigo, 'CICLOCESTA_NAO_ENCONTRADA');
    });

    test('as recusas da composição, com o que a página precisa para explicar', async () => {
      const a = await cenario();
      const b = await cenario();
      const compor = (
        quantidadeCestas: number,
        itens: Array<{ ofertaProdutoId: number; unidade?: string; mil?: number }>,
      ) =>
        salvarComposicao(
          banco,
          admin,
          {
            cicloCestaId: a.cicloCestaId,
            quantidadeCestas,
            itens: itens.map((i, n) => ({
              ofertaProdutoId: i.ofertaProdutoId,
              quantidadeMilesimos: i.mil ?? 1000,
              unidade: i.unidade ?? 'kg',
              campo: `produtos.${n}`,
            })),
          },
          NA_OFERTA.agora,
        );
      assert.deepEqual(await recusa(compor(11, [])), {
        tipo: 'Conflito',
        codigo: 'ACIMA_DO_CICLO',
        mensagem: 'O ciclo oferece 10 cestas deste tipo; a composição não pode passar disso',
        detalhes: { quantidadeCestas: 10 },
      });
      assert.deepEqual(
        (await recusa(compor(1, [{ ofertaProdutoId: a.linhaTomate }, { ofertaProdutoId: a.linhaTomate }]))).detalhes,
        { 'produtos.1.ofertaProdutoId': 'Item repetido na composição' },
      );
      assert.deepEqual(
        (
          await recusa(
            compor(1, [
              { ofertaProdutoId: b.linhaTomate },
              { ofertaProdutoId: 999_999 },
              { ofertaProdutoId: a.linhaMel, unidade: 'g', mil: 1 },
            ]),
          )
        ).detalhes,
        {
          'produtos.0.ofertaProdutoId': 'Não é uma oferta finalizada deste ciclo',
          'produtos.1.ofertaProdutoId': 'Não é uma oferta finalizada deste ciclo',
          'produtos.2.unidade': 'Esta quantidade não converte exatamente para kg',
        },
      );
      assert.equal(
        (
          await recusa(
            salvarComposicao(banco, admin, { cicloCestaId: 999_999, quantidadeCestas: 0, itens: [] }, NA_OFERTA.agora),
          )
        ).codigo,
        'CICLOCESTA_NAO_ENCONTRADA',
      );
      // A line whose offer went back to draft stays where it is used, and comes into no other basket.
      const outraCesta = await criarCesta(banco, { nome: `Outra ${Math.random().toString(36).slice(2, 6)}` });
      const atual = await obterCiclo(banco, a.cicloid, NA_OFERTA.hoje);
      const salvo = await salvarCiclo(
        banco,
        admin,
        a.cicloid,
        lido(
          { nome: atual.nome },
          {
            cicloCestas: [
              { id: a.cicloCestaId, cestaId: a.cesta.id, quantidadeCestas: 10, campo: 'c.0' },
              { id: null, cestaId: outraCesta.id, quantidadeCestas: 5, campo: 'c.1' },
            ],
          },
        ),
        NA_OFERTA.agora,
        NA_OFERTA.hoje,
      );
      const outraCc = salvo.cicloCestas.find((c) => c.cestaId === outraCesta.id)?.id ?? 0;
      const segunda = await atorDe(['fornecedor'], 'Segunda');
      const linhaDela = (q: number) => [
        { produtoid: a.tomate.id, quantidadeMilesimos: q, valorCentavos: 650, campo: 'produtos.0' },
      ];
      const final = await salvarOferta(
        banco,
        segunda,
        { usuarioid: null, cicloid: a.cicloid, linhas: linhaDela(8000) },
        { ...NA_OFERTA, finalizar: true },
      );
      const linha = final.produtos[0]?.ofertaProdutoId ?? 0;
      await salvarComposicao(
        banco,
        admin,
        {
          cicloCestaId: outraCc,
          quantidadeCestas: 1,
          itens: [{ ofertaProdutoId: linha, quantidadeMilesimos: 500, unidade: 'kg', campo: 'produtos.0' }],
        },
        NA_OFERTA.agora,
      );
      await salvarOferta(
        banco,
        segunda,
        { usuarioid: null, cicloid: a.cicloid, linhas: linhaDela(8000) },
        { ...NA_OFERTA, finalizar: false },
      );
      assert.deepEqual((await recusa(compor(1, [{ ofertaProdutoId: linha, mil: 500 }]))).detalhes, {
        'produtos.0.ofertaProdutoId': 'Não é uma oferta finalizada deste ciclo',
      });
      assert.equal(
        (
          await salvarComposicao(
            banco,
            admin,
            {
              cicloCestaId: outraCc,
              quantidadeCestas: 1,
              itens: [{ ofertaProdutoId: linha, quantidadeMilesimos: 400, unidade: 'kg', campo: 'produtos.0' }],
            },
            NA_OFERTA.agora,
          )
        ).composicao.produtos[0]?.quantidadePorCestaMilesimos,
        400,
      );
      // A line of a draft offer that no basket uses cannot come in.
      const rascunho = await salvarOferta(
        banco,
        await atorDe(['fornecedor'], 'Rascunho'),
        {
          usuarioid: null,
          cicloid: a.cicloid,
          linhas: [{ produtoid: a.tomate.id, quantidadeMilesimos: 5000, valorCentavos: 700, campo: 'produtos.0' }],
        },
        { ...NA_OFERTA, finalizar: false },
      );
      assert.deepEqual(
        (await recusa(compor(1, [{ ofertaProdutoId: rascunho.produtos[0]?.ofertaProdutoId ?? 0 }]))).detalhes,
        { 'produtos.0.ofertaProdutoId': 'Não é uma oferta finalizada deste ciclo' },
      );
      const consumidora = await atorDe(['consumidor'], 'C');
      await salvarPedido(
        banco,
        consumidora,
        {
          usuarioid: null,
          cicloid: a.cicloid,
          pontoEntregaId: a.ponto,
          linhas: [
            { cicloCestaId: a.cicloCestaId, cicloProdutoId: null, quantidadeMilesimos: 3000, campo: 'produtos.0' },
          ],
        },
        NO_PEDIDO,
      );
      assert.deepEqual(await recusa(compor(2, [])), {
        tipo: 'Conflito',
        codigo: 'ABAIXO_DOS_PEDIDOS',
        mensagem: 'Já há 3 cestas pedidas: a composição precisa de pelo menos essa quantidade',
        detalhes: { cestasPedidas: 3 },
      });
    });
  });

  describe('ciclos', () => {
    test('trocar a cesta ou o produto de uma linha existente é recusado; tirar o que tem pedidos ou composição, 409 com os números', async () => {
      const a = await cenario();
      const atual = await obterCiclo(banco, a.cicloid, NA_OFERTA.hoje);
      const outraCesta = await criarCesta(banco);
      const outroProduto = await criarProduto(banco);
      const salvar = (listas: Partial<Omit<CicloLido, 'dados'>>) =>
        salvarCiclo(banco, admin, a.cicloid, lido({ nome: atual.nome }, listas), NA_OFERTA.agora, NA_OFERTA.hoje);
      assert.deepEqual(
        (
          await recusa(
            salvar({
              cicloCestas: [
                { id: a.cicloCestaId, cestaId: outraCesta.id, quantidadeCestas: 10, campo: 'cicloCestas.0.cestaId' },
              ],
            }),
          )
        ).detalhes,
        {
          'cicloCestas.0.cestaId':
            'Não é possível trocar a cesta de uma linha existente: remova a linha e adicione outra',
        },
      );
      assert.deepEqual(
        (
          await recusa(
            salvar({
              cicloProdutos: [
                {
                  id: a.cicloProdutoId,
                  produtoId: outroProduto.id,
                  quantidadeMilesimos: 1000,
                  valorCentavos: 100,
                  campo: 'cicloProdutos.0.produtoId',
                },
              ],
            }),
          )
        ).detalhes,
        {
          'cicloProdutos.0.produtoId':
            'Não é possível trocar o produto de uma linha existente: remova a linha e adicione outra',
        },
      );
      const consumidora = await atorDe(['consumidor'], 'C');
      await salvarPedido(
        banco,
        consumidora,
        {
          usuarioid: null,
          cicloid: a.cicloid,
          pontoEntregaId: a.ponto,
          linhas: [
            { cicloCestaId: a.cicloCestaId, cicloProdutoId: null, quantidadeMilesimos: 2000, campo: 'produtos.0' },
            { cicloCestaId: null, cicloProdutoId: a.cicloProdutoId, quantidadeMilesimos: 1000, campo: 'produtos.1' },
          ],
        },
        NO_PEDIDO,
      );
      assert.deepEqual(await recusa(salvar({ cicloCestas: [] })), {
        tipo: 'Conflito',
        codigo: 'CESTA_EM_USO',
        mensagem: `A ${a.cesta.nome} não pode sair do ciclo: ela tem 2 cestas pedidas`,
        detalhes: { cicloCestaId: a.cicloCestaId },
      });
      assert.deepEqual(
        await recusa(
          salvar({
            cicloCestas: [
              { id: a.cicloCestaId, cestaId: a.cesta.id, quantidadeCestas: 1, campo: 'cicloCestas.0.cestaId' },
            ],
          }),
        ),
        {
          tipo: 'Conflito',
          codigo: 'QUANTIDADE_ABAIXO_DO_USO',
          mensagem: `A ${a.cesta.nome} já tem 2 cestas pedidas e 10 na composição: a quantidade não pode ficar abaixo de 10`,
          detalhes: { cicloCestaId: a.cicloCestaId, pedidas: 2, compostas: 10 },
        },
      );
      assert.deepEqual(
        await recusa(
          salvar({
            cicloProdutos: [
              {
                id: a.cicloProdutoId,
                produtoId: a.mel.id,
                quantidadeMilesimos: 999,
                valorCentavos: 3000,
                campo: 'cicloProdutos.0.produtoId',
              },
            ],
          }),
        ),
        {
          tipo: 'Conflito',
          codigo: 'QUANTIDADE_ABAIXO_DO_USO',
          mensagem: `O extra ${a.mel.nome} já tem 1 kg pedidos: a quantidade não pode ficar abaixo disso`,
          detalhes: { cicloProdutoId: a.cicloProdutoId },
        },
      );
      assert.deepEqual(await recusa(salvar({ cicloProdutos: [] })), {
        tipo: 'Conflito',
        codigo: 'EXTRA_EM_USO',
        mensagem: `O extra ${a.mel.nome} não pode sair do ciclo: já foi pedido`,
        detalhes: { cicloProdutoId: a.cicloProdutoId },
      });
      // A basket composed but not ordered cannot leave either, and says so.
      const b = await cenario();
      await salvarComposicao(
        banco,
        admin,
        { cicloCestaId: b.cicloCestaId, quantidadeCestas: 0, itens: [] },
        NA_OFERTA.agora,
      );
      const atualB = await obterCiclo(banco, b.cicloid, NA_OFERTA.hoje);
      assert.deepEqual(
        await recusa(
          salvarCiclo(
            banco,
            admin,
            b.cicloid,
            lido({ nome: atualB.nome }, { cicloCestas: [] }),
            NA_OFERTA.agora,
            NA_OFERTA.hoje,
          ),
        ),
        {
          tipo: 'Conflito',
          codigo: 'CESTA_EM_USO',
          mensagem: `A ${b.cesta.nome} não pode sair do ciclo: ela tem composição`,
          detalhes: { cicloCestaId: b.cicloCestaId },
        },
      );
      // An extra nobody ordered leaves.
      const semExtra = await salvarCiclo(
        banco,
        admin,
        b.cicloid,
        lido({ nome: atualB.nome }, { cicloProdutos: [] }),
        NA_OFERTA.agora,
        NA_OFERTA.hoje,
      );
      assert.deepEqual(semExtra.cicloProdutos, []);
    });

    test('entregas: alteradas pelo id, as que faltam saem, as novas entram', async () => {
      const c = await salvarCiclo(
        banco,
        admin,
        null,
        lido(
          {},
          {
            cicloEntregas: [
              { id: null, dataEntrega: '2026-03-11', observacao: 'Sede', campo: 'e.0' },
              { id: null, dataEntrega: '2026-03-12', observacao: null, campo: 'e.1' },
            ],
          },
        ),
        NA_OFERTA.agora,
        NA_OFERTA.hoje,
      );
      const [primeira, segunda] = c.cicloEntregas;
      const depois = await salvarCiclo(
        banco,
        admin,
        c.id,
        lido(
          { nome: c.nome },
          {
            cicloEntregas: [
              { id: primeira?.id ?? 0, dataEntrega: '2026-03-12', observacao: 'Escola', campo: 'e.0' },
              { id: null, dataEntrega: '2026-03-11', observacao: null, campo: 'e.1' },
            ],
          },
        ),
        NA_OFERTA.agora,
        NA_OFERTA.hoje,
      );
      assert.deepEqual(
        depois.cicloEntregas.map((e) => [e.dataEntrega, e.observacao, e.id === primeira?.id]),
        [
          ['2026-03-11', null, false],
          ['2026-03-12', 'Escola', true],
        ],
      );
      assert.ok(!depois.cicloEntregas.some((e) => e.id === segunda?.id));
      assert.equal(
        (
          await salvarCiclo(
            banco,
            admin,
            c.id,
            lido({ nome: c.nome }, { cicloEntregas: [] }),
            NA_OFERTA.agora,
            NA_OFERTA.hoje,
          )
        ).cicloEntregas.length,
        0,
      );
    });

    test('sem ativo, um ciclo novo nasce ativo e um alterado fica como estava', async () => {
      const novo = await salvarCiclo(banco, admin, null, lido({ ativo: null }), NA_OFERTA.agora, NA_OFERTA.hoje);
      assert.equal(novo.ativo, true);
      const desativado = await salvarCiclo(
        banco,
        admin,
        novo.id,
        lido({ nome: novo.nome, ativo: false }),
        NA_OFERTA.agora,
        NA_OFERTA.hoje,
      );
      assert.equal(desativado.ativo, false);
      assert.equal(
        (
          await salvarCiclo(
            banco,
            admin,
            novo.id,
            lido({ nome: novo.nome, ativo: null }),
            NA_OFERTA.agora,
            NA_OFERTA.hoje,
          )
        ).ativo,
        false,
      );
      assert.equal(
        (await salvarCiclo(banco, admin, null, lido({ ativo: false }), NA_OFERTA.agora, NA_OFERTA.hoje)).ativo,
        false,
      );
    });

    test('criar e alterar ficam na auditoria com o nome certo; um ciclo inexistente é 404', async () => {
      const c = await salvarCiclo(banco, admin, null, lido(), NA_OFERTA.agora, NA_OFERTA.hoje);
      await salvarCiclo(banco, admin, c.id, lido({ nome: c.nome }), NA_OFERTA.agora, NA_OFERTA.hoje);
      const acoes = await banco
        .selectFrom('auditoria')
        .select('acao')
        .where('entidade', '=', 'ciclo')
        .where('entidadeId', '=', String(c.id))
        .orderBy('id')
        .execute();
      assert.deepEqual(
        acoes.map((x) => x.acao),
        ['criar', 'atualizar'],
      );
      assert.equal((await recusa(obterCiclo(banco, 999_999, NA_OFERTA.hoje))).codigo, 'CICLO_NAO_ENCONTRADO');
      assert.deepEqual(
        await recusa(
          salvarCiclo(banco, admin, null, lido({ dataOfertaFim: '2026-02-01' }), NA_OFERTA.agora, NA_OFERTA.hoje),
        ),
        {
          tipo: 'Invalido',
          codigo: 'VALIDACAO',
          mensagem: 'Verifique os campos destacados',
          detalhes: { dataOfertaFim: 'Deve ser igual ou posterior ao início das ofertas' },
        },
      );
    });

    test('um ciclo com composição não se apaga: 409 com a contagem', async () => {
      const cesta = await criarCesta(banco);
      const c = await criarCiclo(banco, { datas: DATAS_PADRAO, cestas: [{ cestaId: cesta.id, quantidadeCestas: 2 }] });
      await salvarComposicao(
        banco,
        admin,
        { cicloCestaId: c.cicloCestas[0] ?? 0, quantidadeCestas: 0, itens: [] },
        NA_OFERTA.agora,
      );
      assert.deepEqual(await recusa(apagarCiclo(banco, admin, c.id, NA_OFERTA.agora, NA_OFERTA.hoje)), {
        tipo: 'Conflito',
        codigo: 'EM_USO',
        mensagem: 'Não é possível apagar o ciclo: em uso por 1 composições. Desative em vez de apagar.',
        detalhes: { referencias: { composições: 1 } },
      });
      assert.equal((await obterCiclo(banco, c.id, NA_OFERTA.hoje)).id, c.id);
    });

    test('a lista pagina pelo número da página; o painel mostra só os ativos, até 30 dias depois do fim', async () => {
      const marca = `Paginado ${Math.random().toString(36).slice(2, 6)}`;
      for (let i = 0; i < 5; i++)
        await salvarCiclo(banco, admin, null, lido({ nome: `${marca} ${i}` }), NA_OFERTA.agora, NA_OFERTA.hoje);
      const pagina = (n: number) =>
        listarCiclos(banco, { pagina: n, porPagina: 2, ordem: 'nome', direcao: 'asc', busca: marca }, NA_OFERTA.hoje);
      assert.deepEqual(
        (await pagina(1)).itens.map((c) => c.nome),
        [`${marca} 0`, `${marca} 1`],
      );
      assert.deepEqual(
        (await pagina(3)).itens.map((c) => c.nome),
        [`${marca} 4`],
      );
      const ativo = await salvarCiclo(
        banco,
        admin,
        null,
        lido({ nome: `${marca} ativo` }),
        NA_OFERTA.agora,
        NA_OFERTA.hoje,
      );
      const inativo = await salvarCiclo(
        banco,
        admin,
        null,
        lido({ nome: `${marca} inativo`, ativo: false }),
        NA_OFERTA.agora,
        NA_OFERTA.hoje,
      );
      const noPainel = async (hoje: string) =>
        (await ciclosDoPainel(banco, hoje))
          .filter((c) => c.id === ativo.id || c.id === inativo.id)
          .map((c) => [c.id, c.fase]);
      assert.deepEqual(await noPainel('2026-03-07'), [[ativo.id, 'pedido']]);
      assert.deepEqual(await noPainel('2026-04-11'), [[ativo.id, 'encerrado']], '30 dias depois do fim da retirada');
      assert.deepEqual(await noPainel('2026-04-12'), []);
      assert.deepEqual(await noPainel('2026-02-01'), [[ativo.id, 'planejado']]);
    });

    test('as janelas: o primeiro dia vale, o dia antes diz quando começa, o dia depois diz quando terminou', () => {
      const ciclo = { ...DATAS_PADRAO, ativo: true, fechadoEm: null };
      assert.deepEqual(exigirJanela(ciclo, '2026-03-06', 'pedido', false), { foraDaJanela: false });
      assert.deepEqual(exigirJanela(ciclo, '2026-03-01', 'oferta', false), { foraDaJanela: false });
      assert.deepEqual(exigirJanela(ciclo, '2026-03-05', 'pedido', true), { foraDaJanela: true });
      assert.throws(() => exigirJanela(ciclo, '2026-03-05', 'pedido', false), {
        codigo: 'JANELA_FECHADA',
        message: 'O período de pedidos deste ciclo começa em 06/03/2026',
      });
      assert.throws(() => exigirJanela(ciclo, '2026-03-10', 'pedido', false), {
        codigo: 'JANELA_FECHADA',
        message: 'O período de pedidos deste ciclo terminou em 09/03/2026',
      });
      assert.throws(() => exigirJanela(ciclo, '2026-02-28', 'oferta', false), {
        codigo: 'JANELA_FECHADA',
        message: 'O período de ofertas deste ciclo começa em 01/03/2026',
      });
      assert.throws(() => exigirJanela({ ...ciclo, ativo: false }, '2026-03-06', 'pedido', false), {
        codigo: 'CICLO_INATIVO',
      });
      assert.deepEqual(exigirJanela({ ...ciclo, ativo: false }, '2026-03-06', 'pedido', true), { foraDaJanela: true });
      assert.throws(() => exigirJanela({ ...ciclo, fechadoEm: '2026-03-10T00:00:00Z' }, '2026-03-06', 'pedido', true), {
        codigo: 'CICLO_FECHADO',
      });
    });
  });

  describe('financeiro', () => {
    test('fechar: só depois do último dia dos pedidos; de novo, nada novo, nem na auditoria, e a data do primeiro fechamento fica', async () => {
      const a = await cenario();
      const consumidora = await atorDe(['consumidor'], 'C');
      const pedido = await salvarPedido(
        banco,
        consumidora,
        {
          usuarioid: null,
          cicloid: a.cicloid,
          pontoEntregaId: a.ponto,
          linhas: [
            { cicloCestaId: a.cicloCestaId, cicloProdutoId: null, quantidadeMilesimos: 1000, campo: 'produtos.0' },
          ],
        },
        NO_PEDIDO,
      );
      await finalizarPedido(banco, consumidora, pedido.pedidoId, { ...NO_PEDIDO, tz: 'America/Sao_Paulo' });
      assert.deepEqual(
        await recusa(
          fecharCiclo(banco, admin, a.cicloid, {
            ...NO_PEDIDO,
            agora: new Date('2026-03-09T15:00:00Z'),
            hoje: '2026-03-09',
          }),
        ),
        {
          tipo: 'Conflito',
          codigo: 'PEDIDOS_ABERTOS',
          mensagem: 'Só é possível fechar o ciclo depois do fim dos pedidos (09/03/2026)',
          detalhes: {},
        },
      );
      const primeiro = await fecharCiclo(banco, admin, a.cicloid, DEPOIS);
      // The basket's 1 kg (R$ 1,00 a kg) is credited to the supplier whose offer composes it.
      assert.deepEqual(primeiro, {
        cicloid: a.cicloid,
        fechadoEm: DEPOIS.agora.toISOString(),
        novas: 2,
        debitosCentavos: 5000,
        creditosCentavos: 100,
        naoConfirmados: [],
      });
      const depois = { ...DEPOIS, agora: new Date('2026-03-11T15:00:00Z'), hoje: '2026-03-11' };
      assert.deepEqual(await fecharCiclo(banco, admin, a.cicloid, depois), { ...primeiro, novas: 0 });
      const ciclo = await obterCiclo(banco, a.cicloid, depois.hoje);
      assert.equal(ciclo.fechadoEm, DEPOIS.agora.toISOString());
      const auditorias = await banco
        .selectFrom('auditoria')
        .select('acao')
        .where('entidade', '=', 'ciclo')
        .where('entidadeId', '=', String(a.cicloid))
        .where('acao', '=', 'fechar ciclo')
        .execute();
      assert.equal(auditorias.length, 1);
    });

    test('fechar um ciclo sem pedidos: nenhuma movimentação, e o fechamento fica registrado uma vez', async () => {
      const c = await criarCiclo(banco, { datas: DATAS_PADRAO });
      assert.deepEqual(await fecharCiclo(banco, admin, c.id, DEPOIS), {
        cicloid: c.id,
        fechadoEm: DEPOIS.agora.toISOString(),
        novas: 0,
        debitosCentavos: 0,
        creditosCentavos: 0,
        naoConfirmados: [],
      });
      await fecharCiclo(banco, admin, c.id, { ...DEPOIS, agora: new Date('2026-03-12T15:00:00Z') });
      const auditorias = await banco
        .selectFrom('auditoria')
        .select('acao')
        .where('entidade', '=', 'ciclo')
        .where('entidadeId', '=', String(c.id))
        .execute();
      assert.deepEqual(
        auditorias.map((x) => x.acao),
        ['fechar ciclo'],
      );
      assert.equal((await obterCiclo(banco, c.id, DEPOIS.hoje)).fechadoEm, DEPOIS.agora.toISOString());
    });

    test('fechar credita cada fornecedor só pelo que foi pedido das suas linhas', async () => {
      const a = await cenario();
      const outroFornecedor = await atorDe(['fornecedor'], 'Sem pedidos');
      const produto = await criarProduto(banco, { unidade: 'kg' });
      await salvarOferta(
        banco,
        outroFornecedor,
        {
          usuarioid: null,
          cicloid: a.cicloid,
          linhas: [{ produtoid: produto.id, quantidadeMilesimos: 5000, valorCentavos: 1000, campo: 'produtos.0' }],
        },
        { ...NA_OFERTA, finalizar: true },
      );
      await salvarComposicao(
        banco,
        admin,
        {
          cicloCestaId: a.cicloCestaId,
          quantidadeCestas: 2,
          itens: [{ ofertaProdutoId: a.linhaTomate, quantidadeMilesimos: 1000, unidade: 'kg', campo: 'produtos.0' }],
        },
        NA_OFERTA.agora,
      );
      const consumidora = await atorDe(['consumidor'], 'C');
      const pedido = await salvarPedido(
        banco,
        consumidora,
        {
          usuarioid: null,
          cicloid: a.cicloid,
          pontoEntregaId: a.ponto,
          linhas: [
            { cicloCestaId: a.cicloCestaId, cicloProdutoId: null, quantidadeMilesimos: 2000, campo: 'produtos.0' },
          ],
        },
        NO_PEDIDO,
      );
      await finalizarPedido(banco, consumidora, pedido.pedidoId, { ...NO_PEDIDO, tz: 'America/Sao_Paulo' });
      const r = await fecharCiclo(banco, admin, a.cicloid, DEPOIS);
      assert.deepEqual([r.debitosCentavos, r.creditosCentavos, r.novas], [10_000, 1600, 2]);
      assert.equal(await saldoDe(banco, outroFornecedor.usuarioid ?? 0), null);
      assert.deepEqual(await saldoDe(banco, a.fornecedora.usuarioid ?? 0), { saldoCentavos: 1600, movimentacoes: 1 });
      assert.deepEqual(await saldoDe(banco, consumidora.usuarioid ?? 0), { saldoCentavos: -10_000, movimentacoes: 1 });
      const todos = await saldos(banco);
      assert.deepEqual(
        todos
          .filter((s) => s.usuarioid === consumidora.usuarioid || s.usuarioid === a.fornecedora.usuarioid)
          .map((s) => [s.nome, s.saldoCentavos])
          .sort(),
        [
          ['C', -10_000],
          ['Fornecedora', 1600],
        ],
      );
      assert.deepEqual(
        (await tiposDeMovimentacao(banco)).map((t) => t.sentido).sort(),
        ['ambos', 'ambos', 'credito', 'credito', 'debito', 'debito', 'debito'].sort(),
      );
    });

    test('um pagamento cujo registro falha não deixa o comprovante no disco; um nome de arquivo estranho nunca é aberto', async () => {
      const dir = await mkdtemp(join(tmpdir(), 'cestaria-falha-'));
      try {
        const pessoa = await atorDe(['consumidor'], 'Paga');
        const tipo = (await tiposDeMovimentacao(banco)).find((t) => t.sentido === 'credito')?.id ?? 0;
        const fantasma: Ator = { ...admin, usuarioid: 999_999 };
        const entrada = {
          usuarioid: pessoa.usuarioid ?? 0,
          tipoMovimentacaoId: tipo,
          valorCentavos: 100,
          data: null,
          descricao: 'Pix',
          cicloid: null,
          sentido: null,
        };
        // The row cannot be written (its author does not exist): the database's own error comes out, and no file stays.
        const falhaDoBanco = (e: unknown) =>
          e instanceof Error && !(e instanceof TypeError) && /foreign key|chave estrangeira|violates/i.test(e.message);
        await assert.rejects(
          registrarMovimentacao(
            banco,
            fantasma,
            entrada,
            { nome: 'c', conteudo: Buffer.from('%PDF-1.4 x') },
            { ...NO_PEDIDO, dirArquivos: dir },
          ),
          falhaDoBanco,
        );
        await assert.rejects(
          registrarMovimentacao(banco, fantasma, entrada, null, { ...NO_PEDIDO, dirArquivos: dir }),
          falhaDoBanco,
        );
        assert.deepEqual(await readdir(dir), []);
        assert.deepEqual(
          (
            await recusa(
              registrarMovimentacao(
                banco,
                admin,
                entrada,
                { nome: 'c', conteudo: Buffer.from('GIF89a') },
                { ...NO_PEDIDO, dirArquivos: dir },
              ),
            )
          ).detalhes,
          { arquivo: 'O comprovante deve ser PDF, PNG ou JPEG' },
        );
        const semArquivo = await registrarMovimentacao(banco, admin, entrada, null, { ...NO_PEDIDO, dirArquivos: dir });
        assert.equal(semArquivo.arquivo, null);
        assert.deepEqual(await readdir(dir), []);
        const mov = await registrarMovimentacao(
          banco,
          admin,
          entrada,
          { nome: 'c', conteudo: Buffer.from('%PDF-1.4 x') },
          { ...NO_PEDIDO, dirArquivos: dir },
        );
        assert.deepEqual(await readdir(dir), [mov.arquivo]);
        assert.equal(
          (await stat(join(dir, mov.arquivo ?? ''))).mode & 0o777,
          0o600,
          'só a conta do serviço lê um comprovante',
        );
        assert.equal(mov.data, NO_PEDIDO.hoje);
        // Names this module never makes are never opened, even when such a file is there.
        for (const estranho of [
          'x.pdf',
          `${'a'.repeat(36)}.pdf.pdf`,
          `prefixo-${mov.arquivo ?? ''}`,
          `${'a'.repeat(36)}.gif`,
        ]) {
          await writeFile(join(dir, estranho), '%PDF-1.4');
          await banco.updateTable('movimentacao').set({ arquivo: estranho }).where('id', '=', mov.id).execute();
          assert.deepEqual(
            await recusa(arquivoDaMovimentacao(banco, admin, mov.id, dir)),
            {
              tipo: 'NaoEncontrado',
              codigo: 'ARQUIVO_NAO_ENCONTRADO',
              mensagem: 'Comprovante não encontrado',
              detalhes: {},
            },
            estranho,
          );
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  });

  test('as linhas ofertadas de um ciclo sem ofertas: nenhuma', async () => {
    const c = await criarCiclo(banco, { datas: DATAS_PADRAO });
    assert.deepEqual(await linhasOfertadas(banco, c.id), []);
  });
});
