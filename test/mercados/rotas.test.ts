/**
 * The access matrix of the Mercados HTTP routes: each route × anonymous, Consumidor and
 * Administrador, with the expected status (and where a redirect goes). A route registered
 * without a row here fails the test. GraphQL fields have their own matrix (graphql-acesso).
 *
 * The browser client's pages answer its HTML shell to whoever is logged in: the profile a page
 * needs (/usuarios, /mercados/novo: Administrador) is checked by the client, and the data behind
 * it by GraphQL's @auth, whose own matrix is graphql-acesso.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { emailUnico } from '../helpers/fabricas.ts';
import { carregarCliente, carregarRetirada } from '../../src/mercados/cliente.ts';
import { entrarNoMercados } from './apoio.ts';

const PAPEIS = ['anonimo', 'Consumidor', 'Administrador'] as const;
type Papel = (typeof PAPEIS)[number];
/** A status, optionally with the start of the Location header. */
type Esperado = number | readonly [number, string];
type Linha = Readonly<Record<Papel, Esperado>>;

const TODOS = (e: Esperado): Linha => ({ anonimo: e, Consumidor: e, Administrador: e });
const LOGADO = (anonimo: Esperado, logado: Esperado): Linha => ({ anonimo, Consumidor: logado, Administrador: logado });

const PAGINA_PROTEGIDA = LOGADO([302, '/login'], 200);

const MATRIZ: Readonly<Record<string, Linha>> = {
  'GET /static/estilo.css': TODOS(200),
  'GET /assets/:arquivo': TODOS(200),
  'GET /': TODOS(200),
  'GET /unauthorized': TODOS(200),
  'GET /dashboard': PAGINA_PROTEGIDA,
  'GET /mercados': PAGINA_PROTEGIDA,
  'GET /mercados/novo': PAGINA_PROTEGIDA,
  'GET /mercados/:id': PAGINA_PROTEGIDA,
  'GET /mercados/:id/editar': PAGINA_PROTEGIDA,
  'GET /mercados/:id/precos': PAGINA_PROTEGIDA,
  'GET /avisos': PAGINA_PROTEGIDA,
  'GET /usuarios': PAGINA_PROTEGIDA,
  'GET /ciclos': PAGINA_PROTEGIDA,
  'GET /ciclos/:id/pedido': PAGINA_PROTEGIDA,
  'GET /pedidos': PAGINA_PROTEGIDA,
  'GET /ciclos/:id/oferta': PAGINA_PROTEGIDA,
  'GET /ciclos/:id/entregas': PAGINA_PROTEGIDA,
  'GET /entregas': PAGINA_PROTEGIDA,
  'GET /mercados/:id/ciclos/:cicloId/pedidos': PAGINA_PROTEGIDA,
  'GET /ciclos/:id/mercados': PAGINA_PROTEGIDA,
  // The pickup app (issue 38): its pages are its shell, its files are public (no data in them).
  'GET /retirada': PAGINA_PROTEGIDA,
  'GET /retirada/:cicloId/:pontoId': PAGINA_PROTEGIDA,
  'GET /retirada/:cicloId/:pontoId/pedido/:pedidoId': PAGINA_PROTEGIDA,
  'GET /retirada/index.html': TODOS(200),
  'GET /retirada/assets/:arquivo': TODOS(200),
  'GET /retirada/sw.js': TODOS(200),
  'GET /retirada/manifest.webmanifest': TODOS(200),
  'GET /retirada/icone-192.png': TODOS(200),
  'GET /retirada/icone-512.png': TODOS(200),
  // The files (issue 36): the spec's hasAnyProfile / hasProfile answer 401 and 403 (test/mercados/arquivos).
  // Past the guard, the orders need ?cicloId= (400), and there is no market 1 (404).
  'GET /planilhas/mercados/:id/pedidos': { anonimo: 401, Consumidor: 403, Administrador: 400 },
  'GET /planilhas/mercados/:id/precos': { anonimo: 401, Consumidor: 403, Administrador: 404 },
  'GET /planilhas/ciclos/:id/entregas': { anonimo: 401, Consumidor: 403, Administrador: 403 },
  'GET /login': LOGADO([302, '/auth/idp'], [302, '/dashboard']),
  'GET /auth/idp': TODOS([302, 'http://localhost:']),
  'GET /auth/idp/callback': TODOS([302, '/login?error=auth_failed']),
  'GET /logout': TODOS([302, '/']),
  'GET /auth/logout': TODOS([302, '/']),
  // The Cestas face's sign-out passing by: without a ticket, nothing ends.
  'GET /auth/saiu/continuar': TODOS([302, '/']),
  // Not from a browser (no Fetch Metadata, no Origin): the write needs no token (test/seguranca/origem).
  'POST /logout': TODOS([302, '/']),
  'POST /auth/logout': TODOS([302, '/']),
  'GET /auth/status': TODOS(200),
  'GET /auth/csrf': LOGADO(401, 200),
  // Logged in, an empty GraphQL request is a 400 of GraphQL itself: the access rule let it through.
  'GET /graphql': LOGADO(401, 400),
  'POST /graphql': LOGADO(401, 400),
  'GET /healthz': TODOS(200),
  'GET /readyz': TODOS(200),
  'GET /metrics': TODOS(200),
  // The API's documentation, outside production only.
  'GET /docs': TODOS(200),
  'GET /docs/openapi.json': TODOS(200),
};

/** A concrete address for a route pattern: any id, and a real asset of the built client (or of the pickup app). */
function exemplo(caminho: string): string {
  const cliente = caminho.startsWith('/retirada/') ? carregarRetirada() : carregarCliente();
  const asset = [...cliente.assets.keys()].find((n) => n.endsWith('.js')) ?? 'cliente-nao-construido.js';
  return caminho
    .replace(':id', '1')
    .replace(':cicloId', '1')
    .replace(':pontoId', '1')
    .replace(':pedidoId', '1')
    .replace(':arquivo', asset);
}

describe('matriz de acesso das rotas HTTP da face Mercados', () => {
  let amb: AmbienteDeTeste;
  const emails = new Map<Papel, string>();
  const navs = new Map<Papel, Navegador>();

  before(async () => {
    const admin = emailUnico('adm');
    amb = await iniciarAmbiente({ mercados: true, env: { ADMIN_EMAILS: admin } });
    emails.set('Consumidor', emailUnico('cons'));
    emails.set('Administrador', admin);
    navs.set('anonimo', new Navegador());
    for (const papel of ['Consumidor', 'Administrador'] as const) {
      const nav = new Navegador();
      await entrarNoMercados(amb, nav, { email: emails.get(papel) ?? '' });
      navs.set(papel, nav);
    }
  });
  after(() => amb.fechar());

  test('toda rota registrada tem uma linha, e toda linha é uma rota', () => {
    const registradas = new Set(amb.servicos.mercados?.rotasRegistradas ?? []);
    assert.ok(registradas.size > 0);
    assert.deepEqual(
      [...registradas].filter((r) => MATRIZ[r] === undefined),
      [],
      'rotas sem linha na matriz',
    );
    assert.deepEqual(
      Object.keys(MATRIZ).filter((r) => !registradas.has(r)),
      [],
      'linhas sem rota',
    );
  });

  for (const [rota, linha] of Object.entries(MATRIZ)) {
    for (const papel of PAPEIS) {
      const esperado = linha[papel];
      const [status, destino] = typeof esperado === 'number' ? [esperado, undefined] : esperado;
      test(`${rota} como ${papel} → ${status}${destino === undefined ? '' : ` ${destino}…`}`, async () => {
        const [metodo = 'GET', caminho = '/'] = rota.split(' ');
        // Logging out ends the session: those rows use a fresh login of the same person.
        let nav = navs.get(papel) ?? new Navegador();
        if (rota.includes('logout') && papel !== 'anonimo') {
          nav = new Navegador();
          await entrarNoMercados(amb, nav, { email: emails.get(papel) ?? '' });
        }
        const antes = await amb.banco
          .selectFrom('appsession')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow();
        const r = await nav.requisitar(metodo, `${amb.urlMercados}${exemplo(caminho)}`, {
          seguir: false,
          headers: { accept: 'application/json' },
          ...(metodo === 'POST' ? { corpo: { json: {} } } : {}),
        });
        assert.equal(r.status, status, `${rota} como ${papel}: ${r.texto.slice(0, 200)}`);
        if (destino !== undefined)
          assert.ok(
            (r.headers.get('location') ?? '').startsWith(destino),
            `${rota}: foi para ${r.headers.get('location') ?? ''}`,
          );
        if (status === 403) {
          const depois = await amb.banco
            .selectFrom('appsession')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow();
          assert.equal(Number(depois.n), Number(antes.n), 'a escrita recusada não encerrou nenhuma sessão');
        }
      });
    }
  }

  test('/graphql/, com a barra no fim, é o mesmo endereço que /graphql', async () => {
    for (const caminho of ['/graphql', '/graphql/', '/graphql/?x=1']) {
      const anonimo = await new Navegador().postJson(`${amb.urlMercados}${caminho}`, { query: '{ me { email } }' });
      assert.equal(anonimo.status, 401, caminho);
      assert.deepEqual(
        anonimo.json(),
        { errors: [{ message: 'Não autenticado', extensions: { code: 'UNAUTHENTICATED' } }] },
        caminho,
      );
      const logado = await navs
        .get('Consumidor')
        ?.postJson(`${amb.urlMercados}${caminho}`, { query: '{ me { email } }' });
      assert.equal(logado?.status, 200, caminho);
      assert.deepEqual(logado?.json(), { data: { me: { email: emails.get('Consumidor') } } }, caminho);
      const semOperacao = await navs.get('Consumidor')?.postJson(`${amb.urlMercados}${caminho}`, {});
      assert.equal(semOperacao?.status, 400, caminho);
    }
  });
});
