/** Pieces every page uses: loading and error states, the page frame, fields with their labels. */
import { useCallback, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { diasDeEntregaTexto, type DiaDeEntrega } from '../../src/domain/tempo.ts';
import { mensagemDe } from './api.ts';

export function Carregando({ texto = 'Carregando…' }: { readonly texto?: string }) {
  return (
    <p className="carregando" role="status" aria-live="polite">
      <span className="girando" aria-hidden="true" /> {texto}
    </p>
  );
}

/** An error the person can act on: the message and, when it helps, a retry. */
export function Falha({ mensagem, tentarDeNovo }: { readonly mensagem: string; readonly tentarDeNovo?: () => void }) {
  return (
    <div className="alerta" role="alert">
      <p>{mensagem}</p>
      {tentarDeNovo === undefined ? null : (
        <p>
          <button type="button" className="botao secundario" onClick={tentarDeNovo}>
            Tentar de novo
          </button>
        </p>
      )}
    </div>
  );
}

export function Aviso({ children }: { readonly children: ReactNode }) {
  return (
    <p className="aviso" role="status">
      {children}
    </p>
  );
}

/** A notice with a bold first line and an explanation (an empty list that says why and what to do). */
export function AvisoComTitulo({ titulo, children }: { readonly titulo: string; readonly children: ReactNode }) {
  return (
    <div className="aviso" role="status">
      <p>
        <strong>{titulo}</strong>
      </p>
      <p>{children}</p>
    </div>
  );
}

export function Sucesso({ children }: { readonly children: ReactNode }) {
  return (
    <p className="sucesso" role="status">
      {children}
    </p>
  );
}

/** The page's heading and title; focus moves to the heading when the page changes. */
export function Pagina({ titulo, children }: { readonly titulo: string; readonly children: ReactNode }) {
  const h1 = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${titulo} · Cestaria Mercados`;
    // Screen readers hear where they arrived; keyboard users continue from the top of the page.
    if (document.activeElement === document.body || document.activeElement === null)
      h1.current?.focus({ preventScroll: true });
  }, [titulo]);
  return (
    <>
      <h1 ref={h1} tabIndex={-1}>
        {titulo}
      </h1>
      {children}
    </>
  );
}

export type Estado<T> =
  | { readonly fase: 'carregando' }
  | { readonly fase: 'erro'; readonly mensagem: string }
  | { readonly fase: 'pronto'; readonly dados: T };

/** Loads data for a page; `recarregar` asks again. Never leaves the page blank. */
export function useCarga<T>(
  carregar: () => Promise<T>,
  chaves: readonly unknown[],
): { estado: Estado<T>; recarregar: () => void } {
  const [estado, setEstado] = useState<Estado<T>>({ fase: 'carregando' });
  const [versao, setVersao] = useState(0);
  // The caller names what the load depends on, as with useEffect.
  const fn = useCallback(carregar, chaves);
  useEffect(() => {
    let vivo = true;
    setEstado({ fase: 'carregando' });
    fn().then(
      (dados) => vivo && setEstado({ fase: 'pronto', dados }),
      (e: unknown) => vivo && setEstado({ fase: 'erro', mensagem: mensagemDe(e) }),
    );
    return () => {
      vivo = false;
    };
  }, [fn, versao]);
  return { estado, recarregar: () => setVersao((v) => v + 1) };
}

/** Shows a load's loading and error states, or renders its data. */
export function ComCarga<T>({
  estado,
  recarregar,
  children,
}: {
  readonly estado: Estado<T>;
  readonly recarregar: () => void;
  readonly children: (dados: T) => ReactNode;
}) {
  if (estado.fase === 'carregando') return <Carregando />;
  if (estado.fase === 'erro') return <Falha mensagem={estado.mensagem} tentarDeNovo={recarregar} />;
  return <>{children(estado.dados)}</>;
}

interface PropsCampo {
  readonly rotulo: string;
  readonly erro?: string | undefined;
  readonly ajuda?: string;
  readonly children: (props: {
    id: string;
    'aria-invalid': boolean;
    'aria-describedby': string | undefined;
  }) => ReactNode;
}

/** A labelled field with its help and its error, tied to the input for screen readers. */
export function Campo({ rotulo, erro, ajuda, children }: PropsCampo) {
  const id = useId();
  const idAjuda = ajuda === undefined ? undefined : `${id}-ajuda`;
  const idErro = erro === undefined ? undefined : `${id}-erro`;
  const descrito = [idAjuda, idErro].filter((x) => x !== undefined).join(' ');
  return (
    <div className={erro === undefined ? 'campo' : 'campo com-erro'}>
      <label htmlFor={id}>{rotulo}</label>
      {children({ id, 'aria-invalid': erro !== undefined, 'aria-describedby': descrito === '' ? undefined : descrito })}
      {ajuda === undefined ? null : (
        <p className="ajuda" id={idAjuda}>
          {ajuda}
        </p>
      )}
      {erro === undefined ? null : (
        <p className="erro-campo" id={idErro}>
          {erro}
        </p>
      )}
    </div>
  );
}

/** A set of ticked boxes: `alternar` ticks or unticks one, `definir` replaces them all (after a save). */
export function useMarcados<T>(iniciais: Iterable<T>): {
  marcados: ReadonlySet<T>;
  alternar: (item: T, marcar: boolean) => void;
  definir: (itens: Iterable<T>) => void;
} {
  const [marcados, setMarcados] = useState<ReadonlySet<T>>(() => new Set(iniciais));
  const alternar = (item: T, marcar: boolean) =>
    setMarcados((atual) => {
      const novo = new Set(atual);
      if (marcar) novo.add(item);
      else novo.delete(item);
      return novo;
    });
  return { marcados, alternar, definir: (itens) => setMarcados(new Set(itens)) };
}

/**
 * A report's two downloads from the server's /planilhas/ routes: the spreadsheet and the CSV.
 * Plain links, not the client's navigation: the browser sends the session cookie and saves the
 * attachment; the server decides who may (401/403 otherwise).
 */
export function Baixar({ endereco, rotulo }: { readonly endereco: string; readonly rotulo: string }) {
  const com = (formato: 'xlsx' | 'csv') => `${endereco}${endereco.includes('?') ? '&' : '?'}formato=${formato}`;
  return (
    <p className="acoes baixar">
      <span className="suave">{rotulo}:</span>
      <a className="botao secundario" href={com('xlsx')} download>
        Planilha (Excel, LibreOffice)
      </a>
      <a className="botao secundario" href={com('csv')} download>
        CSV
      </a>
    </p>
  );
}

/**
 * The delivery days, each with the coordination's note, in the same words as the Cestas pages
 * and e-mails ("sexta-feira, 04/12/2026: entregar na Sede até 17h"); `resumo` on one line.
 */
export function DiasDeEntrega({
  dias,
  resumo = false,
}: {
  readonly dias: readonly DiaDeEntrega[];
  readonly resumo?: boolean;
}) {
  if (dias.length === 0) return <p className="suave pequeno">A coordenação ainda não marcou o dia da entrega.</p>;
  if (resumo)
    return (
      <p className="dias-de-entrega pequeno">
        <strong>Entregar:</strong> {diasDeEntregaTexto(dias)}
      </p>
    );
  return (
    <ul className="dias-de-entrega">
      {dias.map((d) => (
        <li key={`${d.dataEntrega}-${d.observacao ?? ''}`}>{diasDeEntregaTexto([d])}</li>
      ))}
    </ul>
  );
}
