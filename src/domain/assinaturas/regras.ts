/**
 * A subscription's pure rules: which cycles it takes (frequency, season, pauses), the shape and
 * range of what is entered, and the key that names a season's advance payment. No database here.
 */
import { FREQUENCIAS, type EntradaAssinatura, type Frequencia } from './modelo.ts';

// ---------------------------------------------------------------------------------------------
// Which cycles a subscription takes (pure)

/** A cycle that offers the subscription's basket type (in its market, when it names one). */
export interface CicloCandidato {
  readonly cicloid: number;
  readonly dataPedidoInicio: string;
  readonly dataRetiradaInicio: string;
  readonly dataRetiradaFim: string;
}

/** The parts of a subscription that decide which cycles it takes. */
export interface RegraDeCiclos {
  readonly frequencia: Frequencia;
  readonly inicio: string;
  readonly fim: string;
  readonly pausas: ReadonlyArray<{ readonly inicio: string; readonly fim: string }>;
}

/**
 * The cycles a subscription takes, among the cycles offering its basket type, in order of their
 * order windows (dataPedidoInicio, then id): `servir`, or `pausado` when the order window opens
 * inside a pause. A cycle applies when its pickup dates fall inside [inicio, fim]. For
 * `ciclo_sim_ciclo_nao`, the 1st, 3rd, 5th… applicable cycles are taken, counting from the first
 * applicable one; a paused cycle still counts for the alternation (pausing does not shift which
 * cycles are "sim"), so the subscriber's rhythm is the same before and after a pause.
 */
export function ciclosAplicaveis(
  regra: RegraDeCiclos,
  ciclos: readonly CicloCandidato[],
): Array<{ cicloid: number; situacao: 'servir' | 'pausado' }> {
  const naTemporada = ciclos
    .filter((c) => c.dataRetiradaInicio >= regra.inicio && c.dataRetiradaFim <= regra.fim)
    .sort((a, b) =>
      a.dataPedidoInicio < b.dataPedidoInicio
        ? -1
        : a.dataPedidoInicio > b.dataPedidoInicio
          ? 1
          : a.cicloid - b.cicloid,
    );
  const escolhidos = regra.frequencia === 'cada_ciclo' ? naTemporada : naTemporada.filter((_, i) => i % 2 === 0);
  return escolhidos.map((c) => ({
    cicloid: c.cicloid,
    situacao: regra.pausas.some((p) => c.dataPedidoInicio >= p.inicio && c.dataPedidoInicio <= p.fim)
      ? 'pausado'
      : 'servir',
  }));
}

/** The candidate cycles of one subscription: those offering its basket type, in its market when it names one; each cycle once. */
export function candidatosDe(
  a: { cestaId: number; mercadoId: number | null },
  ciclos: ReadonlyArray<CicloCandidato & { cestaId: number; mercadoId: number | null }>,
): CicloCandidato[] {
  const vistos = new Set<number>();
  return ciclos.filter(
    (c) =>
      c.cestaId === a.cestaId &&
      (a.mercadoId === null || c.mercadoId === a.mercadoId) &&
      !vistos.has(c.cicloid) &&
      vistos.add(c.cicloid) !== undefined,
  );
}

// ---------------------------------------------------------------------------------------------
// Validation

const DATA = /^\d{4}-\d{2}-\d{2}$/;

function dataValida(d: string): boolean {
  if (!DATA.test(d)) return false;
  const t = new Date(`${d}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === d;
}

/** The rules of a period's dates, by field. */
export function regrasDoPeriodo(p: { inicio: string; fim: string }): Record<string, string> {
  const erros: Record<string, string> = {};
  if (!dataValida(p.inicio)) erros.inicio = 'Informe a data de início (AAAA-MM-DD)';
  if (!dataValida(p.fim)) erros.fim = 'Informe a data de fim (AAAA-MM-DD)';
  if (erros.inicio === undefined && erros.fim === undefined && p.inicio > p.fim)
    erros.fim = 'O fim não pode ser antes do início';
  return erros;
}

/** A subscription's broken rules of shape and range, by field. */
export function regrasDaAssinatura(
  e: Pick<EntradaAssinatura, 'quantidade' | 'frequencia' | 'inicio' | 'fim'>,
): Record<string, string> {
  const erros = regrasDoPeriodo(e);
  if (!Number.isInteger(e.quantidade) || e.quantidade < 1)
    erros.quantidade = 'A quantidade deve ser um número inteiro de cestas, pelo menos 1';
  if (!FREQUENCIAS.includes(e.frequencia)) erros.frequencia = 'Escolha a frequência: cada_ciclo ou ciclo_sim_ciclo_nao';
  return erros;
}

// ---------------------------------------------------------------------------------------------
// A season paid in advance: its payment's movement key (built in temporada.ts)

/**
 * A season payment's movement key: `assinatura:<id>:pagamento:envio:<envio>` when the request
 * names its sending (the form carries a token made when the page was drawn, so a second click or
 * a resent form records nothing new), else `assinatura:<id>:pagamento:<instante>:<aleatório>`:
 * each payment its own (two instalments in the same instant are two credits). Either way the key
 * names the subscription it pays.
 */
export const PREFIXO_DO_PAGAMENTO = 'assinatura:';
const CHAVE_DO_PAGAMENTO = /^assinatura:(\d+):pagamento:/;

/** What a sending token may be: 8 to 64 letters, digits and hyphens (a UUID fits). */
export const ENVIO_VALIDO = /^[A-Za-z0-9-]{8,64}$/;

/** The subscription a season payment's movement key names, or null for any other key. */
export function assinaturaDoPagamento(chave: string | null): number | null {
  const m = CHAVE_DO_PAGAMENTO.exec(chave ?? '');
  return m === null ? null : Number(m[1]);
}

/** The most one payment may record (R$ 1.000.000,00): a typo of a few zeros is refused. */
export const MAIOR_PAGAMENTO_CENTAVOS = 100_000_000;
