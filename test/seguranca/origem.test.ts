import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DATAS_PADRAO, criarUsuario } from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor, tokenCsrf } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { entrarComo } from '../helpers/sessoes.ts';
import { contaComSessao, sessoesDe } from '../mercados/apoio.ts';

/**
 * Cross-site request forgery by the Fetch Metadata rule (Go's http.CrossOriginProtection), in both
 * faces: `Sec-Fetch-Site` decides when a browser sends it; else a foreign `Origin` is refused; a
 * request with neither is not from a browser and needs no token. Each case is a real write whose
 * effect (or its absence) is read back from the database.
 */
describe('escritas de outra origem (Fetch Metadata), nas duas faces', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
  });
  after(() => amb.fechar());

  describe('Cestas', () => {
    let nav: Navegador;
    let id: number;
    before(async () => {
      const u = await criarUsuario(amb.banco, { nome: 'Inicial' });
      id = u.id;
      nav = new Navegador();
      await entrarPeloProvedor(nav, `${amb.url}/`, { email: u.email });
    });
    const nome = async () =>
      (await amb.banco.selectFrom('usuario').select('nome').where('id', '=', id).executeTakeFirstOrThrow()).nome;
    const salvar = (novo: string, headers: Record<string, string>, extras: Record<string, string> = {}) =>
      nav.post(
        `${amb.url}/profile`,
        { form: { nome: novo, cientepolitica: 'true', ...extras } },
        { headers: { accept: 'application/json', ...headers }, seguir: false },
      );

    test('Sec-Fetch-Site presente: só same-origin e none passam, mesmo com o token certo para os outros', async () => {
      const csrf = tokenCsrf((await nav.get(`${amb.url}/profile`)).texto);
      for (const site of ['cross-site', 'same-site']) {
        const r = await salvar(`Forjado ${site}`, { 'sec-fetch-site': site, origin: amb.url }, { _csrf: csrf });
        assert.equal(r.status, 403, site);
        assert.deepEqual(r.json(), { success: false, error: 'Origem da requisição não permitida' });
        assert.equal(await nome(), 'Inicial', `${site}: nada mudou`);
      }
      // The header is the browser's own word: a same-origin fetch passes whatever Origin says.
      assert.equal(
        (await salvar('Pelo site', { 'sec-fetch-site': 'same-origin', origin: 'https://outro.example' })).status,
        200,
      );
      assert.equal(await nome(), 'Pelo site');
      assert.equal((await salvar('Digitado', { 'sec-fetch-site': 'none' })).status, 200);
      assert.equal(await nome(), 'Digitado');
    });

    test('sem Sec-Fetch-Site, um Origin que não é o nosso é recusado; o nosso passa sem token', async () => {
      const r = await salvar('Forjado', { origin: 'https://ataque.example' });
      assert.equal(r.status, 403);
      assert.equal(await nome(), 'Digitado');
      const nulo = await salvar('Forjado', { origin: 'null' });
      assert.equal(nulo.status, 403, 'Origin: null (um iframe isolado, um redirecionamento) não é nosso');
      assert.equal((await salvar('Mesma origem', { origin: amb.url })).status, 200);
      assert.equal(await nome(), 'Mesma origem');
    });

    test('sem nenhum dos dois cabeçalhos (um cliente de API), o formulário passa sem token', async () => {
      assert.equal((await salvar('Cliente de API', {})).status, 200);
      assert.equal(await nome(), 'Cliente de API');
    });

    test('um token enviado tem de ser o da sessão atual: o de uma página antiga é recusado', async () => {
      const r = await salvar('Página velha', { 'sec-fetch-site': 'same-origin' }, { _csrf: 'x'.repeat(32) });
      assert.equal(r.status, 403);
      assert.match(r.json<{ error: string }>().error, /sessão anterior\. Recarregue a página/);
      const cabecalho = await salvar('Página velha', { 'x-csrf-token': 'y'.repeat(32) });
      assert.equal(cabecalho.status, 403);
      assert.equal(await nome(), 'Cliente de API');
    });

    test('o ciclo, que o contrato manda em formulário, é salvo por um cliente de API sem token', async () => {
      const admin = await entrarComo(amb, ['admin']);
      const r = await admin.nav.post(
        `${amb.url}/ciclo`,
        {
          form: {
            nome: 'Ciclo pela API',
            ...DATAS_PADRAO,
            _listas: 'cicloEntregas',
            'cicloEntregas[0][dataEntrega]': DATAS_PADRAO.dataPedidoFim.slice(0, 10),
          },
        },
        { headers: { accept: 'application/json' } },
      );
      assert.equal(r.status, 201, r.texto.slice(0, 300));
      const gravado = await amb.banco
        .selectFrom('ciclo')
        .select('nome')
        .where('id', '=', r.json<{ data: { id: number } }>().data.id)
        .executeTakeFirstOrThrow();
      assert.equal(gravado.nome, 'Ciclo pela API');
      const deFora = await admin.nav.post(
        `${amb.url}/ciclo`,
        { form: { nome: 'Ciclo forjado', ...DATAS_PADRAO } },
        { headers: { accept: 'application/json', 'sec-fetch-site': 'cross-site' } },
      );
      assert.equal(deFora.status, 403);
      assert.equal(
        await amb.banco.selectFrom('ciclo').select('id').where('nome', '=', 'Ciclo forjado').executeTakeFirst(),
        undefined,
      );
    });
  });

  describe('Mercados', () => {
    const sair = (nav: Navegador, headers: Record<string, string>, form: Record<string, string> = {}) =>
      nav.post(
        `${amb.urlMercados}/logout`,
        { form },
        { headers: { accept: 'application/json', ...headers }, seguir: false },
      );

    test('Sec-Fetch-Site presente: só same-origin e none passam', async () => {
      const nav = new Navegador();
      const { conta } = await contaComSessao(amb, nav, amb.urlMercados);
      const { csrfToken } = (await nav.getJson(`${amb.urlMercados}/auth/csrf`)).json<{ csrfToken: string }>();
      for (const site of ['cross-site', 'same-site']) {
        const r = await sair(nav, { 'sec-fetch-site': site }, { _csrf: csrfToken });
        assert.equal(r.status, 403, site);
        assert.deepEqual(r.json(), { error: 'Origem da requisição não permitida' });
      }
      assert.equal(await sessoesDe(amb.banco, conta.id), 1, 'a sessão continua');
      assert.equal((await sair(nav, { 'sec-fetch-site': 'same-origin' })).status, 302);
      assert.equal(await sessoesDe(amb.banco, conta.id), 0);
    });

    test('sem Sec-Fetch-Site: Origin alheio recusado, o nosso passa; sem nenhum dos dois passa sem token', async () => {
      const nav = new Navegador();
      const { conta } = await contaComSessao(amb, nav, amb.urlMercados);
      const r = await sair(nav, { origin: 'https://outro.example' });
      assert.equal(r.status, 403);
      assert.equal(await sessoesDe(amb.banco, conta.id), 1);
      assert.equal((await sair(nav, { origin: amb.urlMercados })).status, 302);
      assert.equal(await sessoesDe(amb.banco, conta.id), 0);

      const api = new Navegador();
      const outra = await contaComSessao(amb, api, amb.urlMercados);
      assert.equal((await sair(api, {})).status, 302);
      assert.equal(await sessoesDe(amb.banco, outra.conta.id), 0);
    });

    test('GraphQL: uma mutação de outro site é recusada antes de rodar; a do próprio site roda', async () => {
      const nav = new Navegador();
      await contaComSessao(amb, nav, amb.urlMercados, { perfis: ['Administrador'] });
      const criar = (nome: string, headers: Record<string, string>) =>
        nav.postJson(
          `${amb.urlMercados}/graphql`,
          { query: `mutation { criarMercado(input: { nome: "${nome}", tipo: lote }) { id } }` },
          headers,
        );
      const deFora = await criar('Mercado forjado', { 'sec-fetch-site': 'cross-site' });
      assert.equal(deFora.status, 403);
      const origemAlheia = await criar('Mercado forjado', { origin: 'https://outro.example' });
      assert.equal(origemAlheia.status, 403);
      assert.equal(
        await amb.banco.selectFrom('mercado').select('id').where('nome', '=', 'Mercado forjado').executeTakeFirst(),
        undefined,
      );
      for (const [nome, headers] of [
        ['Mercado do site', { 'sec-fetch-site': 'same-origin' }],
        ['Mercado da API', {}],
      ] as const) {
        const r = await criar(nome, headers);
        assert.equal(r.status, 200);
        assert.deepEqual(r.json<{ errors?: unknown }>().errors, undefined, r.texto);
      }
      const criados = await amb.banco
        .selectFrom('mercado')
        .select('nome')
        .where('nome', 'in', ['Mercado do site', 'Mercado da API'])
        .orderBy('nome')
        .execute();
      assert.deepEqual(
        criados.map((m) => m.nome),
        ['Mercado da API', 'Mercado do site'],
      );
    });

    test('um token enviado tem de ser o da sessão: um errado é recusado e a sessão fica', async () => {
      const nav = new Navegador();
      const { conta } = await contaComSessao(amb, nav, amb.urlMercados);
      const r = await sair(nav, { 'x-csrf-token': 'x'.repeat(43) });
      assert.equal(r.status, 403);
      assert.match(r.json<{ error: string }>().error, /sessão anterior/);
      assert.equal(await sessoesDe(amb.banco, conta.id), 1);
    });
  });
});
