import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { salvarAssinatura } from '../../src/domain/assinaturas/escrita.ts';
import type { Perfil } from '../../src/domain/perfis.ts';
import { diaLocal, somarDias } from '../../src/domain/tempo.ts';
import { comporCestas, criarCesta, criarPonto, criarUsuario } from '../helpers/fabricas.ts';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { criarMercadoNoBanco, entrarNoMercados, graphql, type RespostaGraphql } from './apoio.ts';

/**
 * Subscriptions through GraphQL (issue 23), with real logins: a consumer subscribes, sees the
 * subscription with its next cycles (served at once in the cycle whose order window is open),
 * skips that cycle; every id of the input and of the arguments is checked for whose it is, and
 * refusals say why in Portuguese with the usual codes.
 */

interface CicloGql {
  cicloId: string;
  nome: string;
  dataPedidoInicio: string;
  situacao: string | null;
  quantidade: number;
  pontoEntregaId: string;
  pedidoId: string | null;
}
interface AssinaturaGql {
  id: string;
  usuarioid: string;
  cestaId: string;
  cesta: string;
  quantidade: number;
  pontoEntregaId: string;
  pontoEntrega: string;
  frequencia: string;
  inicio: string;
  fim: string;
  mercadoId: string | null;
  ativa: boolean;
  pausas: unknown[];
  proximosCiclos: CicloGql[];
}

const CAMPOS =
  'id usuarioid cestaId cesta quantidade pontoEntregaId pontoEntrega frequencia inicio fim mercadoId ativa pausas { id } proximosCiclos { cicloId nome dataPedidoInicio situacao quantidade pontoEntregaId pedidoId }';
const SALVAR = `mutation($i: AssinaturaInput!) { salvarAssinatura(input: $i) { ${CAMPOS} } }`;
const MINHAS = `{ minhasAssinaturas { ${CAMPOS} } }`;
const PULAR =
  'mutation($a: ID!, $c: ID!) { pularCiclo(assinaturaId: $a, cicloId: $c) { assinaturaId cicloId situacao quantidade pedidoId motivo } }';

function dados<T>(r: RespostaGraphql, campo: string): T {
  assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
  return r.corpo.data?.[campo] as T;
}

function erro(r: RespostaGraphql): { message: string; code: unknown; motivo: unknown; field: unknown } {
  assert.equal(r.corpo.errors?.length, 1, JSON.stringify(r.corpo));
  const e = r.corpo.errors[0];
  assert.ok(e);
  return { message: e.message, code: e.extensions?.code, motivo: e.extensions?.motivo, field: e.extensions?.field };
}

describe('assinaturas pelo GraphQL', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
  });
  after(() => amb.fechar());

  const gql = (nav: Navegador, query: string, variables?: Record<string, unknown>) =>
    graphql(amb.urlMercados, nav, query, variables);

  /** A person with a Cestas record, logged in to the Mercados face. */
  async function pessoa(perfil: Perfil[], nome: string): Promise<{ id: number; nav: Navegador }> {
    const u = await criarUsuario(amb.banco, { perfil, nome });
    const nav = new Navegador();
    await entrarNoMercados(amb, nav, { email: u.email, nome });
    return { id: u.id, nav };
  }

  /** A basket type offered by a cycle whose order window is open today and by the next one (window in a week). */
  async function cenario() {
    const hoje = diaLocal(amb.relogio.agora(), amb.config.tz);
    const cesta = await criarCesta(amb.banco, { valorCentavos: 4000 });
    const ponto = { id: 0, nome: `Ponto assinado ${cesta.id}` };
    ponto.id = (await criarPonto(amb.banco, ponto.nome)).id;
    const iso = new Date().toISOString();
    const ciclos: number[] = [];
    for (const semana of [0, 1]) {
      const d = semana * 7;
      const nome = `Ciclo assinado ${cesta.id}-${semana}`;
      const c = await amb.banco
        .insertInto('ciclo')
        .values({
          nome,
          nomeChave: nome.toLowerCase(),
          dataOfertaInicio: somarDias(hoje, d - 2),
          dataOfertaFim: somarDias(hoje, d - 1),
          dataPedidoInicio: somarDias(hoje, d),
          dataPedidoFim: somarDias(hoje, d + 2),
          dataRetiradaInicio: somarDias(hoje, d + 3),
          dataRetiradaFim: somarDias(hoje, d + 4),
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const cc = await amb.banco
        .insertInto('ciclocesta')
        .values({ cicloid: c.id, cestaId: cesta.id, quantidadeCestas: 10, createdAt: iso, updatedAt: iso })
        .returning('id')
        .executeTakeFirstOrThrow();
      await comporCestas(amb.banco, c.id, [cc.id]);
      ciclos.push(c.id);
    }
    const [aberto = 0, proximo = 0] = ciclos;
    return { hoje, cesta, ponto, aberto, proximo, inicio: somarDias(hoje, -30), fim: somarDias(hoje, 90) };
  }

  test('o consumidor assina, vê os próximos ciclos, pula o ciclo aberto; a administração age por um consumidor', async () => {
    const c = await cenario();
    const ana = await pessoa(['consumidor'], 'Ana Assinante');
    const bruno = await pessoa(['consumidor'], 'Bruno Consumidor');
    const admin = await pessoa(['admin'], 'Carla Coordenação');
    const entrada = {
      cestaId: c.cesta.id,
      quantidade: 2,
      pontoEntregaId: c.ponto.id,
      frequencia: 'cada_ciclo',
      inicio: c.inicio,
      fim: c.fim,
    };

    // Nothing yet.
    assert.deepEqual(dados(await gql(ana.nav, MINHAS), 'minhasAssinaturas'), []);

    // Ana subscribes: the cycle whose order window is open is served at once (2 baskets in her order), the next one waits.
    const salva = dados<AssinaturaGql>(await gql(ana.nav, SALVAR, { i: entrada }), 'salvarAssinatura');
    assert.deepEqual(
      { ...salva, id: '' },
      {
        id: '',
        usuarioid: String(ana.id),
        cestaId: String(c.cesta.id),
        cesta: c.cesta.nome,
        quantidade: 2,
        pontoEntregaId: String(c.ponto.id),
        pontoEntrega: c.ponto.nome,
        frequencia: 'cada_ciclo',
        inicio: c.inicio,
        fim: c.fim,
        mercadoId: null,
        ativa: true,
        pausas: [],
        proximosCiclos: [
          {
            cicloId: String(c.aberto),
            nome: `Ciclo assinado ${c.cesta.id}-0`,
            dataPedidoInicio: c.hoje,
            situacao: 'gerado',
            quantidade: 2,
            pontoEntregaId: String(c.ponto.id),
            pedidoId: salva.proximosCiclos[0]?.pedidoId ?? 'sem pedido',
          },
          {
            cicloId: String(c.proximo),
            nome: `Ciclo assinado ${c.cesta.id}-1`,
            dataPedidoInicio: somarDias(c.hoje, 7),
            situacao: null,
            quantidade: 2,
            pontoEntregaId: String(c.ponto.id),
            pedidoId: null,
          },
        ],
      },
    );
    const pedidoId = Number(salva.proximosCiclos[0]?.pedidoId);
    const pedido = await amb.banco
      .selectFrom('pedido')
      .select(['usuarioid', 'cicloid'])
      .where('id', '=', pedidoId)
      .executeTakeFirstOrThrow();
    assert.deepEqual(pedido, { usuarioid: ana.id, cicloid: c.aberto });
    const linhas = await amb.banco
      .selectFrom('pedidoproduto')
      .select(['quantidadeMilesimos', 'valorCentavos'])
      .where('assinaturaId', '=', Number(salva.id))
      .execute();
    assert.deepEqual(linhas, [{ quantidadeMilesimos: 2000, valorCentavos: 4000 }]);
    assert.deepEqual(dados<AssinaturaGql[]>(await gql(ana.nav, MINHAS), 'minhasAssinaturas'), [salva]);
    // Someone else's list does not show it.
    assert.deepEqual(dados(await gql(bruno.nav, MINHAS), 'minhasAssinaturas'), []);

    // One active subscription per basket type and person.
    const repetida = erro(await gql(ana.nav, SALVAR, { i: entrada }));
    assert.deepEqual(
      [repetida.code, repetida.motivo, repetida.message],
      [
        'CONFLICT',
        'ASSINATURA_REPETIDA',
        `Já existe uma assinatura ativa da ${c.cesta.nome} para esta pessoa: altere a que existe`,
      ],
    );

    // Ownership of every id: acting for someone else, someone else's subscription (as if it did not exist).
    const porOutro = erro(await gql(ana.nav, SALVAR, { i: { ...entrada, usuarioid: bruno.id } }));
    assert.deepEqual([porOutro.code, porOutro.message], ['FORBIDDEN', 'Você só pode fazer os seus próprios pedidos']);
    const alheia = erro(await gql(bruno.nav, SALVAR, { i: { ...entrada, id: salva.id, quantidade: 5 } }));
    assert.deepEqual([alheia.code, alheia.message], ['NOT_FOUND', 'Assinatura não encontrada']);
    const pularAlheia = erro(await gql(bruno.nav, PULAR, { a: salva.id, c: c.aberto }));
    assert.deepEqual([pularAlheia.code, pularAlheia.message], ['NOT_FOUND', 'Assinatura não encontrada']);

    // Ids inside the input that name nothing usable, and dates out of shape: each named by its path.
    const adminConta = dados<{ id: string }>(await gql(admin.nav, '{ me { id } }'), 'me');
    const venda = await criarMercadoNoBanco(amb.banco, { adminId: Number(adminConta.id), tipo: 'venda_direta' });
    const casos: ReadonlyArray<readonly [Record<string, unknown>, string, string]> = [
      [{ cestaId: 999_999 }, 'input.cestaId', 'Cesta inexistente ou inativa'],
      [{ pontoEntregaId: 999_999 }, 'input.pontoEntregaId', 'Ponto de entrega inexistente ou inativo'],
      [{ mercadoId: venda.id }, 'input.mercadoId', 'O mercado deve ser um mercado de cestas ativo'],
      [{ inicio: '01/12/2026' }, 'input.inicio', 'Informe a data de início (AAAA-MM-DD)'],
      [{ fim: somarDias(c.inicio, -1) }, 'input.fim', 'O fim não pode ser antes do início'],
      [{ quantidade: 0 }, 'input.quantidade', 'A quantidade deve ser um número inteiro de cestas, pelo menos 1'],
      [{ cestaId: 'abc' }, 'input.cestaId', 'Deve ser um número inteiro'],
    ];
    const outra = await criarCesta(amb.banco);
    for (const [mudanca, campo, mensagem] of casos) {
      const e = erro(await gql(bruno.nav, SALVAR, { i: { ...entrada, cestaId: outra.id, ...mudanca } }));
      assert.equal(e.code, 'BAD_USER_INPUT', JSON.stringify(mudanca));
      assert.equal(e.field, campo, JSON.stringify(mudanca));
      assert.match(
        e.message,
        new RegExp(`^${campo.replace('.', '\\.')}: ${mensagem.replace(/[()]/g, '\\$&')}`),
        JSON.stringify(mudanca),
      );
    }
    assert.deepEqual(dados(await gql(bruno.nav, MINHAS), 'minhasAssinaturas'), [], 'nada foi gravado');
    const idRuim = erro(await gql(ana.nav, PULAR, { a: 'abc', c: c.aberto }));
    assert.deepEqual([idRuim.code, idRuim.field], ['BAD_USER_INPUT', 'assinaturaId']);

    // Skipping: not before the cycle's order window opens; inside it, the baskets leave the order.
    const cedo = erro(await gql(ana.nav, PULAR, { a: salva.id, c: c.proximo }));
    const [a, m, d] = somarDias(c.hoje, 7).split('-');
    assert.deepEqual(
      [cedo.code, cedo.motivo, cedo.message],
      ['CONFLICT', 'JANELA_FECHADA', `O período de pedidos deste ciclo começa em ${d}/${m}/${a}`],
    );
    const pulado = dados(await gql(ana.nav, PULAR, { a: salva.id, c: c.aberto }), 'pularCiclo');
    assert.deepEqual(pulado, {
      assinaturaId: salva.id,
      cicloId: String(c.aberto),
      situacao: 'pulado',
      quantidade: 2,
      pedidoId: null,
      motivo: null,
    });
    assert.deepEqual(
      await amb.banco.selectFrom('pedidoproduto').select('id').where('assinaturaId', '=', Number(salva.id)).execute(),
      [],
    );
    const depois = dados<AssinaturaGql[]>(await gql(ana.nav, MINHAS), 'minhasAssinaturas');
    assert.deepEqual(
      depois[0]?.proximosCiclos.map((x) => [x.cicloId, x.situacao]),
      [
        [String(c.aberto), 'pulado'],
        [String(c.proximo), null],
      ],
    );

    // The coordination subscribes Bruno (input.usuarioid) every other cycle, one basket.
    const porBruno = dados<AssinaturaGql>(
      await gql(admin.nav, SALVAR, {
        i: { ...entrada, usuarioid: bruno.id, quantidade: 1, frequencia: 'ciclo_sim_ciclo_nao' },
      }),
      'salvarAssinatura',
    );
    assert.deepEqual(
      [porBruno.usuarioid, porBruno.frequencia, porBruno.proximosCiclos.map((x) => [x.cicloId, x.situacao])],
      [String(bruno.id), 'ciclo_sim_ciclo_nao', [[String(c.aberto), 'gerado']]],
    );
    assert.deepEqual(
      dados<AssinaturaGql[]>(await gql(bruno.nav, MINHAS), 'minhasAssinaturas').map((x) => x.id),
      [porBruno.id],
    );
    // …and ends it; the admin's own list has none of theirs.
    const encerrada = dados<AssinaturaGql>(
      await gql(admin.nav, SALVAR, {
        i: { ...entrada, id: porBruno.id, quantidade: 1, frequencia: 'ciclo_sim_ciclo_nao', ativa: false },
      }),
      'salvarAssinatura',
    );
    assert.deepEqual([encerrada.usuarioid, encerrada.ativa, encerrada.proximosCiclos], [String(bruno.id), false, []]);
    assert.deepEqual(dados(await gql(admin.nav, MINHAS), 'minhasAssinaturas'), []);
  });

  test('uma assinatura feita antes da janela vem antes do primeiro fazerPedido do ciclo: o pedido avulso só leva o que ela deixa', async () => {
    const c = await cenario();
    const gil = await pessoa(['consumidor'], 'Gil Assinante');
    const hana = await pessoa(['consumidor'], 'Hana Avulsa');
    // Saved the day before the order window opened (as another process would have): nothing generated yet.
    const ator = {
      email: `gil-${gil.id}@exemplo.org`,
      nome: 'Gil Assinante',
      usuarioid: gil.id,
      perfil: ['consumidor' as const],
      ativo: true,
    };
    const opcoes = {
      agora: amb.relogio.agora(),
      hoje: somarDias(c.hoje, -1),
      taxa: amb.config.taxa,
      tz: amb.config.tz,
    };
    const a = await salvarAssinatura(
      amb.banco,
      ator,
      {
        id: null,
        usuarioid: null,
        cestaId: c.cesta.id,
        quantidade: 2,
        pontoEntregaId: c.ponto.id,
        frequencia: 'cada_ciclo',
        inicio: c.inicio,
        fim: c.fim,
        mercadoId: null,
        ativa: true,
      },
      opcoes,
    );
    const noCiclo = () =>
      amb.banco
        .selectFrom('assinaturaciclo')
        .select(['situacao', 'quantidade'])
        .where('assinaturaId', '=', a.id)
        .where('cicloid', '=', c.aberto)
        .execute();
    assert.deepEqual(await noCiclo(), []);
    const cc = await amb.banco
      .selectFrom('ciclocesta')
      .select('id')
      .where('cicloid', '=', c.aberto)
      .executeTakeFirstOrThrow();
    const PEDIR = 'mutation($c: ID!, $i: PedidoInput!) { fazerPedido(cicloId: $c, input: $i) { id } }';
    const pedir = (n: number) =>
      gql(hana.nav, PEDIR, {
        c: c.aberto,
        i: { pontoEntregaId: c.ponto.id, produtos: [{ cicloCestaId: cc.id, quantidade: String(n) }] },
      });
    // Ten baskets in the cycle, two of them the subscription's: nine is more than is left.
    const recusado = erro(await pedir(9));
    assert.deepEqual([recusado.code, recusado.motivo], ['CONFLICT', 'SEM_ESTOQUE']);
    assert.deepEqual(await noCiclo(), [{ situacao: 'gerado', quantidade: 2 }]);
    dados(await pedir(8), 'fazerPedido');
  });

  test('a coordenação registra a temporada paga adiantado; quem assina não pode, e um valor ruim não grava nada', async () => {
    const c = await cenario();
    const ana = await pessoa(['consumidor'], 'Ana Temporada');
    const admin = await pessoa(['admin'], 'Clara Tesouraria');
    const salva = dados<AssinaturaGql>(
      await gql(ana.nav, SALVAR, {
        i: {
          cestaId: c.cesta.id,
          quantidade: 1,
          pontoEntregaId: c.ponto.id,
          frequencia: 'cada_ciclo',
          inicio: c.inicio,
          fim: c.fim,
        },
      }),
      'salvarAssinatura',
    );
    const REGISTRAR =
      'mutation($a: ID!, $v: Decimal!, $d: String) { registrarPagamentoDaTemporada(assinaturaId: $a, valor: $v, descricao: $d) { movimentacaoId assinaturaId usuarioid valor data descricao } }';
    const creditos = () =>
      amb.banco
        .selectFrom('movimentacao')
        .select(['sentido', 'valorCentavos', 'descricao'])
        .where('usuarioid', '=', ana.id)
        .orderBy('id')
        .execute();

    // Refusals: the subscriber themselves, a value that is not money, zero or negative, a subscription that does not exist.
    const propria = erro(await gql(ana.nav, REGISTRAR, { a: salva.id, v: '480.00' }));
    assert.deepEqual([propria.code, propria.message], ['FORBIDDEN', 'Acesso negado: requer o perfil Administrador']);
    const texto = erro(await gql(admin.nav, REGISTRAR, { a: salva.id, v: 'abc' }));
    assert.equal(texto.code, 'BAD_USER_INPUT');
    assert.match(texto.message, /Deve ser um número com ponto decimal \(ex\.: 12\.50\)/);
    const zero = erro(await gql(admin.nav, REGISTRAR, { a: salva.id, v: '0' }));
    assert.deepEqual([zero.code, zero.field], ['BAD_USER_INPUT', 'valor']);
    assert.match(zero.message, /maior que zero/);
    const negativo = erro(await gql(admin.nav, REGISTRAR, { a: salva.id, v: '-10.00' }));
    assert.deepEqual([negativo.code, negativo.field], ['BAD_USER_INPUT', 'valor']);
    const demais = erro(await gql(admin.nav, REGISTRAR, { a: salva.id, v: '1000000.01' }));
    assert.deepEqual(
      [demais.code, demais.field, demais.message],
      ['BAD_USER_INPUT', 'valor', 'valor: Informe o valor pago, maior que zero (até R$ 1.000.000,00)'],
    );
    const inexistente = erro(await gql(admin.nav, REGISTRAR, { a: 999_999, v: '480.00' }));
    assert.deepEqual([inexistente.code, inexistente.message], ['NOT_FOUND', 'Assinatura não encontrada']);
    assert.deepEqual(await creditos(), [], 'nada gravado pelas recusas');

    // The coordination records R$ 480,00 (a JSON number works too: 20.5 → 20.50).
    const pago = dados<{
      movimentacaoId: string;
      assinaturaId: string;
      usuarioid: string;
      valor: string;
      data: string;
      descricao: string;
    }>(await gql(admin.nav, REGISTRAR, { a: salva.id, v: '480', d: 'Pix de março' }), 'registrarPagamentoDaTemporada');
    const [ai, mi, di] = c.inicio.split('-');
    const [af, mf, df] = c.fim.split('-');
    assert.deepEqual(
      { ...pago, movimentacaoId: '' },
      {
        movimentacaoId: '',
        assinaturaId: salva.id,
        usuarioid: String(ana.id),
        valor: '480.00',
        data: c.hoje,
        descricao: `Pagamento antecipado da temporada da assinatura ${salva.id} (${c.cesta.nome}, ${di}/${mi}/${ai} a ${df}/${mf}/${af}): Pix de março`,
      },
    );
    const mais = dados<{ valor: string }>(
      await gql(admin.nav, REGISTRAR, { a: salva.id, v: 20.5 }),
      'registrarPagamentoDaTemporada',
    );
    assert.equal(mais.valor, '20.50');
    assert.deepEqual(
      (await creditos()).map((m) => [m.sentido, m.valorCentavos]),
      [
        ['credito', 48000],
        ['credito', 2050],
      ],
    );

    // The same sending twice: one credit; the second answers the first, repetido.
    const UMA_VEZ =
      'mutation($a: ID!, $v: Decimal!, $e: String) { registrarPagamentoDaTemporada(assinaturaId: $a, valor: $v, envio: $e) { movimentacaoId valor repetido } }';
    const primeiro = dados<{ movimentacaoId: string; repetido: boolean }>(
      await gql(admin.nav, UMA_VEZ, { a: salva.id, v: '10.00', e: 'gql-envio-1' }),
      'registrarPagamentoDaTemporada',
    );
    const segundo = dados<{ movimentacaoId: string; repetido: boolean }>(
      await gql(admin.nav, UMA_VEZ, { a: salva.id, v: '10.00', e: 'gql-envio-1' }),
      'registrarPagamentoDaTemporada',
    );
    assert.deepEqual(
      [primeiro.repetido, segundo.repetido, segundo.movimentacaoId],
      [false, true, primeiro.movimentacaoId],
    );
    assert.deepEqual(
      (await creditos()).map((m) => m.valorCentavos),
      [48000, 2050, 1000],
    );
    const ruim = erro(await gql(admin.nav, UMA_VEZ, { a: salva.id, v: '10.00', e: 'x' }));
    assert.deepEqual([ruim.code, ruim.field], ['BAD_USER_INPUT', 'envio']);
  });
});
