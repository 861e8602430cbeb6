/**
 * The commands' reader, below both faces: one strict schema per write use case (TypeBox, compiled
 * once with Ajv), read the same way by a Cestas route (as its body) and by a GraphQL resolver (on
 * its arguments). Values come out in the domain's units: ids as integers, money in centavos,
 * quantities in milésimos.
 *
 * There is no global type coercion. A few explicit keywords carry the edge parsing, each where it
 * is declared:
 * - `x-inteiro`: an id or a count; a digit string (a form, a GraphQL ID) is read as the integer.
 * - `x-decimal`: money or a quantity at its scale. Decimals typed by people in a form ("1.234,56",
 *   "4,30", "2,5 kg") are read as people type them; JSON and GraphQL keep the API's dot-decimals.
 * - `x-lista`: a list given as a JSON array or as a form's bracket rows (an index map), without the
 *   blank spare rows a form offers; skipped rows keep the other rows' indices.
 * - `x-exclusivos`: exactly one of two fields of a row.
 * - `x-ids`: a list of ids, from a JSON array or a form's repeated field.
 *
 * Every refusal carries the Portuguese message the edge has always given, per field, and the
 * face names the field (`produtos.2.quantidade` on Cestas, `input.produtos[2].quantidade` in
 * GraphQL) from the same path.
 */

/** The largest record id: ids are 32-bit integer columns on PostgreSQL. */
export const MAIOR_ID = 2_147_483_647;

/**
 * Marks a body typed by people (a form), set by the edge's form parsers on every object of the
 * body: its decimals are read the way people type them. A symbol, so no field a client sends can set it.
 */
export const DIGITADO: unique symbol = Symbol('digitado por pessoas');

/** Marks a list's row that is not a row (a blank spare, a zero quantity): validated as nothing, then dropped. */
export const PULADA: unique symbol = Symbol('linha pulada');

/** The unit a person wrote after a quantity ("2,5 kg"), kept beside the row's fields. */
export const UNIDADE_ESCRITA: unique symbol = Symbol('unidade escrita');

/**
 * A form body, typed by people: marks it and every object inside it (the rows of its lists) so
 * their decimals are read as people type them. The form parsers call this; JSON bodies are never marked.
 */
export function digitadoPorPessoas<T>(corpo: T): T {
  // Only the objects and lists a parser builds; a file's bytes (a Buffer) are not fields.
  if (Array.isArray(corpo)) {
    for (const v of corpo) digitadoPorPessoas(v);
  } else if (
    corpo !== null &&
    typeof corpo === 'object' &&
    [Object.prototype, null].includes(Object.getPrototypeOf(corpo))
  ) {
    Object.defineProperty(corpo, DIGITADO, { value: true, enumerable: true });
    for (const v of Object.values(corpo)) digitadoPorPessoas(v);
  }
  return corpo;
}

export type Registro = Record<string | symbol, unknown>;

export const ehRegistro = (v: unknown): v is Registro => v !== null && typeof v === 'object' && !Array.isArray(v);
export const emBranco = (v: unknown): boolean => v === undefined || v === null || v === '';
export const maiuscula = (t: string): string => t.charAt(0).toUpperCase() + t.slice(1);

/** A copy of the input the keywords may rewrite (the request keeps what was sent, to draw a form again). */
export function copiar(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(copiar);
  if (!ehRegistro(v)) return v;
  const copia: Registro = {};
  for (const [k, x] of Object.entries(v)) copia[k] = copiar(x);
  if (v[DIGITADO] === true) copia[DIGITADO] = true;
  return copia;
}
