import type { Duplex } from 'node:stream';
import type { FastifyError, FastifySchemaValidationError } from 'fastify';
import { Conflito, ErroDominio, Invalido, NaoEncontrado, Proibido } from '../domain/erros.ts';

/** The failure of a request as the client sees it: status, Portuguese message, optional details. */
export interface Falha {
  readonly status: number;
  readonly mensagem: string;
  readonly codigo: string;
  readonly detalhes?: Readonly<Record<string, unknown>> | undefined;
}

/** An HTTP-level refusal raised by the faces themselves (not by the domain). */
export class ErroHttp extends Error {
  readonly status: number;
  readonly codigo: string;
  constructor(status: number, codigo: string, mensagem: string) {
    super(mensagem);
    this.status = status;
    this.codigo = codigo;
  }
}

const STATUS_DOMINIO: ReadonlyArray<readonly [new (...a: never[]) => ErroDominio, number]> = [
  [Invalido, 400],
  [Proibido, 403],
  [NaoEncontrado, 404],
  [Conflito, 409],
];

const MENSAGENS_STATUS: Readonly<Record<number, string>> = {
  400: 'Requisição inválida',
  401: 'Não autenticado',
  403: 'Acesso negado',
  404: 'Página ou registro não encontrado',
  405: 'Método não permitido',
  406: 'Formato de resposta não suportado',
  408: 'A requisição demorou demais',
  409: 'Conflito com o estado atual',
  413: 'O corpo da requisição é grande demais (máximo de 1 MiB)',
  414: 'Endereço grande demais',
  415: 'Tipo de conteúdo não suportado: envie application/json ou application/x-www-form-urlencoded',
  429: 'Muitas requisições. Tente novamente em instantes.',
  503: 'Serviço indisponível no momento. Tente novamente em instantes.',
};

function detalhesDeValidacao(erro: FastifyError): Record<string, string> {
  const detalhes: Record<string, string> = {};
  for (const v of erro.validation ?? []) {
    const campo =
      (v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.') ||
      (typeof v.params.missingProperty === 'string' ? v.params.missingProperty : '') ||
      erro.validationContext ||
      'corpo';
    detalhes[campo] ??= mensagemDoParametro(v);
  }
  return detalhes;
}

/** A parameter's refusal in the words the form readers use (src/http/campos.ts). */
function mensagemDoParametro(v: FastifySchemaValidationError): string {
  const p: Readonly<Record<string, unknown>> = v.params;
  switch (v.keyword) {
    case 'required':
      return 'Campo obrigatório';
    case 'type':
      return p.type === 'integer'
        ? 'Deve ser um número inteiro'
        : p.type === 'number'
          ? 'Deve ser um número'
          : 'Valor inválido';
    case 'minimum':
      return `Deve ser no mínimo ${String(p.limit)}`;
    case 'maximum':
      return `Deve ser no máximo ${String(p.limit)}`;
    case 'maxLength':
      return `Deve ter no máximo ${String(p.limit)} caracteres`;
    case 'enum':
      return Array.isArray(p.allowedValues) ? `Valor inválido: use ${p.allowedValues.join(', ')}` : 'Valor inválido';
    default:
      return 'Valor inválido';
  }
}

/** Maps any thrown value to what the client is told. Unknown errors become a bare 500. */
export function falhaDe(erro: unknown): Falha {
  if (erro instanceof ErroDominio) {
    const par = STATUS_DOMINIO.find(([classe]) => erro instanceof classe);
    return { status: par?.[1] ?? 500, mensagem: erro.message, codigo: erro.codigo, detalhes: erro.detalhes };
  }
  if (erro instanceof ErroHttp) return { status: erro.status, mensagem: erro.message, codigo: erro.codigo };
  const fe = erro as Partial<FastifyError>;
  if (fe.validation !== undefined) {
    const contexto =
      fe.validationContext === 'params' || fe.validationContext === 'querystring'
        ? 'Parâmetro inválido no endereço'
        : 'Dados inválidos';
    return { status: 400, mensagem: contexto, codigo: 'VALIDACAO', detalhes: detalhesDeValidacao(fe as FastifyError) };
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, mensagem: 'JSON malformado no corpo da requisição', codigo: 'JSON_INVALIDO' };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, mensagem: 'Tamanho do corpo inconsistente', codigo: 'CORPO_INVALIDO' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, mensagem: MENSAGENS_STATUS[413] ?? '', codigo: 'CORPO_GRANDE_DEMAIS' };
    case 'FST_REQ_FILE_TOO_LARGE':
      return { status: 413, mensagem: 'O comprovante deve ter no máximo 10 MiB', codigo: 'ARQUIVO_GRANDE_DEMAIS' };
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return { status: 413, mensagem: 'Campos ou arquivos demais no formulário', codigo: 'PARTES_DEMAIS' };
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return { status: 415, mensagem: MENSAGENS_STATUS[415] ?? '', codigo: 'TIPO_NAO_SUPORTADO' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return { status: 415, mensagem: MENSAGENS_STATUS[415] ?? '', codigo: 'TIPO_NAO_SUPORTADO' };
    default:
      break;
  }
  // NOTE: a SyntaxError reaching here comes from a body parser (e.g. bad JSON), i.e. client input.
  if (erro instanceof SyntaxError)
    return { status: 400, mensagem: 'JSON malformado no corpo da requisição', codigo: 'JSON_INVALIDO' };
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) {
    return { status, mensagem: MENSAGENS_STATUS[status] ?? 'Requisição inválida', codigo: `HTTP_${status}` };
  }
  return { status: 500, mensagem: 'Erro interno', codigo: 'ERRO_INTERNO' };
}

/**
 * Requests the HTTP parser refuses before they reach Fastify (headers or URL too large, malformed
 * request line): answered on the socket with the same envelope, in Portuguese.
 */
export function respostaDeErroDoCliente(erro: Error & { code?: string }, socket: Duplex): void {
  if (erro.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const grande = erro.code === 'HPE_HEADER_OVERFLOW';
  const status = grande ? 431 : 400;
  const corpo = JSON.stringify({
    success: false,
    error: grande ? 'Cabeçalhos ou endereço da requisição grandes demais' : 'Requisição HTTP malformada',
  });
  socket.end(
    `HTTP/1.1 ${status} ${grande ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(corpo)}\r\nConnection: close\r\n\r\n${corpo}`,
  );
}
