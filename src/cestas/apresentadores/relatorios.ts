/**
 * The formats of a report, all read from the one model the domain builds (src/domain/relatorios/modelo.ts):
 * JSON numbers for programs and pt-BR text for people (the HTML page and the PDF); the files (the
 * spreadsheet and the CSV) are written in src/planilhas. The cells hold integers in their
 * column's unit; only here do they become decimals.
 */
import { ESCALA_DINHEIRO, ESCALA_QUANTIDADE, paraNumero } from '../../decimal.ts';
import type { Celula, Coluna, LinhaRelatorio, Relatorio } from '../../domain/relatorios/modelo.ts';
import { dataBr, numeroDeQuantidade, reais } from '../../formatos.ts';

/** A cell as a JSON number or text, at its column's scale. */
export function valorJson(c: Coluna, v: Celula): string | number | null {
  if (typeof v !== 'number') return v;
  if (c.tipo === 'dinheiro') return paraNumero(v, ESCALA_DINHEIRO);
  if (c.tipo === 'quantidade') return paraNumero(v, ESCALA_QUANTIDADE);
  return v;
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
