/**
 * The report model, shared by every report family and by the renderers (src/cestas/apresentadores).
 * Reports are declarative: columns, rows in exact integer units, an optional grouping and the
 * columns that add up. One renderer per format (JSON, HTML, CSV, PDF) reads the same Relatorio,
 * so the formats can never disagree.
 */
/** `data`: an ISO date (YYYY-MM-DD) kept as text; people read it as dd/mm/aaaa. */
export type TipoColuna = 'texto' | 'quantidade' | 'dinheiro' | 'inteiro' | 'data';

export interface Coluna {
  readonly chave: string;
  readonly titulo: string;
  readonly tipo: TipoColuna;
  /**
   * The header in a spreadsheet (the CSV), where a cell is a bare number with no page around it:
   * "Quantidade planejada" where the page says "Planejado". Without it, `titulo`.
   */
  readonly tituloPlanilha?: string;
  /** Summed into group subtotals and the grand total. */
  readonly soma?: boolean;
  /**
   * A field for programs only, under the contract's own name: in the JSON rows, never a column
   * people read in the table.
   */
  readonly somenteDados?: true;
}

/** The columns people read (the table): all but the fields for programs. */
export function colunasLegiveis(r: Relatorio): readonly Coluna[] {
  return r.colunas.filter((c) => c.somenteDados !== true);
}

/** A cell: text, or an integer in the column's unit (cents, thousandths, count). */
export type Celula = string | number | null;
export type LinhaRelatorio = Readonly<Record<string, Celula>>;

export interface Grupo {
  readonly titulo: string;
  /** A line about the group as a whole (a delivery point's address), for the printed sections. */
  readonly nota?: string;
  readonly linhas: readonly LinhaRelatorio[];
  readonly subtotais: Readonly<Record<string, number>>;
}

export interface Relatorio {
  readonly titulo: string;
  readonly subtitulo: string;
  readonly colunas: readonly Coluna[];
  readonly grupos: readonly Grupo[];
  readonly totais: Readonly<Record<string, number>>;
  /** The column the rows are grouped by: each group's title, so a printed group leaves it out. */
  readonly agrupadoPor?: string;
  /** A printed sheet's empty column to tick ("Recebido") or sign on delivery day. */
  readonly conferencia?: Conferencia;
  /** Printed, each group starts on a page of its own (a delivery point's sheet). */
  readonly paginaPorGrupo?: boolean;
  /** The markets of the report's cycles, for the page's market filter (absent: none to offer). */
  readonly mercados?: readonly MercadoDosCiclos[];
}

export interface Conferencia {
  readonly titulo: string;
  /** Room for a handwritten initial or signature (rubrica): a wide column and rows tall enough to sign in. */
  readonly rubrica: boolean;
}

/** What a report may say beyond its rows: a note per group (by title) and a column to tick. */
export interface Apresentacao {
  readonly notas?: ReadonlyMap<string, string>;
  readonly conferencia?: Conferencia;
  readonly paginaPorGrupo?: boolean;
}

function somar(colunas: readonly Coluna[], linhas: readonly LinhaRelatorio[]): Record<string, number> {
  const t: Record<string, number> = {};
  for (const c of colunas.filter((x) => x.soma === true))
    t[c.chave] = linhas.reduce((s, l) => s + (typeof l[c.chave] === 'number' ? (l[c.chave] as number) : 0), 0);
  return t;
}

/** Groups rows by a text column (in order of first appearance) and adds the subtotals and totals. */
export function montarRelatorio(
  titulo: string,
  subtitulo: string,
  colunas: readonly Coluna[],
  linhas: readonly LinhaRelatorio[],
  agruparPor?: string,
  apresentacao: Apresentacao = {},
): Relatorio {
  const grupos = new Map<string, LinhaRelatorio[]>();
  for (const l of linhas) {
    const chave = agruparPor === undefined ? '' : String(l[agruparPor] ?? '');
    const grupo = grupos.get(chave);
    if (grupo === undefined) grupos.set(chave, [l]);
    else grupo.push(l);
  }
  return {
    titulo,
    subtitulo,
    colunas,
    grupos: [...grupos.entries()].map(([t, ls]) => {
      const nota = apresentacao.notas?.get(t);
      return { titulo: t, ...(nota === undefined ? {} : { nota }), linhas: ls, subtotais: somar(colunas, ls) };
    }),
    totais: somar(colunas, linhas),
    ...(agruparPor === undefined ? {} : { agrupadoPor: agruparPor }),
    ...(apresentacao.conferencia === undefined ? {} : { conferencia: apresentacao.conferencia }),
    ...(apresentacao.paginaPorGrupo === true ? { paginaPorGrupo: true } : {}),
  };
}

/** A market the report's cycles serve, for the page's market filter (`Relatorio.mercados`). */
export interface MercadoDosCiclos {
  readonly id: number;
  readonly nome: string;
}
