/**
 * The generation of a cycle's subscription orders, once per (subscription, cycle) across
 * processes (docs/decisions.md, "Assinaturas: o que mora onde"): for one cycle, for every cycle
 * whose order window is open, and before a one-off order (gerarAntesDoPedido), with this
 * process's memory of the cycles already generated.
 */
import { emTransacao, type Banco } from '../../db/banco.ts';
import type { SituacaoNoCiclo } from '../../db/tipos.ts';
import type { Ator } from '../acesso.ts';
import { auditar, type RegistroAuditoria } from '../auditoria.ts';
import { janelaAberta } from '../ciclos/calendario.ts';
import { cicloDasJanelas } from '../ciclos/janelas.ts';
import { pedidoDe } from '../pedidos/leituras.ts';
import { gravarLinhaDeAssinatura } from '../pedidos/linhas-de-assinatura.ts';
import { ciclosComACesta } from './leitura.ts';
import type { OpcoesAssinatura, ResumoDaGeracao } from './modelo.ts';
import { candidatosDe, ciclosAplicaveis } from './regras.ts';
import { cestaDaAssinatura, cestasDoCiclo, motivoParaNaoServir } from './servir.ts';

// ---------------------------------------------------------------------------------------------
// Generation

/** The generation's own actor in the audit trail. */
const GERACAO: Ator = {
  email: 'sistema:assinaturas',
  nome: 'Geração das assinaturas',
  usuarioid: null,
  perfil: [],
  ativo: true,
};

/**
 * Generates the cycle's subscription orders, once per (subscription, cycle), while its order
 * window is open (outside it, nothing happens). In ONE transaction holding the locks the order
 * rule uses (the cycle, then its baskets), each active subscription the cycle applies to and that
 * has no row for the cycle yet, in order of subscription (createdAt, id): its assinaturaciclo row
 * goes in first (ON CONFLICT DO NOTHING: when it was already there another process did it, and it
 * is skipped), then it is `pausado`, `faltou` (with the reason; no partial order, and later
 * subscriptions may still be served) or `gerado`: its basket line, at the basket's price and with
 * the market's fee as salvarPedido records them, in the consumer's order (created at its point
 * and confirmed, or the existing one). Audited; the receipt goes out when `avisos` is given.
 */
export async function gerarPedidosDoCiclo(
  banco: Banco,
  cicloid: number,
  opcoes: OpcoesAssinatura,
): Promise<ResumoDaGeracao> {
  let aberto = false;
  const resumo = await emTransacao(banco, async (trx) => {
    const ciclo = await cicloDasJanelas(trx, cicloid, 'pedido');
    const nada = { gerados: 0, faltaram: [], pulados: 0, pausados: 0 };
    if (!ciclo.ativo || ciclo.fechadoEm !== null || !janelaAberta(ciclo, opcoes.hoje, 'pedido')) return nada;
    aberto = true;
    const cestas = await cestasDoCiclo(trx, cicloid, false);
    if (cestas.length === 0) return nada;
    const pendentes = await trx
      .selectFrom('assinatura as a')
      .innerJoin('usuario as u', 'u.id', 'a.usuarioid')
      .select([
        'a.id',
        'a.usuarioid',
        'u.nome as consumidor',
        'a.cestaId',
        'a.quantidade',
        'a.pontoEntregaId',
        'a.frequencia',
        'a.inicio',
        'a.fim',
        'a.mercadoId',
      ])
      .where('a.ativa', '=', true)
      .where('a.cestaId', 'in', [...new Set(cestas.map((c) => c.cestaId))])
      .where((eb) =>
        eb.not(
          eb.exists(
            eb
              .selectFrom('assinaturaciclo as ac')
              .select('ac.id')
              .whereRef('ac.assinaturaId', '=', 'a.id')
              .where('ac.cicloid', '=', cicloid),
          ),
        ),
      )
      .orderBy('a.createdAt')
      .orderBy('a.id')
      .execute();
    const pulados = Number(
      (
        await trx
          .selectFrom('assinaturaciclo')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('cicloid', '=', cicloid)
          .where('situacao', '=', 'pulado')
          .executeTakeFirstOrThrow()
      ).n,
    );
    if (pendentes.length === 0) return { ...nada, pulados };
    const [ciclos, pausas] = await Promise.all([
      ciclosComACesta(
        trx,
        pendentes.map((a) => a.cestaId),
      ),
      trx
        .selectFrom('assinaturapausa')
        .select(['assinaturaId', 'inicio', 'fim'])
        .where(
          'assinaturaId',
          'in',
          pendentes.map((a) => a.id),
        )
        .execute(),
    ]);
    const iso = opcoes.agora.toISOString();
    let gerados = 0;
    let pausados = 0;
    const faltaram: Array<{ assinaturaId: number; consumidor: string; motivo: string }> = [];
    const pontos = new Map<string, string | null>();
    const registros: RegistroAuditoria[] = [];
    for (const a of pendentes) {
      const cc = cestaDaAssinatura(a, cestas);
      const aqui = ciclosAplicaveis(
        { ...a, pausas: pausas.filter((p) => p.assinaturaId === a.id) },
        candidatosDe(a, ciclos),
      ).find((x) => x.cicloid === cicloid);
      if (cc === undefined || aqui === undefined) continue;
      const motivo =
        aqui.situacao === 'pausado'
          ? null
          : await motivoParaNaoServir(trx, cicloid, cc, a.quantidade, a.pontoEntregaId, 0, pontos);
      const situacao: SituacaoNoCiclo = aqui.situacao === 'pausado' ? 'pausado' : motivo !== null ? 'faltou' : 'gerado';
      const linha = await trx
        .insertInto('assinaturaciclo')
        .values({
          assinaturaId: a.id,
          cicloid,
          situacao,
          quantidade: a.quantidade,
          pontoEntregaId: a.pontoEntregaId,
          motivo,
          pedidoId: null,
          createdAt: iso,
          updatedAt: iso,
        })
        .onConflict((oc) => oc.columns(['assinaturaId', 'cicloid']).doNothing())
        .returning('id')
        .executeTakeFirst();
      // Another process generated this one meanwhile.
      if (linha === undefined) continue;
      if (situacao === 'pausado') pausados++;
      else if (situacao === 'faltou')
        faltaram.push({ assinaturaId: a.id, consumidor: a.consumidor, motivo: motivo ?? '' });
      else {
        const { pedidoId } = await gravarLinhaDeAssinatura(
          trx,
          {
            cicloid,
            usuarioid: a.usuarioid,
            pontoEntregaId: a.pontoEntregaId,
            cicloCestaId: cc.id,
            quantidadeMilesimos: a.quantidade * 1000,
            valorCentavos: cc.valorReferenciaCentavos,
            mercadoId: cc.mercadoId,
            taxaCentesimos: cc.taxaCentesimos,
            assinaturaId: a.id,
          },
          opcoes,
        );
        cc.reservadoMilesimos += a.quantidade * 1000;
        await trx.updateTable('assinaturaciclo').set({ pedidoId }).where('id', '=', linha.id).execute();
        gerados++;
        if (opcoes.avisos !== undefined) {
          const pedido = await pedidoDe(trx, cicloid, a.usuarioid, opcoes.taxa);
          if (pedido !== null) await opcoes.avisos.emitir(trx, { tipo: 'recibo', pedido });
        }
      }
      registros.push({
        acao: `gerar (${situacao})`,
        entidade: 'assinatura',
        entidadeId: a.id,
        depois: { cicloid, situacao, quantidade: a.quantidade, motivo },
      });
    }
    await auditar(trx, GERACAO, opcoes.agora, registros);
    return { gerados, faltaram, pulados, pausados };
  });
  // Only a generation inside the window settles the cycle: before it opens, nothing was generated.
  if (aberto) marcarGerado(banco, cicloid);
  return resumo;
}

/** Generation for every cycle whose order window is open today (offering one of `cestaIds`, when given). */
export async function gerarOndeAberto(
  banco: Banco,
  cestaIds: readonly number[] | null,
  opcoes: OpcoesAssinatura,
): Promise<Map<number, ResumoDaGeracao>> {
  let q = banco
    .selectFrom('ciclo as c')
    .select('c.id')
    .where('c.ativo', '=', true)
    .where('c.fechadoEm', 'is', null)
    .where('c.dataPedidoInicio', '<=', opcoes.hoje)
    .where('c.dataPedidoFim', '>=', opcoes.hoje)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('assinatura as a')
          .innerJoin('ciclocesta as cc', 'cc.cestaId', 'a.cestaId')
          .select('a.id')
          .whereRef('cc.cicloid', '=', 'c.id')
          .where('a.ativa', '=', true),
      ),
    );
  if (cestaIds !== null)
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('ciclocesta as cc')
          .select('cc.id')
          .whereRef('cc.cicloid', '=', 'c.id')
          .where('cc.cestaId', 'in', [...cestaIds, -1]),
      ),
    );
  const resumos = new Map<number, ResumoDaGeracao>();
  for (const c of await q.orderBy('c.dataPedidoInicio').orderBy('c.id').execute())
    resumos.set(c.id, await gerarPedidosDoCiclo(banco, c.id, opcoes));
  return resumos;
}

// Per process and database: the cycles whose subscriptions were generated since the last
// subscription change here. A one-off order in one of them needs no look at the subscriptions.
const gerados = new WeakMap<Banco, Set<number>>();

function marcarGerado(banco: Banco, cicloid: number): void {
  const s = gerados.get(banco) ?? new Set<number>();
  s.add(cicloid);
  gerados.set(banco, s);
}

export function esquecerGeracoes(banco: Banco): void {
  gerados.delete(banco);
}

/**
 * Subscriptions go first: called by fazerPedido before a one-off order takes stock. Once per
 * process and cycle (until a subscription changes here) it reads the cycle with one indexed
 * EXISTS: an active subscription of a basket the cycle offers with no row for the cycle yet; with
 * the order window open, it generates the cycle when there is one. Only an open window is
 * remembered: from then on a subscription saved in any process is generated there at once, so
 * nothing can be pending here that this process does not know of (the periodic round catches
 * the rest, such as a basket added to the cycle later).
 */
export async function gerarAntesDoPedido(banco: Banco, cicloid: number, opcoes: OpcoesAssinatura): Promise<void> {
  if (gerados.get(banco)?.has(cicloid) === true) return;
  const ciclo = await banco
    .selectFrom('ciclo as c')
    .select(['c.ativo', 'c.fechadoEm', 'c.dataPedidoInicio', 'c.dataPedidoFim'])
    .select((eb) =>
      eb
        .exists(
          eb
            .selectFrom('ciclocesta as cc')
            .innerJoin('assinatura as a', 'a.cestaId', 'cc.cestaId')
            .select('a.id')
            .whereRef('cc.cicloid', '=', 'c.id')
            .where('a.ativa', '=', true)
            .where((eb2) =>
              eb2.not(
                eb2.exists(
                  eb2
                    .selectFrom('assinaturaciclo as ac')
                    .select('ac.id')
                    .whereRef('ac.assinaturaId', '=', 'a.id')
                    .where('ac.cicloid', '=', cicloid),
                ),
              ),
            ),
        )
        .as('pendente'),
    )
    .where('c.id', '=', cicloid)
    .executeTakeFirst();
  if (
    ciclo === undefined ||
    !ciclo.ativo ||
    ciclo.fechadoEm !== null ||
    !(opcoes.hoje >= ciclo.dataPedidoInicio && opcoes.hoje <= ciclo.dataPedidoFim)
  )
    return;
  if (Number(ciclo.pendente) !== 0) await gerarPedidosDoCiclo(banco, cicloid, opcoes);
  else marcarGerado(banco, cicloid);
}
