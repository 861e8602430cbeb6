/**
 * Server-side HTML with automatic escaping: every interpolated value is escaped unless it is
 * itself Html (built by this tag). Arrays are joined. null, undefined and false render nothing.
 */
export class Html {
  readonly texto: string;
  constructor(texto: string) {
    this.texto = texto;
  }
  toString(): string {
    return this.texto;
  }
}

const ENTIDADES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapar(texto: string): string {
  return texto.replace(/[&<>"'`]/g, (c) => ENTIDADES[c] ?? c);
}

export type Interpolavel = Html | string | number | boolean | null | undefined | readonly Interpolavel[];

function render(v: Interpolavel): string {
  if (v === null || v === undefined || v === false) return '';
  if (v instanceof Html) return v.texto;
  if (Array.isArray(v)) return v.map(render).join('');
  return escapar(String(v));
}

export function html(partes: TemplateStringsArray, ...valores: Interpolavel[]): Html {
  let saida = partes[0] ?? '';
  for (let i = 0; i < valores.length; i++) saida += render(valores[i]) + (partes[i + 1] ?? '');
  return new Html(saida);
}

/** Trusted markup produced by our own code (e.g. rendered Markdown after escaping). */
export function confiavel(texto: string): Html {
  return new Html(texto);
}
