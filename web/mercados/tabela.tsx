/**
 * The tables of an order's or a market's lines (the consumer's order summary, the market's orders
 * and totals): the first column names the line, the others are figures, each cell labelled with
 * its column for the narrow layout (estilo.css, data-rotulo).
 */
import type { ReactNode } from 'react';

/** A figure column: its heading (also the cell's label) and what each line shows in it. */
export interface Coluna<T> {
  readonly titulo: string;
  readonly celula: (linha: T) => ReactNode;
}

export function TabelaDeLinhas<T>({
  className,
  legenda,
  legendaOculta = false,
  primeira,
  colunas,
  linhas,
  chave,
}: {
  readonly className: string;
  readonly legenda: string;
  /** The caption only for screen readers (the heading around already says it). */
  readonly legendaOculta?: boolean;
  /** The column that names the line (a row heading); `rotulo` labels its cell when the layout narrows. */
  readonly primeira: Coluna<T> & { readonly rotulo?: string };
  readonly colunas: ReadonlyArray<Coluna<T>>;
  readonly linhas: readonly T[];
  readonly chave: (linha: T) => string;
}) {
  return (
    <table className={className}>
      <caption className={legendaOculta ? 'visualmente-oculto' : undefined}>{legenda}</caption>
      <thead>
        <tr>
          <th scope="col">{primeira.titulo}</th>
          {colunas.map((c) => (
            <th key={c.titulo} scope="col" className="numero">
              {c.titulo}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {linhas.map((l) => (
          <tr key={chave(l)}>
            <th scope="row" data-rotulo={primeira.rotulo}>
              {primeira.celula(l)}
            </th>
            {colunas.map((c) => (
              <td key={c.titulo} data-rotulo={c.titulo} className="numero">
                {c.celula(l)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The subtotal, fee and total of a list of figures (dl.numeros), the total in bold. */
export function SubtotalTaxaTotal({
  subtotal,
  taxa,
  total,
}: {
  readonly subtotal: string;
  readonly taxa: string;
  readonly total: string;
}) {
  return (
    <>
      <div>
        <dt>Subtotal</dt>
        <dd>{subtotal}</dd>
      </div>
      <div>
        <dt>Taxa</dt>
        <dd>{taxa}</dd>
      </div>
      <div>
        <dt>Total</dt>
        <dd>
          <strong>{total}</strong>
        </dd>
      </div>
    </>
  );
}
