/**
 * Hostile input against the record commands (src/comandos/registros.ts, cadastro.ts, mercados.ts),
 * through real HTTP and GraphQL: wrong types, out-of-range values, forms as people type them, and
 * someone else's record or market named, which is refused as such before any field is judged.
 * A refused write stores nothing.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { Navegador } from '../helpers/navegador.ts';
import { csrfDe, entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { contaComSessao, criarMercadoNoBanco, graphql, type RespostaGraphql } from '../mercados/apoio.ts';

interface Envelope {
  success: boolean;
  error: string;
  code?: string;
  details?: Record<string, string>;
}

describe('comandos dos registros: entrada hostil', () => {
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
    admin = await entrarComo(amb, ['admin']);
  });
  after(() => amb.fechar());

  const contar = async (tabela: 'produto' | 'cesta' | 'pontoentrega' | 'usuario' | 'precomercado') =>
    Number(
      (
        await amb.banco
          .selectFrom(tabela)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('produto em JSON com tipos errados e valores fora do limite: 400, uma mensagem por campo, nada gravado', async () => {
    const antes = await contar('produto');
    const r = await admin.nav.postJson(`${amb.url}/produto`, {
      nome: 123,
      unidade: 'tonelada',
      valorReferencia: '1,50',
      pesoGramas: -1,
      categoriaid: 0,
      descritivo: ['x'],
      ativo: 'talvez',
    });
    assert.equal(r.status, 400, r.texto);
    const e = r.json<Envelope>();
    assert.equal(e.error, 'Verifique os campos destacados');
    assert.deepEqual(e.details, {
      nome: 'Deve ser um texto',
      unidade: 'Valor inválido: use kg, unidade, litro, dúzia, maço',
      valorReferencia: 'Use ponto como separador decimal (ex.: 12.50)',
      pesoGramas: 'Não pode ser negativo',
      categoriaid: 'Deve ser no mínimo 1',
      descritivo: 'Deve ser um texto',
      ativo: 'Deve ser verdadeiro ou falso',
    });
    const longo = await admin.nav.postJson(`${amb.url}/produto`, {
      nome: 'x'.repeat(121),
      unidade: 'kg',
      valorReferencia: 1e12,
      pesoGramas: 1_000_001,
    });
    assert.equal(longo.status, 400, longo.texto);
    const d = longo.json<Envelope>().details ?? {};
    assert.equal(d.nome, 'Deve ter no máximo 120 caracteres');
    assert.match(d.valorReferencia ?? '', /^Use no máximo|grande demais/);
    assert.equal(d.pesoGramas, 'Deve ser no máximo 1000000');
    assert.equal(await contar('produto'), antes);
  });

  test('cesta por formulário: decimal como se digita e a caixa "ativo" (false escondido, depois "on")', async () => {
    const csrf = await csrfDe(amb, admin.nav);
    const r = await admin.nav.post(
      `${amb.url}/cesta`,
      { form: { _csrf: csrf, nome: '  Cesta Grande  ', valorReferencia: '1.234,56', ativo: ['false', 'on'] } },
      { headers: { accept: 'text/html' } },
    );
    assert.ok(r.status < 400, `${r.status}: ${r.texto.slice(0, 300)}`);
    const cesta = await amb.banco
      .selectFrom('cesta')
      .selectAll()
      .where('nome', '=', 'Cesta Grande')
      .executeTakeFirstOrThrow();
    assert.equal(cesta.valorReferenciaCentavos, 123456);
    assert.equal(Boolean(cesta.ativo), true);

    // A refused form comes back with what was typed beside its message, not with the command's units.
    const recusado = await admin.nav.post(
      `${amb.url}/cesta`,
      { form: { _csrf: csrf, nome: '', valorReferencia: '12,345' } },
      { headers: { accept: 'text/html' } },
    );
    assert.equal(recusado.status, 400);
    assert.match(recusado.texto, /Campo obrigatório/);
    assert.match(recusado.texto, /12,345/);
  });

  test('ponto de entrega: telefone sem forma de telefone e texto com caracteres de controle', async () => {
    const antes = await contar('pontoentrega');
    const r = await admin.nav.postJson(`${amb.url}/pontoentrega`, {
      nome: 'Ponto\u0000',
      telefone: '12 9999-abcd',
      cidade: '   ',
    });
    assert.equal(r.status, 400, r.texto);
    assert.deepEqual(r.json<Envelope>().details, {
      nome: 'Contém caracteres de controle',
      telefone: 'Telefone inválido: use dígitos, com espaços, parênteses, +, - ou . se quiser',
    });
    assert.equal(await contar('pontoentrega'), antes);
  });

  test('usuário pela administração: e-mail inválido, perfil desconhecido; a regra dos perfis ao lado da leitura', async () => {
    const antes = await contar('usuario');
    const r = await admin.nav.postJson(`${amb.url}/usuario`, { nome: 'Ana', email: 'nao-e-email', perfil: 'root' });
    assert.equal(r.status, 400, r.texto);
    assert.deepEqual(r.json<Envelope>().details, {
      email: 'E-mail inválido',
      perfil: 'Valor inválido: use info, master, admin, fornecedor, consumidor',
    });
    const vazio = await admin.nav.postJson(`${amb.url}/usuario`, { nome: '', email: 'ana@exemplo.org', perfil: [] });
    assert.deepEqual(vazio.json<Envelope>().details, {
      nome: 'Campo obrigatório',
      perfil: 'Escolha pelo menos um perfil',
    });
    assert.equal(await contar('usuario'), antes);
  });

  test('o cadastro de outra pessoa é recusado como tal antes de qualquer campo; sem cadastro, /profile diz isso primeiro', async () => {
    const eu = await entrarComo(amb, ['consumidor'], 'Eu Mesma');
    const outra = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Outra Pessoa' });
    const r = await eu.nav.postJson(`${amb.url}/usuarionovo/${outra.id}`, { nome: 123, perfil: 'master' });
    assert.equal(r.status, 403, r.texto);
    assert.equal(r.json<Envelope>().error, 'Você só pode alterar o seu próprio cadastro');
    assert.ok(!r.texto.includes('Outra Pessoa'));
    // An :id that is no id is the params' refusal, as before.
    assert.equal((await eu.nav.postJson(`${amb.url}/usuarionovo/abc`, { nome: 'X' })).status, 400);

    const semCadastro = await entrarComo(amb, 'semCadastro');
    const p = await semCadastro.nav.postJson(`${amb.url}/profile`, { nome: ['x'], celular: 1 });
    assert.equal(p.status, 404, p.texto);
    assert.equal(p.json<Envelope>().error, 'Você ainda não tem cadastro');
    const nome = await amb.banco
      .selectFrom('usuario')
      .select('nome')
      .where('id', '=', outra.id)
      .executeTakeFirstOrThrow();
    assert.equal(nome.nome, 'Outra Pessoa');
  });

  test('autocadastro: um perfil proibido é recusado de uma vez, mesmo com outros campos errados', async () => {
    const antes = await contar('usuario');
    const novo = await entrarComo(amb, 'semCadastro');
    const r = await novo.nav.postJson(`${amb.url}/usuarionovo`, {
      nome: '',
      perfil: ['consumidor', 'admin'],
      cientepolitica: true,
    });
    assert.equal(r.status, 403, r.texto);
    assert.match(r.json<Envelope>().error, /só é possível escolher consumidor ou fornecedor/);
    const semPolitica = await novo.nav.postJson(`${amb.url}/usuarionovo`, {
      nome: 'Nova',
      celular: '123',
      perfil: ['consumidor'],
    });
    assert.equal(semPolitica.status, 400);
    assert.deepEqual(semPolitica.json<Envelope>().details, {
      celular: 'Telefone inválido: informe pelo menos 8 dígitos, com o DDD',
      cientepolitica: 'É preciso declarar ciência da política da comunidade',
    });
    assert.equal(await contar('usuario'), antes);
  });

  describe('GraphQL', () => {
    const ATUALIZAR =
      'mutation($id: ID!, $input: MercadoInput!) { atualizarMercado(id: $id, input: $input) { id nome } }';
    const PRECOS =
      'mutation($id: ID!, $input: PrecoMercadoInput!) { atualizarPrecoMercado(id: $id, input: $input) { id } }';
    const campos = (r: RespostaGraphql) => r.corpo.errors?.[0]?.extensions?.fields;
    const codigo = (r: RespostaGraphql) => r.corpo.errors?.[0]?.extensions?.code;

    async function gestora() {
      const nav = new Navegador();
      const { conta } = await contaComSessao(amb, nav, amb.urlMercados, { perfis: ['AdminMercado'] });
      return { nav, conta };
    }

    test('o mercado de outra pessoa é recusado como tal, seja qual for o input', async () => {
      const eu = await gestora();
      const dona = await gestora();
      const dela = await criarMercadoNoBanco(amb.banco, { adminId: dona.conta.id, nome: 'Mercado Dela' });
      const r = await graphql(amb.urlMercados, eu.nav, ATUALIZAR, {
        id: dela.id,
        input: { nome: '', tipo: 'cesta', taxaAdministrativa: 101, adminId: '0' },
      });
      assert.equal(codigo(r), 'FORBIDDEN', JSON.stringify(r.corpo));
      const p = await graphql(amb.urlMercados, eu.nav, PRECOS, {
        id: dela.id,
        input: { precos: [{ produtoId: '0', preco: '1.00' }] },
      });
      assert.equal(codigo(p), 'FORBIDDEN', JSON.stringify(p.corpo));
      const nome = await amb.banco
        .selectFrom('mercado')
        .select('nome')
        .where('id', '=', dela.id)
        .executeTakeFirstOrThrow();
      assert.equal(nome.nome, 'Mercado Dela');
    });

    test('no próprio mercado: cada campo errado com o caminho do argumento; lote acima do limite recusado inteiro', async () => {
      const eu = await gestora();
      const meu = await criarMercadoNoBanco(amb.banco, { adminId: eu.conta.id });
      const r = await graphql(amb.urlMercados, eu.nav, ATUALIZAR, {
        id: meu.id,
        input: { nome: 'x'.repeat(121), tipo: 'lote', adminId: '0', taxaAdministrativa: '101' },
      });
      assert.deepEqual(campos(r), {
        'input.nome': 'Deve ter no máximo 120 caracteres',
        'input.adminId': 'Deve ser no mínimo 1',
        'input.taxaAdministrativa': 'Deve estar entre 0 e 100',
      });
      const produto = await criarProduto(amb.banco);
      const antes = await contar('precomercado');
      const linhas = await graphql(amb.urlMercados, eu.nav, PRECOS, {
        id: meu.id,
        input: {
          precos: [
            { produtoId: produto.id, preco: '1.00' },
            { produtoId: '0', preco: '2.00' },
            { produtoId: produto.id, preco: '99999999.99' },
          ],
        },
      });
      const f = campos(linhas) as Record<string, string>;
      assert.equal(f['input.precos[1].produtoId'], 'Deve ser no mínimo 1');
      assert.match(f['input.precos[2].preco'] ?? '', /^Use no máximo/);
      assert.equal(f['input.precos[2].produtoId'], 'Produto repetido no lote (já está em input.precos[0])');
      const muitos = await graphql(amb.urlMercados, eu.nav, PRECOS, {
        id: meu.id,
        input: { precos: Array.from({ length: 1001 }, () => ({ produtoId: produto.id, preco: '1.00' })) },
      });
      assert.deepEqual(campos(muitos), { 'input.precos': 'No máximo 1000 preços por vez' });
      assert.equal(await contar('precomercado'), antes);
    });
  });
});
