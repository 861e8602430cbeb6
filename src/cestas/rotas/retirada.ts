import type { FastifyReply, FastifyRequest } from 'fastify';
import { parametrosDa, type AppTipada } from '../../http/app-tipada.ts';
import { NomearVoluntarios } from '../../comandos/ciclo.ts';
import { pode } from '../../domain/acesso.ts';
import { nomearVoluntarios } from '../../domain/retirada/voluntarios.ts';
import { comoEntrada } from '../../http/campos.ts';
import { atorDe } from '../autenticacao.ts';
import { corpoRecebido, guardarRecebido } from '../comandos.ts';
import { errosDeCampo } from './registros.ts';
import { NaoEncontrado } from '../../domain/erros.ts';
import { enderecoDoQr, pedidoDoQr, qrSvgDoEndereco } from '../../domain/retirada/recibo.ts';
import { resumoDaRetirada } from '../../domain/retirada/resumo.ts';
import { chaveDaRetirada, pedidoDoToken } from '../../domain/retirada/token.ts';
import { ErroHttp } from '../../http/erros.ts';
import { pedidoDoQrJson, resumoDaRetiradaJson } from '../apresentadores/retirada.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { enviarJson, querJson, redirecionarComAviso, responder } from '../resposta.ts';
import { tempo } from '../tempo.ts';
import { escrita, leitura } from '../esquemas/comum.ts';
import {
  ParamsCicloDaRetirada,
  ParamsTokenDaRetirada,
  PedidoDoQrJson,
  ResumoDaRetiradaJson,
  VoluntariosDoPontoJson,
} from '../esquemas/retirada.ts';
import { paginaDaRetirada, paginaDoQr, type VoluntariosRecusados } from '../views/retirada.ts';

/**
 * The QR page answers without a login, so it is counted per client address (in the database or
 * Redis, across processes). NOTE: generous, as the login's: a community shares one address at the
 * pickup point's Wi-Fi; a token itself is far beyond guessing (token.ts).
 */
export const LIMITE_DO_QR = { consultas: 120, janelaMs: 15 * 60 * 1000 } as const;

async function limitarQr(ctx: ContextoCestas, req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const agora = ctx.relogio.agora();
  const t = await ctx.limitador.contar(`cestas-qr:${req.ip}`, LIMITE_DO_QR.consultas, LIMITE_DO_QR.janelaMs, agora);
  if (!t.permitido) {
    reply.header('retry-after', Math.max(1, Math.ceil((t.fimDaJanela - agora.getTime()) / 1000)));
    throw new ErroHttp(429, 'MUITAS_CONSULTAS', 'Muitas consultas deste endereço. Tente de novo em alguns minutos.');
  }
}

/**
 * The pickup day on the Cestas face (docs/dominio.md, "A retirada"): the page a receipt's QR code
 * opens, with that order only and no login (GET /retirada/pedido/:token), and the coordination's
 * view of a cycle's pickup, point by point, live as the phones sync (GET /retirada/:cicloId). The
 * pickup app itself is the Mercados face's /retirada.
 */
export function rotasRetirada(app: AppTipada, ctx: ContextoCestas): void {
  const chave = chaveDaRetirada(ctx.config.sessionSecret);

  app.get(
    '/retirada/pedido/:token',
    {
      config: { acesso: 'publico' },
      schema: { params: ParamsTokenDaRetirada, response: leitura(PedidoDoQrJson) },
    },
    async (req, reply) => {
      await limitarQr(ctx, req, reply);
      // The address is the key to the order: kept out of caches and search engines.
      reply.header('cache-control', 'no-store').header('x-robots-tag', 'noindex, nofollow');
      const pedidoId = pedidoDoToken(chave, req.params.token);
      const pedido = pedidoId === null ? null : await pedidoDoQr(ctx.banco, pedidoId, ctx.config.taxa);
      if (pedido === null)
        throw new NaoEncontrado(
          'QR_INVALIDO',
          'Este código de retirada não é válido: use o QR code ou o link do recibo do seu pedido, por e-mail',
        );
      const qr = await qrSvgDoEndereco(enderecoDoQr(ctx.baseUrl(), req.params.token));
      return responder(req, reply, {
        titulo: 'Seu pedido na retirada',
        dados: pedidoDoQrJson(pedido),
        corpo: () => paginaDoQr(pedido, qr, ctx.config.tz),
      });
    },
  );

  /** The coordination's view: the points live, and (for who may name them) each point's volunteers form. */
  async function paginaDoCiclo(
    req: FastifyRequest,
    reply: FastifyReply,
    cicloid: number,
    recusa: VoluntariosRecusados | null = null,
    status = 200,
  ): Promise<FastifyReply> {
    const { agora, hoje } = tempo(ctx);
    const resumo = await resumoDaRetirada(ctx.banco, cicloid, { hoje, taxa: ctx.config.taxa });
    const geradoEm = agora.toISOString();
    // Polled every 10 s by the page's script: always read fresh, and a JSON that did not change
    // since the version the script holds is a 304 with no body (the points of 300 orders are
    // some 200 KB).
    reply.header('cache-control', 'no-store');
    if (querJson(req)) {
      const etag = `"${resumo.versao}"`;
      reply.header('etag', etag).header('vary', 'Accept');
      const pedida = req.headers['if-none-match'];
      if (pedida !== undefined && pedida.split(',').some((t) => t.trim().replace(/^W\//, '') === etag))
        return reply.code(304).send();
    }
    const nomear = pode(atorDe(req), 'voluntariosNomear');
    return responder(req, reply, {
      titulo: `Retirada: ${resumo.nome}`,
      status,
      dados: resumoDaRetiradaJson(resumo, geradoEm),
      corpo: () =>
        paginaDaRetirada(resumo, {
          fuso: ctx.config.tz,
          geradoEm,
          app: req.server.enderecoMercados(),
          voluntarios: nomear ? { csrf: req.sessao?.csrf ?? null, recusa } : null,
        }),
    });
  }

  app.get(
    '/retirada/:cicloId',
    {
      config: { acesso: 'retiradaAcompanhar' },
      schema: {
        params: ParamsCicloDaRetirada,
        response: {
          ...leitura(ResumoDaRetiradaJson),
          304: { description: 'JSON: nada mudou desde a versão que o If-None-Match traz (o ETag é a versão)' },
        },
      },
    },
    (req, reply) => paginaDoCiclo(req, reply, req.params.cicloId),
  );

  app.post(
    '/retirada/:cicloId/voluntarios',
    {
      config: {
        acesso: 'voluntariosNomear',
        // A refused form comes back as the view, the error under that point's field, with what was typed.
        redesenhar: async (req, reply, recusa) => {
          const { cicloId } = parametrosDa(req, ParamsCicloDaRetirada);
          const enviado = comoEntrada(corpoRecebido(req));
          const ponto = Number(enviado.pontoEntregaId);
          const erros = Object.fromEntries(
            Object.entries(errosDeCampo(recusa) ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'),
          );
          return paginaDoCiclo(
            req,
            reply,
            cicloId,
            {
              pontoEntregaId: Number.isSafeInteger(ponto) ? ponto : null,
              valor: typeof enviado.voluntarios === 'string' ? enviado.voluntarios : '',
              erros,
              geral: Object.keys(erros).length === 0 ? recusa.mensagem : null,
            },
            recusa.status,
          );
        },
      },
      preValidation: guardarRecebido,
      schema: {
        params: ParamsCicloDaRetirada,
        body: NomearVoluntarios.corpo,
        response: escrita(VoluntariosDoPontoJson),
      },
    },
    async (req, reply) => {
      const { cicloId } = req.params;
      const voluntarios = await nomearVoluntarios(ctx.banco, atorDe(req), cicloId, req.body, ctx.relogio.agora());
      const aviso = 'Voluntários salvos.';
      if (querJson(req)) return enviarJson(reply, { pontoEntregaId: req.body.pontoEntregaId, voluntarios }, aviso);
      // Back at the top of the view: the message, and the point's card naming who was saved.
      return redirecionarComAviso(reply, `/retirada/${cicloId}`, aviso);
    },
  );
}
