import { Type, type TSchema } from '@sinclair/typebox';
import { SerializerSelector, type RouteDefinition, type Serializer } from '@fastify/fast-json-stringify-compiler';
import { Ajv, type ErrorObject } from 'ajv';
import type {
  FastifyInstance,
  FastifySchema,
  FastifySchemaCompiler,
  FastifySchemaValidationError,
  FastifyServerOptions,
  RouteOptions,
} from 'fastify';
import { comandoDoCorpo } from '../comandos/comando.ts';
import { MENSAGENS_DE_TIPO, nomesDoCorpo } from '../comandos/leitor/leitura.ts';
import { SEM_COERCAO } from '../comandos/leitor/palavras.ts';
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

function mensagemDoErro(e: ErrorObject): string {
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
  for (const e of todos) {
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

/** A validator (ajv's shape: `errors` after a call) compiled the first time a request needs it. */
type Validador = ReturnType<FastifySchemaCompiler<unknown>>;
function quandoUsado(compilar: () => Validador): Validador {
  let validar: Validador | undefined;
  const preguicoso: Validador = Object.assign(
    (dados: unknown): ReturnType<Validador> => {
      validar ??= compilar();
      const r = validar(dados);
      preguicoso.errors = validar.errors;
      return r;
    },
    { errors: null },
  );
  return preguicoso;
}

/**
 * Fastify's `schemaController`: each response schema is turned into its serializer (fast-json-stringify)
 * the first time a response needs it, not for every route at start. A process builds only what the
 * requests it serves use: a test's app, a worker that serves a few pages, start-up time and memory.
 * The validators are compiled so too (`validarCorposSemCoercao`).
 */
export const compiladoresQuandoUsados: FastifyServerOptions['schemaController'] = {
  compilersFactory: {
    buildSerializer: (esquemasExternos, opcoes) => {
      const compilar = SerializerSelector()(esquemasExternos, opcoes);
      return (rota: RouteDefinition) => {
        let serializar: Serializer | undefined;
        return (dados: unknown): string => (serializar ??= compilar(rota))(dados);
      };
    },
  },
};

export function validarCorposSemCoercao(app: FastifyInstance): void {
  const semCoercao = new Ajv(SEM_COERCAO);
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
    if (httpPart === 'body') return quandoUsado(() => semCoercao.compile(schema as object));
    // A query string's blank parameters are absent, and those no route reads are dropped (src/http/consultas.ts).
    return httpPart === 'querystring'
      ? quandoUsado(() => semParametrosVazios(comCoercao.compile(schema as object)))
      : quandoUsado(() => comCoercao.compile(schema as object));
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
