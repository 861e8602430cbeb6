import { Type } from '@sinclair/typebox';
import { Arquivo, Html, Redirecionamento } from '../http/esquemas.ts';
import { Consulta } from '../http/consultas.ts';
import { TIPO_XLSX } from '../planilhas/xlsx.ts';
import { TIPOS_NO_FIO } from '../comandos/leitor/fio.ts';

/**
 * The Mercados face's HTTP schemas (its data travels through GraphQL, whose own schema is the
 * contract there): the pages, the login's redirects, the errors, and the GraphQL request.
 */

export const Erro = Type.Object(
  {
    error: Type.String({ description: 'A mensagem, em português' }),
    details: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    required: Type.Optional(
      Type.String({
        description: 'Numa recusa por perfil (403): quem pode, ex.: "Um dos perfis: Administrador, AdminMercado"',
      }),
    ),
    requestId: Type.Optional(Type.String({ description: 'Num erro interno: o código a informar à administração' })),
  },
  { description: 'Recusa ou falha' },
);

const falha = { content: { 'application/json': { schema: Erro }, 'text/html': { schema: Html } } };
export const falhas = { '4xx': { description: 'Recusa', ...falha }, '5xx': { description: 'Falha interna', ...falha } };

/** A page of the browser client (the same shell at each address) or, without a build, the 503 page. */
export const pagina = {
  200: { description: 'A página do cliente', content: { 'text/html': { schema: Html } } },
  ...falhas,
};

/** A step of the login: a redirect to the provider, to the client, or back to /login with the error. */
export const redirecionamento = { 302: Redirecionamento, ...falhas };

/** A file of the client or of the GraphQL IDE. */
export const arquivo = (tipo: string) => ({
  200: { description: 'O arquivo', content: { [tipo]: { schema: Arquivo('O arquivo') } } },
  ...falhas,
});

/** A report as a file: the spreadsheet (the default) or, with ?formato=csv, the contract's CSV. */
export const planilhaOuCsv = (descricao: string) => ({
  200: {
    description: `${descricao}: a planilha (Excel, LibreOffice) ou, com ?formato=csv, o CSV, como anexo`,
    content: {
      [TIPO_XLSX]: { schema: Arquivo('A planilha (Excel, LibreOffice)') },
      'text/csv': { schema: Arquivo('O CSV: UTF-8, separado por vírgulas, decimais com ponto, datas AAAA-MM-DD') },
    },
  },
  ...falhas,
});

/** What the GraphQL route reads; the operation's own checks answer in GraphQL's shape. */
export const PedidoGraphql = Type.Unsafe<unknown>({
  description: 'Uma operação GraphQL: {query, operationName?, variables?}',
  properties: {
    query: { description: 'A operação, em GraphQL', [TIPOS_NO_FIO]: [{ type: 'string' }] },
    operationName: {
      description: 'Qual operação do documento executar',
      [TIPOS_NO_FIO]: [{ type: 'string' }, { type: 'null' }],
    },
    variables: { description: 'As variáveis da operação', [TIPOS_NO_FIO]: [{ type: 'object' }, { type: 'null' }] },
  },
});

/** GET /graphql: a read operation in the query string (a mutation over GET is refused by Yoga). */
export const ConsultaGraphql = Consulta({
  query: Type.Optional(Type.String({ description: 'A operação, em GraphQL' })),
  operationName: Type.Optional(Type.String({ description: 'Qual operação do documento executar' })),
  variables: Type.Optional(Type.String({ description: 'As variáveis da operação, em JSON' })),
  extensions: Type.Optional(Type.String({ description: 'Extensões do pedido, em JSON' })),
});

/** The fields of a GraphQL request, whatever its transport: the route checks `query` itself, Yoga the rest. */
export interface PedidoGraphqlLido {
  readonly query?: unknown;
  readonly operationName?: unknown;
  readonly variables?: unknown;
}

/** A POST body read as a GraphQL request (anything else reads as one without an operation). */
export function pedidoDoCorpo(corpo: unknown): PedidoGraphqlLido {
  if (typeof corpo !== 'object' || corpo === null || Array.isArray(corpo)) return {};
  return {
    query: 'query' in corpo ? corpo.query : undefined,
    operationName: 'operationName' in corpo ? corpo.operationName : undefined,
    variables: 'variables' in corpo ? corpo.variables : undefined,
  };
}

const ErroGraphql = Type.Object({
  message: Type.String(),
  path: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Integer()]))),
  locations: Type.Optional(Type.Array(Type.Object({ line: Type.Integer(), column: Type.Integer() }))),
  extensions: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

/** GraphQL's answer: `data` as the GraphQL schema types it, and `errors` with a code in `extensions`. */
export const RespostaGraphql = {
  200: {
    description: 'A resposta da operação (ou a IDE GraphiQL, fora de produção)',
    content: {
      'application/json': {
        schema: Type.Object({
          data: Type.Optional(Type.Unknown({ description: 'Como o esquema GraphQL o descreve' })),
          errors: Type.Optional(Type.Array(ErroGraphql)),
        }),
      },
      'application/graphql-response+json': {
        schema: Type.Object({ data: Type.Optional(Type.Unknown()), errors: Type.Optional(Type.Array(ErroGraphql)) }),
      },
      'text/html': { schema: Html },
    },
  },
  '4xx': {
    description:
      'A operação recusada (sem sessão, malformada, grande demais) no formato GraphQL; uma recusa antes dela (outra origem) no da face',
    content: {
      'application/json': { schema: Type.Union([Type.Object({ errors: Type.Array(ErroGraphql) }), Erro]) },
      'application/graphql-response+json': {
        schema: Type.Object({ data: Type.Optional(Type.Unknown()), errors: Type.Array(ErroGraphql) }),
      },
      'text/html': { schema: Html },
    },
  },
  '5xx': {
    description: 'Falha interna',
    content: {
      'application/json': { schema: Type.Union([Type.Object({ errors: Type.Array(ErroGraphql) }), Erro]) },
      'text/html': { schema: Html },
    },
  },
};
