/**
 * The kinds of market live in one table (src/domain/tipos-de-mercado.ts): the GraphQL enums, the
 * database's type and the rules that ask a kind what it can do all agree with it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GraphQLEnumType } from 'graphql';
import type { Linha } from '../../src/db/tipos.ts';
import { regraDoValorMaximo } from '../../src/domain/mercados.ts';
import {
  TIPOS_DE_MERCADO,
  TIPOS_MERCADO,
  VENDAS,
  listaDeTipos,
  podeTipo,
  tiposQue,
  type TipoMercado,
} from '../../src/domain/tipos-de-mercado.ts';
import { criarEsquema } from '../../src/mercados/graphql/esquema.ts';

/** Compiles only when the two types are the same set of kinds. */
type Iguais<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const doBanco: Iguais<TipoMercado, Linha<'mercado'>['tipo']> = true;

function valoresDoEnum(nome: string): string[] {
  const tipo = criarEsquema().getType(nome);
  assert.ok(tipo instanceof GraphQLEnumType, nome);
  return tipo.getValues().map((v) => v.name);
}

test('o esquema GraphQL e o banco têm os mesmos tipos de mercado (e as mesmas vendas) que a tabela', () => {
  assert.equal(doBanco, true);
  assert.deepEqual(valoresDoEnum('TipoMercado'), [...TIPOS_MERCADO]);
  assert.deepEqual(valoresDoEnum('VendaDoMercado'), [...VENDAS]);
  assert.deepEqual(
    listaDeTipos().map((t) => t.tipo),
    [...TIPOS_MERCADO],
  );
});

test('cada tipo diz o que pode, e as regras perguntam à tabela', () => {
  assert.deepEqual(
    TIPOS_MERCADO.map((t) => [t, TIPOS_DE_MERCADO[t].nome, TIPOS_DE_MERCADO[t].vende]),
    [
      ['cesta', 'Cesta', 'cestas'],
      ['lote', 'Lote', 'lotes'],
      ['venda_direta', 'Venda direta', 'itens'],
    ],
  );
  assert.deepEqual(
    tiposQue((c) => c.vendeAConsumidores),
    ['cesta', 'venda_direta'],
  );
  assert.deepEqual(
    tiposQue((c) => c.aceitaAssinaturas),
    ['cesta'],
  );
  for (const t of TIPOS_MERCADO) {
    assert.equal(Object.keys(regraDoValorMaximo(t, null)).length > 0, podeTipo(t, 'exigeValorMaximoCesta'), t);
    assert.deepEqual(regraDoValorMaximo(t, 3000), {}, t);
  }
  assert.deepEqual(regraDoValorMaximo('cesta', null), { valorMaximoCesta: 'Obrigatório quando o tipo é cesta' });
});
