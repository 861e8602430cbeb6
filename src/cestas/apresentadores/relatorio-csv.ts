import type { Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import { colunasLegiveis, type Relatorio } from '../../domain/relatorios/modelo.ts';
import { tituloCsv, valorCsv } from './relatorios.ts';

/** What a spreadsheet would run as a formula when a cell starts with it (OWASP "CSV injection"). */
const INICIO_DE_FORMULA = /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

/**
 * Any report of the model (src/domain/relatorios/modelo.ts) as a CSV for a spreadsheet in pt-BR: UTF-8
 * with BOM (accents), ';', decimal commas without thousands dots (numbers stay numbers), dates
 * dd/mm/aaaa and headers that name the unit; the columns people read, every row of every group.
 * A route only sends the stream.
 * NOTE: text comes from people (a supplier's own name, a product): a text cell starting with
 * = + - @, a tab or a carriage return would run as a formula, so it gets a leading '. Number cells
 * are never escaped, so a negative amount stays a number.
 */
export function relatorioParaCsv(r: Relatorio): Readable {
  const colunas = colunasLegiveis(r);
  const csv = stringify({ delimiter: ';', bom: true, header: true, columns: colunas.map(tituloCsv) });
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
