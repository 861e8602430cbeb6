import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { alteradosAposConfirmar } from '../../src/domain/pedidos/leituras.ts';
import type { Perfil } from '../../src/domain/perfis.ts';
import { diaLocal, somarDias } from '../../src/domain/tempo.ts';
import { CaixaDeTeste } from '../helpers/correio.ts';
import { criarCesta, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { contaComSessao, criarMercadoNoBanco, entrarNoMercados, graphql, type RespostaGraphql } from './apoio.ts';

/**
 * The cycle workflow through GraphQL (issue 17, section 3), with real logins: a supplier offers,
 * the coordination sets the cycle's markets, a consumer orders in two markets and confirms, the
 * supplier sees what to deliver, and each market's admin sees the market's orders. The figures
 * are the Cestas face's for the same order.
 */

interface PedidoGql {
  id: string;
  finalizado: boolean;
  alteradoAposConfirmar: boolean;
  dataConfirmacao: string | null;
  total: string;
  taxa: string;
  totalComTaxa: string;
  produtos: Array<{
    nome: string;
    quantidade: string;
    valor: string;
    subtotal: string;
    mercadoId: string | null;
    mercado: string | null;
  }>;
  partes: Array<{
    mercadoId: string | null;
    mercado: string | null;
    subtotal: string;
    taxaAdministrativa: string | null;
    taxa: string;
  }>;
}

const CAMPOS_PEDIDO =
  'id finalizado alteradoAposConfirmar dataConfirmacao total taxa totalComTaxa produtos { nome quantidade valor subtotal mercadoId mercado } partes { mercadoId mercado subtotal taxaAdministrativa taxa }';

function dados<T>(r: RespostaGraphql, campo: string): T {
  assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
  return r.corpo.data?.[campo] as T;
}

function erro(r: RespostaGraphql): {
  message: string;
  code: unknown;
  motivo: unknown;
  extensions: Record<string, unknown>;
} {
  assert.equal(r.corpo.errors?.length, 1, JSON.stringify(r.corpo));
  const e = r.corpo.errors[0];
  assert.ok(e);
  return { message: e.message, code: e.extensions?.code, motivo: e.extensions?.motivo, extensions: e.extensions ?? {} };
}

describe('o fluxo do ciclo pelo GraphQL', () => {
  let amb: AmbienteDeTeste;
  let caixa: CaixaDeTeste;
  before(async () => {
    // E-mail on, so that receipts of orders confirmed through GraphQL can be seen in the outbox.
    caixa = await CaixaDeTeste.iniciar();
    amb = await iniciarAmbiente({ mercados: true, env: { SMTP_URL: caixa.url, AVISOS_INTERVALO_S: '3600' } });
  });
  after(async () => {
    await amb.fechar();
    await caixa.fechar();
  });

  const cestas = (caminho: string) => `${amb.url}${caminho}`;
  const gql = (nav: Navegador, query: string, variables?: Record<string, unknown>) =>
    graphql(amb.urlMercados, nav, query, variables);

  /** A person with a Cestas record, logged in to both faces (one account). */
  async function pessoa(
    perfil: Perfil[],
    nome: string,
  ): Promise<{ id: number; cestas: Navegador; mercados: Navegador }> {
    const u = await criarUsuario(amb.banco, { perfil, nome });
    const naCestas = new Navegador();
    await entrarPeloProvedor(naCestas, cestas('/'), { email: u.email });
    const noMercados = new Navegador();
    await entrarNoMercados(amb, noMercados, { email: u.email, nome });
    return { id: u.id, cestas: naCestas, mercados: noMercados };
  }

  /** A cycle whose offer window closes and order window opens today (both open), one basket type (10), two points, and two markets. */
  async function cenario() {
    const hoje = diaLocal(amb.relogio.agora(), 'America/Sao_Paulo');
    const cesta = await criarCesta(amb.banco, { valorCentavos: 5000 });
    const iso = new Date().toISOString();
    const nome = `Ciclo GraphQL ${Math.random().toString(16).slice(2, 8)}`;
    const ciclo = await amb.banco
      .insertInto('ciclo')
      .values({
        nome,
        nomeChave: nome.toLowerCase(),
        dataOfertaInicio: somarDias(hoje, -1),
        dataOfertaFim: hoje,
        dataPedidoInicio: hoje,
        dataPedidoFim: somarDias(hoje, 2),
        dataRetiradaInicio: somarDias(hoje, 3),
        dataRetiradaFim: somarDias(hoje, 4),
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const cc = await amb.banco
      .insertInto('ciclocesta')
      .values({ cicloid: ciclo.id, cestaId: cesta.id, quantidadeCestas: 10, createdAt: iso, updatedAt: iso })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tomate = await criarProduto(amb.banco, { nome: `Tomate ${ciclo.id}`, unidade: 'kg' });
    const alface = await criarProduto(amb.banco, { nome: `Alface ${ciclo.id}`, unidade: 'maço' });
    const sede = await criarPonto(amb.banco, `Sede ${ciclo.id}`);
    const feira = await criarPonto(amb.banco, `Feira ${ciclo.id}`);
    return {
      cicloid: ciclo.id,
      cicloCestaId: cc.id,
      cesta: cesta.nome,
      tomate,
      alface,
      sede: sede.id,
      feira: feira.id,
    };
  }

  test('fornecedor oferta, administração define os mercados, consumidor pede em dois mercados e confirma; entregas e pedidos do mercado batem com a Cestas', async () => {
    const c = await cenario();
    const fornecedor = await pessoa(['fornecedor'], 'Fátima Fornecedora');
    const consumidor = await pessoa(['consumidor'], 'Carlos Consumidor');
    const admin = await pessoa(['admin'], 'Ana Coordenação');
    const donoCesta = new Navegador();
    const { conta: contaCesta } = await contaComSessao(amb, donoCesta, amb.urlMercados, { perfis: ['AdminMercado'] });
    const donoFeira = new Navegador();
    const { conta: contaFeira } = await contaComSessao(amb, donoFeira, amb.urlMercados, { perfis: ['AdminMercado'] });
    const mCesta = await criarMercadoNoBanco(amb.banco, {
      adminId: contaCesta.id,
      nome: `Cestas ${c.cicloid}`,
      tipo: 'cesta',
      valorMaximoCestaCentavos: 3000,
    });
    const mFeira = await criarMercadoNoBanco(amb.banco, {
      adminId: contaFeira.id,
      nome: `Feira livre ${c.cicloid}`,
      tipo: 'venda_direta',
    });
    await amb.banco
      .updateTable('mercado')
      .set({ taxaAdministrativaCentesimos: 1000 })
      .where('id', '=', mFeira.id)
      .execute();
    const iso = new Date().toISOString();
    await amb.banco
      .insertInto('precomercado')
      .values({
        mercadoId: mFeira.id,
        produtoId: c.tomate.id,
        precoCentavos: 600,
        ativo: true,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();

    // 1. The supplier sees the cycle (offer window open) and offers, as a draft and then final.
    const paraFornecedor = dados<Array<{ id: string }>>(await gql(fornecedor.mercados, '{ ciclos { id } }'), 'ciclos');
    assert.ok(paraFornecedor.some((x) => x.id === String(c.cicloid)));
    assert.equal(
      dados(
        await gql(fornecedor.mercados, 'query($c: ID!) { minhaOferta(cicloId: $c) { id } }', { c: c.cicloid }),
        'minhaOferta',
      ),
      null,
    );
    const SALVAR =
      'mutation($c: ID!, $i: OfertaInput!, $f: Boolean) { salvarOferta(cicloId: $c, input: $i, finalizar: $f) { id finalizada total produtos { ofertaProdutoId produtoid quantidade valor } } }';
    const linhas = {
      produtos: [
        { produtoid: c.tomate.id, quantidade: '100', valor: '4' },
        { produtoid: c.alface.id, quantidade: 40, valor: '2.00' },
      ],
    };
    const rascunho = dados<{ finalizada: boolean; total: string }>(
      await gql(fornecedor.mercados, SALVAR, { c: c.cicloid, i: linhas }),
      'salvarOferta',
    );
    assert.deepEqual([rascunho.finalizada, rascunho.total], [false, '480.00']);
    const oferta = dados<{
      id: string;
      finalizada: boolean;
      produtos: Array<{ ofertaProdutoId: string; produtoid: string; quantidade: string; valor: string }>;
    }>(await gql(fornecedor.mercados, SALVAR, { c: c.cicloid, i: linhas, f: true }), 'salvarOferta');
    assert.equal(oferta.finalizada, true);
    const porProduto = (l: { produtoid: string; quantidade: string; valor: string }) => [
      l.produtoid,
      l.quantidade,
      l.valor,
    ];
    assert.deepEqual(
      oferta.produtos.map(porProduto).sort(),
      [
        [String(c.tomate.id), '100.000', '4.00'],
        [String(c.alface.id), '40.000', '2.00'],
      ].sort(),
    );
    const minha = dados<{ id: string }>(
      await gql(fornecedor.mercados, 'query($c: ID!) { minhaOferta(cicloId: $c) { id } }', { c: c.cicloid }),
      'minhaOferta',
    );
    assert.equal(minha.id, oferta.id);
    const linhaTomate = oferta.produtos.find((l) => l.produtoid === String(c.tomate.id))?.ofertaProdutoId;
    // What the supplier offered comes first next time, marked as usual.
    const paraOfertar = dados<Array<{ produtoid: string; ofertadoAntes: boolean }>>(
      await gql(fornecedor.mercados, '{ produtosParaOfertar { produtoid ofertadoAntes } }'),
      'produtosParaOfertar',
    );
    assert.deepEqual(
      paraOfertar.slice(0, 2).map((p) => p.ofertadoAntes),
      [true, true],
    );
    assert.deepEqual(
      paraOfertar
        .slice(0, 2)
        .map((p) => p.produtoid)
        .sort(),
      [String(c.tomate.id), String(c.alface.id)].sort(),
    );
    assert.ok(paraOfertar.slice(2).every((p) => !p.ofertadoAntes));

    // 2. The coordination composes the basket (5 kg of tomatoes: R$ 20,00) and sets the cycle's markets through GraphQL.
    const compor = await admin.cestas.postJson(cestas(`/composicao/${c.cicloCestaId}`), {
      quantidadeCestas: 10,
      produtos: [{ ofertaProdutoId: Number(linhaTomate), quantidadePorCesta: 5, unidade: 'kg' }],
    });
    assert.equal(compor.status, 200, compor.texto);
    const DEFINIR =
      'mutation($c: ID!, $i: [CicloMercadoInput!]!) { definirMercadosDoCiclo(cicloId: $c, input: $i) { id mercados { mercadoId tipo ordemAtendimento taxaAdministrativa valorMaximoCesta pontosEntrega { id } cicloCestaIds } } }';
    const mercados = [
      { mercadoId: mCesta.id, ordemAtendimento: 1, pontoEntregaIds: [c.sede], cicloCestaIds: [c.cicloCestaId] },
      { mercadoId: mFeira.id, ordemAtendimento: 2, pontoEntregaIds: [c.sede, c.feira] },
    ];
    const recusado = await gql(consumidor.mercados, DEFINIR, { c: c.cicloid, i: mercados });
    assert.deepEqual(
      [erro(recusado).code, erro(recusado).message],
      ['FORBIDDEN', 'Acesso negado: requer o perfil Administrador'],
    );
    const definido = dados<{
      mercados: Array<{
        mercadoId: string;
        tipo: string;
        ordemAtendimento: number;
        taxaAdministrativa: string;
        valorMaximoCesta: string | null;
        pontosEntrega: Array<{ id: string }>;
        cicloCestaIds: string[];
      }>;
    }>(await gql(admin.mercados, DEFINIR, { c: c.cicloid, i: mercados }), 'definirMercadosDoCiclo');
    assert.deepEqual(
      definido.mercados.map((m) => [
        m.mercadoId,
        m.tipo,
        m.ordemAtendimento,
        m.taxaAdministrativa,
        m.valorMaximoCesta,
        m.pontosEntrega.length,
        m.cicloCestaIds,
      ]),
      [
        [String(mCesta.id), 'cesta', 1, '5.00', '30.00', 1, [String(c.cicloCestaId)]],
        [String(mFeira.id), 'venda_direta', 2, '10.00', null, 2, []],
      ],
    );
    // A refusal of the list names the argument's path.
    const repetida = erro(
      await gql(admin.mercados, DEFINIR, { c: c.cicloid, i: [mercados[0], { ...mercados[1], ordemAtendimento: 1 }] }),
    );
    assert.equal(repetida.code, 'BAD_USER_INPUT');
    assert.equal(repetida.extensions.field, 'input[1].ordemAtendimento');
    // The coordination releases 30 kg of the tomatoes' surplus to the venda_direta market (Cestas page).
    const liberar = await admin.cestas.postJson(cestas(`/ciclo/${c.cicloid}/mercado/${mFeira.id}/liberar`), {
      itens: [{ produtoId: c.tomate.id, quantidade: 30 }],
    });
    assert.equal(liberar.status, 200, liberar.texto);

    // 3. The consumer lists the cycles, reads the cycle and orders a basket and 1.5 kg of released tomatoes.
    type CicloComAcoes = {
      id: string;
      fase: string;
      janelasAbertas: string[];
      acoes: { ofertar: boolean; pedir: boolean; definirMercados: boolean };
    };
    const LISTA = '{ ciclos { id fase janelasAbertas acoes { ofertar pedir definirMercados } } }';
    const paraConsumidor = dados<CicloComAcoes[]>(await gql(consumidor.mercados, LISTA), 'ciclos');
    const doConsumidor = paraConsumidor.find((x) => x.id === String(c.cicloid));
    assert.deepEqual(
      [doConsumidor?.janelasAbertas, doConsumidor?.acoes],
      [['oferta', 'pedido'], { ofertar: false, pedir: true, definirMercados: false }],
    );
    // What each person may do in the cycle comes with it: the client shows only that.
    const acoesDe = async (quem: typeof admin) =>
      dados<CicloComAcoes[]>(await gql(quem.mercados, LISTA), 'ciclos').find((x) => x.id === String(c.cicloid))?.acoes;
    // Everyone keeps the default Consumidor profile: the supplier may also order, the coordinator too.
    assert.deepEqual(await acoesDe(fornecedor), { ofertar: true, pedir: true, definirMercados: false });
    assert.deepEqual(await acoesDe(admin), { ofertar: false, pedir: true, definirMercados: true });
    assert.ok(
      dados<Array<{ id: string }>>(
        await gql(consumidor.mercados, 'query($m: ID) { ciclos(mercadoId: $m) { id } }', { m: mFeira.id }),
        'ciclos',
      ).some((x) => x.id === String(c.cicloid)),
    );
    const LER =
      'query($id: ID!) { ciclo(id: $id) { id nome cestas { cicloCestaId valor disponivel mercado composicao { produto quantidade unidade } } itens { cicloProdutoId produtoId valor disponivel mercado } pontosEntrega { id nome } mercados { mercadoId } } }';
    type CicloGql = {
      cestas: Array<{
        cicloCestaId: string;
        valor: string;
        disponivel: number;
        mercado: string;
        composicao: Array<{ produto: string; quantidade: string; unidade: string }>;
      }>;
      itens: Array<{ cicloProdutoId: string; produtoId: string; valor: string; disponivel: string; mercado: string }>;
      pontosEntrega: Array<{ id: string }>;
    };
    const ciclo = dados<CicloGql>(await gql(consumidor.mercados, LER, { id: c.cicloid }), 'ciclo');
    assert.deepEqual(
      ciclo.cestas.map((x) => [x.cicloCestaId, x.valor, x.disponivel, x.mercado, x.composicao]),
      [
        [
          String(c.cicloCestaId),
          '50.00',
          10,
          `Cestas ${c.cicloid}`,
          [{ produto: `Tomate ${c.cicloid}`, quantidade: '5.000', unidade: 'kg' }],
        ],
      ],
    );
    const item = ciclo.itens.find((i) => i.produtoId === String(c.tomate.id));
    assert.deepEqual([item?.valor, item?.disponivel, item?.mercado], ['6.00', '30.000', `Feira livre ${c.cicloid}`]);
    assert.equal(
      dados(await gql(consumidor.mercados, LER, { id: 999_999 }), 'ciclo'),
      null,
      'um ciclo que não existe é null',
    );
    // An inactive cycle is the administration's alone: for anyone else it is not there.
    await amb.banco.updateTable('ciclo').set({ ativo: false }).where('id', '=', c.cicloid).execute();
    const SO_NOME = 'query($id: ID!) { ciclo(id: $id) { nome } }';
    assert.equal(dados(await gql(consumidor.mercados, SO_NOME, { id: c.cicloid }), 'ciclo'), null);
    assert.ok(dados<{ nome: string } | null>(await gql(admin.mercados, SO_NOME, { id: c.cicloid }), 'ciclo')?.nome);
    await amb.banco.updateTable('ciclo').set({ ativo: true }).where('id', '=', c.cicloid).execute();

    const FAZER = `mutation($c: ID!, $i: PedidoInput!) { fazerPedido(cicloId: $c, input: $i) { ${CAMPOS_PEDIDO} } }`;
    const produtos = [
      { cicloCestaId: c.cicloCestaId, quantidade: 2 },
      { cicloProdutoId: item?.cicloProdutoId, quantidade: '1.5' },
    ];
    const feito = dados<PedidoGql>(
      await gql(consumidor.mercados, FAZER, { c: c.cicloid, i: { pontoEntregaId: c.sede, produtos } }),
      'fazerPedido',
    );
    assert.equal(feito.finalizado, false);
    assert.deepEqual(feito.partes, [
      {
        mercadoId: String(mCesta.id),
        mercado: `Cestas ${c.cicloid}`,
        subtotal: '100.00',
        taxaAdministrativa: '5.00',
        taxa: '5.00',
      },
      {
        mercadoId: String(mFeira.id),
        mercado: `Feira livre ${c.cicloid}`,
        subtotal: '9.00',
        taxaAdministrativa: '10.00',
        taxa: '0.90',
      },
    ]);
    assert.deepEqual([feito.total, feito.taxa, feito.totalComTaxa], ['109.00', '5.90', '114.90']);
    // Stock is reserved: the cycle read again shows it (the response cache never keeps cycle data).
    const depois = dados<CicloGql>(await gql(consumidor.mercados, LER, { id: c.cicloid }), 'ciclo');
    assert.deepEqual(
      [depois.cestas[0]?.disponivel, depois.itens.find((i) => i.produtoId === String(c.tomate.id))?.disponivel],
      [8, '28.500'],
    );

    // 4. Confirm; a second confirmation changes nothing.
    const CONFIRMAR = `mutation($p: ID!) { confirmarPedido(pedidoId: $p) { ${CAMPOS_PEDIDO} } }`;
    const confirmado = dados<PedidoGql>(await gql(consumidor.mercados, CONFIRMAR, { p: feito.id }), 'confirmarPedido');
    assert.equal(confirmado.finalizado, true);
    assert.ok(confirmado.dataConfirmacao !== null);
    assert.deepEqual(
      dados<PedidoGql>(await gql(consumidor.mercados, CONFIRMAR, { p: feito.id }), 'confirmarPedido'),
      confirmado,
    );
    // The receipt goes to the same outbox as a confirmation on the Cestas face, once.
    const recibos = await amb.banco
      .selectFrom('mensagem')
      .select('tipo')
      .where('usuarioid', '=', consumidor.id)
      .where('tipo', '=', 'recibo')
      .execute();
    assert.equal(recibos.length, 1);

    // 5. meusPedidos, of the cycle and of every cycle, with the per-market fees.
    assert.deepEqual(
      dados<PedidoGql[]>(
        await gql(consumidor.mercados, `query($c: ID) { meusPedidos(cicloId: $c) { ${CAMPOS_PEDIDO} } }`, {
          c: c.cicloid,
        }),
        'meusPedidos',
      ),
      [confirmado],
    );
    assert.deepEqual(
      dados<PedidoGql[]>(await gql(consumidor.mercados, `{ meusPedidos { ${CAMPOS_PEDIDO} } }`), 'meusPedidos'),
      [confirmado],
    );

    // 5b. Changing a confirmed order re-opens it; the server says so (alteradoAposConfirmar) on
    // every read until it is confirmed again.
    const ALTERADO = 'query($c: ID) { meusPedidos(cicloId: $c) { id finalizado alteradoAposConfirmar } }';
    const estado = async () =>
      dados<Array<{ id: string; finalizado: boolean; alteradoAposConfirmar: boolean }>>(
        await gql(consumidor.mercados, ALTERADO, { c: c.cicloid }),
        'meusPedidos',
      );
    assert.deepEqual(await estado(), [{ id: feito.id, finalizado: true, alteradoAposConfirmar: false }]);
    assert.equal(feito.alteradoAposConfirmar, false, 'um pedido novo não foi confirmado antes');
    const FAZER_ESTADO =
      'mutation($c: ID!, $i: PedidoInput!) { fazerPedido(cicloId: $c, input: $i) { id finalizado alteradoAposConfirmar } }';
    const mudado = dados<{ id: string; finalizado: boolean; alteradoAposConfirmar: boolean }>(
      await gql(consumidor.mercados, FAZER_ESTADO, {
        c: c.cicloid,
        i: { pontoEntregaId: c.sede, produtos: [produtos[0], { ...produtos[1], quantidade: '2' }] },
      }),
      'fazerPedido',
    );
    assert.deepEqual(mudado, { id: feito.id, finalizado: false, alteradoAposConfirmar: true });
    assert.deepEqual(
      await estado(),
      [{ id: feito.id, finalizado: false, alteradoAposConfirmar: true }],
      'lido de novo, o estado fica',
    );
    // The domain answers for a list of orders at once: an unknown id is simply not among them.
    assert.deepEqual([...(await alteradosAposConfirmar(amb.banco, [Number(feito.id), 999_999]))], [Number(feito.id)]);
    const reconfirmado = dados<{ finalizado: boolean; alteradoAposConfirmar: boolean }>(
      await gql(
        consumidor.mercados,
        'mutation($p: ID!) { confirmarPedido(pedidoId: $p) { finalizado alteradoAposConfirmar } }',
        { p: feito.id },
      ),
      'confirmarPedido',
    );
    assert.deepEqual(reconfirmado, { finalizado: true, alteradoAposConfirmar: false });
    // Back to the figures of step 4 for what follows (1.5 kg of tomatoes), confirmed again.
    dados(
      await gql(consumidor.mercados, FAZER_ESTADO, { c: c.cicloid, i: { pontoEntregaId: c.sede, produtos } }),
      'fazerPedido',
    );
    const deVolta = dados<PedidoGql>(await gql(consumidor.mercados, CONFIRMAR, { p: feito.id }), 'confirmarPedido');
    assert.deepEqual(
      [deVolta.total, deVolta.taxa, deVolta.totalComTaxa],
      [confirmado.total, confirmado.taxa, confirmado.totalComTaxa],
    );

    // 6. The same figures as the Cestas face's JSON for the same order.
    const naCestas = await consumidor.cestas.getJson(cestas(`/pedidoconsumidoresconfirmacao/${feito.id}`));
    assert.equal(naCestas.status, 200, naCestas.texto);
    const json = naCestas.json<{
      data: {
        pedido: {
          total: number;
          taxa: number;
          totalComTaxa: number;
          partes: Array<{ mercadoId: number | null; subtotal: number; taxa: number }>;
        };
        produtos: Array<{ nome: string; mercadoId: number | null; subtotal: number }>;
      };
    }>().data;
    assert.deepEqual(
      [json.pedido.total, json.pedido.taxa, json.pedido.totalComTaxa],
      [confirmado.total, confirmado.taxa, confirmado.totalComTaxa].map(Number),
    );
    assert.deepEqual(
      json.pedido.partes.map((x) => [x.mercadoId, x.subtotal, x.taxa]),
      confirmado.partes.map((x) => [Number(x.mercadoId), Number(x.subtotal), Number(x.taxa)]),
    );
    assert.deepEqual(
      json.produtos.map((l) => [l.nome, l.mercadoId, l.subtotal]),
      confirmado.produtos.map((l) => [l.nome, Number(l.mercadoId), Number(l.subtotal)]),
    );

    // 7. The supplier sees what to deliver: 5 kg × 10 baskets + 30 kg released planned; 5 kg × 2 baskets + 1.5 kg ordered.
    const entregas = dados<
      Array<{ produtoId: string; ofertado: string; planejado: string; pedido: string; valorPedido: string }>
    >(
      await gql(
        fornecedor.mercados,
        'query($c: ID!) { minhasEntregas(cicloId: $c) { produtoId ofertado planejado pedido valorPedido } }',
        { c: c.cicloid },
      ),
      'minhasEntregas',
    );
    assert.deepEqual(
      entregas.find((e) => e.produtoId === String(c.tomate.id)),
      {
        produtoId: String(c.tomate.id),
        ofertado: '100.000',
        planejado: '80.000',
        pedido: '11.500',
        valorPedido: '46.00',
      },
    );
    assert.deepEqual(entregas.find((e) => e.produtoId === String(c.alface.id))?.pedido, '0.000');
    // The same, by market: the baskets in the cesta market, the released tomatoes in the venda_direta market.
    type EntregaPorMercado = {
      produtoId: string;
      pedido: string;
      valorPedido: string;
      mercados: Array<{ mercadoId: string | null; mercado: string | null; pedido: string; valorPedido: string }>;
    };
    const porMercado = dados<EntregaPorMercado[]>(
      await gql(
        fornecedor.mercados,
        'query($c: ID!) { minhasEntregas(cicloId: $c) { produtoId pedido valorPedido mercados { mercadoId mercado pedido valorPedido } } }',
        { c: c.cicloid },
      ),
      'minhasEntregas',
    );
    assert.deepEqual(porMercado.find((e) => e.produtoId === String(c.tomate.id))?.mercados, [
      { mercadoId: String(mCesta.id), mercado: `Cestas ${c.cicloid}`, pedido: '10.000', valorPedido: '40.00' },
      { mercadoId: String(mFeira.id), mercado: `Feira livre ${c.cicloid}`, pedido: '1.500', valorPedido: '6.00' },
    ]);
    assert.deepEqual(
      porMercado.find((e) => e.produtoId === String(c.alface.id))?.mercados,
      [],
      'nada pedido: nenhum mercado',
    );
    // The supplier's offers, past ones included, with their cycles.
    const ofertas = dados<
      Array<{
        cicloId: string;
        finalizada: boolean;
        total: string;
        ciclo: { id: string; nome: string; dataOfertaFim: string };
      }>
    >(
      await gql(fornecedor.mercados, '{ minhasOfertas { cicloId finalizada total ciclo { id nome dataOfertaFim } } }'),
      'minhasOfertas',
    );
    assert.deepEqual(
      ofertas.map((o) => [o.cicloId, o.finalizada, o.total, o.ciclo.id]),
      [[String(c.cicloid), true, '480.00', String(c.cicloid)]],
    );
    // Lowering the tomatoes below what the baskets take (50 kg) is refused on that line's quantity.
    const abaixo = erro(
      await gql(fornecedor.mercados, SALVAR, {
        c: c.cicloid,
        i: { produtos: [linhas.produtos[1], { ...linhas.produtos[0], quantidade: '40' }] },
        f: true,
      }),
    );
    assert.deepEqual(
      [abaixo.code, abaixo.motivo, abaixo.extensions.field],
      ['BAD_USER_INPUT', 'CAPACIDADE_EXCEDIDA', 'input.produtos[1].quantidade'],
    );
    assert.match(
      String((abaixo.extensions.fields as Record<string, string>)['input.produtos[1].quantidade']),
      /^Faltam 10 kg de Tomate/,
    );
    // The coordination acting for the supplier meets the same refusal, on the same line.
    const peloAdmin = erro(
      await gql(admin.mercados, SALVAR, {
        c: c.cicloid,
        i: {
          usuarioid: String(fornecedor.id),
          produtos: [linhas.produtos[1], { ...linhas.produtos[0], quantidade: '40' }],
        },
        f: true,
      }),
    );
    assert.deepEqual(
      [peloAdmin.code, peloAdmin.motivo, peloAdmin.extensions.field],
      ['BAD_USER_INPUT', 'CAPACIDADE_EXCEDIDA', 'input.produtos[1].quantidade'],
    );

    // 8. Each market's admin sees the market's part of the order; another market's orders are refused.
    const DO_MERCADO = `query($m: ID!, $c: ID!) { pedidosDoMercado(mercadoId: $m, cicloId: $c) { ${CAMPOS_PEDIDO} } }`;
    const daCesta = dados<PedidoGql[]>(
      await gql(donoCesta, DO_MERCADO, { m: mCesta.id, c: c.cicloid }),
      'pedidosDoMercado',
    );
    assert.deepEqual(
      daCesta.map((p) => [p.id, p.total, p.taxa, p.produtos.map((l) => l.nome)]),
      [[feito.id, '100.00', '5.00', [c.cesta]]],
    );
    const daFeira = dados<PedidoGql[]>(
      await gql(donoFeira, DO_MERCADO, { m: mFeira.id, c: c.cicloid }),
      'pedidosDoMercado',
    );
    assert.deepEqual(
      daFeira.map((p) => [p.id, p.total, p.taxa, p.totalComTaxa]),
      [[feito.id, '9.00', '0.90', '9.90']],
    );
    const alheio = erro(await gql(donoCesta, DO_MERCADO, { m: mFeira.id, c: c.cicloid }));
    assert.deepEqual(
      [alheio.code, alheio.message],
      ['FORBIDDEN', 'Acesso negado: você só pode ver os pedidos do mercado que administra'],
    );
    assert.equal(
      dados<PedidoGql[]>(await gql(admin.mercados, DO_MERCADO, { m: mFeira.id, c: c.cicloid }), 'pedidosDoMercado')
        .length,
      1,
      'o Administrador vê qualquer mercado',
    );
    // Each market's admin finds the cycle through the market (ciclos, mercadoId) and may see its orders there (acoes.verPedidos).
    const CICLOS_DO_MERCADO =
      'query($m: ID!) { ciclos(mercadoId: $m) { id } mercado(id: $m) { acoes { verPedidos } } }';
    type DoMercado = { ciclos: Array<{ id: string }>; mercado: { acoes: { verPedidos: boolean } } };
    const doMercado = async (nav: Navegador, m: number) => {
      const r = await gql(nav, CICLOS_DO_MERCADO, { m });
      assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
      const d = r.corpo.data as DoMercado;
      return [d.ciclos.some((x) => x.id === String(c.cicloid)), d.mercado.acoes.verPedidos];
    };
    assert.deepEqual(await doMercado(donoCesta, mCesta.id), [true, true]);
    // The cycle serves both markets, so the cesta market's admin sees it under the other one too, but not its orders.
    assert.deepEqual(await doMercado(donoCesta, mFeira.id), [true, false]);
    const estranha = new Navegador();
    await contaComSessao(amb, estranha, amb.urlMercados, { perfis: ['AdminMercado'] });
    assert.deepEqual(
      await doMercado(estranha, mCesta.id),
      [false, false],
      'o AdminMercado de nenhum dos mercados não vê o ciclo',
    );
    assert.deepEqual(await doMercado(donoFeira, mFeira.id), [true, true]);
    assert.deepEqual(await doMercado(admin.mercados, mCesta.id), [true, true]);
  });

  test('num ciclo sem mercados, o que foi pedido da linha fica fora de mercados (mercadoId null)', async () => {
    const c = await cenario();
    const fornecedor = await pessoa(['fornecedor'], 'Fornecedor Sem Mercado');
    const consumidor = await pessoa(['consumidor'], 'Consumidora Sem Mercado');
    const admin = await pessoa(['admin'], 'Coordenação Sem Mercado');
    const oferta = dados<{ produtos: Array<{ ofertaProdutoId: string }> }>(
      await gql(
        fornecedor.mercados,
        'mutation($c: ID!, $i: OfertaInput!) { salvarOferta(cicloId: $c, input: $i, finalizar: true) { produtos { ofertaProdutoId } } }',
        { c: c.cicloid, i: { produtos: [{ produtoid: c.tomate.id, quantidade: '20', valor: '3.33' }] } },
      ),
      'salvarOferta',
    );
    const compor = await admin.cestas.postJson(cestas(`/composicao/${c.cicloCestaId}`), {
      quantidadeCestas: 10,
      produtos: [
        { ofertaProdutoId: Number(oferta.produtos[0]?.ofertaProdutoId), quantidadePorCesta: 1.5, unidade: 'kg' },
      ],
    });
    assert.equal(compor.status, 200, compor.texto);
    const feito = dados<{ id: string }>(
      await gql(
        consumidor.mercados,
        'mutation($c: ID!, $i: PedidoInput!) { fazerPedido(cicloId: $c, input: $i) { id } }',
        { c: c.cicloid, i: { pontoEntregaId: c.sede, produtos: [{ cicloCestaId: c.cicloCestaId, quantidade: 3 }] } },
      ),
      'fazerPedido',
    );
    const ENTREGAS =
      'query($c: ID!) { minhasEntregas(cicloId: $c) { pedido valorPedido mercados { mercadoId mercado pedido valorPedido } } }';
    // Not confirmed yet: nothing ordered, no market.
    assert.deepEqual(dados(await gql(fornecedor.mercados, ENTREGAS, { c: c.cicloid }), 'minhasEntregas'), [
      { pedido: '0.000', valorPedido: '0.00', mercados: [] },
    ]);
    dados(
      await gql(consumidor.mercados, 'mutation($p: ID!) { confirmarPedido(pedidoId: $p) { id } }', { p: feito.id }),
      'confirmarPedido',
    );
    // 3 baskets × 1.5 kg = 4.5 kg at R$ 3.33 = R$ 14.985, rounded to R$ 14.99.
    assert.deepEqual(dados(await gql(fornecedor.mercados, ENTREGAS, { c: c.cicloid }), 'minhasEntregas'), [
      {
        pedido: '4.500',
        valorPedido: '14.99',
        mercados: [{ mercadoId: null, mercado: null, pedido: '4.500', valorPedido: '14.99' }],
      },
    ]);

    // minhasOfertas in pages: a draft in a newer cycle comes first; `after` continues from its cycle.
    const novo = await cenario();
    dados(
      await gql(
        fornecedor.mercados,
        'mutation($c: ID!, $i: OfertaInput!) { salvarOferta(cicloId: $c, input: $i) { id } }',
        { c: novo.cicloid, i: { produtos: [{ produtoid: novo.alface.id, quantidade: '2.5', valor: '1.10' }] } },
      ),
      'salvarOferta',
    );
    const PAGINA = 'query($a: String) { minhasOfertas(first: 1, after: $a) { cicloId finalizada total ciclo { id } } }';
    const primeira = dados<Array<{ cicloId: string }>>(await gql(fornecedor.mercados, PAGINA), 'minhasOfertas');
    assert.deepEqual(primeira, [
      { cicloId: String(novo.cicloid), finalizada: false, total: '2.75', ciclo: { id: String(novo.cicloid) } },
    ]);
    const segunda = dados<Array<{ cicloId: string }>>(
      await gql(fornecedor.mercados, PAGINA, { a: primeira[0]?.cicloId }),
      'minhasOfertas',
    );
    assert.deepEqual(segunda, [
      { cicloId: String(c.cicloid), finalizada: true, total: '66.60', ciclo: { id: String(c.cicloid) } },
    ]);
    assert.deepEqual(dados(await gql(fornecedor.mercados, PAGINA, { a: segunda[0]?.cicloId }), 'minhasOfertas'), []);
    // Someone else's offers never show.
    const outro = await pessoa(['fornecedor'], 'Outro Fornecedor');
    assert.deepEqual(dados(await gql(outro.mercados, '{ minhasOfertas { cicloId } }'), 'minhasOfertas'), []);
  });

  test('recusas: cadastro pendente, posse de ids dentro do input antes da validação, janela e capacidade com o que sobra', async () => {
    const c = await cenario();
    const fornecedor = await pessoa(['fornecedor'], 'Fornecedor Um');
    const outroFornecedor = await pessoa(['fornecedor'], 'Fornecedor Dois');
    const consumidor = await pessoa(['consumidor'], 'Consumidora Um');
    const outra = await pessoa(['consumidor'], 'Consumidora Dois');
    const admin = await pessoa(['admin'], 'Coordenação');
    const OFERTA =
      'mutation($c: ID!, $i: OfertaInput!) { salvarOferta(cicloId: $c, input: $i, finalizar: true) { id usuarioid } }';
    const oferta = dados<{ usuarioid: string }>(
      await gql(fornecedor.mercados, OFERTA, {
        c: c.cicloid,
        i: { produtos: [{ produtoid: c.tomate.id, quantidade: 10, valor: 4 }] },
      }),
      'salvarOferta',
    );
    assert.equal(oferta.usuarioid, String(fornecedor.id));
    const linha = await amb.banco
      .selectFrom('ofertaproduto as op')
      .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
      .select('op.id')
      .where('o.cicloid', '=', c.cicloid)
      .executeTakeFirstOrThrow();
    assert.equal(
      (
        await admin.cestas.postJson(cestas(`/composicao/${c.cicloCestaId}`), {
          quantidadeCestas: 10,
          produtos: [{ ofertaProdutoId: linha.id, quantidadePorCesta: 1, unidade: 'kg' }],
        })
      ).status,
      200,
    );

    // An account with no Cestas record cannot act on cycles: a clean FORBIDDEN, never a 500.
    const semCadastro = new Navegador();
    await contaComSessao(amb, semCadastro, amb.urlMercados, { perfis: ['Consumidor', 'Fornecedor'] });
    const FAZER = 'mutation($c: ID!, $i: PedidoInput!) { fazerPedido(cicloId: $c, input: $i) { id usuarioid } }';
    const pendente = erro(
      await gql(semCadastro, FAZER, {
        c: c.cicloid,
        i: { pontoEntregaId: c.sede, produtos: [{ cicloCestaId: c.cicloCestaId, quantidade: 1 }] },
      }),
    );
    assert.deepEqual([pendente.code, pendente.motivo], ['FORBIDDEN', 'CADASTRO_PENDENTE']);
    assert.equal(
      erro(await gql(semCadastro, 'query($c: ID) { meusPedidos(cicloId: $c) { id } }', { c: c.cicloid })).motivo,
      'CADASTRO_PENDENTE',
    );

    // Someone else's id inside the input is refused before anything else in it is judged (the repeated line, the missing point).
    const repetidas = [
      { cicloCestaId: c.cicloCestaId, quantidade: 1 },
      { cicloCestaId: c.cicloCestaId, quantidade: 1 },
    ];
    const porOutra = erro(
      await gql(consumidor.mercados, FAZER, {
        c: 999_999,
        i: { usuarioid: outra.id, pontoEntregaId: 999_999, produtos: repetidas },
      }),
    );
    assert.deepEqual([porOutra.code, porOutra.message], ['FORBIDDEN', 'Você só pode fazer os seus próprios pedidos']);
    const ofertaAlheia = erro(
      await gql(fornecedor.mercados, OFERTA, {
        c: 999_999,
        i: {
          usuarioid: outroFornecedor.id,
          produtos: [
            { produtoid: 999_999, quantidade: 1, valor: 1 },
            { produtoid: 999_999, quantidade: 1, valor: 1 },
          ],
        },
      }),
    );
    assert.deepEqual(
      [ofertaAlheia.code, ofertaAlheia.message],
      ['FORBIDDEN', 'Você só pode registrar as suas próprias ofertas'],
    );
    // The administration acts for a consumer it names.
    const peloAdmin = dados<{ id: string; usuarioid: string }>(
      await gql(admin.mercados, FAZER, {
        c: c.cicloid,
        i: { usuarioid: outra.id, pontoEntregaId: c.sede, produtos: [{ cicloCestaId: c.cicloCestaId, quantidade: 1 }] },
      }),
      'fazerPedido',
    );
    assert.equal(peloAdmin.usuarioid, String(outra.id));
    // Never confirmed: not an order changed after a confirmation, for the consumer or the administration.
    const estadoDoAdmin = await gql(
      admin.mercados,
      'mutation($c: ID!, $i: PedidoInput!) { fazerPedido(cicloId: $c, input: $i) { id finalizado alteradoAposConfirmar } }',
      {
        c: c.cicloid,
        i: { usuarioid: outra.id, pontoEntregaId: c.sede, produtos: [{ cicloCestaId: c.cicloCestaId, quantidade: 1 }] },
      },
    );
    assert.deepEqual(dados(estadoDoAdmin, 'fazerPedido'), {
      id: peloAdmin.id,
      finalizado: false,
      alteradoAposConfirmar: false,
    });
    // Another consumer's order is not found for the consumer, as on the Cestas face.
    const alheio = erro(
      await gql(consumidor.mercados, 'mutation($p: ID!) { confirmarPedido(pedidoId: $p) { id } }', { p: peloAdmin.id }),
    );
    assert.deepEqual([alheio.code, alheio.motivo], ['NOT_FOUND', 'PEDIDO_NAO_ENCONTRADO']);
    assert.equal(
      (
        await amb.banco
          .selectFrom('pedido')
          .select('finalizado')
          .where('id', '=', Number(peloAdmin.id))
          .executeTakeFirstOrThrow()
      ).finalizado
        ? 1
        : 0,
      0,
    );

    // Capacity: 10 baskets, 1 taken; 10 more is refused with what is left.
    const demais = erro(
      await gql(consumidor.mercados, FAZER, {
        c: c.cicloid,
        i: { pontoEntregaId: c.sede, produtos: [{ cicloCestaId: c.cicloCestaId, quantidade: 10 }] },
      }),
    );
    assert.equal(demais.code, 'CONFLICT');
    assert.match(demais.message, /9/);
    assert.ok(demais.extensions.detalhes !== undefined, JSON.stringify(demais.extensions));
    // Field paths of the arguments: a fraction of a basket.
    const fracao = erro(
      await gql(consumidor.mercados, FAZER, {
        c: c.cicloid,
        i: { pontoEntregaId: c.sede, produtos: [{ cicloCestaId: c.cicloCestaId, quantidade: '1.5' }] },
      }),
    );
    assert.deepEqual([fracao.code, fracao.extensions.field], ['BAD_USER_INPUT', 'input.produtos[0].quantidade']);

    // The window: a closed order window refuses the consumer, with its business code.
    const hoje = diaLocal(amb.relogio.agora(), 'America/Sao_Paulo');
    await amb.banco
      .updateTable('ciclo')
      .set({
        dataOfertaInicio: somarDias(hoje, -6),
        dataOfertaFim: somarDias(hoje, -5),
        dataPedidoInicio: somarDias(hoje, -4),
        dataPedidoFim: somarDias(hoje, -1),
      })
      .where('id', '=', c.cicloid)
      .execute();
    const fechada = erro(
      await gql(consumidor.mercados, FAZER, {
        c: c.cicloid,
        i: { pontoEntregaId: c.sede, produtos: [{ cicloCestaId: c.cicloCestaId, quantidade: 1 }] },
      }),
    );
    assert.deepEqual([fechada.code, fechada.motivo], ['CONFLICT', 'JANELA_FECHADA']);
    const ofertaFechada = erro(
      await gql(fornecedor.mercados, OFERTA, {
        c: c.cicloid,
        i: { produtos: [{ produtoid: c.tomate.id, quantidade: 12, valor: 4 }] },
      }),
    );
    assert.deepEqual([ofertaFechada.code, ofertaFechada.motivo], ['CONFLICT', 'JANELA_FECHADA']);
    // With both windows closed the cycle is no longer one the consumer or the supplier can act in.
    assert.ok(
      !dados<Array<{ id: string }>>(await gql(consumidor.mercados, '{ ciclos { id } }'), 'ciclos').some(
        (x) => x.id === String(c.cicloid),
      ),
    );
    assert.ok(
      dados<Array<{ id: string }>>(await gql(admin.mercados, '{ ciclos { id } }'), 'ciclos').some(
        (x) => x.id === String(c.cicloid),
      ),
      'a administração vê todos',
    );
  });
});
