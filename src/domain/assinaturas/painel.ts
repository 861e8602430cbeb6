/**
 * The coordinator's view of subscriptions: every one (with what was paid in advance for it) and
 * the totals per basket type and per point, and who went without their basket in a cycle.
 */
import type { Db } from '../../db/banco.ts';
import type { Assinatura } from './modelo.ts';
import { assinaturaDoPagamento, PREFIXO_DO_PAGAMENTO } from './regras.ts';

export interface PainelDeAssinaturas {
  readonly assinaturas: ReadonlyArray<
    Assinatura & {
      readonly consumidor: string;
      readonly cesta: string;
      readonly pontoEntrega: string;
      readonly mercado: string | null;
      /** The season payments recorded for the subscription (registrarPagamentoDaTemporada), summed. */
      readonly pagoAdiantadoCentavos: number;
    }
  >;
  /** Active subscriptions and baskets per cycle, per basket type (with its cap). */
  readonly porCesta: ReadonlyArray<{
    readonly cestaId: number;
    readonly nome: string;
    readonly assinaturas: number;
    readonly cestas: number;
    readonly limite: number | null;
  }>;
  /** Active subscriptions and baskets per cycle, per pickup point. */
  readonly porPonto: ReadonlyArray<{
    readonly pontoEntregaId: number;
    readonly nome: string;
    readonly assinaturas: number;
    readonly cestas: number;
  }>;
}

/** Every subscription (active first) with totals per basket type and per pickup point, for the coordinator. */
export async function assinaturasParaAdmin(db: Db): Promise<PainelDeAssinaturas> {
  const linhas = await db
    .selectFrom('assinatura as a')
    .innerJoin('usuario as u', 'u.id', 'a.usuarioid')
    .innerJoin('cesta', 'cesta.id', 'a.cestaId')
    .innerJoin('pontoentrega as pe', 'pe.id', 'a.pontoEntregaId')
    .leftJoin('mercado as m', 'm.id', 'a.mercadoId')
    .select([
      'a.id',
      'a.usuarioid',
      'a.cestaId',
      'a.quantidade',
      'a.pontoEntregaId',
      'a.frequencia',
      'a.inicio',
      'a.fim',
      'a.mercadoId',
      'a.ativa',
      'a.createdAt',
    ])
    .select([
      'u.nome as consumidor',
      'cesta.nome as cesta',
      'cesta.limiteAssinaturas',
      'pe.nome as pontoEntrega',
      'm.nome as mercado',
    ])
    .orderBy('a.ativa', 'desc')
    .orderBy('a.createdAt')
    .orderBy('a.id')
    .execute();
  const [pausas, pagamentos] =
    linhas.length === 0
      ? [[], []]
      : await Promise.all([
          db
            .selectFrom('assinaturapausa')
            .select(['id', 'assinaturaId', 'inicio', 'fim'])
            .orderBy('inicio')
            .orderBy('id')
            .execute(),
          db
            .selectFrom('movimentacao')
            .select(['chave', 'valorCentavos'])
            .where('chave', 'like', `${PREFIXO_DO_PAGAMENTO}%`)
            .where('sentido', '=', 'credito')
            .execute(),
        ]);
  const pagoAdiantado = new Map<number, number>();
  for (const m of pagamentos) {
    const id = assinaturaDoPagamento(m.chave);
    if (id !== null) pagoAdiantado.set(id, (pagoAdiantado.get(id) ?? 0) + m.valorCentavos);
  }
  const porCesta = new Map<
    number,
    { cestaId: number; nome: string; assinaturas: number; cestas: number; limite: number | null }
  >();
  const porPonto = new Map<number, { pontoEntregaId: number; nome: string; assinaturas: number; cestas: number }>();
  for (const l of linhas) {
    if (!l.ativa) continue;
    const c = porCesta.get(l.cestaId) ?? {
      cestaId: l.cestaId,
      nome: l.cesta,
      assinaturas: 0,
      cestas: 0,
      limite: l.limiteAssinaturas,
    };
    c.assinaturas++;
    c.cestas += l.quantidade;
    porCesta.set(l.cestaId, c);
    const p = porPonto.get(l.pontoEntregaId) ?? {
      pontoEntregaId: l.pontoEntregaId,
      nome: l.pontoEntrega,
      assinaturas: 0,
      cestas: 0,
    };
    p.assinaturas++;
    p.cestas += l.quantidade;
    porPonto.set(l.pontoEntregaId, p);
  }
  const porNome = <T extends { nome: string }>(a: T, b: T) => a.nome.localeCompare(b.nome, 'pt-BR');
  return {
    assinaturas: linhas.map(({ limiteAssinaturas: _limite, ...l }) => ({
      ...l,
      ativa: Boolean(l.ativa),
      pausas: pausas.filter((p) => p.assinaturaId === l.id).map(({ id, inicio, fim }) => ({ id, inicio, fim })),
      pagoAdiantadoCentavos: pagoAdiantado.get(l.id) ?? 0,
    })),
    porCesta: [...porCesta.values()].sort(porNome),
    porPonto: [...porPonto.values()].sort(porNome),
  };
}

export interface FaltaNoCiclo {
  readonly assinaturaId: number;
  readonly usuarioid: number;
  readonly consumidor: string;
  readonly cesta: string;
  readonly quantidade: number;
  readonly pontoEntregaId: number;
  readonly motivo: string;
}

/** Who was not served in a cycle and why (situacao faltou), in order of subscription, for the coordinator. */
export async function faltasDoCiclo(db: Db, cicloid: number): Promise<FaltaNoCiclo[]> {
  const linhas = await db
    .selectFrom('assinaturaciclo as ac')
    .innerJoin('assinatura as a', 'a.id', 'ac.assinaturaId')
    .innerJoin('usuario as u', 'u.id', 'a.usuarioid')
    .innerJoin('cesta', 'cesta.id', 'a.cestaId')
    .select([
      'ac.assinaturaId',
      'a.usuarioid',
      'u.nome as consumidor',
      'cesta.nome as cesta',
      'ac.quantidade',
      'ac.pontoEntregaId',
      'ac.motivo',
    ])
    .where('ac.cicloid', '=', cicloid)
    .where('ac.situacao', '=', 'faltou')
    .orderBy('a.createdAt')
    .orderBy('a.id')
    .execute();
  return linhas.map((l) => ({ ...l, motivo: l.motivo ?? '' }));
}
