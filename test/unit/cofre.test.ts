import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { Cofre } from '../../src/http/cofre.ts';

const cofre = new Cofre(randomBytes(32).toString('base64url'), 'teste');

test('um valor selado abre até o último milissegundo antes de expirar, e não depois', () => {
  const expira = Date.parse('2026-03-02T15:00:00Z');
  const selado = cofre.selar({ quem: 'ana' }, expira);
  assert.deepEqual(cofre.abrir(selado, expira - 1), { quem: 'ana' });
  assert.equal(cofre.abrir(selado, expira), undefined, 'no instante da expiração já não abre');
  assert.equal(cofre.abrir(selado, expira + 1), undefined, '1 ms depois');
});

test('um valor selado para outro propósito, ou adulterado, não abre', () => {
  const expira = Date.now() + 60_000;
  const selado = cofre.selar({ quem: 'ana' }, expira);
  assert.equal(
    new Cofre(randomBytes(32).toString('base64url'), 'teste').abrir(selado, Date.now()),
    undefined,
    'outra chave',
  );
  const bruto = Buffer.from(selado, 'base64url');
  bruto[bruto.length - 1] = (bruto[bruto.length - 1] ?? 0) ^ 1;
  assert.equal(cofre.abrir(bruto.toString('base64url'), Date.now()), undefined, 'um bit trocado');
});
