import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';
import { navegadorComSessao } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import type { Navegador } from '../helpers/navegador.ts';

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: string;
  details?: Record<string, unknown>;
}

describe('janelas, donos e capacidade', () => {
  const relogio = new RelogioDeTeste('2026-03-02T15:00:00Z');
  let amb: AmbienteDeTeste;
  let cicloid = 0;
  let cicloCestaId = 0;
  let pontoEntregaId = 0;
  let produtoId = 0;
  const gente: Record<string, { id: number; nav: Navegador }> = {};

  before(async () => {
    amb = await iniciarAmbiente({ relogio });
    const cesta = await criarCesta(amb.banco);
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
      compor: true,
    });
    cicloid = ciclo.id;
    cicloCestaId = ciclo.cicloCestas[0] ?? 0;
    pontoEntregaId = (await criarPonto(amb.banco)).id;
    produtoId = (await criarProduto(amb.banco, { unidade: 'kg' })).id;
    for (const [nome, perfil] of [
      ['f1', 'fornecedor'],
      ['f2', 'fornecedor'],
      ['c1', 'consumidor'],
      ['c2', 'consumidor'],
      ['admin', 'admin'],
    ] as const) {
      const u = await criarUsuario(amb.banco, { perfil: [perfil] });
      gente[nome] = { id: u.id, nav: navegadorComSessao(amb, u.email) };
    }
  });
  after(() => amb.fechar());

  const pessoa = (n: string) => {
    const p = gente[n];
    assert.ok(p);
    return p;
  };
  const post = (n: string, caminho: string, corpo: unknown) => pessoa(n).nav.postJson(`${amb.url}${caminho}`, corpo);

  test('fornecedor fora do período de ofertas recebe 409; admin pode, e a auditoria registra', async () => {
    relogio.definir('2026-02-20T15:00:00Z');
    const antes = await post('f1', '/ofertasave', {
      cicloid,
      produtos: [{ produtoid: produtoId, quantidade: 10, valor: 5 }],
    });
    assert.equal(antes.status, 409);
    assert.match(antes.json<Envelope>().error, /período de ofertas deste ciclo começa em 01\/03\/2026/);
    relogio.definir('2026-03-05T15:00:00Z');
    const depois = await post('f1', '/ofertasave', {
      cicloid,
      produtos: [{ produtoid: produtoId, quantidade: 10, valor: 5 }],
    });
    assert.equal(depois.status, 409);
    assert.match(depois.json<Envelope>().error, /terminou em 04\/03\/2026/);
    const admin = await post('admin', '/ofertasave', {
      cicloid,
      usuarioid: pessoa('f1').id,
      produtos: [{ produtoid: produtoId, quantidade: 10, valor: 5 }],
    });
    assert.equal(admin.status, 201, admin.texto);
    const trilha = await amb.banco
      .selectFrom('auditoria')
      .select(['acao', 'ator'])
      .where('entidade', '=', 'oferta')
      .execute();
    assert.ok(
      trilha.some((t) => t.acao === 'finalizar (fora da janela)'),
      JSON.stringify(trilha),
    );
  });

  test('consumidor fora do período de pedidos recebe 409; admin pode pedir por alguém', async () => {
    relogio.definir('2026-03-05T15:00:00Z');
    const r = await post('c1', '/pedidoconsumidores', {
      cicloid,
      pontoEntregaId,
      produtos: [{ cicloCestaId, quantidade: 1 }],
    });
    assert.equal(r.status, 409);
    assert.match(r.json<Envelope>().error, /período de pedidos/);
    const admin = await post('admin', '/pedidoconsumidores', {
      cicloid,
      pontoEntregaId,
      usuarioid: pessoa('c1').id,
      produtos: [{ cicloCestaId, quantidade: 1 }],
    });
    assert.equal(admin.status, 201, admin.texto);
    assert.equal(
      admin.json<Envelope<{ pedido: { usuario: { id: number } } }>>().data.pedido.usuario.id,
      pessoa('c1').id,
    );
  });

  test('IDOR: um consumidor não lê nem escreve o pedido de outro (caminho, corpo e lote)', async () => {
    relogio.definir('2026-03-07T15:00:00Z');
    const deC2 = await post('c2', '/pedidoconsumidores', {
      cicloid,
      pontoEntregaId,
      produtos: [{ cicloCestaId, quantidade: 1 }],
    });
    const pedidoC2 = deC2.json<Envelope<{ pedidoId: number }>>().data.pedidoId;
    assert.equal(
      (await pessoa('c1').nav.getJson(`${amb.url}/pedidoconsumidoresconfirmacao/${pedidoC2}`)).status,
      404,
      'pelo caminho',
    );
    assert.equal(
      (await pessoa('c1').nav.getJson(`${amb.url}/pedidoconsumidores/${cicloid}?usuarioid=${pessoa('c2').id}`)).status,
      403,
      'pela consulta',
    );
    assert.equal((await post('c1', '/pedidoconsumidoresconfirmacao', { pedidoId: pedidoC2 })).status, 404, 'no corpo');
    const alheio = await post('c1', '/pedidoconsumidores', {
      cicloid,
      pontoEntregaId,
      usuarioid: pessoa('c2').id,
      produtos: [{ cicloCestaId, quantidade: 3 }],
    });
    assert.equal(alheio.status, 403, 'usuarioid de outra pessoa no corpo');
    const linhas = await amb.banco
      .selectFrom('pedidoproduto')
      .select('quantidadeMilesimos')
      .where('pedidoid', '=', pedidoC2)
      .execute();
    assert.deepEqual(
      linhas.map((l) => l.quantidadeMilesimos),
      [1000],
      'o pedido de c2 ficou intacto',
    );
    const finalizado = await amb.banco
      .selectFrom('pedido')
      .select('finalizado')
      .where('id', '=', pedidoC2)
      .executeTakeFirstOrThrow();
    assert.equal(finalizado.finalizado, false);
  });

  test('IDOR: um fornecedor não mexe na oferta de outro', async () => {
    relogio.definir('2026-03-02T15:00:00Z');
    const f2 = await post('f2', '/oferta', { cicloid, produtos: [{ produtoid: produtoId, quantidade: 7, valor: 4 }] });
    const linhaF2 =
      f2.json<Envelope<{ produtos: Array<{ ofertaProdutoId: number }> }>>().data.produtos[0]?.ofertaProdutoId;
    assert.equal((await post('f1', '/ofertasave', { cicloid, usuarioid: pessoa('f2').id, produtos: [] })).status, 403);
    assert.equal((await post('f1', '/ofertaapagarproduto', { ofertaProdutoId: linhaF2 })).status, 404);
    assert.equal(
      (await pessoa('f1').nav.getJson(`${amb.url}/oferta/${cicloid}?usuarioid=${pessoa('f2').id}`)).status,
      403,
    );
    const ainda = await amb.banco
      .selectFrom('ofertaproduto')
      .select('quantidadeMilesimos')
      .where('id', '=', linhaF2 ?? 0)
      .executeTakeFirstOrThrow();
    assert.equal(ainda.quantidadeMilesimos, 7000);
  });

  test('composição: a capacidade é exata no limite; um milésimo a mais é recusado nomeando produto, fornecedor e falta', async () => {
    relogio.definir('2026-03-05T15:00:00Z');
    const ciclo2 = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: (await criarCesta(amb.banco)).id, quantidadeCestas: 7 }],
      compor: true,
    });
    const cc = ciclo2.cicloCestas[0] ?? 0;
    const oferta = await criarOfertaFinalizada(
      amb.banco,
      ciclo2.id,
      [{ produtoId, quantidadeMilesimos: 7_000, valorCentavos: 500 }],
      pessoa('f1').id,
    );
    const linhaId = oferta.linhas[0];
    const compor = (qpc: string) =>
      post('admin', `/composicao/${cc}`, {
        quantidadeCestas: 7,
        produtos: [{ ofertaProdutoId: linhaId, quantidadePorCesta: qpc, unidade: 'kg' }],
      });
    assert.equal((await compor('1')).status, 200, '7 × 1 kg = 7 kg ofertados');
    const demais = await compor('1.001');
    assert.equal(demais.status, 409);
    const e = demais.json<Envelope>();
    assert.match(e.error, /Falta 0,007 kg de .* de Pessoa de Teste: ofertado 7 kg, nas cestas 7,007 kg/);
    assert.equal(e.details?.faltando, 0.007);
    const mantida = await amb.banco.selectFrom('composicaoproduto').select('quantidadePorCestaMilesimos').execute();
    assert.ok(
      mantida.some((m) => m.quantidadePorCestaMilesimos === 1000),
      'a composição anterior ficou',
    );
    assert.equal((await compor('1')).status, 200, 'salvar de novo o mesmo é idempotente');
    assert.equal(
      (await post('admin', `/composicao/${cc}`, { quantidadeCestas: 8, produtos: [] })).status,
      409,
      'mais cestas que o ciclo oferece',
    );
    const g = await post('admin', `/composicao/${cc}`, {
      quantidadeCestas: 7,
      produtos: [{ ofertaProdutoId: linhaId, quantidadePorCesta: '500', unidade: 'ml' }],
    });
    assert.equal(g.status, 400);
    assert.match(String(g.json<Envelope>().details?.['produtos.0.unidade']), /use kg ou g/);
    const outroCiclo = await post('admin', `/composicao/${cicloCestaId}`, {
      quantidadeCestas: 5,
      produtos: [{ ofertaProdutoId: linhaId, quantidadePorCesta: '1', unidade: 'kg' }],
    });
    assert.equal(outroCiclo.status, 400, 'uma linha de oferta de outro ciclo não entra');
    // The supplier cannot drop the line below what the baskets use.
    relogio.definir('2026-03-02T15:00:00Z');
    const baixar = await post('f1', '/ofertasave', {
      cicloid: ciclo2.id,
      produtos: [{ produtoid: produtoId, quantidade: '6.999', valor: 5 }],
    });
    assert.equal(baixar.status, 409);
  });

  test('uma linha listada numa composição de zero cestas não sai da oferta: 409 nomeando a cesta, nada apagado', async () => {
    relogio.definir('2026-03-02T15:00:00Z');
    const cesta = await criarCesta(amb.banco);
    const ciclo3 = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 4 }],
      compor: true,
    });
    const outro = (await criarProduto(amb.banco, { unidade: 'kg' })).id;
    const criada = await post('f2', '/ofertasave', {
      cicloid: ciclo3.id,
      produtos: [{ produtoid: produtoId, quantidade: 1, valor: 0 }],
    });
    assert.equal(criada.status, 201);
    const linha =
      criada.json<Envelope<{ produtos: Array<{ ofertaProdutoId: number }> }>>().data.produtos[0]?.ofertaProdutoId ?? 0;
    const composta = await post('admin', `/composicao/${ciclo3.cicloCestas[0] ?? 0}`, {
      quantidadeCestas: 0,
      produtos: [{ ofertaProdutoId: linha, quantidadePorCesta: '0.001', unidade: 'kg' }],
    });
    assert.equal(composta.status, 200, 'uma composição de zero cestas pode listar a linha');
    const trocar = await post('f2', '/ofertasave', {
      cicloid: ciclo3.id,
      produtos: [{ produtoid: outro, quantidade: 1, valor: 0 }],
    });
    assert.equal(trocar.status, 409);
    assert.match(
      trocar.json<Envelope>().error,
      new RegExp(`já está em cestas \\(${cesta.nome}\\): ajuste a composição`),
    );
    assert.deepEqual(trocar.json<Envelope>().details, { ofertaProdutoId: linha, cestas: [cesta.nome] });
    const apagar = await post('f2', '/ofertaapagarproduto', { ofertaProdutoId: linha });
    assert.equal(apagar.status, 409);
    const linhas = await amb.banco
      .selectFrom('ofertaproduto')
      .select(['id', 'produtoid'])
      .where('id', '=', linha)
      .execute();
    assert.deepEqual(
      linhas,
      [{ id: linha, produtoid: produtoId }],
      'a linha ficou, e a linha nova não entrou pela metade',
    );
    const novas = await amb.banco.selectFrom('ofertaproduto').select('id').where('produtoid', '=', outro).execute();
    assert.equal(novas.length, 0);
  });

  test('uma linha que sustenta extras publicados não sai da oferta: 409, e a oferta continua finalizada', async () => {
    relogio.definir('2026-03-02T15:00:00Z');
    const ciclo4 = await criarCiclo(amb.banco, { datas: DATAS_PADRAO });
    const extraProduto = (await criarProduto(amb.banco, { unidade: 'kg' })).id;
    const oferta = await post('f1', '/ofertasave', {
      cicloid: ciclo4.id,
      produtos: [{ produtoid: extraProduto, quantidade: 5, valor: 2 }],
    });
    assert.equal(oferta.status, 201);
    const linha =
      oferta.json<Envelope<{ produtos: Array<{ ofertaProdutoId: number }> }>>().data.produtos[0]?.ofertaProdutoId ?? 0;
    const extras = await post('admin', `/ciclo/${ciclo4.id}`, {
      nome: `Ciclo dos extras ${ciclo4.id}`,
      ...DATAS_PADRAO,
      cicloProdutos: [{ produtoId: extraProduto, quantidade: 3, valor: '4.00' }],
    });
    assert.equal(extras.status, 200, extras.texto);
    const apagar = await post('f1', '/ofertaapagarproduto', { ofertaProdutoId: linha });
    assert.equal(apagar.status, 409, apagar.texto);
    assert.match(apagar.json<Envelope>().error, /Faltam 3 kg de .*: os extras publicados passam da sobra de 0 kg/);
    const ainda = await amb.banco
      .selectFrom('ofertaproduto as op')
      .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
      .select(['op.id', 'o.finalizada'])
      .where('op.id', '=', linha)
      .execute();
    assert.deepEqual(
      ainda.map((l) => [l.id, Boolean(l.finalizada)]),
      [[linha, true]],
      'a linha ficou, e a oferta não voltou a rascunho',
    );
  });

  test('comprovantes: PDF aceito e baixado só pelo dono ou admin; outros formatos e tamanhos recusados', async () => {
    const limite = 10 * 1024 * 1024;
    const enviar = (conteudo: Buffer, extras: Record<string, string> = {}) => {
      const f = new FormData();
      for (const [k, v] of Object.entries({
        usuarioid: String(pessoa('c1').id),
        tipoMovimentacaoId: '4',
        valor: '12.50',
        descricao: 'Pix',
        ...extras,
      }))
        f.append(k, v);
      f.append('arquivo', new Blob([new Uint8Array(conteudo)]), 'comprovante.pdf');
      const cookie = `appSession=${pessoa('admin').nav.cookie(amb.url, 'appSession') ?? ''}`;
      return fetch(`${amb.url}/movimentacao`, {
        method: 'POST',
        body: f,
        headers: { cookie, accept: 'application/json', 'x-csrf-token': 'sem-token' },
      });
    };
    const semToken = await enviar(Buffer.from('%PDF-1.4 x'));
    assert.equal(semToken.status, 403, 'um token que não é o da sessão é recusado, também em multipart');
    const pagina = await pessoa('admin').nav.get(`${amb.url}/movimentacao`);
    const csrf = /name="_csrf" value="([^"]+)"/.exec(pagina.texto)?.[1] ?? '';
    const ok = await enviar(Buffer.from('%PDF-1.4 comprovante'), { _csrf: csrf });
    assert.equal(ok.status, 201, await ok.clone().text());
    const mov = ((await ok.json()) as Envelope<{ id: number; arquivo: string }>).data;
    assert.match(mov.arquivo, /^[0-9a-f-]{36}\.pdf$/);
    const exe = await enviar(Buffer.from('MZ\x90\x00 executável'), { _csrf: csrf });
    assert.equal(exe.status, 400);
    assert.match(((await exe.json()) as Envelope).details?.arquivo as string, /PDF, PNG ou JPEG/);
    const grande = await enviar(Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(limite)]), { _csrf: csrf });
    assert.equal(grande.status, 413);
    const baixado = await pessoa('c1').nav.get(`${amb.url}/movimentacao/${mov.id}/arquivo`);
    assert.equal(baixado.status, 200);
    assert.equal(baixado.headers.get('content-type'), 'application/pdf');
    assert.equal(baixado.texto, '%PDF-1.4 comprovante');
    assert.equal((await pessoa('c2').nav.get(`${amb.url}/movimentacao/${mov.id}/arquivo`)).status, 404);
    assert.equal((await pessoa('admin').nav.get(`${amb.url}/movimentacao/${mov.id}/arquivo`)).status, 200);
    const multipartAlhures = await fetch(`${amb.url}/profile`, {
      method: 'POST',
      body: new FormData(),
      headers: {
        cookie: `appSession=${pessoa('c1').nav.cookie(amb.url, 'appSession') ?? ''}`,
        accept: 'application/json',
      },
    });
    assert.equal(multipartAlhures.status, 415, 'só o registro de pagamentos aceita multipart');
  });
});
