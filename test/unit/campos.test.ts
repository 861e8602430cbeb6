import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Objeto, Telefone } from '../../src/comandos/leitor/blocos.ts';
import { Recusas, compilar } from '../../src/comandos/leitor/leitura.ts';

const comTelefone = compilar<{ telefone?: string | null }>(Objeto({ telefone: Telefone('Telefone') }));

function telefone(valor: unknown): { valor: string | null; erro: string | undefined } {
  const recusas = new Recusas();
  const lido = comTelefone.validar({ telefone: valor }, recusas);
  if (recusas.vazia) return { valor: lido.telefone ?? null, erro: undefined };
  try {
    recusas.recusar((c) => c.join('.'));
  } catch (e) {
    return { valor: null, erro: (e as { detalhes?: Record<string, string> }).detalhes?.telefone };
  }
  return { valor: null, erro: undefined };
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
