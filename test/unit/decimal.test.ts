import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  formatarDecimal,
  formatarLimite,
  formatarQuantidade,
  formatarReais,
  lerDecimal,
  lerDecimalDigitado,
  paraNumero,
  valorDaQuantidade,
} from '../../src/decimal.ts';

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
  for (const n of [123_456_789, 99_999_999_999, 1_000_000_000_000])
    assert.equal(paraNumero(n, 2), Number(formatarDecimal(n, 2)));
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

test('cada recusa com a sua mensagem exata, e os limites exatos', () => {
  const motivo = (v: unknown, escala = 2) => {
    const r = lerDecimal(v, escala);
    return r.ok ? `aceito ${r.valor}` : r.motivo;
  };
  assert.equal(motivo(Number.NaN), 'deve ser um número');
  assert.equal(motivo(Number.NEGATIVE_INFINITY), 'deve ser um número');
  assert.equal(motivo({}), 'deve ser um número');
  assert.equal(motivo(' 12.5 '), 'aceito 1250');
  assert.equal(motivo('12,50'), 'use ponto como separador decimal (ex.: 12.50)');
  assert.equal(motivo('1,5'), 'use ponto como separador decimal (ex.: 12.50)');
  for (const outro of ['12,5x', ',5', '1,', 'x1,5', '1,5,0', 'a,b'])
    assert.equal(motivo(outro), 'deve ser um número com ponto decimal (ex.: 12.50)', outro);
  assert.equal(motivo('-0'), 'não pode ser negativo');
  assert.equal(motivo('1.5.0'), 'deve ser um número com ponto decimal (ex.: 12.50)');
  assert.equal(motivo('1.234'), 'aceita no máximo 2 casas decimais');
  assert.equal(motivo('1.234', 3), 'aceito 1234');
  // At most a billion units, exactly.
  assert.equal(motivo('1000000000'), 'aceito 100000000000');
  assert.equal(motivo('1000000000.01'), 'valor grande demais');
  assert.equal(motivo('1000000000.001', 3), 'valor grande demais');
  assert.equal(motivo('00000000000000001.50'), 'aceito 150');
  assert.equal(motivo('9'.repeat(400)), 'valor grande demais');
  assert.equal(motivo('1' + '0'.repeat(12)), 'valor grande demais');
});

test('texto decimal com todas as casas, sinal e sem ponto quando a escala é zero', () => {
  assert.equal(formatarDecimal(-1230, 2), '-12.30');
  assert.equal(formatarDecimal(-5, 3), '-0.005');
  assert.equal(formatarDecimal(5, 0), '5');
  assert.equal(formatarDecimal(0, 2), '0.00');
  assert.equal(formatarDecimal(12.6, 0), '13');
});

test('reais para pessoas: milhares com ponto, centavos com vírgula, sinal só abaixo de zero', () => {
  assert.equal(formatarReais(0), 'R$ 0,00');
  assert.equal(formatarReais(99), 'R$ 0,99');
  assert.equal(formatarReais(100_000), 'R$ 1.000,00');
  assert.equal(formatarReais(1_234_567), 'R$ 12.345,67');
  assert.equal(formatarReais(123_456_789), 'R$ 1.234.567,89');
  assert.equal(formatarReais(-123_456_789), '−R$ 1.234.567,89');
});

test('digitado por pessoas: vírgula, ponto, R$, milhares e espaços, na escala pedida', () => {
  const casos: Array<[string, number, number]> = [
    ['1,5', 3, 1500],
    ['1.5', 3, 1500],
    ['0,250', 3, 250],
    ['0.250', 3, 250],
    ['2', 3, 2000],
    ['185,00', 2, 18500],
    ['R$ 12,50', 2, 1250],
    ['r$12,5', 2, 1250],
    ['1.234,56', 2, 123456],
    ['1.234.567,8', 2, 123456780],
    ['1.234', 2, 123400],
    ['12.500', 2, 1250000],
    ['1.50', 2, 150],
    [' 1 234,5 ', 2, 123450],
    ['R$\u00a07,00', 2, 700],
    ['1.234,5', 3, 1234500],
    ['1.234.567', 3, 1234567000],
    ['10', 2, 1000],
  ];
  for (const [texto, escala, valor] of casos)
    assert.deepEqual(lerDecimalDigitado(texto, escala), { ok: true, valor }, `${texto} (escala ${escala})`);
});

test('digitado por pessoas: o ambíguo e o ilegível são recusados dizendo o que se aceita', () => {
  assert.deepEqual(lerDecimalDigitado('1.500', 3), {
    ok: false,
    motivo: 'é ambíguo: escreva 1,500 para o número com decimais, ou 1500 para o milhar',
  });
  const casos: Array<[string, number, RegExp]> = [
    ['1,2,3', 2, /como 1,5 ou 1\.234,56/],
    ['abc', 3, /como 1,5 ou 1\.234,56/],
    ['1.234.5', 2, /como 1,5/],
    ['1,234.56', 2, /como 1,5/],
    ['-1,5', 3, /negativo/],
    ['1,555', 2, /no máximo 2 casas/],
    ['0.500', 2, /no máximo 2 casas/],
    ['', 2, /como 1,5/],
  ];
  for (const [texto, escala, motivo] of casos) {
    const r = lerDecimalDigitado(texto, escala);
    assert.ok(!r.ok && motivo.test(r.motivo), `${texto}: ${JSON.stringify(r)}`);
  }
  // What the API receives as a JSON number is not text typed by a person: the API's own rule.
  assert.deepEqual(lerDecimalDigitado(2.5, 3), { ok: true, valor: 2500 });
});

test('digitado por pessoas: espaços de qualquer tipo em qualquer lugar, e R$ só no começo', () => {
  const ok = (texto: string, escala: number, valor: number) =>
    assert.deepEqual(lerDecimalDigitado(texto, escala), { ok: true, valor }, JSON.stringify(texto));
  ok('1 234,50', 2, 123_450);
  ok('1\u00a0234,50', 2, 123_450);
  ok('R$\u00a01\u00a0234,50', 2, 123_450);
  ok('  1   234 ,  5  ', 2, 123_450);
  ok('1\t234\n,5', 2, 123_450);
  ok('R$   1.234.567', 2, 123_456_700);
  const recusado = (texto: string) =>
    assert.deepEqual(
      lerDecimalDigitado(texto, 2),
      { ok: false, motivo: 'digite um número, como 1,5 ou 1.234,56' },
      JSON.stringify(texto),
    );
  // "R$" anywhere but the start is not money written as people write it.
  recusado('1R$0');
  recusado('12,50 R$');
  recusado('1 R$ 2');
  recusado('R$ R$ 1');
});

test('digitado por pessoas: os milhares contam a partir do primeiro algarismo, que não é zero', () => {
  // "01.234" is no thousands grouping: read as a plain dot decimal, with too many places for money.
  assert.deepEqual(lerDecimalDigitado('01.234', 2), { ok: false, motivo: 'aceita no máximo 2 casas decimais' });
  assert.deepEqual(lerDecimalDigitado('01.234', 3), { ok: true, valor: 1234 });
  assert.deepEqual(lerDecimalDigitado('0.500', 3), { ok: true, valor: 500 });
  // Something before the first group is not a number at all.
  assert.deepEqual(lerDecimalDigitado('x1.234', 2), { ok: false, motivo: 'digite um número, como 1,5 ou 1.234,56' });
  assert.deepEqual(lerDecimalDigitado('x1.234', 3), { ok: false, motivo: 'digite um número, como 1,5 ou 1.234,56' });
  assert.deepEqual(lerDecimalDigitado('1.2345', 2), { ok: false, motivo: 'aceita no máximo 2 casas decimais' });
  assert.deepEqual(lerDecimalDigitado('1234.567', 2), { ok: false, motivo: 'aceita no máximo 2 casas decimais' });
});

test('quantidades para pessoas: sinal de menos tipográfico, milhares com ponto, sem zeros à direita', () => {
  assert.equal(formatarQuantidade(1500), '1,5');
  assert.equal(formatarQuantidade(-1500), '−1,5');
  assert.equal(formatarQuantidade(-250), '−0,25');
  assert.equal(formatarQuantidade(-12_000_000), '−12.000');
  assert.equal(formatarQuantidade(0), '0');
  assert.equal(formatarQuantidade(1_234_567_001), '1.234.567,001');
});

test('limites para pessoas: com as casas da escala, e sem vírgula quando não há casas', () => {
  assert.equal(formatarLimite(10_000_000, 2), '100.000,00');
  assert.equal(formatarLimite(1_000_000_000, 2), '10.000.000,00');
  assert.equal(formatarLimite(5, 2), '0,05');
  assert.equal(formatarLimite(100_000_000, 3), '100.000');
  assert.equal(formatarLimite(1_500, 3), '1,5');
  assert.equal(formatarLimite(1234, 0), '1.234');
  assert.equal(formatarLimite(5, 0), '5');
  assert.equal(formatarLimite(12, 1), '1,2');
});

test('o preço de uma quantidade é exato abaixo de 2^53 pelo caminho rápido e acima dele em BigInt', () => {
  // The largest product the input limits allow: R$ 100.000,00 × 100.000 units = 10^15 / 1000 cents.
  assert.equal(valorDaQuantidade(10_000_000, 100_000_000), 1_000_000_000_000);
  // 9999999 × 99999999 = 999999890000001; + 500, in thousandths: 999999890000 cents.
  assert.equal(valorDaQuantidade(9_999_999, 99_999_999), 999_999_890_000);
  // 9999999499 × 1000001 = 9999999499000000 + 9999999499 = 10000009498999499, past 2^53 and odd:
  // in floating point it would round to ...999500 and then to one cent more. Exactly, + 500 is
  // 10000009498999999, which is 10000009498999 cents and 0.999 of one.
  assert.ok(9_999_999_499 * 1_000_001 > Number.MAX_SAFE_INTEGER);
  assert.equal(valorDaQuantidade(9_999_999_499, 1_000_001), 10_000_009_498_999);
});
