import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { criarCicloAberto, criarOfertaFinalizada, criarProduto } from '../helpers/fabricas.ts';
import { Navegador, tokenCsrf } from '../helpers/navegador.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

/**
 * The list and read routes answer the spec's field names (section 2) besides the nested objects
 * the pages use, the messages agree with the record's noun, and /callback asked for JSON answers
 * as the dashboard does. All through real HTTP, logged in through the development provider.
 */
describe('os nomes do contrato nas listas e leituras, e as mensagens', () => {
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  let fornecedor: Pessoa;
  let cicloid = 0;
  let cicloCestaId = 0;
  before(async () => {
    amb = await iniciarAmbiente();
    admin = await entrarComo(amb, ['admin']);
    fornecedor = await entrarComo(amb, ['fornecedor'], 'Fornecedora');
    ({ cicloid, cicloCestaId } = await criarCicloAberto(amb.banco, 10));
    const produtoId = (await criarProduto(amb.banco)).id;
    await criarOfertaFinalizada(amb.banco, cicloid, [{ produtoId, quantidadeMilesimos: 5000, valorCentavos: 700 }]);
    await criarOfertaFinalizada(
      amb.banco,
      cicloid,
      [{ produtoId, quantidadeMilesimos: 2000, valorCentavos: 650 }],
      fornecedor.id ?? undefined,
    );
  });
  after(() => amb.fechar());

  const url = (p: string) => `${amb.url}${p}`;

  interface ItemDaListaDeOfertas {
    id: number;
    cicloid: number;
    usuarioid: number;
    ciclo: { id: number; nome: string };
    fornecedor: { id: number; nome: string };
  }

  test('/oferta-index: cada item traz cicloid e usuarioid do contrato, ao lado de ciclo e fornecedor', async () => {
    const todas = await admin.nav.getJson(url(`/oferta-index?cicloid=${cicloid}`));
    assert.equal(todas.status, 200, todas.texto);
    const itens = todas.json<{ data: { itens: ItemDaListaDeOfertas[] } }>().data.itens;
    assert.ok(itens.length >= 2, todas.texto);
    for (const o of itens) {
      assert.equal(o.cicloid, cicloid);
      assert.equal(o.cicloid, o.ciclo.id);
      assert.equal(o.usuarioid, o.fornecedor.id);
    }
    assert.ok(itens.some((o) => o.usuarioid === fornecedor.id));
    // A supplier sees only their own, with the same names.
    const suas = (await fornecedor.nav.getJson(url('/oferta-index'))).json<{
      data: { itens: ItemDaListaDeOfertas[] };
    }>().data.itens;
    assert.deepEqual(
      suas.map((o) => [o.cicloid, o.usuarioid, o.fornecedor.nome]),
      [[cicloid, fornecedor.id, 'Fornecedora']],
    );
  });

  test('/composicao/:id: a composição traz cicloCestaId, como o corpo de /composicaosave', async () => {
    const r = await admin.nav.getJson(url(`/composicao/${cicloCestaId}`));
    assert.equal(r.status, 200, r.texto);
    const data = r.json<{ data: { cicloCesta: { id: number }; composicao: Record<string, unknown> } }>().data;
    assert.equal(data.composicao.cicloCestaId, cicloCestaId);
    assert.equal(data.cicloCesta.id, cicloCestaId);
    assert.deepEqual(Object.keys(data.composicao).sort(), ['cicloCestaId', 'produtos', 'quantidadeCestas']);
  });

  test('as mensagens concordam com o nome do registro: "Categoria criada", "Produto apagado"', async () => {
    const categoria = await admin.nav.postJson(url('/categoria'), { nome: 'Temperos frescos' });
    assert.equal(categoria.status, 201, categoria.texto);
    const { data, message } = categoria.json<{ data: { id: number }; message: string }>();
    assert.equal(message, 'Categoria criada');
    const alterada = await admin.nav.postJson(url(`/categoria/${data.id}`), { nome: 'Temperos' });
    assert.equal(alterada.json<{ message: string }>().message, 'Categoria atualizada');

    const produto = await admin.nav.postJson(url('/produto'), {
      nome: 'Salsinha',
      unidade: 'maço',
      valorReferencia: 2.5,
      categoriaid: data.id,
    });
    assert.equal(produto.status, 201, produto.texto);
    const produtoId = produto.json<{ data: { id: number }; message: string }>().data.id;
    assert.equal(produto.json<{ message: string }>().message, 'Produto criado');
    const apagado = await admin.nav.postJson(url(`/produto/delete/${produtoId}`), {});
    assert.equal(apagado.status, 200, apagado.texto);
    assert.equal(apagado.json<{ message: string }>().message, 'Produto apagado');
    const apagada = await admin.nav.postJson(url(`/categoria/delete/${data.id}`), {});
    assert.equal(apagada.json<{ message: string }>().message, 'Categoria apagada');

    // A browser's form gets the same words in the notice of the next page.
    const pagina = await admin.nav.get(url('/cesta'));
    const criada = await admin.nav.post(url('/cesta'), {
      form: { _csrf: tokenCsrf(pagina.texto), nome: 'Cesta Feira', valorReferencia: '40', ativo: 'true' },
    });
    assert.equal(new URL(criada.url).pathname, '/cesta-index');
    assert.match(criada.texto, /Cesta criada\./);
    const ponto = await admin.nav.get(url('/pontoentrega'));
    const criado = await admin.nav.post(url('/pontoentrega'), {
      form: { _csrf: tokenCsrf(ponto.texto), nome: 'Ponto da Praça', ativo: 'true' },
    });
    assert.match(criado.texto, /Ponto de entrega criado\./);
    assert.doesNotMatch(criada.texto + criado.texto, /\(a\)/);
  });

  test('GET /callback sem resposta de login, em JSON: a mesma resposta que o painel dá em JSON', async () => {
    // Without a session: the dashboard's 401 envelope, not a redirect.
    const anonimo = new Navegador();
    const semSessao = await anonimo.get(url('/callback'), { headers: { accept: 'application/json' }, seguir: false });
    const painelSemSessao = await anonimo.get(url('/'), { headers: { accept: 'application/json' }, seguir: false });
    assert.equal(semSessao.status, 401);
    assert.equal(semSessao.status, painelSemSessao.status);
    assert.deepEqual(semSessao.json(), painelSemSessao.json());
    assert.deepEqual(semSessao.json(), { success: false, error: 'Não autenticado' });

    // Logged in: the dashboard's data.
    const noCallback = await fornecedor.nav.get(url('/callback'), {
      headers: { accept: 'application/json' },
      seguir: false,
    });
    assert.equal(noCallback.status, 200, noCallback.texto);
    assert.match(noCallback.headers.get('content-type') ?? '', /^application\/json/);
    const painel = await fornecedor.nav.getJson(url('/'));
    assert.deepEqual(noCallback.json(), painel.json());
    assert.equal(noCallback.json<{ data: { usuario: { id: number } } }>().data.usuario.id, fornecedor.id);

    // Logged in without a record: the dashboard's 403, in JSON.
    const semCadastro = await entrarComo(amb, 'semCadastro');
    const r403 = await semCadastro.nav.get(url('/callback'), {
      headers: { accept: 'application/json' },
      seguir: false,
    });
    const painel403 = await semCadastro.nav.getJson(url('/'));
    assert.equal(r403.status, 403);
    assert.deepEqual(r403.json(), painel403.json());

    // A browser is still sent to the dashboard.
    const html = await fornecedor.nav.get(url('/callback'), { seguir: false });
    assert.equal(html.status, 302);
    assert.equal(html.headers.get('location'), '/');
  });
});
