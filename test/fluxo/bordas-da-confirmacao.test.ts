import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { abrirBanco, type Banco, type Db } from '../../src/db/banco.ts';
import type { Ator } from '../../src/domain/acesso.ts';
import type { Perfil } from '../../src/domain/perfis.ts';
import {
  catalogoDoCiclo,
  comDisponibilidade,
  disponibilidade,
  reservasDoCiclo,
} from '../../src/domain/pedidos/disponibilidade.ts';
import { finalizarPedido } from '../../src/domain/pedidos/finalizar.ts';
import type { EventoDoPedido, Pedido } from '../../src/domain/pedidos/modelo.ts';
import { pontoDosMercados } from '../../src/domain/pedidos/ponto.ts';
import { salvarPedido } from '../../src/domain/pedidos/salvar.ts';
import type { LinhaPedida } from '../../src/domain/pedidos/regras.ts';
import type { Taxa } from '../../src/domain/pedidos/taxa.ts';
import { bancoNovo } from '../helpers/banco.ts';
import {
  DATAS_PADRAO,
  comporCestas,
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';
import { recusa } from '../helpers/recusa.ts';
import { criarMercadoNoBanco } from '../mercados/apoio.ts';

/**
 * The edges of confirming an order and of choosing its pickup point, called as the edges call
 * the use cases: the stock an order takes when the coordination confirms it after its window
 * (only confirmed orders hold it then), who may confirm, what a confirmation writes, tells and
 * audits; the point an order may be picked up at (the cycle's, or the one every line's market
 * serves). Each assertion fails when its rule moves one step; every refusal leaves the order as
 * it was.
 */

// 10 % plus R$ 1,50 on every order.
const TAXA: Taxa = { percentualCentesimos: 1000, fixaCentavos: 150 };
const TZ = 'America/Sao_Paulo';
// DATAS_PADRAO: orders 06–09/03/2026.
const NO_PEDIDO = { agora: new Date('2026-03-07T15:00:00Z'), hoje: '2026-03-07', taxa: TAXA };
const ULTIMO_DIA = { agora: new Date('2026-03-09T20:00:00Z'), hoje: '2026-03-09', taxa: TAXA };
const DEPOIS = { agora: new Date('2026-03-10T13:30:05Z'), hoje: '2026-03-10', taxa: TAXA };
const PRECO_DA_CESTA = 5000;
const PRECO_DO_EXTRA = 800;
const AVISO_DO_ESTOQUE =
  'O período de pedidos terminou e este pedido não foi confirmado a tempo; agora não há o suficiente: ';
const CAMPOS = 'Verifique os campos destacados';

let sequencia = 0;
const nomeUnico = (prefixo: string) => `${prefixo} ${++sequencia} ${Math.random().toString(36).slice(2, 6)}`;

describe('as bordas da confirmação e do ponto de retirada', () => {
  let banco: Banco;
  let admin: Ator;
  let donoDosMercados = 0;

  before(async () => {
    banco = abrirBanco(await bancoNovo());
    admin = await atorDe(banco, ['admin'], 'Coordenação');
    donoDosMercados = await criarDonoDosMercados(banco);
  });
  after(() => banco.destroy());

  /** A cycle (DATAS_PADRAO) with one basket type composed for `cestas` baskets and an extra of `kg` kilos. */
  async function cicloComEstoque(cestas: number, kg: number) {
    const cesta = await criarCesta(banco, { nome: nomeUnico('Cesta'), valorCentavos: PRECO_DA_CESTA });
    const c = await criarCiclo(banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: cestas }],
      compor: true,
    });
    const produto = await criarProduto(banco, { nome: nomeUnico('Mel'), unidade: 'kg' });
    const extra = await publicarExtra(banco, c.id, produto.id, kg * 1000, null);
    const ponto = await pontoNovo(banco, nomeUnico('Sede'));
    return { cicloid: c.id, cicloCestaId: c.cicloCestas[0] ?? 0, cesta: cesta.nome, extra, mel: produto.nome, ponto };
  }

  /** An order written as saved orders are (and, with `confirmado`, confirmed), for a new consumer: its id and the consumer. */
  async function pedidoGravado(
    cicloid: number,
    ponto: number,
    linhas: ReadonlyArray<{ cicloCestaId?: number; cicloProdutoId?: number; milesimos: number }>,
    confirmado: boolean,
  ): Promise<{ pedidoId: number; consumidor: Ator }> {
    const consumidor = await atorDe(banco, ['consumidor'], nomeUnico('Consumidora'));
    const iso = new Date().toISOString();
    const p = await banco
      .insertInto('pedido')
      .values({
        cicloid,
        usuarioid: consumidor.usuarioid ?? 0,
        pontoEntregaId: ponto,
        finalizado: confirmado,
        dataConfirmacao: confirmado ? '2026-03-08T10:00:00' : null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const l of linhas)
      await banco
        .insertInto('pedidoproduto')
        .values({
          pedidoid: p.id,
          cicloCestaId: l.cicloCestaId ?? null,
          cicloProdutoId: l.cicloProdutoId ?? null,
          quantidadeMilesimos: l.milesimos,
          valorCentavos: l.cicloCestaId === undefined ? PRECO_DO_EXTRA : PRECO_DA_CESTA,
          createdAt: iso,
          updatedAt: iso,
        })
        .execute();
    return { pedidoId: p.id, consumidor };
  }

  /** The order's row as confirming writes it. */
  const linhaDoPedido = (pedidoId: number) =>
    banco
      .selectFrom('pedido')
      .select(['finalizado', 'dataConfirmacao', 'updatedAt'])
      .where('id', '=', pedidoId)
      .executeTakeFirstOrThrow()
      .then((p) => ({ ...p, finalizado: Boolean(p.finalizado) }));

  /** The order's audit rows, oldest first. */
  const auditoriaDoPedido = async (pedidoId: number) =>
    (
      await banco
        .selectFrom('auditoria')
        .select(['usuarioid', 'acao', 'antes', 'depois', 'em'])
        .where('entidade', '=', 'pedido')
        .where('entidadeId', '=', String(pedidoId))
        .orderBy('id')
        .execute()
    ).map((l) => ({
      ...l,
      antes: l.antes === null ? null : (JSON.parse(l.antes) as unknown),
      depois: l.depois === null ? null : (JSON.parse(l.depois) as unknown),
    }));

  /** Confirming with an outbox that records what it is told, and in which transaction. */
  function comAvisos() {
    const eventos: EventoDoPedido[] = [];
    const transacoes: Db[] = [];
    return {
      eventos,
      transacoes,
      avisos: {
        emitir: (trx: Db, evento: EventoDoPedido) => {
          transacoes.push(trx);
          eventos.push(evento);
          return Promise.resolve();
        },
      },
    };
  }

  const confirmar = (ator: Ator, pedidoId: number, quando: typeof NO_PEDIDO) =>
    finalizarPedido(banco, ator, pedidoId, { ...quando, tz: TZ });

  describe('o estoque que um pedido toma ao ser confirmado depois do período', () => {
    test('só os confirmados seguram: falta de cestas e de extras, cada linha por si, e o que cabe exatamente', async () => {
      const c = await cicloComEstoque(5, 3);
      // Confirmed: 3 baskets and 1,5 kg. Saved but not confirmed: 2 baskets and 1 kg, which hold nothing now.
      await pedidoGravado(
        c.cicloid,
        c.ponto,
        [
          { cicloCestaId: c.cicloCestaId, milesimos: 3000 },
          { cicloProdutoId: c.extra, milesimos: 1500 },
        ],
        true,
      );
      await pedidoGravado(
        c.cicloid,
        c.ponto,
        [
          { cicloCestaId: c.cicloCestaId, milesimos: 2000 },
          { cicloProdutoId: c.extra, milesimos: 1000 },
        ],
        false,
      );
      const tentar = async (cestas: number, mel: number) => {
        const p = await pedidoGravado(
          c.cicloid,
          c.ponto,
          [
            { cicloCestaId: c.cicloCestaId, milesimos: cestas },
            { cicloProdutoId: c.extra, milesimos: mel },
          ],
          false,
        );
        return { ...p, antes: await linhaDoPedido(p.pedidoId) };
      };
      const cesta = (disponivel: number, pedido: number) => ({ nome: c.cesta, disponivel, pedido, unidade: 'cesta' });
      const mel = (disponivel: number, pedido: number) => ({ nome: c.mel, disponivel, pedido, unidade: 'kg' });

      const demais = await tentar(3000, 2000);
      assert.deepEqual(await recusa(confirmar(admin, demais.pedidoId, DEPOIS)), {
        tipo: 'Conflito',
        codigo: 'SEM_ESTOQUE',
        mensagem: `${AVISO_DO_ESTOQUE}${c.cesta} (disponível: 2 cestas); ${c.mel} (disponível: 1,5 kg)`,
        detalhes: { disponivel: [cesta(2, 3), mel(1.5, 2)] },
      });
      assert.deepEqual(await linhaDoPedido(demais.pedidoId), demais.antes);
      assert.deepEqual(await auditoriaDoPedido(demais.pedidoId), []);

      // One basket too many, the honey fits exactly.
      const umaCestaAMais = await tentar(3000, 1500);
      assert.deepEqual(await recusa(confirmar(admin, umaCestaAMais.pedidoId, DEPOIS)), {
        tipo: 'Conflito',
        codigo: 'SEM_ESTOQUE',
        mensagem: `${AVISO_DO_ESTOQUE}${c.cesta} (disponível: 2 cestas)`,
        detalhes: { disponivel: [cesta(2, 3)] },
      });
      // The baskets fit exactly, one gram of honey too many.
      const umGramaAMais = await tentar(2000, 1501);
      assert.deepEqual(await recusa(confirmar(admin, umGramaAMais.pedidoId, DEPOIS)), {
        tipo: 'Conflito',
        codigo: 'SEM_ESTOQUE',
        mensagem: `${AVISO_DO_ESTOQUE}${c.mel} (disponível: 1,5 kg)`,
        detalhes: { disponivel: [mel(1.5, 1.501)] },
      });

      // Exactly what is left: confirmed, outside the window, by the coordination.
      const justo = await tentar(2000, 1500);
      const confirmado = await confirmar(admin, justo.pedidoId, DEPOIS);
      assert.equal(confirmado.finalizado, true);
      assert.equal(confirmado.dataConfirmacao, '2026-03-10T10:30:05');
      assert.deepEqual(
        (await auditoriaDoPedido(justo.pedidoId)).map((a) => [a.acao, a.usuarioid]),
        [['finalizar (fora da janela)', admin.usuarioid]],
      );

      // Now everything is held: nothing left of either.
      const depois = await tentar(1000, 1);
      assert.deepEqual(await recusa(confirmar(admin, depois.pedidoId, DEPOIS)), {
        tipo: 'Conflito',
        codigo: 'SEM_ESTOQUE',
        mensagem: `${AVISO_DO_ESTOQUE}${c.cesta} (disponível: 0 cesta); ${c.mel} (disponível: 0 kg)`,
        detalhes: { disponivel: [cesta(0, 1), mel(0, 0.001)] },
      });
    });

    test('o que os confirmados seguram além do que há não deixa um disponível negativo; só cestas ou só extras', async () => {
      // Confirmed orders beyond what is there (the composition and the extra were lowered afterwards).
      const c = await cicloComEstoque(2, 1);
      await pedidoGravado(
        c.cicloid,
        c.ponto,
        [
          { cicloCestaId: c.cicloCestaId, milesimos: 3000 },
          { cicloProdutoId: c.extra, milesimos: 1500 },
        ],
        true,
      );
      const soCestas = await pedidoGravado(
        c.cicloid,
        c.ponto,
        [{ cicloCestaId: c.cicloCestaId, milesimos: 1000 }],
        false,
      );
      assert.deepEqual(await recusa(confirmar(admin, soCestas.pedidoId, DEPOIS)), {
        tipo: 'Conflito',
        codigo: 'SEM_ESTOQUE',
        mensagem: `${AVISO_DO_ESTOQUE}${c.cesta} (disponível: 0 cesta)`,
        detalhes: { disponivel: [{ nome: c.cesta, disponivel: 0, pedido: 1, unidade: 'cesta' }] },
      });
      const soExtras = await pedidoGravado(c.cicloid, c.ponto, [{ cicloProdutoId: c.extra, milesimos: 250 }], false);
      assert.deepEqual(await recusa(confirmar(admin, soExtras.pedidoId, DEPOIS)), {
        tipo: 'Conflito',
        codigo: 'SEM_ESTOQUE',
        mensagem: `${AVISO_DO_ESTOQUE}${c.mel} (disponível: 0 kg)`,
        detalhes: { disponivel: [{ nome: c.mel, disponivel: 0, pedido: 0.25, unidade: 'kg' }] },
      });
      assert.equal((await linhaDoPedido(soExtras.pedidoId)).finalizado, false);

      // Within the window (its last day) the order already holds what it was saved with: confirming checks nothing.
      const noUltimoDia = await pedidoGravado(
        c.cicloid,
        c.ponto,
        [{ cicloCestaId: c.cicloCestaId, milesimos: 1000 }],
        false,
      );
      const confirmado = await confirmar(noUltimoDia.consumidor, noUltimoDia.pedidoId, ULTIMO_DIA);
      assert.equal(confirmado.finalizado, true);
      assert.equal(confirmado.dataConfirmacao, '2026-03-09T17:00:00');
    });

    test('cada linha com o que há dela: duas cestas e dois extras no mesmo pedido', async () => {
      // The first basket and the first extra (by id) have 1 free, the second ones 3.
      const c = await cicloComEstoque(3, 3);
      const outraCesta = await criarCesta(banco, { nome: nomeUnico('Cesta'), valorCentavos: PRECO_DA_CESTA });
      const iso = new Date().toISOString();
      const segunda = (
        await banco
          .insertInto('ciclocesta')
          .values({ cicloid: c.cicloid, cestaId: outraCesta.id, quantidadeCestas: 3, createdAt: iso, updatedAt: iso })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      await comporCestas(banco, c.cicloid, [segunda]);
      const feijao = await criarProduto(banco, { nome: nomeUnico('Feijão'), unidade: 'kg' });
      const outroExtra = await publicarExtra(banco, c.cicloid, feijao.id, 3000, null);
      await pedidoGravado(
        c.cicloid,
        c.ponto,
        [
          { cicloCestaId: c.cicloCestaId, milesimos: 2000 },
          { cicloProdutoId: c.extra, milesimos: 2000 },
        ],
        true,
      );
      const linhas = (primeiras: number, segundas: number) => [
        { cicloCestaId: c.cicloCestaId, milesimos: primeiras * 1000 },
        { cicloCestaId: segunda, milesimos: segundas * 1000 },
        { cicloProdutoId: c.extra, milesimos: primeiras * 1000 },
        { cicloProdutoId: outroExtra, milesimos: segundas * 1000 },
      ];
      const demais = await pedidoGravado(c.cicloid, c.ponto, linhas(1, 4), false);
      assert.deepEqual(await recusa(confirmar(admin, demais.pedidoId, DEPOIS)), {
        tipo: 'Conflito',
        codigo: 'SEM_ESTOQUE',
        mensagem: `${AVISO_DO_ESTOQUE}${outraCesta.nome} (disponível: 3 cestas); ${feijao.nome} (disponível: 3 kg)`,
        detalhes: {
          disponivel: [
            { nome: outraCesta.nome, disponivel: 3, pedido: 4, unidade: 'cesta' },
            { nome: feijao.nome, disponivel: 3, pedido: 4, unidade: 'kg' },
          ],
        },
      });
      const justo = await pedidoGravado(c.cicloid, c.ponto, linhas(1, 3), false);
      assert.equal((await confirmar(admin, justo.pedidoId, DEPOIS)).finalizado, true);
    });

    test('depois do período, quem consome não confirma mais: só a coordenação, e ela confirma o que há', async () => {
      const c = await cicloComEstoque(5, 3);
      const p = await pedidoGravado(c.cicloid, c.ponto, [{ cicloCestaId: c.cicloCestaId, milesimos: 1000 }], false);
      assert.deepEqual(await recusa(confirmar(p.consumidor, p.pedidoId, DEPOIS)), {
        tipo: 'Conflito',
        codigo: 'JANELA_FECHADA',
        mensagem: 'O período de pedidos deste ciclo terminou em 09/03/2026',
        detalhes: {},
      });
      assert.equal((await linhaDoPedido(p.pedidoId)).finalizado, false);
      assert.equal((await confirmar(admin, p.pedidoId, DEPOIS)).finalizado, true);
    });
  });

  describe('quem confirma, e o que a confirmação grava, avisa e audita', () => {
    test('a própria pessoa confirma no período: o pedido, a hora local, o recibo na mesma transação e a auditoria', async () => {
      const c = await cicloComEstoque(5, 3);
      const p = await pedidoGravado(
        c.cicloid,
        c.ponto,
        [
          { cicloCestaId: c.cicloCestaId, milesimos: 1000 },
          { cicloProdutoId: c.extra, milesimos: 500 },
        ],
        false,
      );
      // Another order of the cycle, not confirmed, stays so.
      const outro = await pedidoGravado(c.cicloid, c.ponto, [{ cicloCestaId: c.cicloCestaId, milesimos: 1000 }], false);
      const antesDoOutro = await linhaDoPedido(outro.pedidoId);
      const { eventos, transacoes, avisos } = comAvisos();
      const depois = await finalizarPedido(banco, p.consumidor, p.pedidoId, { ...NO_PEDIDO, tz: TZ, avisos });
      assert.equal(depois.finalizado, true);
      assert.equal(depois.dataConfirmacao, '2026-03-07T12:00:00');
      // 5000 + 400, with 540 + 150 of fee.
      assert.deepEqual([depois.totalCentavos, depois.taxaCentavos, depois.totalComTaxaCentavos], [5400, 690, 6090]);
      // Bought outside any market: one part, at the TAXA_* settings, with no market fee of its own.
      assert.deepEqual(depois.partes, [
        { mercadoId: null, mercado: null, subtotalCentavos: 5400, taxaCentavos: 690, taxaCentesimos: null },
      ]);
      assert.deepEqual(await linhaDoPedido(p.pedidoId), {
        finalizado: true,
        dataConfirmacao: '2026-03-07T12:00:00',
        updatedAt: NO_PEDIDO.agora.toISOString(),
      });
      assert.deepEqual(await linhaDoPedido(outro.pedidoId), antesDoOutro);
      assert.deepEqual(eventos, [{ tipo: 'recibo', pedido: depois }]);
      assert.equal(transacoes.length, 1);
      assert.notEqual(transacoes[0], banco, 'o recibo vai na transação da confirmação');
      const antes: Pedido = { ...depois, finalizado: false, dataConfirmacao: null };
      assert.deepEqual(await auditoriaDoPedido(p.pedidoId), [
        {
          usuarioid: p.consumidor.usuarioid,
          acao: 'finalizar',
          antes: JSON.parse(JSON.stringify(antes)) as unknown,
          depois: JSON.parse(JSON.stringify(depois)) as unknown,
          em: NO_PEDIDO.agora.toISOString(),
        },
      ]);

      // Confirming again changes nothing: no new time, no second receipt, no second audit row.
      const deNovo = await finalizarPedido(banco, p.consumidor, p.pedidoId, { ...DEPOIS, tz: TZ, avisos });
      assert.deepEqual(deNovo, depois);
      assert.deepEqual(eventos, [{ tipo: 'recibo', pedido: depois }]);
      assert.equal((await auditoriaDoPedido(p.pedidoId)).length, 1);
      assert.equal((await linhaDoPedido(p.pedidoId)).updatedAt, NO_PEDIDO.agora.toISOString());
    });

    test('a coordenação confirma o pedido de outra pessoa no período, e isso não é fora da janela', async () => {
      const c = await cicloComEstoque(5, 3);
      const p = await pedidoGravado(c.cicloid, c.ponto, [{ cicloCestaId: c.cicloCestaId, milesimos: 1000 }], false);
      const depois = await confirmar(admin, p.pedidoId, NO_PEDIDO);
      assert.deepEqual([depois.finalizado, depois.usuario.id], [true, p.consumidor.usuarioid]);
      assert.deepEqual(
        (await auditoriaDoPedido(p.pedidoId)).map((a) => [a.acao, a.usuarioid]),
        [['finalizar', admin.usuarioid]],
      );
    });

    test('quem só vê (info) não confirma o pedido de outra pessoa; outra consumidora nem o encontra', async () => {
      const c = await cicloComEstoque(5, 3);
      const p = await pedidoGravado(c.cicloid, c.ponto, [{ cicloCestaId: c.cicloCestaId, milesimos: 1000 }], false);
      const antes = await linhaDoPedido(p.pedidoId);
      const info = await atorDe(banco, ['info'], 'Quem acompanha');
      assert.deepEqual(await recusa(confirmar(info, p.pedidoId, NO_PEDIDO)), {
        tipo: 'Proibido',
        codigo: 'PEDIDO_DE_OUTRA_PESSOA',
        mensagem: 'Você só pode confirmar os seus próprios pedidos',
        detalhes: {},
      });
      const outra = await atorDe(banco, ['consumidor'], 'Outra');
      assert.deepEqual(await recusa(confirmar(outra, p.pedidoId, NO_PEDIDO)), {
        tipo: 'NaoEncontrado',
        codigo: 'PEDIDO_NAO_ENCONTRADO',
        mensagem: 'Pedido não encontrado',
        detalhes: {},
      });
      assert.deepEqual(await linhaDoPedido(p.pedidoId), antes);
      assert.deepEqual(await auditoriaDoPedido(p.pedidoId), []);
    });
  });

  describe('o ponto de retirada do ciclo', () => {
    /** A cycle with a composed basket and these points listed (day and hours there). */
    async function cicloComPontos(
      pontos: ReadonlyArray<{ id: number; dataRetirada?: string; horaInicio?: string; horaFim?: string }>,
    ) {
      const cesta = await criarCesta(banco, { nome: nomeUnico('Cesta'), valorCentavos: PRECO_DA_CESTA });
      const c = await criarCiclo(banco, {
        datas: DATAS_PADRAO,
        cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
        compor: true,
      });
      for (const p of pontos) await listarPonto(banco, c.id, p);
      return { cicloid: c.id, cicloCestaId: c.cicloCestas[0] ?? 0 };
    }

    const pedirNo = async (cicloid: number, linhas: readonly LinhaPedida[], pontoEntregaId: number) => {
      const consumidor = await atorDe(banco, ['consumidor'], nomeUnico('Consumidora'));
      const feito = salvarPedido(banco, consumidor, { usuarioid: null, cicloid, pontoEntregaId, linhas }, NO_PEDIDO);
      return { consumidor, feito };
    };
    const umaCesta = (cicloCestaId: number): LinhaPedida[] => [
      { cicloCestaId, cicloProdutoId: null, quantidadeMilesimos: 1000, campo: 'produtos.0' },
    ];
    const pedidosDe = async (consumidor: Ator) =>
      (
        await banco
          .selectFrom('pedido')
          .select('id')
          .where('usuarioid', '=', consumidor.usuarioid ?? 0)
          .execute()
      ).length;

    test('um ponto que o ciclo lista, com o dia e as horas de lá; um que não lista é recusado com os do ciclo', async () => {
      const nomes = {
        sede: nomeUnico('Sede'),
        escola: nomeUnico('Escola'),
        armazem: nomeUnico('Armazém'),
        feira: nomeUnico('Feira'),
        praca: nomeUnico('Praça'),
      };
      const sede = await pontoNovo(banco, nomes.sede);
      const escola = await pontoNovo(banco, nomes.escola);
      const armazem = await pontoNovo(banco, nomes.armazem);
      const feira = await pontoNovo(banco, nomes.feira);
      // Listed in another cycle only, with hours of its own there.
      const praca = await pontoNovo(banco, nomes.praca);
      await cicloComPontos([{ id: praca, dataRetirada: '2026-03-11', horaInicio: '07:00', horaFim: '08:00' }]);
      const c = await cicloComPontos([
        { id: sede, dataRetirada: '2026-03-12', horaInicio: '09:00', horaFim: '12:00' },
        { id: escola, dataRetirada: '2026-03-11', horaInicio: '14:00' },
        { id: armazem },
      ]);

      const naSede = await pedirNo(c.cicloid, umaCesta(c.cicloCestaId), sede);
      assert.deepEqual((await naSede.feito).pedido.pontoEntrega, {
        id: sede,
        nome: nomes.sede,
        dataRetirada: '2026-03-12',
        horaInicio: '09:00',
        horaFim: '12:00',
      });
      const noArmazem = await pedirNo(c.cicloid, umaCesta(c.cicloCestaId), armazem);
      assert.deepEqual((await noArmazem.feito).pedido.pontoEntrega, {
        id: armazem,
        nome: nomes.armazem,
        dataRetirada: null,
        horaInicio: null,
        horaFim: null,
      });

      // The cycle's points by day, then hour (unset ones last), then name.
      const doCiclo = `${nomes.escola}, ${nomes.sede}, ${nomes.armazem}`;
      for (const [ponto, nome] of [
        [feira, nomes.feira],
        [praca, nomes.praca],
      ] as const) {
        const fora = await pedirNo(c.cicloid, umaCesta(c.cicloCestaId), ponto);
        assert.deepEqual(await recusa(fora.feito), {
          tipo: 'Invalido',
          codigo: 'VALIDACAO',
          mensagem: CAMPOS,
          detalhes: { pontoEntregaId: `Este ciclo não entrega em ${nome}. Escolha um dos pontos do ciclo: ${doCiclo}` },
        });
        assert.equal(await pedidosDe(fora.consumidor), 0);
      }
    });

    test('um ponto inativo (mesmo listado no ciclo) ou inexistente é recusado', async () => {
      const fechado = await pontoNovo(banco, nomeUnico('Fechado'), false);
      const aberto = await pontoNovo(banco, nomeUnico('Aberto'));
      const c = await cicloComPontos([{ id: fechado }, { id: aberto }]);
      for (const ponto of [fechado, 9_999_999]) {
        const p = await pedirNo(c.cicloid, umaCesta(c.cicloCestaId), ponto);
        assert.deepEqual(await recusa(p.feito), {
          tipo: 'Invalido',
          codigo: 'VALIDACAO',
          mensagem: CAMPOS,
          detalhes: { pontoEntregaId: 'Ponto de entrega inexistente ou inativo' },
        });
        assert.equal(await pedidosDe(p.consumidor), 0);
      }
    });

    test('um ciclo que não lista pontos entrega em todo ponto ativo, sem o dia nem as horas de outro ciclo', async () => {
      const praca = await pontoNovo(banco, nomeUnico('Praça'));
      await cicloComPontos([{ id: praca, dataRetirada: '2026-03-11', horaInicio: '07:00', horaFim: '08:00' }]);
      const c = await cicloComPontos([]);
      const p = await pedirNo(c.cicloid, umaCesta(c.cicloCestaId), praca);
      const { pontoEntrega } = (await p.feito).pedido;
      assert.deepEqual(
        [pontoEntrega.id, pontoEntrega.dataRetirada, pontoEntrega.horaInicio, pontoEntrega.horaFim],
        [praca, null, null, null],
      );
    });
  });

  describe('o ponto que os mercados do pedido servem', () => {
    /**
     * A cycle listing `pontos` (in this order of days), one composed basket sold in a cesta market
     * and an extra released to a venda_direta market, with these points of their own, and a classic extra.
     */
    async function cicloComMercados(pontos: readonly number[], daCesta: readonly number[], daFeira: readonly number[]) {
      const cesta = await criarCesta(banco, { nome: nomeUnico('Cesta'), valorCentavos: PRECO_DA_CESTA });
      const c = await criarCiclo(banco, {
        datas: DATAS_PADRAO,
        cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
        compor: true,
      });
      const cicloCestaId = c.cicloCestas[0] ?? 0;
      for (const [i, id] of pontos.entries()) await listarPonto(banco, c.id, { id, dataRetirada: `2026-03-1${i + 1}` });
      const mCesta = await criarMercadoNoBanco(banco, {
        adminId: donoDosMercados,
        nome: nomeUnico('Cestas'),
        tipo: 'cesta',
      });
      const mFeira = await criarMercadoNoBanco(banco, { adminId: donoDosMercados, nome: nomeUnico('Feira') });
      await noCiclo(banco, c.id, mCesta.id, 1, daCesta);
      await noCiclo(banco, c.id, mFeira.id, 2, daFeira);
      await banco.updateTable('ciclocesta').set({ mercadoId: mCesta.id }).where('id', '=', cicloCestaId).execute();
      const produto = await criarProduto(banco, { nome: nomeUnico('Tomate'), unidade: 'kg' });
      const daFeiraId = await publicarExtra(banco, c.id, produto.id, 10_000, mFeira.id);
      const alface = await criarProduto(banco, { nome: nomeUnico('Alface'), unidade: 'kg' });
      const classico = await publicarExtra(banco, c.id, alface.id, 10_000, null);
      const linha = (campo: number, l: Partial<LinhaPedida>): LinhaPedida => ({
        cicloCestaId: null,
        cicloProdutoId: null,
        quantidadeMilesimos: 1000,
        campo: `produtos.${campo}`,
        ...l,
      });
      return {
        cicloid: c.id,
        mCesta,
        mFeira,
        cesta: linha(0, { cicloCestaId }),
        feira: linha(1, { cicloProdutoId: daFeiraId }),
        classico: linha(2, { cicloProdutoId: classico }),
      };
    }

    const pedir = async (cicloid: number, pontoEntregaId: number, linhas: readonly LinhaPedida[]) => {
      const consumidor = await atorDe(banco, ['consumidor'], nomeUnico('Consumidora'));
      return salvarPedido(banco, consumidor, { usuarioid: null, cicloid, pontoEntregaId, linhas }, NO_PEDIDO);
    };
    const pontos = async (n: number, prefixo = 'Ponto') => {
      const nomes = Array.from({ length: n }, (_, i) => nomeUnico(`${prefixo} ${String.fromCharCode(65 + i)}`));
      const ids: number[] = [];
      for (const nome of nomes) ids.push(await pontoNovo(banco, nome));
      return { ids, nomes };
    };

    test('o ponto comum aos mercados do pedido, fora da lista do ciclo se os mercados o servem', async () => {
      const {
        ids: [a = 0, b = 0, c = 0, d = 0],
        nomes: [, nb = '', , nd = ''],
      } = await pontos(4);
      // The cycle lists A, B, C; the basket's market delivers at A, B and D; the fair at B, C and D.
      const ciclo = await cicloComMercados([a, b, c], [a, b, d], [b, c, d]);
      const so = (pontoEntregaId: number, linhas: readonly LinhaPedida[]) =>
        pedir(ciclo.cicloid, pontoEntregaId, linhas);
      assert.equal((await so(b, [ciclo.cesta, ciclo.feira])).pedido.pontoEntregaId, b);
      // D is none of the cycle's, but both markets serve it.
      assert.equal((await so(d, [ciclo.cesta, ciclo.feira])).pedido.pontoEntregaId, d);
      assert.deepEqual(await recusa(so(a, [ciclo.cesta, ciclo.feira])), {
        tipo: 'Invalido',
        codigo: 'VALIDACAO',
        mensagem: CAMPOS,
        detalhes: {
          pontoEntregaId: `Este ponto não serve todos os itens do pedido. Pontos que servem: ${nb}, ${nd}`,
          pontosQueServem: [b, d],
        },
      });
      // What is bought outside the markets goes by the cycle's points: D no longer serves.
      assert.deepEqual(await recusa(so(d, [ciclo.cesta, ciclo.feira, ciclo.classico])), {
        tipo: 'Invalido',
        codigo: 'VALIDACAO',
        mensagem: CAMPOS,
        detalhes: {
          pontoEntregaId: `Este ponto não serve todos os itens do pedido. Pontos que servem: ${nb}`,
          pontosQueServem: [b],
        },
      });
      assert.equal((await so(b, [ciclo.classico, ciclo.feira])).pedido.pontoEntregaId, b);
    });

    test('nenhum ponto serve todos os itens: cada mercado com os seus pontos, e o que fica fora deles', async () => {
      const {
        ids: [a = 0, b = 0, c = 0, x = 0],
        nomes: [na = '', nb = '', nc = ''],
      } = await pontos(4);
      // The cycle lists A, B, C and X; the basket's market delivers at X only, the fair at B only.
      const ciclo = await cicloComMercados([a, b, c, x], [x], [b]);
      // X is closed afterwards: it keeps its place in the lists, and is named by its id.
      await banco.updateTable('pontoentrega').set({ ativo: false }).where('id', '=', x).execute();
      const nenhum = (grupos: string) => ({
        tipo: 'Invalido',
        codigo: 'VALIDACAO',
        mensagem: CAMPOS,
        detalhes: {
          pontoEntregaId: `Nenhum ponto serve todos os itens do pedido: ${grupos}. Tire do pedido os itens de um dos mercados`,
          pontosQueServem: [],
        },
      });
      assert.deepEqual(
        await recusa(pedir(ciclo.cicloid, a, [ciclo.cesta, ciclo.feira])),
        nenhum(`${ciclo.mCesta.nome} entrega em ${x}; ${ciclo.mFeira.nome} entrega em ${nb}`),
      );
      // The markets in the order of the order's lines, then what is bought outside them.
      assert.deepEqual(
        await recusa(pedir(ciclo.cicloid, c, [ciclo.feira, ciclo.classico, ciclo.cesta])),
        nenhum(
          `${ciclo.mFeira.nome} entrega em ${nb}; ${ciclo.mCesta.nome} entrega em ${x}; os itens fora dos mercados entrega em ${na}, ${nb}, ${nc}, ${x}`,
        ),
      );
      // The closed point is not chosen at all.
      assert.deepEqual(await recusa(pedir(ciclo.cicloid, x, [ciclo.cesta])), {
        tipo: 'Invalido',
        codigo: 'VALIDACAO',
        mensagem: CAMPOS,
        detalhes: { pontoEntregaId: 'Ponto de entrega inexistente ou inativo' },
      });
    });

    test('um ponto fechado não serve, nem aos mercados que o listam', async () => {
      const {
        ids: [a = 0, b = 0, x = 0],
        nomes: [na = ''],
      } = await pontos(3);
      const ciclo = await cicloComMercados([x, a], [x, a], [a, x]);
      await banco.updateTable('pontoentrega').set({ ativo: false }).where('id', '=', x).execute();
      assert.deepEqual(await recusa(pedir(ciclo.cicloid, b, [ciclo.cesta, ciclo.feira])), {
        tipo: 'Invalido',
        codigo: 'VALIDACAO',
        mensagem: CAMPOS,
        detalhes: {
          pontoEntregaId: `Este ponto não serve todos os itens do pedido. Pontos que servem: ${na}`,
          pontosQueServem: [a],
        },
      });
    });

    test('um mercado sem pontos próprios vai pelos pontos do ciclo; um mercado fora do ciclo, também', async () => {
      const {
        ids: [a = 0, b = 0, c = 0],
        nomes: [na = '', nb = '', nc = ''],
      } = await pontos(3);
      const ciclo = await cicloComMercados([a, b], [], [c]);
      assert.equal((await pedir(ciclo.cicloid, b, [ciclo.cesta])).pedido.pontoEntregaId, b);
      assert.deepEqual(await recusa(pedir(ciclo.cicloid, c, [ciclo.cesta])), {
        tipo: 'Invalido',
        codigo: 'VALIDACAO',
        mensagem: CAMPOS,
        detalhes: {
          pontoEntregaId: `Este ponto não serve todos os itens do pedido. Pontos que servem: ${na}, ${nb}`,
          pontosQueServem: [a, b],
        },
      });
      // A market the cycle does not serve is named by its id and goes by the cycle's points.
      const fora = await criarMercadoNoBanco(banco, { adminId: donoDosMercados, nome: nomeUnico('Fora') });
      assert.deepEqual(
        await recusa(pontoDosMercados(banco, ciclo.cicloid, a, new Set([fora.id, ciclo.mFeira.id]), false)),
        {
          tipo: 'Invalido',
          codigo: 'VALIDACAO',
          mensagem: CAMPOS,
          detalhes: {
            pontoEntregaId: `Nenhum ponto serve todos os itens do pedido: ${fora.id} entrega em ${na}, ${nb}; ${ciclo.mFeira.nome} entrega em ${nc}. Tire do pedido os itens de um dos mercados`,
            pontosQueServem: [],
          },
        },
      );
      assert.equal(await pontoDosMercados(banco, ciclo.cicloid, b, new Set([fora.id]), true), undefined);
    });

    test('num ciclo sem pontos, os mercados sem pontos próprios e os itens fora deles vão por todo ponto ativo', async () => {
      // A database of its own: every active point of it is listed.
      const outro = abrirBanco(await bancoNovo());
      try {
        const dono = await criarDonoDosMercados(outro);
        const nomes = ['Bosque', 'alameda', 'Centro', 'Desativado'];
        const [bosque = 0, alameda = 0, centro = 0, desativado = 0] = [
          await pontoNovo(outro, nomes[0] ?? ''),
          await pontoNovo(outro, nomes[1] ?? ''),
          await pontoNovo(outro, nomes[2] ?? ''),
          await pontoNovo(outro, nomes[3] ?? '', false),
        ];
        const cesta = await criarCesta(outro);
        const c = await criarCiclo(outro, {
          datas: DATAS_PADRAO,
          cestas: [{ cestaId: cesta.id, quantidadeCestas: 5 }],
        });
        const semPontos = await criarMercadoNoBanco(outro, { adminId: dono, nome: 'Sem pontos' });
        const soCentro = await criarMercadoNoBanco(outro, { adminId: dono, nome: 'Só centro' });
        await noCiclo(outro, c.id, semPontos.id, 1, []);
        await noCiclo(outro, c.id, soCentro.id, 2, [centro, desativado]);
        const recusado = (ponto: number, mercados: number[], foraDeles: boolean) =>
          recusa(pontoDosMercados(outro, c.id, ponto, new Set(mercados), foraDeles));
        // Every active point, by name (case aside); the inactive one serves nothing.
        assert.deepEqual(await recusado(desativado, [semPontos.id], true), {
          tipo: 'Invalido',
          codigo: 'VALIDACAO',
          mensagem: CAMPOS,
          detalhes: {
            pontoEntregaId: 'Este ponto não serve todos os itens do pedido. Pontos que servem: alameda, Bosque, Centro',
            pontosQueServem: [alameda, bosque, centro],
          },
        });
        assert.equal(await pontoDosMercados(outro, c.id, bosque, new Set([semPontos.id]), true), undefined);
        assert.deepEqual(await recusado(bosque, [semPontos.id, soCentro.id], false), {
          tipo: 'Invalido',
          codigo: 'VALIDACAO',
          mensagem: CAMPOS,
          detalhes: {
            pontoEntregaId: 'Este ponto não serve todos os itens do pedido. Pontos que servem: Centro',
            pontosQueServem: [centro],
          },
        });
      } finally {
        await outro.destroy();
      }
    });
  });

  describe('o que um ciclo oferece para pedir: cestas, extras e o que está livre', () => {
    test('as cestas ativas com o que vai dentro, na unidade da composição, e os extras com os seus mercados', async () => {
      const iso = new Date().toISOString();
      const [ativa, semComposicao, inativa, deGramas] = [
        await criarCesta(banco, { nome: nomeUnico('Cesta'), valorCentavos: 6000 }),
        await criarCesta(banco, { nome: nomeUnico('Cesta'), valorCentavos: 4000 }),
        await criarCesta(banco, { nome: nomeUnico('Cesta'), valorCentavos: 3000 }),
        await criarCesta(banco, { nome: nomeUnico('Cesta'), valorCentavos: 3500 }),
      ];
      await banco.updateTable('cesta').set({ ativo: false }).where('id', '=', inativa.id).execute();
      const c = await criarCiclo(banco, {
        datas: DATAS_PADRAO,
        cestas: [
          { cestaId: ativa.id, quantidadeCestas: 9 },
          { cestaId: semComposicao.id, quantidadeCestas: 5 },
          { cestaId: inativa.id, quantidadeCestas: 5 },
          { cestaId: deGramas.id, quantidadeCestas: 3 },
        ],
      });
      const [cicloCestaId = 0, vazia = 0, daInativa = 0, outra = 0] = c.cicloCestas;
      const mCesta = await criarMercadoNoBanco(banco, {
        adminId: donoDosMercados,
        nome: nomeUnico('Cestas'),
        tipo: 'cesta',
      });
      const mFeira = await criarMercadoNoBanco(banco, { adminId: donoDosMercados, nome: nomeUnico('Feira') });
      await banco.updateTable('ciclocesta').set({ mercadoId: mCesta.id }).where('id', '=', cicloCestaId).execute();
      // Names in the order the catalogue lists them (by product name).
      const tag = nomeUnico('');
      const alface = await criarProduto(banco, { nome: `Alface${tag}`, unidade: 'maço' });
      const batata = await criarProduto(banco, { nome: `Batata${tag}`, unidade: 'kg' });
      const cenoura = await criarProduto(banco, { nome: `Cenoura${tag}`, unidade: 'kg' });
      const ovos = await criarProduto(banco, { nome: `Ovos${tag}`, unidade: 'dúzia' });
      const um = await criarOfertaFinalizada(banco, c.id, [
        { produtoId: ovos.id, quantidadeMilesimos: 50_000, valorCentavos: 900 },
        { produtoId: batata.id, quantidadeMilesimos: 50_000, valorCentavos: 300 },
        { produtoId: alface.id, quantidadeMilesimos: 50_000, valorCentavos: 200 },
        { produtoId: cenoura.id, quantidadeMilesimos: 50_000, valorCentavos: 250 },
      ]);
      const outro = await criarOfertaFinalizada(banco, c.id, [
        { produtoId: ovos.id, quantidadeMilesimos: 50_000, valorCentavos: 950 },
        { produtoId: batata.id, quantidadeMilesimos: 50_000, valorCentavos: 320 },
      ]);
      const [ovosUm = 0, batataUm = 0, alfaceUm = 0, cenouraUm = 0] = um.linhas;
      const [ovosOutro = 0, batataOutro = 0] = outro.linhas;
      const compor = async (cc: number, quantidadeCestas: number, itens: ReadonlyArray<[number, number, string]>) => {
        const co = await banco
          .insertInto('composicao')
          .values({ cicloCestaId: cc, quantidadeCestas, createdAt: iso, updatedAt: iso })
          .returning('id')
          .executeTakeFirstOrThrow();
        for (const [ofertaProdutoId, quantidadePorCestaMilesimos, unidade] of itens)
          await banco
            .insertInto('composicaoproduto')
            .values({
              composicaoid: co.id,
              ofertaProdutoId,
              quantidadePorCestaMilesimos,
              unidade,
              createdAt: iso,
              updatedAt: iso,
            })
            .execute();
      };
      // Half a dozen eggs from each supplier, both composed in units: 12 units. Potatoes composed
      // in kg from one and in g from the other: shown in kg. Carrots in g only: shown in g.
      await compor(cicloCestaId, 4, [
        [ovosUm, 500, 'unidade'],
        [batataUm, 500, 'kg'],
        [alfaceUm, 2000, 'maço'],
        [ovosOutro, 500, 'unidade'],
        [batataOutro, 250, 'g'],
        [cenouraUm, 250, 'g'],
      ]);
      await compor(daInativa, 5, [[alfaceUm, 1000, 'maço']]);
      // The same mix the other way round (the line in g written first, on the earlier offer line):
      // whichever of the two the database reads first, a mix is shown in the product's unit.
      await compor(outra, 2, [
        [batataUm, 100, 'g'],
        [batataOutro, 400, 'kg'],
      ]);
      const mel = await criarProduto(banco, { nome: `Mel${tag}`, unidade: 'kg' });
      const feijao = await criarProduto(banco, { nome: `Feijão${tag}`, unidade: 'kg' });
      const doMel = await publicarExtra(banco, c.id, mel.id, 3000, null);
      const doFeijao = await publicarExtra(banco, c.id, feijao.id, 2000, mFeira.id);

      const catalogo = await catalogoDoCiclo(banco, c.id);
      const cestaAtiva = {
        cicloCestaId,
        cestaId: ativa.id,
        nome: ativa.nome,
        descricao: null,
        valorCentavos: 6000,
        composicao: [
          { produto: alface.nome, quantidadeMilesimos: 2000, unidade: 'maço' },
          { produto: batata.nome, quantidadeMilesimos: 750, unidade: 'kg' },
          { produto: cenoura.nome, quantidadeMilesimos: 250_000, unidade: 'g' },
          { produto: ovos.nome, quantidadeMilesimos: 12_000, unidade: 'unidade' },
        ],
        emComposicao: false,
        mercado: mCesta.nome,
      };
      const cestaVazia = {
        cicloCestaId: vazia,
        cestaId: semComposicao.id,
        nome: semComposicao.nome,
        descricao: null,
        valorCentavos: 4000,
        composicao: [],
        emComposicao: true,
        mercado: null,
      };
      const cestaDeGramas = {
        cicloCestaId: outra,
        cestaId: deGramas.id,
        nome: deGramas.nome,
        descricao: null,
        valorCentavos: 3500,
        composicao: [{ produto: batata.nome, quantidadeMilesimos: 500, unidade: 'kg' }],
        emComposicao: false,
        mercado: null,
      };
      const feijaoNaFeira = {
        cicloProdutoId: doFeijao,
        produtoId: feijao.id,
        nome: feijao.nome,
        unidade: 'kg',
        valorCentavos: PRECO_DO_EXTRA,
        mercado: mFeira.nome,
      };
      const melClassico = {
        cicloProdutoId: doMel,
        produtoId: mel.id,
        nome: mel.nome,
        unidade: 'kg',
        valorCentavos: PRECO_DO_EXTRA,
        mercado: null,
      };
      assert.deepEqual(catalogo, {
        cestas: [
          { ...cestaAtiva, quantidadeCestas: 4 },
          { ...cestaVazia, quantidadeCestas: 0 },
          { ...cestaDeGramas, quantidadeCestas: 2 },
        ],
        extras: [
          { ...feijaoNaFeira, quantidadeMilesimos: 2000 },
          { ...melClassico, quantidadeMilesimos: 3000 },
        ],
      });

      // Saved, not confirmed: 1 basket and 1,5 kg of honey; confirmed: 2 baskets, 0,5 kg and 2 kg of beans.
      const ponto = await pontoNovo(banco, nomeUnico('Sede'));
      await pedidoGravado(
        c.id,
        ponto,
        [
          { cicloCestaId, milesimos: 1000 },
          { cicloProdutoId: doMel, milesimos: 1500 },
        ],
        false,
      );
      await pedidoGravado(
        c.id,
        ponto,
        [
          { cicloCestaId, milesimos: 2000 },
          { cicloProdutoId: doMel, milesimos: 500 },
          { cicloProdutoId: doFeijao, milesimos: 2000 },
        ],
        true,
      );
      const versao = Number(
        (await banco.selectFrom('versaodados').select('versao').where('id', '=', 2).executeTakeFirstOrThrow()).versao,
      );
      const reservas = await reservasDoCiclo(banco, c.id, NO_PEDIDO.hoje);
      assert.deepEqual(reservas, {
        cestas: new Map([
          [cicloCestaId, 3000],
          [vazia, 0],
          [daInativa, 0],
          [outra, 0],
        ]),
        extras: new Map([
          [doMel, 2000],
          [doFeijao, 2000],
        ]),
        versaoDosCiclos: versao,
      });
      // In the window every saved order holds; after it, only the confirmed ones.
      assert.deepEqual(await disponibilidade(banco, c.id, NO_PEDIDO.hoje), {
        cestas: [
          { ...cestaAtiva, disponivel: 1 },
          { ...cestaVazia, disponivel: 0 },
          { ...cestaDeGramas, disponivel: 2 },
        ],
        extras: [
          { ...feijaoNaFeira, disponivelMilesimos: 0 },
          { ...melClassico, disponivelMilesimos: 1000 },
        ],
      });
      assert.deepEqual(await disponibilidade(banco, c.id, DEPOIS.hoje), {
        cestas: [
          { ...cestaAtiva, disponivel: 2 },
          { ...cestaVazia, disponivel: 0 },
          { ...cestaDeGramas, disponivel: 2 },
        ],
        extras: [
          { ...feijaoNaFeira, disponivelMilesimos: 0 },
          { ...melClassico, disponivelMilesimos: 2500 },
        ],
      });

      // Held beyond what is there (a part of a basket counts as a whole one): nothing free, never less.
      const soCatalogo = { cestas: catalogo.cestas, extras: catalogo.extras };
      assert.deepEqual(
        comDisponibilidade(soCatalogo, {
          cestas: new Map([[cicloCestaId, 3001]]),
          extras: new Map([[doMel, 3001]]),
        }),
        {
          cestas: [
            { ...cestaAtiva, disponivel: 0 },
            { ...cestaVazia, disponivel: 0 },
            { ...cestaDeGramas, disponivel: 2 },
          ],
          extras: [
            { ...feijaoNaFeira, disponivelMilesimos: 2000 },
            { ...melClassico, disponivelMilesimos: 0 },
          ],
        },
      );
      assert.deepEqual(
        comDisponibilidade(soCatalogo, { cestas: new Map([[cicloCestaId, 5001]]), extras: new Map() }).cestas.map(
          (x) => x.disponivel,
        ),
        [0, 0, 2],
      );
      assert.deepEqual(
        comDisponibilidade(soCatalogo, { cestas: new Map([[cicloCestaId, 2001]]), extras: new Map() }).cestas.map(
          (x) => x.disponivel,
        ),
        [1, 0, 2],
      );
    });
  });
});

async function atorDe(db: Db, perfil: Perfil[], nome: string): Promise<Ator> {
  const u = await criarUsuario(db, { perfil, nome });
  return { email: u.email, nome, usuarioid: u.id, perfil, ativo: true };
}

/** The Mercados account that runs the markets. */
async function criarDonoDosMercados(db: Db): Promise<number> {
  const iso = new Date().toISOString();
  const email = `dono.${Math.random().toString(36).slice(2, 8)}@mercados.org`;
  return (
    await db
      .insertInto('appuser')
      .values({
        providerId: `idp|${email}`,
        email,
        emailChave: email,
        name: 'Dono',
        avatar: null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

async function pontoNovo(db: Db, nome: string, ativo = true): Promise<number> {
  const iso = new Date().toISOString();
  return (
    await db
      .insertInto('pontoentrega')
      .values({ nome, nomeChave: nome.toLowerCase(), ativo, createdAt: iso, updatedAt: iso })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

async function listarPonto(
  db: Db,
  cicloid: number,
  p: { id: number; dataRetirada?: string; horaInicio?: string; horaFim?: string },
): Promise<void> {
  const iso = new Date().toISOString();
  await db
    .insertInto('ciclopontoentrega')
    .values({
      cicloid,
      pontoEntregaId: p.id,
      dataRetirada: p.dataRetirada ?? null,
      horaInicio: p.horaInicio ?? null,
      horaFim: p.horaFim ?? null,
      createdAt: iso,
      updatedAt: iso,
    })
    .execute();
}

async function noCiclo(db: Db, cicloid: number, mercadoId: number, ordem: number, pontos: readonly number[]) {
  const iso = new Date().toISOString();
  const cm = await db
    .insertInto('ciclomercado')
    .values({ cicloid, mercadoId, ordemAtendimento: ordem, createdAt: iso, updatedAt: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const pontoEntregaId of pontos)
    await db
      .insertInto('ciclomercadoponto')
      .values({ cicloMercadoId: cm.id, pontoEntregaId, createdAt: iso, updatedAt: iso })
      .execute();
}

async function publicarExtra(
  db: Db,
  cicloid: number,
  produtoId: number,
  quantidadeMilesimos: number,
  mercadoId: number | null,
): Promise<number> {
  const iso = new Date().toISOString();
  return (
    await db
      .insertInto('cicloproduto')
      .values({
        cicloid,
        produtoId,
        quantidadeMilesimos,
        valorCentavos: PRECO_DO_EXTRA,
        mercadoId,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}
