import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, beforeEach, describe, test } from 'node:test';
import pg from 'pg';
import type { Ator } from '../../src/domain/acesso.ts';
import { fecharCiclo } from '../../src/domain/financeiro.ts';
import { cobrancaDe } from '../../src/domain/pix.ts';
import { valoresDasFaltas } from '../../src/domain/retirada/dinheiro.ts';
import { chaveDaRetirada, tokenDoPedido } from '../../src/domain/retirada/token.ts';
import { diaLocal, somarDias } from '../../src/domain/tempo.ts';
import { DIALETO } from '../helpers/banco.ts';
import { criarUsuario } from '../helpers/fabricas.ts';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { entrarNoMercados, graphql, type RespostaGraphql } from '../mercados/apoio.ts';
import { cenarioDaRetirada, nomearVoluntario, type CenarioDaRetirada } from './cenario.ts';

/**
 * The pickup day through the real GraphQL API over HTTP, with real logins through the development
 * provider (issue 38; docs/dominio.md, "A retirada"; docs/api.md, "A retirada"): who may read and
 * record at a point, exactly once, ownership inside a batch, the rules' messages, the ledger and
 * the audit trail.
 */

interface Resultado {
  chave: string;
  estado: string;
  mensagem: string | null;
}

interface AcaoGql {
  chave: string;
  tipo: string;
  pedidoId: string;
  pedidoProdutoId: string | null;
  produtoId: string | null;
  quantidade: string | null;
  substituto: string | null;
  valor: string | null;
  forma: string | null;
  texto: string | null;
  feitoEm: string;
  recebidoEm: string;
  dispositivo: string;
  quem: string;
}

interface PedidoGql {
  id: string;
  pessoa: string;
  telefone: string | null;
  assinatura: boolean;
  itens: Array<{
    pedidoProdutoId: string;
    tipo: string;
    nome: string;
    unidade: string;
    quantidade: string;
    cicloCestaId: string | null;
  }>;
  total: string;
  devido: string;
  pago: string;
  pix: string | null;
  token: string;
  retirada: AcaoGql | null;
}

interface RetiradaGql {
  cicloId: string;
  cicloNome: string;
  pontoId: string;
  pontoNome: string;
  endereco: string | null;
  dataRetirada: string | null;
  horaInicio: string | null;
  horaFim: string | null;
  geradoEm: string;
  pedidos: PedidoGql[];
  cestas: Array<{
    cicloCestaId: string;
    nome: string;
    itens: Array<{ produtoId: string; nome: string; unidade: string; quantidadePorCesta: string }>;
  }>;
  acoes: AcaoGql[];
}

const CAMPOS_ACAO =
  'chave tipo pedidoId pedidoProdutoId produtoId quantidade substituto valor forma texto feitoEm recebidoEm dispositivo quem';
const RETIRADA = `query($c: ID!, $p: ID!) { retiradaDoPonto(cicloId: $c, pontoId: $p) {
  cicloId cicloNome pontoId pontoNome endereco dataRetirada horaInicio horaFim geradoEm
  pedidos { id pessoa telefone assinatura total devido pago pix token
    itens { pedidoProdutoId tipo nome unidade quantidade cicloCestaId } retirada { ${CAMPOS_ACAO} } }
  cestas { cicloCestaId nome itens { produtoId nome unidade quantidadePorCesta } }
  acoes { ${CAMPOS_ACAO} } } }`;
const SINCRONIZAR = `mutation($c: ID!, $p: ID!, $d: ID!, $a: [AcaoDeRetiradaInput!]!) {
  sincronizarRetirada(cicloId: $c, pontoId: $p, dispositivo: $d, acoes: $a) { chave estado mensagem } }`;
const PONTOS =
  '{ meusPontosDeRetirada { cicloId cicloNome pontoId pontoNome dataRetirada horaInicio horaFim pedidos } }';

function dados<T>(r: RespostaGraphql, campo: string): T {
  assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
  return r.corpo.data?.[campo] as T;
}

function erro(r: RespostaGraphql): { message: string; code: unknown; motivo: unknown; field: unknown } {
  assert.equal(r.corpo.errors?.length, 1, JSON.stringify(r.corpo));
  const e = r.corpo.errors[0];
  assert.ok(e);
  return {
    message: e.message,
    code: e.extensions?.code,
    motivo: e.extensions?.motivo,
    field: e.extensions?.field,
  };
}

describe('a retirada pelo GraphQL', () => {
  let amb: AmbienteDeTeste;
  /** The coordination (Cestas admin), two volunteers and a consumer nobody named, each logged in to Mercados. */
  const navs: Record<'admin' | 'vera' | 'wal' | 'zeca', Navegador> = {
    admin: new Navegador(),
    vera: new Navegador(),
    wal: new Navegador(),
    zeca: new Navegador(),
  };
  const ids: Record<keyof typeof navs, number> = { admin: 0, vera: 0, wal: 0, zeca: 0 };
  let master: Ator;

  before(async () => {
    amb = await iniciarAmbiente({
      mercados: true,
      env: {
        TAXA_PEDIDO_PERCENTUAL: '10',
        PIX_CHAVE: 'financeiro@cestas.org',
        PIX_NOME: 'Associação Raízes',
        PIX_CIDADE: 'São Carlos',
      },
    });
    const perfis = { admin: ['admin'], vera: ['consumidor'], wal: ['consumidor'], zeca: ['consumidor'] } as const;
    for (const nome of Object.keys(navs) as Array<keyof typeof navs>) {
      const u = await criarUsuario(amb.banco, { perfil: perfis[nome], nome: `${nome} da retirada` });
      ids[nome] = u.id;
      await entrarNoMercados(amb, navs[nome], { email: u.email, nome: `${nome} da retirada` });
    }
    const m = await criarUsuario(amb.banco, { perfil: ['master'], nome: 'Mestra' });
    master = { email: m.email, nome: m.nome, usuarioid: m.id, perfil: ['master'], ativo: true };
  });
  after(() => amb.fechar());
  // NOTE: each account spends its cost budget per minute of the service's clock (limites.ts), and
  // a sync of 100 actions costs half an operation's limit: each test starts a minute later.
  beforeEach(() => amb.relogio.avancar(61_000));

  const gql = (nav: Navegador, query: string, variables?: Record<string, unknown>) =>
    graphql(amb.urlMercados, nav, query, variables);
  const retirada = (nav: Navegador, c: number, p: number) => gql(nav, RETIRADA, { c, p });
  const sincronizar = (nav: Navegador, c: number, p: number, acoes: unknown[], d = 'aparelho-vera-1') =>
    gql(nav, SINCRONIZAR, { c, p, d, a: acoes });

  /** A moment on the device, `minutos` before the server's clock. */
  const antes = (minutos: number): string => new Date(amb.relogio.agora().getTime() - minutos * 60_000).toISOString();

  /** A fresh scenario with Vera named for its Sede and Wal for its Escola. */
  async function cenario(): Promise<CenarioDaRetirada> {
    const c = await cenarioDaRetirada(amb.banco, { agora: amb.relogio.agora() });
    await nomearVoluntario(amb.banco, c.cicloid, c.sede.id, ids.vera);
    await nomearVoluntario(amb.banco, c.cicloid, c.escola.id, ids.wal);
    return c;
  }

  const acao = (mais: Record<string, unknown>) => ({ chave: randomUUID(), feitoEm: antes(0.1), ...mais });

  async function contar(tabela: 'acaoretirada' | 'movimentacao' | 'auditoria', chave: string): Promise<number> {
    const coluna = tabela === 'auditoria' ? 'depois' : 'chave';
    const r = await amb.banco
      .selectFrom(tabela)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where(coluna, 'like', `%${chave}%`)
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  test('a voluntária vê e registra só o seu ponto: outro ponto, outro ciclo e ids inexistentes dão o mesmo FORBIDDEN, e nada é gravado', async () => {
    const c = await cenario();
    // Another cycle, where nobody named Vera.
    const outro = await cenarioDaRetirada(amb.banco, { agora: amb.relogio.agora() });
    const pontos = dados<Array<{ cicloId: string; pontoId: string; pedidos: number }>>(
      await gql(navs.vera, PONTOS),
      'meusPontosDeRetirada',
    );
    assert.deepEqual(
      pontos.filter((p) => p.cicloId === String(c.cicloid)).map((p) => [p.pontoId, p.pedidos]),
      [[String(c.sede.id), 2]],
      'a Sede, com os 2 pedidos confirmados (o de Uma não foi confirmado)',
    );
    assert.equal(
      dados<RetiradaGql>(await retirada(navs.vera, c.cicloid, c.sede.id), 'retiradaDoPonto').pontoNome,
      c.sede.nome,
    );

    const recusas = [
      await retirada(navs.vera, c.cicloid, c.escola.id),
      await retirada(navs.vera, outro.cicloid, outro.sede.id),
      await retirada(navs.vera, 999_999_999, c.sede.id),
      await retirada(navs.vera, c.cicloid, 999_999_999),
      await sincronizar(navs.vera, c.cicloid, c.escola.id, [
        acao({ tipo: 'retirada', pedidoId: String(c.tais.pedidoId) }),
      ]),
    ].map(erro);
    for (const r of recusas) assert.deepEqual(r, recusas[0], 'uma só resposta, exista ou não o ciclo ou o ponto');
    assert.equal(recusas[0]?.code, 'FORBIDDEN');
    assert.equal(recusas[0]?.motivo, 'RETIRADA_DE_OUTRO_PONTO');
    assert.match(recusas[0]?.message ?? '', /não trabalha na retirada deste ponto neste ciclo/);
    const gravadas = await amb.banco.selectFrom('acaoretirada').select('id').where('cicloid', '=', c.cicloid).execute();
    assert.deepEqual(gravadas, []);

    // The coordination sees every point of the cycle, and each point's snapshot.
    const daAdmin = dados<Array<{ cicloId: string; pontoId: string; pedidos: number; horaInicio: string | null }>>(
      await gql(navs.admin, PONTOS),
      'meusPontosDeRetirada',
    ).filter((p) => p.cicloId === String(c.cicloid));
    assert.deepEqual(
      daAdmin.map((p) => [p.pontoId, p.pedidos, p.horaInicio]),
      [
        [String(c.sede.id), 2, '09:00'],
        [String(c.escola.id), 1, null],
      ],
    );
    assert.equal(
      dados<RetiradaGql>(await retirada(navs.admin, c.cicloid, c.escola.id), 'retiradaDoPonto').pedidos.length,
      1,
    );
  });

  test('um consumidor que ninguém nomeou é recusado, ao listar, ao ler e ao enviar; sem sessão, UNAUTHENTICATED', async () => {
    const c = await cenario();
    assert.deepEqual(
      dados<Array<{ cicloId: string }>>(await gql(navs.zeca, PONTOS), 'meusPontosDeRetirada').filter(
        (p) => p.cicloId === String(c.cicloid),
      ),
      [],
    );
    assert.equal(erro(await retirada(navs.zeca, c.cicloid, c.sede.id)).code, 'FORBIDDEN');
    const chave = randomUUID();
    const r = erro(
      await sincronizar(navs.zeca, c.cicloid, c.sede.id, [
        {
          chave,
          tipo: 'pagamento',
          pedidoId: String(c.rita.pedidoId),
          valor: '10.00',
          forma: 'dinheiro',
          feitoEm: antes(1),
        },
      ]),
    );
    assert.equal(r.code, 'FORBIDDEN');
    assert.equal(await contar('acaoretirada', chave), 0);
    assert.equal(await contar('movimentacao', chave), 0);

    const anonimo = await gql(new Navegador(), RETIRADA, { c: c.cicloid, p: c.sede.id });
    assert.equal(anonimo.status, 401);
    assert.equal(anonimo.corpo.errors?.[0]?.extensions?.code, 'UNAUTHENTICATED');
  });

  test('o retrato do ponto: os pedidos confirmados com pessoa, telefone, itens com unidade, total, devido, pago, Pix e token; o conteúdo das cestas', async () => {
    const c = await cenario();
    const r = dados<RetiradaGql>(await retirada(navs.vera, c.cicloid, c.sede.id), 'retiradaDoPonto');
    assert.deepEqual(
      {
        cicloId: r.cicloId,
        pontoId: r.pontoId,
        endereco: r.endereco,
        dataRetirada: r.dataRetirada,
        horas: [r.horaInicio, r.horaFim],
        geradoEm: r.geradoEm,
        acoes: r.acoes,
      },
      {
        cicloId: String(c.cicloid),
        pontoId: String(c.sede.id),
        endereco: 'Rua das Hortas, 12, São Carlos',
        dataRetirada: c.hoje,
        horas: ['09:00', '12:00'],
        geradoEm: amb.relogio.agora().toISOString(),
        acoes: [],
      },
    );
    // Uma's order was never confirmed: it is neither delivered nor charged.
    assert.deepEqual(
      r.pedidos.map((p) => p.pessoa),
      [`Rita ${c.cicloid}`, `Sérgio ${c.cicloid}`],
    );
    const rita = r.pedidos[0];
    assert.ok(rita);
    // 1 basket (R$ 50,00) and 5 kg at R$ 6,00: R$ 80,00 with 10 %: R$ 88,00.
    assert.deepEqual(
      { ...rita, pix: undefined },
      {
        id: String(c.rita.pedidoId),
        pessoa: `Rita ${c.cicloid}`,
        telefone: '(16) 99999-0000',
        assinatura: false,
        total: '88.00',
        devido: '88.00',
        pago: '0.00',
        pix: undefined,
        token: tokenDoPedido(chaveDaRetirada(amb.config.sessionSecret), c.rita.pedidoId),
        itens: [
          {
            pedidoProdutoId: String(c.rita.linhaCesta),
            tipo: 'cesta',
            nome: c.cesta,
            unidade: 'cesta',
            quantidade: '1.000',
            cicloCestaId: String(c.cicloCestaId),
          },
          {
            pedidoProdutoId: String(c.rita.linhaExtra),
            tipo: 'extra',
            nome: c.tomate.nome,
            unidade: 'kg',
            quantidade: '5.000',
            cicloCestaId: null,
          },
        ],
        retirada: null,
      },
    );
    // The one Pix of what she owes, with its amount (field 54) and her txid.
    const cobranca = await cobrancaDe(amb.banco, c.rita.usuarioid, amb.config.taxa);
    assert.match(rita.pix ?? '', new RegExp(`5405${'88.00'.replace('.', '\\.')}`));
    assert.ok(rita.pix?.includes(cobranca.txid), rita.pix ?? '');
    assert.deepEqual(r.cestas, [
      {
        cicloCestaId: String(c.cicloCestaId),
        nome: c.cesta,
        itens: [
          { produtoId: String(c.tomate.id), nome: c.tomate.nome, unidade: 'kg', quantidadePorCesta: '2.000' },
          { produtoId: String(c.alface.id), nome: c.alface.nome, unidade: 'maço', quantidadePorCesta: '1.000' },
        ],
      },
    ]);
  });

  test('o mesmo lote enviado 3 vezes, e 3 envios ao mesmo tempo de dois aparelhos: cada ação vale uma vez (1 movimento, 1 linha de auditoria)', async () => {
    const c = await cenario();
    const lote = [
      acao({ tipo: 'pagamento', pedidoId: String(c.rita.pedidoId), valor: '30.00', forma: 'dinheiro' }),
      acao({ tipo: 'retirada', pedidoId: String(c.rita.pedidoId) }),
    ];
    const chaves = lote.map((a) => a.chave);
    const estados: string[][] = [];
    for (let i = 0; i < 3; i++) {
      const r = dados<Resultado[]>(await sincronizar(navs.vera, c.cicloid, c.sede.id, lote), 'sincronizarRetirada');
      assert.deepEqual(
        r.map((x) => x.chave),
        chaves,
        'os resultados vêm na ordem das ações',
      );
      estados.push(r.map((x) => x.estado));
    }
    assert.deepEqual(estados, [
      ['aplicada', 'aplicada'],
      ['repetida', 'repetida'],
      ['repetida', 'repetida'],
    ]);
    for (const chave of chaves) {
      assert.equal(await contar('acaoretirada', chave), 1);
      assert.equal(await contar('auditoria', chave), 1);
    }
    assert.equal(await contar('movimentacao', chaves[0] ?? ''), 1);

    // At once, from two devices (the volunteer and the coordination): one of them applies it.
    const pagamento = acao({ tipo: 'pagamento', pedidoId: String(c.sergio.pedidoId), valor: '12.34', forma: 'pix' });
    const juntos = await Promise.all([
      sincronizar(navs.vera, c.cicloid, c.sede.id, [pagamento], 'aparelho-vera-1'),
      sincronizar(navs.admin, c.cicloid, c.sede.id, [pagamento], 'aparelho-admin-1'),
      sincronizar(navs.vera, c.cicloid, c.sede.id, [pagamento], 'aparelho-vera-2'),
    ]);
    assert.deepEqual(juntos.map((r) => dados<Resultado[]>(r, 'sincronizarRetirada')[0]?.estado).sort(), [
      'aplicada',
      'repetida',
      'repetida',
    ]);
    assert.equal(await contar('acaoretirada', pagamento.chave), 1);
    assert.equal(await contar('movimentacao', pagamento.chave), 1);
    assert.equal(await contar('auditoria', pagamento.chave), 1);
  });

  test('ids de fora num lote (pedido de outro ponto, linha de outro pedido, produto fora da cesta) são recusados com a mesma mensagem de um id inexistente; nada deles é gravado, o resto do lote vale', async () => {
    const c = await cenario();
    const outro = await cenario();
    const ok = acao({ tipo: 'nota', pedidoId: String(c.rita.pedidoId), texto: 'Pediu para guardar até as 11h' });
    const lote = [
      acao({ tipo: 'retirada', pedidoId: String(c.tais.pedidoId) }), // Escola's order
      acao({ tipo: 'retirada', pedidoId: String(outro.rita.pedidoId) }), // another cycle's
      acao({ tipo: 'retirada', pedidoId: String(c.uma.pedidoId) }), // not confirmed
      acao({ tipo: 'retirada', pedidoId: '999999999' }), // nonexistent
      acao({ tipo: 'retirada', pedidoId: 'abc' }), // not an id
      ok,
      // Sérgio's line in Rita's order, and a line that does not exist.
      acao({
        tipo: 'falta',
        pedidoId: String(c.rita.pedidoId),
        pedidoProdutoId: String(c.sergio.linhaExtra),
        quantidade: '1',
      }),
      acao({ tipo: 'falta', pedidoId: String(c.rita.pedidoId), pedidoProdutoId: '999999999', quantidade: '1' }),
      // A product that is not in the basket (another cycle's), and one that does not exist.
      acao({
        tipo: 'falta',
        pedidoId: String(c.rita.pedidoId),
        pedidoProdutoId: String(c.rita.linhaCesta),
        produtoId: String(outro.tomate.id),
        quantidade: '1',
      }),
      acao({
        tipo: 'falta',
        pedidoId: String(c.rita.pedidoId),
        pedidoProdutoId: String(c.rita.linhaCesta),
        produtoId: '999999999',
        quantidade: '1',
      }),
      // Ownership comes before the rules: a foreign order with an unknown type is still "not this point's".
      acao({ tipo: 'inventado', pedidoId: String(c.tais.pedidoId) }),
    ];
    const r = dados<Resultado[]>(await sincronizar(navs.vera, c.cicloid, c.sede.id, lote), 'sincronizarRetirada');
    const pedido = 'Este pedido não é deste ponto de retirada neste ciclo';
    assert.deepEqual(
      r.map((x) => [x.estado, x.mensagem]),
      [
        ['recusada', pedido],
        ['recusada', pedido],
        ['recusada', pedido],
        ['recusada', pedido],
        ['recusada', pedido],
        ['aplicada', null],
        ['recusada', 'Este item não é deste pedido'],
        ['recusada', 'Este item não é deste pedido'],
        ['recusada', 'Este produto não faz parte deste item do pedido'],
        ['recusada', 'Este produto não faz parte deste item do pedido'],
        ['recusada', pedido],
      ],
    );
    const gravadas = await amb.banco
      .selectFrom('acaoretirada')
      .select('chave')
      .where('cicloid', '=', c.cicloid)
      .execute();
    assert.deepEqual(
      gravadas.map((g) => g.chave),
      [ok.chave],
    );
  });

  test('as regras de cada ação respondem em português, e o que é recusado não é gravado; o lote inteiro é recusado com aparelho inválido ou mais de 100 ações', async () => {
    const c = await cenario();
    const p = String(c.rita.pedidoId);
    const lote = [
      acao({ tipo: 'inventado', pedidoId: p }),
      acao({ tipo: 'pagamento', pedidoId: p, valor: '10.00' }),
      acao({ tipo: 'pagamento', pedidoId: p, valor: '0', forma: 'dinheiro' }),
      acao({ tipo: 'pagamento', pedidoId: p, valor: '-5.00', forma: 'pix' }),
      acao({ tipo: 'pagamento', pedidoId: p, valor: '30000000.00', forma: 'pix' }),
      acao({ tipo: 'nota', pedidoId: p, texto: '   ' }),
      acao({ tipo: 'nota', pedidoId: p, texto: 'x'.repeat(501) }),
      acao({ tipo: 'falta', pedidoId: p, quantidade: '1' }),
      acao({ tipo: 'falta', pedidoId: p, pedidoProdutoId: String(c.rita.linhaExtra), quantidade: '0' }),
      acao({ tipo: 'falta', pedidoId: p, pedidoProdutoId: String(c.rita.linhaCesta), quantidade: '1' }),
      acao({
        tipo: 'falta',
        pedidoId: p,
        pedidoProdutoId: String(c.rita.linhaExtra),
        quantidade: '1',
        substituto: 's'.repeat(201),
      }),
      { ...acao({ tipo: 'retirada', pedidoId: p }), chave: 'curta' },
      // Made on the device before the order window ended: its clock is wrong.
      acao({ tipo: 'retirada', pedidoId: p, feitoEm: `${c.datas.dataPedidoFim}T12:00:00-03:00` }),
      acao({
        tipo: 'retirada',
        pedidoId: p,
        feitoEm: new Date(amb.relogio.agora().getTime() + 3 * 86_400_000).toISOString(),
      }),
    ];
    const r = dados<Resultado[]>(await sincronizar(navs.vera, c.cicloid, c.sede.id, lote), 'sincronizarRetirada');
    const [a, m, d] = c.datas.dataPedidoFim.split('-');
    assert.deepEqual(
      r.map((x) => [x.estado, x.mensagem]),
      [
        ['recusada', 'Tipo de ação desconhecido: use retirada, falta, pagamento ou nota'],
        ['recusada', 'Diga como foi pago: dinheiro ou pix'],
        ['recusada', 'Informe o valor recebido, maior que zero'],
        ['recusada', 'Informe o valor recebido, maior que zero'],
        ['recusada', 'O valor recebido passa do máximo de um lançamento (R$ 21.474.836,47)'],
        ['recusada', 'Escreva a observação'],
        ['recusada', 'A observação: deve ter no máximo 500 caracteres'],
        ['recusada', 'Diga qual item do pedido faltou'],
        ['recusada', 'Informe quanto faltou, maior que zero, em kg'],
        ['recusada', 'Diga qual produto da cesta faltou'],
        ['recusada', 'O que foi dado no lugar: deve ter no máximo 200 caracteres'],
        ['recusada', 'Identificador da ação inválido: use de 8 a 64 letras, dígitos e hífens'],
        [
          'recusada',
          `A ação tem a data de ${d}/${m}/${a}, antes do fim dos pedidos (${d}/${m}/${a}): confira o relógio do aparelho`,
        ],
        [
          'recusada',
          `A ação tem a data de ${somarDias(c.hoje, 3).split('-').reverse().join('/')}, no futuro: confira o relógio do aparelho`,
        ],
      ],
    );
    const contagem = async () =>
      Number(
        (
          await amb.banco
            .selectFrom('acaoretirada')
            .select((eb) => eb.fn.countAll<number | string>().as('n'))
            .where('cicloid', '=', c.cicloid)
            .executeTakeFirstOrThrow()
        ).n,
      );
    assert.equal(await contagem(), 0);

    const aparelho = erro(
      await sincronizar(navs.vera, c.cicloid, c.sede.id, [acao({ tipo: 'retirada', pedidoId: p })], 'x'),
    );
    assert.deepEqual([aparelho.code, aparelho.field], ['BAD_USER_INPUT', 'dispositivo']);
    const muitas = erro(
      await sincronizar(
        navs.vera,
        c.cicloid,
        c.sede.id,
        Array.from({ length: 101 }, () => acao({ tipo: 'nota', pedidoId: p, texto: 'uma nota' })),
      ),
    );
    assert.deepEqual([muitas.code, muitas.field], ['BAD_USER_INPUT', 'acoes']);
    assert.match(muitas.message, /no máximo 100 ações por vez \(vieram 101\)/);
    assert.equal(await contagem(), 0);
  });

  test('duas retiradas do mesmo pedido em dois aparelhos: as duas ficam, o pedido é retirado uma vez, e aparece a mais antiga, chegue na ordem que chegar', async () => {
    const c = await cenario();
    const cedo = acao({ tipo: 'retirada', pedidoId: String(c.sergio.pedidoId), feitoEm: antes(30) });
    const tarde = acao({ tipo: 'retirada', pedidoId: String(c.sergio.pedidoId), feitoEm: antes(10) });
    // The later one arrives first, from the coordination's phone.
    assert.equal(
      dados<Resultado[]>(
        await sincronizar(navs.admin, c.cicloid, c.sede.id, [tarde], 'aparelho-admin-1'),
        'sincronizarRetirada',
      )[0]?.estado,
      'aplicada',
    );
    assert.equal(
      dados<Resultado[]>(await sincronizar(navs.vera, c.cicloid, c.sede.id, [cedo]), 'sincronizarRetirada')[0]?.estado,
      'aplicada',
    );
    const r = dados<RetiradaGql>(await retirada(navs.vera, c.cicloid, c.sede.id), 'retiradaDoPonto');
    const sergio = r.pedidos.find((p) => p.id === String(c.sergio.pedidoId));
    assert.equal(sergio?.retirada?.chave, cedo.chave);
    assert.equal(sergio?.retirada?.quem, 'vera da retirada');
    assert.equal(sergio?.retirada?.dispositivo, 'aparelho-vera-1');
    assert.equal(sergio?.retirada?.feitoEm, cedo.feitoEm);
    assert.deepEqual(
      r.acoes.map((a) => [a.chave, a.tipo, a.quem]),
      [
        [cedo.chave, 'retirada', 'vera da retirada'],
        [tarde.chave, 'retirada', 'admin da retirada'],
      ],
    );
    assert.equal(r.pedidos.find((p) => p.id === String(c.rita.pedidoId))?.retirada, null);
  });

  test('a falta de um item não passa do que foi pedido, somando as já registradas; a de um extra também', async () => {
    const c = await cenario();
    const p = String(c.sergio.pedidoId);
    const cesta = {
      tipo: 'falta',
      pedidoId: p,
      pedidoProdutoId: String(c.sergio.linhaCesta),
      produtoId: String(c.alface.id),
    };
    const lote = [
      // 2 baskets × 1 maço: at most 2 maços.
      acao({ ...cesta, quantidade: '1.5', substituto: 'Couve', texto: 'Acabou a alface' }),
      acao({ ...cesta, quantidade: '1' }),
      acao({ ...cesta, quantidade: '0.5' }),
      acao({ tipo: 'falta', pedidoId: p, pedidoProdutoId: String(c.sergio.linhaExtra), quantidade: '18.001' }),
    ];
    const r = dados<Resultado[]>(await sincronizar(navs.vera, c.cicloid, c.sede.id, lote), 'sincronizarRetirada');
    assert.deepEqual(
      r.map((x) => [x.estado, x.mensagem]),
      [
        ['aplicada', null],
        [
          'recusada',
          `A falta passaria do que foi pedido: 2 maços de ${c.alface.nome}; já faltou 1,5 maço, e esta falta é de 1 maço`,
        ],
        ['aplicada', null],
        ['recusada', `A falta passaria do que foi pedido: 18 kg de ${c.tomate.nome}; esta falta é de 18,001 kg`],
      ],
    );
    const snap = dados<RetiradaGql>(await retirada(navs.vera, c.cicloid, c.sede.id), 'retiradaDoPonto');
    assert.deepEqual(
      snap.acoes
        .map((a) => [a.tipo, a.pedidoProdutoId, a.produtoId, a.quantidade, a.substituto, a.texto])
        .sort((x, y) => String(y[3]).localeCompare(String(x[3]))),
      [
        ['falta', String(c.sergio.linhaCesta), String(c.alface.id), '1.500', 'Couve', 'Acabou a alface'],
        ['falta', String(c.sergio.linhaCesta), String(c.alface.id), '0.500', null, null],
      ],
    );
  });

  test('duas faltas do mesmo item enviadas ao mesmo tempo, de dois aparelhos, não passam juntas do que foi pedido', async () => {
    const c = await cenario();
    const falta = () =>
      acao({
        tipo: 'falta',
        pedidoId: String(c.sergio.pedidoId),
        pedidoProdutoId: String(c.sergio.linhaCesta),
        produtoId: String(c.alface.id),
        quantidade: '1.5',
      });
    // 2 baskets × 1 maço: each short fits alone, not both.
    const [a, b] = [falta(), falta()];
    const juntos = await Promise.all([
      sincronizar(navs.vera, c.cicloid, c.sede.id, [a], 'aparelho-vera-1'),
      sincronizar(navs.admin, c.cicloid, c.sede.id, [b], 'aparelho-admin-1'),
    ]);
    assert.deepEqual(juntos.map((r) => dados<Resultado[]>(r, 'sincronizarRetirada')[0]?.estado).sort(), [
      'aplicada',
      'recusada',
    ]);
    const soma = await amb.banco
      .selectFrom('acaoretirada')
      .select((eb) => eb.fn.sum<number | string>('quantidadeMilesimos').as('s'))
      .where('pedidoProdutoId', '=', c.sergio.linhaCesta)
      .executeTakeFirstOrThrow();
    assert.equal(Number(soma.s), 1500);
  });

  test(
    'a mesma falta enviada duas vezes ao mesmo tempo, a segunda esperando a trava do pedido: uma aplicada, a outra repetida, nunca recusada contra si mesma',
    { skip: DIALETO !== 'postgres' && 'só no PostgreSQL: o SQLite tem um escritor por vez' },
    async () => {
      if (amb.bancoConfig.tipo !== 'postgres') throw new Error('só PostgreSQL');
      const c = await cenario();
      const a = acao({
        tipo: 'falta',
        pedidoId: String(c.sergio.pedidoId),
        pedidoProdutoId: String(c.sergio.linhaCesta),
        produtoId: String(c.alface.id),
        quantidade: '1.5',
      });
      // A third connection holds the audit table, where a write waits after every check; the first
      // send waits there holding the order's lock, and the second, already past the key's check,
      // waits for that lock. Then both go on.
      const cliente = new pg.Client({ connectionString: amb.bancoConfig.url });
      await cliente.connect();
      const esperando = async () => {
        await cliente.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await cliente.query<{ n: string }>(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()",
        );
        return Number(rows[0]?.n ?? 0);
      };
      const ate = async (n: number) => {
        for (let i = 0; i < 500 && (await esperando()) < n; i++) await new Promise((r) => setTimeout(r, 10));
        assert.ok((await esperando()) >= n, `${n} envios deveriam estar esperando uma trava`);
      };
      let respostas: RespostaGraphql[];
      try {
        await cliente.query('BEGIN');
        await cliente.query('LOCK TABLE auditoria IN EXCLUSIVE MODE');
        const primeiro = sincronizar(navs.vera, c.cicloid, c.sede.id, [a], 'aparelho-vera-1');
        await ate(1);
        const segundo = sincronizar(navs.admin, c.cicloid, c.sede.id, [a], 'aparelho-admin-1');
        await ate(2);
        await cliente.query('COMMIT');
        respostas = await Promise.all([primeiro, segundo]);
      } finally {
        await cliente.end();
      }
      assert.deepEqual(
        respostas.map((r) => dados<Resultado[]>(r, 'sincronizarRetirada')[0]),
        [
          { chave: a.chave, estado: 'aplicada', mensagem: null },
          { chave: a.chave, estado: 'repetida', mensagem: null },
        ],
      );
      assert.equal(await contar('acaoretirada', a.chave), 1);
      assert.equal(await contar('auditoria', a.chave), 1);
    },
  );

  test('um pagamento vira na hora um crédito "Pagamento recebido" no livro da pessoa, com o dia do aparelho; o devido cai e o pago sobe', async () => {
    const c = await cenario();
    const pagamentos = [
      acao({ tipo: 'pagamento', pedidoId: String(c.rita.pedidoId), valor: '50.00', forma: 'dinheiro' }),
      acao({ tipo: 'pagamento', pedidoId: String(c.rita.pedidoId), valor: '8.50', forma: 'pix' }),
    ];
    const r = dados<Resultado[]>(await sincronizar(navs.vera, c.cicloid, c.sede.id, pagamentos), 'sincronizarRetirada');
    assert.deepEqual(
      r.map((x) => x.estado),
      ['aplicada', 'aplicada'],
      'dois pagamentos são dois pagamentos',
    );
    const registros = await amb.banco
      .selectFrom('acaoretirada')
      .select(['id', 'chave'])
      .where('cicloid', '=', c.cicloid)
      .orderBy('id')
      .execute();
    const movs = [];
    for (const g of registros)
      movs.push({
        id: g.id,
        ...(await amb.banco
          .selectFrom('movimentacao as m')
          .innerJoin('tipomovimentacao as t', 't.id', 'm.tipoMovimentacaoId')
          .select(['t.nome', 'm.usuarioid', 'm.sentido', 'm.valorCentavos', 'm.data', 'm.descricao', 'm.cicloid'])
          .where('m.chave', '=', `retirada:${g.chave}`)
          .executeTakeFirstOrThrow()),
      });
    assert.deepEqual(
      registros.map((g) => g.chave),
      pagamentos.map((x) => x.chave),
    );
    assert.deepEqual(
      movs.map((m) => [m.nome, m.usuarioid, m.sentido, m.valorCentavos, m.data, m.cicloid, m.descricao]),
      [
        [
          'Pagamento recebido',
          c.rita.usuarioid,
          'credito',
          5000,
          c.hoje,
          c.cicloid,
          `Pagamento na retirada (dinheiro), registro #${movs[0]?.id}, ${c.sede.nome}`,
        ],
        [
          'Pagamento recebido',
          c.rita.usuarioid,
          'credito',
          850,
          c.hoje,
          c.cicloid,
          `Pagamento na retirada (Pix), registro #${movs[1]?.id}, ${c.sede.nome}`,
        ],
      ],
    );
    const rita = dados<RetiradaGql>(await retirada(navs.vera, c.cicloid, c.sede.id), 'retiradaDoPonto').pedidos.find(
      (p) => p.id === String(c.rita.pedidoId),
    );
    assert.deepEqual([rita?.total, rita?.pago, rita?.devido], ['88.00', '58.50', '29.50']);
  });

  test('uma falta depois do fechamento vira ajuste na hora, com os valores de valoresDasFaltas; antes do fechamento, quem lança é o fechamento', async () => {
    const c = await cenario();
    const antesDoFechamento = acao({
      tipo: 'falta',
      pedidoId: String(c.sergio.pedidoId),
      pedidoProdutoId: String(c.sergio.linhaExtra),
      quantidade: '2',
    });
    await sincronizar(navs.vera, c.cicloid, c.sede.id, [antesDoFechamento]);
    assert.equal(await contar('movimentacao', antesDoFechamento.chave), 0, 'o ciclo está aberto: nada no livro ainda');
    await fecharCiclo(amb.banco, master, c.cicloid, {
      agora: amb.relogio.agora(),
      hoje: c.hoje,
      taxa: amb.config.taxa,
    });
    assert.equal(await contar('movimentacao', antesDoFechamento.chave), 2, 'o crédito de Sérgio e o débito de Ana');

    const depois = acao({
      tipo: 'falta',
      pedidoId: String(c.rita.pedidoId),
      pedidoProdutoId: String(c.rita.linhaCesta),
      produtoId: String(c.tomate.id),
      quantidade: '0.75',
    });
    const [r] = dados<Resultado[]>(await sincronizar(navs.vera, c.cicloid, c.sede.id, [depois]), 'sincronizarRetirada');
    assert.equal(r?.estado, 'aplicada', JSON.stringify(r));
    const valores = await valoresDasFaltas(amb.banco, c.cicloid, amb.config.taxa);
    const v = valores.find((x) => x.chave === depois.chave);
    // 0,75 kg of Ana's tomatoes at R$ 4,00 = R$ 3,00, and 10 %.
    assert.deepEqual([v?.consumidorCentavos, v?.fornecedores], [330, [{ usuarioid: c.ana.id, centavos: 300 }]]);
    const movs = await amb.banco
      .selectFrom('movimentacao')
      .select(['chave', 'usuarioid', 'sentido', 'valorCentavos'])
      .where('chave', 'like', `retirada:${depois.chave}:%`)
      .execute();
    assert.deepEqual(
      movs.map((m) => [m.chave, m.usuarioid, m.sentido, m.valorCentavos]).sort(),
      [
        [`retirada:${depois.chave}:consumidor`, c.rita.usuarioid, 'credito', 330],
        [`retirada:${depois.chave}:fornecedor:${c.ana.id}`, c.ana.id, 'debito', 300],
      ].sort(),
    );
  });

  test('a auditoria guarda cada ação com quem fez, o aparelho e o momento em que aconteceu (em = feitoEm), não o da chegada', async () => {
    const c = await cenario();
    const a = acao({
      tipo: 'nota',
      pedidoId: String(c.rita.pedidoId),
      texto: 'Vem buscar a mãe dela',
      feitoEm: antes(90),
    });
    await sincronizar(navs.vera, c.cicloid, c.sede.id, [a], 'aparelho-da-vera');
    const linha = await amb.banco
      .selectFrom('auditoria')
      .selectAll()
      .where('depois', 'like', `%${a.chave}%`)
      .executeTakeFirstOrThrow();
    const depois = JSON.parse(linha.depois ?? '{}') as Record<string, unknown>;
    assert.deepEqual(
      {
        usuarioid: linha.usuarioid,
        acao: linha.acao,
        entidade: linha.entidade,
        entidadeId: linha.entidadeId,
        em: linha.em,
        chave: depois.chave,
        dispositivo: depois.dispositivo,
        recebidoEm: depois.recebidoEm,
        texto: depois.texto,
      },
      {
        usuarioid: ids.vera,
        acao: 'retirada: nota',
        entidade: 'pedido',
        entidadeId: String(c.rita.pedidoId),
        em: a.feitoEm,
        chave: a.chave,
        dispositivo: 'aparelho-da-vera',
        recebidoEm: amb.relogio.agora().toISOString(),
        texto: 'Vem buscar a mãe dela',
      },
    );
  });

  test('antes do fim dos pedidos, a retirada não abre: ler e enviar dão CONFLICT (PEDIDOS_ABERTOS), e nada é gravado', async () => {
    const hoje = diaLocal(amb.relogio.agora(), amb.config.tz);
    const c = await cenarioDaRetirada(amb.banco, {
      agora: amb.relogio.agora(),
      datas: { dataPedidoFim: hoje, dataRetiradaInicio: somarDias(hoje, 1), dataRetiradaFim: somarDias(hoje, 2) },
    });
    await nomearVoluntario(amb.banco, c.cicloid, c.sede.id, ids.vera);
    const leitura = erro(await retirada(navs.vera, c.cicloid, c.sede.id));
    assert.deepEqual([leitura.code, leitura.motivo], ['CONFLICT', 'PEDIDOS_ABERTOS']);
    assert.equal(
      leitura.message,
      `A retirada deste ciclo abre depois do fim dos pedidos (${hoje.split('-').reverse().join('/')}): até lá os pedidos ainda podem mudar`,
    );
    const chave = randomUUID();
    const envio = erro(
      await sincronizar(navs.vera, c.cicloid, c.sede.id, [
        { chave, tipo: 'retirada', pedidoId: String(c.rita.pedidoId), feitoEm: antes(1) },
      ]),
    );
    assert.deepEqual([envio.code, envio.motivo], ['CONFLICT', 'PEDIDOS_ABERTOS']);
    assert.equal(await contar('acaoretirada', chave), 0);
    assert.deepEqual(
      dados<Array<{ cicloId: string }>>(await gql(navs.vera, PONTOS), 'meusPontosDeRetirada').filter(
        (p) => p.cicloId === String(c.cicloid),
      ),
      [],
      'nem aparece na lista',
    );
  });

  test('o custo: 100 ações cabem numa operação; a mesma mutação duas vezes sob apelidos é recusada antes de rodar', async () => {
    const c = await cenario();
    const lote = Array.from({ length: 100 }, (_, i) =>
      acao({ tipo: 'nota', pedidoId: String(c.rita.pedidoId), texto: `Nota ${i + 1}` }),
    );
    const r = dados<Resultado[]>(await sincronizar(navs.vera, c.cicloid, c.sede.id, lote), 'sincronizarRetirada');
    assert.equal(r.filter((x) => x.estado === 'aplicada').length, 100);

    const outro = Array.from({ length: 2 }, () =>
      acao({ tipo: 'nota', pedidoId: String(c.rita.pedidoId), texto: 'dobro' }),
    );
    const dobro = await gql(
      navs.vera,
      `mutation($c: ID!, $p: ID!, $a: [AcaoDeRetiradaInput!]!) {
        a: sincronizarRetirada(cicloId: $c, pontoId: $p, dispositivo: "aparelho-vera-1", acoes: $a) { estado }
        b: sincronizarRetirada(cicloId: $c, pontoId: $p, dispositivo: "aparelho-vera-1", acoes: $a) { estado } }`,
      { c: c.cicloid, p: c.sede.id, a: outro },
    );
    assert.equal(erro(dobro).code, 'CONSULTA_CUSTOSA_DEMAIS');
    for (const a of outro) assert.equal(await contar('acaoretirada', a.chave), 0);
  });
});
