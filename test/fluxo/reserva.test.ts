import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarOfertaFinalizada, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { DIALETO } from '../helpers/banco.ts';
import { navegadorComSessao } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

const CONSUMIDORES = 200;
const ESTOQUE = 50;

describe(`reserva sob concorrência (${DIALETO})`, () => {
  let amb: AmbienteDeTeste;
  let cicloid = 0;
  let cicloCestaId = 0;
  let cicloProdutoId = 0;
  let pontoEntregaId = 0;
  let pessoas: Array<{ id: number; email: string }> = [];

  before(async () => {
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste('2026-03-07T15:00:00Z') });
    const cesta = await criarCesta(amb.banco);
    const ciclo = await criarCiclo(amb.banco, { datas: DATAS_PADRAO, cestas: [{ cestaId: cesta.id, quantidadeCestas: ESTOQUE }], compor: true });
    cicloid = ciclo.id;
    cicloCestaId = ciclo.cicloCestas[0] ?? 0;
    const produto = await criarProduto(amb.banco, { unidade: 'unidade' });
    await criarOfertaFinalizada(amb.banco, cicloid, [{ produtoId: produto.id, quantidadeMilesimos: ESTOQUE * 1000, valorCentavos: 100 }]);
    const iso = new Date().toISOString();
    cicloProdutoId = (await amb.banco.insertInto('cicloproduto').values({ cicloid, produtoId: produto.id, quantidadeMilesimos: ESTOQUE * 1000, valorCentavos: 300, createdAt: iso, updatedAt: iso }).returning('id').executeTakeFirstOrThrow()).id;
    pontoEntregaId = (await criarPonto(amb.banco)).id;
    pessoas = [];
    for (let i = 0; i < CONSUMIDORES; i++) pessoas.push(await criarUsuario(amb.banco, { perfil: ['consumidor'] }));
  });
  after(() => amb.fechar());

  async function correria(linha: Record<string, number>): Promise<{ ok: number; conflitos: number; outros: number[]; disponiveis: Set<string> }> {
    const respostas = await Promise.all(
      pessoas.map((p) => navegadorComSessao(amb, p.email).postJson(`${amb.url}/pedidoconsumidores`, { cicloid, pontoEntregaId, produtos: [linha] })),
    );
    const disponiveis = new Set<string>();
    for (const r of respostas.filter((x) => x.status === 409)) {
      const corpo = r.json<{ success: boolean; error: string }>();
      assert.equal(corpo.success, false);
      disponiveis.add(corpo.error);
    }
    return {
      // Each consumer's first order: created (201).
      ok: respostas.filter((r) => r.status === 201).length,
      conflitos: respostas.filter((r) => r.status === 409).length,
      outros: respostas.filter((r) => r.status !== 201 && r.status !== 409).map((r) => r.status),
      disponiveis,
    };
  }

  test(`${CONSUMIDORES} pedidos simultâneos de uma cesta com ${ESTOQUE}: exatamente ${ESTOQUE} reservadas e ${CONSUMIDORES - ESTOQUE} recusas limpas`, async () => {
    const r = await correria({ cicloCestaId, quantidade: 1 });
    assert.deepEqual(r.outros, []);
    assert.equal(r.ok, ESTOQUE);
    assert.equal(r.conflitos, CONSUMIDORES - ESTOQUE);
    assert.ok([...r.disponiveis].every((m) => /disponível: 0 cesta/.test(m)), [...r.disponiveis].join(' | '));
    const soma = await amb.banco.selectFrom('pedidoproduto').select((eb) => eb.fn.sum<number>('quantidadeMilesimos').as('s')).where('cicloCestaId', '=', cicloCestaId).executeTakeFirstOrThrow();
    assert.equal(Number(soma.s), ESTOQUE * 1000);
  });

  test(`o mesmo para um extra: ${ESTOQUE} vendidos, nenhum a mais`, async () => {
    await amb.banco.deleteFrom('pedidoproduto').execute();
    await amb.banco.deleteFrom('pedido').execute();
    const r = await correria({ cicloProdutoId, quantidade: 1 });
    assert.deepEqual(r.outros, []);
    assert.equal(r.ok, ESTOQUE);
    assert.equal(r.conflitos, CONSUMIDORES - ESTOQUE);
    const soma = await amb.banco.selectFrom('pedidoproduto').select((eb) => eb.fn.sum<number>('quantidadeMilesimos').as('s')).where('cicloProdutoId', '=', cicloProdutoId).executeTakeFirstOrThrow();
    assert.equal(Number(soma.s), ESTOQUE * 1000);
  });

  test('dez gravações simultâneas da mesma pessoa deixam um só pedido', async () => {
    const p = pessoas[0];
    assert.ok(p);
    await amb.banco.deleteFrom('pedidoproduto').execute();
    await amb.banco.deleteFrom('pedido').execute();
    const nav = navegadorComSessao(amb, p.email);
    const respostas = await Promise.all(Array.from({ length: 10 }, (_, i) => nav.postJson(`${amb.url}/pedidoconsumidores`, { cicloid, pontoEntregaId, produtos: [{ cicloCestaId, quantidade: 1 + (i % 3) }] })));
    // One save created the order; the other nine changed it.
    assert.deepEqual(respostas.map((r) => r.status).sort(), [200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const pedidos = await amb.banco.selectFrom('pedido').select('id').where('usuarioid', '=', p.id).execute();
    assert.equal(pedidos.length, 1);
    const linhas = await amb.banco.selectFrom('pedidoproduto').select('id').where('pedidoid', '=', pedidos[0]?.id ?? 0).execute();
    assert.equal(linhas.length, 1);
  });
});
