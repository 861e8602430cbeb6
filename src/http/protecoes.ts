import { TOKEN_DO_FORMULARIO, esquemasQueFaltam, type RotaComEsquemas } from './esquemas.ts';
import helmet from '@fastify/helmet';
import { timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { ErroHttp } from './erros.ts';

/**
 * The headers `@fastify/helmet` adds with these options, read once from a throwaway instance.
 * NOTE: the plugin calls `helmet(options)` on every request, and helmet rebuilds and re-validates
 * the whole CSP each time (~3 % of a dashboard request). The set depends only on the options, never
 * on the request, so it is taken from the plugin itself (the headers stay exactly the plugin's)
 * and copied onto each reply.
 */
async function cabecalhosDoHelmet(opcoes: OpcoesCabecalhos): Promise<Record<string, string>> {
  const responder = async (comHelmet: boolean) => {
    const molde = Fastify();
    if (comHelmet) {
      await molde.register(helmet, {
        contentSecurityPolicy: {
          directives: {
            defaultSrc: ["'self'"],
            imgSrc: ["'self'", 'data:', 'https:', ...opcoes.origensDeImagem],
            formAction: ["'self'", ...(opcoes.destinosDeFormulario ?? [])],
            frameAncestors: ["'none'"],
            upgradeInsecureRequests: opcoes.producao ? [] : null,
          },
        },
        hsts: opcoes.producao,
        // NOTE: not helmet's no-referrer: under it Chromium sends `Origin: null` with a plain form
        // post, which the CSRF checks must refuse, so no form would work without JavaScript.
        // same-origin still sends nothing to other sites.
        referrerPolicy: { policy: 'same-origin' },
      });
    }
    molde.get('/', (_req, reply) => reply.send(''));
    try {
      return (await molde.inject('/')).headers;
    } finally {
      await molde.close();
    }
  };
  const [com, sem] = await Promise.all([responder(true), responder(false)]);
  const cabecalhos: Record<string, string> = {};
  for (const [nome, valor] of Object.entries(com)) {
    if (nome in sem || nome === 'date') continue;
    if (typeof valor !== 'string') throw new Error(`cabeçalho de segurança inesperado: ${nome}`);
    cabecalhos[nome] = valor;
  }
  return cabecalhos;
}

export interface OpcoesCabecalhos {
  readonly producao: boolean;
  /** Origins of images the pages show (the provider's avatars). */
  readonly origensDeImagem: readonly string[];
  /** Origins a form post may end at after a redirect (the provider's sign-out page). */
  readonly destinosDeFormulario?: readonly string[];
}

/**
 * The protections both faces share: the security headers, and the rule that every route declares
 * who may reach it (deny by default), recorded for the access-matrix tests.
 */
export async function registrarCabecalhos(app: FastifyInstance, opcoes: OpcoesCabecalhos): Promise<void> {
  const cabecalhos = await cabecalhosDoHelmet(opcoes);
  app.addHook('onRequest', (_req, reply, feito) => {
    reply.headers(cabecalhos);
    feito();
  });
}

/**
 * Refuses to start with a route that has no access rule in `config[chave]`, or without the schemas
 * every route declares (a response schema, and a body schema if it writes); lists every route
 * with its schemas.
 */
export function exigirRegraDeAcesso(app: FastifyInstance, chave: 'acesso' | 'guarda'): void {
  const rotas: string[] = [];
  const esquemas: RotaComEsquemas[] = [];
  app.decorate('rotasRegistradas', rotas);
  app.decorate('esquemasDasRotas', esquemas);
  app.addHook('onRoute', (rota) => {
    if (rota.config?.[chave] === undefined) {
      throw new Error(`rota ${rota.method.toString()} ${rota.url} sem regra de acesso (config.${chave})`);
    }
    const faltas = esquemasQueFaltam(rota);
    if (faltas.length > 0)
      throw new Error(`rota ${rota.method.toString()} ${rota.url} sem esquema de ${faltas.join(' e ')}`);
    for (const metodo of [rota.method].flat()) {
      if (metodo === 'HEAD') continue;
      rotas.push(`${metodo} ${rota.url}`);
      esquemas.push({ metodo, url: rota.url, schema: rota.schema ?? {} });
    }
  });
}

/**
 * Whether a browser request is the person's own navigation: typed, bookmarked, or from one of our
 * own pages (Fetch Metadata `Sec-Fetch-Site` of `none` or `same-origin`). A request without the
 * header is not from a browser (a script or an API client acting for itself). Anything else was
 * started by another site, which must not be able to act for the person with a plain GET.
 */
export function navegacaoPropria(req: FastifyRequest): boolean {
  const site = req.headers['sec-fetch-site'];
  return site === undefined || site === 'none' || site === 'same-origin';
}

const METODOS_SEGUROS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Whether the request's method may change state (anything but GET, HEAD and OPTIONS). */
export function ehEscrita(req: FastifyRequest): boolean {
  return !METODOS_SEGUROS.has(req.method);
}

/**
 * Whether a write was started by another site, by the Fetch Metadata rule (the algorithm of Go's
 * `http.CrossOriginProtection`): a browser's `Sec-Fetch-Site` decides when present (only
 * `same-origin` and `none` pass); without it, an `Origin` that is not ours is refused; a request
 * with neither header does not come from a browser (a script or an API client acting with its
 * own credentials) and passes. Safe methods never change state and always pass.
 */
export function origemCruzada(req: FastifyRequest, origemPropria: string): boolean {
  if (!ehEscrita(req)) return false;
  const site = req.headers['sec-fetch-site'];
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origem = req.headers.origin;
  return origem !== undefined && origem !== origemPropria;
}

/**
 * The form token a write carries: `_csrf` in a form body (kept on the command when a command read
 * the body), or the `x-csrf-token` header.
 */
function tokenDaRequisicao(req: FastifyRequest): unknown {
  const corpo: unknown = req.body;
  if (corpo === null || typeof corpo !== 'object') return req.headers['x-csrf-token'];
  const doComando: unknown = Reflect.get(corpo, TOKEN_DO_FORMULARIO);
  const doCorpo = doComando ?? ('_csrf' in corpo ? corpo._csrf : undefined);
  return doCorpo ?? req.headers['x-csrf-token'];
}

/** Compares two tokens in constant time. */
export function tokenConfere(esperado: string, recebido: unknown): boolean {
  if (typeof recebido !== 'string') return false;
  const a = Buffer.from(esperado);
  const b = Buffer.from(recebido);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Cross-site request forgery, for both faces (a preHandler's body). The origin rule above is what
 * protects; the session's form token is an extra layer for browsers and is never needed: when a
 * write carries one, it must be the current session's, so a page left open from an earlier
 * session (another person signed in since, or the session expired and renewed) cannot act for the
 * session that now holds the cookie.
 */
export function verificarOrigem(req: FastifyRequest, origemPropria: string, tokenDaSessao: string | null): void {
  if (!ehEscrita(req)) return;
  if (origemCruzada(req, origemPropria)) {
    throw new ErroHttp(403, 'ORIGEM_NAO_PERMITIDA', 'Origem da requisição não permitida');
  }
  const recebido = tokenDaRequisicao(req);
  if (recebido !== undefined && tokenDaSessao !== null && !tokenConfere(tokenDaSessao, recebido)) {
    throw new ErroHttp(
      403,
      'CSRF',
      'Token de segurança inválido: esta página é de uma sessão anterior. Recarregue a página e tente novamente.',
    );
  }
}
