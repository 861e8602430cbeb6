import { type TSchema, Type } from '@sinclair/typebox';
import { MAIOR_ID } from '../../http/campos.ts';
import { Arquivo, Html, Redirecionamento } from '../../http/esquemas.ts';
import { TIPO_XLSX } from '../../planilhas/xlsx.ts';

/**
 * The Cestas face's schemas: the envelope of the contract (§4), what each route's `data` holds,
 * and what each write reads. The response schemas serialise the answers: a field that is not named
 * here does not leave the server. Pages answer HTML to browsers and the envelope to JSON clients.
 */

export const Nulo = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
export const Id = Type.Integer({ minimum: 1 });
export const Data = Type.String({ description: 'AAAA-MM-DD' });
export const Hora = Type.String({ description: 'HH:MM, no fuso da comunidade' });
export const Instante = Type.String({ description: 'Data e hora ISO 8601 (UTC)' });
export const Reais = Type.Number({ description: 'Reais, com até 2 casas decimais' });
export const Quantidade = Type.Number({ description: 'Quantidade, com até 3 casas decimais' });
/** Data a page sends beside its resource (the choices of a form): named fields, any shape. */
export const Livre = (descricao: string) => Type.Object({}, { additionalProperties: true, description: descricao });
export const Acoes = Type.Record(Type.String(), Type.Boolean(), {
  description: 'O que quem pediu pode fazer aqui (a política de acesso)',
});
export const Perfil = Type.String({ description: 'admin, master, fornecedor ou consumidor' });

export const ParamsId = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAIOR_ID }) });

export const Erro = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String({ description: 'A mensagem, em português' }),
    details: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Por campo: o que está errado nele' }),
    ),
    requestId: Type.Optional(Type.String({ description: 'Num erro interno: o código a informar à coordenação' })),
  },
  { description: 'Recusa ou falha' },
);

const Envelope = <T extends TSchema>(dados: T) =>
  Type.Object(
    { success: Type.Literal(true), data: dados, message: Type.String() },
    { description: 'Envelope da resposta (§4)' },
  );

export const pagina = (dados: TSchema) => ({
  content: { 'application/json': { schema: Envelope(dados) }, 'text/html': { schema: Html } },
});
const falhas = {
  '4xx': {
    description: 'Recusa: a mensagem em português (JSON) ou a página com ela',
    content: { 'application/json': { schema: Erro }, 'text/html': { schema: Html } },
  },
  '5xx': {
    description: 'Falha interna, com o código da requisição',
    content: { 'application/json': { schema: Erro }, 'text/html': { schema: Html } },
  },
};

/** A page or JSON read: 200 with `data`, or the refusal. */
export function leitura(dados: TSchema) {
  return {
    200: { description: 'A página (navegador) ou o envelope com os dados (JSON)', ...pagina(dados) },
    ...falhas,
  };
}

/**
 * A write: the envelope with what was saved (201 when it created the record), or, for a browser's
 * form, a 303 to the next page; a refused form comes back as its page with the 4xx.
 */
export function escrita(dados: TSchema, opcoes: { cria?: boolean; atualiza?: boolean } = { atualiza: true }) {
  return {
    ...(opcoes.atualiza === true ? { 200: { description: 'Salvo (JSON)', ...pagina(dados) } } : {}),
    ...(opcoes.cria === true ? { 201: { description: 'Criado (JSON)', ...pagina(dados) } } : {}),
    303: Redirecionamento,
    ...falhas,
  };
}

/** A report: the page or the envelope, or, asked with `?formato=`, the file (a spreadsheet or the CSV). */
export function relatorioOuArquivo(dados: TSchema) {
  const { content } = pagina(dados);
  return {
    200: {
      description:
        'A página (navegador) ou o envelope com os dados (JSON); com ?formato=xlsx a planilha, com ?formato=csv o CSV',
      content: {
        ...content,
        [TIPO_XLSX]: { schema: Arquivo('A planilha (Excel, LibreOffice)') },
        'text/csv': { schema: Arquivo('O CSV: UTF-8, separado por vírgulas, decimais com ponto, datas AAAA-MM-DD') },
      },
    },
    ...falhas,
  };
}

/** A file (CSV, PDF, receipt) or the refusal. */
export function download(tipo: string, descricao: string) {
  return { 200: { description: descricao, content: { [tipo]: { schema: Arquivo(descricao) } } }, ...falhas };
}

/** A page for browsers only (the login's way back, the goodbye page) or a redirect. */
export const navegacao = {
  200: { description: 'A página', ...pagina(Type.Null()) },
  302: Redirecionamento,
  303: Redirecionamento,
  ...falhas,
};
