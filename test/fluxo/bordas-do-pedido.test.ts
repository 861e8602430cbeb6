import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { abrirBanco, type Banco } from '../../src/db/banco.ts';
import type { Ator } from '../../src/domain/acesso.ts';
import type { Unidade } from '../../src/domain/catalogo.ts';
import { pedidoDe } from '../../src/domain/pedidos/leituras.ts';
import type { EventoDoPedido, OpcoesPedido } from '../../src/domain/pedidos/modelo.ts';
import type { LinhaPedida } from '../../src/domain/pedidos/regras.ts';
import { salvarPedido } from '../../src/domain/pedidos/salvar.ts';
import type { Taxa } from '../../src/domain/pedidos/taxa.ts';
import { bancoNovo } from '../helpers/banco.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { recusa } from '../helpers/recusa.ts';

/**
 * The edges of saving an order: the lines it may hold, baskets against extras, the stock left
 * for it (its own saved order included, and only confirmed orders once the window has closed),
 * baskets still being composed, the markets' points and fees, subscription lines, and a confirmed
 * order that changes. Every refusal is compared whole and leaves nothing written; each assertion
 * fails when its rule moves one step.
 */

const TAXA: Taxa = { percentualCentesimos: 0, fixaCentavos: 0 };
// DATAS_PADRAO: orders 06–09/03/2026.
const NO_PEDIDO: OpcoesPedido = { agora: new Date('2026-03-07T15:00:00Z'), hoje: '2026-03-07', taxa: TAXA };
const DEPOIS: OpcoesPedido = { agora: new Date('2026-03-10T15:00:00Z'), hoje: '2026-03-10', taxa: TAXA };
const VALIDACAO = { tipo: 'Invalido', codigo: 'VALIDACAO', mensagem: 'Verifique os campos destacados' };

let sequencia = 0;
const nomeUnico = (prefixo: string) => `${prefixo} ${++sequencia} ${Math.random().toString(36).slice(2, 6)}`;

/** A basket line of `n` baskets. */
const deCesta = (cicloCestaId: number, n: number, campo = 'produtos.0'): LinhaPedida => ({
  cicloCestaId,
  cicloProdutoId: null,
  quantidadeMilesimos: n * 1000,
  campo,
});
/** An extra's line of `milesimos` thousandths of its unit. */
const deExtra = (
  cicloProdutoId: number,
  milesimos: number,
  campo = 'produtos.1',
  unidadeEscrita?: Unidade,
): LinhaPedida => ({
  cicloCestaId: null,
  cicloProdutoId,
  quantidadeMilesimos: milesimos,
  campo,
  ...(unidadeEscrita === undefined ? {} : { unidadeEscrita }),
});

describe('as bordas do pedido: linhas, estoque, composição, mercados, assinaturas e reabertura', () => {
  let banco: Banco;
  let admin: Ator;
  let ponto = 0;
  let dono = 0;

  before(async () => {
    banco = abrirBanco(await bancoNovo());
    const a = await criarUsuario(banco, { perfil: ['admin'], nome: 'Admin' });
    admin = { email: a.email, nome: 'Admin', usuarioid: a.id, perfil: ['admin'], ativo: true };
    ponto = (await criarPonto(banco, nomeUnico('Ponto'))).id;
    const iso = new Date().toISOString();
    dono = (
      await banco
        .insertInto('appuser')
        .values({
          providerId: 'idp|dono-bordas',
          email: 'dono-bordas@mercados.org',
          emailChave: 'dono-bordas@mercados.org',
          name: 'Dono',
          avatar: null,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  after(() => banco.destroy());

  const consumidora = async (nome = nomeUnico('Consumidora')): Promise<Ator> => {
    const u = await criarUsuario(banco, { perfil: ['consumidor'], nome });
    return { email: u.email, nome, usuarioid: u.id, perfil: ['consumidor'], ativo: true };
  };
  const idDe = (ator: Ator) => ator.usuarioid ?? 0;

  /** An extra of the cycle: `milesimos` of a product of `unidade` at `valorCentavos`. */
  async function extraNoCiclo(
    cicloid: number,
    dados: { milesimos?: number; valorCentavos?: number; unidade?: string; mercadoId?: number | null } = {},
  ) {
    const produto = await criarProduto(banco, { nome: nomeUnico('Mel'), unidade: dados.unidade ?? 'kg' });
    const iso = new Date().toISOString();
    const r = await banco
      .insertInto('cicloproduto')
      .values({
        cicloid,
        produtoId: produto.id,
        quantidadeMilesimos: dados.milesimos ?? 2000,
        valorCentavos: dados.valorCentavos ?? 800,
        mercadoId: dados.mercadoId ?? null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: r.id, nome: produto.nome };
  }

  /**
   * A cycle (DATAS_PADRAO) with one basket type of `cestas` baskets at R$ 50,00 (composed unless
   * `compor` is false) and an extra of 2 kg at R$ 8,00.
   */
  async function cenario(dados: { cestas?: number; compor?: boolean } = {}) {
    const cesta = await criarCesta(banco, { nome: nomeUnico('Cesta'), valorCentavos: 5000 });
    const ciclo = await criarCiclo(banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: dados.cestas ?? 3 }],
      compor: dados.compor ?? true,
    });
    const extra = await extraNoCiclo(ciclo.id);
    return {
      cicloid: ciclo.id,
      cestaId: cesta.id,
      cicloCestaId: ciclo.cicloCestas[0] ?? 0,
      cestaNome: cesta.nome,
      cicloProdutoId: extra.id,
      extraNome: extra.nome,
    };
  }

  /** An order written as a saved (and, with `confirmado`, confirmed) one is: its id. */
  async function pedidoGravado(
    cicloid: number,
    usuarioid: number,
    linhas: Array<{
      cicloCestaId?: number;
      cicloProdutoId?: number;
      quantidadeMilesimos: number;
      valorCentavos: number;
      assinaturaId?: number;
    }>,
    confirmado = false,
  ): Promise<number> {
    const iso = '2026-03-06T12:00:00.000Z';
    const p = await banco
      .insertInto('pedido')
      .values({
        cicloid,
        usuarioid,
        pontoEntregaId: ponto,
        finalizado: confirmado,
        dataConfirmacao: confirmado ? '2026-03-06T09:00:00' : null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await banco
      .insertInto('pedidoproduto')
      .values(
        linhas.map((l) => ({
          pedidoid: p.id,
          cicloCestaId: l.cicloCestaId ?? null,
          cicloProdutoId: l.cicloProdutoId ?? null,
          quantidadeMilesimos: l.quantidadeMilesimos,
          valorCentavos: l.valorCentavos,
          assinaturaId: l.assinaturaId ?? null,
          createdAt: iso,
          updatedAt: iso,
        })),
      )
      .execute();
    return p.id;
  }

  const confirmar = (pedidoId: number) =>
    banco
      .updateTable('pedido')
      .set({ finalizado: true, dataConfirmacao: '2026-03-07T09:00:00' })
      .where('id', '=', pedidoId)
      .execute();

  const pedir = (
    ator: Ator,
    cicloid: number,
    linhas: readonly LinhaPedida[],
    dados: { opcoes?: OpcoesPedido; pontoEntregaId?: number; usuarioid?: number | null } = {},
  ) =>
    salvarPedido(
      banco,
      ator,
      { usuarioid: dados.usuarioid ?? null, cicloid, pontoEntregaId: dados.pontoEntregaId ?? ponto, linhas },
      dados.opcoes ?? NO_PEDIDO,
    );

  /** Everything a save writes in a cycle: its orders, their lines, and the orders' audit trail. */
  async function rastro(cicloid: number) {
    const pedidos = await banco
      .selectFrom('pedido')
      .select(['id', 'usuarioid', 'pontoEntregaId', 'finalizado', 'dataConfirmacao', 'createdAt', 'updatedAt'])
      .where('cicloid', '=', cicloid)
      .orderBy('id')
      .execute();
    const linhas = await banco
      .selectFrom('pedidoproduto as pp')
      .innerJoin('pedido as p', 'p.id', 'pp.pedidoid')
      .select(['pp.id', 'pp.pedidoid', 'pp.cicloCestaId', 'pp.cicloProdutoId', 'pp.quantidadeMilesimos'])
      .select(['pp.valorCentavos', 'pp.mercadoId', 'pp.taxaCentesimos', 'pp.assinaturaId', 'pp.updatedAt'])
      .where('p.cicloid', '=', cicloid)
      .orderBy('pp.id')
      .execute();
    const auditoria = await banco
      .selectFrom('auditoria')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('entidade', '=', 'pedido')
      .executeTakeFirstOrThrow();
    return { pedidos, linhas, auditoria: Number(auditoria.n) };
  }

  /** What an order's lines say of their price, market and subscription. */
  const resumo = (produtos: ReadonlyArray<{ nome: string; quantidadeMilesimos: number; valorCentavos: number }>) =>
    produtos.map((p) => ({ nome: p.nome, quantidadeMilesimos: p.quantidadeMilesimos, valorCentavos: p.valorCentavos }));

  describe('as linhas do pedido', () => {
    test('sem linha nenhuma, ou com a mesma cesta ou o mesmo extra duas vezes: recusado, nada gravado', async () => {
      const c = await cenario();
      const ana = await consumidora();
      const antes = await rastro(c.cicloid);
      assert.deepEqual(await recusa(pedir(ana, c.cicloid, [])), {
        ...VALIDACAO,
        detalhes: { produtos: 'Escolha pelo menos uma cesta ou um extra' },
      });
      assert.deepEqual(
        await recusa(
          pedir(ana, c.cicloid, [
            deCesta(c.cicloCestaId, 1, 'produtos.0'),
            deExtra(c.cicloProdutoId, 500, 'produtos.1'),
            deCesta(c.cicloCestaId, 2, 'produtos.2'),
            deExtra(c.cicloProdutoId, 700, 'produtos.3'),
          ]),
        ),
        {
          ...VALIDACAO,
          detalhes: { 'produtos.2': 'Item repetido no pedido', 'produtos.3': 'Item repetido no pedido' },
        },
      );
      assert.deepEqual(await rastro(c.cicloid), antes);
    });

    test('só se pede o que está à venda neste ciclo: de outro ciclo, de cesta desativada ou inexistente; todas numa recusa', async () => {
      const c = await cenario();
      const outro = await cenario();
      // A second basket type of this very cycle, deactivated in the catalogue.
      const desativada = await criarCesta(banco, { nome: nomeUnico('Cesta'), valorCentavos: 4000 });
      const iso = new Date().toISOString();
      const linhaDesativada = (
        await banco
          .insertInto('ciclocesta')
          .values({ cicloid: c.cicloid, cestaId: desativada.id, quantidadeCestas: 5, createdAt: iso, updatedAt: iso })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
      await banco.updateTable('cesta').set({ ativo: false }).where('id', '=', desativada.id).execute();
      const ana = await consumidora();
      await pedidoGravado(c.cicloid, idDe(ana), [
        { cicloCestaId: c.cicloCestaId, quantidadeMilesimos: 1000, valorCentavos: 5000 },
      ]);
      const antes = await rastro(c.cicloid);
      assert.deepEqual(
        await recusa(
          pedir(ana, c.cicloid, [
            deCesta(c.cicloCestaId, 1, 'produtos.0'),
            deCesta(outro.cicloCestaId, 1, 'produtos.1'),
            deExtra(outro.cicloProdutoId, 1000, 'produtos.2'),
            deCesta(linhaDesativada, 1, 'produtos.3'),
            deExtra(c.cicloProdutoId, 1000, 'produtos.4'),
            deExtra(outro.cicloProdutoId + 1000, 1000, 'produtos.5'),
          ]),
        ),
        {
          ...VALIDACAO,
          detalhes: {
            'produtos.1.cicloCestaId': 'Não está à venda neste ciclo',
            'produtos.2.cicloProdutoId': 'Não está à venda neste ciclo',
            'produtos.3.cicloCestaId': 'Não está à venda neste ciclo',
            'produtos.5.cicloProdutoId': 'Não está à venda neste ciclo',
          },
        },
      );
      // Each alone is refused too: one line off sale is enough.
      assert.deepEqual(await recusa(pedir(ana, c.cicloid, [deExtra(outro.cicloProdutoId, 1000, 'produtos.0')])), {
        ...VALIDACAO,
        detalhes: { 'produtos.0.cicloProdutoId': 'Não está à venda neste ciclo' },
      });
      assert.deepEqual(await recusa(pedir(ana, c.cicloid, [deCesta(outro.cicloCestaId, 1, 'produtos.0')])), {
        ...VALIDACAO,
        detalhes: { 'produtos.0.cicloCestaId': 'Não está à venda neste ciclo' },
      });
      assert.deepEqual(await rastro(c.cicloid), antes);
    });

    test('a quantidade de um extra vem na unidade do produto; a de uma cesta não tem unidade a conferir', async () => {
      const c = await cenario();
      const macos = await extraNoCiclo(c.cicloid, { unidade: 'maço', milesimos: 10_000, valorCentavos: 300 });
      const ana = await consumidora();
      const antes = await rastro(c.cicloid);
      assert.deepEqual(
        await recusa(
          pedir(ana, c.cicloid, [
            deCesta(c.cicloCestaId, 1, 'produtos.0'),
            deExtra(c.cicloProdutoId, 1500, 'produtos.1', 'maço'),
            deExtra(macos.id, 2000, 'produtos.2', 'kg'),
          ]),
        ),
        {
          ...VALIDACAO,
          detalhes: {
            'produtos.1.quantidade': 'Este produto é medido em kg, não em maço: escreva a quantidade em kg',
            'produtos.2.quantidade': 'Este produto é medido em maço, não em kg: escreva a quantidade em maço',
          },
        },
      );
      assert.deepEqual(await rastro(c.cicloid), antes);
      // In the product's own unit, or with none written, it goes; a basket's line carries no unit to check.
      const { pedido } = await pedir(ana, c.cicloid, [
        { ...deCesta(c.cicloCestaId, 1, 'produtos.0'), unidadeEscrita: 'kg' },
        deExtra(c.cicloProdutoId, 1500, 'produtos.1', 'kg'),
        deExtra(macos.id, 2000, 'produtos.2'),
      ]);
      assert.deepEqual(
        pedido.produtos.map((p) => [p.nome, p.unidade, p.quantidadeMilesimos]),
        [
          [c.cestaNome, 'cesta', 1000],
          [c.extraNome, 'kg', 1500],
          [macos.nome, 'maço', 2000],
        ],
      );
    });
  });

  describe('o estoque', () => {
    test('cestas e extras até o que resta, contando o que o próprio pedido já segura; um a mais é recusado', async () => {
      const c = await cenario({ cestas: 3 });
      const outra = await consumidora();
      // Someone else's saved order holds 1 basket and 0,5 kg: 2 baskets and 1,5 kg are left.
      await pedidoGravado(c.cicloid, idDe(outra), [
        { cicloCestaId: c.cicloCestaId, quantidadeMilesimos: 1000, valorCentavos: 5000 },
        { cicloProdutoId: c.cicloProdutoId, quantidadeMilesimos: 500, valorCentavos: 800 },
      ]);
      const ana = await consumidora();
      const antes = await rastro(c.cicloid);
      assert.deepEqual(
        await recusa(pedir(ana, c.cicloid, [deCesta(c.cicloCestaId, 3), deExtra(c.cicloProdutoId, 2000)])),
        {
          tipo: 'Conflito',
          codigo: 'SEM_ESTOQUE',
          mensagem: `Não há o suficiente: ${c.cestaNome} (disponível: 2 cestas); ${c.extraNome} (disponível: 1,5 kg)`,
          detalhes: {
            disponivel: [
              { nome: c.cestaNome, disponivel: 2, pedido: 3, unidade: 'cesta' },
              { nome: c.extraNome, disponivel: 1.5, pedido: 2, unidade: 'kg' },
            ],
          },
        },
      );
      assert.deepEqual(await rastro(c.cicloid), antes);
      // Exactly what is left goes.
      const primeiro = await pedir(ana, c.cicloid, [deCesta(c.cicloCestaId, 2), deExtra(c.cicloProdutoId, 1500)]);
      assert.equal(primeiro.criado, true);
      // Saving the same again: what the order itself holds is free for it.
      const segundo = await pedir(ana, c.cicloid, [deCesta(c.cicloCestaId, 2), deExtra(c.cicloProdutoId, 1500)]);
      assert.equal(segundo.criado, false);
      assert.equal(segundo.pedido.pedidoId, primeiro.pedido.pedidoId);
      // One thousandth of a kilo more is refused, the basket line being fine.
      const gravado = await rastro(c.cicloid);
      assert.deepEqual(
        await recusa(pedir(ana, c.cicloid, [deCesta(c.cicloCestaId, 2), deExtra(c.cicloProdutoId, 1501)])),
        {
          tipo: 'Conflito',
          codigo: 'SEM_ESTOQUE',
          mensagem: `Não há o suficiente: ${c.extraNome} (disponível: 1,5 kg)`,
          detalhes: { disponivel: [{ nome: c.extraNome, disponivel: 1.5, pedido: 1.501, unidade: 'kg' }] },
        },
      );
      assert.deepEqual(
        await recusa(pedir(ana, c.cicloid, [deCesta(c.cicloCestaId, 3), deExtra(c.cicloProdutoId, 1500)])),
        {
          tipo: 'Conflito',
          codigo: 'SEM_ESTOQUE',
          mensagem: `Não há o suficiente: ${c.cestaNome} (disponível: 2 cestas)`,
          detalhes: { disponivel: [{ nome: c.cestaNome, disponivel: 2, pedido: 3, unidade: 'cesta' }] },
        },
      );
      assert.deepEqual(await rastro(c.cicloid), gravado);
    });

    test('com mais reservado do que há (a composição encolheu), o disponível é zero, nunca negativo', async () => {
      const c = await cenario({ cestas: 3 });
      const outra = await consumidora();
      await pedidoGravado(c.cicloid, idDe(outra), [
        { cicloCestaId: c.cicloCestaId, quantidadeMilesimos: 3000, valorCentavos: 5000 },
        { cicloProdutoId: c.cicloProdutoId, quantidadeMilesimos: 2000, valorCentavos: 800 },
      ]);
      await banco
        .updateTable('composicao')
        .set({ quantidadeCestas: 2 })
        .where('cicloCestaId', '=', c.cicloCestaId)
        .execute();
      await banco
        .updateTable('cicloproduto')
        .set({ quantidadeMilesimos: 1000 })
        .where('id', '=', c.cicloProdutoId)
        .execute();
      const ana = await consumidora();
      assert.deepEqual(
        await recusa(pedir(ana, c.cicloid, [deCesta(c.cicloCestaId, 1), deExtra(c.cicloProdutoId, 1)])),
        {
          tipo: 'Conflito',
          codigo: 'SEM_ESTOQUE',
          mensagem: `Não há o suficiente: ${c.cestaNome} (disponível: 0 cesta); ${c.extraNome} (disponível: 0 kg)`,
          detalhes: {
            disponivel: [
              { nome: c.cestaNome, disponivel: 0, pedido: 1, unidade: 'cesta' },
              { nome: c.extraNome, disponivel: 0, pedido: 0.001, unidade: 'kg' },
            ],
          },
        },
      );
    });

    test('fechada a janela, só os confirmados seguram: o pedido não confirmado da própria pessoa não conta, o confirmado conta', async () => {
      const c = await cenario({ cestas: 3 });
      // A confirmed basket holds; an unconfirmed order of two holds nothing once the window has closed.
      await pedidoGravado(
        c.cicloid,
        idDe(await consumidora()),
        [{ cicloCestaId: c.cicloCestaId, quantidadeMilesimos: 1000, valorCentavos: 5000 }],
        true,
      );
      await pedidoGravado(c.cicloid, idDe(await consumidora()), [
        { cicloCestaId: c.cicloCestaId, quantidadeMilesimos: 2000, valorCentavos: 5000 },
      ]);
      const ana = await consumidora('Ana');
      const pedidoId = await pedidoGravado(c.cicloid, idDe(ana), [
        { cicloCestaId: c.cicloCestaId, quantidadeMilesimos: 2000, valorCentavos: 5000 },
      ]);
      const porAdmin = (n: number) =>
        pedir(admin, c.cicloid, [deCesta(c.cicloCestaId, n)], { opcoes: DEPOIS, usuarioid: idDe(ana) });
      const faltam = {
        tipo: 'Conflito',
        codigo: 'SEM_ESTOQUE',
        mensagem: `Não há o suficiente: ${c.cestaNome} (disponível: 2 cestas)`,
        detalhes: { disponivel: [{ nome: c.cestaNome, disponivel: 2, pedido: 3, unidade: 'cesta' }] },
      };
      // Unconfirmed: 3 − 1 confirmed = 2 left, Ana's own 2 not among what holds.
      assert.deepEqual(await recusa(porAdmin(3)), faltam);
      const r = await porAdmin(2);
      assert.deepEqual([r.criado, r.reaberto, r.pedido.pedidoId], [false, false, pedidoId]);
      // Confirmed, Ana's 2 hold: 3 − (3 − 2) = 2 left for her.
      await confirmar(pedidoId);
      assert.deepEqual(await recusa(porAdmin(3)), faltam);
      const reaberto = await porAdmin(2);
      assert.deepEqual([reaberto.criado, reaberto.reaberto], [false, true]);
      const acoes = await banco
        .selectFrom('auditoria')
        .select('acao')
        .where('entidade', '=', 'pedido')
        .where('entidadeId', '=', String(pedidoId))
        .orderBy('id')
        .execute();
      assert.deepEqual(
        acoes.map((a) => a.acao),
        ['salvar (fora da janela)', 'salvar (fora da janela)'],
      );
    });
  });

  describe('as cestas em composição', () => {
    test('uma cesta sem nada composto não é pedida; o que o pedido já tem dela fica, mas não cresce', async () => {
      const cestaA = await criarCesta(banco, { nome: nomeUnico('Cesta A'), valorCentavos: 5000 });
      const cestaB = await criarCesta(banco, { nome: nomeUnico('Cesta B'), valorCentavos: 4000 });
      const ciclo = await criarCiclo(banco, {
        datas: DATAS_PADRAO,
        cestas: [
          { cestaId: cestaA.id, quantidadeCestas: 3 },
          { cestaId: cestaB.id, quantidadeCestas: 3 },
        ],
      });
      const [a = 0, b = 0] = ciclo.cicloCestas;
      // Compositions of 3 baskets each, with nothing in them (their items were taken out).
      const iso = new Date().toISOString();
      await banco
        .insertInto('composicao')
        .values([
          { cicloCestaId: a, quantidadeCestas: 3, createdAt: iso, updatedAt: iso },
          { cicloCestaId: b, quantidadeCestas: 3, createdAt: iso, updatedAt: iso },
        ])
        .execute();
      const ana = await consumidora();
      await pedidoGravado(ciclo.id, idDe(ana), [{ cicloCestaId: a, quantidadeMilesimos: 2000, valorCentavos: 5000 }]);
      const antes = await rastro(ciclo.id);
      const emComposicao = (nomes: string[]) => ({
        tipo: 'Conflito',
        codigo: 'EM_COMPOSICAO',
        mensagem: `Ainda em composição, não pode ser pedida: ${nomes.join(', ')}`,
        detalhes: { cestas: nomes },
      });
      assert.deepEqual(
        await recusa(pedir(ana, ciclo.id, [deCesta(a, 2, 'produtos.0'), deCesta(b, 1, 'produtos.1')])),
        emComposicao([cestaB.nome]),
      );
      assert.deepEqual(
        await recusa(pedir(ana, ciclo.id, [deCesta(a, 3, 'produtos.0'), deCesta(b, 1, 'produtos.1')])),
        emComposicao([cestaA.nome, cestaB.nome]),
      );
      assert.deepEqual(await rastro(ciclo.id), antes);
      // The 2 already ordered stay, and may shrink; once shrunk, they may not grow back.
      assert.deepEqual(resumo((await pedir(ana, ciclo.id, [deCesta(a, 2)])).pedido.produtos), [
        { nome: cestaA.nome, quantidadeMilesimos: 2000, valorCentavos: 5000 },
      ]);
      assert.deepEqual(resumo((await pedir(ana, ciclo.id, [deCesta(a, 1)])).pedido.produtos), [
        { nome: cestaA.nome, quantidadeMilesimos: 1000, valorCentavos: 5000 },
      ]);
      assert.deepEqual(await recusa(pedir(ana, ciclo.id, [deCesta(a, 2)])), emComposicao([cestaA.nome]));
    });
  });

  describe('gravar, reabrir e avisar', () => {
    test('o pedido salvo é o que se lê depois; mudar um pedido confirmado o reabre, avisa e troca as linhas', async () => {
      const c = await cenario();
      const sede = await criarPonto(banco, nomeUnico('Sede'));
      const escola = await criarPonto(banco, nomeUnico('Escola'));
      const iso = new Date().toISOString();
      await banco
        .insertInto('ciclopontoentrega')
        .values([
          {
            cicloid: c.cicloid,
            pontoEntregaId: sede.id,
            dataRetirada: '2026-03-11',
            horaInicio: '09:00',
            horaFim: '12:00',
            createdAt: iso,
            updatedAt: iso,
          },
          {
            cicloid: c.cicloid,
            pontoEntregaId: escola.id,
            dataRetirada: '2026-03-12',
            horaInicio: '14:00',
            horaFim: null,
            createdAt: iso,
            updatedAt: iso,
          },
        ])
        .execute();
      const ana = await consumidora('Ana Souza');
      const eventos: EventoDoPedido[] = [];
      const opcoes: OpcoesPedido = {
        ...NO_PEDIDO,
        avisos: {
          emitir: (_trx, evento) => {
            eventos.push(evento);
            return Promise.resolve();
          },
        },
      };
      const primeiro = await pedir(ana, c.cicloid, [deCesta(c.cicloCestaId, 1), deExtra(c.cicloProdutoId, 500)], {
        opcoes,
        pontoEntregaId: sede.id,
      });
      const pedidoId = primeiro.pedido.pedidoId;
      const [linhaCesta = 0, linhaExtra = 0] = primeiro.pedido.produtos.map((p) => p.id);
      assert.deepEqual(primeiro, {
        criado: true,
        reaberto: false,
        pedido: {
          pedidoId,
          cicloid: c.cicloid,
          usuarioid: idDe(ana),
          usuario: { id: idDe(ana), nome: 'Ana Souza' },
          pontoEntrega: {
            id: sede.id,
            nome: (
              await banco.selectFrom('pontoentrega').select('nome').where('id', '=', sede.id).executeTakeFirstOrThrow()
            ).nome,
            dataRetirada: '2026-03-11',
            horaInicio: '09:00',
            horaFim: '12:00',
          },
          pontoEntregaId: sede.id,
          finalizado: false,
          dataConfirmacao: null,
          produtos: [
            {
              id: linhaCesta,
              tipo: 'cesta',
              cicloCestaId: c.cicloCestaId,
              cicloProdutoId: null,
              nome: c.cestaNome,
              unidade: 'cesta',
              quantidadeMilesimos: 1000,
              valorCentavos: 5000,
              subtotalCentavos: 5000,
              mercadoId: null,
              mercado: null,
              taxaCentesimos: null,
              assinaturaId: null,
            },
            {
              id: linhaExtra,
              tipo: 'extra',
              cicloCestaId: null,
              cicloProdutoId: c.cicloProdutoId,
              nome: c.extraNome,
              unidade: 'kg',
              quantidadeMilesimos: 500,
              valorCentavos: 800,
              subtotalCentavos: 400,
              mercadoId: null,
              mercado: null,
              taxaCentesimos: null,
              assinaturaId: null,
            },
          ],
          totalCentavos: 5400,
          taxaCentavos: 0,
          totalComTaxaCentavos: 5400,
          partes: [{ mercadoId: null, mercado: null, subtotalCentavos: 5400, taxaCentesimos: null, taxaCentavos: 0 }],
        },
      });
      assert.ok(linhaCesta < linhaExtra);
      assert.deepEqual(await pedidoDe(banco, c.cicloid, idDe(ana), TAXA), primeiro.pedido);
      assert.deepEqual(eventos, []);
      const [linha] = (await rastro(c.cicloid)).pedidos;
      assert.deepEqual(linha, {
        id: pedidoId,
        usuarioid: idDe(ana),
        pontoEntregaId: sede.id,
        finalizado: false,
        dataConfirmacao: null,
        createdAt: NO_PEDIDO.agora.toISOString(),
        updatedAt: NO_PEDIDO.agora.toISOString(),
      });

      // Confirmed, then changed a day later: another point, the basket dropped, another quantity.
      await confirmar(pedidoId);
      const agora = new Date('2026-03-08T10:00:00Z');
      const segundo = await pedir(ana, c.cicloid, [deExtra(c.cicloProdutoId, 1000, 'produtos.0')], {
        opcoes: { ...opcoes, agora, hoje: '2026-03-08' },
        pontoEntregaId: escola.id,
      });
      assert.deepEqual([segundo.criado, segundo.reaberto], [false, true]);
      assert.equal(segundo.pedido.pedidoId, pedidoId);
      assert.deepEqual(segundo.pedido.pontoEntrega, {
        id: escola.id,
        nome: (
          await banco.selectFrom('pontoentrega').select('nome').where('id', '=', escola.id).executeTakeFirstOrThrow()
        ).nome,
        dataRetirada: '2026-03-12',
        horaInicio: '14:00',
        horaFim: null,
      });
      assert.deepEqual(resumo(segundo.pedido.produtos), [
        { nome: c.extraNome, quantidadeMilesimos: 1000, valorCentavos: 800 },
      ]);
      assert.deepEqual(eventos, [{ tipo: 'pedido_alterado', pedido: segundo.pedido }]);
      assert.deepEqual(await pedidoDe(banco, c.cicloid, idDe(ana), TAXA), segundo.pedido);
      const depois = await rastro(c.cicloid);
      assert.deepEqual(depois.pedidos, [
        {
          id: pedidoId,
          usuarioid: idDe(ana),
          pontoEntregaId: escola.id,
          finalizado: false,
          dataConfirmacao: null,
          createdAt: NO_PEDIDO.agora.toISOString(),
          updatedAt: agora.toISOString(),
        },
      ]);
      assert.deepEqual(
        depois.linhas.map((l) => [l.cicloCestaId, l.cicloProdutoId, l.quantidadeMilesimos, l.updatedAt]),
        [[null, c.cicloProdutoId, 1000, agora.toISOString()]],
      );

      // Changed again while unconfirmed: no notice, not re-opened.
      const terceiro = await pedir(ana, c.cicloid, [deExtra(c.cicloProdutoId, 1500, 'produtos.0')], {
        opcoes,
        pontoEntregaId: escola.id,
      });
      assert.deepEqual([terceiro.criado, terceiro.reaberto], [false, false]);
      assert.equal(eventos.length, 1);

      // The trail: each save with the order before and after it.
      const trilha = await banco
        .selectFrom('auditoria')
        .select(['usuarioid', 'ator', 'acao', 'antes', 'depois', 'em'])
        .where('entidade', '=', 'pedido')
        .where('entidadeId', '=', String(pedidoId))
        .orderBy('id')
        .execute();
      const json = (x: unknown) => JSON.parse(JSON.stringify(x)) as unknown;
      const lerJson = (texto: string | null) => (texto === null ? undefined : (JSON.parse(texto) as unknown));
      const confirmado = json({ ...primeiro.pedido, finalizado: true, dataConfirmacao: '2026-03-07T09:00:00' });
      assert.deepEqual(
        trilha.map((t) => ({ ...t, antes: lerJson(t.antes), depois: lerJson(t.depois) })),
        [
          {
            usuarioid: idDe(ana),
            ator: ana.email,
            acao: 'salvar',
            antes: null,
            depois: json(primeiro.pedido),
            em: NO_PEDIDO.agora.toISOString(),
          },
          {
            usuarioid: idDe(ana),
            ator: ana.email,
            acao: 'salvar',
            antes: confirmado,
            depois: json(segundo.pedido),
            em: agora.toISOString(),
          },
          {
            usuarioid: idDe(ana),
            ator: ana.email,
            acao: 'salvar',
            antes: json(segundo.pedido),
            depois: json(terceiro.pedido),
            em: NO_PEDIDO.agora.toISOString(),
          },
        ],
      );
    });

    test('uma pessoa de gestão pede por alguém: o pedido é dessa pessoa, com o nome dela; na janela, sem marca de fora', async () => {
      const c = await cenario();
      const bia = await consumidora('Bia Lima');
      const r = await pedir(admin, c.cicloid, [deCesta(c.cicloCestaId, 1)], { usuarioid: idDe(bia) });
      assert.deepEqual(
        [r.criado, r.pedido.usuarioid, r.pedido.usuario],
        [true, idDe(bia), { id: idDe(bia), nome: 'Bia Lima' }],
      );
      const trilha = await banco
        .selectFrom('auditoria')
        .select(['usuarioid', 'acao'])
        .where('entidade', '=', 'pedido')
        .where('entidadeId', '=', String(r.pedido.pedidoId))
        .execute();
      assert.deepEqual(trilha, [{ usuarioid: admin.usuarioid, acao: 'salvar' }]);
    });
  });

  describe('salvar de novo', () => {
    test('só as linhas que mudaram são reescritas: as do começo, iguais, ficam; a ordem e o reservado seguem o que foi salvo', async () => {
      const c = await cenario();
      const outro = await extraNoCiclo(c.cicloid);
      const ana = await consumidora();
      const idsGravados = async (pedidoId: number) =>
        (
          await banco.selectFrom('pedidoproduto').select('id').where('pedidoid', '=', pedidoId).orderBy('id').execute()
        ).map((l) => l.id);
      const reservado = async () => [
        Number(
          (
            await banco
              .selectFrom('ciclocesta')
              .select('reservadoMilesimos')
              .where('id', '=', c.cicloCestaId)
              .executeTakeFirstOrThrow()
          ).reservadoMilesimos,
        ),
        ...(
          await banco
            .selectFrom('cicloproduto')
            .select('reservadoMilesimos')
            .where('id', 'in', [c.cicloProdutoId, outro.id])
            .orderBy('id')
            .execute()
        ).map((l) => Number(l.reservadoMilesimos)),
      ];
      const lista = (p: { produtos: ReadonlyArray<{ id: number; nome: string; quantidadeMilesimos: number }> }) =>
        p.produtos.map((l) => [l.nome, l.quantidadeMilesimos]);
      const confere = async (pedido: Awaited<ReturnType<typeof pedir>>['pedido']) => {
        // What the save answers is what a later read gives, lines in the same order.
        assert.deepEqual(await pedidoDe(banco, c.cicloid, idDe(ana), TAXA), pedido);
        assert.deepEqual(
          await idsGravados(pedido.pedidoId),
          pedido.produtos.map((l) => l.id).sort((a, b) => a - b),
        );
      };

      const primeiro = await pedir(ana, c.cicloid, [
        deCesta(c.cicloCestaId, 1),
        deExtra(c.cicloProdutoId, 500, 'produtos.1'),
        deExtra(outro.id, 300, 'produtos.2'),
      ]);
      const [a, b, d] = primeiro.pedido.produtos.map((l) => l.id);
      await confere(primeiro.pedido);

      // The same order again: no line is written.
      const igual = await pedir(ana, c.cicloid, [
        deCesta(c.cicloCestaId, 1),
        deExtra(c.cicloProdutoId, 500, 'produtos.1'),
        deExtra(outro.id, 300, 'produtos.2'),
      ]);
      assert.deepEqual(
        igual.pedido.produtos.map((l) => l.id),
        [a, b, d],
      );
      await confere(igual.pedido);
      assert.deepEqual(await reservado(), [1000, 500, 300]);

      // The second line changes: the first stays, the second and every line after it are written again.
      const mudou = await pedir(ana, c.cicloid, [
        deCesta(c.cicloCestaId, 1),
        deExtra(c.cicloProdutoId, 700, 'produtos.1'),
        deExtra(outro.id, 300, 'produtos.2'),
      ]);
      const ids = mudou.pedido.produtos.map((l) => l.id);
      assert.equal(ids[0], a);
      assert.ok(
        (ids[1] ?? 0) > (d ?? 0) && (ids[2] ?? 0) > (ids[1] ?? 0),
        `linhas reescritas com ids novos: ${ids.join(', ')}`,
      );
      assert.deepEqual(lista(mudou.pedido), [
        [c.cestaNome, 1000],
        [c.extraNome, 700],
        [outro.nome, 300],
      ]);
      await confere(mudou.pedido);
      assert.deepEqual(await reservado(), [1000, 700, 300]);

      // Listed in another order, one line out: the order follows the list, the line out holds nothing.
      const outraOrdem = await pedir(ana, c.cicloid, [
        deExtra(outro.id, 300, 'produtos.0'),
        deCesta(c.cicloCestaId, 2, 'produtos.1'),
      ]);
      assert.deepEqual(lista(outraOrdem.pedido), [
        [outro.nome, 300],
        [c.cestaNome, 2000],
      ]);
      await confere(outraOrdem.pedido);
      assert.deepEqual(await reservado(), [2000, 0, 300]);
      assert.equal(outraOrdem.pedido.totalCentavos, 2 * 5000 + 240);
    });
  });

  describe('preços, mercados e assinaturas', () => {
    test('a linha que já estava no pedido guarda o preço de quando foi pedida; a nova leva o de agora', async () => {
      const c = await cenario();
      const ana = await consumidora();
      await pedir(ana, c.cicloid, [deCesta(c.cicloCestaId, 1), deExtra(c.cicloProdutoId, 500)]);
      await banco.updateTable('cesta').set({ valorReferenciaCentavos: 6000 }).where('id', '=', c.cestaId).execute();
      await banco.updateTable('cicloproduto').set({ valorCentavos: 900 }).where('id', '=', c.cicloProdutoId).execute();
      const novo = await extraNoCiclo(c.cicloid, { valorCentavos: 1200 });
      const { pedido } = await pedir(ana, c.cicloid, [
        deCesta(c.cicloCestaId, 2, 'produtos.0'),
        deExtra(c.cicloProdutoId, 1000, 'produtos.1'),
        deExtra(novo.id, 500, 'produtos.2'),
      ]);
      assert.deepEqual(resumo(pedido.produtos), [
        { nome: c.cestaNome, quantidadeMilesimos: 2000, valorCentavos: 5000 },
        { nome: c.extraNome, quantidadeMilesimos: 1000, valorCentavos: 800 },
        { nome: novo.nome, quantidadeMilesimos: 500, valorCentavos: 1200 },
      ]);
      assert.equal(pedido.totalCentavos, 10_000 + 800 + 600);
      // A line dropped and ordered again is new: it takes today's price.
      await pedir(ana, c.cicloid, [deExtra(novo.id, 500, 'produtos.0')]);
      const devolta = await pedir(ana, c.cicloid, [deCesta(c.cicloCestaId, 1, 'produtos.0'), deExtra(novo.id, 500)]);
      assert.deepEqual(resumo(devolta.pedido.produtos), [
        { nome: c.cestaNome, quantidadeMilesimos: 1000, valorCentavos: 6000 },
        { nome: novo.nome, quantidadeMilesimos: 500, valorCentavos: 1200 },
      ]);
    });

    test('mercados: a taxa do mercado na linha, guardada enquanto a linha fica no mesmo mercado; sem taxa, zero; fora deles, nenhuma', async () => {
      const c = await cenario();
      const iso = new Date().toISOString();
      let ordem = 0;
      const mercado = async (tipo: 'cesta' | 'venda_direta', taxa: number | null) => {
        const nome = nomeUnico('Mercado');
        const m = await banco
          .insertInto('mercado')
          .values({
            nome,
            descricao: null,
            tipo,
            taxaAdministrativaCentesimos: taxa,
            valorMaximoCestaCentavos: tipo === 'cesta' ? 100_000 : null,
            ativo: true,
            adminId: dono,
            createdAt: iso,
            updatedAt: iso,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await banco
          .insertInto('ciclomercado')
          .values({ cicloid: c.cicloid, mercadoId: m.id, ordemAtendimento: ++ordem, createdAt: iso, updatedAt: iso })
          .execute();
        return { id: m.id, nome };
      };
      const cestas = await mercado('cesta', null);
      const feira = await mercado('venda_direta', 500);
      const outraFeira = await mercado('venda_direta', 900);
      await banco.updateTable('ciclocesta').set({ mercadoId: cestas.id }).where('id', '=', c.cicloCestaId).execute();
      const daFeira = await extraNoCiclo(c.cicloid, { mercadoId: feira.id, valorCentavos: 1000 });
      const ana = await consumidora();
      const linhas = [
        deCesta(c.cicloCestaId, 1, 'produtos.0'),
        deExtra(daFeira.id, 1000, 'produtos.1'),
        deExtra(c.cicloProdutoId, 1000, 'produtos.2'),
      ];
      const mercadosDe = (
        produtos: ReadonlyArray<{
          nome: string;
          mercadoId: number | null;
          mercado: string | null;
          taxaCentesimos: number | null;
        }>,
      ) => produtos.map((p) => [p.nome, p.mercadoId, p.mercado, p.taxaCentesimos]);
      const primeiro = await pedir(ana, c.cicloid, linhas);
      assert.deepEqual(mercadosDe(primeiro.pedido.produtos), [
        [c.cestaNome, cestas.id, cestas.nome, 0],
        [daFeira.nome, feira.id, feira.nome, 500],
        [c.extraNome, null, null, null],
      ]);
      // The fair's fee goes up: the line already ordered there keeps 5 %.
      await banco
        .updateTable('mercado')
        .set({ taxaAdministrativaCentesimos: 700 })
        .where('id', '=', feira.id)
        .execute();
      await banco
        .updateTable('mercado')
        .set({ taxaAdministrativaCentesimos: 300 })
        .where('id', '=', cestas.id)
        .execute();
      const segundo = await pedir(ana, c.cicloid, linhas);
      assert.deepEqual(mercadosDe(segundo.pedido.produtos), [
        [c.cestaNome, cestas.id, cestas.nome, 0],
        [daFeira.nome, feira.id, feira.nome, 500],
        [c.extraNome, null, null, null],
      ]);
      // The line moves to another market: that market's fee now.
      await banco.updateTable('cicloproduto').set({ mercadoId: outraFeira.id }).where('id', '=', daFeira.id).execute();
      const terceiro = await pedir(ana, c.cicloid, linhas);
      assert.deepEqual(mercadosDe(terceiro.pedido.produtos), [
        [c.cestaNome, cestas.id, cestas.nome, 0],
        [daFeira.nome, outraFeira.id, outraFeira.nome, 900],
        [c.extraNome, null, null, null],
      ]);
      const gravadas = (await rastro(c.cicloid)).linhas.map((l) => [l.mercadoId, l.taxaCentesimos]);
      assert.deepEqual(gravadas, [
        [cestas.id, 0],
        [outraFeira.id, 900],
        [null, null],
      ]);
    });

    test('mercados: o ponto é um que serve cada mercado do pedido e os itens fora deles; quem decide são os mercados', async () => {
      const c = await cenario();
      const iso = new Date().toISOString();
      const nomeSede = nomeUnico('Sede');
      const nomeEscola = nomeUnico('Escola');
      const sede = await criarPonto(banco, nomeSede);
      const escola = await criarPonto(banco, nomeEscola);
      // The cycle delivers at the school; the fair only at the headquarters.
      await banco
        .insertInto('ciclopontoentrega')
        .values({
          cicloid: c.cicloid,
          pontoEntregaId: escola.id,
          dataRetirada: null,
          horaInicio: null,
          horaFim: null,
          createdAt: iso,
          updatedAt: iso,
        })
        .execute();
      const nomeFeira = nomeUnico('Feira');
      const feira = await banco
        .insertInto('mercado')
        .values({
          nome: nomeFeira,
          descricao: null,
          tipo: 'venda_direta',
          taxaAdministrativaCentesimos: 500,
          valorMaximoCestaCentavos: null,
          ativo: true,
          adminId: dono,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const cm = await banco
        .insertInto('ciclomercado')
        .values({ cicloid: c.cicloid, mercadoId: feira.id, ordemAtendimento: 1, createdAt: iso, updatedAt: iso })
        .returning('id')
        .executeTakeFirstOrThrow();
      await banco
        .insertInto('ciclomercadoponto')
        .values({ cicloMercadoId: cm.id, pontoEntregaId: sede.id, createdAt: iso, updatedAt: iso })
        .execute();
      const daFeira = await extraNoCiclo(c.cicloid, { mercadoId: feira.id });
      const ana = await consumidora();
      const antes = await rastro(c.cicloid);
      // Outside any market, the cycle's points decide.
      assert.deepEqual(
        await recusa(
          pedir(ana, c.cicloid, [deExtra(c.cicloProdutoId, 500, 'produtos.0')], { pontoEntregaId: sede.id }),
        ),
        {
          ...VALIDACAO,
          detalhes: {
            pontoEntregaId: `Este ciclo não entrega em ${nomeSede}. Escolha um dos pontos do ciclo: ${nomeEscola}`,
          },
        },
      );
      // The fair and a line outside it: no point serves both.
      assert.deepEqual(
        await recusa(
          pedir(
            ana,
            c.cicloid,
            [deExtra(daFeira.id, 500, 'produtos.0'), deExtra(c.cicloProdutoId, 500, 'produtos.1')],
            {
              pontoEntregaId: sede.id,
            },
          ),
        ),
        {
          ...VALIDACAO,
          detalhes: {
            pontoEntregaId: `Nenhum ponto serve todos os itens do pedido: ${nomeFeira} entrega em ${nomeSede}; os itens fora dos mercados entrega em ${nomeEscola}. Tire do pedido os itens de um dos mercados`,
            pontosQueServem: [],
          },
        },
      );
      // Only the fair's line, at the school the cycle serves but the fair does not.
      assert.deepEqual(
        await recusa(pedir(ana, c.cicloid, [deExtra(daFeira.id, 500, 'produtos.0')], { pontoEntregaId: escola.id })),
        {
          ...VALIDACAO,
          detalhes: {
            pontoEntregaId: `Este ponto não serve todos os itens do pedido. Pontos que servem: ${nomeSede}`,
            pontosQueServem: [sede.id],
          },
        },
      );
      assert.deepEqual(await rastro(c.cicloid), antes);
      // Only the fair's line, at its headquarters (not a point of the cycle): the market decides.
      const { pedido } = await pedir(ana, c.cicloid, [deExtra(daFeira.id, 500, 'produtos.0')], {
        pontoEntregaId: sede.id,
      });
      assert.deepEqual([pedido.pontoEntregaId, pedido.produtos.map((p) => p.mercadoId)], [sede.id, [feira.id]]);
    });

    test('a cesta que uma assinatura pôs no pedido segue dela quando o pedido muda; as outras linhas não são de assinatura', async () => {
      const c = await cenario();
      const ana = await consumidora();
      const iso = new Date().toISOString();
      const assinatura = await banco
        .insertInto('assinatura')
        .values({
          usuarioid: idDe(ana),
          cestaId: c.cestaId,
          quantidade: 1,
          pontoEntregaId: ponto,
          frequencia: 'cada_ciclo',
          inicio: '2026-01-01',
          fim: '2026-12-31',
          mercadoId: null,
          ativa: true,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await pedidoGravado(c.cicloid, idDe(ana), [
        { cicloCestaId: c.cicloCestaId, quantidadeMilesimos: 1000, valorCentavos: 4500, assinaturaId: assinatura.id },
      ]);
      const { pedido } = await pedir(ana, c.cicloid, [deCesta(c.cicloCestaId, 2), deExtra(c.cicloProdutoId, 500)]);
      assert.deepEqual(
        pedido.produtos.map((p) => [p.nome, p.quantidadeMilesimos, p.valorCentavos, p.assinaturaId]),
        [
          [c.cestaNome, 2000, 4500, assinatura.id],
          [c.extraNome, 500, 800, null],
        ],
      );
      assert.deepEqual(
        (await rastro(c.cicloid)).linhas.map((l) => [l.cicloCestaId, l.cicloProdutoId, l.assinaturaId]),
        [
          [c.cicloCestaId, null, assinatura.id],
          [null, c.cicloProdutoId, null],
        ],
      );
    });
  });
});
