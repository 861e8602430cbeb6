/**
 * Hostile GraphQL: random operations built from the real schema's names plus garbage, with hostile
 * variables, sent by an Administrador and by a Consumidor. Never a 5xx, always a GraphQL answer,
 * no internals in messages, and nothing written by a refused operation.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { Navegador } from '../helpers/navegador.ts';
import { emailUnico } from '../helpers/fabricas.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { semente } from '../helpers/semente.ts';
import { entrarNoMercados, graphql } from '../mercados/apoio.ts';

const TOTAL = Number(process.env.FUZZ_GRAPHQL ?? 1200);

const HOSTIS = [
  "' OR 1=1 --",
  '<script>alert(1)</script>',
  '__proto__',
  '-1',
  '1,50',
  'NaN',
  '1e309',
  '9'.repeat(40),
  '',
  'ç'.repeat(500),
  '\u0000',
  '{}',
  'venda_direta',
  'cesta',
];
const valor: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...HOSTIS),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.string({ maxLength: 30 }),
  fc.array(fc.constantFrom(...HOSTIS), { maxLength: 3 }),
);

const OPERACOES = [
  'query($a: Boolean) { mercados(ativo: $a) { id nome tipo ativo adminId admin { name email } precos { preco produto { nome } } } }',
  'query($id: ID!) { mercado(id: $id) { id nome taxaAdministrativa valorMaximoCesta } }',
  '{ me { id name email profiles } }',
  'query($b: String, $a: Boolean) { produtos(busca: $b, ativo: $a) { id nome unidade valorReferencia } }',
  '{ usuarios { id name email profiles } }',
  'mutation($i: MercadoInput!) { criarMercado(input: $i) { id nome } }',
  'mutation($id: ID!, $i: MercadoInput!) { atualizarMercado(id: $id, input: $i) { id } }',
  'mutation($id: ID!) { desativarMercado(id: $id) { id ativo } }',
  'mutation($id: ID!, $i: PrecoMercadoInput!) { atualizarPrecoMercado(id: $id, input: $i) { id precos { preco } } }',
  'mutation($u: ID!, $p: [String!]!) { atribuirPerfis(userId: $u, perfis: $p) { id profiles } }',
];
const LIXO = [
  '{',
  '}}}',
  'query { __schema { types { name fields { name } } } }',
  '{ a: me { id } b: me { id } c: me { id } }',
  `{ ${'mercados { admin { '.repeat(12)}id${' } }'.repeat(12)} }`,
  'subscription { x }',
  'query { mercados { nome(arg: 1) } }',
  '#'.repeat(2000),
  'fragment f on Mercado { ...f } { mercados { ...f } }',
];

describe('GraphQL hostil', () => {
  let amb: AmbienteDeTeste;
  const navs: Navegador[] = [];
  before(async () => {
    const admin = emailUnico('adm');
    amb = await iniciarAmbiente({ mercados: true, env: { ADMIN_EMAILS: admin } });
    for (const email of [admin, emailUnico('cons')]) {
      const nav = new Navegador();
      await entrarNoMercados(amb, nav, { email });
      navs.push(nav);
    }
  });
  after(() => amb.fechar());

  async function contagens(): Promise<string> {
    const r = [];
    for (const t of ['mercado', 'precomercado', 'appuserprofile', 'appuser'] as const)
      r.push(
        (
          await amb.banco
            .selectFrom(t)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return r.join(',');
  }

  test(`${TOTAL} operações hostis: nenhum 5xx, sempre uma resposta GraphQL, nada gravado quando recusado`, async () => {
    const pedido = fc.record({
      query: fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...OPERACOES) },
        { weight: 1, arbitrary: fc.constantFrom(...LIXO) },
      ),
      variaveis: fc.record(
        {
          a: valor,
          b: valor,
          id: valor,
          u: valor,
          p: valor,
          i: fc.oneof(
            valor,
            fc.record({
              nome: valor,
              tipo: valor,
              taxaAdministrativa: valor,
              valorMaximoCesta: valor,
              adminId: valor,
              precos: fc.array(fc.record({ produtoId: valor, preco: valor, ativo: valor }), { maxLength: 3 }),
            }),
          ),
        },
        { requiredKeys: [] },
      ),
      quem: fc.nat(1),
    });
    let feitas = 0;
    await fc.assert(
      fc.asyncProperty(pedido, async (p) => {
        const antes = await contagens();
        const r = await graphql(
          amb.urlMercados,
          navs[p.quem] ?? new Navegador(),
          p.query,
          p.variaveis as Record<string, unknown>,
        );
        feitas++;
        assert.ok(r.status < 500, `${r.status}: ${JSON.stringify(r.corpo).slice(0, 300)}`);
        assert.ok(r.corpo.data !== undefined || Array.isArray(r.corpo.errors), JSON.stringify(r.corpo).slice(0, 200));
        for (const e of r.corpo.errors ?? []) {
          assert.doesNotMatch(
            JSON.stringify(e),
            /originalError|stack|node_modules|SQLITE|syntax error at or near/i,
            JSON.stringify(e).slice(0, 300),
          );
        }
        if ((r.corpo.errors ?? []).length > 0 && /^mutation/.test(p.query))
          assert.equal(await contagens(), antes, 'mutação recusada gravou algo');
      }),
      { numRuns: TOTAL, seed: semente() },
    );
    assert.ok(feitas >= TOTAL);
  });
});
