import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CaixaDeTeste } from '../helpers/correio.ts';
import {
  criarCesta,
  criarCiclo,
  criarPonto,
  criarUsuario,
  datasComPedidoAbertoHoje,
  emailUnico,
} from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { entrarNoMercados, graphql } from './apoio.ts';

interface MeusAvisos {
  recebe: string[];
  ligado: boolean;
  cadastro: boolean;
  tipos: Array<{ tipo: string; nome: string; opcional: boolean }>;
}
const CAMPOS = 'recebe ligado cadastro tipos { tipo nome opcional }';
const OPCIONAIS = [
  'oferta_aberta',
  'oferta_lembrete',
  'pedido_aberto',
  'pedido_lembrete',
  'entregas',
  'retirada',
  'assinatura_ciclo',
];

/**
 * The e-mail notices from the Mercados side: the same person's choice as /profile/avisos in the
 * Cestas face, read and written through GraphQL by the same domain function.
 */
describe('avisos por e-mail na face Mercados', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
  });
  after(() => amb.fechar());

  test('quem tem cadastro na Cestas escolhe os avisos no Mercados, e a Cestas vê a mesma escolha', async () => {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Sara Avisos' });
    const noMercados = new Navegador();
    await entrarNoMercados(amb, noMercados, { email: pessoa.email, nome: 'Sara Avisos' });
    const lidos = await graphql(amb.urlMercados, noMercados, `{ meusAvisos { ${CAMPOS} } }`);
    assert.equal(lidos.corpo.errors, undefined, JSON.stringify(lidos.corpo.errors));
    const avisos = lidos.corpo.data?.meusAvisos as MeusAvisos;
    assert.deepEqual([avisos.recebe, avisos.cadastro, avisos.ligado], [OPCIONAIS, true, false]);
    assert.deepEqual(
      avisos.tipos.filter((t) => !t.opcional).map((t) => t.tipo),
      ['recibo', 'pedido_alterado', 'coordenacao', 'assinatura_falta', 'assinatura_recibo'],
    );
    // Naming a mandatory kind asks for nothing more; the others are turned off.
    const escolha = await graphql(
      amb.urlMercados,
      noMercados,
      `mutation($r: [String!]!) { definirMeusAvisos(recebe: $r) { ${CAMPOS} } }`,
      { r: ['retirada', 'recibo', 'pedido_aberto'] },
    );
    assert.equal(escolha.corpo.errors, undefined, JSON.stringify(escolha.corpo.errors));
    assert.deepEqual((escolha.corpo.data?.definirMeusAvisos as MeusAvisos).recebe, ['pedido_aberto', 'retirada']);
    const naCestas = new Navegador();
    await entrarPeloProvedor(naCestas, `${amb.url}/`, { email: pessoa.email });
    const cestas = (await naCestas.getJson(`${amb.url}/profile/avisos`)).json<{ data: { recebe: string[] } }>().data;
    assert.deepEqual(cestas.recebe, ['pedido_aberto', 'retirada']);
    // The audit says who chose what.
    const linha = await amb.banco
      .selectFrom('auditoria')
      .select(['acao', 'depois'])
      .where('entidade', '=', 'usuario')
      .where('entidadeId', '=', String(pessoa.id))
      .where('acao', '=', 'escolher avisos')
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(linha.depois ?? '{}'), { avisos: ['pedido_aberto', 'retirada'] });
    // An unknown kind is refused by name, and nothing changes.
    const estranho = await graphql(
      amb.urlMercados,
      noMercados,
      'mutation { definirMeusAvisos(recebe: ["propaganda"]) { recebe } }',
    );
    assert.equal(estranho.corpo.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    assert.match(String(estranho.corpo.errors?.[0]?.extensions?.field), /recebe/);
    assert.deepEqual(
      (await naCestas.getJson(`${amb.url}/profile/avisos`)).json<{ data: { recebe: string[] } }>().data.recebe,
      ['pedido_aberto', 'retirada'],
    );
  });

  test('uma conta só do Mercados não tem avisos: a leitura diz isso, e escolher é recusado com o motivo', async () => {
    const nav = new Navegador();
    await entrarNoMercados(amb, nav, { email: emailUnico('so-mercados'), nome: 'Téo Só Mercados' });
    const lidos = await graphql(amb.urlMercados, nav, `{ meusAvisos { ${CAMPOS} } }`);
    assert.deepEqual(
      { ...(lidos.corpo.data?.meusAvisos as MeusAvisos), tipos: [] },
      { recebe: [], ligado: false, cadastro: false, tipos: [] },
    );
    const escolha = await graphql(amb.urlMercados, nav, 'mutation { definirMeusAvisos(recebe: []) { recebe } }');
    assert.equal(escolha.corpo.errors?.[0]?.extensions?.code, 'CONFLICT');
    assert.match(String(escolha.corpo.errors?.[0]?.message), /^Sua conta ainda não tem cadastro na face Cestas/);
    // Signed out: the spec's authentication error.
    const anonimo = await graphql(amb.urlMercados, new Navegador(), '{ meusAvisos { recebe } }');
    assert.equal(anonimo.status, 401);
  });
});

/**
 * The e-mail service is built once for the process, not by the Cestas face: with only the
 * Mercados face running (VARIANTS=mercados), an order confirmed through GraphQL sends its receipt,
 * with the figures, the Pix and the links as the Cestas face writes them.
 */
describe('recibo de um pedido do GraphQL com só a face Mercados no ar', () => {
  let amb: AmbienteDeTeste;
  let caixa: CaixaDeTeste;
  before(async () => {
    caixa = await CaixaDeTeste.iniciar();
    amb = await iniciarAmbiente({
      soMercados: true,
      env: {
        SMTP_URL: caixa.url,
        AVISOS_INTERVALO_S: '3600',
        CESTAS_BASE_URL: 'https://cestas.exemplo.org',
        PIX_CHAVE: 'financeiro@cestas.org',
        PIX_NOME: 'Associação Raízes',
        PIX_CIDADE: 'São Carlos',
      },
    });
  });
  after(async () => {
    await amb.fechar();
    await caixa.fechar();
  });

  test('fazerPedido e confirmarPedido: o recibo chega pelo SMTP, com os valores em pt-BR, o Pix e o link para a Cestas', async () => {
    assert.equal(amb.url, '', 'a face Cestas não roda neste processo');
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Rui Recibo' });
    const nav = new Navegador();
    await entrarNoMercados(amb, nav, { email: pessoa.email, nome: 'Rui Recibo' });
    const cesta = await criarCesta(amb.banco, { valorCentavos: 61_728 });
    const ciclo = await criarCiclo(amb.banco, {
      datas: datasComPedidoAbertoHoje(),
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 5 }],
      compor: true,
    });
    const ponto = await criarPonto(amb.banco);
    const feito = await graphql(
      amb.urlMercados,
      nav,
      'mutation($c: ID!, $i: PedidoInput!) { fazerPedido(cicloId: $c, input: $i) { id } }',
      {
        c: ciclo.id,
        i: { pontoEntregaId: ponto.id, produtos: [{ cicloCestaId: ciclo.cicloCestas[0], quantidade: 2 }] },
      },
    );
    assert.equal(feito.corpo.errors, undefined, JSON.stringify(feito.corpo.errors));
    const pedidoId = (feito.corpo.data?.fazerPedido as { id: string }).id;
    const confirmado = await graphql(
      amb.urlMercados,
      nav,
      'mutation($p: ID!) { confirmarPedido(pedidoId: $p) { finalizado } }',
      { p: pedidoId },
    );
    assert.equal(confirmado.corpo.errors, undefined, JSON.stringify(confirmado.corpo.errors));
    assert.deepEqual(confirmado.corpo.data?.confirmarPedido, { finalizado: true });

    // The receipt goes out soon after the commit, without waiting for the outbox's round.
    const fim = Date.now() + 10_000;
    while (!caixa.para(pessoa.email).some((m) => m.assunto.startsWith('Pedido confirmado')) && Date.now() < fim)
      await new Promise((r) => setTimeout(r, 20));
    const recibos = caixa.para(pessoa.email).filter((m) => m.assunto.startsWith('Pedido confirmado'));
    assert.equal(recibos.length, 1, `chegaram ${caixa.chegadas.length} e-mails, e nenhum recibo`);
    const [recibo] = recibos;
    assert.ok(recibo);
    assert.match(recibo.assunto, /^Pedido confirmado: /);
    assert.match(
      recibo.texto,
      new RegExp(`- ${cesta.nome} · 2 × R\\$\\s617,28 · R\\$\\s1\\.234,56\n- Total dos itens · R\\$\\s1\\.234,56\n`),
    );
    assert.match(
      recibo.texto,
      /Como pagar por Pix:\nEste Pix paga tudo o que você deve hoje: R\$\s1\.\d{3},\d{2}, o saldo, e não um pedido só\.\n- Pedido confirmado no .+: R\$\s1\.\d{3},\d{2}\nTotal a pagar: R\$\s1\.\d{3},\d{2}/,
    );
    assert.ok(
      recibo.texto.includes(`Ver meu pedido: https://cestas.exemplo.org/pedidoconsumidoresconfirmacao/${pedidoId}`),
      recibo.texto,
    );
    // The sender notes it as sent once the SMTP server has answered.
    const lerRecibos = () =>
      amb.banco
        .selectFrom('mensagem')
        .select(['tipo', 'estado'])
        .where('usuarioid', '=', pessoa.id)
        .where('tipo', '=', 'recibo')
        .execute();
    let escritos = await lerRecibos();
    while (escritos.some((m) => m.estado !== 'enviada') && Date.now() < fim) {
      await new Promise((r) => setTimeout(r, 20));
      escritos = await lerRecibos();
    }
    assert.deepEqual(escritos, [{ tipo: 'recibo', estado: 'enviada' }]);
  });
});
