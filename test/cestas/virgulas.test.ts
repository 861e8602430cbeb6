import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DATAS_PADRAO, criarCiclo, criarPonto, criarProduto } from '../helpers/fabricas.ts';
import { csrfDe, entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

/**
 * Forms take decimals the way Brazilians type them ("1,5", "R$ 12,50", "1.234,56"); the JSON API
 * keeps the contract's dot (DOMAIN.md). Each case is a real form post, read back from the database.
 */
describe('vírgulas decimais digitadas nos formulários', () => {
  const relogio = new RelogioDeTeste('2026-03-02T15:00:00Z');
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  let fornecedor: Pessoa;
  let cicloid = 0;
  let produtoid = 0;
  before(async () => {
    amb = await iniciarAmbiente({ relogio });
    admin = await entrarComo(amb, ['admin']);
    fornecedor = await entrarComo(amb, ['fornecedor'], 'Sítio da Vírgula');
    cicloid = (await criarCiclo(amb.banco, { datas: DATAS_PADRAO })).id;
    produtoid = (await criarProduto(amb.banco, { nome: 'Feijão', unidade: 'kg' })).id;
  });
  after(() => amb.fechar());

  const formulario = async (p: Pessoa, caminho: string, campos: Record<string, string>) =>
    p.nav.post(
      `${amb.url}${caminho}`,
      { form: { _csrf: await csrfDe(amb, p.nav), ...campos } },
      { headers: { accept: 'text/html' } },
    );

  test('oferta: quantidade "2,5" e valor "R$ 12,50" gravam 2,5 kg a R$ 12,50; "0,0" numa linha de sobra não é linha', async () => {
    const r = await formulario(fornecedor, '/oferta', {
      cicloid: String(cicloid),
      'produtos[0][produtoid]': String(produtoid),
      'produtos[0][quantidade]': '2,5',
      'produtos[0][valor]': 'R$ 12,50',
      'produtos[1][produtoid]': String(produtoid),
      'produtos[1][quantidade]': '0,0',
      'produtos[1][valor]': '',
    });
    assert.equal(r.status, 200, r.texto.slice(0, 400));
    const linhas = await amb.banco
      .selectFrom('ofertaproduto as l')
      .innerJoin('oferta as o', 'o.id', 'l.ofertaid')
      .select(['l.quantidadeMilesimos', 'l.valorCentavos'])
      .where('o.cicloid', '=', cicloid)
      .where('o.usuarioid', '=', fornecedor.id ?? 0)
      .execute();
    assert.deepEqual(linhas, [{ quantidadeMilesimos: 2500, valorCentavos: 1250 }]);
  });

  test('um valor ambíguo volta com o formulário, dizendo as duas formas de escrever', async () => {
    const r = await formulario(fornecedor, '/oferta', {
      cicloid: String(cicloid),
      'produtos[0][produtoid]': String(produtoid),
      'produtos[0][quantidade]': '1.500',
      'produtos[0][valor]': '7,00',
    });
    assert.equal(r.status, 400);
    assert.match(r.texto, /É ambíguo: escreva 1,500 para o número com decimais, ou 1500 para o milhar/);
    assert.match(r.texto, /value="1\.500"/, 'o que foi digitado volta no campo');
    const linhas = await amb.banco
      .selectFrom('ofertaproduto as l')
      .innerJoin('oferta as o', 'o.id', 'l.ofertaid')
      .select('l.quantidadeMilesimos')
      .where('o.cicloid', '=', cicloid)
      .execute();
    assert.deepEqual(linhas, [{ quantidadeMilesimos: 2500 }], 'nada mudou');
  });

  test('oferta: a quantidade pode vir com a unidade do produto ("1,5 Kg", "2 l"); outra unidade, ou outra palavra, volta explicada', async () => {
    const leite = await criarProduto(amb.banco, { nome: 'Leite cru', unidade: 'litro' });
    const linhas = () =>
      amb.banco
        .selectFrom('ofertaproduto as l')
        .innerJoin('oferta as o', 'o.id', 'l.ofertaid')
        .select(['l.produtoid', 'l.quantidadeMilesimos'])
        .where('o.cicloid', '=', cicloid)
        .where('o.usuarioid', '=', fornecedor.id ?? 0)
        .orderBy('l.produtoid')
        .execute();
    const ofertar = (feijao: string, doLeite: string) =>
      formulario(fornecedor, '/oferta', {
        cicloid: String(cicloid),
        'produtos[0][produtoid]': String(produtoid),
        'produtos[0][quantidade]': feijao,
        'produtos[0][valor]': 'R$ 9,00',
        'produtos[1][produtoid]': String(leite.id),
        'produtos[1][quantidade]': doLeite,
        'produtos[1][valor]': '4,50',
      });
    const r = await ofertar('1,5 Kg', '2 l');
    assert.equal(r.status, 200, r.texto.slice(0, 400));
    assert.deepEqual(await linhas(), [
      { produtoid, quantidadeMilesimos: 1500 },
      { produtoid: leite.id, quantidadeMilesimos: 2000 },
    ]);
    const trocada = await ofertar('2 litros', '3 litros');
    assert.equal(trocada.status, 400);
    assert.match(trocada.texto, /Este produto é medido em kg, não em litro: escreva a quantidade em kg/);
    assert.match(trocada.texto, /value="2 litros"/, 'o que foi digitado volta no campo');
    const outraPalavra = await ofertar('500 g', '3');
    assert.equal(outraPalavra.status, 400);
    assert.match(outraPalavra.texto, /Escreva só o número, na unidade do produto \(ex\.: 2,5\), sem &quot;g&quot;/);
    assert.deepEqual(
      await linhas(),
      [
        { produtoid, quantidadeMilesimos: 1500 },
        { produtoid: leite.id, quantidadeMilesimos: 2000 },
      ],
      'nada mudou',
    );
  });

  test('pedido: o extra pode vir com a unidade do produto ("1,5 kg"); "2 dz" de um produto em kg volta explicado', async () => {
    const datas = {
      ...DATAS_PADRAO,
      dataOfertaInicio: '2026-02-20',
      dataOfertaFim: '2026-02-24',
      dataPedidoInicio: '2026-03-01',
      dataPedidoFim: '2026-03-04',
    };
    const ciclo = await criarCiclo(amb.banco, { datas });
    const mel = await criarProduto(amb.banco, { nome: 'Mel de laranjeira', unidade: 'kg', valorCentavos: 4000 });
    const iso = new Date().toISOString();
    const extra = await amb.banco
      .insertInto('cicloproduto')
      .values({
        cicloid: ciclo.id,
        produtoId: mel.id,
        quantidadeMilesimos: 10_000,
        valorCentavos: 4000,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ponto = await criarPonto(amb.banco);
    const consumidora = await entrarComo(amb, ['consumidor'], 'Compradora da Vírgula');
    const pedir = (quantidade: string) =>
      formulario(consumidora, '/pedidoconsumidores', {
        cicloid: String(ciclo.id),
        pontoEntregaId: String(ponto.id),
        'produtos[0][cicloProdutoId]': String(extra.id),
        'produtos[0][quantidade]': quantidade,
      });
    const trocada = await pedir('2 dz');
    assert.equal(trocada.status, 400, trocada.texto.slice(0, 400));
    assert.match(trocada.texto, /Este produto é medido em kg, não em dúzia: escreva a quantidade em kg/);
    const r = await pedir('1,5 kg');
    assert.equal(r.status, 200, r.texto.slice(0, 400));
    assert.match(new URL(r.url).pathname, /^\/pedidoconsumidoresconfirmacao\/\d+$/, 'salvo, vai à confirmação');
    const linha = await amb.banco
      .selectFrom('pedidoproduto as pp')
      .innerJoin('pedido as p', 'p.id', 'pp.pedidoid')
      .select(['pp.quantidadeMilesimos', 'pp.valorCentavos'])
      .where('p.cicloid', '=', ciclo.id)
      .where('p.usuarioid', '=', consumidora.id ?? 0)
      .executeTakeFirstOrThrow();
    assert.deepEqual(linha, { quantidadeMilesimos: 1500, valorCentavos: 4000 });
  });

  test('catálogo: "R$ 1.234,56" no formulário vale 1234,56; o JSON continua pedindo ponto', async () => {
    const r = await formulario(admin, '/produto', {
      nome: 'Queijo Canastra',
      unidade: 'kg',
      valorReferencia: 'R$ 1.234,56',
      ativo: 'true',
    });
    assert.equal(r.status, 200, r.texto.slice(0, 400));
    const gravado = await amb.banco
      .selectFrom('produto')
      .select('valorReferenciaCentavos')
      .where('nome', '=', 'Queijo Canastra')
      .executeTakeFirstOrThrow();
    assert.equal(gravado.valorReferenciaCentavos, 123456);
    const json = await admin.nav.postJson(`${amb.url}/produto`, {
      nome: 'Queijo Minas',
      unidade: 'kg',
      valorReferencia: '1,5',
    });
    assert.equal(json.status, 400);
    assert.deepEqual(json.json<{ details: Record<string, string> }>().details, {
      valorReferencia: 'Use ponto como separador decimal (ex.: 12.50)',
    });
  });

  test('pagamento com comprovante (multipart): "R$ 1.050,25"', async () => {
    const consumidora = await entrarComo(amb, ['consumidor'], 'Pagadora');
    const f = new FormData();
    for (const [k, v] of Object.entries({
      _csrf: await csrfDe(amb, admin.nav),
      usuarioid: String(consumidora.id),
      tipoMovimentacaoId: '4',
      valor: 'R$ 1.050,25',
      descricao: 'Pix',
    }))
      f.append(k, v);
    f.append('arquivo', new Blob([new Uint8Array(Buffer.from('%PDF-1.4 comprovante'))]), 'comprovante.pdf');
    const cookie = `appSession=${admin.nav.cookie(amb.url, 'appSession') ?? ''}`;
    const r = await fetch(`${amb.url}/movimentacao`, {
      method: 'POST',
      body: f,
      headers: { cookie, accept: 'text/html' },
      redirect: 'manual',
    });
    assert.equal(r.status, 303, await r.text());
    const mov = await amb.banco
      .selectFrom('movimentacao')
      .select('valorCentavos')
      .where('usuarioid', '=', consumidora.id ?? 0)
      .executeTakeFirstOrThrow();
    assert.equal(mov.valorCentavos, 105025);
  });
});
