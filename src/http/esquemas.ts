import { Type, type TSchema } from '@sinclair/typebox';
import { Ajv, type ErrorObject, type Options as OpcoesAjv } from 'ajv';
import type {
  FastifyInstance,
  FastifySchema,
  FastifySchemaCompiler,
  FastifySchemaValidationError,
  RouteOptions,
} from 'fastify';
import { comandoDoCorpo } from '../comandos/comando.ts';
import { nomesDoCorpo } from '../comandos/leitor.ts';
import { ErroDominio, Invalido } from '../domain/erros.ts';
import { semParametrosVazios } from './consultas.ts';

/**
 * The building blocks of the route schemas of both faces: what leaves the server (response
 * schemas, serialised by them, so a field no schema names never leaves), what a write accepts
 * (body schemas), and the rule that every route declares both.
 */

/** A page for browsers, rendered on the server. */
export const Html = Type.String({ description: 'A página, em HTML (navegadores)' });

/** A file the route answers with (CSV, PDF, a receipt, a stylesheet). */
export const Arquivo = (descricao: string) =>
  Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: descricao });

/** What a redirect carries: nothing but its Location. */
export const Redirecionamento = Type.Null({ description: 'Redireciona (Location) para a próxima página' });

/** The message a field gets when its value is of no accepted type: the edge readers' own words. */
const MENSAGEM = 'x-mensagem';

const VALORES_BOOLEANOS = ['true', 'false', 'on', 'off', '1', '0', ''];

/**
 * A field of a write as it arrives on the wire: a JSON client sends the contract's type, and a form
 * sends text. The edge readers parse both (decimal commas included); the schema refuses what
 * neither is, with the reader's message, and the reader refuses the rest (ranges, formats).
 */
export const NoFio = {
  inteiro: (descricao: string) =>
    Type.Unsafe<number | string | null>({
      type: ['integer', 'string', 'null'],
      description: descricao,
      [MENSAGEM]: 'Deve ser um número inteiro',
    }),
  numero: (descricao: string) =>
    Type.Unsafe<number | string | null>({
      type: ['number', 'string', 'null'],
      description: `${descricao} (JSON: número ou texto com ponto; formulário: vírgula ou ponto)`,
      [MENSAGEM]: 'Deve ser um número',
    }),
  texto: (descricao: string) =>
    Type.Unsafe<string | null>({ type: ['string', 'null'], description: descricao, [MENSAGEM]: 'Deve ser um texto' }),
  /** A checkbox: JSON true/false; a form sends "on" when ticked, after a hidden "false" (both arrive, as a list). */
  booleano: (descricao: string) =>
    Type.Unsafe<boolean | string | number | unknown[] | null>({
      anyOf: [
        { type: ['boolean', 'null'] },
        { enum: [...VALORES_BOOLEANOS, 0, 1] },
        { type: 'array', items: { enum: [...VALORES_BOOLEANOS, true, false, 0, 1] } },
      ],
      description: descricao,
      [MENSAGEM]: 'Deve ser verdadeiro ou falso',
    }),
  /** A list: a JSON array, or a form's rows (`x[0][campo]`), which arrive as an object by index. */
  lista: (item: TSchema, descricao: string) =>
    Type.Unsafe<unknown[] | Record<string, unknown> | null>({
      type: ['array', 'object', 'null'],
      items: item,
      additionalProperties: item,
      description: descricao,
      [MENSAGEM]: 'Deve ser uma lista',
    }),
  /** One or several ids: a JSON array or number, a form's repeated field, or "1,2" text. */
  ids: (descricao: string) =>
    Type.Unsafe<unknown>({
      type: ['array', 'integer', 'string', 'object'],
      description: descricao,
      [MENSAGEM]: 'Escolha de 1 a 20 ciclos válidos',
    }),
} as const;

/** The readers' words for a value of the wrong type, where the schema names none. */
const MENSAGENS_DE_TIPO: Readonly<Record<string, string>> = {
  integer: 'Deve ser um número inteiro',
  number: 'Deve ser um número',
  string: 'Deve ser um texto',
  boolean: 'Deve ser verdadeiro ou falso',
  object: 'Deve ser um objeto',
  array: 'Deve ser uma lista',
};

function mensagemDoErro(e: ErrorObject): string {
  const propria: unknown = (e.parentSchema as Record<string, unknown> | undefined)?.[MENSAGEM];
  if (typeof propria === 'string') return propria;
  if (e.keyword === 'required') return 'Campo obrigatório';
  if (e.keyword === 'type') {
    const tipos = [e.params.type].flat().filter((t): t is string => typeof t === 'string' && t !== 'null');
    return MENSAGENS_DE_TIPO[tipos[0] ?? ''] ?? 'Valor inválido';
  }
  return 'Valor inválido';
}

/**
 * A body refused by its schema is refused as the edge readers refuse one: 400, "Verifique os campos
 * destacados", with a message per field (`produtos.2.quantidade`), so a form comes back drawn with
 * them. Params and query strings keep the plain validation error.
 */
export function erroDeEsquema(erros: FastifySchemaValidationError[], contexto: string): Error {
  if (contexto !== 'body') return new Error(`${contexto} inválido`);
  const detalhes: Record<string, string> = {};
  const porCampo = (e: ErrorObject) => {
    const caminho = e.instancePath.replace(/^\//, '').replaceAll('/', '.');
    return e.keyword === 'required' && typeof e.params.missingProperty === 'string'
      ? [caminho, e.params.missingProperty].filter(Boolean).join('.')
      : caminho;
  };
  const todos = erros as unknown as ErrorObject[];
  if (todos.some((e) => e.instancePath === '' && e.keyword !== 'required')) {
    return new Invalido('CORPO_INVALIDO', 'O corpo da requisição deve ser um objeto');
  }
  // The field's own message first (an anyOf's branches report too, with none).
  for (const e of [...todos].sort(
    (a, b) =>
      Number(typeof (b.parentSchema as Record<string, unknown> | undefined)?.[MENSAGEM] === 'string') -
      Number(typeof (a.parentSchema as Record<string, unknown> | undefined)?.[MENSAGEM] === 'string'),
  )) {
    detalhes[porCampo(e)] ??= mensagemDoErro(e);
  }
  return new Invalido('VALIDACAO', 'Verifique os campos destacados', detalhes);
}

/**
 * A write's body: the fields it reads. A form also carries its CSRF token and the browser's own
 * fields, so other fields are allowed and ignored. A write without a body reads as null.
 */
export function Corpo<P extends Record<string, TSchema>>(campos: P, descricao: string) {
  return Type.Unsafe<Record<string, unknown> | null>({
    ...Type.Partial(Type.Object(campos)),
    type: ['object', 'null'],
    description: descricao,
  });
}

/** A write that reads no body (logout, delete, close a cycle). */
export const SemCorpo = Corpo({}, 'Sem corpo (os dados estão no endereço)');

/**
 * Bodies are checked without coercion: "12" stays text for the edge reader (which reads it as a
 * number, and a comma decimal as a decimal), and `true` never turns into the id 1. Params and
 * query strings keep Fastify's coercion (text to integer).
 */
const AJV_DE_CORPOS: OpcoesAjv = {
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
  allErrors: true,
  verbose: true,
  strict: false,
};

/**
 * The form token (`_csrf`) a body carried, kept on the command read from it: the command replaces
 * `req.body`, and the origin check (a preHandler, src/http/protecoes.ts) still compares the token
 * the page sent. A symbol, not a field: the command's own fields stay what its schema says.
 */
export const TOKEN_DO_FORMULARIO: unique symbol = Symbol('o token do formulário');

function comTokenDoFormulario(lido: unknown, recebido: unknown): unknown {
  const token = recebido !== null && typeof recebido === 'object' && '_csrf' in recebido ? recebido._csrf : undefined;
  if (token !== undefined && lido !== null && typeof lido === 'object')
    Object.defineProperty(lido, TOKEN_DO_FORMULARIO, { value: token, enumerable: false });
  return lido;
}

export function validarCorposSemCoercao(app: FastifyInstance): void {
  const semCoercao = new Ajv(AJV_DE_CORPOS);
  const comCoercao = new Ajv({
    coerceTypes: 'array',
    useDefaults: true,
    removeAdditional: true,
    allErrors: false,
    strict: false,
  });
  const compilar: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) => {
    // A command's body is read by the command itself (src/comandos): `req.body` becomes the command.
    const comando = httpPart === 'body' ? comandoDoCorpo(schema) : undefined;
    if (comando !== undefined) {
      return (dados: unknown) => {
        try {
          return { value: comTokenDoFormulario(comando.ler(dados, nomesDoCorpo), dados) };
        } catch (e) {
          if (e instanceof ErroDominio) return { error: e };
          throw e;
        }
      };
    }
    if (httpPart === 'body') return semCoercao.compile(schema as object);
    // A query string's blank parameters are absent, and those no route reads are dropped (src/http/consultas.ts).
    return httpPart === 'querystring'
      ? semParametrosVazios(comCoercao.compile(schema as object))
      : comCoercao.compile(schema as object);
  };
  app.setValidatorCompiler(compilar);
  app.setSchemaErrorFormatter(erroDeEsquema);
}

/** A registered route and the schemas it declared, for the tests that walk them. */
export interface RotaComEsquemas {
  readonly metodo: string;
  readonly url: string;
  readonly schema: FastifySchema;
}

declare module 'fastify' {
  interface FastifyInstance {
    esquemasDasRotas?: readonly RotaComEsquemas[];
  }
}

/** A file served as it is (a stylesheet, a script, an icon). */
export function arquivoEstatico(tipo: string, descricao: string) {
  return { 200: { description: descricao, content: { [tipo]: { schema: Arquivo(descricao) } } } };
}

const ESCRITAS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** What a route is missing of the schemas every route declares: a response schema, and a body schema if it writes. */
export function esquemasQueFaltam(rota: Pick<RouteOptions, 'method' | 'schema'>): string[] {
  const schema: FastifySchema | undefined = rota.schema;
  const faltas: string[] = [];
  if (schema?.response === undefined) faltas.push('response');
  const escreve = [rota.method].flat().some((m) => ESCRITAS.has(m));
  if (escreve && schema?.body === undefined) faltas.push('body');
  return faltas;
}
