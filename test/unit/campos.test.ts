import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Campos, DIGITADO } from '../../src/http/campos.ts';

function telefone(valor: unknown): { valor: string | null; erro: string | undefined } {
  const c = new Campos({ telefone: valor });
  return { valor: c.telefone('telefone'), erro: c.erros.telefone };
}

test('telefone: pelo menos 8 dígitos, com espaços, parênteses, +, - e . entre eles; a mensagem diz a regra de verdade', () => {
  for (const bom of ['12999999', '(12) 3811-0000', '+55 12 99999.9999', ' 1299999 9 '])
    assert.equal(telefone(bom).erro, undefined, bom);
  assert.equal(telefone(' (14) 3811-0000 ').valor, '(14) 3811-0000');
  assert.equal(telefone('1299999').erro, 'Telefone inválido: informe pelo menos 8 dígitos, com o DDD');
  assert.equal(telefone('(12) 3-4').erro, 'Telefone inválido: informe pelo menos 8 dígitos, com o DDD');
  assert.equal(
    telefone('12 9999-abcd').erro,
    'Telefone inválido: use dígitos, com espaços, parênteses, +, - ou . se quiser',
  );
  assert.equal(telefone('1'.repeat(31)).erro, 'Deve ter no máximo 30 caracteres');
  for (const vazio of [undefined, null, '', '   '])
    assert.deepEqual(telefone(vazio), { valor: null, erro: undefined }, String(vazio));
  assert.equal(telefone(12345678).erro, 'Deve ser um texto');
});

test('horário: HH:MM, e também 8:30, 8h, 8h30 e 08h30min; fora de 00:00–23:59 ou sem forma de hora é recusado', () => {
  const ler = (v: unknown) => {
    const c = new Campos({ h: v });
    return { valor: c.hora('h'), erro: c.erros.h ?? null };
  };
  for (const [entrada, saida] of [
    ['08:30', '08:30'],
    ['8:30', '08:30'],
    ['8h', '08:00'],
    ['8H30', '08:30'],
    ['08h30min', '08:30'],
    ['0', '00:00'],
    ['23:59', '23:59'],
    [' 7 h ', '07:00'],
  ] as const) {
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

function quantidade(
  valor: unknown,
  digitado = true,
): { milesimos: number; unidade: string | null; erro: string | undefined } {
  const entrada: Record<string | symbol, unknown> = { q: valor };
  if (digitado) entrada[DIGITADO] = true;
  const c = new Campos(entrada);
  const { milesimos, unidade } = c.quantidadeEscrita('q', { obrigatorio: true, min: 1 });
  return { milesimos, unidade, erro: c.erros.q };
}

test('quantidade digitada com a unidade depois: o número e a unidade que a palavra nomeia, sem caixa nem acento', () => {
  const casos: Array<[string, number, string | null]> = [
    ['2,5 kg', 2500, 'kg'],
    ['2,5kg', 2500, 'kg'],
    ['1.234,5 Kg.', 1_234_500, 'kg'],
    [' 3 quilos ', 3000, 'kg'],
    ['3 maços', 3000, 'maço'],
    ['3 MACOS', 3000, 'maço'],
    ['1 dz', 1000, 'dúzia'],
    ['2 dúzias', 2000, 'dúzia'],
    ['0,75 l', 750, 'litro'],
    ['12 un', 12_000, 'unidade'],
    ['1,5', 1500, null],
    ['2', 2000, null],
  ];
  for (const [texto, milesimos, unidade] of casos)
    assert.deepEqual(quantidade(texto), { milesimos, unidade, erro: undefined }, texto);
});

test('quantidade digitada: uma palavra que não é unidade é recusada; só letras pedem um número; o JSON não tem unidade', () => {
  assert.equal(quantidade('500 g').erro, 'Escreva só o número, na unidade do produto (ex.: 2,5), sem "g"');
  assert.equal(quantidade('2,5 caixas').erro, 'Escreva só o número, na unidade do produto (ex.: 2,5), sem "caixas"');
  assert.equal(quantidade('kg').erro, 'Digite um número, como 1,5 ou 1.234,56');
  assert.equal(
    quantidade('1.500 kg').erro,
    'É ambíguo: escreva 1,500 para o número com decimais, ou 1500 para o milhar',
  );
  assert.equal(quantidade('0 kg').erro, 'Deve ser maior que zero');
  assert.equal(quantidade('').erro, 'Campo obrigatório');
  assert.equal(quantidade('2,5 kg', false).erro, 'Deve ser um número com ponto decimal (ex.: 12.50)');
  assert.deepEqual(quantidade(2.5, false), { milesimos: 2500, unidade: null, erro: undefined });
});

test('uma quantidade longa termina em tempo linear, com ou sem palavra', () => {
  assert.equal(quantidade(`${'1 '.repeat(200_000)}kg`).erro, 'Valor grande demais');
  assert.match(quantidade(`1${'a'.repeat(200_000)}`).erro ?? '', /Escreva só o número/);
});
