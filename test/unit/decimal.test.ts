import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatarDecimal, formatarReais, lerDecimal, paraNumero, valorDaQuantidade } from '../../src/domain/decimal.ts';

function centavos(v: unknown): number {
  const r = lerDecimal(v, 2);
  if (!r.ok) throw new Error(r.motivo);
  return r.valor;
}

test('0.1 + 0.2 de um preço é exatamente 0.3', () => {
  assert.notEqual(0.1 + 0.2, 0.3, 'em ponto flutuante binário não é');
  assert.equal(centavos(0.1) + centavos(0.2), centavos('0.3'));
  assert.equal(formatarDecimal(centavos('0.1') + centavos('0.2'), 2), '0.30');
  // 0.1 kg + 0.2 kg of a R$ 19.99/kg product cost exactly what 0.3 kg costs.
  assert.equal(valorDaQuantidade(1999, 100) + valorDaQuantidade(1999, 200), 200 + 400);
  assert.equal(valorDaQuantidade(1999, 300), 600);
});

test('aceita número JSON ou texto com ponto, na escala pedida', () => {
  assert.deepEqual(lerDecimal('12.5', 2), { ok: true, valor: 1250 });
  assert.deepEqual(lerDecimal(12.05, 2), { ok: true, valor: 1205 });
  assert.deepEqual(lerDecimal('0.250', 3), { ok: true, valor: 250 });
  assert.deepEqual(lerDecimal(7, 3), { ok: true, valor: 7000 });
});

test('recusa vírgula, NaN, negativos, casas demais e números enormes', () => {
  const casos: Array<[unknown, RegExp]> = [
    ['1,50', /ponto/],
    [Number.NaN, /número/],
    [Number.POSITIVE_INFINITY, /número/],
    ['-1', /negativo/],
    [-0.5, /negativo/],
    ['1.234', /2 casas/],
    [1e21, /número|grande/],
    ['9999999999999', /grande/],
    ['abc', /número/],
    [null, /número/],
    [true, /número/],
  ];
  for (const [entrada, motivo] of casos) {
    const r = lerDecimal(entrada, 2);
    assert.equal(r.ok, false, `deveria recusar ${String(entrada)}`);
    if (!r.ok) assert.match(r.motivo, motivo);
  }
});

test('saída arredondada à escala e em reais para pessoas', () => {
  assert.equal(paraNumero(1230, 2), 12.3);
  assert.equal(formatarDecimal(250, 3), '0.250');
  assert.equal(formatarReais(123456), 'R$ 1.234,56');
  assert.equal(formatarReais(-5), '−R$ 0,05');
});

test('paraNumero dá exatamente o número do texto decimal, para todos os centavos e milésimos até 100.000', () => {
  for (let n = 0; n <= 100_000; n++) {
    assert.equal(paraNumero(n, 2), Number(formatarDecimal(n, 2)));
    assert.equal(paraNumero(n, 3), Number(formatarDecimal(n, 3)));
  }
  for (const n of [123_456_789, 99_999_999_999, 1_000_000_000_000]) assert.equal(paraNumero(n, 2), Number(formatarDecimal(n, 2)));
});

test('o preço de uma quantidade arredonda meio centavo para cima, e só meio', () => {
  // R$ 1,25 por kg × 0,5 kg = 62,5 centavos.
  assert.equal(valorDaQuantidade(125, 500), 63);
  assert.equal(valorDaQuantidade(125, 499), 62, '62,375 centavos');
  assert.equal(valorDaQuantidade(125, 501), 63, '62,625 centavos');
  assert.equal(valorDaQuantidade(1, 499), 0);
  assert.equal(valorDaQuantidade(1, 500), 1);
  assert.equal(valorDaQuantidade(0, 123_456), 0);
});
