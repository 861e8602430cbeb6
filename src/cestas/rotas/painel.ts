import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppTipada } from '../../http/app-tipada.ts';
import { pode, proximasAcoes } from '../../domain/acesso.ts';
import { entregasDoFornecedor } from '../../domain/proximos-passos.ts';
import { assinaturasDe } from '../../domain/assinaturas/leitura.ts';
import { comJanelas } from './assinaturas.ts';
import { cartaoDaAssinatura } from '../views/assinaturas.ts';
import { painelDaPessoa, pendenciasDosCiclos, type Pendencias } from '../../domain/andamento.ts';
import { ciclosDoPainel } from '../../domain/ciclos/painel.ts';
import { saldoJson } from '../apresentadores/financeiro.ts';
import { diaLocal } from '../../domain/tempo.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { responder } from '../resposta.ts';
import { atalhosDoAtor, paginaPainel } from '../views/paginas.ts';
import { leitura } from '../esquemas/comum.ts';
import { Painel } from '../esquemas/painel-e-relatorios.ts';

/** The dashboard: the current and upcoming cycles with this person's next step in each. */
export async function mostrarPainel(
  ctx: ContextoCestas,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const ator = req.ator;
  if (ator === null) throw new Error('painel sem ator: a regra de acesso não rodou');
  const hoje = diaLocal(ctx.relogio.agora(), ctx.config.tz);
  const pessoa =
    ator.usuarioid === null
      ? null
      : await painelDaPessoa(ctx.banco, { usuarioid: ator.usuarioid, perfil: ator.perfil }, hoje);
  const doPainel = pessoa?.ciclos ?? (await ciclosDoPainel(ctx.banco, hoje));
  // The coordination's pending list matters while a cycle is under way.
  const emAndamento = doPainel.filter((c) => c.fase !== 'planejado' && c.fase !== 'encerrado').map((c) => c.id);
  const [pendencias, assinaturas, entregas] = await Promise.all([
    pode(ator, 'pendenciasLer') ? pendenciasDosCiclos(ctx.banco, emAndamento) : new Map<number, Pendencias>(),
    ator.usuarioid === null || !pode(ator, 'assinaturaPropria') || ator.assinante !== true
      ? []
      : assinaturasDe(ctx.banco, ator.usuarioid, hoje).then((l) => comJanelas(ctx, l, hoje)),
    // A supplier's "deliver" step says the days the coordination set, in the cycles past their orders.
    entregasDoFornecedor(ctx.banco, ator, doPainel),
  ]);
  const saldo = pessoa?.saldo ?? null;
  // A subscriber's card: each subscription in each cycle whose order window is open now.
  const suaCesta = assinaturas.flatMap((a) =>
    a.proximosCiclos.filter((c) => c.janelaAberta).map((c) => ({ assinatura: a, ciclo: c })),
  );
  const ciclos = doPainel.map((c) => ({
    ...c,
    acoes: proximasAcoes(ator, c),
    andamento: pessoa?.andamento.get(c.id) ?? null,
    pendencias: pendencias.get(c.id) ?? null,
    entregas: entregas.get(c.id) ?? [],
  }));
  return responder(req, reply, {
    titulo: 'Painel',
    dados: {
      usuario: { id: ator.usuarioid, nome: ator.nome, email: ator.email, perfil: ator.perfil },
      hoje,
      ciclos,
      saldo: saldo === null ? null : saldoJson(saldo),
      atalhos: atalhosDoAtor(ator),
      suaCesta: suaCesta.map(({ assinatura: a, ciclo: c }) => ({
        assinaturaId: a.id,
        cicloid: c.cicloid,
        ciclo: c.nome,
        cesta: a.cesta,
        quantidade: c.quantidade,
        pontoEntrega: c.pontoEntrega,
        situacao: c.situacao,
        motivo: c.motivo,
      })),
    },
    corpo: () => paginaPainel(ator, ciclos, saldo, cartaoDaAssinatura(suaCesta, req.sessao?.csrf ?? null)),
  });
}

export function rotasPainel(app: AppTipada, ctx: ContextoCestas): void {
  app.get('/', { config: { acesso: 'painel' }, schema: { response: leitura(Painel) } }, async (req, reply) =>
    mostrarPainel(ctx, req, reply),
  );
}
