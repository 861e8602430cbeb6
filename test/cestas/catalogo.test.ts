import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { tokenCsrf } from '../helpers/navegador.ts';
import { entrarComo, csrfDe, type Pessoa } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: string;
  details?: Record<string, string>;
  message: string;
}

describe('catálogo: categoria, cesta, produto e ponto de entrega', () => {
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  let info: Pessoa;
  before(async () => {
    amb = await iniciarAmbiente();
    admin = await entrarComo(amb, ['admin']);
    info = await entrarComo(amb, ['info']);
  });
  after(() => amb.fechar());

  const url = (p: string) => `${amb.url}${p}`;

  async function criar<T>(entidade: string, corpo: Record<string, unknown>): Promise<Envelope<T & { id: number }>> {
    const r = await admin.nav.postJson(url(`/${entidade}`), corpo);
    assert.equal(r.status, 201, r.texto);
    return r.json<Envelope<T & { id: number }>>();
  }

  test('categoria: cria, lê, atualiza e apaga em JSON; a auditoria registra cada escrita', async () => {
    const criada = await criar<{ nome: string }>('categoria', { nome: 'Temperos', descricao: 'Ervas frescas' });
    assert.equal(criada.data.nome, 'Temperos');
    const id = criada.data.id;
    const lida = await admin.nav.getJson(url(`/categoria/${id}`));
    assert.equal(lida.status, 200);
    assert.equal(
      lida.json<Envelope<{ registro: { descricao: string }; acoes: { editar: boolean } }>>().data.registro.descricao,
      'Ervas frescas',
    );
    const alterada = await admin.nav.postJson(url(`/categoria/${id}`), { nome: 'Temperos e ervas', ativo: false });
    assert.equal(alterada.status, 200);
    assert.equal(alterada.json<Envelope<{ ativo: boolean }>>().data.ativo, false);
    const apagada = await admin.nav.postJson(url(`/categoria/delete/${id}`), {});
    assert.equal(apagada.status, 200);
    assert.equal((await admin.nav.getJson(url(`/categoria/${id}`))).status, 404);
    const trilha = await amb.banco
      .selectFrom('auditoria')
      .select(['acao', 'antes', 'depois'])
      .where('entidade', '=', 'categoria')
      .where('entidadeId', '=', String(id))
      .orderBy('id')
      .execute();
    assert.deepEqual(
      trilha.map((t) => t.acao),
      ['criar', 'atualizar', 'apagar'],
    );
    assert.equal(JSON.parse(trilha[1]?.antes ?? '{}').nome, 'Temperos');
    assert.equal(JSON.parse(trilha[1]?.depois ?? '{}').nome, 'Temperos e ervas');
  });

  test('cesta e ponto de entrega por formulário: 303 para a lista, com aviso', async () => {
    const pagina = await admin.nav.get(url('/cesta'));
    assert.equal(pagina.status, 200);
    const csrf = tokenCsrf(pagina.texto);
    const r = await admin.nav.post(url('/cesta'), {
      form: { _csrf: csrf, nome: 'Cesta Família', valorReferencia: '95.50', pesoAproximado: '9000', ativo: 'true' },
    });
    assert.equal(r.status, 200);
    assert.equal(new URL(r.url).pathname, '/cesta-index');
    assert.match(r.texto, /Cesta criada\./);
    assert.match(r.texto, /Cesta Família/);
    const linha = await amb.banco
      .selectFrom('cesta')
      .selectAll()
      .where('nome', '=', 'Cesta Família')
      .executeTakeFirstOrThrow();
    assert.equal(linha.valorReferenciaCentavos, 9550);
    const ponto = await admin.nav.post(url('/pontoentrega'), {
      form: { _csrf: csrf, nome: 'Praça Central', cidade: 'Botucatu', telefone: '(14) 3811-0000', ativo: 'true' },
    });
    assert.equal(new URL(ponto.url).pathname, '/pontoentrega-index');
    assert.match(ponto.texto, /Praça Central/);
  });

  test('produto: valores exatos, unidade da lista, categoria existente', async () => {
    const cat = await criar('categoria', { nome: 'Verduras' });
    const p = await criar<{ valorReferencia: number; unidade: string; categoria: { nome: string } }>('produto', {
      nome: 'Alface',
      unidade: 'maço',
      valorReferencia: '3.10',
      categoriaid: cat.data.id,
    });
    assert.equal(p.data.valorReferencia, 3.1);
    assert.equal(p.data.categoria.nome, 'Verduras');
    const ruim = await admin.nav.postJson(url('/produto'), {
      nome: '',
      unidade: 'caixa',
      valorReferencia: '3,10',
      categoriaid: 999999,
      pesoGramas: -5,
    });
    assert.equal(ruim.status, 400);
    const e = ruim.json<Envelope>();
    assert.equal(e.details?.nome, 'Campo obrigatório');
    assert.match(e.details?.unidade ?? '', /kg, unidade, litro, dúzia, maço/);
    assert.match(e.details?.valorReferencia ?? '', /ponto/);
    assert.match(e.details?.pesoGramas ?? '', /negativo/);
    const semCategoria = await admin.nav.postJson(url('/produto'), {
      nome: 'Couve',
      unidade: 'maço',
      valorReferencia: 2,
      categoriaid: 999999,
    });
    assert.equal(semCategoria.status, 400);
    assert.equal(semCategoria.json<Envelope>().details?.categoriaid, 'Categoria não encontrada');
  });

  test('duplicados dão 409 mesmo com maiúsculas, acentos e espaços diferentes', async () => {
    await criar('categoria', { nome: 'Maçãs do Sul' });
    for (const nome of ['maçãs do sul', '  MAÇÃS   DO SUL ', 'Maçãs do sul']) {
      const r = await admin.nav.postJson(url('/categoria'), { nome });
      assert.equal(r.status, 409, nome);
      assert.match(r.json<Envelope>().error, /Já existe uma categoria com este nome/);
    }
    await criar('produto', { nome: 'Mel', unidade: 'kg', valorReferencia: 40 });
    assert.equal(
      (await admin.nav.postJson(url('/produto'), { nome: ' MEL', unidade: 'kg', valorReferencia: 41 })).status,
      409,
    );
    // The same name in another unit is another product.
    assert.equal(
      (await admin.nav.postJson(url('/produto'), { nome: 'Mel', unidade: 'litro', valorReferencia: 41 })).status,
      201,
    );
    const outra = await criar('categoria', { nome: 'Outra' });
    assert.equal((await admin.nav.postJson(url(`/categoria/${outra.data.id}`), { nome: 'MAÇÃS DO SUL' })).status, 409);
    const html = await admin.nav.post(url('/categoria'), {
      form: { _csrf: await csrfDe(amb, admin.nav), nome: 'maçãs do sul' },
    });
    assert.equal(html.status, 409);
    assert.match(html.texto, /Já existe uma categoria com este nome/);
    assert.match(html.texto, /value="maçãs do sul"/, 'o formulário volta com o valor digitado');
  });

  test('apagar algo em uso dá 409 e diz o que usa; desativar continua possível', async () => {
    const cat = await criar('categoria', { nome: 'Em uso' });
    await criar('produto', {
      nome: 'Produto da categoria',
      unidade: 'kg',
      valorReferencia: 1,
      categoriaid: cat.data.id,
    });
    const r = await admin.nav.postJson(url(`/categoria/delete/${cat.data.id}`), {});
    assert.equal(r.status, 409);
    const e = r.json<Envelope>();
    assert.match(e.error, /em uso por 1 produtos/);
    assert.match(e.error, /Desative/);
    assert.ok(await amb.banco.selectFrom('categoria').select('id').where('id', '=', cat.data.id).executeTakeFirst());
    assert.equal(
      (await admin.nav.postJson(url(`/categoria/${cat.data.id}`), { nome: 'Em uso', ativo: false })).status,
      200,
    );
  });

  test('listas: paginadas, ordenáveis, com busca, numa consulta por página', async () => {
    for (let i = 0; i < 12; i++)
      await criar('pontoentrega', {
        nome: `Ponto Lista ${String(i).padStart(2, '0')}`,
        cidade: i % 2 === 0 ? 'Assis' : 'Bauru',
      });
    amb.consultas = 0;
    const r = await admin.nav.getJson(
      url('/pontoentrega-index?busca=ponto%20lista&porPagina=5&pagina=2&ordem=nome&direcao=desc'),
    );
    const consultas = amb.consultas;
    assert.equal(r.status, 200);
    const d =
      r.json<Envelope<{ itens: Array<{ nome: string; acoes: { editar: boolean } }>; total: number; paginas: number }>>()
        .data;
    assert.equal(d.total, 12);
    assert.equal(d.paginas, 3);
    assert.deepEqual(
      d.itens.map((i) => i.nome),
      ['Ponto Lista 06', 'Ponto Lista 05', 'Ponto Lista 04', 'Ponto Lista 03', 'Ponto Lista 02'],
    );
    assert.equal(d.itens[0]?.acoes.editar, true);
    // Exactly: the user with the has-this-session-ended check in one query, then the page itself (with its total).
    assert.equal(consultas, 2, `consultas: ${consultas}`);
    const curinga = await admin.nav.getJson(url('/pontoentrega-index?busca=%25'));
    assert.equal(curinga.json<Envelope<{ total: number }>>().data.total, 0, '% é procurado literalmente');
    assert.equal((await admin.nav.getJson(url('/pontoentrega-index?ordem=senha'))).status, 400);
    const html = await admin.nav.get(url('/pontoentrega-index?busca=lista&porPagina=5'));
    assert.match(html.texto, /Página 1 de 3/);
    assert.match(html.texto, /rel="next"/);
  });

  test('info consulta tudo, mas não altera nada (403 e nada muda)', async () => {
    const cat = await criar<{ nome: string }>('categoria', { nome: 'Só leitura' });
    assert.equal((await info.nav.getJson(url('/categoria-index'))).status, 200);
    const form = await info.nav.get(url(`/categoria/${cat.data.id}`));
    assert.equal(form.status, 200);
    assert.match(form.texto, /Você pode consultar, mas não alterar/);
    assert.doesNotMatch(form.texto, /<button type="submit" class="botao">Salvar/);
    const r = await info.nav.postJson(url(`/categoria/${cat.data.id}`), { nome: 'Alterada por info' });
    assert.equal(r.status, 403);
    assert.equal((await info.nav.postJson(url(`/categoria/delete/${cat.data.id}`), {})).status, 403);
    const linha = await amb.banco
      .selectFrom('categoria')
      .select('nome')
      .where('id', '=', cat.data.id)
      .executeTakeFirstOrThrow();
    assert.equal(linha.nome, 'Só leitura');
  });

  test('as páginas renderizam com título e escapam o que foi digitado', async () => {
    const p = await criar<{ id: number }>('produto', {
      nome: '<script>alert(1)</script>',
      unidade: 'kg',
      valorReferencia: 1,
      descritivo: '"><img src=x onerror=alert(2)>',
    });
    for (const caminho of [
      '/produto-index',
      `/produto/${p.data.id}`,
      '/produto',
      '/categoria-index',
      '/cesta-index',
      '/pontoentrega-index',
      '/usuario-index',
      '/ciclo-index',
      '/ciclo',
      '/auditoria',
      '/limitesolar',
      '/',
    ]) {
      const r = await admin.nav.get(url(caminho));
      assert.equal(r.status, 200, caminho);
      assert.match(r.texto, /<title>[^<]+ · Cestaria<\/title>/, caminho);
      assert.ok(!r.texto.includes('<script>alert(1)</script>'), `${caminho} sem script injetado`);
      assert.ok(!r.texto.includes('<img src=x'), `${caminho} sem img injetada`);
    }
    const lista = await admin.nav.get(url('/produto-index?busca=script'));
    assert.ok(lista.texto.includes('&lt;script&gt;alert(1)&lt;/script&gt;'));
  });
});
