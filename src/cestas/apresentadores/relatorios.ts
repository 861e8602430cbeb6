/**
 * The formats of a report, all read from the one model the domain builds (src/domain/relatorios/modelo.ts):
 * JSON numbers for programs, cells a spreadsheet in pt-BR reads as numbers and dates for the CSV,
 * and pt-BR text for people (the HTML page and the PDF). The cells hold integers in their
 * column's unit; only here do they become decimals.
 */
import { ESCALA_DINHEIRO, ESCALA_QUANTIDADE, paraNumero } from '../../decimal.ts';
import type { Celula, Coluna, LinhaRelatorio, Relatorio } from '../../domain/relatorios/modelo.ts';
import { dataBr, decimalBr, numeroDeQuantidade, reais } from '../../formatos.ts';

/** A cell as a JSON number or text, at its column's scale. */
export function valorJson(c: Coluna, v: Celula): string | number | null {
  if (typeof v !== 'number') return v;
  if (c.tipo === 'dinheiro') return paraNumero(v, ESCALA_DINHEIRO);
  if (c.tipo === 'quantidade') return paraNumero(v, ESCALA_QUANTIDADE);
  return v;
}

/**
 * A CSV cell, as a spreadsheet in pt-BR reads it: a decimal comma and no thousands dots, so that
 * it arrives as a number (1230 cents → "12,30", 1500 thousandths → "1,5"), and a date as
 * dd/mm/aaaa. The unit is in the header (`tituloCsv`), not in the cell.
 */
export function valorCsv(c: Coluna, v: Celula): string {
  if (v === null) return '';
  if (typeof v !== 'number') return c.tipo === 'data' ? dataBr(v) : v;
  if (c.tipo === 'dinheiro' || c.tipo === 'quantidade') return decimalBr(v, c.tipo);
  return String(v);
}

/** A CSV header: the spreadsheet's title of the column, with "(R$)" where its cells are money. */
export function tituloCsv(c: Coluna): string {
  const titulo = c.tituloPlanilha ?? c.titulo;
  return c.tipo === 'dinheiro' ? `${titulo} (R$)` : titulo;
}

/** A cell as people read it (page and PDF): "R$ 1.234,50", "1,5", "12/03/2026", text as it is. */
export function textoParaPessoas(c: Coluna, v: Celula): string {
  if (v === null) return '';
  if (typeof v !== 'number') return c.tipo === 'data' ? dataBr(v) : v;
  if (c.tipo === 'dinheiro') return reais(v);
  if (c.tipo === 'quantidade') return numeroDeQuantidade(v);
  return String(v);
}

/** Whether a column holds numbers (aligned right in tables). */
export const colunaNumerica = (c: Coluna): boolean => c.tipo !== 'texto' && c.tipo !== 'data';

export function relatorioParaJson(r: Relatorio) {
  const linha = (l: LinhaRelatorio) =>
    Object.fromEntries(r.colunas.map((c) => [c.chave, valorJson(c, l[c.chave] ?? null)]));
  const somas = (t: Readonly<Record<string, number>>) =>
    Object.fromEntries(
      Object.entries(t).map(([k, v]) => [
        k,
        valorJson(r.colunas.find((c) => c.chave === k) ?? { chave: k, titulo: k, tipo: 'inteiro' }, v),
      ]),
    );
  return {
    titulo: r.titulo,
    subtitulo: r.subtitulo,
    colunas: r.colunas,
    grupos: r.grupos.map((g) => ({ titulo: g.titulo, linhas: g.linhas.map(linha), subtotais: somas(g.subtotais) })),
    totais: somas(r.totais),
  };
}
