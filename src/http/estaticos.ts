/**
 * Static files served from memory, each with its precompressed variants: brotli and gzip where
 * they are smaller than the file itself. The variant a request gets follows its Accept-Encoding
 * (brotli first, then gzip, the file as it is otherwise), with `Vary: Accept-Encoding`, a strong
 * ETag per variant and 304 for a matching If-None-Match. Both faces serve their files this way.
 *
 * Files are looked up by name in a map filled at start, never by a path built from the request,
 * so nothing outside the folder they were read from can be reached.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

export type Codificacao = 'br' | 'gzip';

interface Variante {
  readonly conteudo: Buffer;
  readonly etag: string;
}

export interface ArquivoEstatico {
  readonly tipo: string;
  /** The file as it is. */
  readonly conteudo: Buffer;
  readonly etag: string;
  /** The file in this encoding, or undefined when that would not be smaller (or the type is compressed already). */
  variante(codificacao: Codificacao): Variante | undefined;
}

/** Types that are compressed already (images, fonts): another pass would only cost time. */
const JA_COMPRIMIDOS = /^(image\/(png|jpeg|webp|avif)|font\/woff2?)\b/;

/** Brotli at its highest quality, as the client's build does; for a few kB at start it is quick. */
export function comprimirBrotli(conteudo: Buffer): Buffer {
  return brotliCompressSync(conteudo, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: conteudo.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
}

export function comprimirGzip(conteudo: Buffer): Buffer {
  return gzipSync(conteudo, { level: constants.Z_BEST_COMPRESSION });
}

function etagDe(conteudo: Buffer, sufixo: string): string {
  return `"${createHash('sha256').update(conteudo).digest('base64url').slice(0, 22)}${sufixo}"`;
}

/**
 * A file and its variants. `prontas` are variants already on disk (the client's build writes them
 * next to each asset); a missing one is made the first time a request wants it (at most once per
 * process, and never in a process that serves no such request). A variant that is not smaller is
 * left out.
 */
export function prepararEstatico(
  tipo: string,
  conteudo: Buffer,
  prontas: Partial<Record<Codificacao, Buffer>> = {},
): ArquivoEstatico {
  const etag = etagDe(conteudo, '');
  const comprimir: Record<Codificacao, (b: Buffer) => Buffer> = { br: comprimirBrotli, gzip: comprimirGzip };
  // The ETag of a variant is the file's with a suffix: a strong ETag names exact bytes.
  const sufixos: Record<Codificacao, string> = { br: '-br"', gzip: '-gz"' };
  const feitas = new Map<Codificacao, Variante | undefined>();
  return {
    tipo,
    conteudo,
    etag,
    variante(codificacao) {
      if (JA_COMPRIMIDOS.test(tipo)) return undefined;
      if (!feitas.has(codificacao)) {
        const bytes = prontas[codificacao] ?? comprimir[codificacao](conteudo);
        feitas.set(
          codificacao,
          bytes.length < conteudo.length
            ? { conteudo: bytes, etag: etag.replace(/"$/, sufixos[codificacao]) }
            : undefined,
        );
      }
      return feitas.get(codificacao);
    },
  };
}

/**
 * The encodings an Accept-Encoding header accepts (q above 0), by name; `*` stands for any not
 * named. No header, or an empty one, accepts none but the file as it is.
 */
export function codificacoesAceitas(cabecalho: string | undefined): ReadonlySet<Codificacao> {
  const q = new Map<string, number>();
  for (const parte of (cabecalho ?? '').split(',')) {
    const [nome = '', ...parametros] = parte.split(';').map((s) => s.trim().toLowerCase());
    if (nome === '') continue;
    const peso = parametros.find((p) => p.startsWith('q='));
    const valor = peso === undefined ? 1 : Number(peso.slice(2));
    q.set(nome === 'x-gzip' ? 'gzip' : nome, Number.isFinite(valor) ? valor : 0);
  }
  const aceitas = new Set<Codificacao>();
  for (const c of ['br', 'gzip'] as const) {
    const peso = q.get(c) ?? q.get('*') ?? 0;
    if (peso > 0) aceitas.add(c);
  }
  return aceitas;
}

/** Whether an If-None-Match header names this ETag (weak comparison, as RFC 9110 13.1.2 says). */
function etagCasa(cabecalho: string | undefined, etag: string): boolean {
  if (cabecalho === undefined) return false;
  if (cabecalho.trim() === '*') return true;
  return cabecalho.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

/**
 * Sends a static file in the variant the request accepts. HEAD is Fastify's: it runs this
 * handler and sends the headers with the Content-Length of this body.
 */
export function enviarEstatico(
  req: FastifyRequest,
  reply: FastifyReply,
  arquivo: ArquivoEstatico,
  cacheControl: string,
): FastifyReply {
  const aceitas = codificacoesAceitas(req.headers['accept-encoding']);
  const codificacao = (['br', 'gzip'] as const).find((c) => aceitas.has(c) && arquivo.variante(c) !== undefined);
  const variante = codificacao === undefined ? undefined : arquivo.variante(codificacao);
  const etag = variante?.etag ?? arquivo.etag;
  reply.header('vary', 'Accept-Encoding').header('cache-control', cacheControl).header('etag', etag);
  if (etagCasa(req.headers['if-none-match'], etag)) return reply.code(304).send();
  reply.type(arquivo.tipo);
  if (codificacao !== undefined) reply.header('content-encoding', codificacao);
  const corpo = variante?.conteudo ?? arquivo.conteudo;
  return reply.header('content-length', corpo.length).send(corpo);
}
