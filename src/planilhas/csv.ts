import type { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { ESCALA_DINHEIRO, ESCALA_QUANTIDADE, formatarDecimal } from '../decimal.ts';
import { colunasLegiveis, type Celula, type Coluna, type Relatorio } from '../domain/relatorios/modelo.ts';

/** What a spreadsheet would run as a formula when a cell starts with it (OWASP "CSV injection"). */
const INICIO_DE_FORMULA = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/** A column's header in a file: the spreadsheet's title, with "(R$)" where its cells are money. */
export function tituloNaPlanilha(c: Coluna): string {
  const titulo = c.tituloPlanilha ?? c.titulo;
  return c.tipo === 'dinheiro' ? `${titulo} (R$)` : titulo;
}

/**
 * A CSV cell in the contract's format (spec, section 8): a dot decimal, money with its two places
 * (1230 centavos → "12.30"), a quantity with the places it has (1500 milésimos → "1.5"), a date as
 * it is stored (ISO, AAAA-MM-DD). The unit is in the header, not in the cell.
 */
export function valorCsv(c: Coluna, v: Celula): string {
  if (v === null) return '';
  if (typeof v !== 'number') return v;
  if (c.tipo === 'dinheiro') return formatarDecimal(v, ESCALA_DINHEIRO);
  if (c.tipo === 'quantidade') return formatarDecimal(v, ESCALA_QUANTIDADE).replace(/\.?0+$/, '');
  return String(v);
}

/**
 * Any report of the model (src/domain/relatorios.ts) as the contract's CSV: UTF-8, separated by
 * commas, dot decimals and ISO dates, with the headers people read; the columns people read, every
 * row of every group. For people, the same report is a spreadsheet (./xlsx.ts). A route only
 * sends the stream.
 * NOTE: text comes from people (a supplier's own name, a product): a text cell starting with
 * = + - @, a tab or a carriage return would run as a formula, so it gets a leading '. Number cells
 * are never escaped, so a negative amount stays a number.
 */
export function relatorioParaCsv(r: Relatorio): Readable {
  const colunas = colunasLegiveis(r);
  const csv = stringify({ delimiter: ',', header: true, columns: colunas.map(tituloNaPlanilha) });
  for (const grupo of r.grupos) {
    for (const linha of grupo.linhas) {
      csv.write(
        colunas.map((c) => {
          const v = linha[c.chave] ?? null;
          const texto = valorCsv(c, v);
          return typeof v === 'string' && INICIO_DE_FORMULA.test(texto) ? `'${texto}` : texto;
        }),
      );
    }
  }
  csv.end();
  return csv;
}
