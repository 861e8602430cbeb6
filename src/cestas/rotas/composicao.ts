import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { pode } from '../../domain/acesso.ts';
import { paginaDaComposicao, salvarComposicao } from '../../domain/composicao.ts';
import { ErroDominio, Invalido } from '../../domain/erros.ts';
import { comoEntrada } from '../../domain/validacao.ts';
import { atorDe } from '../autenticacao.ts';
import { cicloCestaDoCorpo, lerComposicao } from '../entrada.ts';
import type { ContextoCestas } from '../contexto.ts';
import { enviarJson, querJson, redirecionarComAviso, responder } from '../resposta.ts';
import { paginaComposicao } from '../views/composicao.ts';
import { ParamsId } from './registros.ts';


/** Basket composition: GET/POST /composicao/:id (cycle-basket id) and POST /composicaosave. */
export function rotasComposicao(app: FastifyInstance, ctx: ContextoCestas): void {
  async function mostrar(req: FastifyRequest, reply: FastifyReply, id: number, falha = { status: 200, erro: null as string | null, detalhes: {} as Readonly<Record<string, unknown>>, valores: null as Readonly<Record<string, unknown>> | null }) {
    const pagina = await paginaDaComposicao(ctx.banco, id);
    const podeEditar = pode(atorDe(req), 'composicaoEscrever');
    return responder(req, reply, {
      titulo: `Composição: ${pagina.cicloCesta.nome}`,
      status: falha.status,
      dados: { ...pagina, acoes: { editar: podeEditar } },
      corpo: () => paginaComposicao(pagina, req.sessao?.csrf ?? null, podeEditar, falha),
    });
  }

  async function salvar(req: FastifyRequest, reply: FastifyReply, idDaRota: number | null) {
    const entrada = comoEntrada(req.body);
    try {
      const pagina = await salvarComposicao(ctx.banco, atorDe(req), lerComposicao(entrada, idDaRota), ctx.relogio.agora());
      if (querJson(req)) return enviarJson(reply, pagina, 'Composição salva');
      return redirecionarComAviso(reply, `/composicao/${pagina.cicloCesta.id}`, 'Composição salva.');
    } catch (e) {
      const id = cicloCestaDoCorpo(entrada, idDaRota);
      if (querJson(req) || !(e instanceof ErroDominio) || id === null || e.codigo === 'CICLOCESTA_NAO_ENCONTRADA') throw e;
      return mostrar(req, reply, id, { status: e instanceof Invalido ? 400 : 409, erro: e.message, detalhes: e.detalhes ?? {}, valores: entrada });
    }
  }

  app.get('/composicao/:id', { config: { acesso: 'composicaoLer' }, schema: { params: ParamsId } }, (req, reply) => mostrar(req, reply, (req.params as { id: number }).id));
  app.post('/composicao/:id', { config: { acesso: 'composicaoEscrever' }, schema: { params: ParamsId } }, (req, reply) => salvar(req, reply, (req.params as { id: number }).id));
  app.post('/composicaosave', { config: { acesso: 'composicaoEscrever' } }, (req, reply) => salvar(req, reply, null));
}
