/** A list read page by page (`first`/`after`), with "Carregar mais" and errors that keep their code. */
import { useCallback, useEffect, useState } from 'react';
import { ErroApi, mensagemDe } from './api.ts';
import { Carregando, Falha } from './componentes.tsx';

export type EstadoPaginado<T> =
  | { readonly fase: 'carregando' }
  | { readonly fase: 'erro'; readonly mensagem: string; readonly codigo: string }
  | { readonly fase: 'pronto'; readonly itens: readonly T[]; readonly haMais: boolean; readonly carregandoMais: boolean; readonly erroMais: string | null };

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
      (r) => vivo && setEstado({ fase: 'pronto', itens: r.slice(0, tamanho), haMais: r.length > tamanho, carregandoMais: false, erroMais: null }),
      (e: unknown) => vivo && setEstado({ fase: 'erro', mensagem: mensagemDe(e), codigo: codigoDe(e) }),
    );
    return () => {
      vivo = false;
    };
  }, [fn, versao, tamanho]);
  const carregarMais = () => {
    if (estado.fase !== 'pronto' || estado.carregandoMais) return;
    const ultimo = estado.itens.at(-1);
    if (ultimo === undefined) return;
    const antes = estado;
    setEstado({ ...antes, carregandoMais: true, erroMais: null });
    fn(tamanho + 1, cursorDe(ultimo)).then(
      (r) => setEstado({ fase: 'pronto', itens: [...antes.itens, ...r.slice(0, tamanho)], haMais: r.length > tamanho, carregandoMais: false, erroMais: null }),
      (e: unknown) => setEstado({ ...antes, carregandoMais: false, erroMais: mensagemDe(e) }),
    );
  };
  return { estado, carregarMais, recarregar: () => setVersao((v) => v + 1) };
}

/** The "Carregar mais" button under a list, with its own loading and error. */
export function CarregarMais<T>({ estado, carregarMais, rotulo = 'Carregar mais' }: { readonly estado: EstadoPaginado<T>; readonly carregarMais: () => void; readonly rotulo?: string }) {
  if (estado.fase !== 'pronto') return null;
  return (
    <>
      {estado.haMais ? (
        <p>
          <button type="button" className="botao secundario" onClick={carregarMais} disabled={estado.carregandoMais}>
            {estado.carregandoMais ? 'Carregando…' : rotulo}
          </button>
        </p>
      ) : null}
      {estado.carregandoMais ? <Carregando texto="Carregando mais…" /> : null}
      {estado.erroMais === null ? null : <Falha mensagem={estado.erroMais} tentarDeNovo={carregarMais} />}
    </>
  );
}
