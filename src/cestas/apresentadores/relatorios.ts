/**
 * The formats of a report, all read from the one model the domain builds (src/domain/relatorios.ts):
 * JSON numbers for programs, dot-decimal text for the CSV, and pt-BR text for people (the HTML
 * page and the PDF). The cells hold integers in their column's unit; only here do they become
 * decimals.
 */
import { ESCALA_DINHEIRO, ESCALA_QUANTIDADE, formatarDecimal, formatarQuantidade, formatarReais, paraNumero } from '../../decimal.ts';
import type { Celula, Coluna, LinhaRelatorio, Relatorio } from '../../domain/relatorios.ts';
import { dataBr } from './datas.ts';

/** A cell as a JSON number or text, at its column's scale. */
export function valorJson(c: Coluna, v: Celula): string | number | null {
  if (typeof v !== 'number') return v;
  if (c.tipo === 'dinheiro') return paraNumero(v, ESCALA_DINHEIRO);
  if (c.tipo === 'quantidade') return paraNumero(v, ESCALA_QUANTIDADE);
  return v;
}

/** A cell as dot-decimal text (CSV): 1230 cents → "12.30", 1500 thousandths → "1.5". */
export function valorTexto(c: Coluna, v: Celula): string {
  if (v === null) return '';
  if (typeof v !== 'number') return v;
  if (c.tipo === 'dinheiro') return formatarDecimal(v, ESCALA_DINHEIRO);
  if (c.tipo === 'quantidade') return formatarDecimal(v, ESCALA_QUANTIDADE).replace(/\.?0+$/, '') || '0';
  return String(v);
}

/** A cell as people read it (page and PDF): "R$ 1.234,50", "1,5", "12/03/2026", text as it is. */
export function textoParaPessoas(c: Coluna, v: Celula): string {
  if (v === null) return '';
  if (typeof v !== 'number') return c.tipo === 'data' ? dataBr(v) : v;
  if (c.tipo === 'dinheiro') return formatarReais(v);
  if (c.tipo === 'quantidade') return formatarQuantidade(v);
  return String(v);
}

/** Whether a column holds numbers (aligned right in tables). */
export const colunaNumerica = (c: Coluna): boolean => c.tipo !== 'texto' && c.tipo !== 'data';

export function relatorioParaJson(r: Relatorio) {
  const linha = (l: LinhaRelatorio) => Object.fromEntries(r.colunas.map((c) => [c.chave, valorJson(c, l[c.chave] ?? null)]));
  const somas = (t: Readonly<Record<string, number>>) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, valorJson(r.colunas.find((c) => c.chave === k) ?? { chave: k, titulo: k, tipo: 'inteiro' }, v)]));
  return {
    titulo: r.titulo,
    subtitulo: r.subtitulo,
    colunas: r.colunas,
    grupos: r.grupos.map((g) => ({ titulo: g.titulo, linhas: g.linhas.map(linha), subtotais: somas(g.subtotais) })),
    totais: somas(r.totais),
  };
}
