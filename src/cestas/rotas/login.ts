import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppTipada } from '../../http/app-tipada.ts';
import { registrarSessaoEncerrada } from '../../db/sessoes-encerradas.ts';
import { Proibido } from '../../domain/erros.ts';
import {
  conferirVinculoDeLogin,
  emailVerificado,
  encerrarTodasAsSessoes,
  liberarVinculoDeLogin,
} from '../../domain/usuarios.ts';
import { atorDe, exigirAcesso, limitarLogin } from '../autenticacao.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { ErroLogin } from '../oidc.ts';
import { enviarJson, querJson, redirecionarComAviso, responder } from '../resposta.ts';
import { apagarVerificacao } from '../../http/verificacao.ts';
import { esquecerSaida, marcarSaida } from '../../http/saida.ts';
import {
  CONTINUAR_SAIDA,
  caminhoDaSaida,
  encerrarOutraFaceNoNavegador,
  lerBilheteDeSaida,
} from '../../http/sessoes-das-faces.ts';
import {
  DURACAO_SESSAO_MS,
  apagarSessao,
  cookieDeSaida,
  cookieDeVerificacao,
  gravarSessao,
  lerVerificacao,
} from '../sessao.ts';
import { paginaConfirmarSaida, paginaErroLogin, paginaSaiu } from '../views/paginas.ts';
import { navegacaoPropria } from '../../http/protecoes.ts';
import { ParamsId, escrita, leitura, navegacao } from '../esquemas/comum.ts';
import { Painel } from '../esquemas/painel-e-relatorios.ts';
import { UsuarioJson } from '../esquemas/registros.ts';
import { mostrarPainel } from './painel.ts';
import { SemCorpo } from '../../http/esquemas.ts';
import { ConsultaDoRetorno, consultaCrua } from '../../http/codigo-de-autorizacao.ts';
import { Consulta } from '../../http/consultas.ts';

function recusarLogin(req: FastifyRequest, reply: FastifyReply, mensagem: string, status = 400): FastifyReply {
  reply.code(status);
  if (querJson(req)) return reply.send({ success: false, error: mensagem });
  return responder(req, reply, {
    titulo: 'Não foi possível entrar',
    dados: null,
    corpo: () => paginaErroLogin(mensagem),
    status,
  });
}

const EMAIL_NAO_VERIFICADO =
  'O provedor de login não confirmou que este e-mail é seu. Confirme o endereço na sua conta do provedor e entre novamente.';

export function rotasLogin(app: AppTipada, ctx: ContextoCestas): void {
  const cookie = { seguro: ctx.cookiesSeguros };

  // The provider returns here. Without an authorization response there is nothing to complete:
  // the dashboard is at / (spec 4 "handled like the dashboard"), behind its own access rule. A
  // browser is sent there; a JSON client gets the dashboard's own answer (401 without a session).
  app.get(
    '/callback',
    {
      config: { acesso: 'publico' },
      schema: { hide: true, querystring: ConsultaDoRetorno, response: { ...navegacao, ...leitura(Painel) } },
    },
    async (req, reply) => {
      const { code, error, state } = req.query;
      if (code === undefined && error === undefined && state === undefined) {
        if (!querJson(req)) return reply.redirect('/', 302);
        return (await exigirAcesso(ctx, req, reply, 'painel')) ?? mostrarPainel(ctx, req, reply);
      }
      const query = consultaCrua(req.url);
      await limitarLogin(ctx, req, reply);
      const agora = ctx.relogio.agora();
      const verificacao = lerVerificacao(req, ctx.cofreVerificacao, agora.getTime());
      apagarVerificacao(reply, cookieDeVerificacao(cookie));
      if (verificacao === null) {
        return recusarLogin(req, reply, 'Este login expirou ou foi iniciado em outro navegador. Entre novamente.');
      }
      try {
        const { identidade, idToken } = await ctx.oidc.concluir(query, verificacao);
        // NOTE: accounts are found by e-mail (spec 5.A.3), so an address the provider has not
        // verified could be anyone's.
        if (!emailVerificado(identidade)) {
          req.log.warn({ sub: identidade.sub }, 'login recusado: e-mail não verificado');
          return recusarLogin(req, reply, EMAIL_NAO_VERIFICADO, 403);
        }
        const { usuario, inicio } = await conferirVinculoDeLogin(ctx.banco, identidade, agora);
        gravarSessao(reply, ctx.cofreSessao, { identidade, idToken }, inicio, cookie);
        esquecerSaida(req, reply, cookieDeSaida(cookie));
        req.log.info({ sub: identidade.sub, registrado: usuario !== undefined }, 'login concluído');
        return reply.redirect(usuario === undefined ? '/usuarionovo' : verificacao.volta, 303);
      } catch (e) {
        if (e instanceof Proibido) {
          req.log.warn({ codigo: e.codigo }, 'login recusado');
          return recusarLogin(req, reply, e.message, 403);
        }
        if (!(e instanceof ErroLogin)) throw e;
        req.log.warn({ err: e.cause ?? e }, 'login recusado');
        return recusarLogin(req, reply, e.message);
      }
    },
  );

  /**
   * Ends the session here and, through the provider's end-session address with the ID token as
   * hint, the provider's own (the development provider then ends it without asking); the mark
   * left in the browser makes the next login ask the provider again, whatever the provider did.
   */
  async function sair(req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const idToken = req.sessao?.idToken;
    const usuarioid = req.ator?.usuarioid ?? null;
    const agora = ctx.relogio.agora();
    if (req.sessao !== null)
      await registrarSessaoEncerrada(ctx.banco, req.sessao.sid, req.sessao.inicio + DURACAO_SESSAO_MS, agora);
    apagarSessao(reply, cookie);
    marcarSaida(reply, cookieDeSaida(cookie));
    // "Sair" leaves the device: the Mercados session in this browser ends too.
    await encerrarOutraFaceNoNavegador(
      'cestas',
      { banco: ctx.banco, segredos: ctx.config, seguro: ctx.cookiesSeguros, agora },
      req,
      reply,
    );
    if (querJson(req)) return enviarJson(reply, null, 'Sessão encerrada');
    const depois = `${ctx.baseUrl()}/saiu`;
    const noProvedor = idToken === undefined ? null : await ctx.oidc.urlDeSaida(idToken, depois);
    // The Mercados face on another host name ends its session in this browser on the way.
    const destino = caminhoDaSaida({
      de: 'cestas',
      propria: ctx.baseUrl(),
      outra: req.server.enderecoMercados(),
      segredo: ctx.config.sessionSecret,
      agora,
      usuarioid,
      destino: noProvedor?.href ?? '/saiu',
    });
    return reply.redirect(destino, 303);
  }

  // The Mercados face's "Sair", on another host name, passes here on its way out (src/http/sessoes-das-faces.ts).
  app.get(
    CONTINUAR_SAIDA.cestas,
    {
      config: { acesso: 'publico' },
      schema: {
        hide: true,
        querystring: Consulta({
          t: Type.Optional(Type.String({ maxLength: 4096, description: 'O bilhete de saída da outra face' })),
        }),
        response: navegacao,
      },
    },
    async (req, reply) => {
      const agora = ctx.relogio.agora();
      const bilhete =
        req.query.t === undefined ? null : lerBilheteDeSaida(req.query.t, ctx.config.sessionSecret, agora.getTime());
      if (bilhete === null) return reply.redirect('/', 303);
      if (req.sessao !== null && req.ator?.usuarioid === bilhete.usuarioid) {
        await registrarSessaoEncerrada(ctx.banco, req.sessao.sid, req.sessao.inicio + DURACAO_SESSAO_MS, agora);
        apagarSessao(reply, cookie);
        marcarSaida(reply, cookieDeSaida(cookie));
      }
      return reply.redirect(bilhete.destino, 303);
    },
  );

  // NOTE: a GET that ends a session can be triggered by any other site (a link, a redirect).
  // A browser's own navigation (typed, bookmarked or from our pages) says so in Sec-Fetch-Site;
  // any other browser request gets a page whose button posts the logout, which the CSRF check guards.
  app.get(
    '/logout',
    { config: { acesso: 'publico' }, schema: { response: { ...navegacao, ...escrita(Type.Null()) } } },
    (req, reply) => {
      if (req.sessao !== null && !navegacaoPropria(req)) {
        return responder(req, reply, {
          titulo: 'Sair',
          dados: null,
          corpo: () => paginaConfirmarSaida(req.sessao?.csrf ?? null),
        });
      }
      return sair(req, reply);
    },
  );
  app.post(
    '/logout',
    { config: { acesso: 'publico' }, schema: { body: SemCorpo, response: escrita(Type.Null()) } },
    sair,
  );

  // Ends every session of the account, this one included, on every device.
  app.post(
    '/profile/sairdetodos',
    { config: { acesso: 'painel' }, schema: { body: SemCorpo, response: escrita(Type.Null()) } },
    async (req, reply) => {
      await encerrarTodasAsSessoes(ctx.banco, atorDe(req), ctx.relogio.agora());
      return sair(req, reply);
    },
  );

  app.post(
    '/usuario/:id/liberarlogin',
    {
      config: { acesso: 'loginLiberar' },
      schema: { params: ParamsId, body: SemCorpo, response: escrita(UsuarioJson) },
    },
    async (req, reply) => {
      const { id } = req.params;
      const usuario = await liberarVinculoDeLogin(ctx.banco, atorDe(req), id, ctx.relogio.agora());
      if (querJson(req)) return enviarJson(reply, usuario, 'Login liberado');
      return redirecionarComAviso(
        reply,
        `/usuario/${id}`,
        'Login liberado: o próximo login com este e-mail fica ligado ao cadastro.',
      );
    },
  );

  app.get('/saiu', { config: { acesso: 'publico' }, schema: { response: navegacao } }, async (req, reply) =>
    responder(req, reply, { titulo: 'Até logo', dados: null, corpo: paginaSaiu }),
  );
}
