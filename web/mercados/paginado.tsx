/**
 * A list read page by page (`first`/`after`), with "Carregar mais": the first page as a page load
 * (loading, error with its code, retry), the next ones appended with their own loading and error,
 * so the list already shown stays.
 */
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { ErroApi, mensagemDe } from './api.ts';
import { ComCarga, Falha } from './componentes.tsx';

/** How many a list page shows unless the page says otherwise; one more is asked for, to know whether there is a next page. */
export const POR_PAGINA = 20;

/** What usePaginado asks for first (one more than it shows, from the start): a route starts it with the page's code (adiantar.ts). */
export function primeiraPagina(tamanho: number = POR_PAGINA): readonly [number, null] {
  return [tamanho + 1, null];
}

/** Assignable to componentes.tsx Estado<readonly T[]>, so a paged list may be shown with ComCarga. */
export type EstadoPaginado<T> =
  | { readonly fase: 'carregando' }
  | { readonly fase: 'erro'; readonly mensagem: string; readonly codigo: string }
  | {
      readonly fase: 'pronto';
      readonly dados: readonly T[];
      readonly haMais: boolean;
      readonly carregandoMais: boolean;
      readonly erroMais: string | null;
    };

const codigoDe = (e: unknown): string => (e instanceof ErroApi ? e.codigo : 'ERRO');

/**
 * Loads `tamanho` items at a time; asks for one more than it shows, so "Carregar mais" appears
 * only when there is more. `cursorDe` names the item the next page continues after.
 */
export function usePaginado<T>(
  carregar: (first: number, after: string | null) => Promise<readonly T[]>,
  cursorDe: (item: T) => string,
  tamanho: number,
  chaves: readonly unknown[],
): { estado: EstadoPaginado<T>; carregarMais: () => void; recarregar: () => void } {
  const [estado, setEstado] = useState<EstadoPaginado<T>>({ fase: 'carregando' });
  const [versao, setVersao] = useState(0);
  // The caller names what the load depends on, as with useEffect.
  const fn = useCallback(carregar, chaves);
  useEffect(() => {
    let vivo = true;
    setEstado({ fase: 'carregando' });
    fn(tamanho + 1, null).then(
      (r) =>
        vivo &&
        setEstado({
          fase: 'pronto',
          dados: r.slice(0, tamanho),
          haMais: r.length > tamanho,
          carregandoMais: false,
          erroMais: null,
        }),
      (e: unknown) => vivo && setEstado({ fase: 'erro', mensagem: mensagemDe(e), codigo: codigoDe(e) }),
    );
    return () => {
      vivo = false;
    };
  }, [fn, versao, tamanho]);
  const carregarMais = () => {
    if (estado.fase !== 'pronto' || estado.carregandoMais) return;
    const ultimo = estado.dados.at(-1);
    if (ultimo === undefined) return;
    const antes = estado;
    setEstado({ ...antes, carregandoMais: true, erroMais: null });
    fn(tamanho + 1, cursorDe(ultimo)).then(
      (r) =>
        setEstado({
          fase: 'pronto',
          dados: [...antes.dados, ...r.slice(0, tamanho)],
          haMais: r.length > tamanho,
          carregandoMais: false,
          erroMais: null,
        }),
      (e: unknown) => setEstado({ ...antes, carregandoMais: false, erroMais: mensagemDe(e) }),
    );
  };
  return { estado, carregarMais, recarregar: () => setVersao((v) => v + 1) };
}

/** The "Carregar mais" button under a paged list (its label names what comes), with its own loading and error. */
export function CarregarMais<T>({
  estado,
  carregarMais,
  rotulo,
}: {
  readonly estado: EstadoPaginado<T>;
  readonly carregarMais: () => void;
  readonly rotulo: string;
}) {
  if (estado.fase !== 'pronto' || (!estado.haMais && estado.erroMais === null)) return null;
  return (
    <div className="carregar-mais">
      {estado.erroMais === null ? null : <Falha mensagem={estado.erroMais} tentarDeNovo={carregarMais} />}
      {estado.haMais ? (
        <button type="button" className="botao secundario" onClick={carregarMais} disabled={estado.carregandoMais}>
          {estado.carregandoMais ? 'Carregando…' : rotulo}
        </button>
      ) : null}
    </div>
  );
}

/**
 * A paged list as a page shows it: the first page's loading and error, `vazio` when there is
 * nothing, else the list and its "Carregar mais" (labelled `rotulo`).
 */
export function ListaPaginada<T>({
  pagina,
  rotulo,
  vazio,
  children,
}: {
  readonly pagina: {
    readonly estado: EstadoPaginado<T>;
    readonly carregarMais: () => void;
    readonly recarregar: () => void;
  };
  readonly rotulo: string;
  readonly vazio: ReactNode;
  readonly children: (itens: readonly T[]) => ReactNode;
}) {
  return (
    <ComCarga estado={pagina.estado} recarregar={pagina.recarregar}>
      {(itens) =>
        itens.length === 0 ? (
          vazio
        ) : (
          <>
            {children(itens)}
            <CarregarMais estado={pagina.estado} carregarMais={pagina.carregarMais} rotulo={rotulo} />
          </>
        )
      }
    </ComCarga>
  );
}
