import assert from 'node:assert/strict';
import { test } from 'node:test';
import { taxaDoPedido } from '../../src/domain/pedidos/taxa.ts';

const TAXA = { percentualCentesimos: 250, fixaCentavos: 100 };

test('a taxa é o percentual arredondado ao centavo (meio para cima) mais a parte fixa', () => {
  // 2,5 % de R$ 140,00 = R$ 3,50, mais R$ 1,00.
  assert.equal(taxaDoPedido(14_000, TAXA), 450);
  // 2,5 % de R$ 0,20 = 0,5 centavo: arredonda para 1.
  assert.equal(taxaDoPedido(20, TAXA), 101);
  // 2,5 % de R$ 0,19 = 0,475 centavo: arredonda para 0.
  assert.equal(taxaDoPedido(19, TAXA), 100);
});

test('sem valor no pedido não há taxa, nem a parte fixa', () => {
  assert.equal(taxaDoPedido(0, TAXA), 0);
  assert.equal(taxaDoPedido(1, TAXA), 100);
});
