import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { abrirBanco, type Banco } from '../../src/db/banco.ts';
import type { Ator } from '../../src/domain/acesso.ts';
import {
  alteradosAposConfirmar,
  carregarPedidosDoCiclo,
  pedidoDe,
  pedidosVisiveis,
  pedidoVisivel,
} from '../../src/domain/pedidos/leituras.ts';
import { gravarLinhaDeAssinatura, retirarLinhaDeAssinatura } from '../../src/domain/pedidos/linhas-de-assinatura.ts';
import { pedidoNoMercado, pedidosNoMercado, type LinhaDoPedido, type Pedido } from '../../src/domain/pedidos/modelo.ts';
import type { Taxa } from '../../src/domain/pedidos/taxa.ts';
import { bancoNovo } from '../helpers/banco.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { recusa } from '../helpers/recusa.ts';

/**
 * The edges of reading orders: how an order is assembled from its rows (names, units, subtotals,
 * the parts per market and their fees, the pickup hours), the loaders that read one order or a
 * cycle's, what one market sees of them, which orders changed after a confirmation, and the
 * basket lines subscriptions put in and take out of orders. Each assertion fails when its rule
 * moves one step.
 */

// 10 % plus R$ 1,50 on what is bought outside any market: floor((total × 1000 + 5000) / 10000) + 150.
const TAXA: Taxa = { percentualCentesimos: 1000, fixaCentavos: 150 };
const ISO = '2026-03-07T12:00:00.000Z';

describe('as bordas da leitura dos pedidos', () => {
  let banco: Banco;
  let admin: Ator;
  let info: Ator;
  const consumidor = (id: number, nome: string): Ator => ({
    email: `${nome.toLowerCase()}@teste.org`,
    nome,
    usuarioid: id,
    perfil: ['consumidor'],
    ativo: true,
  });
  let appuser = 0;

  before(async () => {
    banco = abrirBanco(await bancoNovo());
    const a = await criarUsuario(banco, { perfil: ['admin'], nome: 'Admin' });
    admin = { email: a.email, nome: 'Admin', usuarioid: a.id, perfil: ['admin'], ativo: true };
    const i = await criarUsuario(banco, { perfil: ['info'], nome: 'Info' });
    info = { email: i.email, nome: 'Info', usuarioid: i.id, perfil: ['info'], ativo: true };
    appuser = (
      await banco
        .insertInto('appuser')
        .values({
          providerId: 'idp|leitura',
          email: 'leitura@mercados.org',
          emailChave: 'leitura@mercados.org',
          name: 'Dona dos mercados',
          avatar: null,
          createdAt: ISO,
          updatedAt: ISO,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  after(() => banco.destroy());

  let sequencia = 0;
  const unico = (prefixo: string) => `${prefixo} ${++sequencia}`;

  async function mercado(nome: string, taxaCentesimos: number): Promise<number> {
    return (
      await banco
        .insertInto('mercado')
        .values({
          nome,
          descricao: null,
          tipo: 'venda_direta',
          taxaAdministrativaCentesimos: taxaCentesimos,
          valorMaximoCestaCentavos: null,
          ativo: true,
          adminId: appuser,
          createdAt: ISO,
          updatedAt: ISO,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  async function pedido(
    cicloid: number,
    usuarioid: number,
    pontoEntregaId: number,
    dataConfirmacao: string | null,
    quando = ISO,
  ): Promise<number> {
    return (
      await banco
        .insertInto('pedido')
        .values({
          cicloid,
          usuarioid,
          pontoEntregaId,
          finalizado: dataConfirmacao !== null,
          dataConfirmacao,
          createdAt: quando,
          updatedAt: quando,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  async function linha(
    pedidoid: number,
    l: {
      cicloCestaId?: number;
      cicloProdutoId?: number;
      quantidadeMilesimos: number;
      valorCentavos: number;
      mercadoId?: number;
      taxaCentesimos?: number;
      assinaturaId?: number;
    },
    quando = ISO,
  ): Promise<number> {
    return (
      await banco
        .insertInto('pedidoproduto')
        .values({
          pedidoid,
          cicloCestaId: l.cicloCestaId ?? null,
          cicloProdutoId: l.cicloProdutoId ?? null,
          quantidadeMilesimos: l.quantidadeMilesimos,
          valorCentavos: l.valorCentavos,
          mercadoId: l.mercadoId ?? null,
          taxaCentesimos: l.taxaCentesimos ?? null,
          assinaturaId: l.assinaturaId ?? null,
          createdAt: quando,
          updatedAt: quando,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  async function extra(cicloid: number, nome: string, unidade: string): Promise<number> {
    const p = await criarProduto(banco, { nome, unidade });
    return (
      await banco
        .insertInto('cicloproduto')
        .values({
          cicloid,
          produtoId: p.id,
          quantidadeMilesimos: 100_000,
          valorCentavos: 100,
          createdAt: ISO,
          updatedAt: ISO,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  async function assinatura(usuarioid: number, cestaId: number, pontoEntregaId: number): Promise<number> {
    return (
      await banco
        .insertInto('assinatura')
        .values({
          usuarioid,
          cestaId,
          quantidade: 1,
          pontoEntregaId,
          frequencia: 'cada_ciclo',
          inicio: '2026-01-01',
          fim: '2026-12-31',
          mercadoId: null,
          ativa: true,
          createdAt: ISO,
          updatedAt: ISO,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  /** A line as montarPedido gives it, from what the test wrote. */
  const lido = (
    l: Omit<LinhaDoPedido, 'mercadoId' | 'mercado' | 'taxaCentesimos' | 'assinaturaId'> &
      Partial<Pick<LinhaDoPedido, 'mercadoId' | 'mercado' | 'taxaCentesimos' | 'assinaturaId'>>,
  ): LinhaDoPedido => ({ mercadoId: null, mercado: null, taxaCentesimos: null, assinaturaId: null, ...l });

  describe('um ciclo com mercados, pontos com e sem horário e pedidos de três pessoas', () => {
    // Made in this order, so the ids do not follow the names: Bia, then Ana, then Caio.
    let bia = 0;
    let ana = 0;
    let caio = 0;
    let cicloid = 0;
    let outroCiclo = 0;
    let cicloVazio = 0;
    let sede = 0;
    let escola = 0;
    let cicloCestaId = 0;
    let couve = 0;
    let mel = 0;
    let feira = 0;
    let cestas = 0;
    let pBia = 0;
    let pAna = 0;
    let pCaio = 0;
    let esperados: { bia: Pedido; ana: Pedido; caio: Pedido };
    const nomeSede = unico('Sede');
    const nomeEscola = unico('Escola');
    const nomeFeira = unico('Feira');
    const nomeCestas = unico('Cestas');
    const nomeCesta = unico('Cesta Grande');
    const nomeCouve = unico('Couve');
    const nomeMel = unico('Mel');

    before(async () => {
      bia = (await criarUsuario(banco, { nome: 'Bia' })).id;
      ana = (await criarUsuario(banco, { nome: 'Ana' })).id;
      caio = (await criarUsuario(banco, { nome: 'Caio' })).id;
      const cesta = await criarCesta(banco, { nome: nomeCesta });
      const c = await criarCiclo(banco, { datas: DATAS_PADRAO, cestas: [{ cestaId: cesta.id, quantidadeCestas: 50 }] });
      cicloid = c.id;
      cicloCestaId = c.cicloCestas[0] ?? 0;
      outroCiclo = (await criarCiclo(banco, { datas: DATAS_PADRAO })).id;
      cicloVazio = (await criarCiclo(banco, { datas: DATAS_PADRAO })).id;
      sede = (await criarPonto(banco, nomeSede)).id;
      escola = (await criarPonto(banco, nomeEscola)).id;
      // The Sede has the cycle's day and hours; the Escola is not listed in the cycle.
      await banco
        .insertInto('ciclopontoentrega')
        .values({
          cicloid,
          pontoEntregaId: sede,
          dataRetirada: '2026-03-11',
          horaInicio: '08:00',
          horaFim: '12:00',
          createdAt: ISO,
          updatedAt: ISO,
        })
        .execute();
      // The same point in another cycle, with other hours: only this cycle's are read.
      await banco
        .insertInto('ciclopontoentrega')
        .values({
          cicloid: outroCiclo,
          pontoEntregaId: escola,
          dataRetirada: '2026-04-01',
          horaInicio: '09:00',
          horaFim: '10:00',
          createdAt: ISO,
          updatedAt: ISO,
        })
        .execute();
      couve = await extra(cicloid, nomeCouve, 'maço');
      mel = await extra(cicloid, nomeMel, 'litro');
      feira = await mercado(nomeFeira, 1000);
      cestas = await mercado(nomeCestas, 500);

      // Bia: 2 baskets in the Cestas market (5 %), 1,5 maço of couve at the fair (10 %), a pot of
      // honey outside any market (the TAXA_* settings), confirmed.
      pBia = await pedido(cicloid, bia, sede, '2026-03-08T10:00:00');
      const lBiaCesta = await linha(pBia, {
        cicloCestaId,
        quantidadeMilesimos: 2000,
        valorCentavos: 5000,
        mercadoId: cestas,
        taxaCentesimos: 500,
      });
      const lBiaCouve = await linha(pBia, {
        cicloProdutoId: couve,
        quantidadeMilesimos: 1500,
        valorCentavos: 801,
        mercadoId: feira,
        taxaCentesimos: 1000,
      });
      const lBiaMel = await linha(pBia, { cicloProdutoId: mel, quantidadeMilesimos: 1000, valorCentavos: 2000 });
      // Ana: 2,5 pots of honey outside markets, at the Escola (no hours in this cycle), not confirmed.
      pAna = await pedido(cicloid, ana, escola, null);
      const lAnaMel = await linha(pAna, { cicloProdutoId: mel, quantidadeMilesimos: 2500, valorCentavos: 2000 });
      // Caio: one basket in the Cestas market.
      pCaio = await pedido(cicloid, caio, sede, null);
      const lCaio = await linha(pCaio, {
        cicloCestaId,
        quantidadeMilesimos: 1000,
        valorCentavos: 5000,
        mercadoId: cestas,
        taxaCentesimos: 500,
      });
      // Ana's order in another cycle is never read with this one's.
      const pOutro = await pedido(outroCiclo, ana, escola, null);
      await linha(pOutro, {
        cicloProdutoId: await extra(outroCiclo, unico('Alface'), 'maço'),
        quantidadeMilesimos: 1000,
        valorCentavos: 300,
      });

      const horasDaSede = { dataRetirada: '2026-03-11', horaInicio: '08:00', horaFim: '12:00' };
      const semHoras = { dataRetirada: null, horaInicio: null, horaFim: null };
      esperados = {
        bia: {
          pedidoId: pBia,
          cicloid,
          usuarioid: bia,
          usuario: { id: bia, nome: 'Bia' },
          pontoEntrega: { id: sede, nome: nomeSede, ...horasDaSede },
          pontoEntregaId: sede,
          finalizado: true,
          dataConfirmacao: '2026-03-08T10:00:00',
          produtos: [
            lido({
              id: lBiaCesta,
              tipo: 'cesta',
              cicloCestaId,
              cicloProdutoId: null,
              nome: nomeCesta,
              unidade: 'cesta',
              quantidadeMilesimos: 2000,
              valorCentavos: 5000,
              subtotalCentavos: 10_000,
              mercadoId: cestas,
              mercado: nomeCestas,
              taxaCentesimos: 500,
            }),
            lido({
              id: lBiaCouve,
              tipo: 'extra',
              cicloCestaId: null,
              cicloProdutoId: couve,
              nome: nomeCouve,
              unidade: 'maço',
              quantidadeMilesimos: 1500,
              valorCentavos: 801,
              // 801 × 1,5 = 1201,5: half a cent up.
              subtotalCentavos: 1202,
              mercadoId: feira,
              mercado: nomeFeira,
              taxaCentesimos: 1000,
            }),
            lido({
              id: lBiaMel,
              tipo: 'extra',
              cicloCestaId: null,
              cicloProdutoId: mel,
              nome: nomeMel,
              unidade: 'litro',
              quantidadeMilesimos: 1000,
              valorCentavos: 2000,
              subtotalCentavos: 2000,
            }),
          ],
          totalCentavos: 13_202,
          // Cestas: 5 % of 10000 = 500; fair: 10 % of 1202 = 120,2 → 120; outside: 200 + 150.
          taxaCentavos: 970,
          totalComTaxaCentavos: 14_172,
          partes: [
            {
              mercadoId: cestas,
              mercado: nomeCestas,
              subtotalCentavos: 10_000,
              taxaCentesimos: 500,
              taxaCentavos: 500,
            },
            { mercadoId: feira, mercado: nomeFeira, subtotalCentavos: 1202, taxaCentesimos: 1000, taxaCentavos: 120 },
            { mercadoId: null, mercado: null, subtotalCentavos: 2000, taxaCentesimos: null, taxaCentavos: 350 },
          ],
        },
        ana: {
          pedidoId: pAna,
          cicloid,
          usuarioid: ana,
          usuario: { id: ana, nome: 'Ana' },
          pontoEntrega: { id: escola, nome: nomeEscola, ...semHoras },
          pontoEntregaId: escola,
          finalizado: false,
          dataConfirmacao: null,
          produtos: [
            lido({
              id: lAnaMel,
              tipo: 'extra',
              cicloCestaId: null,
              cicloProdutoId: mel,
              nome: nomeMel,
              unidade: 'litro',
              quantidadeMilesimos: 2500,
              valorCentavos: 2000,
              subtotalCentavos: 5000,
            }),
          ],
          totalCentavos: 5000,
          taxaCentavos: 650,
          totalComTaxaCentavos: 5650,
          partes: [{ mercadoId: null, mercado: null, subtotalCentavos: 5000, taxaCentesimos: null, taxaCentavos: 650 }],
        },
        caio: {
          pedidoId: pCaio,
          cicloid,
          usuarioid: caio,
          usuario: { id: caio, nome: 'Caio' },
          pontoEntrega: { id: sede, nome: nomeSede, ...horasDaSede },
          pontoEntregaId: sede,
          finalizado: false,
          dataConfirmacao: null,
          produtos: [
            lido({
              id: lCaio,
              tipo: 'cesta',
              cicloCestaId,
              cicloProdutoId: null,
              nome: nomeCesta,
              unidade: 'cesta',
              quantidadeMilesimos: 1000,
              valorCentavos: 5000,
              subtotalCentavos: 5000,
              mercadoId: cestas,
              mercado: nomeCestas,
              taxaCentesimos: 500,
            }),
          ],
          totalCentavos: 5000,
          taxaCentavos: 250,
          totalComTaxaCentavos: 5250,
          partes: [
            { mercadoId: cestas, mercado: nomeCestas, subtotalCentavos: 5000, taxaCentesimos: 500, taxaCentavos: 250 },
          ],
        },
      };
    });

    test('os pedidos de um ciclo: todos por nome, os de uma pessoa, nenhum num ciclo sem pedidos', async () => {
      assert.deepEqual(await carregarPedidosDoCiclo(banco, cicloid, null, TAXA), [
        esperados.ana,
        esperados.bia,
        esperados.caio,
      ]);
      assert.deepEqual(await carregarPedidosDoCiclo(banco, cicloid, bia, TAXA), [esperados.bia]);
      assert.deepEqual(await carregarPedidosDoCiclo(banco, cicloid, admin.usuarioid, TAXA), []);
      assert.deepEqual(await carregarPedidosDoCiclo(banco, cicloVazio, null, TAXA), []);
    });

    test('um pedido só: o da pessoa no ciclo e o visível por id, com as mesmas contas', async () => {
      assert.deepEqual(await pedidoDe(banco, cicloid, bia, TAXA), esperados.bia);
      assert.deepEqual(await pedidoDe(banco, cicloid, ana, TAXA), esperados.ana);
      assert.equal(await pedidoDe(banco, cicloVazio, bia, TAXA), null);
      assert.deepEqual(await pedidoVisivel(banco, consumidor(bia, 'Bia'), pBia, TAXA), esperados.bia);
      assert.deepEqual(await pedidoVisivel(banco, admin, pCaio, TAXA), esperados.caio);
      assert.deepEqual(await pedidoVisivel(banco, info, pAna, TAXA), esperados.ana);
      const naoEncontrado = {
        tipo: 'NaoEncontrado',
        codigo: 'PEDIDO_NAO_ENCONTRADO',
        mensagem: 'Pedido não encontrado',
        detalhes: {},
      };
      assert.deepEqual(await recusa(pedidoVisivel(banco, consumidor(ana, 'Ana'), pBia, TAXA)), naoEncontrado);
      assert.deepEqual(await recusa(pedidoVisivel(banco, admin, 999_999, TAXA)), naoEncontrado);
    });

    test('os pedidos visíveis: todos para a coordenação, só o seu para quem consome', async () => {
      const todos = [esperados.ana, esperados.bia, esperados.caio];
      assert.deepEqual(await pedidosVisiveis(banco, admin, cicloid, TAXA), todos);
      assert.deepEqual(await pedidosVisiveis(banco, info, cicloid, TAXA), todos);
      assert.deepEqual(await pedidosVisiveis(banco, consumidor(caio, 'Caio'), cicloid, TAXA), [esperados.caio]);
      const semCadastro: Ator = { email: 'novo@teste.org', nome: 'Novo', usuarioid: null, perfil: [], ativo: true };
      assert.deepEqual(await pedidosVisiveis(banco, semCadastro, cicloid, TAXA), []);
      assert.deepEqual(await recusa(pedidosVisiveis(banco, consumidor(caio, 'Caio'), 999_999, TAXA)), {
        tipo: 'NaoEncontrado',
        codigo: 'CICLO_NAO_ENCONTRADO',
        mensagem: 'Não encontramos o ciclo 999999',
        detalhes: {},
      });
    });

    test('o que cada mercado vê: só os pedidos com linhas nele, cada um reduzido ao que compra ali', async () => {
      const pedidos = await carregarPedidosDoCiclo(banco, cicloid, null, TAXA);
      const [cestaDaBia, couveDaBia] = esperados.bia.produtos;
      const [parteCestas, parteFeira] = esperados.bia.partes;
      assert.ok(cestaDaBia && couveDaBia && parteCestas && parteFeira);
      const biaNaFeira: Pedido = {
        ...esperados.bia,
        produtos: [couveDaBia],
        partes: [parteFeira],
        totalCentavos: 1202,
        taxaCentavos: 120,
        totalComTaxaCentavos: 1322,
      };
      assert.deepEqual(pedidoNoMercado(esperados.bia, feira), biaNaFeira);
      assert.deepEqual(pedidosNoMercado(pedidos, feira), [biaNaFeira]);
      assert.deepEqual(pedidosNoMercado(pedidos, cestas), [
        {
          ...esperados.bia,
          produtos: [cestaDaBia],
          partes: [parteCestas],
          totalCentavos: 10_000,
          taxaCentavos: 500,
          totalComTaxaCentavos: 10_500,
        },
        esperados.caio,
      ]);
      assert.deepEqual(pedidosNoMercado(pedidos, 999_999), []);
      // A market the order buys nothing in: nothing of it, and nothing to pay there.
      assert.deepEqual(pedidoNoMercado(esperados.ana, feira), {
        ...esperados.ana,
        produtos: [],
        partes: [],
        totalCentavos: 0,
        taxaCentavos: 0,
        totalComTaxaCentavos: 0,
      });
    });
  });

  test('alterados depois de confirmar: reabertos com uma confirmação na trilha, e só esses', async () => {
    const c = (await criarCiclo(banco, { datas: DATAS_PADRAO })).id;
    const ponto = (await criarPonto(banco, unico('Ponto'))).id;
    const pessoa = async () => (await criarUsuario(banco, { nome: unico('Pessoa') })).id;
    const confirmado = await pedido(c, await pessoa(), ponto, '2026-03-08T10:00:00');
    const reaberto = await pedido(c, await pessoa(), ponto, null);
    const reabertoForaDaJanela = await pedido(c, await pessoa(), ponto, null);
    const soSalvo = await pedido(c, await pessoa(), ponto, null);
    const semTrilha = await pedido(c, await pessoa(), ponto, null);
    const foraDaLista = await pedido(c, await pessoa(), ponto, null);
    const trilha = async (entidade: string, id: number, acao: string) =>
      banco
        .insertInto('auditoria')
        .values({
          usuarioid: admin.usuarioid,
          ator: admin.email,
          acao,
          entidade,
          entidadeId: String(id),
          antes: null,
          depois: null,
          em: ISO,
        })
        .execute();
    await trilha('pedido', confirmado, 'finalizar');
    await trilha('pedido', reaberto, 'finalizar');
    await trilha('pedido', reaberto, 'salvar');
    await trilha('pedido', reabertoForaDaJanela, 'finalizar (fora da janela)');
    await trilha('pedido', soSalvo, 'salvar');
    await trilha('pedido', soSalvo, 'salvar (fora da janela)');
    // Another entity's confirmation under the same id is not the order's.
    await trilha('oferta', semTrilha, 'finalizar');
    await trilha('pedido', foraDaLista, 'finalizar');
    const lista = [confirmado, reaberto, reabertoForaDaJanela, soSalvo, semTrilha, 999_999];
    assert.deepEqual(
      [...(await alteradosAposConfirmar(banco, lista))].sort((a, b) => a - b),
      [reaberto, reabertoForaDaJanela],
    );
    assert.deepEqual([...(await alteradosAposConfirmar(banco, [foraDaLista]))], [foraDaLista]);
    assert.deepEqual([...(await alteradosAposConfirmar(banco, []))], []);
  });

  describe('as linhas das assinaturas', () => {
    let cicloid = 0;
    let cesta = 0;
    let outraCesta = 0;
    let cicloCestaId = 0;
    let outraCicloCesta = 0;
    let sede = 0;
    let escola = 0;
    let mercadoDasCestas = 0;
    const opcoes = { agora: new Date('2026-03-07T15:04:05.000Z'), tz: 'America/Sao_Paulo' };
    const DEPOIS = '2026-03-07T15:04:05.000Z';

    before(async () => {
      cesta = (await criarCesta(banco)).id;
      outraCesta = (await criarCesta(banco)).id;
      const c = await criarCiclo(banco, {
        datas: DATAS_PADRAO,
        cestas: [
          { cestaId: cesta, quantidadeCestas: 50 },
          { cestaId: outraCesta, quantidadeCestas: 50 },
        ],
      });
      cicloid = c.id;
      cicloCestaId = c.cicloCestas[0] ?? 0;
      outraCicloCesta = c.cicloCestas[1] ?? 0;
      sede = (await criarPonto(banco, unico('Sede'))).id;
      escola = (await criarPonto(banco, unico('Escola'))).id;
      mercadoDasCestas = await mercado(unico('Cestas'), 700);
    });

    const pedidoGravado = (id: number) =>
      banco
        .selectFrom('pedido')
        .select(['cicloid', 'usuarioid', 'pontoEntregaId', 'finalizado', 'dataConfirmacao', 'createdAt', 'updatedAt'])
        .where('id', '=', id)
        .executeTakeFirst();
    const linhasGravadas = async (pedidoid: number) =>
      (
        await banco
          .selectFrom('pedidoproduto')
          .select([
            'cicloCestaId',
            'cicloProdutoId',
            'quantidadeMilesimos',
            'valorCentavos',
            'mercadoId',
            'taxaCentesimos',
            'assinaturaId',
            'createdAt',
            'updatedAt',
          ])
          .where('pedidoid', '=', pedidoid)
          .orderBy('id')
          .execute()
      ).map((l) => ({ ...l }));
    const reservado = async (id: number) =>
      (await banco.selectFrom('ciclocesta').select('reservadoMilesimos').where('id', '=', id).executeTakeFirstOrThrow())
        .reservadoMilesimos;

    test('sem pedido: cria o pedido confirmado no ponto da assinatura, com a linha e a taxa do mercado', async () => {
      const u = (await criarUsuario(banco, { nome: unico('Assinante') })).id;
      const a = await assinatura(u, cesta, sede);
      const antes = await reservado(cicloCestaId);
      const { pedidoId } = await gravarLinhaDeAssinatura(
        banco,
        {
          cicloid,
          usuarioid: u,
          pontoEntregaId: sede,
          cicloCestaId,
          quantidadeMilesimos: 2000,
          valorCentavos: 4500,
          mercadoId: mercadoDasCestas,
          taxaCentesimos: 700,
          assinaturaId: a,
        },
        opcoes,
      );
      assert.deepEqual(
        { ...(await pedidoGravado(pedidoId)) },
        {
          cicloid,
          usuarioid: u,
          pontoEntregaId: sede,
          finalizado: true,
          // 15:04:05 UTC is 12:04:05 in São Paulo.
          dataConfirmacao: '2026-03-07T12:04:05',
          createdAt: DEPOIS,
          updatedAt: DEPOIS,
        },
      );
      assert.deepEqual(await linhasGravadas(pedidoId), [
        {
          cicloCestaId,
          cicloProdutoId: null,
          quantidadeMilesimos: 2000,
          valorCentavos: 4500,
          mercadoId: mercadoDasCestas,
          taxaCentesimos: 700,
          assinaturaId: a,
          createdAt: DEPOIS,
          updatedAt: DEPOIS,
        },
      ]);
      assert.equal(await reservado(cicloCestaId), antes + 2000);
    });

    test('a taxa só fica com um mercado: sem mercado não fica, com mercado e sem taxa fica zero', async () => {
      const u = (await criarUsuario(banco, { nome: unico('Assinante') })).id;
      const a = await assinatura(u, cesta, sede);
      const b = await assinatura(u, outraCesta, sede);
      const base = { cicloid, usuarioid: u, pontoEntregaId: sede, quantidadeMilesimos: 1000, valorCentavos: 5000 };
      const { pedidoId } = await gravarLinhaDeAssinatura(
        banco,
        { ...base, cicloCestaId, mercadoId: null, taxaCentesimos: 700, assinaturaId: a },
        opcoes,
      );
      const segunda = await gravarLinhaDeAssinatura(
        banco,
        { ...base, cicloCestaId: outraCicloCesta, mercadoId: mercadoDasCestas, taxaCentesimos: null, assinaturaId: b },
        opcoes,
      );
      assert.equal(segunda.pedidoId, pedidoId, 'a segunda linha vai para o mesmo pedido');
      assert.deepEqual(
        (await linhasGravadas(pedidoId)).map((l) => [l.cicloCestaId, l.mercadoId, l.taxaCentesimos, l.assinaturaId]),
        [
          [cicloCestaId, null, null, a],
          [outraCicloCesta, mercadoDasCestas, 0, b],
        ],
      );
    });

    test('com pedido: ele guarda o ponto e o estado, e a cesta que já tinha cresce e passa a ser da assinatura', async () => {
      const u = (await criarUsuario(banco, { nome: unico('Assinante') })).id;
      const a = await assinatura(u, cesta, sede);
      const CEDO = '2026-03-06T09:00:00.000Z';
      const existente = await pedido(cicloid, u, escola, null, CEDO);
      await linha(existente, { cicloCestaId, quantidadeMilesimos: 1000, valorCentavos: 4800 }, CEDO);
      const antes = await reservado(cicloCestaId);
      const { pedidoId } = await gravarLinhaDeAssinatura(
        banco,
        {
          cicloid,
          usuarioid: u,
          pontoEntregaId: sede,
          cicloCestaId,
          quantidadeMilesimos: 2000,
          valorCentavos: 5000,
          mercadoId: null,
          taxaCentesimos: null,
          assinaturaId: a,
        },
        opcoes,
      );
      assert.equal(pedidoId, existente);
      assert.deepEqual(
        { ...(await pedidoGravado(existente)) },
        {
          cicloid,
          usuarioid: u,
          pontoEntregaId: escola,
          finalizado: false,
          dataConfirmacao: null,
          createdAt: CEDO,
          updatedAt: DEPOIS,
        },
      );
      assert.deepEqual(await linhasGravadas(existente), [
        {
          cicloCestaId,
          cicloProdutoId: null,
          quantidadeMilesimos: 3000,
          valorCentavos: 4800,
          mercadoId: null,
          taxaCentesimos: null,
          assinaturaId: a,
          createdAt: CEDO,
          updatedAt: DEPOIS,
        },
      ]);
      assert.equal(await reservado(cicloCestaId), antes + 2000, 'a reserva cresce uma vez, pelo que entrou');
    });

    /** An order of a subscriber with the subscription's line and, when asked, a line of the other basket. */
    async function pedidoDeAssinante(quantidadeMilesimos: number, comOutraLinha: boolean) {
      const u = (await criarUsuario(banco, { nome: unico('Assinante') })).id;
      const a = await assinatura(u, cesta, sede);
      const p = await pedido(cicloid, u, sede, '2026-03-06T10:00:00');
      await linha(p, { cicloCestaId, quantidadeMilesimos, valorCentavos: 5000, assinaturaId: a });
      if (comOutraLinha)
        await linha(p, { cicloCestaId: outraCicloCesta, quantidadeMilesimos: 1000, valorCentavos: 4000 });
      const ac = (
        await banco
          .insertInto('assinaturaciclo')
          .values({
            assinaturaId: a,
            cicloid,
            situacao: 'gerado',
            quantidade: quantidadeMilesimos / 1000,
            pontoEntregaId: sede,
            pedidoId: p,
            motivo: null,
            createdAt: ISO,
            updatedAt: ISO,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      return { u, a, p, ac };
    }
    const daOutraCesta = {
      cicloCestaId: 0,
      cicloProdutoId: null,
      quantidadeMilesimos: 1000,
      valorCentavos: 4000,
      mercadoId: null,
      taxaCentesimos: null,
      assinaturaId: null,
      createdAt: ISO,
      updatedAt: ISO,
    };
    const vinculo = async (id: number) => ({
      ...(await banco
        .selectFrom('assinaturaciclo')
        .select(['pedidoId', 'updatedAt'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow()),
    });

    test('retirar menos do que a linha tem: ela diminui e deixa de ser da assinatura; o pedido fica', async () => {
      const { a, p, ac } = await pedidoDeAssinante(3000, false);
      const antes = await reservado(cicloCestaId);
      assert.equal(await retirarLinhaDeAssinatura(banco, p, a, 1000, opcoes.agora), false);
      assert.deepEqual(await linhasGravadas(p), [
        {
          cicloCestaId,
          cicloProdutoId: null,
          quantidadeMilesimos: 2000,
          valorCentavos: 5000,
          mercadoId: null,
          taxaCentesimos: null,
          assinaturaId: null,
          createdAt: ISO,
          updatedAt: DEPOIS,
        },
      ]);
      assert.equal((await pedidoGravado(p))?.updatedAt, DEPOIS);
      assert.deepEqual(await vinculo(ac), { pedidoId: p, updatedAt: ISO });
      assert.equal(await reservado(cicloCestaId), antes - 1000);
    });

    test('retirar tudo o que a linha tem: ela sai; com outra linha o pedido fica', async () => {
      const { a, p, ac } = await pedidoDeAssinante(2000, true);
      const antes = await reservado(cicloCestaId);
      assert.equal(await retirarLinhaDeAssinatura(banco, p, a, 2000, opcoes.agora), false);
      assert.deepEqual(await linhasGravadas(p), [{ ...daOutraCesta, cicloCestaId: outraCicloCesta }]);
      assert.equal((await pedidoGravado(p))?.updatedAt, DEPOIS);
      assert.deepEqual(await vinculo(ac), { pedidoId: p, updatedAt: ISO });
      assert.equal(await reservado(cicloCestaId), antes - 2000);
    });

    test('retirar a última linha: o pedido é apagado e a assinatura no ciclo fica sem pedido', async () => {
      const { a, p, ac } = await pedidoDeAssinante(1000, false);
      const outro = await pedidoDeAssinante(1000, false);
      // More than the line holds takes all of it.
      assert.equal(await retirarLinhaDeAssinatura(banco, p, a, 2000, opcoes.agora), true);
      assert.equal(await pedidoGravado(p), undefined);
      assert.deepEqual(await linhasGravadas(p), []);
      assert.deepEqual(await vinculo(ac), { pedidoId: null, updatedAt: DEPOIS });
      assert.deepEqual(await vinculo(outro.ac), { pedidoId: outro.p, updatedAt: ISO }, 'a outra assinatura não muda');
      assert.equal((await pedidoGravado(outro.p))?.updatedAt, ISO);
    });

    test('sem linha daquela assinatura no pedido: nada sai, e o pedido com linhas fica', async () => {
      const { a, p, ac } = await pedidoDeAssinante(1000, true);
      const outra = await assinatura((await criarUsuario(banco, { nome: unico('Outra') })).id, cesta, sede);
      assert.equal(await retirarLinhaDeAssinatura(banco, p, outra, 1000, opcoes.agora), false);
      assert.deepEqual(await linhasGravadas(p), [
        {
          cicloCestaId,
          cicloProdutoId: null,
          quantidadeMilesimos: 1000,
          valorCentavos: 5000,
          mercadoId: null,
          taxaCentesimos: null,
          assinaturaId: a,
          createdAt: ISO,
          updatedAt: ISO,
        },
        { ...daOutraCesta, cicloCestaId: outraCicloCesta },
      ]);
      assert.deepEqual(await vinculo(ac), { pedidoId: p, updatedAt: ISO });
    });
  });
});
