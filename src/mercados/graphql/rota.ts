import { ConsultaGraphql, PedidoGraphql, RespostaGraphql, pedidoDoCorpo, type PedidoGraphqlLido } from '../esquemas.ts';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { AppTipada } from '../../http/app-tipada.ts';
import { createYoga, type YogaLogger } from 'graphql-yoga';
import type { Config } from '../../config.ts';
import { VERSAO_DOS_MERCADOS, versaoDosDados } from '../../db/versoes.ts';
import { CAMINHO_GRAPHQL, contextoGraphql, isAuthenticated } from '../acesso.ts';
import type { ContextoMercados } from '../contexto-mercados.ts';
import { CacheDeRespostas } from './cache.ts';
import { criarCarregadores, type ContextoResolvers } from './contexto-resolvers.ts';
import { mascararErro } from './erros.ts';
import { criarEsquema } from './esquema.ts';
import { OPCOES_IDE, paginaDaIde, rotasDaIde } from './ide.ts';
import { OrcamentoPorConta, conferenciasDaRequisicao } from './limites.ts';
import { CacheDeTamanhos, type TamanhosDasListas } from './tamanhos.ts';
import { TrabalhoDaRequisicao } from './trabalho.ts';
import { chaveDaRetirada } from '../../domain/retirada/token.ts';

/** What differs between environments. */
export interface OpcoesGraphql {
  /** __schema and __type answer (GraphiQL's docs need them). */
  readonly introspeccao: boolean;
  /** GET /graphql from a browser shows GraphiQL. */
  readonly ide: boolean;
}

/** Introspection as configured (GRAPHQL_INTROSPECTION, off in production by default); the IDE only in development. */
export function opcoesGraphqlPadrao(config: Pick<Config, 'graphqlIntrospeccao' | 'nodeEnv'>): OpcoesGraphql {
  return { introspeccao: config.graphqlIntrospeccao, ide: config.nodeEnv === 'development' };
}

interface ContextoServidor {
  readonly req: FastifyRequest;
  readonly reply: FastifyReply;
  /** The lists' real lengths, for the cost of what the request runs (limites.ts). */
  readonly tamanhos: TamanhosDasListas;
}

/** Yoga logs what it masks through the face's own logger. */
function loggerDoYoga(log: FastifyBaseLogger): YogaLogger {
  return {
    debug: (...args: unknown[]) => log.debug({ yoga: args }, 'graphql'),
    info: (...args: unknown[]) => log.info({ yoga: args }, 'graphql'),
    warn: (...args: unknown[]) => log.warn({ yoga: args }, 'graphql'),
    error: (...args: unknown[]) => log.error({ err: args[0] }, 'erro interno no GraphQL'),
  };
}

/** Past the waiting room's size, an operation is turned away at once instead of queued. */
export class FilaCheia extends Error {
  override name = 'FilaCheia';
}

/**
 * Runs at most `vagas` operations at once; up to `espera` others wait their turn in arrival
 * order, and any beyond that are refused (FilaCheia), so a burst cannot pile up without end.
 * NOTE: an operation is CPU work (the markets query: ~35 ms, 144 KiB of JSON, a tree of 13,000
 * fields), so running more of them side by side adds no throughput; it only keeps every one's
 * tree and rows alive at the same time. With 50 at once the bench's process peaked at ~530 MB;
 * with 4, at 420–460 MB, for the same throughput.
 */
export function filaDeExecucao(vagas: number, espera: number): <T>(fazer: () => Promise<T>) => Promise<T> {
  let livres = vagas;
  const esperando: Array<() => void> = [];
  return async (fazer) => {
    if (livres > 0) livres--;
    else if (esperando.length >= espera) throw new FilaCheia();
    else await new Promise<void>((vez) => esperando.push(vez));
    try {
      return await fazer();
    } finally {
      const proxima = esperando.shift();
      if (proxima === undefined) livres++;
      else proxima();
    }
  };
}

/** Operations that may run at once in one process (see filaDeExecucao), and how many may wait. */
const OPERACOES_SIMULTANEAS = 4;
export const OPERACOES_EM_ESPERA = 32;
/** The largest answer sent; the cost limit keeps real answers far below it. */
export const TAMANHO_MAXIMO_RESPOSTA = 4 * 1024 * 1024;

function respostaDeErro(
  reply: FastifyReply,
  status: number,
  mensagem: string,
  codigo: string,
  esperarS?: number,
): FastifyReply {
  if (esperarS !== undefined) reply.header('retry-after', String(esperarS));
  return reply
    .code(status)
    .header('cache-control', 'no-store')
    .send({ errors: [{ message: mensagem, extensions: { code: codigo } }] });
}

/**
 * POST /graphql (JSON) and GET /graphql (queries only) through GraphQL Yoga, behind the face's
 * own guard (isAuthenticated) and CSRF rules like every other route.
 */
export async function rotasGraphql(app: AppTipada, ctx: ContextoMercados, opcoes: OpcoesGraphql): Promise<void> {
  const chaveDosTokens = chaveDaRetirada(ctx.config.sessionSecret);
  const yoga = createYoga<ContextoServidor, ContextoResolvers>({
    schema: criarEsquema(),
    graphqlEndpoint: CAMINHO_GRAPHQL,
    // NOTE: Yoga's default CORS answers any Origin with that same Origin; with cookie sessions
    // any site could then read a logged-in person's data. This API is same-origin only.
    cors: false,
    multipart: false,
    batching: false,
    landingPage: false,
    logging: loggerDoYoga(app.log),
    maskedErrors: { maskError: mascararErro },
    graphiql: opcoes.ide ? OPCOES_IDE : false,
    renderGraphiQL: paginaDaIde,
    plugins: [conferenciasDaRequisicao({ introspeccao: opcoes.introspeccao, orcamento: new OrcamentoPorConta() })],
    context: ({ req }) => ({
      ...contextoGraphql(req.conta),
      banco: ctx.banco,
      agora: ctx.relogio.agora(),
      carregadores: criarCarregadores(ctx.banco),
      trabalho: new TrabalhoDaRequisicao(),
      emailLigado: ctx.config.email.smtp !== null || ctx.config.email.devSmtp,
      requestId: req.id,
      log: req.log,
      taxa: ctx.config.taxa,
      pix: ctx.config.pix,
      tz: ctx.config.tz,
      avisos: ctx.avisos ?? undefined,
      chaveDaRetirada: chaveDosTokens,
    }),
  });

  if (opcoes.ide) await rotasDaIde(app);
  const naVez = filaDeExecucao(OPERACOES_SIMULTANEAS, OPERACOES_EM_ESPERA);
  const guardadas = new CacheDeRespostas();
  const tamanhos = new CacheDeTamanhos();
  /** The lists' lengths; if the database cannot say, every list counts as FATOR_DE_LISTA long and the operation reports its own error. */
  const tamanhosDaVersao = (req: FastifyRequest, versao: number): Promise<TamanhosDasListas> =>
    tamanhos.ler(ctx.banco, versao).catch((e: unknown) => {
      req.log.error({ err: e }, 'falha ao ler o tamanho das listas do GraphQL');
      return {};
    });

  /** One GraphQL request, from either transport (Yoga reads it again from the request itself). */
  const atender = async (
    req: FastifyRequest,
    reply: FastifyReply,
    pedido: PedidoGraphqlLido,
  ): Promise<FastifyReply> => {
    // A request without an operation is answered here: Yoga would try to re-read a body Fastify
    // already parsed, and answer in English with the parser's internal error attached.
    const consulta = pedido.query;
    const ide = opcoes.ide && req.method === 'GET' && (req.headers.accept ?? '').includes('text/html');
    if (!ide && (typeof consulta !== 'string' || consulta.trim() === '')) {
      return reply
        .code(400)
        .header('cache-control', 'no-store')
        .send({
          errors: [{ message: 'Envie a operação GraphQL no campo "query"', extensions: { code: 'BAD_REQUEST' } }],
        });
    }
    // A read answered before, for the same person, at the same version of the data: send it again.
    const conta = req.conta;
    const chave =
      ide || conta === null || typeof consulta !== 'string'
        ? null
        : guardadas.chave(
            conta.id,
            consulta,
            typeof pedido.operationName === 'string' ? pedido.operationName : undefined,
            pedido.variables,
            req.headers.accept ?? '',
          );
    const versao = conta === null ? null : await versaoDosDados(ctx.banco, VERSAO_DOS_MERCADOS);
    if (chave !== null && versao !== null) {
      const guardada = guardadas.ler(chave, versao);
      if (guardada !== undefined)
        return reply.code(200).type(guardada.tipo).header('cache-control', 'no-store').send(guardada.texto);
    }
    const contexto = { req, reply, tamanhos: versao === null ? {} : await tamanhosDaVersao(req, versao) };
    let resposta: Response;
    let texto: string;
    try {
      [resposta, texto] = await naVez(async () => {
        const r = await yoga.handleNodeRequestAndResponse(req, reply, contexto);
        return [r, await r.text()] as const;
      });
    } catch (e) {
      if (!(e instanceof FilaCheia)) throw e;
      req.log.warn({ espera: OPERACOES_EM_ESPERA }, 'fila do GraphQL cheia: operação recusada');
      return respostaDeErro(
        reply,
        503,
        'O servidor está ocupado com muitas consultas agora. Tente novamente em instantes.',
        'SERVIDOR_OCUPADO',
        2,
      );
    }
    if (Buffer.byteLength(texto) > TAMANHO_MAXIMO_RESPOSTA) {
      req.log.warn({ bytes: Buffer.byteLength(texto) }, 'resposta do GraphQL grande demais: recusada');
      return respostaDeErro(
        reply,
        200,
        `A resposta passaria de ${TAMANHO_MAXIMO_RESPOSTA / 1024 / 1024} MiB. Peça menos campos ou divida a consulta em partes.`,
        'RESPOSTA_GRANDE_DEMAIS',
      );
    }
    resposta.headers.forEach((valor, nome) => {
      if (nome !== 'content-length') reply.header(nome, valor);
    });
    if (chave !== null && versao !== null && resposta.status === 200 && !texto.includes('"errors":')) {
      guardadas.guardar(chave, {
        versao,
        tipo: resposta.headers.get('content-type') ?? 'application/json; charset=utf-8',
        texto,
      });
    }
    // Answers depend on who asks: no shared cache may keep them.
    return reply.code(resposta.status).header('cache-control', 'no-store').send(texto);
  };

  // GET reads the operation from the query string, POST from the body: one route each, for their schemas.
  const config = { guarda: isAuthenticated };
  app.get(
    CAMINHO_GRAPHQL,
    { config, schema: { querystring: ConsultaGraphql, response: RespostaGraphql } },
    async (req, reply) => {
      await atender(req, reply, req.query);
      return reply;
    },
  );
  app.post(
    CAMINHO_GRAPHQL,
    { config, schema: { consumes: ['application/json'], body: PedidoGraphql, response: RespostaGraphql } },
    async (req, reply) => {
      await atender(req, reply, pedidoDoCorpo(req.body));
      return reply;
    },
  );
}
