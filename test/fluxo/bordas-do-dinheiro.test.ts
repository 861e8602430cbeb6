import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { abrirBanco, type Banco } from '../../src/db/banco.ts';
import type { Ator } from '../../src/domain/acesso.ts';
import { naUnidadeEscolhida, paginaDaComposicao, salvarComposicao } from '../../src/domain/composicao.ts';
import { fecharCiclo, previaDoFechamento, reabrirCiclo, saldoDe } from '../../src/domain/financeiro.ts';
import type { Taxa } from '../../src/domain/pedidos/taxa.ts';
import { soConfirmadosSeguram } from '../../src/domain/reservas.ts';
import { bancoNovo } from '../helpers/banco.ts';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';
import { recusa } from '../helpers/recusa.ts';

/**
 * The edges of the money: the closing preview on the last day of the orders, a reopening and the
 * corrections closing again writes, a total past the movement column, and the units and the day
 * a composition counts its ordered baskets by. Each assertion fails when its rule moves one step.
 */

// 10 % plus R$ 1,50 on every order: a fee of floor((total × 1000 + 5000) / 10000) + 150 cents.
const TAXA: Taxa = { percentualCentesimos: 1000, fixaCentavos: 150 };
// DATAS_PADRAO: orders 06–09/03/2026.
const ULTIMO_DIA = '2026-03-09';
const DIA_SEGUINTE = '2026-03-10';
const PRECO_DA_CESTA = 5000;

/** Movements in the order of their keys (the database returns them in no promised order). */
const porChave = (a: { chave: string | null }, b: { chave: string | null }) =>
  (a.chave ?? '').localeCompare(b.chave ?? '');

let sequencia = 0;
const nomeUnico = (prefixo: string) => `${prefixo} ${++sequencia} ${Math.random().toString(36).slice(2, 6)}`;

describe('as bordas do dinheiro: prévia, reabertura, correções e composição', () => {
  let banco: Banco;
  let admin: Ator;
  let master: Ator;
  let ponto = 0;

  before(async () => {
    banco = abrirBanco(await bancoNovo());
    const a = await criarUsuario(banco, { perfil: ['admin'], nome: 'Admin' });
    admin = { email: a.email, nome: 'Admin', usuarioid: a.id, perfil: ['admin'], ativo: true };
    const m = await criarUsuario(banco, { perfil: ['master'], nome: 'Master' });
    master = { email: m.email, nome: 'Master', usuarioid: m.id, perfil: ['master'], ativo: true };
    ponto = (await criarPonto(banco)).id;
  });
  after(() => banco.destroy());

  const pessoa = async (nome: string) => (await criarUsuario(banco, { perfil: ['consumidor'], nome })).id;

  /**
   * A cycle with one basket type of `cestas` baskets at R$ 50,00, composed of 1 kg at R$ 1,00 from
   * a supplier of its own (what the supplier is credited per basket ordered).
   */
  async function cicloComCesta(cestas = 10) {
    const nome = nomeUnico('Ciclo');
    const cesta = await criarCesta(banco, { valorCentavos: PRECO_DA_CESTA });
    const c = await criarCiclo(banco, {
      nome,
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: cestas }],
      compor: true,
    });
    return { cicloid: c.id, nome, cicloCestaId: c.cicloCestas[0] ?? 0, fornecedorId: c.compositor ?? 0 };
  }

  /** An order of `cestas` baskets written as saved (and, with `confirmado`, confirmed) orders are: its id. */
  async function pedir(
    cicloid: number,
    cicloCestaId: number,
    usuarioid: number,
    cestas: number,
    confirmado: boolean,
    valorCentavos = PRECO_DA_CESTA,
  ): Promise<number> {
    const iso = new Date().toISOString();
    const p = await banco
      .insertInto('pedido')
      .values({
        cicloid,
        usuarioid,
        pontoEntregaId: ponto,
        finalizado: confirmado,
        dataConfirmacao: confirmado ? '2026-03-08T10:00:00' : null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await banco
      .insertInto('pedidoproduto')
      .values({
        pedidoid: p.id,
        cicloCestaId,
        quantidadeMilesimos: cestas * 1000,
        valorCentavos,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    return p.id;
  }

  const movimentosDoCiclo = async (cicloid: number) =>
    (
      await banco
        .selectFrom('movimentacao')
        .select(['usuarioid', 'sentido', 'valorCentavos', 'descricao', 'chave', 'data', 'criadoPor'])
        .where('cicloid', '=', cicloid)
        .execute()
    ).sort(porChave);

  const auditoriaDoCiclo = async (cicloid: number, acao: string) =>
    (
      await banco
        .selectFrom('auditoria')
        .select(['usuarioid', 'ator', 'antes', 'depois', 'em'])
        .where('entidade', '=', 'ciclo')
        .where('entidadeId', '=', String(cicloid))
        .where('acao', '=', acao)
        .orderBy('id')
        .execute()
    ).map((l) => ({
      ...l,
      antes: l.antes === null ? null : (JSON.parse(l.antes) as unknown),
      depois: l.depois === null ? null : (JSON.parse(l.depois) as unknown),
    }));

  describe('a prévia e a lista dos não confirmados', () => {
    test('a prévia: impossível no último dia dos pedidos e com o ciclo fechado, possível no dia seguinte; contas com a taxa', async () => {
      const c = await cicloComCesta();
      // People made in this order (the database reads a cycle's orders by person), their orders
      // in another: names first, then the order's id, decide where each one is listed.
      const anaA = await pessoa('Ana');
      const anaB = await pessoa('Ana');
      const zelia = await pessoa('Zélia');
      // An accented first letter: the database's byte order puts Álvaro after Zélia, pt-BR before Ana.
      const alvaro = await pessoa('Álvaro');
      const pedidoZelia = await pedir(c.cicloid, c.cicloCestaId, zelia, 1, false);
      const pedidoAlvaro = await pedir(c.cicloid, c.cicloCestaId, alvaro, 1, false);
      const pedidoAnaB = await pedir(c.cicloid, c.cicloCestaId, anaB, 2, false);
      const pedidoAnaA = await pedir(c.cicloid, c.cicloCestaId, anaA, 3, false);
      await pedir(c.cicloid, c.cicloCestaId, await pessoa('Carla'), 1, true);
      await pedir(c.cicloid, c.cicloCestaId, await pessoa('Beto'), 2, true);
      // Totals with the fee: 1 basket 5000 + 650; 2 baskets 10000 + 1150; 3 baskets 15000 + 1650.
      const naoConfirmados = [
        { pedidoId: pedidoAlvaro, nome: 'Álvaro', totalComTaxaCentavos: 5650 },
        { pedidoId: pedidoAnaB, nome: 'Ana', totalComTaxaCentavos: 11_150 },
        { pedidoId: pedidoAnaA, nome: 'Ana', totalComTaxaCentavos: 16_650 },
        { pedidoId: pedidoZelia, nome: 'Zélia', totalComTaxaCentavos: 5650 },
      ];
      const ciclo = { id: c.cicloid, nome: c.nome, dataPedidoFim: ULTIMO_DIA, fechadoEm: null };
      const contas = {
        confirmados: 2,
        naoConfirmados,
        // Carla 5000 + 650 and Beto 10000 + 1150; the supplier R$ 1,00 for each of the 3 confirmed baskets.
        debitosCentavos: 16_800,
        creditosCentavos: 300,
        fornecedores: 1,
      };
      assert.deepEqual(await previaDoFechamento(banco, c.cicloid, { hoje: '2026-03-08', taxa: TAXA }), {
        ciclo,
        possivel: false,
        ...contas,
      });
      assert.deepEqual(await previaDoFechamento(banco, c.cicloid, { hoje: ULTIMO_DIA, taxa: TAXA }), {
        ciclo,
        possivel: false,
        ...contas,
      });
      assert.deepEqual(await previaDoFechamento(banco, c.cicloid, { hoje: DIA_SEGUINTE, taxa: TAXA }), {
        ciclo,
        possivel: true,
        ...contas,
      });

      // Closing lists the same orders left out, by name in pt-BR and then by order.
      const agora = new Date('2026-03-10T15:00:00Z');
      assert.deepEqual(await fecharCiclo(banco, admin, c.cicloid, { agora, hoje: DIA_SEGUINTE, taxa: TAXA }), {
        cicloid: c.cicloid,
        fechadoEm: agora.toISOString(),
        novas: 5,
        debitosCentavos: 16_800,
        creditosCentavos: 300,
        naoConfirmados,
      });
      assert.deepEqual(await previaDoFechamento(banco, c.cicloid, { hoje: '2026-03-11', taxa: TAXA }), {
        ciclo: { ...ciclo, fechadoEm: agora.toISOString() },
        possivel: false,
        ...contas,
      });
    });
  });

  describe('reabrir e fechar de novo', () => {
    test('reabrir: só master, com motivo, e só um ciclo fechado; a auditoria guarda o motivo sem espaços', async () => {
      const c = await cicloComCesta();
      const agora = new Date('2026-03-12T15:00:00Z');
      assert.deepEqual(await recusa(reabrirCiclo(banco, master, c.cicloid, 'Conferir', agora)), {
        tipo: 'Conflito',
        codigo: 'CICLO_ABERTO',
        mensagem: 'Este ciclo não está fechado',
        detalhes: {},
      });
      const fechadoEm = new Date('2026-03-10T15:00:00Z');
      await fecharCiclo(banco, admin, c.cicloid, { agora: fechadoEm, hoje: DIA_SEGUINTE, taxa: TAXA });
      assert.deepEqual(await recusa(reabrirCiclo(banco, admin, c.cicloid, 'Conferir', agora)), {
        tipo: 'Proibido',
        codigo: 'SEM_PERMISSAO',
        mensagem: 'Só quem tem o perfil master reabre um ciclo fechado',
        detalhes: {},
      });
      for (const motivo of ['', '   ', '\t\n '])
        assert.deepEqual(
          await recusa(reabrirCiclo(banco, master, c.cicloid, motivo, agora)),
          {
            tipo: 'Invalido',
            codigo: 'VALIDACAO',
            mensagem: 'Verifique os campos destacados',
            detalhes: { motivo: 'Diga por que o ciclo precisa ser reaberto' },
          },
          JSON.stringify(motivo),
        );
      // Nothing of the refusals was written: the cycle is still closed, with no reopening recorded.
      const fechado = await banco
        .selectFrom('ciclo')
        .select('fechadoEm')
        .where('id', '=', c.cicloid)
        .executeTakeFirstOrThrow();
      assert.equal(fechado.fechadoEm, fechadoEm.toISOString());
      assert.deepEqual(await auditoriaDoCiclo(c.cicloid, 'reabrir ciclo'), []);

      await reabrirCiclo(banco, master, c.cicloid, '  Um pedido veio errado \n', agora);
      const aberto = await banco
        .selectFrom('ciclo')
        .select(['fechadoEm', 'updatedAt'])
        .where('id', '=', c.cicloid)
        .executeTakeFirstOrThrow();
      assert.deepEqual(aberto, { fechadoEm: null, updatedAt: agora.toISOString() });
      assert.deepEqual(await auditoriaDoCiclo(c.cicloid, 'reabrir ciclo'), [
        {
          usuarioid: master.usuarioid,
          ator: master.email,
          antes: { fechadoEm: fechadoEm.toISOString() },
          depois: { fechadoEm: null, motivo: 'Um pedido veio errado' },
          em: agora.toISOString(),
        },
      ]);
      // Open again: reopening it twice is refused.
      assert.equal((await recusa(reabrirCiclo(banco, master, c.cicloid, 'De novo', agora))).codigo, 'CICLO_ABERTO');
    });

    test('fechar depois de reabrir escreve só as diferenças, somadas sobre todos os fechamentos anteriores', async () => {
      const c = await cicloComCesta();
      const dora = await pessoa('Dora');
      const eva = await pessoa('Eva');
      const pedidoDora = await pedir(c.cicloid, c.cicloCestaId, dora, 1, true);
      const pedidoEva = await pedir(c.cicloid, c.cicloCestaId, eva, 1, true);
      const instante = (d: string) => new Date(`2026-03-${d}T15:00:00Z`);
      const fechar = (d: string) =>
        fecharCiclo(banco, admin, c.cicloid, { agora: instante(d), hoje: `2026-03-${d}`, taxa: TAXA });
      const reabrir = (d: string) => reabrirCiclo(banco, master, c.cicloid, 'Pedidos mudaram', instante(d));
      const cestasDaDora = (n: number) =>
        banco
          .updateTable('pedidoproduto')
          .set({ quantidadeMilesimos: n * 1000 })
          .where('pedidoid', '=', pedidoDora)
          .execute();
      const mov = (
        usuarioid: number,
        sentido: 'credito' | 'debito',
        valorCentavos: number,
        descricao: string,
        chave: string,
        dia: string,
      ) => ({
        usuarioid,
        sentido,
        valorCentavos,
        descricao: `${descricao} do ciclo ${c.nome}`,
        chave: `fechamento:${c.cicloid}:${chave}`,
        data: `2026-03-${dia}`,
        criadoPor: admin.usuarioid,
      });

      assert.deepEqual(await fechar('10'), {
        cicloid: c.cicloid,
        fechadoEm: instante('10').toISOString(),
        novas: 5,
        debitosCentavos: 11_300,
        creditosCentavos: 200,
        naoConfirmados: [],
      });
      const primeiros = [
        mov(c.fornecedorId, 'credito', 200, 'Entregas', `entrega:${c.fornecedorId}`, '10'),
        mov(dora, 'debito', 5000, 'Pedido', `pedido:${dora}`, '10'),
        mov(eva, 'debito', 5000, 'Pedido', `pedido:${eva}`, '10'),
        mov(dora, 'debito', 650, 'Taxa administrativa', `taxa:${dora}`, '10'),
        mov(eva, 'debito', 650, 'Taxa administrativa', `taxa:${eva}`, '10'),
      ];
      assert.deepEqual(await movimentosDoCiclo(c.cicloid), [...primeiros].sort(porChave));

      // Reopened: Dora now takes 2 baskets, and Eva's order is no longer confirmed. The supplier
      // delivers 2 baskets either way: its amount did not change, and no movement of 0 is written.
      await reabrir('11');
      await cestasDaDora(2);
      await banco.updateTable('pedido').set({ finalizado: false }).where('id', '=', pedidoEva).execute();
      const naoConfirmados = [{ pedidoId: pedidoEva, nome: 'Eva', totalComTaxaCentavos: 5650 }];
      assert.deepEqual(await fechar('12'), {
        cicloid: c.cicloid,
        fechadoEm: instante('12').toISOString(),
        novas: 4,
        debitosCentavos: 11_150,
        creditosCentavos: 200,
        naoConfirmados,
      });
      const iso12 = instante('12').toISOString();
      const segundos = [
        // Dora: 10000 owed, 5000 already debited; fee 1150 owed, 650 already debited.
        mov(dora, 'debito', 5000, 'Correção após reabertura: pedido', `pedido:${dora}:${iso12}`, '12'),
        mov(dora, 'debito', 500, 'Correção após reabertura: taxa administrativa', `taxa:${dora}:${iso12}`, '12'),
        // Eva: nothing owed now, so what was debited comes back.
        mov(eva, 'credito', 5000, 'Correção após reabertura: pedido', `pedido:${eva}:${iso12}`, '12'),
        mov(eva, 'credito', 650, 'Correção após reabertura: taxa administrativa', `taxa:${eva}:${iso12}`, '12'),
      ];
      assert.deepEqual(await movimentosDoCiclo(c.cicloid), [...primeiros, ...segundos].sort(porChave));

      // Once more, Dora with 4 baskets: what is already written is the sum of both closings (5000 + 5000).
      await reabrir('13');
      await cestasDaDora(4);
      assert.deepEqual(await fechar('14'), {
        cicloid: c.cicloid,
        fechadoEm: instante('14').toISOString(),
        novas: 3,
        debitosCentavos: 22_150,
        creditosCentavos: 400,
        naoConfirmados,
      });
      const iso14 = instante('14').toISOString();
      const terceiros = [
        mov(dora, 'debito', 10_000, 'Correção após reabertura: pedido', `pedido:${dora}:${iso14}`, '14'),
        // Fee 2150 owed, 650 + 500 written.
        mov(dora, 'debito', 1000, 'Correção após reabertura: taxa administrativa', `taxa:${dora}:${iso14}`, '14'),
        mov(
          c.fornecedorId,
          'credito',
          200,
          'Correção após reabertura: entregas',
          `entrega:${c.fornecedorId}:${iso14}`,
          '14',
        ),
      ];
      assert.deepEqual(await movimentosDoCiclo(c.cicloid), [...primeiros, ...segundos, ...terceiros].sort(porChave));
      assert.deepEqual(await saldoDe(banco, dora), { saldoCentavos: -22_150, movimentacoes: 6 });
      assert.deepEqual(await saldoDe(banco, eva), { saldoCentavos: 0, movimentacoes: 4 });
      assert.deepEqual(await saldoDe(banco, c.fornecedorId), { saldoCentavos: 400, movimentacoes: 2 });
      // Closed again with nothing changed: nothing new.
      assert.equal(
        (await fecharCiclo(banco, admin, c.cicloid, { agora: instante('15'), hoje: '2026-03-15', taxa: TAXA })).novas,
        0,
      );
    });
  });

  describe('o máximo de um lançamento', () => {
    test('um total acima da coluna é recusado com o nome da pessoa, sem nada gravado; exatamente o máximo passa', async () => {
      const c = await cicloComCesta(300);
      const gil = await pessoa('Gil Grande');
      // 215 baskets at R$ 100.000,00: R$ 21.500.000,00, past the column's R$ 21.474.836,47.
      const pedidoGil = await pedir(c.cicloid, c.cicloCestaId, gil, 215, true, 10_000_000);
      const opcoes = { agora: new Date('2026-03-10T15:00:00Z'), hoje: DIA_SEGUINTE, taxa: TAXA };
      assert.deepEqual(await recusa(fecharCiclo(banco, admin, c.cicloid, opcoes)), {
        tipo: 'Conflito',
        codigo: 'VALOR_GRANDE_DEMAIS',
        mensagem: `Pedido do ciclo ${c.nome} de Gil Grande daria R$ 21.500.000,00, acima do máximo de um lançamento (R$ 21.474.836,47): revise as ofertas, as composições e os pedidos do ciclo`,
        detalhes: { usuarioid: gil, centavos: 2_150_000_000 },
      });
      assert.deepEqual(await movimentosDoCiclo(c.cicloid), []);
      assert.equal(
        (await banco.selectFrom('ciclo').select('fechadoEm').where('id', '=', c.cicloid).executeTakeFirstOrThrow())
          .fechadoEm,
        null,
      );
      assert.deepEqual(await auditoriaDoCiclo(c.cicloid, 'fechar ciclo'), []);

      // One basket at exactly the column's maximum (2^31 − 1 cents): written as it is.
      await banco
        .updateTable('pedidoproduto')
        .set({ quantidadeMilesimos: 1000, valorCentavos: 2_147_483_647 })
        .where('pedidoid', '=', pedidoGil)
        .execute();
      // Fee: floor((2147483647 × 1000 + 5000) / 10000) + 150 = 214748365 + 150.
      assert.deepEqual(await fecharCiclo(banco, admin, c.cicloid, opcoes), {
        cicloid: c.cicloid,
        fechadoEm: opcoes.agora.toISOString(),
        novas: 3,
        debitosCentavos: 2_147_483_647 + 214_748_515,
        creditosCentavos: 100,
        naoConfirmados: [],
      });
      assert.deepEqual(
        (await movimentosDoCiclo(c.cicloid)).map((m) => [m.usuarioid, m.sentido, m.valorCentavos]),
        [
          [c.fornecedorId, 'credito', 100],
          [gil, 'debito', 2_147_483_647],
          [gil, 'debito', 214_748_515],
        ],
      );
    });
  });

  describe('composição', () => {
    test('a quantidade volta à unidade escolhida só quando a conversão é exata e conhecida', () => {
      // 12 units are 1 dozen (1000 thousandths); 5 units are not a whole number of thousandths of a dozen.
      assert.deepEqual(naUnidadeEscolhida(12_000, 'unidade', 'dúzia'), { milesimos: 1000, unidade: 'dúzia' });
      assert.deepEqual(naUnidadeEscolhida(5000, 'unidade', 'dúzia'), { milesimos: 5000, unidade: 'unidade' });
      assert.deepEqual(naUnidadeEscolhida(36_000, 'unidade', 'dúzia'), { milesimos: 3000, unidade: 'dúzia' });
      assert.deepEqual(naUnidadeEscolhida(250, 'kg', 'g'), { milesimos: 250_000, unidade: 'g' });
      // No way from kg to dozens, and none at all from a unit the table does not know.
      assert.deepEqual(naUnidadeEscolhida(500, 'kg', 'dúzia'), { milesimos: 500, unidade: 'kg' });
      assert.deepEqual(naUnidadeEscolhida(2000, 'bandeja', 'unidade'), { milesimos: 2000, unidade: 'bandeja' });
    });

    test('compor em dúzias e gramas guarda na unidade do produto e mostra na escolhida; o que não converte é recusado', async () => {
      const cesta = await criarCesta(banco);
      const nome = nomeUnico('Ciclo');
      const ciclo = await criarCiclo(banco, {
        nome,
        datas: DATAS_PADRAO,
        cestas: [{ cestaId: cesta.id, quantidadeCestas: 4 }],
      });
      const cicloCestaId = ciclo.cicloCestas[0] ?? 0;
      const ovo = await criarProduto(banco, { nome: nomeUnico('Ovo'), unidade: 'unidade' });
      const queijo = await criarProduto(banco, { nome: nomeUnico('Queijo'), unidade: 'kg' });
      const oferta = await criarOfertaFinalizada(banco, ciclo.id, [
        { produtoId: ovo.id, quantidadeMilesimos: 60_000, valorCentavos: 60 },
        { produtoId: queijo.id, quantidadeMilesimos: 5000, valorCentavos: 4000 },
      ]);
      const [linhaOvo = 0, linhaQueijo = 0] = oferta.linhas;
      const compor = (itens: Array<{ ofertaProdutoId: number; mil: number; unidade: string }>) =>
        salvarComposicao(
          banco,
          admin,
          {
            cicloCestaId,
            quantidadeCestas: 2,
            itens: itens.map((i, n) => ({
              ofertaProdutoId: i.ofertaProdutoId,
              quantidadeMilesimos: i.mil,
              unidade: i.unidade,
              campo: `produtos.${n}`,
            })),
          },
          new Date('2026-03-02T15:00:00Z'),
        );
      assert.deepEqual(
        await recusa(
          compor([
            { ofertaProdutoId: linhaOvo, mil: 1000, unidade: 'kg' },
            // 250,5 g is not a whole thousandth of a kilo.
            { ofertaProdutoId: linhaQueijo, mil: 250_500, unidade: 'g' },
          ]),
        ),
        {
          tipo: 'Invalido',
          codigo: 'VALIDACAO',
          mensagem: 'Verifique os campos destacados',
          detalhes: {
            'produtos.0.unidade': 'Unidade incompatível com o produto: use unidade ou dúzia',
            'produtos.1.unidade': 'Esta quantidade não converte exatamente para kg',
          },
        },
      );
      assert.deepEqual(
        await banco.selectFrom('composicao').select('id').where('cicloCestaId', '=', cicloCestaId).execute(),
        [],
        'nada gravado',
      );
      // A basket with no composition yet: 1 dozen eggs and 250 g of cheese.
      const pagina = await compor([
        { ofertaProdutoId: linhaOvo, mil: 1000, unidade: 'dúzia' },
        { ofertaProdutoId: linhaQueijo, mil: 250_000, unidade: 'g' },
      ]);
      assert.deepEqual(pagina.composicao, {
        quantidadeCestas: 2,
        produtos: [
          {
            ofertaProdutoId: linhaOvo,
            produtoId: ovo.id,
            produto: ovo.nome,
            fornecedor: 'Pessoa de Teste',
            quantidadePorCestaMilesimos: 12_000,
            unidade: 'unidade',
            unidadeEscolhida: 'dúzia',
            quantidadeNaUnidadeEscolhida: 1000,
            valorCentavos: 60,
            // 12 eggs at R$ 0,60.
            custoCentavos: 720,
          },
          {
            ofertaProdutoId: linhaQueijo,
            produtoId: queijo.id,
            produto: queijo.nome,
            fornecedor: 'Pessoa de Teste',
            quantidadePorCestaMilesimos: 250,
            unidade: 'kg',
            unidadeEscolhida: 'g',
            quantidadeNaUnidadeEscolhida: 250_000,
            valorCentavos: 4000,
            // A quarter of a kilo at R$ 40,00.
            custoCentavos: 1000,
          },
        ],
      });
      assert.equal(pagina.custoPorCestaCentavos, 1720);
      const auditoria = await banco
        .selectFrom('auditoria')
        .select(['antes', 'depois'])
        .where('entidade', '=', 'composicao')
        .where(
          'entidadeId',
          '=',
          String(
            (
              await banco
                .selectFrom('composicao')
                .select('id')
                .where('cicloCestaId', '=', cicloCestaId)
                .executeTakeFirstOrThrow()
            ).id,
          ),
        )
        .execute();
      assert.deepEqual(
        auditoria.map((a) => [JSON.parse(a.antes ?? 'null'), JSON.parse(a.depois ?? 'null')]),
        [[{ quantidadeCestas: 0, produtos: [] }, pagina.composicao]],
      );
      assert.deepEqual(
        await banco
          .selectFrom('composicaoproduto')
          .select(['ofertaProdutoId', 'quantidadePorCestaMilesimos', 'unidade'])
          .where('ofertaProdutoId', 'in', [linhaOvo, linhaQueijo])
          .orderBy('id')
          .execute(),
        [
          { ofertaProdutoId: linhaOvo, quantidadePorCestaMilesimos: 12_000, unidade: 'dúzia' },
          { ofertaProdutoId: linhaQueijo, quantidadePorCestaMilesimos: 250, unidade: 'g' },
        ],
      );
    });

    test('as cestas pedidas: todas as salvas até o último dia dos pedidos, só as confirmadas depois dele', async () => {
      const c = await cicloComCesta(10);
      await pedir(c.cicloid, c.cicloCestaId, await pessoa('Hugo'), 1, true);
      await pedir(c.cicloid, c.cicloCestaId, await pessoa('Iris'), 2, false);
      const pedidas = async (hoje: string | null) =>
        (await paginaDaComposicao(banco, c.cicloCestaId, hoje)).cicloCesta.cestasPedidas;
      assert.deepEqual(
        [await pedidas(null), await pedidas(ULTIMO_DIA), await pedidas(DIA_SEGUINTE)],
        [3, 3, 1],
        'sem dia, no último dia e no dia seguinte',
      );
      const linha = (
        await banco
          .selectFrom('composicaoproduto as x')
          .innerJoin('composicao as k', 'k.id', 'x.composicaoid')
          .select('x.ofertaProdutoId')
          .where('k.cicloCestaId', '=', c.cicloCestaId)
          .executeTakeFirstOrThrow()
      ).ofertaProdutoId;
      const compor = (quantidadeCestas: number, comItem: boolean, hoje: string | null) =>
        salvarComposicao(
          banco,
          admin,
          {
            cicloCestaId: c.cicloCestaId,
            quantidadeCestas,
            itens: comItem
              ? [{ ofertaProdutoId: linha, quantidadeMilesimos: 1000, unidade: 'kg', campo: 'produtos.0' }]
              : [],
          },
          new Date('2026-03-10T15:00:00Z'),
          hoje,
        );
      const composicao = () =>
        banco.selectFrom('composicao').select('quantidadeCestas').where('cicloCestaId', '=', c.cicloCestaId).execute();
      assert.deepEqual(await recusa(compor(2, true, null)), {
        tipo: 'Conflito',
        codigo: 'ABAIXO_DOS_PEDIDOS',
        mensagem: 'Já há 3 cestas pedidas: a composição precisa de pelo menos essa quantidade',
        detalhes: { cestasPedidas: 3 },
      });
      assert.deepEqual(await recusa(compor(3, false, null)), {
        tipo: 'Conflito',
        codigo: 'CESTA_PEDIDA_VAZIA',
        mensagem: 'Já há 3 cestas pedidas: a composição precisa de pelo menos um item',
        detalhes: { cestasPedidas: 3 },
      });
      assert.deepEqual(await composicao(), [{ quantidadeCestas: 10 }], 'nada gravado');
      // After the order window only Hugo's confirmed basket holds: 2 are enough, an empty basket still is not.
      assert.deepEqual(await recusa(compor(2, false, DIA_SEGUINTE)), {
        tipo: 'Conflito',
        codigo: 'CESTA_PEDIDA_VAZIA',
        mensagem: 'Já há 1 cestas pedidas: a composição precisa de pelo menos um item',
        detalhes: { cestasPedidas: 1 },
      });
      const depois = await compor(2, true, DIA_SEGUINTE);
      assert.deepEqual([depois.cicloCesta.cestasPedidas, depois.composicao.quantidadeCestas], [1, 2]);
      assert.deepEqual(await composicao(), [{ quantidadeCestas: 2 }]);
    });
  });

  test('só os confirmados seguram estoque a partir do dia seguinte ao último dia dos pedidos', () => {
    const ciclo = { dataPedidoFim: ULTIMO_DIA };
    assert.equal(soConfirmadosSeguram(ciclo, '2026-03-08'), false);
    assert.equal(soConfirmadosSeguram(ciclo, ULTIMO_DIA), false);
    assert.equal(soConfirmadosSeguram(ciclo, DIA_SEGUINTE), true);
  });
});
