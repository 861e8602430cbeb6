import type { FastifyServerOptions } from 'fastify';
import type { Config } from '../config.ts';

/**
 * Structured logs (pino): one JSON line per event with the request id, cookies and tokens
 * redacted so that no secret ever reaches a log file.
 */
export function opcoesDeLog(config: Config, face: string): NonNullable<FastifyServerOptions['logger']> {
  return {
    level: config.logLevel,
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({
        method: req.method,
        url: semSegredos(req.url),
        remoteAddress: req.ip,
      }),
    },
    base: { face },
    redact: {
      paths: [
        'req.headers.cookie',
        'req.headers.authorization',
        'req.headers["x-csrf-token"]',
        'res.headers["set-cookie"]',
        'headers.cookie',
        'headers.authorization',
      ],
      censor: '[oculto]',
    },
  };
}

const PARAMETROS_SECRETOS = new Set(['code', 'state', 'id_token_hint', 'session_state', 'access_token', 'token']);

/**
 * Paths whose last segment is a secret that acts alone: an unsubscribe link, and the pickup QR of
 * a receipt (both open without a login).
 */
const CAMINHO_SECRETO = /^(\/avisos\/sair\/|\/retirada\/pedido\/)[^/?#]+/;

/** A URL for the log: secret path segments and the values of authorization parameters are replaced, the rest kept. */
export function semSegredos(bruta: string): string {
  const url = bruta.replace(CAMINHO_SECRETO, '$1[oculto]');
  const i = url.indexOf('?');
  if (i < 0) return url;
  const params = new URLSearchParams(url.slice(i + 1));
  for (const chave of [...params.keys()]) if (PARAMETROS_SECRETOS.has(chave)) params.set(chave, '[oculto]');
  return `${url.slice(0, i)}?${params.toString()}`;
}

const NIVEIS: Readonly<Record<string, number>> = {
  trace: 10,
  debug: 20,
  info: 30,
  warn: 40,
  error: 50,
  fatal: 60,
  silent: Infinity,
};

/**
 * A warning from outside any request (start-up, a background connection), as one JSON line in
 * the same shape as the faces' logs, honouring LOG_LEVEL.
 */
export function avisoDoServico(config: Config): (mensagem: string, erro: unknown) => void {
  const nivel = NIVEIS[config.logLevel] ?? 30;
  return (mensagem, erro) => {
    if (nivel > 40) return;
    const linha: Record<string, unknown> = { level: 40, time: Date.now(), face: 'servico', msg: mensagem };
    if (erro instanceof Error) linha.err = { type: erro.name, message: erro.message };
    process.stderr.write(`${JSON.stringify(linha)}\n`);
  };
}
