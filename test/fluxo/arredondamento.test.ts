import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ESCALA_DINHEIRO, paraNumero, valorDaQuantidade } from '../../src/decimal.ts';
import { DATAS_PADRAO, criarCiclo, criarOfertaFinalizada, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { navegadorComSessao } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

/**
 * The price of a quantity is rounded half-up to the cent in two places: `valorDaQuantidade` in
 * the domain, and the SQL that sums each offer's lines for the offer list. Both answer the same
 * table of cases, so neither can drift from the rule alone.
 */
describe('arredondamento do valor de uma quantidade: o domínio e o SQL da lista de ofertas concordam', () => {
  // [centavos por unidade, milésimos, centavos esperados]
  const CASOS: ReadonlyArray<readonly [number, number, number]> = [
    [125, 500, 63], // exactly half a centavo: up
    [124, 500, 62],
    [1, 499, 0],
    [1, 500, 1],
    [1999, 333, 666],
    [99_999, 1, 100],
    [333, 1500, 500], // 499.5 → 500
    [1000, 250, 250],
  ];
  let amb: AmbienteDeTeste;
  let cicloid = 0;
  const fornecedores = new Map<number, number>();

  before(async () => {
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste('2026-03-02T15:00:00Z') });
    cicloid = (await criarCiclo(amb.banco, { datas: DATAS_PADRAO })).id;
    const produtoId = (await criarProduto(amb.banco, { unidade: 'kg' })).id;
    for (const [i, [valorCentavos, quantidadeMilesimos]] of CASOS.entries()) {
      const oferta = await criarOfertaFinalizada(amb.banco, cicloid, [
        { produtoId, quantidadeMilesimos, valorCentavos },
      ]);
      fornecedores.set(oferta.fornecedorId, i);
    }
  });
  after(() => amb.fechar());

  test('valorDaQuantidade responde a tabela', () => {
    assert.deepEqual(
      CASOS.map(([v, q]) => valorDaQuantidade(v, q)),
      CASOS.map(([, , esperado]) => esperado),
    );
  });

  test('o total de cada oferta em /oferta-index responde a mesma tabela', async () => {
    const admin = navegadorComSessao(amb, (await criarUsuario(amb.banco, { perfil: ['admin'] })).email);
    const r = await admin.getJson(`${amb.url}/oferta-index?cicloid=${cicloid}`);
    assert.equal(r.status, 200, r.texto);
    const ofertas = r.json<{ data: { itens: Array<{ fornecedor: { id: number }; total: number }> } }>().data.itens;
    assert.equal(ofertas.length, CASOS.length);
    for (const o of ofertas) {
      const i = fornecedores.get(o.fornecedor.id) ?? -1;
      const [v, q, esperado] = CASOS[i] ?? [0, 0, -1];
      assert.equal(o.total, paraNumero(esperado, ESCALA_DINHEIRO), `R$ ${v / 100}/kg × ${q / 1000} kg`);
    }
  });
});
