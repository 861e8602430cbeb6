import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { entrarNoMercados, graphql } from './apoio.ts';

/**
 * The demo community, as `npm start` loads it: the demo people log in through the development
 * provider and land on their prepared accounts, with their profiles and markets.
 */
describe('demonstração da face Mercados', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true, env: { DEMO_DATA: 'true' } });
  });
  after(() => amb.fechar());

  async function entrar(email: string): Promise<Navegador> {
    const nav = new Navegador();
    const r = await entrarNoMercados(amb, nav, { email });
    assert.equal(new URL(r.url).pathname, '/dashboard', `login de ${email}`);
    return nav;
  }

  // One account per person: the profiles come from the person's Cestas perfil (master and admin
  // are Administrador), plus AdminMercado, which has no Cestas perfil.
  const PERFIS: ReadonlyArray<readonly [string, readonly string[]]> = [
    ['ana@exemplo.org', ['Administrador']],
    ['bruno@exemplo.org', ['Administrador']],
    ['dora@exemplo.org', ['Fornecedor']],
    ['elias@exemplo.org', ['AdminMercado', 'Fornecedor', 'Consumidor']],
    ['fabi@exemplo.org', ['Consumidor']],
  ];
  for (const [email, perfis] of PERFIS) {
    test(`${email} entra pelo provedor na conta de demonstração, com ${perfis.join(', ')}`, async () => {
      const antes = await amb.banco.selectFrom('appuser').select('id').execute();
      const r = await graphql(amb.urlMercados, await entrar(email), '{ me { email profiles } }');
      assert.deepEqual(r.corpo, { data: { me: { email, profiles: perfis } } });
      assert.equal(
        (await amb.banco.selectFrom('appuser').select('id').execute()).length,
        antes.length,
        'nenhuma conta nova',
      );
    });
  }

  // README.md, "Na demonstração": Clara is the demo's read-only (info) person; the default profile,
  // Consumidor, would make her a consumer in Cestas too, so she has none.
  test('clara@exemplo.org entra sem perfil no Mercados e continua só info na Cestas; vê os mercados', async () => {
    const clara = await entrar('clara@exemplo.org');
    const r = await graphql(amb.urlMercados, clara, '{ me { email profiles usuarioId } mercados { nome } }');
    assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
    const me = r.corpo.data?.me as { profiles: string[]; usuarioId: string | null };
    assert.deepEqual(me.profiles, []);
    assert.ok(me.usuarioId !== null, 'a conta está ligada ao cadastro da Cestas');
    assert.ok((r.corpo.data?.mercados as unknown[]).length > 0);
    const cadastro = await amb.banco
      .selectFrom('usuario')
      .select('perfil')
      .where('email', '=', 'clara@exemplo.org')
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(cadastro.perfil), ['info']);
  });

  test('há mercados ativos e um inativo, com preços sobre o catálogo; elias administra um deles', async () => {
    const elias = await entrar('elias@exemplo.org');
    const r = await graphql(
      amb.urlMercados,
      elias,
      '{ mercados { nome tipo ativo admin { email } precos { preco produto { nome } } acoes { editarPrecos } } }',
    );
    const mercados = r.corpo.data?.mercados as Array<{
      nome: string;
      tipo: string;
      ativo: boolean;
      admin: { email: string | null };
      precos: unknown[];
      acoes: { editarPrecos: boolean };
    }>;
    assert.ok(mercados.length >= 3);
    assert.ok(mercados.some((m) => !m.ativo));
    assert.deepEqual([...new Set(mercados.map((m) => m.tipo))].sort(), ['cesta', 'lote', 'venda_direta']);
    assert.ok(mercados.every((m) => m.precos.length > 0));
    const doElias = mercados.filter((m) => m.acoes.editarPrecos);
    assert.ok(doElias.some((m) => m.ativo));
    assert.ok(doElias.every((m) => m.admin.email === 'elias@exemplo.org'));
    assert.ok(
      mercados.filter((m) => !m.acoes.editarPrecos).every((m) => m.admin.email === null),
      'e-mail dos outros oculto',
    );
  });
});
