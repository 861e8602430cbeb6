import { Type, type TObject, type TOptional, type TProperties, type TString, type TUnsafe } from '@sinclair/typebox';
import type { ValidateFunction } from 'ajv';
import { POR_PAGINA_MAXIMO, POR_PAGINA_PADRAO, type PedidoDePagina } from '../domain/registros.ts';
import { conferirTexto } from '../domain/textos.ts';
import { Invalido } from '../domain/erros.ts';
import { MAIOR_ID, ehDataValida } from './campos.ts';

/**
 * Query strings, declared like bodies: each route that reads `?x=` names its parameters in a
 * TypeBox `querystring` schema, so its handler reads a typed `req.query` and the OpenAPI documents
 * list them. Two rules keep the links people already have working (docs/http.md, "Parâmetros da
 * consulta"):
 * - a parameter no route reads is dropped, never refused (`additionalProperties: false` with the
 *   validator's `removeAdditional`): a tracking tag or an old link's leftover does no harm;
 * - a blank parameter (`?usuarioid=`, as a GET form sends an empty field) is absent.
 * A parameter the route reads is validated (type, range, list of values): 400 otherwise.
 */
export function Consulta<P extends TProperties>(parametros: P): TObject<P> {
  return Type.Object(parametros, { additionalProperties: false });
}

/** No control characters: they have no place in a search or a filter (as in every text field). */
const SEM_CONTROLE = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$';

/** The kinds of parameter the routes read; every one optional (a link may leave it out). */
export const NaConsulta = {
  /** A record's id, as in the paths: 1 to 2³¹−1. */
  id: (descricao: string) => Type.Optional(Type.Integer({ minimum: 1, maximum: MAIOR_ID, description: descricao })),
  /** Free text, up to `max` characters. */
  texto: (descricao: string, max: number): TOptional<TString> =>
    Type.Optional(Type.String({ maxLength: max, pattern: SEM_CONTROLE, description: descricao })),
  /** A day, YYYY-MM-DD (the reader checks it is a real one). */
  data: (descricao: string): TOptional<TString> =>
    Type.Optional(Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: `${descricao} (AAAA-MM-DD)` })),
  /** One of a list of values. */
  umDe: <T extends string>(valores: readonly T[], descricao: string): TOptional<TUnsafe<T>> =>
    Type.Optional(
      Type.Unsafe<T>({ type: 'string', enum: [...valores], description: `${descricao}: ${valores.join(', ')}` }),
    ),
} as const;

export const DIRECOES = ['asc', 'desc'] as const;

/** The parameters of a paged list (GET /x-index): page, page size, order, direction and search. */
export function parametrosDePagina<O extends string>(ordens: readonly O[]) {
  return {
    pagina: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'A página, a partir de 1' })),
    porPagina: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: POR_PAGINA_MAXIMO,
        description: `Itens por página (padrão ${POR_PAGINA_PADRAO})`,
      }),
    ),
    ordem: NaConsulta.umDe(ordens, 'Ordenar por'),
    direcao: NaConsulta.umDe(DIRECOES, 'Direção da ordem'),
    busca: NaConsulta.texto('Busca no nome (ou no texto do registro)', 100),
  };
}

/** A paged list's query, read: the defaults where a parameter is absent, the search trimmed (blank: none). */
export function pedidoDePagina(
  q: {
    readonly pagina?: number;
    readonly porPagina?: number;
    readonly ordem?: string;
    readonly direcao?: (typeof DIRECOES)[number];
    readonly busca?: string;
  },
  padrao: { readonly ordem: string; readonly direcao?: (typeof DIRECOES)[number] },
): PedidoDePagina {
  return {
    pagina: q.pagina ?? 1,
    porPagina: q.porPagina ?? POR_PAGINA_PADRAO,
    ordem: q.ordem ?? padrao.ordem,
    direcao: q.direcao ?? padrao.direcao ?? 'asc',
    busca: textoDaConsulta('busca', q.busca, 100),
  };
}

/** A text parameter as the fields read one (NFC, trimmed; blank: null), with the fields' message when too long. */
export function textoDaConsulta(nome: string, valor: string | undefined, max: number): string | null {
  if (valor === undefined) return null;
  const { texto, problema } = conferirTexto(valor, { max });
  if (problema !== null) throw new Invalido('VALIDACAO', 'Verifique os campos destacados', { [nome]: problema });
  return texto === '' ? null : texto;
}

/** A day parameter that must be a real calendar day (the schema only checks its shape). */
export function dataDaConsulta(nome: string, valor: string | undefined): string | null {
  if (valor === undefined) return null;
  if (!ehDataValida(valor))
    throw new Invalido('VALIDACAO', 'Verifique os campos destacados', { [nome]: 'Data inválida: use AAAA-MM-DD' });
  return valor;
}

/**
 * The query string's validator, with blank parameters taken out first (an empty form field means
 * "not given", as the form readers treat it). Fastify reads the errors from the returned function.
 */
export function semParametrosVazios(
  validar: ValidateFunction,
): ((dados: unknown) => boolean) & { errors: ValidateFunction['errors'] } {
  const semVazios = Object.assign(
    (dados: unknown): boolean => {
      if (dados !== null && typeof dados === 'object' && !Array.isArray(dados)) {
        for (const [nome, valor] of Object.entries(dados)) if (valor === '') Reflect.deleteProperty(dados, nome);
      }
      const ok = validar(dados);
      semVazios.errors = validar.errors;
      return ok;
    },
    { errors: validar.errors },
  );
  return semVazios;
}

/** `?usuarioid=`: whose page (an order, an offer, a balance) someone who may act for others opens. */
export const ConsultaDaPessoa = Consulta({
  usuarioid: NaConsulta.id('De quem é a página (para quem pode ver ou agir por outras pessoas); sem ele, a própria'),
});
