import assert from 'node:assert/strict';
import { criarEsquema } from '../../src/mercados/graphql/esquema.ts';
import { after, before, describe, test } from 'node:test';
import { entrarComProvedor, type Conta } from '../../src/domain/contas.ts';
import { emailUnico, criarProduto } from '../helpers/fabricas.ts';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { criarMercadoNoBanco, entrarNoMercados, graphql, perfisDe, type RespostaGraphql } from './apoio.ts';

/**
 * Every GraphQL operation × every kind of caller, one test per cell, with the exact outcome.
 * The callers log in through the development provider's real login page; the Administrador
 * gets the profile from ADMIN_EMAILS and hands out the others through atribuirPerfis.
 */

const PAPEIS = ['anonimo', 'Consumidor', 'Fornecedor', 'AdminMercadoDono', 'AdminMercadoDeOutro', 'Administrador'] as const;
type Papel = (typeof PAPEIS)[number];

const NOMES_PAPEIS: Readonly<Record<Papel, string>> = {
  anonimo: 'anônimo',
  Consumidor: 'Consumidor',
  Fornecedor: 'Fornecedor',
  AdminMercadoDono: 'AdminMercado dono do mercado',
  AdminMercadoDeOutro: 'AdminMercado de outro mercado',
  Administrador: 'Administrador',
};

interface Recusa {
  readonly code: string;
  readonly message: string;
}
type Esperado = 'permitido' | 'nao autenticado' | Recusa;

const SO_ADMINISTRADOR: Recusa = { code: 'FORBIDDEN', message: 'Acesso negado: requer o perfil Administrador' };
const ADMINISTRADOR_OU_ADMIN_MERCADO: Recusa = { code: 'FORBIDDEN', message: 'Acesso negado: requer um dos perfis Administrador, AdminMercado' };
const OUTRO_MERCADO: Recusa = { code: 'FORBIDDEN', message: 'Acesso negado: você só pode alterar o mercado que administra' };
const SEM_CADASTRO_NA_CESTAS: Recusa = {
  code: 'CONFLICT',
  message: 'Sua conta ainda não tem cadastro na face Cestas: os avisos por e-mail são de quem oferta ou pede lá. Complete o cadastro para escolhê-los',
};
const PRECOS_DE_OUTRO_MERCADO: Recusa = { code: 'FORBIDDEN', message: 'Acesso negado: você só pode alterar os preços do mercado que administra' };

/** What each cell works on: a fresh market owned by the "dono", a product, a fresh account. */
interface Alvo {
  readonly mercadoId: number;
  readonly produtoId: number;
  readonly contaId: number;
}

interface Operacao {
  readonly nome: string;
  readonly pedido: (a: Alvo) => { query: string; variables?: Record<string, unknown> };
  readonly esperado: Readonly<Record<Papel, Esperado>>;
  /** When allowed: the answer and the database show the effect. */
  readonly efeito: (r: RespostaGraphql, a: Alvo, amb: AmbienteDeTeste, quem: Conta) => Promise<void>;
}

const todos = (e: Esperado): Readonly<Record<Papel, Esperado>> => ({
  anonimo: 'nao autenticado', Consumidor: e, Fornecedor: e, AdminMercadoDono: e, AdminMercadoDeOutro: e, Administrador: e,
});
const soAdministrador = { ...todos(SO_ADMINISTRADOR), Administrador: 'permitido' } as const;

async function quantosMercados(amb: AmbienteDeTeste): Promise<number> {
  const r = await amb.banco.selectFrom('mercado').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  return Number(r.n);
}

async function mercadoNoBanco(amb: AmbienteDeTeste, id: number) {
  return amb.banco.selectFrom('mercado').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

const OPERACOES: readonly Operacao[] = [
  {
    nome: 'mercados',
    pedido: () => ({ query: '{ mercados { id nome } }' }),
    esperado: todos('permitido'),
    efeito: async (r, a) => assert.ok((r.corpo.data?.mercados as Array<{ id: string }>).some((m) => m.id === String(a.mercadoId))),
  },
  {
    nome: 'mercado',
    pedido: (a) => ({ query: 'query($id: ID!) { mercado(id: $id) { id adminId } }', variables: { id: a.mercadoId } }),
    esperado: todos('permitido'),
    efeito: async (r, a) => assert.equal((r.corpo.data?.mercado as { id: string }).id, String(a.mercadoId)),
  },
  {
    nome: 'me',
    pedido: () => ({ query: '{ me { id name email profiles } }' }),
    esperado: todos('permitido'),
    efeito: async (r, _a, _amb, quem) =>
      assert.deepEqual(r.corpo.data?.me, { id: String(quem.id), name: quem.name, email: quem.email, profiles: quem.profiles }),
  },
  {
    nome: 'produtos',
    pedido: () => ({ query: '{ produtos { id nome } }' }),
    esperado: todos('permitido'),
    efeito: async (r, a) => assert.ok((r.corpo.data?.produtos as Array<{ id: string }>).some((p) => p.id === String(a.produtoId))),
  },
  {
    nome: 'usuarios',
    pedido: () => ({ query: '{ usuarios { id email } }' }),
    esperado: soAdministrador,
    efeito: async (r, a) => assert.ok((r.corpo.data?.usuarios as Array<{ id: string; email: string | null }>).some((u) => u.id === String(a.contaId) && u.email !== null)),
  },
  {
    // The matrix's accounts have no Cestas record: nothing to receive (test/mercados/avisos.test.ts covers a linked person).
    nome: 'meusAvisos',
    pedido: () => ({ query: '{ meusAvisos { recebe cadastro } }' }),
    esperado: todos('permitido'),
    efeito: async (r) => assert.deepEqual(r.corpo.data?.meusAvisos, { recebe: [], cadastro: false }),
  },
  {
    nome: 'definirMeusAvisos',
    pedido: () => ({ query: 'mutation { definirMeusAvisos(recebe: ["retirada"]) { recebe } }' }),
    esperado: todos(SEM_CADASTRO_NA_CESTAS),
    efeito: async () => assert.fail('uma conta sem cadastro na Cestas não escolhe avisos'),
  },
  {
    nome: 'criarMercado',
    pedido: () => ({
      query: 'mutation($input: MercadoInput!) { criarMercado(input: $input) { id nome adminId } }',
      variables: { input: { nome: 'Mercado da matriz', tipo: 'lote' } },
    }),
    esperado: soAdministrador,
    efeito: async (r, _a, amb, quem) => {
      const criado = r.corpo.data?.criarMercado as { id: string; adminId: string };
      assert.equal(criado.adminId, String(quem.id));
      assert.equal((await mercadoNoBanco(amb, Number(criado.id))).nome, 'Mercado da matriz');
    },
  },
  {
    nome: 'atualizarMercado',
    pedido: (a) => ({
      query: 'mutation($id: ID!, $input: MercadoInput!) { atualizarMercado(id: $id, input: $input) { id nome } }',
      variables: { id: a.mercadoId, input: { nome: 'Nome novo', tipo: 'venda_direta' } },
    }),
    esperado: {
      anonimo: 'nao autenticado', Consumidor: ADMINISTRADOR_OU_ADMIN_MERCADO, Fornecedor: ADMINISTRADOR_OU_ADMIN_MERCADO,
      AdminMercadoDono: 'permitido', AdminMercadoDeOutro: OUTRO_MERCADO, Administrador: 'permitido',
    },
    efeito: async (r, a, amb) => {
      assert.deepEqual(r.corpo.data?.atualizarMercado, { id: String(a.mercadoId), nome: 'Nome novo' });
      assert.equal((await mercadoNoBanco(amb, a.mercadoId)).nome, 'Nome novo');
    },
  },
  {
    nome: 'desativarMercado',
    pedido: (a) => ({ query: 'mutation($id: ID!) { desativarMercado(id: $id) { id ativo } }', variables: { id: a.mercadoId } }),
    esperado: soAdministrador,
    efeito: async (r, a, amb) => {
      assert.deepEqual(r.corpo.data?.desativarMercado, { id: String(a.mercadoId), ativo: false });
      assert.equal((await mercadoNoBanco(amb, a.mercadoId)).ativo, false);
    },
  },
  {
    nome: 'atualizarPrecoMercado',
    pedido: (a) => ({
      query: 'mutation($id: ID!, $input: PrecoMercadoInput!) { atualizarPrecoMercado(id: $id, input: $input) { id precos { produtoId preco ativo } } }',
      variables: { id: a.mercadoId, input: { precos: [{ produtoId: a.produtoId, preco: '7.5' }] } },
    }),
    esperado: {
      anonimo: 'nao autenticado', Consumidor: ADMINISTRADOR_OU_ADMIN_MERCADO, Fornecedor: ADMINISTRADOR_OU_ADMIN_MERCADO,
      AdminMercadoDono: 'permitido', AdminMercadoDeOutro: PRECOS_DE_OUTRO_MERCADO, Administrador: 'permitido',
    },
    efeito: async (r, a) => {
      assert.deepEqual(r.corpo.data?.atualizarPrecoMercado, {
        id: String(a.mercadoId),
        precos: [{ produtoId: String(a.produtoId), preco: '7.50', ativo: true }],
      });
    },
  },
  {
    nome: 'atribuirPerfis',
    pedido: (a) => ({
      query: 'mutation($userId: ID!, $perfis: [String!]!) { atribuirPerfis(userId: $userId, perfis: $perfis) { id profiles } }',
      variables: { userId: a.contaId, perfis: ['Fornecedor', 'AdminMercado'] },
    }),
    esperado: soAdministrador,
    efeito: async (r, a, amb) => {
      assert.deepEqual(r.corpo.data?.atribuirPerfis, { id: String(a.contaId), profiles: ['AdminMercado', 'Fornecedor'] });
      assert.deepEqual(await perfisDe(amb.banco, a.contaId), ['AdminMercado', 'Fornecedor']);
    },
  },
];

test('a matriz tem exatamente uma linha por campo de Query e Mutation: um campo novo sem linha falha aqui', () => {
  const esquema = criarEsquema();
  const campos = [esquema.getQueryType(), esquema.getMutationType()].flatMap((t) => Object.keys(t?.getFields() ?? {})).sort();
  assert.deepEqual(OPERACOES.map((o) => o.nome).sort(), campos);
});

describe('GraphQL: cada operação × cada perfil', () => {
  let amb: AmbienteDeTeste;
  const emailAdministrador = emailUnico('administrador');
  const navs = new Map<Papel, Navegador>();
  const contas = new Map<Papel, Conta>();
  let produtoId: number;

  async function entrar(papel: Papel, email: string): Promise<void> {
    const nav = new Navegador();
    const r = await entrarNoMercados(amb, nav, { email, nome: NOMES_PAPEIS[papel] });
    assert.equal(new URL(r.url).pathname, '/dashboard', `login de ${papel}`);
    navs.set(papel, nav);
  }

  before(async () => {
    amb = await iniciarAmbiente({ mercados: true, env: { ADMIN_EMAILS: emailAdministrador } });
    navs.set('anonimo', new Navegador());
    await entrar('Administrador', emailAdministrador);
    const administrador = navs.get('Administrador') ?? new Navegador();
    const perfis: ReadonlyArray<readonly [Papel, string]> = [
      ['Consumidor', 'Consumidor'], ['Fornecedor', 'Fornecedor'], ['AdminMercadoDono', 'AdminMercado'], ['AdminMercadoDeOutro', 'AdminMercado'],
    ];
    for (const [papel, perfil] of perfis) {
      await entrar(papel, emailUnico(papel.toLowerCase()));
      const me = await graphql(amb.urlMercados, navs.get(papel) ?? new Navegador(), '{ me { id } }');
      const id = (me.corpo.data?.me as { id: string }).id;
      if (perfil !== 'Consumidor') {
        const r = await graphql(amb.urlMercados, administrador, 'mutation($u: ID!, $p: [String!]!) { atribuirPerfis(userId: $u, perfis: $p) { id } }', {
          u: id,
          p: [perfil],
        });
        assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
      }
    }
    for (const papel of PAPEIS) {
      if (papel === 'anonimo') continue;
      const me = await graphql(amb.urlMercados, navs.get(papel) ?? new Navegador(), '{ me { id name email profiles } }');
      const dados = me.corpo.data?.me as { id: string; name: string; email: string; profiles: Conta['profiles'] };
      contas.set(papel, { id: Number(dados.id), providerId: '', email: dados.email, name: dados.name, avatar: null, usuarioId: null, profiles: dados.profiles });
    }
    assert.deepEqual(contas.get('Administrador')?.profiles, ['Administrador', 'Consumidor']);
    assert.deepEqual(contas.get('AdminMercadoDono')?.profiles, ['AdminMercado']);
    // The other AdminMercado administers a market of their own.
    await criarMercadoNoBanco(amb.banco, { adminId: contas.get('AdminMercadoDeOutro')?.id ?? 0 });
    produtoId = (await criarProduto(amb.banco)).id;
  });
  after(() => amb.fechar());

  async function novoAlvo(): Promise<Alvo> {
    const dono = contas.get('AdminMercadoDono');
    assert.ok(dono);
    const mercado = await criarMercadoNoBanco(amb.banco, { adminId: dono.id });
    const login = await entrarComProvedor(
      amb.banco,
      { providerId: `alvo-${mercado.id}`, email: emailUnico('alvo'), name: 'Pessoa Alvo', avatar: undefined, emailVerificado: true },
      { agora: new Date(), adminEmails: new Set(), sessaoAnterior: null },
    );
    return { mercadoId: mercado.id, produtoId, contaId: login.conta.id };
  }

  for (const op of OPERACOES) {
    describe(op.nome, () => {
      for (const papel of PAPEIS) {
        const esperado = op.esperado[papel];
        const descricao = esperado === 'permitido' ? 'permitido' : esperado === 'nao autenticado' ? '401 Não autenticado' : `${esperado.code} "${esperado.message}"`;
        test(`${NOMES_PAPEIS[papel]} → ${descricao}`, async () => {
          const alvo = await novoAlvo();
          const antes = await mercadoNoBanco(amb, alvo.mercadoId);
          const mercadosAntes = await quantosMercados(amb);
          const { query, variables } = op.pedido(alvo);
          const r = await graphql(amb.urlMercados, navs.get(papel) ?? new Navegador(), query, variables);
          if (esperado === 'nao autenticado') {
            assert.equal(r.status, 401);
            assert.deepEqual(r.corpo, { errors: [{ message: 'Não autenticado', extensions: { code: 'UNAUTHENTICATED' } }] });
          } else if (esperado === 'permitido') {
            assert.equal(r.status, 200);
            assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
            await op.efeito(r, alvo, amb, contas.get(papel) ?? assert.fail(`sem conta para ${papel}`));
            return;
          } else {
            assert.equal(r.status, 200);
            assert.equal(r.corpo.errors?.length, 1, JSON.stringify(r.corpo));
            assert.equal(r.corpo.errors[0]?.message, esperado.message);
            assert.equal(r.corpo.errors[0]?.extensions?.code, esperado.code);
            assert.deepEqual(r.corpo.errors[0]?.path, [op.nome]);
          }
          // Refused: nothing changed.
          assert.equal(await quantosMercados(amb), mercadosAntes);
          assert.deepEqual(await mercadoNoBanco(amb, alvo.mercadoId), antes);
          const precos = await amb.banco.selectFrom('precomercado').select('id').where('mercadoId', '=', alvo.mercadoId).execute();
          assert.deepEqual(precos, []);
          assert.deepEqual(await perfisDe(amb.banco, alvo.contaId), ['Consumidor']);
        });
      }
    });
  }
});
