import type ExcelJS from 'exceljs';
import { ESCALA_DINHEIRO, ESCALA_QUANTIDADE, paraNumero } from '../decimal.ts';
import {
  colunasLegiveis,
  type Celula,
  type Coluna,
  type LinhaRelatorio,
  type Relatorio,
} from '../domain/relatorios/modelo.ts';
import { dataBr, decimalBr } from '../formatos.ts';

/** The media type of an XLSX file. */
export const TIPO_XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/**
 * Number formats by column type. The codes are the file format's own (',' groups thousands, '.'
 * marks the decimals): a spreadsheet in pt-BR shows "R$ 1.234,50" and "1,5".
 */
const FORMATOS = {
  dinheiro: '"R$" #,##0.00;-"R$" #,##0.00',
  quantidadeInteira: '#,##0',
  quantidadeComCasas: '#,##0.0##',
  inteiro: '0',
  data: 'dd/mm/yyyy',
} as const;

/** A number of the model (integer units) in the column's unit: reais, the product's unit, a count. */
function numero(c: Coluna, v: number): number {
  if (c.tipo === 'dinheiro') return paraNumero(v, ESCALA_DINHEIRO);
  if (c.tipo === 'quantidade') return paraNumero(v, ESCALA_QUANTIDADE);
  return v;
}

/** A cell as the spreadsheet holds it: a number in the column's unit, a date, or text (never a formula). */
function valorDaCelula(c: Coluna, v: Celula): ExcelJS.CellValue {
  if (v === null) return null;
  if (typeof v === 'number') return numero(c, v);
  if (c.tipo === 'data') {
    const [a, m, d] = v.slice(0, 10).split('-').map(Number);
    if (a !== undefined && m !== undefined && d !== undefined && [a, m, d].every(Number.isInteger))
      return new Date(Date.UTC(a, m - 1, d));
  }
  // Text is stored as text (a shared string): a name starting with "=" is never run as a formula.
  return v;
}

function formatoDaCelula(c: Coluna, v: Celula): string | undefined {
  if (c.tipo === 'dinheiro') return FORMATOS.dinheiro;
  if (c.tipo === 'inteiro') return FORMATOS.inteiro;
  if (c.tipo === 'data') return FORMATOS.data;
  if (c.tipo === 'quantidade')
    return typeof v === 'number' && v % 1000 !== 0 ? FORMATOS.quantidadeComCasas : FORMATOS.quantidadeInteira;
  return undefined;
}

/** How wide a cell reads, in characters, as people see it. */
function larguraDoTexto(c: Coluna, v: Celula): number {
  if (v === null) return 0;
  if (typeof v === 'string') return c.tipo === 'data' ? dataBr(v).length : v.length;
  if (c.tipo === 'dinheiro') return decimalBr(v, 'dinheiro').length + 5;
  if (c.tipo === 'quantidade') return decimalBr(v, 'quantidade').length + 2;
  return String(v).length;
}

/** A sheet's name: at most 31 characters, none of : \ / ? * [ ], and unique in the file. */
function nomeDaFolha(titulo: string, usados: Set<string>): string {
  const base =
    titulo
      .replace(/[:\\/?*[\]]/g, ' ')
      .trim()
      .slice(0, 31) || 'Planilha';
  let nome = base;
  for (let i = 2; usados.has(nome.toLowerCase()); i++) nome = `${base.slice(0, 31 - ` (${i})`.length)} (${i})`;
  usados.add(nome.toLowerCase());
  return nome;
}

/**
 * One sheet: the header row (frozen, with a filter), a row per report row, and a total row for the
 * columns that add up, as formulas with their value (a spreadsheet recomputes them when people
 * edit a cell).
 */
function escreverFolha(
  livro: ExcelJS.Workbook,
  nome: string,
  colunas: readonly Coluna[],
  linhas: readonly LinhaRelatorio[],
): void {
  // Printed, a sheet fits the page's width (landscape) and repeats its titles on every page.
  const folha = livro.addWorksheet(nome, {
    views: [{ state: 'frozen', ySplit: 1 }],
    pageSetup: { orientation: 'landscape', fitToPage: true, fitToWidth: 1, fitToHeight: 0, printTitlesRow: '1:1' },
  });
  const cabecalho = folha.addRow(colunas.map((c) => c.tituloPlanilha ?? c.titulo));
  cabecalho.font = { bold: true };
  for (const linha of linhas) {
    const r = folha.addRow(colunas.map((c) => valorDaCelula(c, linha[c.chave] ?? null)));
    colunas.forEach((c, i) => {
      const formato = formatoDaCelula(c, linha[c.chave] ?? null);
      if (formato !== undefined) r.getCell(i + 1).numFmt = formato;
    });
  }
  const somadas = colunas.map((c, i) => ({ c, i })).filter(({ c }) => c.soma === true);
  if (somadas.length > 0 && linhas.length > 0) {
    const ultima = linhas.length + 1;
    const total = folha.addRow([]);
    total.font = { bold: true };
    const primeiraSomada = somadas[0]?.i ?? 0;
    if (primeiraSomada > 0) total.getCell(1).value = 'Total';
    for (const { c, i } of somadas) {
      const letra = folha.getColumn(i + 1).letter;
      const soma = linhas.reduce((s, l) => s + (typeof l[c.chave] === 'number' ? Number(l[c.chave]) : 0), 0);
      const celula = total.getCell(i + 1);
      celula.value = { formula: `SUM(${letra}2:${letra}${ultima})`, result: numero(c, soma) };
      celula.numFmt = formatoDaCelula(c, soma) ?? FORMATOS.inteiro;
    }
  }
  colunas.forEach((c, i) => {
    const maior = Math.max(
      (c.tituloPlanilha ?? c.titulo).length,
      ...linhas.map((l) => larguraDoTexto(c, l[c.chave] ?? null)),
    );
    folha.getColumn(i + 1).width = Math.min(60, Math.max(8, maior + 2));
  });
  folha.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: Math.max(1, colunas.length) } };
}

/**
 * Any report of the model as a spreadsheet for people (XLSX): numbers as numbers with their
 * formats (money in reais, quantities with up to three places), dates as dates, the header row
 * frozen and the columns as wide as what they hold. A report grouped by market has one sheet per
 * market (the market is then the sheet's name, not a column); any other report, one sheet with
 * every row.
 */
export async function relatorioParaXlsx(r: Relatorio): Promise<Uint8Array> {
  // Loaded on the first spreadsheet asked for: a process that never writes one never holds the library.
  const { Workbook } = (await import('exceljs')).default;
  const livro = new Workbook();
  livro.creator = 'Cestaria';
  livro.title = r.titulo;
  livro.subject = r.subtitulo;
  const usados = new Set<string>();
  const colunas = colunasLegiveis(r);
  if (r.agrupadoPor === 'mercado' && r.grupos.length > 0) {
    const semMercado = colunas.filter((c) => c.chave !== 'mercado');
    for (const g of r.grupos) escreverFolha(livro, nomeDaFolha(g.titulo, usados), semMercado, g.linhas);
  } else {
    escreverFolha(
      livro,
      nomeDaFolha(r.titulo, usados),
      colunas,
      r.grupos.flatMap((g) => g.linhas),
    );
  }
  return new Uint8Array(await livro.xlsx.writeBuffer());
}
