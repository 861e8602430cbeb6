/**
 * Who is logged in, as /auth/status says, and the one guard every protected page goes through.
 * The server's rules are the real protection (GraphQL refuses what a profile may not do); the
 * guard only mirrors them so people land on a page that explains, not on an error.
 */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { irParaLogin, mensagemDe, statusDaSessao, type StatusSessao, type Usuario } from './api.ts';
import { Aviso, Carregando, Falha } from './componentes.tsx';
import { navegar, useEndereco, visitaAtual } from './navegacao.tsx';
import type { AcoesDaConta } from './api.ts';

type EstadoSessao =
  | { readonly fase: 'carregando' }
  | { readonly fase: 'erro'; readonly mensagem: string }
  /** `visita`: the visit (navegacao.tsx) in which /auth/status gave this answer. */
  | { readonly fase: 'pronto'; readonly status: StatusSessao; readonly visita: number };

interface Sessao {
  readonly estado: EstadoSessao;
  /** Asks /auth/status again (a protected page does it on every visit but the first, whose answer the provider already has). */
  recarregar(): Promise<void>;
  /** Forgets the session locally after logging out. */
  esquecer(): void;
}

const ContextoSessao = createContext<Sessao | null>(null);

export function ProvedorSessao({ children }: { readonly children: ReactNode }) {
  const [estado, setEstado] = useState<EstadoSessao>({ fase: 'carregando' });
  // Only the latest question's answer counts: an older one arriving late is not this visit's.
  const pedidos = useRef(0);
  const recarregar = useCallback(async () => {
    const pedido = ++pedidos.current;
    const visita = visitaAtual();
    try {
      const status = await statusDaSessao();
      if (pedido === pedidos.current) setEstado({ fase: 'pronto', status, visita });
    } catch (e) {
      if (pedido === pedidos.current) setEstado({ fase: 'erro', mensagem: mensagemDe(e) });
    }
  }, []);
  const esquecer = useCallback(() => {
    pedidos.current += 1;
    setEstado({ fase: 'pronto', status: { authenticated: false }, visita: visitaAtual() });
  }, []);
  useEffect(() => {
    void recarregar();
  }, [recarregar]);
  // Until the first answer, the shell's own message stays: the header is drawn once, for the person
  // it is for, and does not grow under the page (a layout shift) when the menu arrives.
  const primeiraVez = estado.fase === 'carregando';
  return (
    <ContextoSessao.Provider value={{ estado, recarregar, esquecer }}>
      {primeiraVez ? <p className="aviso-inicial">Carregando a Cestaria Mercados…</p> : children}
    </ContextoSessao.Provider>
  );
}

export function useSessao(): Sessao {
  const s = useContext(ContextoSessao);
  if (s === null) throw new Error('useSessao fora de ProvedorSessao');
  return s;
}

/** The logged-in person, when known. */
export function useUsuario(): Usuario | null {
  const { estado } = useSessao();
  return estado.fase === 'pronto' && estado.status.authenticated ? estado.status.user : null;
}

/** The Cestas face's address, when it runs beside this one. */
export function useEnderecoCestas(): string | null {
  const { estado } = useSessao();
  return estado.fase === 'pronto' && estado.status.authenticated ? (estado.status.cestas ?? null) : null;
}

/** The community's time zone, in which the pages show instants (instanteLegivel). */
export function useFuso(): string | undefined {
  const { estado } = useSessao();
  return estado.fase === 'pronto' && estado.status.authenticated ? estado.status.fuso : undefined;
}

/** Inside a protected page: the logged-in person (the guard guarantees there is one). */
export function useUsuarioLogado(): Usuario {
  const u = useUsuario();
  if (u === null) throw new Error('useUsuarioLogado fora de uma página protegida');
  return u;
}

/**
 * A protected page: checks /auth/status on every visit. Not logged in → /login; logged in
 * without the action the page requires (from the server's `acoes`) → /unauthorized. The page the
 * browser loaded uses the answer the provider got for this same visit (one question per load);
 * each later visit, through a link or back and forward, asks again.
 */
export function Protegida({ exige, children }: { readonly exige?: keyof AcoesDaConta; readonly children: ReactNode }) {
  const { estado, recarregar } = useSessao();
  const { caminho } = useEndereco();
  const respondidaNestaVisita = estado.fase === 'pronto' && estado.visita === visitaAtual();
  const [conferido, setConferido] = useState<string | null>(() => (respondidaNestaVisita ? caminho : null));

  useEffect(() => {
    if (conferido === caminho) return;
    if (respondidaNestaVisita) {
      setConferido(caminho);
      return;
    }
    let vivo = true;
    void recarregar().then(() => {
      if (vivo) setConferido(caminho);
    });
    return () => {
      vivo = false;
    };
  }, [caminho, conferido, respondidaNestaVisita, recarregar]);

  const negado =
    estado.fase === 'pronto' && estado.status.authenticated && exige !== undefined && !estado.status.user.acoes[exige];
  const semSessao = estado.fase === 'pronto' && !estado.status.authenticated;
  const pronto = conferido === caminho;
  useEffect(() => {
    if (!pronto) return;
    if (semSessao) irParaLogin();
    else if (negado) navegar('/unauthorized', { substituir: true });
  }, [pronto, semSessao, negado]);

  if (estado.fase === 'erro') return <Falha mensagem={estado.mensagem} tentarDeNovo={() => void recarregar()} />;
  if (!pronto || estado.fase === 'carregando') return <Carregando texto="Verificando a sua sessão…" />;
  if (semSessao) return <Aviso>Você precisa entrar para ver esta página. Levando ao login…</Aviso>;
  if (negado) return <Aviso>Seu perfil não permite acessar esta página.</Aviso>;
  return <>{children}</>;
}
