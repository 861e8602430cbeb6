import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CaixaDeTeste } from '../helpers/correio.ts';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { textoDoPdf } from '../helpers/pdf.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { entrarNoMercados, graphql, type RespostaGraphql } from '../mercados/apoio.ts';

/**
 * DOMAIN.md, "Order", two money rules seen from outside (real HTTP, real GraphQL, real e-mail,
 * an injected clock; DATAS_PADRAO: orders 6–9 March, pickup 11–12):
 * - orders of a cycle basket never exceed what the composition packs (its quantidadeCestas), not
 *   the cycle's ceiling, on every face and for subscriptions;
 * - an unconfirmed order holds its stock only while the order window is open: once it closes, the
 *   stock is free again, and the order is neither delivered nor charged, as people are told.
 */

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: string;
  details?: Record<string, unknown>;
}
interface PaginaPedido {
  cestas: Array<{ cicloCestaId: number; disponivel: number; emComposicao: boolean }>;
}

/** Noon in São Paulo on a day of March 2026. */
const dia = (d: string) => `2026-03-${d}T15:00:00Z`;

describe('estoque dos pedidos: só o que foi composto, e só pedidos confirmados depois da janela', () => {
  let caixa: CaixaDeTeste;
  let amb: AmbienteDeTeste;
  const relogio = new RelogioDeTeste(dia('07'));
  let admin: Pessoa;
  let ponto = 0;
  before(async () => {
    caixa = await CaixaDeTeste.iniciar();
    amb = await iniciarAmbiente({ relogio, mercados: true, env: { SMTP_URL: caixa.url, AVISOS_INTERVALO_S: '3600' } });
    admin = await entrarComo(amb, ['admin'], 'Coordenação');
    ponto = (await criarPonto(amb.banco)).id;
  });
  after(async () => {
    await amb.fechar();
    await caixa.fechar();
  });
  const url = (p: string) => `${amb.url}${p}`;

  /** A cycle (DATAS_PADRAO) allowing `teto` baskets of a new type, and a finalised offer line of 100 kg to compose with. */
  async function cicloSemComposicao(teto: number) {
    const cesta = await criarCesta(amb.banco, { valorCentavos: 5000 });
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: teto }],
    });
    const produto = await criarProduto(amb.banco, { unidade: 'kg' });
    const oferta = await criarOfertaFinalizada(amb.banco, ciclo.id, [
      { produtoId: produto.id, quantidadeMilesimos: 100_000, valorCentavos: 100 },
    ]);
    return {
      cestaId: cesta.id,
      cesta: cesta.nome,
      cicloid: ciclo.id,
      cicloCestaId: ciclo.cicloCestas[0] ?? 0,
      linha: oferta.linhas[0] ?? 0,
    };
  }
  /** The coordination composes `n` baskets (one kilo each) through the JSON route. */
  const compor = (c: { cicloCestaId: number; linha: number }, n: number, itens = true) =>
    admin.nav.postJson(url('/composicaosave'), {
      cicloCestaId: c.cicloCestaId,
      quantidadeCestas: n,
      produtos: itens ? [{ ofertaProdutoId: c.linha, quantidadePorCesta: 1, unidade: 'kg' }] : [],
    });
  const pedir = (p: Pessoa, c: { cicloid: number; cicloCestaId: number }, n: number) =>
    p.nav.postJson(url('/pedidoconsumidores'), {
      cicloid: c.cicloid,
      pontoEntregaId: ponto,
      produtos: [{ cicloCestaId: c.cicloCestaId, quantidade: n }],
    });
  const disponivel = async (p: Pessoa, c: { cicloid: number; cicloCestaId: number }) =>
    (await p.nav.getJson(url(`/pedidoconsumidores/${c.cicloid}`)))
      .json<Envelope<PaginaPedido>>()
      .data.cestas.find((x) => x.cicloCestaId === c.cicloCestaId)?.disponivel;

  test('Cestas: compostas 20 de 30, a página diz 20 disponíveis, 20 são vendidas e a 21ª é recusada dizendo o que resta; a composição não desce abaixo do pedido', async () => {
    relogio.definir(dia('07'));
    const c = await cicloSemComposicao(30);
    const [ana, bia, caio] = [
      await entrarComo(amb, ['consumidor'], 'Ana'),
      await entrarComo(amb, ['consumidor'], 'Bia'),
      await entrarComo(amb, ['consumidor'], 'Caio'),
    ];
    // Nothing composed yet: nothing to order.
    assert.equal(await disponivel(ana, c), 0);
    assert.equal((await pedir(ana, c, 1)).status, 409);
    const composta = await compor(c, 20);
    assert.equal(composta.status, 200, composta.texto);
    assert.equal(await disponivel(ana, c), 20);
    const html = await ana.nav.get(url(`/pedidoconsumidores/${c.cicloid}`), { headers: { accept: 'text/html' } });
    assert.match(html.texto, /20 disponíveis/);
    assert.doesNotMatch(html.texto, /30 disponíveis/);
    assert.equal((await pedir(ana, c, 12)).status, 201);
    assert.equal((await pedir(bia, c, 7)).status, 201);
    const demais = await pedir(caio, c, 2);
    assert.equal(demais.status, 409, demais.texto);
    const recusa = demais.json<Envelope>();
    assert.equal(recusa.error, `Não há o suficiente: ${c.cesta} (disponível: 1 cesta)`);
    assert.deepEqual(recusa.details, { disponivel: [{ nome: c.cesta, disponivel: 1, pedido: 2, unidade: 'cesta' }] });
    assert.equal((await pedir(caio, c, 1)).status, 201);
    assert.equal(await disponivel(caio, c), 0);
    const vigesimaPrimeira = await pedir(await entrarComo(amb, ['consumidor'], 'Davi'), c, 1);
    assert.equal(vigesimaPrimeira.status, 409);
    assert.match(vigesimaPrimeira.json<Envelope>().error, /disponível: 0 cesta/);
    // What is ordered is what will be packed: the composition cannot go below it, nor lose its items.
    const abaixo = await compor(c, 19);
    assert.equal(abaixo.status, 409);
    assert.equal(
      abaixo.json<Envelope>().error,
      'Já há 20 cestas pedidas: a composição precisa de pelo menos essa quantidade',
    );
    const vazia = await compor(c, 20, false);
    assert.equal(vazia.status, 409);
    assert.match(vazia.json<Envelope>().error, /Já há 20 cestas pedidas: a composição precisa de pelo menos um item/);
    assert.equal((await compor(c, 25)).status, 200);
    assert.equal(await disponivel(caio, c), 5);
  });

  test('GraphQL: disponivel é o da composição, e fazerPedido além dela é recusado com o que resta', async () => {
    relogio.definir(dia('07'));
    const c = await cicloSemComposicao(30);
    const pessoa = async (nome: string) => {
      const u = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome });
      const nav = new Navegador();
      await entrarPeloProvedor(nav, url('/'), { email: u.email });
      const mercados = new Navegador();
      await entrarNoMercados(amb, mercados, { email: u.email, nome });
      return mercados;
    };
    const gql = (nav: Navegador, query: string, variables?: Record<string, unknown>) =>
      graphql(amb.urlMercados, nav, query, variables);
    const CESTAS = 'query($c: ID!) { ciclo(id: $c) { cestas { cicloCestaId disponivel emComposicao } } }';
    const FAZER = 'mutation($c: ID!, $i: PedidoInput!) { fazerPedido(cicloId: $c, input: $i) { id } }';
    const livres = async (nav: Navegador) => {
      const r = await gql(nav, CESTAS, { c: c.cicloid });
      assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
      return (r.corpo.data?.ciclo as { cestas: Array<{ disponivel: number; emComposicao: boolean }> }).cestas.map(
        (x) => [x.disponivel, x.emComposicao],
      );
    };
    const fazer = (nav: Navegador, n: number): Promise<RespostaGraphql> =>
      gql(nav, FAZER, {
        c: c.cicloid,
        i: { pontoEntregaId: ponto, produtos: [{ cicloCestaId: c.cicloCestaId, quantidade: n }] },
      });
    const eva = await pessoa('Eva');
    assert.deepEqual(await livres(eva), [[0, true]]);
    assert.equal((await compor(c, 20)).status, 200);
    assert.deepEqual(await livres(eva), [[20, false]]);
    const feito = await fazer(eva, 20);
    assert.equal(feito.corpo.errors, undefined, JSON.stringify(feito.corpo.errors));
    const fabio = await pessoa('Fábio');
    const recusado = await fazer(fabio, 1);
    assert.equal(recusado.corpo.errors?.length, 1, JSON.stringify(recusado.corpo));
    assert.equal(recusado.corpo.errors?.[0]?.message, `Não há o suficiente: ${c.cesta} (disponível: 0 cesta)`);
    assert.equal(recusado.corpo.errors?.[0]?.extensions?.motivo, 'SEM_ESTOQUE');
    assert.deepEqual(await livres(fabio), [[0, false]]);
  });

  test('assinaturas: a geração respeita a composição; a que não cabe inteira falta, com o motivo', async () => {
    relogio.definir(dia('07'));
    const c = await cicloSemComposicao(30);
    assert.equal((await compor(c, 20)).status, 200);
    const corpo = (quantidade: number) => ({
      cestaId: c.cestaId,
      quantidade,
      pontoEntregaId: ponto,
      frequencia: 'cada_ciclo',
      inicio: '2026-01-01',
      fim: '2026-12-31',
    });
    const gil = await entrarComo(amb, ['consumidor'], 'Gil');
    const hel = await entrarComo(amb, ['consumidor'], 'Hel');
    // The window is open: each subscription is generated at once.
    assert.equal((await gil.nav.postJson(url('/assinaturas'), corpo(15))).status, 201);
    assert.equal((await hel.nav.postJson(url('/assinaturas'), corpo(6))).status, 201);
    type Pagina = {
      itens: Array<{ proximosCiclos: Array<{ cicloid: number; situacao: string; motivo: string | null }> }>;
    };
    const noCiclo = async (p: Pessoa) =>
      (await p.nav.getJson(url('/assinaturas')))
        .json<Envelope<Pagina>>()
        .data.itens[0]?.proximosCiclos.find((x) => x.cicloid === c.cicloid);
    assert.equal((await noCiclo(gil))?.situacao, 'gerado');
    const faltou = await noCiclo(hel);
    assert.deepEqual(
      [faltou?.situacao, faltou?.motivo],
      ['faltou', `Não há cestas para todas: pedidas 6 cestas da ${c.cesta}, disponíveis 5 cestas`],
    );
    assert.equal(await disponivel(gil, c), 5);
    // Changing the cycle of the one that fitted cannot go past the composition either.
    const a =
      (await gil.nav.getJson(url('/assinaturas'))).json<Envelope<{ itens: Array<{ id: number }> }>>().data.itens[0]
        ?.id ?? 0;
    const mais = await gil.nav.postJson(url(`/assinaturas/${a}/ciclo/${c.cicloid}`), {
      quantidade: 21,
      pontoEntregaId: ponto,
    });
    assert.equal(mais.status, 409);
    assert.deepEqual(mais.json<Envelope>().details, {
      disponivel: [{ nome: c.cesta, disponivel: 20, pedido: 21, unidade: 'cesta' }],
    });
  });

  test('um pedido sem confirmação segura o estoque só enquanto a janela está aberta; depois não é entregue nem cobrado, e todos são avisados', async () => {
    relogio.definir(dia('07'));
    const c = await cicloSemComposicao(3);
    assert.equal((await compor(c, 3)).status, 200);
    const ana = await entrarComo(amb, ['consumidor'], 'Ana Sem Confirmar');
    const bia = await entrarComo(amb, ['consumidor'], 'Bia Confirmou');
    const caio = await entrarComo(amb, ['consumidor'], 'Caio Depois');
    const anaPedido = (await pedir(ana, c, 2)).json<Envelope<{ pedidoId: number }>>().data.pedidoId;
    const biaPedido = (await pedir(bia, c, 1)).json<Envelope<{ pedidoId: number }>>().data.pedidoId;
    assert.equal((await bia.nav.postJson(url('/pedidoconsumidoresconfirmacao'), { pedidoId: biaPedido })).status, 200);
    // Inside the window an unconfirmed order holds its stock, as before.
    assert.equal(await disponivel(caio, c), 0);
    assert.equal((await pedir(caio, c, 1)).status, 409);
    const paginaDaAna = async () =>
      (await ana.nav.get(url(`/pedidoconsumidores/${c.cicloid}`), { headers: { accept: 'text/html' } })).texto;
    assert.match(
      await paginaDaAna(),
      /Se este pedido não for confirmado até 09\/03\/2026 às 23:59, ele não será entregue nem cobrado/,
    );
    assert.doesNotMatch(
      (await bia.nav.get(url(`/pedidoconsumidores/${c.cicloid}`), { headers: { accept: 'text/html' } })).texto,
      /não será entregue nem cobrado/,
    );
    const confirmacao = (
      await ana.nav.get(url(`/pedidoconsumidoresconfirmacao/${anaPedido}`), { headers: { accept: 'text/html' } })
    ).texto;
    assert.match(
      confirmacao,
      /Se este pedido não for confirmado até 09\/03\/2026 às 23:59, ele não será entregue nem cobrado/,
    );

    // The last day: the reminder says it in words.
    relogio.definir(dia('09'));
    const correio = amb.servicos.correio;
    assert.ok(correio);
    await correio.lembrar();
    await correio.enviarPendentes();
    const { nome } = await amb.banco
      .selectFrom('ciclo')
      .select('nome')
      .where('id', '=', c.cicloid)
      .executeTakeFirstOrThrow();
    const lembrete = caixa.para(ana.email).find((m) => m.assunto === `Último dia para pedir: ${nome}`);
    assert.ok(lembrete, 'o lembrete chegou');
    assert.match(
      lembrete.texto.replace(/\s+/g, ' '),
      /se ele não for confirmado até as 23:59 de hoje, não será entregue nem cobrado, e as cestas e os itens que ele reserva voltam a ficar livres/,
    );
    assert.equal(caixa.para(bia.email).filter((m) => m.assunto === `Último dia para pedir: ${nome}`).length, 0);

    // The window has closed: Ana's 2 baskets are free again, and her page says what happened.
    relogio.definir(dia('10'));
    assert.equal(await disponivel(caio, c), 2);
    assert.match(
      await paginaDaAna(),
      /Os pedidos fecharam em 09\/03\/2026 e este pedido não foi confirmado: ele não será entregue nem cobrado/,
    );
    // The coordination can sell the freed baskets (to a consumer, outside the window) and confirm them.
    const porCaio = await admin.nav.postJson(url('/pedidoconsumidores'), {
      usuarioid: caio.id,
      cicloid: c.cicloid,
      pontoEntregaId: ponto,
      produtos: [{ cicloCestaId: c.cicloCestaId, quantidade: 2 }],
    });
    assert.equal(porCaio.status, 201, porCaio.texto);
    const caioPedido = porCaio.json<Envelope<{ pedidoId: number }>>().data.pedidoId;
    assert.equal(
      (await admin.nav.postJson(url('/pedidoconsumidoresconfirmacao'), { pedidoId: caioPedido })).status,
      200,
    );
    // Confirming Ana's order now would sell more than is packed: refused with what is left.
    const tarde = await admin.nav.postJson(url('/pedidoconsumidoresconfirmacao'), { pedidoId: anaPedido });
    assert.equal(tarde.status, 409, tarde.texto);
    assert.deepEqual(tarde.json<Envelope>().details, {
      disponivel: [{ nome: c.cesta, disponivel: 0, pedido: 2, unidade: 'cesta' }],
    });
    assert.match(tarde.json<Envelope>().error, /não foi confirmado a tempo/);

    // Delivered and charged: the confirmed baskets only (1 + 2), in the PDF and the supplier's report.
    const cookie = `appSession=${admin.nav.cookie(amb.url, 'appSession') ?? ''}`;
    const pdf = await fetch(url(`/entregaCicloPDF/${c.cicloid}`), { headers: { cookie } });
    assert.equal(pdf.status, 200);
    const { texto } = await textoDoPdf(new Uint8Array(await pdf.arrayBuffer()));
    assert.match(texto, new RegExp(`Montagem: ${c.cesta}\\s+Montar 3 cestas`));
    type Relatorio = { grupos: Array<{ linhas: Array<Record<string, unknown>> }> };
    const fornecedores = (await admin.nav.getJson(url(`/pedidosfornecedorestodos/${c.cicloid}`))).json<
      Envelope<Relatorio>
    >().data;
    assert.deepEqual(
      fornecedores.grupos.flatMap((g) => g.linhas).map((l) => l.quantidade),
      [3],
    );

    // Closing debits the confirmed orders and says, by name, which order was left out.
    const fechado = await admin.nav.postJson(url(`/fecharciclo/${c.cicloid}`), {});
    assert.equal(fechado.status, 200, fechado.texto);
    const resumo = fechado.json<
      Envelope<{ debitos: number; naoConfirmados: Array<{ pedidoId: number; nome: string; totalComTaxa: number }> }> & {
        message: string;
      }
    >();
    assert.deepEqual(resumo.data.naoConfirmados, [
      { pedidoId: anaPedido, nome: 'Ana Sem Confirmar', totalComTaxa: 100 },
    ]);
    assert.equal(resumo.data.debitos, 150);
    assert.match(
      resumo.message,
      /1 pedido sem confirmação ficou de fora \(não será entregue nem cobrado\): Ana Sem Confirmar/,
    );
    const movimentos = await amb.banco
      .selectFrom('movimentacao')
      .select('usuarioid')
      .where('cicloid', '=', c.cicloid)
      .execute();
    assert.ok(!movimentos.some((m) => m.usuarioid === ana.id), 'o pedido sem confirmação não é cobrado');
  });

  test('depois da janela, os extras de um pedido sem confirmação saem de "para extras" na sobra e nos produtos', async () => {
    relogio.definir(dia('07'));
    const c = await cicloSemComposicao(3);
    const { produtoid } = await amb.banco
      .selectFrom('ofertaproduto')
      .select('produtoid')
      .where('id', '=', c.linha)
      .executeTakeFirstOrThrow();
    // 10 kg of the 100 kg line published as an extra (the cycle form publishes them; here, straight to the table).
    const iso = new Date().toISOString();
    const extra = await amb.banco
      .insertInto('cicloproduto')
      .values({
        cicloid: c.cicloid,
        produtoId: produtoid,
        quantidadeMilesimos: 10_000,
        valorCentavos: 300,
        mercadoId: null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const extras = (p: Pessoa, kg: number) =>
      p.nav.postJson(url('/pedidoconsumidores'), {
        cicloid: c.cicloid,
        pontoEntregaId: ponto,
        produtos: [{ cicloProdutoId: extra.id, quantidade: kg }],
      });
    const [dani, edu] = [
      await entrarComo(amb, ['consumidor'], 'Dani Sem Confirmar'),
      await entrarComo(amb, ['consumidor'], 'Edu Confirmou'),
    ];
    assert.equal((await extras(dani, 2)).status, 201);
    const doEdu = await extras(edu, 1);
    assert.equal(doEdu.status, 201, doEdu.texto);
    assert.equal(
      (
        await edu.nav.postJson(url('/pedidoconsumidoresconfirmacao'), {
          pedidoId: doEdu.json<Envelope<{ pedidoId: number }>>().data.pedidoId,
        })
      ).status,
      200,
    );

    type Relatorio = { grupos: Array<{ linhas: Array<Record<string, unknown>> }> };
    const paraExtras = async () =>
      (await admin.nav.getJson(url(`/pedidosfornecedoressobra/${c.cicloid}`)))
        .json<Envelope<Relatorio>>()
        .data.grupos.flatMap((g) => g.linhas)
        .map((l) => [l.paraExtras, l.sobra]);
    const pedidosComoExtra = async () =>
      (await admin.nav.postJson(url('/relatorioprodutosciclos'), { ciclos: [c.cicloid] }))
        .json<Envelope<Relatorio>>()
        .data.grupos.flatMap((g) => g.linhas)
        .map((l) => l.extras);
    // While the window is open both orders hold their kilos.
    assert.deepEqual(await paraExtras(), [[3, 97]]);
    assert.deepEqual(await pedidosComoExtra(), [3]);
    // Once it has closed, only the confirmed kilo is for extras; Dani's two are left over again.
    relogio.definir(dia('10'));
    assert.deepEqual(await paraExtras(), [[1, 99]]);
    assert.deepEqual(await pedidosComoExtra(), [1]);
  });
});
