/**
 * The rules of a cycle's record that need no database: its data in order (regrasDoCiclo), what
 * the offers leave over per product, and when it can be closed.
 */
import { sobraDaLinha, type LinhaOfertada } from '../alocacao.ts';
import { CAMPOS_DATA, type Fase } from './calendario.ts';
import { ROTULOS_DATAS, type CicloLido, type SobraDoProduto } from './modelo.ts';

/**
 * The rules a cycle's data must meet: its dates in order, deliveries inside them, and each basket
 * and product listed once. Returns every broken rule, by field. `ilegiveis` names fields the edge
 * could not read: they take part in no comparison, so a form gets its reading errors and its rule
 * errors at once without a rule being judged on a value that is not there.
 */
/** Each date of a cycle with the one it must not come before. */
const DATAS_EM_SEQUENCIA = CAMPOS_DATA.slice(1).map((atual, i) => [CAMPOS_DATA[i] ?? atual, atual] as const);

export function regrasDoCiclo(lido: CicloLido, ilegiveis: ReadonlySet<string> = new Set()): Record<string, string> {
  const erros: Record<string, string> = {};
  const { dados } = lido;
  for (const [anterior, atual] of DATAS_EM_SEQUENCIA) {
    if (!ilegiveis.has(anterior) && !ilegiveis.has(atual) && dados[atual] < dados[anterior])
      erros[atual] = `Deve ser igual ou posterior ao ${ROTULOS_DATAS[anterior]}`;
  }
  const legivel = (campo: string) => !ilegiveis.has(campo);
  if (legivel('dataOfertaInicio') && legivel('dataRetiradaFim')) {
    // Stryker disable next-line ArrayDeclaration: an absent list has no rows; a bogus row has no fields to judge
    for (const e of (lido.cicloEntregas ?? []).filter((x) => legivel(x.campo))) {
      if (e.dataEntrega < dados.dataOfertaInicio || e.dataEntrega > dados.dataRetiradaFim)
        erros[e.campo] = 'Deve estar dentro das datas do ciclo';
    }
  }
  const irma = (campo: string, outro: string) => campo.replace(/\.[^.]+$/, `.${outro}`);
  // Stryker disable next-line ArrayDeclaration: an absent list has no rows; a bogus row has no fields to judge
  for (const p of (lido.cicloPontos ?? []).filter((x) => legivel(x.campo))) {
    const dia = irma(p.campo, 'dataRetirada');
    if (
      // Stryker disable next-line ConditionalExpression: null compares false with any date, so an unset day is never outside; the check narrows the type
      p.dataRetirada !== null &&
      legivel(dia) &&
      legivel('dataRetiradaInicio') &&
      legivel('dataRetiradaFim') &&
      (p.dataRetirada < dados.dataRetiradaInicio || p.dataRetirada > dados.dataRetiradaFim)
    )
      erros[dia] = 'Deve estar dentro do período de retirada do ciclo';
    const fim = irma(p.campo, 'horaFim');
    if (
      // Stryker disable next-line ConditionalExpression,LogicalOperator: null compares false with any "HH:MM", so an hour left unset never breaks the rule; the checks narrow the type
      p.horaInicio !== null &&
      // Stryker disable next-line ConditionalExpression: see above
      p.horaFim !== null &&
      legivel(fim) &&
      legivel(irma(p.campo, 'horaInicio')) &&
      p.horaFim <= p.horaInicio
    )
      erros[fim] = 'Deve ser depois do horário de início';
  }
  const repetidos = <T extends { readonly campo: string }>(itens: readonly T[], chave: (item: T) => number) => {
    const vistos = new Set<number>();
    for (const item of itens.filter((x) => legivel(x.campo))) {
      if (vistos.has(chave(item))) erros[item.campo] = 'Item repetido na lista';
      vistos.add(chave(item));
    }
  };
  // Stryker disable next-line ArrayDeclaration: an absent list has no rows; a bogus row has no fields to judge
  repetidos(lido.cicloCestas ?? [], (c) => c.cestaId);
  // Stryker disable next-line ArrayDeclaration: see above
  repetidos(lido.cicloPontos ?? [], (p) => p.pontoEntregaId);
  // Stryker disable next-line ArrayDeclaration: see above
  repetidos(lido.cicloProdutos ?? [], (p) => p.produtoId);
  return erros;
}

/** Per product, what the finalised offers leave over after the baskets, in offer order. */
export function sobrasPorProduto(linhas: readonly LinhaOfertada[]): SobraDoProduto[] {
  const porProduto = new Map<number, SobraDoProduto>();
  for (const l of linhas) {
    const atual = porProduto.get(l.produtoId);
    porProduto.set(l.produtoId, {
      produtoId: l.produtoId,
      nome: l.produto,
      unidade: l.unidade,
      sobraMilesimos: (atual?.sobraMilesimos ?? 0) + sobraDaLinha(l),
    });
  }
  return [...porProduto.values()];
}

/** A cycle can be closed once its order window is over, and only once. */
export function fechamentoPossivel(c: { readonly fase: Fase; readonly fechadoEm: string | null }): boolean {
  return c.fechadoEm === null && (c.fase === 'retirada' || c.fase === 'encerrado');
}
