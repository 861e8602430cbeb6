import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppTipada } from '../../http/app-tipada.ts';
import { encerrarSessao, entrarComProvedor } from '../../domain/contas.ts';
import { Conflito, ErroDominio, Proibido } from '../../domain/erros.ts';
import { PROFILES, acoesDaConta } from '../../domain/politica-mercados.ts';
import { csrfDaRequisicao } from '../acesso.ts';
import { responderShell } from '../cliente.ts';
import type { ContextoMercados } from '../contexto-mercados.ts';
import { ErroLogin } from '../oauth.ts';
import { querHtml, responderPagina } from '../resposta.ts';
import { paginaConfirmarSaida, paginaErro } from '../views/paginas.ts';
import { navegacaoPropria } from '../../http/protecoes.ts';
import { SemCorpo } from '../../http/esquemas.ts';
import { ConsultaDoRetorno, consultaCrua } from '../../http/codigo-de-autorizacao.ts';
import { Consulta, NaConsulta } from '../../http/consultas.ts';
import { Erro, pagina, redirecionamento } from '../esquemas.ts';
import { apagarVerificacao, gravarVerificacao } from '../../http/verificacao.ts';
import { esquecerSaida, marcarSaida, saiuAntes } from '../../http/saida.ts';
import {
  CONTINUAR_SAIDA,
  caminhoDaSaida,
  encerrarOutraFaceNoNavegador,
  lerBilheteDeSaida,
} from '../../http/sessoes-das-faces.ts';
import {
  apagarCookieSessao,
  cookieDeSaida,
  cookieDeVerificacao,
  gravarCookieSessao,
  lerVerificacao,
} from '../sessao.ts';

/**
 * Where a login may come back to instead of the dashboard: only the pickup app's addresses (its
 * "Entrar de novo" keeps the queue of a volunteer whose session ended). Anything else is ignored,
 * so /login is no open redirect.
 */
const VOLTAR_PERMITIDO = /^\/retirada(?:\/[0-9]{1,10}\/[0-9]{1,10}(?:\/pedido\/[0-9]{1,10})?)?$/;
const voltarPermitido = (v: string | undefined): string | null =>
  v !== undefined && VOLTAR_PERMITIDO.test(v) ? v : null;
const VOLTAR = NaConsulta.texto(
  'Depois do login, voltar a este endereço do aplicativo da retirada (/retirada…); outro valor é ignorado',
  100,
);

/** Login attempts at /auth/<name> per client address (spec, section 8). */
export const LIMITE_LOGIN = { tentativas: 5, janelaMs: 15 * 60 * 1000 } as const;
const MENSAGEM_LIMITE_LOGIN = 'Muitas tentativas de login. Tente novamente em 15 minutos.';
const DESTINO_FALHA_LOGIN = '/login?error=auth_failed';
/** The failures /login?error= explains (the browser client has a message for each). */
const ERROS_DO_LOGIN = ['auth_failed', 'outra_conta', 'email_em_uso'] as const;

const publico = { guarda: 'publico' as const };

/** Where a client address's login attempts are counted. */
const chaveDoLimite = (ip: string): string => `mercados-login:${ip}`;

/** Where a refused login sends the person: the client's /login explains each reason. */
function destinoDaRecusa(e: unknown): string {
  if (e instanceof Proibido) return '/login?error=outra_conta';
  if (e instanceof Conflito) return '/login?error=email_em_uso';
  return DESTINO_FALHA_LOGIN;
}

const Status = Type.Object({
  authenticated: Type.Boolean(),
  fuso: Type.Optional(
    Type.String({
      description:
        'Com sessão: o fuso horário da comunidade (`TZ`, ex.: America/Sao_Paulo), em que o cliente mostra os instantes',
    }),
  ),
  cestas: Type.Optional(
    Type.String({
      description:
        'Com sessão: o endereço da face Cestas, quando ela roda junto (a mesma conta entra nela sem digitar de novo)',
    }),
  ),
  user: Type.Optional(
    Type.Object({
      id: Type.Integer(),
      name: Type.String(),
      email: Type.String(),
      profiles: Type.Array(Type.Union(PROFILES.map((p) => Type.Literal(p)))),
      usuarioId: Type.Optional(
        Type.Integer({
          description: 'O cadastro (Usuario) da mesma pessoa na face Cestas, quando a conta está ligada a ele',
        }),
      ),
      acoes: Type.Object(
        {
          criarMercado: Type.Boolean(),
          gerirMercados: Type.Boolean(),
          gerirAlgumMercado: Type.Boolean(),
          listarUsuarios: Type.Boolean(),
          atribuirPerfis: Type.Boolean(),
          ofertar: Type.Boolean(),
          pedir: Type.Boolean(),
          definirMercadosDoCiclo: Type.Boolean(),
        },
        { description: 'O que a conta pode fazer na face (a política), para a navegação e as páginas do cliente' },
      ),
    }),
  ),
});

/** Login through the OAuth provider, logout, the session status and the CSRF token. */
export function rotasAutenticacao(app: AppTipada, ctx: ContextoMercados): void {
  const cookie = { seguro: ctx.cookiesSeguros };
  const verificacao = cookieDeVerificacao({ ...cookie, caminho: `${ctx.caminhoAuth}/callback` });
  const saida = cookieDeSaida(cookie);

  app.get(
    '/login',
    {
      config: publico,
      schema: {
        querystring: Consulta({
          error: NaConsulta.texto(
            `Por que o login anterior falhou (${ERROS_DO_LOGIN.join(', ')}): a página explica e oferece tentar de novo; outro valor leva ao login`,
            100,
          ),
          voltar: VOLTAR,
        }),
        response: { ...pagina, ...redirecionamento },
      },
    },
    async (req, reply) => {
      const { error } = req.query;
      // The browser client explains the failure and offers to try again.
      if (ERROS_DO_LOGIN.some((e) => e === error)) return responderShell(reply, ctx.cliente);
      const voltar = voltarPermitido(req.query.voltar);
      if (req.conta !== null) return reply.redirect(voltar ?? '/dashboard', 302);
      return reply.redirect(
        voltar === null ? ctx.caminhoAuth : `${ctx.caminhoAuth}?voltar=${encodeURIComponent(voltar)}`,
        302,
      );
    },
  );

  app.get(
    ctx.caminhoAuth,
    {
      config: publico,
      schema: {
        querystring: Consulta({ voltar: VOLTAR }),
        response: {
          ...redirecionamento,
          429: {
            description: 'Tentativas demais',
            content: {
              'application/json': { schema: Erro },
              'text/html': { schema: pagina[200].content['text/html'].schema },
            },
          },
        },
      },
    },
    async (req, reply) => {
      const agora = ctx.relogio.agora();
      const t = await ctx.limitador.contar(
        chaveDoLimite(req.ip),
        LIMITE_LOGIN.tentativas,
        LIMITE_LOGIN.janelaMs,
        agora,
      );
      if (!t.permitido) {
        reply.header('retry-after', Math.max(1, Math.ceil((t.fimDaJanela - agora.getTime()) / 1000))).code(429);
        // A person in a browser reads a page; a client that asked for JSON gets the spec's object.
        if (querHtml(req))
          return responderPagina(ctx, req, reply, {
            titulo: 'Muitas tentativas',
            conteudo: paginaErro(MENSAGEM_LIMITE_LOGIN, null),
            status: 429,
          });
        return reply.send({ error: MENSAGEM_LIMITE_LOGIN });
      }
      try {
        // After a logout in this browser the provider is asked to authenticate the person again.
        const { url, verificacao: v } = await ctx.oauth.iniciar(saiuAntes(req, saida));
        const voltar = voltarPermitido(req.query.voltar);
        gravarVerificacao(
          reply,
          ctx.cofreVerificacao,
          voltar === null ? v : { ...v, voltar },
          agora.getTime(),
          verificacao,
        );
        return reply.redirect(url.href, 302);
      } catch (e) {
        if (!(e instanceof ErroLogin)) throw e;
        req.log.error({ err: e.cause ?? e }, 'provedor de login indisponível');
        return reply.redirect(DESTINO_FALHA_LOGIN, 302);
      }
    },
  );

  // Any failure here (denied consent, forged or replayed state, code refused, provider down,
  // a profile we cannot accept) ends at /login?error=auth_failed with nothing created.
  app.get(
    `${ctx.caminhoAuth}/callback`,
    { config: publico, schema: { hide: true, querystring: ConsultaDoRetorno, response: redirecionamento } },
    async (req, reply) => {
      const agora = ctx.relogio.agora();
      const v = lerVerificacao(req, ctx.cofreVerificacao, agora.getTime());
      apagarVerificacao(reply, verificacao);
      if (v === null) {
        req.log.warn('login recusado: sem verificação (expirou, repetido ou de outro navegador)');
        return reply.redirect(DESTINO_FALHA_LOGIN, 302);
      }
      try {
        const perfil = await ctx.oauth.concluir(consultaCrua(req.url), v.desafio);
        const login = await entrarComProvedor(ctx.banco, perfil, {
          agora,
          adminEmails: ctx.config.adminEmails,
          sessaoAnterior: req.tokenSessao,
        });
        gravarCookieSessao(reply, login.sessao, cookie);
        esquecerSaida(req, reply, saida);
        // A login that completed is a person, not a guess: the address's count starts again, so a
        // pickup point's computer or a carrier's NAT is not locked by the people who do sign in.
        await ctx.limitador.zerar(chaveDoLimite(req.ip));
        req.log.info({ userId: login.conta.id, criada: login.criada }, 'login concluído');
        return reply.redirect(voltarPermitido(v.voltar) ?? '/dashboard', 302);
      } catch (e) {
        if (e instanceof ErroLogin) req.log.warn({ err: e.cause ?? e }, `login recusado: ${e.message}`);
        else if (e instanceof ErroDominio) req.log.warn({ codigo: e.codigo }, 'login recusado');
        else req.log.error({ err: e }, 'login recusado: erro inesperado');
        return reply.redirect(destinoDaRecusa(e), 302);
      }
    },
  );

  /**
   * Ends the session server-side; when that fails the session stays and the client is told.
   * NOTE: the spec's logout ends at /, so the provider's session is not ended here (Mercados keeps
   * no ID token to hint with); the mark left in the browser makes the next login ask the provider
   * to authenticate the person again instead of logging them straight back in.
   */
  async function sair(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    try {
      if (req.tokenSessao !== null) await encerrarSessao(ctx.banco, req.tokenSessao);
      // "Sair" leaves the device: the Cestas session in this browser ends too.
      await encerrarOutraFaceNoNavegador(
        'mercados',
        { banco: ctx.banco, segredos: ctx.config, seguro: ctx.cookiesSeguros, agora: ctx.relogio.agora() },
        req,
        reply,
      );
    } catch (e) {
      req.log.error({ err: e }, 'falha ao encerrar a sessão');
      return reply.code(500).send({ error: 'Não foi possível encerrar a sessão. Tente novamente.' });
    }
    apagarCookieSessao(reply, cookie);
    marcarSaida(reply, saida);
    // The Cestas face on another host name ends its session in this browser on the way.
    const destino = caminhoDaSaida({
      de: 'mercados',
      propria: ctx.baseUrl(),
      outra: ctx.enderecoCestas(),
      segredo: ctx.config.sessionSecret,
      agora: ctx.relogio.agora(),
      usuarioid: req.conta?.usuarioId ?? null,
      destino: '/',
    });
    return reply.redirect(destino, 302);
  }

  // The Cestas face's "Sair", on another host name, passes here on its way out (src/http/sessoes-das-faces.ts).
  app.get(
    CONTINUAR_SAIDA.mercados,
    {
      config: publico,
      schema: {
        hide: true,
        querystring: Consulta({
          t: Type.Optional(Type.String({ maxLength: 4096, description: 'O bilhete de saída da outra face' })),
        }),
        response: redirecionamento,
      },
    },
    async (req, reply) => {
      const bilhete =
        req.query.t === undefined
          ? null
          : lerBilheteDeSaida(req.query.t, ctx.config.sessionSecret, ctx.relogio.agora().getTime());
      if (bilhete === null) return reply.redirect('/', 302);
      if (req.tokenSessao !== null && req.conta !== null && req.conta.usuarioId === bilhete.usuarioid) {
        await encerrarSessao(ctx.banco, req.tokenSessao);
        apagarCookieSessao(reply, cookie);
        marcarSaida(reply, saida);
      }
      return reply.redirect(bilhete.destino, 302);
    },
  );

  const logout = { config: publico, schema: { response: { ...pagina, ...redirecionamento } } };
  const logoutPost = { config: publico, schema: { body: SemCorpo, response: redirecionamento } };
  for (const caminho of ['/logout', '/auth/logout']) {
    // GET stays because the spec names it. NOTE: another site could send a person here with a
    // link or a redirect; then only the confirmation page's own form (a same-origin post) ends it.
    // The handlers answer through the reply (a page, a redirect or the 500 body), so they return nothing.
    app.get(caminho, logout, async (req, reply) => {
      if (req.conta !== null && !navegacaoPropria(req)) {
        await responderPagina(ctx, req, reply, {
          titulo: 'Sair',
          conteudo: paginaConfirmarSaida(csrfDaRequisicao(ctx, req)),
        });
        return;
      }
      await sair(req, reply);
    });
    app.post(caminho, logoutPost, async (req, reply) => {
      await sair(req, reply);
    });
  }

  app.get('/auth/status', { config: publico, schema: { response: { 200: Status } } }, async (req, reply) => {
    reply.header('cache-control', 'no-store');
    const c = req.conta;
    if (c === null) return { authenticated: false };
    const pessoa = c.usuarioId === null ? {} : { usuarioId: c.usuarioId };
    const cestas = ctx.enderecoCestas();
    const face = cestas === null ? {} : { cestas };
    return {
      authenticated: true,
      // The community's calendar, not the device's: an instant reads the same wherever it is seen.
      fuso: ctx.config.tz,
      ...face,
      user: { id: c.id, name: c.name, email: c.email, profiles: [...c.profiles], ...pessoa, acoes: acoesDaConta(c) },
    };
  });

  app.get(
    '/auth/csrf',
    { config: publico, schema: { response: { 200: Type.Object({ csrfToken: Type.String() }), 401: Erro } } },
    async (req, reply) => {
      reply.header('cache-control', 'no-store');
      const csrfToken = csrfDaRequisicao(ctx, req);
      if (csrfToken === null) return reply.code(401).send({ error: 'Não autenticado' });
      return { csrfToken };
    },
  );
}
