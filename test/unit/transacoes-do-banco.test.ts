/**
 * The identity rule of bank transactions (src/domain/transacoes-do-banco.ts) on the cases the
 * HTTP tests do not reach: other accounts, a document number the bank repeats, a FITID on
 * another date, one FITID listed twice, equal credits in one CSV.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  normalizarDocumento,
  planejarImportacao,
  type LinhaDoExtrato,
  type LinhaGuardada,
  type Passo,
} from '../../src/domain/transacoes-do-banco.ts';

const ofx = (
  conta: string,
  fitid: string,
  data: string,
  valorCentavos: number,
  documentos: string[] = [],
): LinhaDoExtrato => ({ data, valorCentavos, descricao: 'PIX', pagador: null, conta, fitid, documentos });
const csv = (data: string, valorCentavos: number, documentos: string[] = []): LinhaDoExtrato => ({
  data,
  valorCentavos,
  descricao: 'PIX',
  pagador: null,
  conta: null,
  fitid: null,
  documentos,
});

/** Imports statements one after another into an in-memory store, as importarExtrato would. */
function importar(guardadas: LinhaGuardada[], linhas: readonly LinhaDoExtrato[]): Passo[] {
  const passos = planejarImportacao(linhas, guardadas);
  passos.forEach((p, i) => {
    const l = linhas[i];
    if (l === undefined) return;
    if (p.tipo === 'nova')
      guardadas.push({ id: guardadas.length + 1, data: l.data, valorCentavos: l.valorCentavos, chaves: [...p.chaves] });
    else {
      const g = guardadas.find((x) => x.id === p.linhaId);
      if (g !== undefined) guardadas[guardadas.indexOf(g)] = { ...g, chaves: [...g.chaves, ...p.chavesNovas] };
    }
  });
  return passos;
}
const novas = (passos: readonly Passo[]): number => passos.filter((p) => p.tipo === 'nova').length;

describe('uma transação do banco, uma linha', () => {
  test('o número do documento: só letras e dígitos, sem zeros à esquerda', () => {
    assert.equal(normalizarDocumento(' 000.123-4 '), '1234');
    assert.equal(normalizarDocumento('ab-01'), 'AB01');
    assert.equal(normalizarDocumento('0000'), '');
  });

  test('o mesmo CHECKNUM em duas contas, ou repetido pelo banco na mesma conta, não junta transações de FITID diferente', () => {
    const g: LinhaGuardada[] = [];
    assert.equal(novas(importar(g, [ofx('1:A', 'F1', '2026-04-01', 1000, ['55'])])), 1);
    assert.equal(novas(importar(g, [ofx('1:B', 'F1', '2026-04-01', 1000, ['55'])])), 1, 'outra conta');
    assert.equal(novas(importar(g, [ofx('1:A', 'F2', '2026-04-01', 1000, ['55'])])), 1, 'outro FITID, mesmo CHECKNUM');
    // A CHECKNUM of zeros is no document number.
    assert.equal(
      novas(importar(g, [csv('2026-04-01', 1000, ['000'])])),
      0,
      'sem número: o 1º crédito do dia e valor, já guardado',
    );
    assert.equal(g.length, 3);
  });

  test('o mesmo FITID com outra data (o banco mudou a data) é a mesma transação; as chaves do dia novo não vão para ela', () => {
    const g: LinhaGuardada[] = [];
    importar(g, [ofx('1:A', 'F9', '2026-04-01', 700, ['9'])]);
    const [p] = importar(g, [ofx('1:A', 'F9', '2026-04-02', 700, ['9'])]);
    assert.deepEqual(p, { tipo: 'repetida', linhaId: 1, chavesNovas: [] });
  });

  test('num CSV com documento, duas linhas iguais são duas; com o documento repetido também', () => {
    const g: LinhaGuardada[] = [];
    assert.equal(
      novas(importar(g, [csv('2026-04-03', 500, ['8']), csv('2026-04-03', 500, ['8']), csv('2026-04-03', 500)])),
      3,
    );
    assert.equal(
      novas(importar(g, [csv('2026-04-03', 500, ['8']), csv('2026-04-03', 500, ['8']), csv('2026-04-03', 500)])),
      0,
      'o mesmo arquivo de novo',
    );
    assert.equal(
      novas(
        importar(g, [csv('2026-04-03', 500), csv('2026-04-03', 500), csv('2026-04-03', 500), csv('2026-04-03', 500)]),
      ),
      1,
      'sem documento: o 4º é novo',
    );
  });

  test('o mesmo FITID listado duas vezes num arquivo é uma transação; um CSV sem documento depois de um OFX parcial não perde a segunda', () => {
    const g: LinhaGuardada[] = [];
    assert.equal(novas(importar(g, [ofx('1:A', 'D1', '2026-04-04', 300), ofx('1:A', 'D1', '2026-04-04', 300)])), 1);
    // A later export of the same day brings a second equal credit, with another FITID.
    assert.equal(novas(importar(g, [ofx('1:A', 'D2', '2026-04-04', 300)])), 1);
    assert.equal(
      novas(importar(g, [csv('2026-04-04', 300), csv('2026-04-04', 300)])),
      0,
      'o CSV do dia inteiro: as duas já estão',
    );
    assert.equal(novas(importar(g, [csv('2026-04-04', 300), csv('2026-04-04', 300), csv('2026-04-04', 300)])), 1);
  });
});
