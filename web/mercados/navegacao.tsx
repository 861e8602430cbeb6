/**
 * A small History API router: the address is the state. Links navigate without reloading;
 * addresses the server handles itself (/login, /auth/*) are left to the browser.
 */
import { useSyncExternalStore, type AnchorHTMLAttributes, type MouseEvent, type ReactNode } from 'react';

const EVENTO = 'cestaria:navegou';

/**
 * Which visit this is: 0 for the page the browser loaded, one more at each navigation inside the
 * client (a link, back or forward). The session guard checks once per visit (sessao.tsx).
 */
let visitas = 0;
window.addEventListener('popstate', () => {
  visitas += 1;
});

/** The current visit's number (see `visitas`). */
export function visitaAtual(): number {
  return visitas;
}

function assinar(aviso: () => void): () => void {
  window.addEventListener('popstate', aviso);
  window.addEventListener(EVENTO, aviso);
  return () => {
    window.removeEventListener('popstate', aviso);
    window.removeEventListener(EVENTO, aviso);
  };
}

const endereco = (): string => window.location.pathname + window.location.search;

/** The current path and query string; re-renders on every navigation. */
export function useEndereco(): { caminho: string; busca: URLSearchParams } {
  const atual = useSyncExternalStore(assinar, endereco);
  const url = new URL(atual, window.location.origin);
  return { caminho: url.pathname, busca: url.searchParams };
}

/** Goes to another page of the client; `substituir` keeps the current one out of the history. */
export function navegar(para: string, opcoes: { substituir?: boolean } = {}): void {
  visitas += 1;
  if (opcoes.substituir === true) window.history.replaceState(null, '', para);
  else window.history.pushState(null, '', para);
  window.scrollTo(0, 0);
  window.dispatchEvent(new Event(EVENTO));
}

type PropsLink = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & {
  readonly para: string;
  readonly children: ReactNode;
};

/** An ordinary link that navigates inside the client (a new tab or window still works). */
export function Link({ para, onClick, ...resto }: PropsLink) {
  const clicar = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navegar(para);
  };
  return <a href={para} onClick={clicar} {...resto} />;
}

/** Matches a path against a pattern such as `/mercados/:id/precos`; returns the parameters. */
export function casar(padrao: string, caminho: string): Readonly<Record<string, string>> | null {
  const segmentos = (s: string) => s.split('/').filter((x) => x !== '');
  const esperados = segmentos(padrao);
  const recebidos = segmentos(caminho);
  if (esperados.length !== recebidos.length) return null;
  const parametros: Record<string, string> = {};
  for (const [i, p] of esperados.entries()) {
    const v = recebidos[i] ?? '';
    if (p.startsWith(':')) parametros[p.slice(1)] = decodeURIComponent(v);
    else if (p !== v) return null;
  }
  return parametros;
}
