import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppTipada } from '../../http/app-tipada.ts';
import { pode } from '../../domain/acesso.ts';
import { paginaDaComposicao, salvarComposicao } from '../../domain/composicao.ts';
import { comoEntrada } from '../../http/campos.ts';
import { ComporCesta, cestaNomeada, naCesta, type ComposicaoLida } from '../../comandos/composicao.ts';
import { atorDe } from '../autenticacao.ts';
import { corpoRecebido, guardarRecebido } from '../comandos.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { tempo } from '../tempo.ts';
import { enviarJson, querJson, redirecionarComAviso, responder } from '../resposta.ts';
import type { Redesenho } from '../tipos-fastify.ts';
import { paginaComposicao } from '../views/composicao.ts';
import { composicaoJson } from '../apresentadores/composicao.ts';
import { idDaRota } from './registros.ts';
import { ParamsId, escrita, leitura } from '../esquemas/comum.ts';
import { Composicao, PaginaComposicao } from '../esquemas/painel-e-relatorios.ts';

/** Basket composition: GET/POST /composicao/:id (cycle-basket id) and POST /composicaosave. */
export function rotasComposicao(app: AppTipada, ctx: ContextoCestas): void {
  async function mostrar(
    req: FastifyRequest,
    reply: FastifyReply,
    id: number,
    falha = {
      status: 200,
      erro: null as string | null,
      detalhes: {} as Readonly<Record<string, unknown>>,
      valores: null as Readonly<Record<string, unknown>> | null,
    },
  ) {
    const pagina = await paginaDaComposicao(ctx.banco, id, tempo(ctx).hoje);
    const podeEditar = pode(atorDe(req), 'composicaoEscrever');
    return responder(req, reply, {
      titulo: `Composição: ${pagina.cicloCesta.nome}`,
      status: falha.status,
      dados: { ...composicaoJson(pagina), acoes: { editar: podeEditar } },
      corpo: () => paginaComposicao(pagina, req.sessao?.csrf ?? null, podeEditar, falha),
    });
  }

  async function salvar(req: FastifyRequest<{ Body: ComposicaoLida }>, reply: FastifyReply, idDaRota: number | null) {
    const { agora, hoje } = tempo(ctx);
    const pagina = await salvarComposicao(ctx.banco, atorDe(req), naCesta(req.body, idDaRota), agora, hoje);
    if (querJson(req)) return enviarJson(reply, composicaoJson(pagina), 'Composição salva');
    return redirecionarComAviso(reply, `/composicao/${pagina.cicloCesta.id}`, 'Composição salva.');
  }

  /** A browser gets the composition page back with the message and what it typed. */
  const redesenhar: Redesenho = async (req, reply, recusa) => {
    const enviado = corpoRecebido(req);
    const id = idDaRota(req) ?? cestaNomeada(enviado);
    if (id === null) return null;
    return mostrar(req, reply, id, {
      status: recusa.status,
      erro: recusa.mensagem,
      detalhes: recusa.detalhes,
      valores: comoEntrada(enviado),
    });
  };

  app.get(
    '/composicao/:id',
    { config: { acesso: 'composicaoLer' }, schema: { params: ParamsId, response: leitura(PaginaComposicao) } },
    (req, reply) => mostrar(req, reply, req.params.id),
  );
  app.post(
    '/composicao/:id',
    {
      config: { acesso: 'composicaoEscrever', redesenhar },
      preValidation: guardarRecebido,
      schema: { params: ParamsId, body: ComporCesta.corpo, response: escrita(Composicao) },
    },
    (req, reply) => salvar(req, reply, req.params.id),
  );
  app.post(
    '/composicaosave',
    {
      config: { acesso: 'composicaoEscrever', redesenhar },
      preValidation: guardarRecebido,
      schema: { body: ComporCesta.corpo, response: escrita(Composicao) },
    },
    (req, reply) => salvar(req, reply, null),
  );
}
