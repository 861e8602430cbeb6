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

/**
 * A report as the JSON `data` of its page (the schema RelatorioJson), written as text in one pass.
 *
 * NOTE: the report of 5,000 orders is 1.4 MB and the movements 1.9 MB. Building one object per
 * row and handing them to the response schema's serializer took 35 ms and 62 ms of the server's
 * thread; this writes the same bytes in a fraction of that (docs/performance.md, "Os relatórios
 * grandes escritos de uma vez"). The bytes are what the schema's serializer writes: the keys in the
 * schema's order, a column with only its key, title and type, each row with every column in the
 * columns' order (null where a row has no value), the sums by their columns' scales.
 */
export function relatorioEmJson(r: Relatorio): string {
  const colunas = r.colunas;
  const chaves = colunas.map((c) => `${JSON.stringify(c.chave)}:`);
  const celula = (c: Coluna, v: Celula | undefined) => JSON.stringify(valorJson(c, v ?? null));
  const linha = (l: LinhaRelatorio): string => {
    let s = '{';
    for (let i = 0; i < colunas.length; i++) {
      const c = colunas[i] as Coluna;
      s += `${i === 0 ? '' : ','}${chaves[i] as string}${celula(c, l[c.chave])}`;
    }
    return `${s}}`;
  };
  const somas = (t: Readonly<Record<string, number>>): string =>
    `{${Object.entries(t)
      .map(
        ([k, v]) =>
          `${JSON.stringify(k)}:${celula(colunas.find((c) => c.chave === k) ?? { chave: k, titulo: k, tipo: 'inteiro' }, v)}`,
      )
      .join(',')}}`;
  const partes: string[] = [
    `{"titulo":${JSON.stringify(r.titulo)},"subtitulo":${JSON.stringify(r.subtitulo)},"colunas":[`,
    colunas
      .map(
        (c) =>
          `{"chave":${JSON.stringify(c.chave)},"titulo":${JSON.stringify(c.titulo)},"tipo":${JSON.stringify(c.tipo)}}`,
      )
      .join(','),
    '],"grupos":[',
  ];
  r.grupos.forEach((g, i) => {
    partes.push(`${i === 0 ? '' : ','}{"titulo":${JSON.stringify(g.titulo)},"linhas":[`);
    for (let j = 0; j < g.linhas.length; j++)
      partes.push(`${j === 0 ? '' : ','}${linha(g.linhas[j] as LinhaRelatorio)}`);
    partes.push(`],"subtotais":${somas(g.subtotais)}}`);
  });
  partes.push(`],"totais":${somas(r.totais)}}`);
  return partes.join('');
}
