import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Invalido } from '../../src/domain/erros.ts';
import { lerCiclos } from '../../src/domain/relatorios.ts';
import { MAIOR_ID } from '../../src/domain/validacao.ts';

test('a escolha de ciclos aceita de 1 a 20 ids, em lista, texto ou número', () => {
  assert.deepEqual(lerCiclos({ ciclos: [3, 1, 3] }), [3, 1]);
  assert.deepEqual(lerCiclos({ ciclos: '4,5' }), [4, 5]);
  assert.deepEqual(lerCiclos({ ciclos: MAIOR_ID }), [MAIOR_ID]);
});

test('ids fora do que uma coluna inteira guarda são recusados como entrada inválida, não chegam ao banco', () => {
  // 9007199254740991 is a safe JavaScript integer, but PostgreSQL's integer column would fail on it (a 500).
  for (const ciclos of [MAIOR_ID + 1, 9007199254740991, [1, 2 ** 40], 0, -1, 1.5, [], Array.from({ length: 21 }, (_, i) => i + 1)]) {
    assert.throws(() => lerCiclos({ ciclos }), (e: unknown) => e instanceof Invalido, JSON.stringify(ciclos));
  }
});
