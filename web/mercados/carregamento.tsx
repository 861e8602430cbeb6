/**
 * Pages fetched when first drawn: each page's code is a chunk of its own, so the dashboard does
 * not download the price editor. A route names its page with one line:
 *
 *   const Painel = pagina(() => import('./paginas/Painel.tsx'), 'Painel');
 *
 * and <PaginaSobDemanda> around the drawn page shows a loading state while the chunk arrives,
 * or an error with a way out when it cannot (the network fell, or a new version replaced it).
 */
import { Component, Suspense, isValidElement, lazy, type LazyExoticComponent, type ReactNode } from 'react';
import { Carregando, Falha } from './componentes.tsx';

/** How to start fetching each page's chunk before it is drawn. */
const PRECARGAS = new WeakMap<object, () => void>();

/** A page component from the module `carregar` imports, under its export `nome`. */
export function pagina<K extends string, P extends object>(
  carregar: () => Promise<Readonly<Record<K, (props: P) => ReactNode>>>,
  nome: K,
): LazyExoticComponent<(props: P) => ReactNode> {
  const componente = lazy(async () => ({ default: (await carregar())[nome] }));
  // A failed early fetch is reported by the lazy component itself when it is drawn.
  PRECARGAS.set(componente, () => void carregar().catch(() => undefined));
  return componente;
}

/**
 * Starts fetching the chunk of the page in `no`, if it is one of `pagina`'s: a guarded page
 * would otherwise wait for the session check before asking for its code.
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
    return <Falha mensagem="Não foi possível carregar esta página. Confira a conexão e tente de novo." tentarDeNovo={() => window.location.reload()} />;
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
