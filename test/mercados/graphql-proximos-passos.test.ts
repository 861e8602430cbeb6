import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Perfil } from '../../src/domain/perfis.ts';
import { diaLocal, horarioDeRetiradaTexto, somarDias } from '../../src/domain/tempo.ts';
import {
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import {
  cicloNaEntrega,
  contaComSessao,
  criarMercadoNoBanco,
  entrarNoMercados,
  graphql,
  passoEsperado,
  type PassoGql,
  type RespostaGraphql,
} from './apoio.ts';

/**
 * meusProximosPassos, Ciclo.meuPedido and Ciclo.diasDeEntrega (issue 37, item 6): each person's
 * steps in each phase, read from their own records only, with the deadline of each; the person's
 * own order in a cycle; the delivery days for suppliers, refused to anyone else.
 */

const PASSOS =
  '{ meusProximosPassos { aPagar ciclos { ciclo { id } passos { acao texto feito temPagina pedidoId mercadoId prazo } } } }';

function dados<T>(r: RespostaGraphql, campo: string): T {
  assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
  return r.corpo.data?.[campo] as T;
}

describe('os próximos passos pelo GraphQL', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
  });
  after(() => amb.fechar());

  const hoje = () => diaLocal(amb.relogio.agora(), amb.config.tz);
  const gql = (nav: Navegador, query: string, variables?: Record<string, unknown>) =>
    graphql(amb.urlMercados, nav, query, variables);

  /** A person with a Cestas record, logged in to Mercados (one account). */
  async function pessoa(perfil: Perfil[], nome: string) {
    const u = await criarUsuario(amb.banco, { perfil, nome });
    const nav = new Navegador();
    await entrarNoMercados(amb, nav, { email: u.email, nome });
    const me = dados<{ id: string }>(await gql(nav, '{ me { id } }'), 'me');
    return { id: u.id, conta: Number(me.id), nav };
  }

  async function passosNo(nav: Navegador, cicloid: number): Promise<PassoGql[] | undefined> {
    const r = dados<{ ciclos: Array<{ ciclo: { id: string }; passos: PassoGql[] }> }>(
      await gql(nav, PASSOS),
      'meusProximosPassos',
    );
    return r.ciclos.find((c) => c.ciclo.id === String(cicloid))?.passos;
  }

  const passo = passoEsperado;

  test('na entrega: o fornecedor lê os dias e o lugar; quem confirmou, onde retirar; os dias só para fornecedores', async () => {
    const ciclo = await cicloNaEntrega(amb);
    const { hoje: d, datas } = ciclo;
    const iso = new Date().toISOString();
    const fornecedor = await pessoa(['fornecedor'], 'Fiona Fornece');
    const semOferta = await pessoa(['fornecedor'], 'Fabrício Sem Oferta');
    const produto = await criarProduto(amb.banco, { unidade: 'maço' });
    await criarOfertaFinalizada(
      amb.banco,
      ciclo.id,
      [{ produtoId: produto.id, quantidadeMilesimos: 5000, valorCentavos: 300 }],
      fornecedor.id,
    );
    const consumidora = await pessoa(['consumidor'], 'Cora Consome');
    const ponto = await criarPonto(amb.banco, `Sede ${ciclo.id}`);
    await amb.banco
      .insertInto('ciclopontoentrega')
      .values({
        cicloid: ciclo.id,
        pontoEntregaId: ponto.id,
        dataRetirada: d,
        horaInicio: '08:00',
        horaFim: '12:00',
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    const pedido = await amb.banco
      .insertInto('pedido')
      .values({
        cicloid: ciclo.id,
        usuarioid: consumidora.id,
        pontoEntregaId: ponto.id,
        finalizado: true,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const dia = (x: string) => horarioDeRetiradaTexto({ dataRetirada: x, horaInicio: null, horaFim: null });

    // Every account orders too (the login's Consumidor): without an order, nothing to pick up.
    const nadaARetirar = passo('retirar', 'Nada a retirar neste ciclo', null, { feito: true, temPagina: false });
    assert.deepEqual(await passosNo(fornecedor.nav, ciclo.id), [
      passo('entregar', `Entregar o que foi pedido da sua oferta: ${ciclo.dias}`, somarDias(d, 1)),
      nadaARetirar,
    ]);
    // No finalised offer: nothing to deliver, and nowhere to go.
    assert.deepEqual(await passosNo(semOferta.nav, ciclo.id), [
      passo('entregar', 'Nada a entregar neste ciclo', null, { feito: true, temPagina: false }),
      nadaARetirar,
    ]);
    assert.deepEqual(await passosNo(consumidora.nav, ciclo.id), [
      passo('retirar', `Retirar sua cesta em Sede ${ciclo.id} (${dia(d)}, das 08:00 às 12:00)`, datas.dataRetiradaFim, {
        pedidoId: String(pedido.id),
      }),
    ]);

    // The delivery days, in date order, for a supplier; refused to a consumer, on that field only.
    const campo = 'query($id: ID!) { ciclo(id: $id) { id diasDeEntrega { dataEntrega observacao } } }';
    assert.deepEqual(dados<unknown>(await gql(fornecedor.nav, campo, { id: ciclo.id }), 'ciclo'), {
      id: String(ciclo.id),
      diasDeEntrega: [
        { dataEntrega: d, observacao: 'entregar na Sede até 17h' },
        { dataEntrega: somarDias(d, 1), observacao: null },
      ],
    });
    const recusa = await gql(consumidora.nav, campo, { id: ciclo.id });
    assert.equal(recusa.corpo.errors?.[0]?.message, 'Acesso negado: requer o perfil Fornecedor');
    assert.deepEqual(recusa.corpo.errors?.[0]?.path, ['ciclo', 'diasDeEntrega']);
  });

  test('antes dos pedidos: a coordenação compõe e define os mercados, com o prazo do dia antes dos pedidos', async () => {
    const d = hoje();
    const ciclo = await criarCiclo(amb.banco, {
      datas: {
        dataOfertaInicio: somarDias(d, -5),
        dataOfertaFim: somarDias(d, -1),
        dataPedidoInicio: somarDias(d, 2),
        dataPedidoFim: somarDias(d, 4),
        dataRetiradaInicio: somarDias(d, 6),
        dataRetiradaFim: somarDias(d, 6),
      },
    });
    const admin = await pessoa(['admin'], 'Alice Coordena');
    const vespera = somarDias(d, 1);
    assert.deepEqual(await passosNo(admin.nav, ciclo.id), [
      passo('compor', 'Compor as cestas do ciclo', vespera),
      passo('definirMercados', 'Definir os mercados do ciclo', vespera),
    ]);
    const mercado = await criarMercadoNoBanco(amb.banco, { adminId: admin.conta, nome: `Feira ${ciclo.id}` });
    const iso = new Date().toISOString();
    await amb.banco
      .insertInto('ciclomercado')
      .values({ cicloid: ciclo.id, mercadoId: mercado.id, ordemAtendimento: 1, createdAt: iso, updatedAt: iso })
      .execute();
    assert.deepEqual((await passosNo(admin.nav, ciclo.id))?.[1], {
      ...passo('definirMercados', `Mercados do ciclo definidos: Feira ${ciclo.id} (ainda pode alterar)`, vespera),
      feito: true,
    });
    // A consumer has nothing to do yet in this cycle: it is not listed.
    const consumidor = await pessoa(['consumidor'], 'Caio Espera');
    assert.equal(await passosNo(consumidor.nav, ciclo.id), undefined);
  });

  test('o pedido de cada um no ciclo (Ciclo.meuPedido), e o passo de pedir só onde se vende a consumidores', async () => {
    const d = hoje();
    const datas = {
      dataOfertaInicio: somarDias(d, -5),
      dataOfertaFim: somarDias(d, -3),
      dataPedidoInicio: somarDias(d, -1),
      dataPedidoFim: somarDias(d, 1),
      dataRetiradaInicio: somarDias(d, 3),
      dataRetiradaFim: somarDias(d, 3),
    };
    const cesta = await criarCesta(amb.banco, { valorCentavos: 4000 });
    const ciclo = await criarCiclo(amb.banco, {
      datas,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 5 }],
      compor: true,
    });
    const ponto = await criarPonto(amb.banco);
    const iso = new Date().toISOString();
    await amb.banco
      .insertInto('ciclopontoentrega')
      .values({ cicloid: ciclo.id, pontoEntregaId: ponto.id, createdAt: iso, updatedAt: iso })
      .execute();
    const ana = await pessoa(['consumidor'], 'Ana Pede');
    const beto = await pessoa(['consumidor'], 'Beto Olha');
    const fornecedor = await pessoa(['fornecedor'], 'Flor Oferta');
    const meu = (nav: Navegador) =>
      gql(nav, 'query($id: ID!) { ciclo(id: $id) { meuPedido { id finalizado alteradoAposConfirmar } } }', {
        id: ciclo.id,
      }).then((r) => dados<{ meuPedido: unknown }>(r, 'ciclo').meuPedido);
    const pedir = (quantidade: number) =>
      gql(ana.nav, 'mutation($c: ID!, $i: PedidoInput!) { fazerPedido(cicloId: $c, input: $i) { id } }', {
        c: ciclo.id,
        i: { pontoEntregaId: ponto.id, produtos: [{ cicloCestaId: ciclo.cicloCestas[0], quantidade }] },
      }).then((r) => dados<{ id: string }>(r, 'fazerPedido').id);

    assert.equal(await meu(ana.nav), null);
    assert.deepEqual(await passosNo(ana.nav, ciclo.id), [passo('pedir', 'Fazer seu pedido', datas.dataPedidoFim)]);
    const id = await pedir(1);
    assert.deepEqual(await meu(ana.nav), { id, finalizado: false, alteradoAposConfirmar: false });
    assert.deepEqual(await passosNo(ana.nav, ciclo.id), [
      passo('pedir', 'Pedido salvo, falta confirmar', datas.dataPedidoFim, { pedidoId: id }),
    ]);
    dados(
      await gql(ana.nav, 'mutation($p: ID!) { confirmarPedido(pedidoId: $p) { id } }', { p: id }),
      'confirmarPedido',
    );
    assert.deepEqual(await meu(ana.nav), { id, finalizado: true, alteradoAposConfirmar: false });
    assert.deepEqual(await passosNo(ana.nav, ciclo.id), [
      passo('pedir', 'Pedido confirmado (ainda pode alterar)', datas.dataPedidoFim, { pedidoId: id, feito: true }),
    ]);
    // Confirmed orders are owed: paying is the next step, with the same figure as minhaCobranca.
    const devido = dados<{ devido: string }>(await gql(ana.nav, '{ minhaCobranca { devido } }'), 'minhaCobranca');
    assert.equal(
      dados<{ aPagar: string | null }>(await gql(ana.nav, PASSOS), 'meusProximosPassos').aPagar,
      devido.devido,
    );
    await pedir(2);
    assert.deepEqual(await meu(ana.nav), { id, finalizado: false, alteradoAposConfirmar: true });
    // Nobody else's order: another consumer's is null, and a supplier orders nothing.
    assert.equal(await meu(beto.nav), null);
    assert.equal(await meu(fornecedor.nav), null);

    // A cycle whose only market sells lots to a named buyer: no order step for a consumer, as Ciclo.acoes says.
    const lotes = await criarCiclo(amb.banco, { datas });
    const mercado = await criarMercadoNoBanco(amb.banco, { adminId: fornecedor.conta, tipo: 'lote' });
    await amb.banco
      .insertInto('ciclomercado')
      .values({ cicloid: lotes.id, mercadoId: mercado.id, ordemAtendimento: 1, createdAt: iso, updatedAt: iso })
      .execute();
    assert.equal(await passosNo(beto.nav, lotes.id), undefined);
  });

  test('uma conta sem cadastro na face Cestas não tem passos nos ciclos, e nada quebra', async () => {
    const nav = new Navegador();
    await contaComSessao(amb, nav, amb.urlMercados, { perfis: ['Consumidor', 'Fornecedor'] });
    assert.deepEqual(dados(await gql(nav, PASSOS), 'meusProximosPassos'), { aPagar: null, ciclos: [] });
  });
});
