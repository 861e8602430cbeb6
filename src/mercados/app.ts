import { randomUUID } from 'node:crypto';
import { enderecoDaFace } from '../http/endereco.ts';
import type { Avisos } from '../domain/avisos.ts';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { Provedor } from '../http/codigo-de-autorizacao.ts';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Banco } from '../db/banco.ts';
import { limitadorNoBanco, type Limitador } from '../db/limites.ts';
import type { Relogio } from '../domain/tempo.ts';
import { Cofre } from '../http/cofre.ts';
import { exigirRegraDeAcesso, registrarCabecalhos } from '../http/protecoes.ts';
import { compiladoresQuandoUsados, validarCorposSemCoercao } from '../http/esquemas.ts';
import { registrarOpenApi, rotasDaDocumentacao } from '../http/openapi.ts';
import { falhaDe } from '../http/erros.ts';
import { opcoesDeLog } from '../http/log.ts';
import { registrarOperacao } from '../http/operacao.ts';
import { ganchoCsrf, ganchoDeAcesso } from './acesso.ts';
import { carregarCliente } from './cliente.ts';
import type { ContextoMercados } from './contexto-mercados.ts';
import { opcoesGraphqlPadrao, rotasGraphql, type OpcoesGraphql } from './graphql/rota.ts';
import { INTERVALO_LIMPEZA_MS, criarLimpezaDeSessoes } from './limpeza.ts';
import { criarClienteOauth } from './oauth.ts';
import { adotarContasAntigas } from '../domain/contas.ts';
import { querHtml, responderPagina } from './resposta.ts';
import { rotasAutenticacao } from './rotas/autenticacao.ts';
import { rotasPaginas } from './rotas/paginas.ts';
import { rotasPlanilhas } from './rotas/planilhas.ts';
import './tipos-fastify.ts';
import { paginaErro } from './views/paginas.ts';

const LIMITE_CORPO = 1024 * 1024;

export interface DependenciasMercados {
  readonly config: Config;
  readonly banco: Banco;
  readonly relogio: Relogio;
  /** The OAuth provider this face logs in with. */
  readonly provedor: Omit<Provedor, 'redirectUri'>;
  /** The callback address registered at the provider; by default `<base>/auth/<name>/callback`. */
  readonly callbackUrl?: string | undefined;
  /** Extra image origins for the CSP (the provider's avatars). */
  readonly origensDeImagem?: readonly string[];
  /** How often expired sessions are purged; 15 minutes unless a test says otherwise. */
  readonly intervaloLimpezaMs?: number;
  /** Introspection and the GraphQL IDE; by default from NODE_ENV (opcoesGraphqlPadrao). */
  readonly graphql?: OpcoesGraphql;
  /** Where login attempts are counted; the database unless REDIS_URL gave another. */
  readonly limitador?: Limitador;
  /** The e-mail service, built once in src/servicos.ts whichever faces run: receipts of orders placed through GraphQL. */
  readonly avisos?: Avisos;
  /** Where the built browser client is; dist/mercados unless a test says otherwise. */
  readonly pastaCliente?: string;
  /** The Cestas face's public address, when it runs beside this one: the client links to it. */
  readonly enderecoCestas?: () => string | null;
}

/** Builds the Mercados face (Variant B) without listening, so tests can build more than one. */
export async function criarAppMercados(dep: DependenciasMercados): Promise<FastifyInstance> {
  const { config } = dep;
  const app = Fastify({
    logger: opcoesDeLog(config, 'mercados'),
    genReqId: () => randomUUID(),
    bodyLimit: LIMITE_CORPO,
    schemaController: compiladoresQuandoUsados,
    trustProxy: config.proxiesConfiaveis.length > 0 ? [...config.proxiesConfiaveis] : false,
    // `/graphql/` is the same endpoint as `/graphql`, with its guard, CSRF rules and limits.
    rewriteUrl: (req) => (req.url === undefined ? '/' : req.url.replace(/^\/graphql\/(?=\?|$)/, '/graphql')),
  }).withTypeProvider<TypeBoxTypeProvider>();

  const baseUrl = enderecoDaFace(app.server, config.mercadosBaseUrl, config.mercadosPort);
  const caminhoAuth = `/auth/${config.oauthProviderName}`;
  const ctx: ContextoMercados = {
    config,
    banco: dep.banco,
    relogio: dep.relogio,
    baseUrl,
    cookiesSeguros: config.producao,
    caminhoAuth,
    cofreVerificacao: new Cofre(config.sessionSecret, 'mercados_auth'),
    oauth: criarClienteOauth({
      ...dep.provedor,
      redirectUri: () => dep.callbackUrl ?? `${baseUrl()}${caminhoAuth}/callback`,
    }),
    cliente: carregarCliente(dep.pastaCliente),
    limitador: dep.limitador ?? limitadorNoBanco(dep.banco),
    avisos: dep.avisos ?? null,
    enderecoCestas: dep.enderecoCestas ?? (() => null),
  };
  const limpeza = criarLimpezaDeSessoes(
    dep.banco,
    dep.relogio,
    app.log,
    dep.intervaloLimpezaMs ?? INTERVALO_LIMPEZA_MS,
  );

  // 1. External plugins. Bodies are JSON or forms only: anything else gets 415.
  app.removeContentTypeParser('text/plain');
  // Every cookie this face sets is Secure in production, whichever code sets it.
  await app.register(cookie, {
    secret: config.sessionSecret,
    parseOptions: { secure: config.producao, httpOnly: true, sameSite: 'lax', path: '/' },
  });
  await app.register(formbody, { bodyLimit: LIMITE_CORPO });
  await registrarCabecalhos(app, { producao: config.producao, origensDeImagem: dep.origensDeImagem ?? [] });

  await registrarOpenApi(app, {
    titulo: 'Cestaria: Mercados',
    descricao:
      'As rotas HTTP da face Mercados: login OAuth, sessão, o cliente web e o GraphQL (cujo esquema descreve os dados; veja /graphql).',
  });

  // 2. App capabilities: sessions, access (deny by default), CSRF, the purge, errors.
  app.decorateRequest('conta', null);
  app.decorateRequest('tokenSessao', null);
  app.decorate('limpezaDeSessoes', limpeza);
  exigirRegraDeAcesso(app, 'guarda');
  validarCorposSemCoercao(app);
  app.addHook('onRequest', ganchoDeAcesso(ctx));
  app.addHook('preHandler', ganchoCsrf(ctx));
  // Accounts from before issuers were recorded take this face's issuer (src/domain/contas.ts).
  app.addHook('onReady', async () => {
    const r = await adotarContasAntigas(dep.banco, dep.provedor.issuer, dep.relogio.agora());
    if (r.adotadas > 0) app.log.info(r, 'contas antigas ligadas ao emissor do login');
  });
  app.addHook('onReady', async () => limpeza.iniciar());
  app.addHook('onClose', async () => limpeza.parar());

  app.setErrorHandler((erro, req, reply) => {
    const falha = falhaDe(erro);
    const interno = falha.codigo === 'ERRO_INTERNO';
    if (interno) req.log.error({ err: erro }, 'erro interno');
    else req.log.info({ codigo: falha.codigo, status: falha.status }, falha.mensagem);
    const mensagem = interno ? `Erro interno. Informe o código ${req.id} à administração.` : falha.mensagem;
    reply.code(falha.status);
    if (querHtml(req)) {
      return responderPagina(ctx, req, reply, {
        titulo: 'Não foi possível concluir',
        status: falha.status,
        conteudo: paginaErro(mensagem, interno ? req.id : null),
      });
    }
    return reply.send({
      error: mensagem,
      ...(falha.detalhes === undefined ? {} : { details: falha.detalhes }),
      ...(interno ? { requestId: req.id } : {}),
    });
  });

  app.setNotFoundHandler((req, reply) => {
    const mensagem = 'Página ou registro não encontrado';
    if (querHtml(req)) {
      return responderPagina(ctx, req, reply, {
        titulo: 'Página não encontrada',
        status: 404,
        conteudo: paginaErro(mensagem, null),
      });
    }
    return reply.code(404).send({ error: mensagem });
  });

  // 3. Routes.
  registrarOperacao(app, {
    face: 'mercados',
    banco: dep.banco,
    relogio: dep.relogio,
    metricsToken: config.metricsToken,
    rotaPublica: { guarda: 'publico' },
    corpoDeErro: (mensagem) => ({ error: mensagem }),
  });
  rotasPaginas(app, ctx);
  rotasAutenticacao(app, ctx);
  rotasPlanilhas(app, ctx);
  await rotasGraphql(app, ctx, dep.graphql ?? opcoesGraphqlPadrao(config));
  rotasDaDocumentacao(app, { producao: config.producao, titulo: 'Cestaria: Mercados', config: { guarda: 'publico' } });

  return app;
}
