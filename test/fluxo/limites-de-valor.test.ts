import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DIALETO } from '../helpers/banco.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { Navegador } from '../helpers/navegador.ts';
import { csrfDe, navegadorComSessao } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { entrarNoMercados, graphql, type RespostaGraphql } from '../mercados/apoio.ts';

interface Envelope<T = Record<string, unknown>> {
  readonly success: boolean;
  readonly data: T;
  readonly error: string;
  readonly details?: Record<string, string>;
}

/**
 * Amounts stay exact (docs/dominio.md, "Limites de valores"): quantities and prices are bounded at
 * the edge, in both faces, so that every total is an exact number of centavos; at the limits the
 * totals read back exact; and a row written before the limits never makes a read fail.
 */
describe('limites de quantidade e preço: os totais ficam exatos', () => {
  const relogio = new RelogioDeTeste('2026-03-02T15:00:00Z');
  let amb: AmbienteDeTeste;
  let cicloid = 0;
  let cicloCestaId = 0;
  let ouro = 0;
  let fornecedor = { id: 0, email: '' };
  let adminEmail = '';
  const url = (p: string) => `${amb.url}${p}`;
  const como = (email: string) => navegadorComSessao(amb, email);
  let mercados: Navegador;
  const gql = (query: string, variables?: Record<string, unknown>) =>
    graphql(amb.urlMercados, mercados, query, variables);
  const semErros = (r: RespostaGraphql) => {
    assert.equal(r.status, 200);
    assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
    return r.corpo.data ?? {};
  };
  const linhasDoBanco = () =>
    amb.banco
      .selectFrom('ofertaproduto as op')
      .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
      .select(['op.quantidadeMilesimos', 'op.valorCentavos'])
      .where('o.cicloid', '=', cicloid)
      .execute();
  const LEITURA =
    'query($c: ID!) { minhaOferta(cicloId: $c) { total produtos { quantidade valor alocado } } minhasOfertas { total } }';

  before(async () => {
    amb = await iniciarAmbiente({ relogio, mercados: true });
    const cesta = await criarCesta(amb.banco);
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 100_000 }],
    });
    cicloid = ciclo.id;
    cicloCestaId = ciclo.cicloCestas[0] ?? 0;
    ouro = (await criarProduto(amb.banco, { nome: 'Açafrão', unidade: 'kg' })).id;
    const f = await criarUsuario(amb.banco, { perfil: ['fornecedor'], nome: 'Sítio Dourado' });
    fornecedor = { id: f.id, email: f.email };
    adminEmail = (await criarUsuario(amb.banco, { perfil: ['admin'] })).email;
    mercados = new Navegador();
    await entrarNoMercados(amb, mercados, { email: f.email });
  });
  after(() => amb.fechar());

  test('10.000.000 × 99.999.999,99: 400 com o limite em português, nas duas faces, e nada gravado', async () => {
    const json = await como(fornecedor.email).postJson(url('/ofertasave'), {
      cicloid,
      produtos: [{ produtoid: ouro, quantidade: 10_000_000, valor: '99999999.99' }],
    });
    assert.equal(json.status, 400, json.texto);
    assert.deepEqual(json.json<Envelope>().details, {
      'produtos.0.quantidade': 'Use no máximo 100.000',
      'produtos.0.valor': 'Use no máximo 100.000,00',
    });

    const nav = como(fornecedor.email);
    const form = await nav.post(
      url('/oferta'),
      {
        form: {
          _csrf: await csrfDe(amb, nav),
          cicloid: String(cicloid),
          'produtos[0][produtoid]': String(ouro),
          'produtos[0][quantidade]': '10.000.000 kg',
          'produtos[0][valor]': 'R$ 99.999.999,99',
        },
      },
      { headers: { accept: 'text/html' } },
    );
    assert.equal(form.status, 400);
    assert.match(form.texto, /Use no máximo 100\.000,00/);
    assert.match(form.texto, /Use no máximo 100\.000(?!,)/);

    const r = await gql(
      'mutation($c: ID!, $i: OfertaInput!) { salvarOferta(cicloId: $c, input: $i, finalizar: true) { id } }',
      { c: cicloid, i: { produtos: [{ produtoid: ouro, quantidade: '10000000', valor: '99999999.99' }] } },
    );
    assert.equal(r.corpo.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(r.corpo));
    assert.deepEqual(Object.values(r.corpo.errors?.[0]?.extensions?.fields as Record<string, string>).sort(), [
      'Use no máximo 100.000',
      'Use no máximo 100.000,00',
    ]);
    // One centavo or one thousandth past the limit is refused too.
    const passa = await como(fornecedor.email).postJson(url('/ofertasave'), {
      cicloid,
      produtos: [{ produtoid: ouro, quantidade: '100000.001', valor: '100000.01' }],
    });
    assert.equal(passa.status, 400);
    assert.deepEqual(await linhasDoBanco(), []);
  });

  test('no limite (100.000 kg a R$ 100.000,00) tudo é aceito e os totais voltam exatos em toda leitura', async () => {
    const salvar = await como(fornecedor.email).postJson(url('/ofertasave'), {
      cicloid,
      produtos: [{ produtoid: ouro, quantidade: '100000', valor: '100000.00' }],
    });
    assert.equal(salvar.status, 201, salvar.texto);
    const linha =
      salvar.json<Envelope<{ oferta: { total: number }; produtos: Array<{ ofertaProdutoId: number }> }>>().data;
    assert.equal(linha.oferta.total, 10_000_000_000);
    // A basket of 1.000 kg, 100 of them: the whole line, 10^8 thousandths.
    const compor = await como(adminEmail).postJson(url(`/composicao/${cicloCestaId}`), {
      quantidadeCestas: 100,
      produtos: [{ ofertaProdutoId: linha.produtos[0]?.ofertaProdutoId, quantidadePorCesta: 1000, unidade: 'kg' }],
    });
    assert.equal(compor.status, 200, compor.texto);
    // 100.000 kg in each of 100.000 baskets is refused for capacity (409), not an overflow (500).
    const demais = await como(adminEmail).postJson(url(`/composicao/${cicloCestaId}`), {
      quantidadeCestas: 100_000,
      produtos: [{ ofertaProdutoId: linha.produtos[0]?.ofertaProdutoId, quantidadePorCesta: 100_000, unidade: 'kg' }],
    });
    assert.equal(demais.status, 409, demais.texto);
    assert.match(demais.json<Envelope>().error, /^Faltam 9\.999\.900\.000 kg de Açafrão de Sítio Dourado/);

    const pagina = await como(fornecedor.email).getJson(url(`/oferta/${cicloid}`));
    assert.equal(pagina.status, 200, pagina.texto);
    const dados =
      pagina.json<
        Envelope<{ oferta: { total: number }; produtos: Array<{ quantidade: number; valor: number; alocado: number }> }>
      >().data;
    assert.equal(dados.oferta.total, 10_000_000_000);
    assert.deepEqual(
      dados.produtos.map((p) => [p.quantidade, p.valor, p.alocado]),
      [[100_000, 100_000, 100_000]],
    );
    const lista = await como(adminEmail).getJson(url(`/oferta-index?cicloid=${cicloid}`));
    assert.equal(lista.status, 200, lista.texto);
    assert.deepEqual(
      lista.json<Envelope<{ itens: Array<{ total: number }> }>>().data.itens.map((i) => i.total),
      [10_000_000_000],
    );
    assert.deepEqual(semErros(await gql(LEITURA, { c: cicloid })), {
      minhaOferta: {
        total: '10000000000.00',
        produtos: [{ quantidade: '100000.000', valor: '100000.00', alocado: '100000.000' }],
      },
      minhasOfertas: [{ total: '10000000000.00' }],
    });
  });

  test('as outras escritas de preço, quantidade e dinheiro têm limite, nas duas faces', async () => {
    const admin = como(adminEmail);
    const extras = await admin.postJson(url(`/ciclo/${cicloid}`), {
      nome: 'Ciclo dos limites',
      ...DATAS_PADRAO,
      cicloProdutos: [{ produtoId: ouro, quantidade: '100000.001', valor: '100000.01' }],
    });
    assert.equal(extras.status, 400, extras.texto);
    assert.deepEqual(Object.values(extras.json<Envelope>().details ?? {}).sort(), [
      'Use no máximo 100.000',
      'Use no máximo 100.000,00',
    ]);
    const produto = await admin.postJson(url('/produto'), {
      nome: 'Caro demais',
      unidade: 'kg',
      valorReferencia: '100000.01',
    });
    assert.equal(produto.status, 400, produto.texto);
    assert.deepEqual(produto.json<Envelope>().details, { valorReferencia: 'Use no máximo 100.000,00' });
    const movimento = await admin.postJson(url('/movimentacao'), {
      usuarioid: fornecedor.id,
      tipoMovimentacaoId: 4,
      valor: '10000000.01',
      descricao: 'Pix',
    });
    assert.equal(movimento.status, 400, movimento.texto);
    assert.deepEqual(movimento.json<Envelope>().details, { valor: 'Use no máximo 10.000.000,00' });
    const noLimite = await admin.postJson(url('/movimentacao'), {
      usuarioid: fornecedor.id,
      tipoMovimentacaoId: 4,
      valor: '10000000.00',
      descricao: 'Pix',
    });
    assert.equal(noLimite.status, 201, noLimite.texto);
  });

  test('uma linha gravada antes dos limites não derruba leitura alguma', async () => {
    const outro = await criarCiclo(amb.banco, { datas: DATAS_PADRAO });
    const iso = new Date().toISOString();
    const oferta = await amb.banco
      .insertInto('oferta')
      .values({
        cicloid: outro.id,
        usuarioid: fornecedor.id,
        finalizada: true,
        finalizadaEm: iso,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const gravar = (quantidadeMilesimos: number, valorCentavos: number) =>
      amb.banco
        .insertInto('ofertaproduto')
        .values({
          ofertaid: oferta.id,
          produtoid: ouro,
          quantidadeMilesimos,
          valorCentavos,
          createdAt: iso,
          updatedAt: iso,
        })
        .execute();
    let esperado: string;
    if (DIALETO === 'postgres') {
      // The 32-bit columns never held the hostile line; their largest values multiply past 2^53.
      await assert.rejects(gravar(10_000_000_000, 9_999_999_999));
      await gravar(2_000_000_000, 2_000_000_000);
      esperado = '40000000000000.00';
    } else {
      await gravar(10_000_000_000, 9_999_999_999);
      esperado = '999999999900000.00';
    }
    const leitura = semErros(await gql(LEITURA, { c: outro.id })) as { minhaOferta: { total: string } };
    assert.equal(leitura.minhaOferta.total, esperado);
    for (const caminho of [
      `/oferta/${outro.id}?usuarioid=${fornecedor.id}`,
      `/oferta-index?cicloid=${outro.id}`,
      '/oferta-index',
    ]) {
      const r = await como(adminEmail).getJson(url(caminho));
      assert.equal(r.status, 200, `${caminho}: ${r.texto}`);
    }
    const pagina = await como(fornecedor.email).get(url(`/oferta/${outro.id}`), { headers: { accept: 'text/html' } });
    assert.equal(pagina.status, 200);
  });
});
