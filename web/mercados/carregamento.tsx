/**
 * Pages fetched when first drawn: each page's code is a chunk of its own, so the dashboard does
 * not download the price editor. A route names its page with one line:
 *
 *   const Painel = pagina(() => import('./paginas/Painel.tsx'), 'Painel');
 *
 * and <PaginaSobDemanda> around the drawn page shows a loading state while the chunk arrives,
 * or an error with a way out when it cannot (the network fell, or a new version replaced it).
 */
import { Component, Suspense, createElement, isValidElement, lazy, type ComponentType, type ReactNode } from 'react';
import { Carregando, Falha } from './componentes.tsx';

/** How to start fetching each page's chunk before it is drawn. */
const PRECARGAS = new WeakMap<object, () => void>();

/**
 * A page component from the module `carregar` imports, under its export `nome`. Once its code has
 * arrived (started early by `precarregar`), the page is drawn at once: a lazy component would still
 * show its loading state first, and React holds the page back for up to 300 ms after it.
 */
export function pagina<K extends string, P extends object>(
  carregar: () => Promise<Readonly<Record<K, (props: P) => ReactNode>>>,
  nome: K,
): (props: P) => ReactNode {
  let chegou: ((props: P) => ReactNode) | null = null;
  const buscar = async (): Promise<(props: P) => ReactNode> => {
    const componente = (await carregar())[nome];
    chegou = componente;
    return componente;
  };
  const Preguicosa: ComponentType<P> = lazy(async () => ({ default: await buscar() }));
  function PaginaCarregada(props: P): ReactNode {
    return createElement(chegou ?? Preguicosa, props);
  }
  // A failed early fetch is reported by the lazy component itself when it is drawn.
  PRECARGAS.set(PaginaCarregada, () => void buscar().catch(() => undefined));
  return PaginaCarregada;
}

/**
 * Starts fetching the chunk of the page in `no`, if it is one of `pagina`'s (App.tsx adiantarPagina,
 * as the client starts and at each visit): the page would otherwise wait for the session check
 * before asking for its code.
 */
export function precarregar(no: ReactNode): void {
  if (isValidElement(no) && typeof no.type !== 'string') PRECARGAS.get(no.type)?.();
}

interface Estado {
  readonly falhou: boolean;
}

class LimiteDeFalha extends Component<{ readonly children: ReactNode }, Estado> {
  override state: Estado = { falhou: false };

  static getDerivedStateFromError(): Estado {
    return { falhou: true };
  }

  override render(): ReactNode {
    if (!this.state.falhou) return this.props.children;
    return (
      <Falha
        mensagem="Não foi possível carregar esta página. Confira a conexão e tente de novo."
        tentarDeNovo={() => window.location.reload()}
      />
    );
  }
}

/** The drawn page, with the loading state while its code arrives. `chave` resets a failure on navigation. */
export function PaginaSobDemanda({ chave, children }: { readonly chave: string; readonly children: ReactNode }) {
  return (
    <LimiteDeFalha key={chave}>
      <Suspense fallback={<Carregando texto="Carregando a página…" />}>{children}</Suspense>
    </LimiteDeFalha>
  );
}
