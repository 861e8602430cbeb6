import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { Navegador } from '../helpers/navegador.ts';
import { csrfDe, navegadorComSessao } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { criarMercadoNoBanco, entrarNoMercados, graphql } from '../mercados/apoio.ts';

interface Envelope<T = Record<string, unknown>> {
  readonly success: boolean;
  readonly data: T;
  readonly error: string;
  readonly details?: Record<string, unknown>;
}

/**
 * A price committed to baskets and lots is fixed (DOMAIN.md, Offer): a supplier whose tomato line
 * (100 kg at R$ 5,00) gave 20 kg to a basket composition and 10 kg to a lot cannot reprice it to
 * R$ 500,00, by any path, nor take it out or offer less than the 30 kg; the lettuce line nothing
 * holds changes freely; closing credits the committed price.
 */
describe('preço comprometido com cestas e lotes', () => {
  const dia = (d: string) => `2026-03-${d}T15:00:00Z`;
  const relogio = new RelogioDeTeste(dia('02'));
  let amb: AmbienteDeTeste;
  let cicloid = 0;
  let cicloCestaId = 0;
  let ponto = 0;
  let tomate = 0;
  let alface = 0;
  let fornecedorId = 0;
  let linhaTomate = 0;
  let nomeDaCesta = '';
  const emails = { fornecedor: '', admin: '', consumidor: '' };
  const como = (quem: keyof typeof emails): Navegador => navegadorComSessao(amb, emails[quem]);
  const url = (p: string) => `${amb.url}${p}`;

  const linhasDoBanco = async () =>
    (
      await amb.banco
        .selectFrom('ofertaproduto as op')
        .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
        .select(['op.produtoid', 'op.quantidadeMilesimos', 'op.valorCentavos', 'o.finalizada'])
        .where('o.cicloid', '=', cicloid)
        .where('o.usuarioid', '=', fornecedorId)
        .orderBy('op.produtoid')
        .execute()
    ).map((l) => ({
      produtoid: l.produtoid,
      quantidadeMilesimos: l.quantidadeMilesimos,
      valorCentavos: l.valorCentavos,
      finalizada: Boolean(l.finalizada),
    }));
  const oferta = (
    quem: 'fornecedor' | 'admin',
    caminho: '/oferta' | '/ofertasave',
    produtos: ReadonlyArray<Record<string, unknown>>,
  ) =>
    como(quem).postJson(url(caminho), { cicloid, ...(quem === 'admin' ? { usuarioid: fornecedorId } : {}), produtos });
  const tomateA = (kg: number | string, valor: number | string) => ({ produtoid: tomate, quantidade: kg, valor });
  const alfaceA = (valor: number | string) => ({ produtoid: alface, quantidade: 10, valor });

  before(async () => {
    amb = await iniciarAmbiente({ relogio, mercados: true });
    const cesta = await criarCesta(amb.banco, { valorCentavos: 5000 });
    nomeDaCesta = cesta.nome;
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
    });
    cicloid = ciclo.id;
    cicloCestaId = ciclo.cicloCestas[0] ?? 0;
    ponto = (await criarPonto(amb.banco)).id;
    tomate = (await criarProduto(amb.banco, { nome: 'Tomate', unidade: 'kg' })).id;
    alface = (await criarProduto(amb.banco, { nome: 'Alface', unidade: 'kg' })).id;
    const fornecedor = await criarUsuario(amb.banco, { perfil: ['fornecedor'], nome: 'Sítio Vermelho' });
    fornecedorId = fornecedor.id;
    emails.fornecedor = fornecedor.email;
    emails.admin = (await criarUsuario(amb.banco, { perfil: ['admin'] })).email;
    emails.consumidor = (await criarUsuario(amb.banco, { perfil: ['consumidor'] })).email;

    const final = await oferta('fornecedor', '/ofertasave', [tomateA(100, '5.00'), alfaceA('2.00')]);
    assert.equal(final.status, 201, final.texto);
    linhaTomate =
      final
        .json<Envelope<{ produtos: Array<{ ofertaProdutoId: number; produtoid: number }> }>>()
        .data.produtos.find((p) => p.produtoid === tomate)?.ofertaProdutoId ?? 0;
    // 10 baskets of 2 kg (20 kg) and a lot of 10 kg, while the offer window is still open.
    const compor = await como('admin').postJson(url(`/composicao/${cicloCestaId}`), {
      quantidadeCestas: 10,
      produtos: [{ ofertaProdutoId: linhaTomate, quantidadePorCesta: 2, unidade: 'kg' }],
    });
    assert.equal(compor.status, 200, compor.texto);
    const iso = new Date().toISOString();
    const dono = (
      await amb.banco
        .insertInto('appuser')
        .values({
          providerId: 'idp|dono-lote',
          email: 'dono-lote@mercados.org',
          emailChave: 'dono-lote@mercados.org',
          name: 'Dono',
          avatar: null,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const pnae = await criarMercadoNoBanco(amb.banco, { adminId: dono, nome: 'PNAE', tipo: 'lote' });
    const mercados = await como('admin').postJson(url(`/ciclo/${cicloid}/mercados`), {
      cicloMercados: [{ mercadoId: pnae.id, ordemAtendimento: 1, pontoEntregaIds: [], cicloCestaIds: [] }],
    });
    assert.equal(mercados.status, 200, mercados.texto);
    const lote = await como('admin').postJson(url(`/ciclo/${cicloid}/lotes`), {
      mercadoId: pnae.id,
      comprador: 'Escola Estadual',
      pontoEntregaId: ponto,
      valorAlvo: 60,
      linhas: [{ ofertaProdutoId: linhaTomate, quantidade: 10 }],
    });
    assert.equal(lote.status, 201, lote.texto);
  });
  after(() => amb.fechar());

  const comprometida = [
    { produtoid: 0, quantidadeMilesimos: 100_000, valorCentavos: 500, finalizada: true },
    { produtoid: 0, quantidadeMilesimos: 10_000, valorCentavos: 200, finalizada: true },
  ];
  const esperado = () =>
    comprometida
      .map((l, i) => ({ ...l, produtoid: i === 0 ? tomate : alface }))
      .sort((a, b) => a.produtoid - b.produtoid);

  test('5,00 → 500,00: 409 nomeando a cesta e o lote, por todo caminho, e nada é gravado', async () => {
    const tentativas = [
      ['rascunho do fornecedor', await oferta('fornecedor', '/oferta', [tomateA(100, '500.00'), alfaceA('2.00')])],
      ['oferta final do fornecedor', await oferta('fornecedor', '/ofertasave', [tomateA(100, 500), alfaceA(2)])],
      ['rascunho pela coordenação', await oferta('admin', '/oferta', [tomateA(100, '500'), alfaceA('2')])],
      ['oferta final pela coordenação', await oferta('admin', '/ofertasave', [tomateA(100, '4.99'), alfaceA('2')])],
    ] as const;
    for (const [caminho, r] of tentativas) {
      assert.equal(r.status, 409, `${caminho}: ${r.texto}`);
      const corpo = r.json<Envelope>();
      assert.equal(
        corpo.error,
        `O preço de Tomate está fixo em R$ 5,00: a linha já está na cesta ${nomeDaCesta} e no lote de Escola Estadual (PNAE), custeados e vendidos por este preço`,
        caminho,
      );
      assert.deepEqual(
        corpo.details,
        { ofertaProdutoId: linhaTomate, cestas: [nomeDaCesta], lotes: ['Escola Estadual (PNAE)'], valor: 5 },
        caminho,
      );
    }
    // A form (a person typing "500,00") gets the same refusal.
    const nav = como('fornecedor');
    const form = await nav.post(
      url('/ofertasave'),
      {
        form: {
          _csrf: await csrfDe(amb, nav),
          cicloid: String(cicloid),
          'produtos[0][produtoid]': String(tomate),
          'produtos[0][quantidade]': '100',
          'produtos[0][valor]': 'R$ 500,00',
          'produtos[1][produtoid]': String(alface),
          'produtos[1][quantidade]': '10',
          'produtos[1][valor]': '2,00',
        },
      },
      { headers: { accept: 'text/html' } },
    );
    assert.equal(form.status, 409, form.texto);
    assert.match(form.texto, /O preço de Tomate está fixo em R\$ 5,00/);

    // Through GraphQL, as the supplier.
    const mercados = new Navegador();
    await entrarNoMercados(amb, mercados, { email: emails.fornecedor });
    const gql = await graphql(
      amb.urlMercados,
      mercados,
      'mutation($c: ID!, $i: OfertaInput!) { salvarOferta(cicloId: $c, input: $i, finalizar: true) { id } }',
      {
        c: cicloid,
        i: {
          produtos: [
            { produtoid: tomate, quantidade: '100', valor: '500.00' },
            { produtoid: alface, quantidade: '10', valor: '2.00' },
          ],
        },
      },
    );
    assert.equal(gql.corpo.errors?.length, 1, JSON.stringify(gql.corpo));
    assert.deepEqual(
      [gql.corpo.errors?.[0]?.extensions?.code, gql.corpo.errors?.[0]?.extensions?.motivo],
      ['CONFLICT', 'PRECO_FIXO'],
    );
    assert.match(
      gql.corpo.errors?.[0]?.message ?? '',
      /^O preço de Tomate está fixo em R\$ 5,00: a linha já está na cesta .* e no lote de Escola Estadual \(PNAE\)/,
    );

    assert.deepEqual(await linhasDoBanco(), esperado(), 'nada mudou');
  });

  test('tirar a linha, trocar o produto ou a unidade dela: 409 nomeando o que a segura', async () => {
    const semTomate = await oferta('fornecedor', '/oferta', [alfaceA('2.00')]);
    assert.equal(semTomate.status, 409, semTomate.texto);
    assert.equal(
      semTomate.json<Envelope>().error,
      `Tomate já está na cesta ${nomeDaCesta} e no lote de Escola Estadual (PNAE): ajuste-os antes de tirá-lo da oferta`,
    );
    // "Another product" for the line is taking it out and offering the other one.
    const trocado = await oferta('admin', '/ofertasave', [{ produtoid: alface, quantidade: 100, valor: '5.00' }]);
    assert.equal(trocado.status, 409, trocado.texto);
    for (const alvo of [{ ofertaProdutoId: linhaTomate }, { cicloid, produtoid: tomate }]) {
      const r = await como('fornecedor').postJson(url('/ofertaapagarproduto'), alvo);
      assert.equal(r.status, 409, r.texto);
      assert.deepEqual(r.json<Envelope>().details, {
        ofertaProdutoId: linhaTomate,
        cestas: [nomeDaCesta],
        lotes: ['Escola Estadual (PNAE)'],
      });
    }
    // Another unit: the line's unit is the product's, and a held product keeps its unit.
    const emMacos = await oferta('fornecedor', '/ofertasave', [tomateA('100 maços', '5.00'), alfaceA('2.00')]);
    assert.equal(emMacos.status, 400, emMacos.texto);
    const produto = await como('admin').postJson(url(`/produto/${tomate}`), {
      nome: 'Tomate',
      unidade: 'unidade',
      valorReferencia: '5.00',
    });
    assert.equal(produto.status, 409, produto.texto);
    assert.match(produto.json<Envelope>().error, /^A unidade de Tomate \(kg\) não pode mudar/);
    assert.equal(
      (await amb.banco.selectFrom('produto').select('unidade').where('id', '=', tomate).executeTakeFirstOrThrow())
        .unidade,
      'kg',
    );
    assert.deepEqual(await linhasDoBanco(), esperado(), 'nada mudou');
  });

  test('a linha que nada segura muda de preço; a quantidade desce até o alocado, não abaixo', async () => {
    const abaixo = await oferta('fornecedor', '/ofertasave', [tomateA('29.999', '5.00'), alfaceA('2.00')]);
    assert.equal(abaixo.status, 409, abaixo.texto);
    assert.equal(
      abaixo.json<Envelope>().error,
      `Falta 0,001 kg de Tomate de Sítio Vermelho: ofertado 29,999 kg (a linha está na cesta ${nomeDaCesta} e no lote de Escola Estadual (PNAE)), nas cestas 20 kg, nos lotes 10 kg`,
    );
    assert.deepEqual(await linhasDoBanco(), esperado(), 'nada mudou');

    const certo = await oferta('fornecedor', '/ofertasave', [tomateA(30, '5.00'), alfaceA('3.10')]);
    assert.equal(certo.status, 200, certo.texto);
    comprometida[0] = {
      ...comprometida[0],
      produtoid: 0,
      quantidadeMilesimos: 30_000,
      valorCentavos: 500,
      finalizada: true,
    };
    comprometida[1] = {
      ...comprometida[1],
      produtoid: 0,
      quantidadeMilesimos: 10_000,
      valorCentavos: 310,
      finalizada: true,
    };
    assert.deepEqual(await linhasDoBanco(), esperado());
  });

  test('fechar o ciclo credita o fornecedor pelo preço comprometido × o que foi pedido', async () => {
    relogio.definir(dia('07'));
    const pedido = await como('consumidor').postJson(url('/pedidoconsumidores'), {
      cicloid,
      pontoEntregaId: ponto,
      produtos: [{ cicloCestaId, quantidade: 3 }],
    });
    assert.equal(pedido.status, 201, pedido.texto);
    const pedidoId = pedido.json<Envelope<{ pedidoId: number }>>().data.pedidoId;
    assert.equal((await como('consumidor').postJson(url('/pedidoconsumidoresconfirmacao'), { pedidoId })).status, 200);
    relogio.definir(dia('10'));
    const fechar = await como('admin').postJson(url(`/fecharciclo/${cicloid}`), {});
    assert.equal(fechar.status, 200, fechar.texto);
    const credito = await amb.banco
      .selectFrom('movimentacao')
      .select(['valorCentavos', 'sentido'])
      .where('usuarioid', '=', fornecedorId)
      .execute();
    // 3 baskets × 2 kg and the lot's 10 kg, at R$ 5,00: R$ 80,00.
    assert.deepEqual(credito, [{ valorCentavos: (3 * 2 + 10) * 500, sentido: 'credito' }]);
  });
});
