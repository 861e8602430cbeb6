import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Campos } from '../../src/http/campos.ts';

function telefone(valor: unknown): { valor: string | null; erro: string | undefined } {
  const c = new Campos({ telefone: valor });
  return { valor: c.telefone('telefone'), erro: c.erros.telefone };
}

test('telefone: pelo menos 8 dígitos, com espaços, parênteses, +, - e . entre eles; a mensagem diz a regra de verdade', () => {
  for (const bom of ['12999999', '(12) 3811-0000', '+55 12 99999.9999', ' 1299999 9 ']) assert.equal(telefone(bom).erro, undefined, bom);
  assert.equal(telefone(' (14) 3811-0000 ').valor, '(14) 3811-0000');
  assert.equal(telefone('1299999').erro, 'Telefone inválido: informe pelo menos 8 dígitos, com o DDD');
  assert.equal(telefone('(12) 3-4').erro, 'Telefone inválido: informe pelo menos 8 dígitos, com o DDD');
  assert.equal(telefone('12 9999-abcd').erro, 'Telefone inválido: use dígitos, com espaços, parênteses, +, - ou . se quiser');
  assert.equal(telefone('1'.repeat(31)).erro, 'Deve ter no máximo 30 caracteres');
  for (const vazio of [undefined, null, '', '   ']) assert.deepEqual(telefone(vazio), { valor: null, erro: undefined }, String(vazio));
  assert.equal(telefone(12345678).erro, 'Deve ser um texto');
});

test('horário: HH:MM, e também 8:30, 8h, 8h30 e 08h30min; fora de 00:00–23:59 ou sem forma de hora é recusado', () => {
  const ler = (v: unknown) => {
    const c = new Campos({ h: v });
    return { valor: c.hora('h'), erro: c.erros.h ?? null };
  };
  for (const [entrada, saida] of [['08:30', '08:30'], ['8:30', '08:30'], ['8h', '08:00'], ['8H30', '08:30'], ['08h30min', '08:30'], ['0', '00:00'], ['23:59', '23:59'], [' 7 h ', '07:00']] as const) {
    assert.deepEqual(ler(entrada), { valor: saida, erro: null }, entrada);
  }
  for (const entrada of ['24:00', '23:60', '8:5', 'meio-dia', '8:30:00', '-1', '123']) {
    assert.deepEqual(ler(entrada), { valor: null, erro: 'Horário inválido: use HH:MM, por exemplo 08:30' }, entrada);
  }
  assert.deepEqual(ler(''), { valor: null, erro: null });
  assert.deepEqual(ler(undefined), { valor: null, erro: null });
  const obrigatorio = new Campos({});
  assert.equal(obrigatorio.hora('h', { obrigatorio: true }), null);
  assert.equal(obrigatorio.erros.h, 'Campo obrigatório');
});
