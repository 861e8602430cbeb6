/** The commands' reader (src/comandos/leitor/): the wire's types, for the documents people and programs read. */
import { ESCALA_QUANTIDADE } from '../../decimal.ts';
import { MAXIMO_PADRAO } from './palavras.ts';

type NoDoEsquema = Readonly<Record<string, unknown>>;

/** The document's types for a field its own reader judges: `{ [TIPOS_NO_FIO]: [{ type: 'string' }, …] }`. */
export const TIPOS_NO_FIO = 'x-tipos-no-fio';

const ehNo = (v: unknown): v is NoDoEsquema => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The largest value a decimal field takes, on the wire (reais, units). */
const noFio = (inteiro: number, escala: number): number => inteiro / 10 ** escala;

/** A number an option of a keyword names (undefined: it names none). */
const opcao = (o: NoDoEsquema, chave: string): number | undefined => {
  const v = o[chave];
  return typeof v === 'number' ? v : undefined;
};

/** What the keyword of a field accepts as sent: a JSON value of its type, or the text a form or GraphQL gives. */
function tiposDoCampo(no: NoDoEsquema): readonly unknown[] | null {
  // A field whose reader is not a keyword (a form's box, GraphQL's own request) names them itself.
  const proprios = no[TIPOS_NO_FIO];
  if (Array.isArray(proprios)) return proprios;
  const inteiro = no['x-inteiro'];
  const decimal = no['x-decimal'];
  const o = ehNo(inteiro) ? inteiro : ehNo(decimal) ? decimal : null;
  if (o === null) return null;
  const nulo = o.obrigatorio === true ? [] : [{ type: 'null' }];
  if (o === inteiro) {
    const [min, max] = [opcao(o, 'min') ?? 0, opcao(o, 'max')];
    return [
      { type: 'integer', minimum: min, ...(max === undefined ? {} : { maximum: max }) },
      { type: 'string', pattern: min < 0 ? '^\\s*-?\\d{1,15}\\s*$' : '^\\s*\\d{1,15}\\s*$' },
      ...nulo,
    ];
  }
  const escala = opcao(o, 'escala') ?? ESCALA_QUANTIDADE;
  const max = opcao(o, 'max') ?? MAXIMO_PADRAO[escala];
  return [
    {
      type: 'number',
      minimum: noFio(opcao(o, 'min') ?? 0, escala),
      ...(max === undefined ? {} : { maximum: noFio(max, escala) }),
    },
    { type: 'string' },
    ...nulo,
  ];
}

/**
 * A command's schema as the OpenAPI document shows it: every field that a keyword reads gets the
 * types it accepts as sent (`anyOf`), beside its keyword and description. Only the document: the
 * validator keeps the keyword alone (see the NOTE above the building blocks).
 */
export function comTiposDoFio(esquema: unknown): unknown {
  if (Array.isArray(esquema)) return esquema.map(comTiposDoFio);
  if (!ehNo(esquema)) return esquema;
  const copia: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(esquema)) if (k !== TIPOS_NO_FIO) copia[k] = comTiposDoFio(v);
  const tipos = tiposDoCampo(esquema);
  if (tipos !== null && copia.anyOf === undefined && copia.type === undefined) copia.anyOf = tipos;
  return copia;
}
