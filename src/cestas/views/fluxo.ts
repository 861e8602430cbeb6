import { nomeDoMomento, type Fase, type Janela } from '../../domain/ciclos/calendario.ts';
import { ESCALA_DINHEIRO, paraNumero } from '../../decimal.ts';
import { decimalBr } from '../../formatos.ts';
import { html, type Html } from '../../http/html.ts';

/** Pieces shared by the offer, composition and order pages. */

/** A decimal for the page's scripts (data attributes), from integer units: 1250 centavos → "12.5". */
export const precoParaScript = (centavos: number): string => String(paraNumero(centavos, ESCALA_DINHEIRO));

/**
 * A number put back in a form field, as people type it and as the form reads it back: "3,50",
 * "12,5". No thousands dots, so "1250" never reads as ambiguous.
 */
export const paraCampo = decimalBr;

export function cabecalhoDoCiclo(ciclo: { nome: string; fase: Fase; abertas?: readonly Janela[] }): Html {
  return html`<p class="ciclo-da-pagina">${ciclo.nome} · <span class="fase fase-${ciclo.fase}">${nomeDoMomento(ciclo.fase, ciclo.abertas)}</span></p>`;
}

/**
 * The message of a refused post, on top of the page. Field messages shown next to their fields
 * (`noCampo`) are only counted here; the others are listed.
 */
export function mensagemDeErro(
  erro: string | null,
  detalhes: Readonly<Record<string, unknown>>,
  noCampo: (chave: string) => boolean = () => false,
): Html {
  if (erro === null) return html``;
  const itens = Object.entries(detalhes).filter(([, v]) => typeof v === 'string');
  const nosCampos = itens.filter(([k]) => noCampo(k)).length;
  const soltos = itens.filter(([k]) => !noCampo(k));
  return html`<div class="alerta" role="alert" data-falha-do-servidor><p>${erro}</p>
    ${nosCampos === 0 ? '' : html`<p>${nosCampos === 1 ? 'Corrija o campo marcado.' : `Corrija os ${nosCampos} campos marcados.`}</p>`}
    ${soltos.length === 0 ? '' : html`<ul>${soltos.map(([, v]) => html`<li>${String(v)}</li>`)}</ul>`}</div>`;
}

/** A field's message from a refused post, with the id its control points to. */
export function erroDoCampo(
  detalhes: Readonly<Record<string, unknown>>,
  chave: string,
): { texto: string; id: string } | null {
  const v = detalhes[chave];
  return typeof v === 'string' ? { texto: v, id: `erro-${chave.replace(/[^A-Za-z0-9_-]/g, '-')}` } : null;
}

/** `aria-invalid` and `aria-describedby` for a control with a message, nothing otherwise. */
export function ariaDoErro(e: { id: string } | null): Html {
  return e === null ? html`` : html`aria-invalid="true" aria-describedby="${e.id}"`;
}

export function textoDoErro(e: { texto: string; id: string } | null): Html {
  return e === null ? html`` : html`<p class="erro" id="${e.id}">${e.texto}</p>`;
}

/** Where /static/formularios.js writes the outcome of a save made without leaving the page. */
export function retornoDoFormulario(formId: string): Html {
  return html`<div class="retorno" data-retorno="${formId}" aria-live="polite"></div>`;
}

export const SCRIPT_FORMULARIOS = html`<script src="/static/formularios.js" defer></script>`;
