import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Kind, buildSchema, isObjectType } from 'graphql';
import {
  ACOES_MERCADOS,
  PROFILES,
  acoesDaConta,
  acoesDoMercado,
  perfisDaAcao,
  podeMercados,
  type AtorMercados,
  type NomePerfil,
} from '../../src/domain/politica-mercados.ts';
import { ACOES_DOS_CAMPOS, ErroDeEsquema } from '../../src/mercados/graphql/acesso.ts';
import { SDL, criarEsquema } from '../../src/mercados/graphql/esquema.ts';

const conta = (id: number, ...profiles: NomePerfil[]): AtorMercados => ({
  id,
  email: `c${id}@teste.org`,
  name: `Conta ${id}`,
  profiles,
});

test('o que cada perfil pode fazer na face vem da tabela da política, e o cliente o lê em acoes', () => {
  const esperado: Readonly<Record<NomePerfil, ReturnType<typeof acoesDaConta>>> = {
    Administrador: {
      criarMercado: true,
      gerirMercados: true,
      gerirAlgumMercado: true,
      listarUsuarios: true,
      atribuirPerfis: true,
      ofertar: false,
      pedir: false,
      definirMercadosDoCiclo: true,
    },
    AdminMercado: {
      criarMercado: false,
      gerirMercados: false,
      gerirAlgumMercado: true,
      listarUsuarios: false,
      atribuirPerfis: false,
      ofertar: false,
      pedir: false,
      definirMercadosDoCiclo: false,
    },
    Fornecedor: {
      criarMercado: false,
      gerirMercados: false,
      gerirAlgumMercado: false,
      listarUsuarios: false,
      atribuirPerfis: false,
      ofertar: true,
      pedir: false,
      definirMercadosDoCiclo: false,
    },
    Consumidor: {
      criarMercado: false,
      gerirMercados: false,
      gerirAlgumMercado: false,
      listarUsuarios: false,
      atribuirPerfis: false,
      ofertar: false,
      pedir: true,
      definirMercadosDoCiclo: false,
    },
  };
  for (const p of PROFILES) assert.deepEqual(acoesDaConta(conta(1, p)), esperado[p], p);
  // Rights are the union over the profiles.
  assert.deepEqual(acoesDaConta(conta(1, 'AdminMercado', 'Consumidor')), { ...esperado.AdminMercado, pedir: true });
  // No profile, no right.
  assert.deepEqual(acoesDaConta(conta(1)), { ...esperado.Consumidor, pedir: false });
});

test('num mercado, o AdminMercado só edita e vê os pedidos do que administra; desativar é do Administrador e só de um ativo', () => {
  const mercado = { adminId: 7, ativo: true };
  assert.deepEqual(acoesDoMercado(conta(7, 'AdminMercado'), mercado), {
    editar: true,
    editarPrecos: true,
    desativar: false,
    verPedidos: true,
    baixarPrecos: true,
  });
  assert.deepEqual(acoesDoMercado(conta(8, 'AdminMercado'), mercado), {
    editar: false,
    editarPrecos: false,
    desativar: false,
    verPedidos: false,
    baixarPrecos: false,
  });
  assert.deepEqual(acoesDoMercado(conta(1, 'Administrador'), mercado), {
    editar: true,
    editarPrecos: true,
    desativar: true,
    verPedidos: true,
    baixarPrecos: true,
  });
  assert.deepEqual(acoesDoMercado(conta(1, 'Administrador'), { ...mercado, ativo: false }), {
    editar: true,
    editarPrecos: true,
    desativar: false,
    verPedidos: true,
    baixarPrecos: true,
  });
  // An account with that id but without the profile administers nothing.
  assert.deepEqual(acoesDoMercado(conta(7, 'Consumidor'), mercado), {
    editar: false,
    editarPrecos: false,
    desativar: false,
    verPedidos: false,
    baixarPrecos: false,
  });
  assert.deepEqual(acoesDoMercado(conta(7, 'Fornecedor', 'Consumidor'), mercado).verPedidos, false);
});

// ---------------------------------------------------------------------------------------------
// One source of truth for GraphQL: each field's @auth against the action its resolver authorises.

/** Every field of the schema file with @auth, and the profiles its `requires` lists. */
function camposComAuth(sdl: string): Map<string, NomePerfil[]> {
  const esquema = buildSchema(sdl);
  const campos = new Map<string, NomePerfil[]>();
  for (const tipo of Object.values(esquema.getTypeMap())) {
    if (!isObjectType(tipo) || tipo.name.startsWith('__')) continue;
    for (const campo of Object.values(tipo.getFields())) {
      const auth = campo.astNode?.directives?.find((d) => d.name.value === 'auth');
      if (auth === undefined) continue;
      const requires = auth.arguments?.find((a) => a.name.value === 'requires')?.value;
      const perfis =
        requires?.kind === Kind.LIST ? requires.values.map((v) => (v.kind === Kind.STRING ? v.value : '')) : [];
      campos.set(`${tipo.name}.${campo.name}`, perfis as NomePerfil[]);
    }
  }
  return campos;
}

const ordenados = (perfis: readonly string[] | 'qualquerConta'): readonly string[] =>
  perfis === 'qualquerConta' ? [] : [...perfis].sort();

test('campo a campo, o @auth do schema.graphql admite exatamente os perfis que a política permite para a ação do resolver', () => {
  const campos = camposComAuth(SDL);
  assert.deepEqual(
    [...campos.keys()].sort(),
    Object.keys(ACOES_DOS_CAMPOS).sort(),
    'cada campo com @auth tem uma ação, e cada ação um campo',
  );
  for (const [campo, requires] of campos) {
    const acao = ACOES_DOS_CAMPOS[campo];
    assert.ok(acao !== undefined && ACOES_MERCADOS.includes(acao), campo);
    assert.deepEqual(ordenados(requires), ordenados(perfisDaAcao(acao)), `${campo} (${acao})`);
    // And the policy says the same to every caller: each set of profiles passes @auth exactly when
    // it passes the action's gate (for a record action, on a record the caller may act on).
    for (let mascara = 0; mascara < 2 ** PROFILES.length; mascara++) {
      const perfis = PROFILES.filter((_, i) => (mascara & (1 << i)) !== 0);
      const passaAuth = requires.length === 0 || perfis.some((p) => requires.includes(p));
      const quem = conta(7, ...perfis);
      const alvo = { adminId: 7, id: 7 } as never;
      assert.equal(podeMercados(quem, acao, alvo), passaAuth, `${campo} com [${perfis.join(', ')}]`);
    }
  }
});

test('o servidor não sobe se um @auth e a política discordarem (campo com outros perfis, ação trocada, campo sem ação)', () => {
  assert.doesNotThrow(() => criarEsquema());
  const semAdministrador = SDL.replace(
    'salvarOferta(cicloId: ID!, input: OfertaInput!, finalizar: Boolean): Oferta! @auth(requires: ["Fornecedor", "Administrador"])',
    'salvarOferta(cicloId: ID!, input: OfertaInput!, finalizar: Boolean): Oferta! @auth(requires: ["Fornecedor"])',
  );
  assert.notEqual(semAdministrador, SDL);
  assert.throws(
    () => criarEsquema({ sdl: semAdministrador }),
    (e: unknown) =>
      e instanceof ErroDeEsquema &&
      e.message.includes(
        'Mutation.salvarOferta (@auth: Fornecedor; política, gravarOferta: Fornecedor, Administrador)',
      ),
  );
  assert.throws(
    () => criarEsquema({ acoes: { ...ACOES_DOS_CAMPOS, 'Query.usuarios': 'verMercados' } }),
    /Query\.usuarios \(@auth: Administrador; política, verMercados: qualquer conta\)/,
  );
  const { ['Mutation.desativarMercado']: _semAcao, ...falta } = ACOES_DOS_CAMPOS;
  assert.throws(
    () => criarEsquema({ acoes: falta }),
    /@auth sem ação da política em ACOES_DOS_CAMPOS: Mutation\.desativarMercado/,
  );
  assert.throws(
    () => criarEsquema({ acoes: { ...ACOES_DOS_CAMPOS, 'Query.sumiu': 'verMercados' } }),
    /ACOES_DOS_CAMPOS cita campos sem @auth ou que não existem: Query\.sumiu/,
  );
});
