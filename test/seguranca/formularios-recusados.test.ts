import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import type { Navegador } from '../helpers/navegador.ts';
import { csrfDe, navegadorComSessao } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

/**
 * A refused form is drawn again with its messages. Whose order or offer that page shows follows
 * the same rule as the page itself: nobody sees, through an error, what the GET would refuse them.
 */
describe('formulário recusado não mostra o pedido nem a oferta de outra pessoa', () => {
  const relogio = new RelogioDeTeste('2026-03-02T15:00:00Z');
  const NO_PERIODO_DE_OFERTAS = '2026-03-02T15:00:00Z';
  const NO_PERIODO_DE_PEDIDOS = '2026-03-07T15:00:00Z';
  let amb: AmbienteDeTeste;
  let cicloid = 0;
  let cicloCestaId = 0;
  let ponto = 0;
  let produtoid = 0;
  const gente: Record<'c1' | 'c2' | 'f1' | 'f2' | 'admin', { id: number; nav: Navegador; csrf: string }> = {} as never;

  before(async () => {
    amb = await iniciarAmbiente({ relogio });
    const cesta = await criarCesta(amb.banco);
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 20 }],
      compor: true,
    });
    cicloid = ciclo.id;
    cicloCestaId = ciclo.cicloCestas[0] ?? 0;
    ponto = (await criarPonto(amb.banco)).id;
    produtoid = (await criarProduto(amb.banco, { unidade: 'kg' })).id;
    const pessoas = [
      ['c1', 'consumidor', 'Consumidora Curiosa'],
      ['c2', 'consumidor', 'Consumidora Sigilosa'],
      ['f1', 'fornecedor', 'Fornecedor Curioso'],
      ['f2', 'fornecedor', 'Fornecedora Sigilosa'],
      ['admin', 'admin', 'Coordenação'],
    ] as const;
    for (const [chave, perfil, nome] of pessoas) {
      const u = await criarUsuario(amb.banco, { perfil: [perfil], nome });
      const nav = navegadorComSessao(amb, u.email, nome);
      gente[chave] = { id: u.id, nav, csrf: await csrfDe(amb, nav) };
    }
    relogio.definir(NO_PERIODO_DE_OFERTAS);
    const oferta = await gente.f2.nav.postJson(`${amb.url}/ofertasave`, {
      cicloid,
      produtos: [{ produtoid, quantidade: 987, valor: 43.21 }],
    });
    assert.equal(oferta.status, 201, oferta.texto);
    relogio.definir(NO_PERIODO_DE_PEDIDOS);
    const pedido = await gente.c2.nav.postJson(`${amb.url}/pedidoconsumidores`, {
      cicloid,
      pontoEntregaId: ponto,
      produtos: [{ cicloCestaId, quantidade: 7 }],
    });
    assert.equal(pedido.status, 201, pedido.texto);
  });
  after(() => amb.fechar());

  /** A form post from the person's own page (their session's token), as a browser sends it. */
  function postarFormulario(quem: keyof typeof gente, caminho: string, campos: Record<string, string>) {
    const p = gente[quem];
    return p.nav.post(
      `${amb.url}${caminho}`,
      { form: { _csrf: p.csrf, ...campos } },
      { headers: { accept: 'text/html' } },
    );
  }

  function semRastroDe(texto: string, ...marcas: string[]): void {
    for (const m of marcas) assert.ok(!texto.includes(m), `a resposta mostra "${m}", que é de outra pessoa`);
  }

  test('consumidora que nomeia outra no pedido recebe 403, sem nada do pedido dela', async () => {
    relogio.definir(NO_PERIODO_DE_PEDIDOS);
    // Missing pickup point and lines: today's validation error would have drawn the other's page.
    const r = await postarFormulario('c1', '/pedidoconsumidores', {
      cicloid: String(cicloid),
      usuarioid: String(gente.c2.id),
    });
    assert.equal(r.status, 403, r.texto.slice(0, 300));
    semRastroDe(r.texto, 'Sigilosa');
    const comErros = await postarFormulario('c1', '/pedidoconsumidores', {
      cicloid: String(cicloid),
      usuarioid: String(gente.c2.id),
      pontoEntregaId: 'abc',
      'produtos[0][quantidade]': '-3',
    });
    assert.equal(comErros.status, 403, 'o dono é conferido antes da validação do resto do corpo');
    semRastroDe(comErros.texto, 'Sigilosa');
    const json = await gente.c1.nav.postJson(`${amb.url}/pedidoconsumidores`, {
      cicloid,
      usuarioid: gente.c2.id,
      pontoEntregaId: 'abc',
    });
    assert.equal(json.status, 403);
    assert.equal(json.json<{ error: string }>().error, 'Você só pode fazer os seus próprios pedidos');
    semRastroDe(json.texto, 'Sigilosa');
  });

  test('fornecedor que nomeia outro no rascunho ou na oferta final recebe 403, sem nada da oferta dele', async () => {
    relogio.definir(NO_PERIODO_DE_OFERTAS);
    for (const caminho of ['/oferta', '/ofertasave']) {
      const r = await postarFormulario('f1', caminho, {
        cicloid: String(cicloid),
        usuarioid: String(gente.f2.id),
        'produtos[0][produtoid]': 'x',
      });
      assert.equal(r.status, 403, `${caminho}: ${r.texto.slice(0, 300)}`);
      semRastroDe(r.texto, 'Sigilosa', '987', '43,21', '43.21');
      const json = await gente.f1.nav.postJson(`${amb.url}${caminho}`, {
        cicloid,
        usuarioid: gente.f2.id,
        produtos: 'lixo',
      });
      assert.equal(json.status, 403, caminho);
      semRastroDe(json.texto, 'Sigilosa', '987');
    }
    const apagar = await gente.f1.nav.postJson(`${amb.url}/ofertaapagarproduto`, {
      cicloid,
      produtoid,
      usuarioid: gente.f2.id,
      ofertaProdutoId: 'x',
    });
    assert.equal(apagar.status, 403, 'retirar produto da oferta de outro: o dono vem antes da validação');
    const linhas = await amb.banco
      .selectFrom('ofertaproduto as op')
      .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
      .select('op.quantidadeMilesimos')
      .where('o.usuarioid', '=', gente.f2.id)
      .execute();
    assert.deepEqual(linhas, [{ quantidadeMilesimos: 987_000 }], 'a oferta do outro fica como estava');
  });

  test('a própria pessoa recebe o formulário de volta, com a mensagem e o que digitou', async () => {
    relogio.definir(NO_PERIODO_DE_PEDIDOS);
    const pedido = await postarFormulario('c1', '/pedidoconsumidores', {
      cicloid: String(cicloid),
      pontoEntregaId: String(ponto),
    });
    assert.equal(pedido.status, 400);
    assert.match(pedido.texto, /Consumidora Curiosa/);
    assert.match(pedido.texto, /Escolha pelo menos uma cesta ou um extra/);
    semRastroDe(pedido.texto, 'Sigilosa');
    relogio.definir(NO_PERIODO_DE_OFERTAS);
    const oferta = await postarFormulario('f1', '/oferta', {
      cicloid: String(cicloid),
      'produtos[0][produtoid]': String(produtoid),
      'produtos[0][quantidade]': '-5',
      'produtos[0][valor]': '2.50',
    });
    assert.equal(oferta.status, 400);
    assert.match(oferta.texto, /Fornecedor Curioso/);
    assert.match(oferta.texto, /value="2\.50"/);
    semRastroDe(oferta.texto, 'Sigilosa', '987');
  });

  test('a coordenação, que age por qualquer pessoa, recebe o formulário recusado dessa pessoa', async () => {
    relogio.definir(NO_PERIODO_DE_PEDIDOS);
    const r = await postarFormulario('admin', '/pedidoconsumidores', {
      cicloid: String(cicloid),
      usuarioid: String(gente.c2.id),
      pontoEntregaId: String(ponto),
    });
    assert.equal(r.status, 400);
    assert.match(r.texto, /Consumidora Sigilosa/);
  });

  test('o tratador de erros decide o status e quando redesenhar: 409 volta com a página; sem ciclo válido ou 404, a página de erro', async () => {
    relogio.definir(NO_PERIODO_DE_PEDIDOS);
    const demais = await postarFormulario('c1', '/pedidoconsumidores', {
      cicloid: String(cicloid),
      pontoEntregaId: String(ponto),
      'produtos[0][cicloCestaId]': String(cicloCestaId),
      'produtos[0][quantidade]': '50',
    });
    assert.equal(demais.status, 409);
    assert.match(demais.texto, /Consumidora Curiosa/);
    assert.match(demais.texto, /disponível: 13 cestas/);
    assert.match(demais.texto, /name="pontoEntregaId"/, 'a página do pedido, com o formulário');
    for (const [cicloDoCorpo, status] of [
      ['abc', 400],
      ['999999', 404],
    ] as const) {
      const r = await postarFormulario('c1', '/pedidoconsumidores', {
        cicloid: cicloDoCorpo,
        pontoEntregaId: String(ponto),
        'produtos[0][cicloCestaId]': String(cicloCestaId),
        'produtos[0][quantidade]': '1',
      });
      assert.equal(r.status, status, r.texto.slice(0, 300));
      assert.doesNotMatch(
        r.texto,
        /name="pontoEntregaId"/,
        `${cicloDoCorpo}: nenhuma página de pedido para redesenhar`,
      );
      assert.match(r.texto, /<h1[^>]*>Não foi possível concluir<\/h1>/);
    }
  });
});
