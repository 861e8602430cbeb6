import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import type { Navegador } from '../helpers/navegador.ts';
import { navegadorComSessao } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Envelope<T = Record<string, unknown>> {
  readonly success: boolean;
  readonly data: T;
  readonly error: string;
}

/**
 * A supplier who was allocated keeps that commitment: a draft may change anything baskets do not
 * use, nothing drops below what they use, and the used lines keep counting while the offer is a
 * draft (capacity, compositions, reports, the supplier's credit at close).
 */
describe('oferta em rascunho: o que as cestas usam continua compromisso do fornecedor', () => {
  const dia = (d: string) => `2026-03-${d}T15:00:00Z`;
  const relogio = new RelogioDeTeste(dia('02'));
  let amb: AmbienteDeTeste;
  let cicloid = 0;
  let cestaUsada = 0;
  let outraCesta = 0;
  let ponto = 0;
  let tomate = 0;
  let alface = 0;
  let fornecedorId = 0;
  let linhaTomate = 0;
  let linhaAlface = 0;
  const emails = { fornecedor: '', admin: '', consumidor: '' };
  const como = (quem: keyof typeof emails): Navegador => navegadorComSessao(amb, emails[quem]);

  const linhaDoBanco = async (id: number) =>
    amb.banco.selectFrom('ofertaproduto').select('quantidadeMilesimos').where('id', '=', id).executeTakeFirstOrThrow();
  const ofertaDoBanco = async () =>
    amb.banco
      .selectFrom('oferta')
      .select(['id', 'finalizada'])
      .where('cicloid', '=', cicloid)
      .where('usuarioid', '=', fornecedorId)
      .executeTakeFirstOrThrow();
  const oferta = (
    quem: 'fornecedor' | 'admin',
    caminho: '/oferta' | '/ofertasave',
    kgTomate: number,
    kgAlface: number,
  ) =>
    como(quem).postJson(`${amb.url}${caminho}`, {
      cicloid,
      ...(quem === 'admin' ? { usuarioid: fornecedorId } : {}),
      produtos: [
        { produtoid: tomate, quantidade: kgTomate, valor: 5 },
        { produtoid: alface, quantidade: kgAlface, valor: 2 },
      ],
    });

  before(async () => {
    amb = await iniciarAmbiente({ relogio });
    const [c1, c2] = [await criarCesta(amb.banco), await criarCesta(amb.banco)];
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [
        { cestaId: c1.id, quantidadeCestas: 10 },
        { cestaId: c2.id, quantidadeCestas: 10 },
      ],
    });
    cicloid = ciclo.id;
    [cestaUsada = 0, outraCesta = 0] = ciclo.cicloCestas;
    ponto = (await criarPonto(amb.banco)).id;
    tomate = (await criarProduto(amb.banco, { nome: 'Tomate', unidade: 'kg' })).id;
    alface = (await criarProduto(amb.banco, { nome: 'Alface', unidade: 'kg' })).id;
    const fornecedor = await criarUsuario(amb.banco, { perfil: ['fornecedor'], nome: 'Sítio do Tomate' });
    fornecedorId = fornecedor.id;
    emails.fornecedor = fornecedor.email;
    emails.admin = (await criarUsuario(amb.banco, { perfil: ['admin'] })).email;
    emails.consumidor = (await criarUsuario(amb.banco, { perfil: ['consumidor'] })).email;

    const final = await oferta('fornecedor', '/ofertasave', 10, 4);
    assert.equal(final.status, 201, final.texto);
    const produtos =
      final.json<Envelope<{ produtos: Array<{ ofertaProdutoId: number; produtoid: number }> }>>().data.produtos;
    linhaTomate = produtos.find((p) => p.produtoid === tomate)?.ofertaProdutoId ?? 0;
    linhaAlface = produtos.find((p) => p.produtoid === alface)?.ofertaProdutoId ?? 0;
    // 7 baskets of 1 kg of tomato: 7 of the 10 kg are allocated.
    const compor = await como('admin').postJson(`${amb.url}/composicao/${cestaUsada}`, {
      quantidadeCestas: 7,
      produtos: [{ ofertaProdutoId: linhaTomate, quantidadePorCesta: 1, unidade: 'kg' }],
    });
    assert.equal(compor.status, 200, compor.texto);
  });
  after(() => amb.fechar());

  test('nenhum caminho deixa a linha cair abaixo do que as cestas usam, e nada muda', async () => {
    const tentativas = [
      ['rascunho do fornecedor', await oferta('fornecedor', '/oferta', 1, 4)],
      ['oferta final do fornecedor', await oferta('fornecedor', '/ofertasave', 6, 4)],
      ['rascunho pela coordenação', await oferta('admin', '/oferta', 6.999, 4)],
      ['oferta final pela coordenação', await oferta('admin', '/ofertasave', 6, 4)],
    ] as const;
    for (const [como_, r] of tentativas) {
      assert.equal(r.status, 409, `${como_}: ${r.texto}`);
      assert.match(
        r.json<Envelope>().error,
        /^(Falta 1|Falta 0,001|Faltam 6) kg de Tomate de Sítio do Tomate: ofertado .*, nas cestas 7 kg$/,
        como_,
      );
    }
    const retirar = await como('fornecedor').postJson(`${amb.url}/ofertaapagarproduto`, {
      ofertaProdutoId: linhaTomate,
    });
    assert.equal(retirar.status, 409);
    assert.equal((await linhaDoBanco(linhaTomate)).quantidadeMilesimos, 10_000);
    assert.equal(Boolean((await ofertaDoBanco()).finalizada), true, 'a oferta segue final');
  });

  test('um rascunho muda o que não está alocado; a linha usada segue contando para cestas, relatório e crédito', async () => {
    relogio.definir(dia('03'));
    const rascunho = await oferta('fornecedor', '/oferta', 7, 2);
    assert.equal(rascunho.status, 200, rascunho.texto);
    assert.equal(Boolean((await ofertaDoBanco()).finalizada), false, 'agora é rascunho');
    assert.equal((await linhaDoBanco(linhaTomate)).quantidadeMilesimos, 7_000, 'exatamente o alocado é aceito');

    // The composition still shows and keeps the line; a new basket cannot take from a draft.
    const pagina = await como('admin').getJson(`${amb.url}/composicao/${cestaUsada}`);
    const ofertas = pagina.json<
      Envelope<{
        ofertas: Array<{ ofertaProdutoId: number; quantidadeAlocada: number; quantidadeDisponivel: number }>;
      }>
    >().data.ofertas;
    assert.deepEqual(
      ofertas
        .filter((o) => o.ofertaProdutoId === linhaTomate)
        .map((o) => [o.quantidadeAlocada, o.quantidadeDisponivel]),
      [[7, 0]],
    );
    const manter = await como('admin').postJson(`${amb.url}/composicao/${cestaUsada}`, {
      quantidadeCestas: 7,
      produtos: [{ ofertaProdutoId: linhaTomate, quantidadePorCesta: 1, unidade: 'kg' }],
    });
    assert.equal(manter.status, 200, manter.texto);
    const nova = await como('admin').postJson(`${amb.url}/composicao/${outraCesta}`, {
      quantidadeCestas: 1,
      produtos: [{ ofertaProdutoId: linhaAlface, quantidadePorCesta: 1, unidade: 'kg' }],
    });
    assert.equal(nova.status, 400);
    assert.deepEqual(Object.values(nova.json<{ details: Record<string, string> }>().details), [
      'Não é uma oferta finalizada deste ciclo',
    ]);

    relogio.definir(dia('07'));
    const pedido = await como('consumidor').postJson(`${amb.url}/pedidoconsumidores`, {
      cicloid,
      pontoEntregaId: ponto,
      produtos: [{ cicloCestaId: cestaUsada, quantidade: 2 }],
    });
    assert.equal(pedido.status, 201, pedido.texto);
    const pedidoId = pedido.json<Envelope<{ pedidoId: number }>>().data.pedidoId;
    assert.equal(
      (await como('consumidor').postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, { pedidoId })).status,
      200,
    );

    const relatorio = await como('admin').getJson(`${amb.url}/pedidosfornecedorestodos/${cicloid}`);
    assert.match(relatorio.texto, /Sítio do Tomate/);
    assert.match(relatorio.texto, /Tomate/);

    relogio.definir(dia('10'));
    const fechar = await como('admin').postJson(`${amb.url}/fecharciclo/${cicloid}`, {});
    assert.equal(fechar.status, 200, fechar.texto);
    const credito = await amb.banco
      .selectFrom('movimentacao')
      .select(['valorCentavos', 'sentido'])
      .where('usuarioid', '=', fornecedorId)
      .execute();
    // 2 baskets × 1 kg of tomato at R$ 5.00.
    assert.deepEqual(credito, [{ valorCentavos: 1000, sentido: 'credito' }]);
  });
});
