import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Conflito, Invalido, NaoEncontrado, Proibido } from '../../src/domain/erros.ts';
import { falhaDe } from '../../src/http/erros.ts';

test('cada erro de domínio vira um único status', () => {
  assert.equal(falhaDe(new Invalido('X', 'inválido')).status, 400);
  assert.equal(falhaDe(new Proibido('X', 'proibido')).status, 403);
  assert.equal(falhaDe(new NaoEncontrado('X', 'sumiu')).status, 404);
  assert.equal(falhaDe(new Conflito('X', 'em uso')).status, 409);
  const f = falhaDe(new Invalido('VALIDACAO', 'Verifique', { nome: 'Campo obrigatório' }));
  assert.deepEqual(f.detalhes, { nome: 'Campo obrigatório' });
});

test('um erro desconhecido vira 500 genérico, sem vazar a mensagem interna', () => {
  const f = falhaDe(new Error('senha do banco: hunter2'));
  assert.equal(f.status, 500);
  assert.equal(f.mensagem, 'Erro interno');
});
