import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getDirective } from '@graphql-tools/utils';
import { graphql, parse, specifiedRules, validate, type GraphQLSchema } from 'graphql';
import { abrirBanco, type Banco } from '../../src/db/banco.ts';
import type { Conta } from '../../src/domain/contas.ts';
import type { NomePerfil } from '../../src/domain/politica-mercados.ts';
import { contextoGraphql } from '../../src/mercados/acesso.ts';
import { ACOES_DOS_CAMPOS, CAMPOS_PUBLICOS, ErroDeEsquema } from '../../src/mercados/graphql/acesso.ts';
import { criarCarregadores, type ContextoResolvers } from '../../src/mercados/graphql/contexto-resolvers.ts';
import { TrabalhoDaRequisicao } from '../../src/mercados/graphql/trabalho.ts';
import { DateTime, Decimal, ErroDeEscalar } from '../../src/mercados/graphql/escalares.ts';
import { SDL, criarEsquema } from '../../src/mercados/graphql/esquema.ts';
import {
  CUSTO_MAXIMO,
  FATOR_DE_LISTA,
  PROFUNDIDADE_MAXIMA,
  RegraDosLimites,
  RegraSemIntrospeccao,
  custoDaOperacao,
} from '../../src/mercados/graphql/limites.ts';
import { bancoNovo } from '../helpers/banco.ts';

function conta(perfis: readonly NomePerfil[], id = 1): Conta {
  return {
    id,
    providerId: `s${id}`,
    email: `p${id}@teste.org`,
    name: `Pessoa ${id}`,
    emailVerificado: true,
    avatar: null,
    usuarioId: null,
    profiles: perfis,
  };
}

describe('esquema GraphQL da face Mercados', () => {
  let esquema: GraphQLSchema;
  let banco: Banco;
  before(async () => {
    esquema = criarEsquema();
    banco = abrirBanco(await bancoNovo());
  });
  after(() => banco.destroy());

  function contexto(user: Conta | null): ContextoResolvers {
    return {
      ...contextoGraphql(user),
      banco,
      agora: new Date(),
      carregadores: criarCarregadores(banco),
      trabalho: new TrabalhoDaRequisicao(),
      emailLigado: false,
      pix: null,
      requestId: 'teste',
      log: { error: () => undefined } as unknown as ContextoResolvers['log'],
      taxa: { percentualCentesimos: 0, fixaCentavos: 0 },
      tz: 'America/Sao_Paulo',
    };
  }

  // Results as they go over the wire (graphql-js builds objects without a prototype).
  const executar = async (fonte: string, user: Conta | null) =>
    JSON.parse(JSON.stringify(await graphql({ schema: esquema, source: fonte, contextValue: contexto(user) }))) as {
      data?: Record<string, unknown> | null;
      errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
    };

  describe('nega por padrão', () => {
    test('todo campo de Query e Mutation tem @auth ou está na lista de públicos', () => {
      for (const tipo of [esquema.getQueryType(), esquema.getMutationType()]) {
        assert.ok(tipo);
        for (const campo of Object.values(tipo.getFields())) {
          const coordenada = `${tipo.name}.${campo.name}`;
          const temAuth = getDirective(esquema, campo, 'auth') !== undefined;
          assert.ok(temAuth !== CAMPOS_PUBLICOS.includes(coordenada), `${coordenada}: @auth ou público, exatamente um`);
        }
      }
      assert.deepEqual(CAMPOS_PUBLICOS, ['Query.me']);
    });

    test('um campo novo sem @auth nem marca de público impede montar o esquema, em Query e em Mutation', () => {
      assert.throws(
        () => criarEsquema({ sdl: `${SDL}\nextend type Query { segredo: String }` }),
        (e: unknown) => e instanceof ErroDeEsquema && e.message.includes('Query.segredo'),
      );
      assert.throws(
        () => criarEsquema({ sdl: `${SDL}\nextend type Mutation { apagarTudo: Boolean }` }),
        (e: unknown) => e instanceof ErroDeEsquema && /sem regra de acesso.*Mutation\.apagarTudo/.test(e.message),
      );
      // @auth alone is not enough: the field names the policy action that decides who calls it.
      assert.throws(
        () => criarEsquema({ sdl: `${SDL}\nextend type Query { segredo: String @auth }` }),
        /Campos com @auth sem ação da política em ACOES_DOS_CAMPOS: Query\.segredo/,
      );
      assert.doesNotThrow(() =>
        criarEsquema({
          sdl: `${SDL}\nextend type Query { segredo: String @auth }`,
          acoes: { ...ACOES_DOS_CAMPOS, 'Query.segredo': 'verMercados' },
        }),
      );
      assert.doesNotThrow(() =>
        criarEsquema({
          sdl: `${SDL}\nextend type Query { versao: String }`,
          publicos: [...CAMPOS_PUBLICOS, 'Query.versao'],
        }),
      );
    });

    test('a lista de públicos não aceita campos inexistentes nem campos que também têm @auth', () => {
      assert.throws(
        () => criarEsquema({ publicos: [...CAMPOS_PUBLICOS, 'Query.sumiu'] }),
        /CAMPOS_PUBLICOS cita campos que não existem: Query\.sumiu/,
      );
      assert.throws(
        () => criarEsquema({ publicos: [...CAMPOS_PUBLICOS, 'Query.mercados'] }),
        /Query\.mercados tem @auth e também está em CAMPOS_PUBLICOS/,
      );
    });

    test('@auth com um perfil que não existe impede montar o esquema', () => {
      assert.throws(
        () => criarEsquema({ sdl: `${SDL}\nextend type Query { x: String @auth(requires: ["Admin"]) }` }),
        /@auth em Query\.x pede perfis desconhecidos: Admin/,
      );
    });
  });

  describe('@auth', () => {
    test('sem login: erro de autenticação "Não autenticado", código UNAUTHENTICATED', async () => {
      for (const fonte of [
        '{ mercados { id } }',
        '{ usuarios { id } }',
        'mutation { desativarMercado(id: 1) { id } }',
      ]) {
        const r = await executar(fonte, null);
        assert.equal(r.errors?.length, 1, fonte);
        assert.equal(r.errors[0]?.message, 'Não autenticado');
        assert.deepEqual(r.errors[0]?.extensions, { code: 'UNAUTHENTICATED' });
      }
    });

    test('requires com perfis que a pessoa não tem: FORBIDDEN com os perfis exigidos na mensagem', async () => {
      const um = await executar('{ usuarios { id } }', conta(['Consumidor', 'Fornecedor']));
      assert.equal(um.errors?.[0]?.message, 'Acesso negado: requer o perfil Administrador');
      assert.deepEqual(um.errors[0]?.extensions, { code: 'FORBIDDEN', required: ['Administrador'] });
      const varios = await executar(
        'mutation { atualizarMercado(id: 1, input: {nome: "x", tipo: lote}) { id } }',
        conta(['Fornecedor']),
      );
      assert.equal(varios.errors?.[0]?.message, 'Acesso negado: requer um dos perfis Administrador, AdminMercado');
      assert.deepEqual(varios.errors[0]?.extensions, {
        code: 'FORBIDDEN',
        required: ['Administrador', 'AdminMercado'],
      });
    });

    test('um dos perfis basta; requires vazio ou ausente aceita qualquer pessoa logada, mesmo sem perfil', async () => {
      const semPerfil = await executar('{ mercados { id } produtos { id } }', conta([]));
      assert.equal(semPerfil.errors, undefined);
      assert.deepEqual(semPerfil.data, { mercados: [], produtos: [] });
      const administrador = await executar('{ usuarios { id } }', conta(['Consumidor', 'Administrador']));
      assert.equal(administrador.errors, undefined);
    });

    test('me é público: null para quem não entrou, sem erro', async () => {
      assert.deepEqual(await executar('{ me { id } }', null), { data: { me: null } });
      const r = await executar('{ me { id name email profiles } }', conta(['Fornecedor'], 42));
      assert.deepEqual(r.data, {
        me: { id: '42', name: 'Pessoa 42', email: 'p42@teste.org', profiles: ['Fornecedor'] },
      });
    });
  });

  describe('escalares', () => {
    test('Decimal lê número JSON ou texto com ponto, exato, e responde texto com 2 casas', () => {
      const casos: ReadonlyArray<readonly [unknown, string]> = [
        [12.5, '12.50'],
        ['12.5', '12.50'],
        [3, '3.00'],
        ['0.1', '0.10'],
        [0.29, '0.29'],
        [' 7.05 ', '7.05'],
        ['-2.5', '-2.50'],
        ['0', '0.00'],
      ];
      for (const [entrada, saida] of casos) assert.equal(Decimal.parseValue(entrada), saida, String(entrada));
      assert.equal(Decimal.serialize({ centesimos: 1250 }), '12.50');
      assert.equal(Decimal.serialize({ centesimos: 5 }), '0.05');
    });

    test('Decimal recusa vírgula, casas demais, texto e tipos errados com mensagens em português', () => {
      const casos: ReadonlyArray<readonly [unknown, RegExp]> = [
        ['12,50', /^Use ponto como separador decimal/],
        ['1.234', /^Aceita no máximo 2 casas decimais/],
        ['abc', /^Deve ser um número com ponto decimal/],
        ['--1', /^Deve ser um número com ponto decimal/],
        [1e21, /^Deve ser um número com ponto decimal|^Valor grande demais/],
        [Number.NaN, /^Deve ser um número/],
        [true, /^Deve ser um número ou um texto/],
        [{}, /^Deve ser um número ou um texto/],
      ];
      for (const [entrada, motivo] of casos) {
        assert.throws(
          () => Decimal.parseValue(entrada),
          (e: unknown) => e instanceof ErroDeEscalar && motivo.test(e.message),
          String(entrada),
        );
      }
      // Only exact hundredths go out: a float reaching the scalar is a bug, not a value.
      assert.throws(() => Decimal.serialize(12.5), TypeError);
    });

    test('DateTime responde ISO 8601 em UTC e lê instantes com fuso', () => {
      assert.equal(DateTime.serialize('2026-11-21T18:00:00.000Z'), '2026-11-21T18:00:00.000Z');
      assert.equal(DateTime.serialize(new Date('2026-11-21T15:00:00-03:00')), '2026-11-21T18:00:00.000Z');
      assert.equal(
        (DateTime.parseValue('2026-11-21T15:00:00-03:00') as Date).toISOString(),
        '2026-11-21T18:00:00.000Z',
      );
      assert.throws(() => DateTime.parseValue('2026-11-21'), ErroDeEscalar);
      assert.throws(() => DateTime.parseValue('ontem'), ErroDeEscalar);
    });
  });

  describe('limites de profundidade e custo', () => {
    const limites = (fonte: string) => validate(esquema, parse(fonte), [...specifiedRules, RegraDosLimites]);

    test(`profundidade até ${PROFUNDIDADE_MAXIMA} passa; acima é recusada nomeando os níveis`, () => {
      assert.deepEqual(limites('{ mercados { admin { mercados { precos { produto { nome } } } } } }'), []);
      const erros = limites(
        '{ mercados { admin { mercados { admin { mercados { admin { mercados { admin { name } } } } } } } } }',
      );
      const profundo = erros.find((e) => e.extensions.code === 'CONSULTA_PROFUNDA_DEMAIS');
      assert.equal(
        profundo?.message,
        `Consulta profunda demais: 9 níveis, o máximo é ${PROFUNDIDADE_MAXIMA}. Peça menos níveis aninhados.`,
      );
      assert.deepEqual(profundo.extensions, {
        code: 'CONSULTA_PROFUNDA_DEMAIS',
        limite: PROFUNDIDADE_MAXIMA,
        encontrado: 9,
      });
    });

    test('a profundidade atravessa fragmentos e ignora a introspecção', () => {
      const viaFragmento = `{ mercados { ...A } }
        fragment A on Mercado { admin { mercados { admin { mercados { admin { mercados { admin { name } } } } } } } }`;
      assert.ok(limites(viaFragmento).some((e) => e.extensions.code === 'CONSULTA_PROFUNDA_DEMAIS'));
      const introspeccao =
        '{ __schema { types { fields { type { ofType { ofType { ofType { ofType { name } } } } } } } } }';
      assert.deepEqual(limites(introspeccao), []);
    });

    test('custo: cada lista multiplica o que pede dentro dela pelo seu tamanho real', () => {
      const custo = (fonte: string, tamanhos = {}) => custoDaOperacao(esquema, parse(fonte), undefined, tamanhos);
      const t = { 'Query.mercados': 100, 'Mercado.precos': 13, 'User.mercados': 100 };
      assert.equal(custo('{ mercados { id } }', t), 1 + 100);
      assert.equal(
        custo('{ mercados { admin { name } precos { produto { nome } } } }', t),
        1 + 100 * (2 + (1 + 13 * 2)),
      );
      assert.equal(
        custo('{ mercados { id } }'),
        1 + FATOR_DE_LISTA,
        'uma lista de tamanho desconhecido conta como FATOR_DE_LISTA',
      );
      assert.equal(custo('{ mercados { id } }', { 'Query.mercados': 0 }), 2, 'uma lista vazia ainda conta como uma');
      // The review's query: markets, their admin's markets, their prices, twice under aliases.
      const hostil =
        '{ a: mercados { admin { mercados { precos { produto { nome } } } } } b: mercados { admin { mercados { precos { produto { nome } } } } } }';
      assert.equal(custo(hostil, t), 2 * (1 + 100 * (1 + (1 + 100 * (1 + 13 * 2)))));
      assert.ok(custo(hostil, t) > CUSTO_MAXIMO);
      assert.ok(
        custo('{ mercados { admin { name } precos { produto { nome } } } }', { ...t, 'Query.mercados': 200 }) <
          CUSTO_MAXIMO,
        'a leitura do painel com 200 mercados passa',
      );
    });

    test('profundidade sem limite de custo na validação: o custo depende dos dados e é medido ao executar', () => {
      assert.deepEqual(limites('{ mercados { admin { name } precos { produto { nome } } } }'), []);
    });

    test('fragmentos que se multiplicam não fazem a própria medição explodir', () => {
      const niveis = 40;
      const fragmentos = Array.from({ length: niveis }, (_, i) =>
        i === niveis - 1
          ? `fragment F${i} on Query { me { id } }`
          : `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`,
      ).join('\n');
      const inicio = performance.now();
      limites(`{ ...F0 }\n${fragmentos}`);
      assert.ok(performance.now() - inicio < 1000, 'medir deve levar tempo linear');
    });

    test('sem introspecção: __schema e __type recusados em português; __typename continua', () => {
      const semIntrospeccao = (fonte: string) =>
        validate(esquema, parse(fonte), [...specifiedRules, RegraSemIntrospeccao]);
      const erros = semIntrospeccao('{ __schema { queryType { name } } __type(name: "Mercado") { name } }');
      assert.deepEqual(
        erros.map((e) => [e.message, e.extensions.code]),
        [
          ['A introspecção do esquema está desativada neste servidor', 'INTROSPECCAO_DESATIVADA'],
          ['A introspecção do esquema está desativada neste servidor', 'INTROSPECCAO_DESATIVADA'],
        ],
      );
      assert.deepEqual(semIntrospeccao('{ __typename mercados { __typename id } }'), []);
    });
  });
});
