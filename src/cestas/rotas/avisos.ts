import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parametrosDa, type AppTipada } from '../../http/app-tipada.ts';
import {
  ESTADOS_DA_MENSAGEM,
  avisosQueRecebe,
  caixaDeSaida,
  deixarDeReceber,
  definirAvisos,
  mensagemDaCoordenacao,
  pessoasDoCiclo,
} from '../../domain/avisos.ts';
import { pode } from '../../domain/acesso.ts';
import { Conflito, NaoEncontrado } from '../../domain/erros.ts';
import { comoEntrada } from '../../http/campos.ts';
import { Consulta, NaConsulta } from '../../http/consultas.ts';
import { html } from '../../http/html.ts';
import { Corpo, SemCorpo } from '../../http/esquemas.ts';
import { atorDe } from '../autenticacao.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { EnviarMensagem, EscolherAvisos } from '../../comandos/avisos.ts';
import { corpoRecebido, guardarRecebido } from '../comandos.ts';
import { enviarJson, querJson, redirecionarComAviso, responder } from '../resposta.ts';
import { ParamsId, escrita, leitura, navegacao } from '../esquemas/comum.ts';
import { errosDeCampo } from './registros.ts';
import { formularioMensagem, paginaAvisos, paginaCaixaDeSaida, paginaDeixarDeReceber } from '../views/avisos.ts';
import { mercadosDoCiclo } from '../../domain/mercados-do-ciclo/comum.ts';

const Escolha = Type.Object({
  recebe: Type.Array(Type.String(), { description: 'Os avisos opcionais que a pessoa recebe' }),
  ligado: Type.Boolean({ description: 'Se o serviço envia e-mails' }),
});
const Caixa = Type.Object({
  mensagens: Type.Array(
    Type.Object({
      id: Type.Integer(),
      tipo: Type.String(),
      para: Type.String(),
      assunto: Type.String(),
      estado: Type.String(),
      tentativas: Type.Integer(),
      ultimoErro: Type.Union([Type.String(), Type.Null()]),
      criadaEm: Type.String(),
      enviadaEm: Type.Union([Type.String(), Type.Null()]),
      proximaTentativa: Type.String(),
    }),
  ),
  porEstado: Type.Record(Type.String(), Type.Integer()),
  ligado: Type.Boolean(),
});
const ParamsToken = Type.Object({ token: Type.String({ maxLength: 200 }) });
const Enviada = Type.Object({ destinatarios: Type.Integer() });

/**
 * E-mail from the people's side: one's choice of optional kinds (/profile/avisos), the link in
 * every optional message that turns its kind off without a login (/avisos/sair/:token, also the
 * RFC 8058 one-click POST), the admins' outbox (/mensagens) and the coordination's message to a
 * cycle (/ciclo/:id/mensagem).
 */
export function rotasAvisos(app: AppTipada, ctx: ContextoCestas): void {
  const { correio } = ctx;

  async function escolha(req: FastifyRequest, reply: FastifyReply) {
    const ator = atorDe(req);
    const recebe = await avisosQueRecebe(ctx.banco, ator.usuarioid ?? 0);
    return responder(req, reply, {
      titulo: 'Avisos por e-mail',
      dados: { recebe, ligado: correio.ligado },
      corpo: () => paginaAvisos(recebe, req.sessao?.csrf ?? null, correio.ligado),
    });
  }

  app.get('/profile/avisos', { config: { acesso: 'painel' }, schema: { response: leitura(Escolha) } }, escolha);

  app.post(
    '/profile/avisos',
    { config: { acesso: 'painel' }, schema: { body: EscolherAvisos.corpo, response: escrita(Escolha) } },
    async (req, reply) => {
      const recebe = await definirAvisos(ctx.banco, atorDe(req), req.body, ctx.relogio.agora());
      if (querJson(req)) return enviarJson(reply, { recebe, ligado: correio.ligado }, 'Avisos salvos');
      return redirecionarComAviso(reply, '/profile/avisos', 'Avisos salvos.');
    },
  );

  /** The token's person and kind, or a 400 page that says the link is not valid. */
  function doToken(token: string) {
    const aberto = correio.abrirTokenDeCancelar(token);
    if (aberto === null)
      throw new NaoEncontrado(
        'LINK_INVALIDO',
        'Este link para deixar de receber avisos não é válido: use o link do e-mail, ou escolha seus avisos em Meu perfil',
      );
    return aberto;
  }

  app.get(
    '/avisos/sair/:token',
    { config: { acesso: 'publico' }, schema: { params: ParamsToken, response: navegacao } },
    async (req, reply) => {
      const { tipo } = doToken(req.params.token);
      return responder(req, reply, {
        titulo: 'Deixar de receber',
        dados: null,
        corpo: () => paginaDeixarDeReceber(req.params.token, tipo, false),
      });
    },
  );

  // The page's button and a mail program's one-click (body "List-Unsubscribe=One-Click") land here.
  app.post(
    '/avisos/sair/:token',
    {
      config: { acesso: 'publico' },
      schema: {
        params: ParamsToken,
        body: Corpo({}, 'Nada, ou List-Unsubscribe=One-Click'),
        response: { ...navegacao, ...escrita(Type.Null()) },
      },
    },
    async (req, reply) => {
      const { usuarioid, tipo } = doToken(req.params.token);
      await deixarDeReceber(ctx.banco, usuarioid, tipo, ctx.relogio.agora());
      if (querJson(req)) return enviarJson(reply, null, 'Você não recebe mais este aviso');
      return responder(req, reply, {
        titulo: 'Deixar de receber',
        dados: null,
        corpo: () => paginaDeixarDeReceber(req.params.token, tipo, true),
      });
    },
  );

  app.get(
    '/mensagens',
    {
      config: { acesso: 'mensagensLer' },
      schema: {
        querystring: Consulta({ estado: NaConsulta.umDe(ESTADOS_DA_MENSAGEM, 'Só as mensagens neste estado') }),
        response: leitura(Caixa),
      },
    },
    async (req, reply) => {
      const estado = req.query.estado ?? null;
      const caixa = await caixaDeSaida(ctx.banco, estado);
      return responder(req, reply, {
        titulo: 'E-mails enviados',
        dados: { ...caixa, ligado: correio.ligado },
        corpo: () =>
          paginaCaixaDeSaida(
            caixa,
            estado,
            req.sessao?.csrf ?? null,
            pode(atorDe(req), 'mensagensEnviar'),
            correio.ligado,
            ctx.config.tz,
          ),
      });
    },
  );

  app.post(
    '/mensagens/:id/reenviar',
    {
      config: { acesso: 'mensagensEnviar' },
      schema: { params: ParamsId, body: SemCorpo, response: escrita(Type.Null()) },
    },
    async (req, reply) => {
      if (!(await correio.reenviar(req.params.id)))
        throw new NaoEncontrado('MENSAGEM_NAO_ENCONTRADA', 'Não há mensagem enviada ou com falha com este número');
      if (querJson(req)) return enviarJson(reply, null, 'Mensagem de volta à fila');
      return redirecionarComAviso(reply, '/mensagens', 'Mensagem de volta à fila: sai em instantes.');
    },
  );

  async function formMensagem(
    req: FastifyRequest,
    reply: FastifyReply,
    id: number,
    valores: Record<string, unknown>,
    erros: Readonly<Record<string, unknown>>,
    status = 200,
  ) {
    const ciclo = await ctx.banco.selectFrom('ciclo').select(['id', 'nome']).where('id', '=', id).executeTakeFirst();
    if (ciclo === undefined) throw new NaoEncontrado('CICLO_NAO_ENCONTRADO', `Não encontramos o ciclo ${id}`);
    const destinatarios = (await pessoasDoCiclo(ctx.banco, id)).length;
    const mercados = await Promise.all(
      (await mercadosDoCiclo(ctx.banco, id)).map(async (m) => ({
        id: m.mercadoId,
        nome: m.nome,
        compradores: (await pessoasDoCiclo(ctx.banco, id, m.mercadoId)).length,
      })),
    );
    return responder(req, reply, {
      titulo: `Mensagem ao ${ciclo.nome}`,
      status,
      dados: { destinatarios },
      corpo: () =>
        html`${formularioMensagem(ciclo, destinatarios, mercados, valores, erros, req.sessao?.csrf ?? null, correio.ligado)}`,
    });
  }

  app.get(
    '/ciclo/:id/mensagem',
    { config: { acesso: 'mensagensEnviar' }, schema: { params: ParamsId, response: leitura(Enviada) } },
    (req, reply) => formMensagem(req, reply, req.params.id, {}, {}),
  );

  app.post(
    '/ciclo/:id/mensagem',
    {
      config: {
        acesso: 'mensagensEnviar',
        redesenhar: async (req, reply, recusa) => {
          const erros = errosDeCampo(recusa) ?? { geral: recusa.mensagem };
          const { id } = parametrosDa(req, ParamsId);
          return formMensagem(req, reply, id, { ...comoEntrada(corpoRecebido(req)) }, erros, recusa.status);
        },
      },
      preValidation: guardarRecebido,
      schema: { params: ParamsId, body: EnviarMensagem.corpo, response: escrita(Enviada) },
    },
    async (req, reply) => {
      const { id } = req.params;
      const m = req.body;
      if (!correio.ligado)
        throw new Conflito(
          'EMAIL_DESLIGADO',
          'O envio de e-mails está desligado neste serviço (sem SMTP_URL): a mensagem não seria entregue',
        );
      const destinatarios = await mensagemDaCoordenacao(ctx.banco, atorDe(req), id, m, correio, ctx.relogio.agora());
      const aviso = `Mensagem enviada a ${destinatarios === 1 ? '1 pessoa' : `${destinatarios} pessoas`}.`;
      if (querJson(req)) return enviarJson(reply, { destinatarios }, aviso);
      return redirecionarComAviso(reply, `/ciclo/${id}`, aviso);
    },
  );
}
