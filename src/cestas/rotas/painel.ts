import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppTipada } from '../../http/app-tipada.ts';
import { proximasAcoes } from '../../domain/acesso.ts';
import { ciclosDoPainel } from '../../domain/ciclos.ts';
import { saldoDe } from '../../domain/financeiro.ts';
import { saldoJson } from '../apresentadores/financeiro.ts';
import { diaLocal } from '../../domain/tempo.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { responder } from '../resposta.ts';
import { atalhosDoAtor, paginaPainel } from '../views/paginas.ts';
import { Painel, leitura } from '../esquemas.ts';

/** The dashboard: the current and upcoming cycles with this person's next step in each. */
export async function mostrarPainel(ctx: ContextoCestas, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const ator = req.ator;
  if (ator === null) throw new Error('painel sem ator: a regra de acesso não rodou');
  const hoje = diaLocal(ctx.relogio.agora(), ctx.config.tz);
  const ciclos = (await ciclosDoPainel(ctx.banco, hoje)).map((c) => ({ ...c, acoes: proximasAcoes(ator, c) }));
  const saldo = ator.usuarioid === null ? null : await saldoDe(ctx.banco, ator.usuarioid);
  return responder(req, reply, {
    titulo: 'Painel',
    dados: { usuario: { id: ator.usuarioid, nome: ator.nome, email: ator.email, perfil: ator.perfil }, hoje, ciclos, saldo: saldo === null ? null : saldoJson(saldo), atalhos: atalhosDoAtor(ator) },
    corpo: () => paginaPainel(ator, ciclos, saldo),
  });
}

export function rotasPainel(app: AppTipada, ctx: ContextoCestas): void {
  app.get('/', { config: { acesso: 'painel' }, schema: { response: leitura(Painel) } }, async (req, reply) => mostrarPainel(ctx, req, reply));
}
