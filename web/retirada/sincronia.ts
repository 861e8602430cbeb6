/**
 * One point's pickup on this device: the snapshot and the actions, in memory for the screen and
 * in IndexedDB for the next opening, and their exchange with the server. Every action shows at
 * once; the queue is sent when the network returns (`online`), every half minute while online,
 * and on demand. A missing session keeps the queue (it is sent after the person logs in again);
 * a refused action leaves the queue for the "Não aceitas" list, with the server's reason.
 */
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { ACOES_POR_ENVIO, ErroApi, retiradaDoPonto, sessaoAtual, sincronizarRetirada } from './api.ts';
import {
  acoesDoPonto,
  contaGuardada,
  desfazer as desfazerNaLoja,
  dispositivo,
  enfileirar,
  esquecerRecusadas,
  guardarRetirada,
  registrarResultados,
  retiradaGuardada,
  trocarDeConta,
  type AcoesDoPonto,
  type Conta,
} from './loja.ts';
import { chaveDoPonto, type AcaoLocal, type AcaoParaEnviar, type RetiradaDoPonto } from './tipos.ts';

/** How often a device online sends its queue and reads the other phones' actions. */
export const INTERVALO_DE_SINCRONIA_MS = 30_000;
/**
 * After a round that could not reach the server while the phone says it is online (a weak signal,
 * a network that is still coming up), the next tries come sooner: 2 s, 4 s, 8 s… up to the interval.
 */
const PRIMEIRA_NOVA_TENTATIVA_MS = 2_000;

/** How a round of sending ended: the new snapshot, or why not (the queue stays for the next round). */
export type Desfecho =
  | { readonly tipo: 'ok'; readonly dados: RetiradaDoPonto; readonly recebidaEm: string }
  | { readonly tipo: 'rede' }
  | { readonly tipo: 'sessao' }
  | { readonly tipo: 'erro'; readonly mensagem: string; readonly codigo: string };

/** One round at a time per point, whoever asks (the point's page, the list of points). */
const emCurso = new Map<string, Promise<Desfecho>>();

/** The account of this page's session, once /auth/status said it (null before, or without a session). */
let contaDaSessao: Conta | null = null;

/**
 * Asks the server whose session this is. Another account than the device's last one makes the
 * device forget what that one read (loja.ts trocarDeConta). `mudou`: the account changed.
 */
export async function conferirSessao(): Promise<
  { readonly tipo: 'ok'; readonly conta: Conta; readonly mudou: boolean } | { readonly tipo: 'sessao' | 'rede' }
> {
  let s;
  try {
    s = await sessaoAtual();
  } catch {
    return { tipo: 'rede' };
  }
  if (!s.autenticada || s.conta === null) {
    contaDaSessao = null;
    return { tipo: 'sessao' };
  }
  const mudou = await trocarDeConta(s.conta);
  contaDaSessao = s.conta;
  return { tipo: 'ok', conta: s.conta, mudou };
}

/** Whether an action may go under this session: made under it, or before any account was known. */
const daConta = (a: AcaoLocal, conta: Conta) => a.conta === null || a.conta === conta.id;

/**
 * Sends a point's queue, 100 actions a call, moving each answer out of it (accepted ones to
 * `enviadas`, refused ones to `recusadas`), then reads the point again and keeps the new snapshot
 * (the other phones' actions). `aoMudarFila` runs after each call's answers are kept.
 */
export function sincronizarPonto(
  cicloId: string,
  pontoId: string,
  aoMudarFila: () => Promise<void> = async () => undefined,
): Promise<Desfecho> {
  const ponto = chaveDoPonto(cicloId, pontoId);
  const atual = emCurso.get(ponto);
  if (atual !== undefined) return atual;
  const rodada = (async (): Promise<Desfecho> => {
    try {
      let conta = contaDaSessao;
      if (conta === null) {
        const c = await conferirSessao();
        if (c.tipo !== 'ok') return { tipo: c.tipo };
        conta = c.conta;
      }
      const id = await dispositivo();
      for (;;) {
        const fila = (await acoesDoPonto(ponto)).fila.filter((a) => daConta(a, conta));
        if (fila.length === 0) break;
        const lote = fila.slice(0, ACOES_POR_ENVIO);
        const resultados = await sincronizarRetirada(
          cicloId,
          pontoId,
          id,
          lote.map((a) => a.acao),
        );
        const doLote = new Set(lote.map((a) => a.acao.chave));
        const validos = resultados.filter((r) => doLote.has(r.chave));
        await registrarResultados(
          validos.filter((r) => r.estado === 'aplicada' || r.estado === 'repetida').map((r) => r.chave),
          validos
            .filter((r) => r.estado === 'recusada')
            .map((r) => ({ chave: r.chave, mensagem: r.mensagem ?? 'O servidor não aceitou esta ação.' })),
          new Date(),
        );
        await aoMudarFila();
        // An answer that moved nothing would loop for ever: stop, the next round tries again.
        if (validos.length === 0) break;
      }
      const dados = await retiradaDoPonto(cicloId, pontoId);
      const agora = new Date();
      await guardarRetirada(ponto, dados, agora);
      return { tipo: 'ok', dados, recebidaEm: agora.toISOString() };
    } catch (e) {
      if (!(e instanceof ErroApi)) throw e;
      if (e.codigo === 'UNAUTHENTICATED') {
        // Whoever logs in next is asked about again before anything is sent under their session.
        contaDaSessao = null;
        return { tipo: 'sessao' };
      }
      if (e.codigo === 'SEM_CONEXAO') return { tipo: 'rede' };
      return { tipo: 'erro', mensagem: e.message, codigo: e.codigo };
    } finally {
      emCurso.delete(ponto);
    }
  })();
  emCurso.set(ponto, rodada);
  return rodada;
}

function assinarConexao(aviso: () => void): () => void {
  window.addEventListener('online', aviso);
  window.addEventListener('offline', aviso);
  return () => {
    window.removeEventListener('online', aviso);
    window.removeEventListener('offline', aviso);
  };
}

/** Whether the browser says it is online (it may still fail to reach the server: that is seen on each request). */
export function useConexao(): boolean {
  return useSyncExternalStore(assinarConexao, () => navigator.onLine);
}

export type Problema =
  /** No session: the queue waits for a login. */
  | { readonly tipo: 'sessao' }
  /** The network or the server could not be reached: the queue waits. */
  | { readonly tipo: 'rede' }
  /** Anything else the server said (not allowed, pickup not open yet, a server error). */
  | { readonly tipo: 'erro'; readonly mensagem: string; readonly codigo: string };

export interface EstadoDoPonto {
  readonly carregado: boolean;
  readonly dados: RetiradaDoPonto | null;
  /** When this device received the snapshot shown (ISO). */
  readonly recebidaEm: string | null;
  readonly locais: AcoesDoPonto;
  readonly enviando: boolean;
  readonly problema: Problema | null;
  /** The name recorded on this device's actions (the session's). */
  readonly quem: string;
  /** The account those actions are made under. */
  readonly conta: number | null;
}

export type NovaAcao = Omit<AcaoParaEnviar, 'chave' | 'feitoEm'>;

const VAZIO: AcoesDoPonto = { fila: [], enviadas: [], recusadas: [] };

/** Increasing on this device, whatever its clock does: the queue's order. */
let ultimaOrdem = 0;
function proximaOrdem(): number {
  ultimaOrdem = Math.max(Date.now(), ultimaOrdem + 1);
  return ultimaOrdem;
}

export interface Ponto extends EstadoDoPonto {
  /** Records an action: shown at once, kept on the device, sent with the queue. Returns it. */
  registrar(acao: NovaAcao): AcaoLocal;
  /** Takes back an action still in the queue. */
  desfazer(chave: string): void;
  /** Sends the queue now and reads the point again. */
  enviarAgora(): void;
  esquecerRecusadas(): void;
}

export function usePonto(cicloId: string, pontoId: string): Ponto {
  const ponto = chaveDoPonto(cicloId, pontoId);
  const online = useConexao();
  const [estado, setEstado] = useState<EstadoDoPonto>({
    carregado: false,
    dados: null,
    recebidaEm: null,
    locais: VAZIO,
    enviando: false,
    problema: null,
    quem: '',
    conta: null,
  });
  // Actions tapped whose IndexedDB write has not finished: a reload of the queue meanwhile keeps them.
  const gravando = useRef(new Map<string, AcaoLocal>());
  const quem = useRef<Conta | null>(null);

  const alterar = useCallback((m: Partial<EstadoDoPonto>) => setEstado((e) => ({ ...e, ...m })), []);

  const recarregarLocais = useCallback(async () => {
    const lidas = await acoesDoPonto(ponto);
    const naFila = new Set(lidas.fila.map((a) => a.acao.chave));
    const faltando = [...gravando.current.values()].filter((a) => !naFila.has(a.acao.chave));
    alterar({ locais: { ...lidas, fila: [...lidas.fila, ...faltando] } });
  }, [ponto, alterar]);

  const sincronizar = useCallback(async (): Promise<Desfecho['tipo']> => {
    alterar({ enviando: true });
    try {
      const d = await sincronizarPonto(cicloId, pontoId, recarregarLocais);
      if (d.tipo === 'ok') alterar({ dados: d.dados, recebidaEm: d.recebidaEm, problema: null });
      else if (d.tipo === 'erro') alterar({ problema: { tipo: 'erro', mensagem: d.mensagem, codigo: d.codigo } });
      else alterar({ problema: { tipo: d.tipo } });
      await recarregarLocais();
      return d.tipo;
    } finally {
      alterar({ enviando: false });
    }
  }, [cicloId, pontoId, alterar, recarregarLocais]);

  // The device's copy first: it opens with no network.
  useEffect(() => {
    let vivo = true;
    void (async () => {
      const [guardada, locais, conta] = await Promise.all([
        retiradaGuardada(ponto),
        acoesDoPonto(ponto),
        contaGuardada(),
      ]);
      if (!vivo) return;
      quem.current = conta ?? null;
      setEstado((e) => ({
        ...e,
        carregado: true,
        dados: guardada?.dados ?? null,
        recebidaEm: guardada?.recebidaEm ?? null,
        locais,
        quem: quem.current?.nome ?? '',
        conta: quem.current?.id ?? null,
      }));
    })();
    return () => {
      vivo = false;
    };
  }, [ponto]);

  // Then the server's, when there is a network: at once, when it returns, and every half minute.
  const carregado = estado.carregado;
  useEffect(() => {
    if (!carregado) return;
    if (!online) {
      alterar({ problema: { tipo: 'rede' } });
      return;
    }
    let vivo = true;
    let proxima = 0;
    let falhas = 0;
    const rodar = async (primeira: boolean) => {
      let semSessao = false;
      if (primeira) {
        const c = await conferirSessao();
        if (!vivo) return;
        semSessao = c.tipo === 'sessao';
        if (semSessao) alterar({ problema: { tipo: 'sessao' } });
        else if (c.tipo === 'ok') {
          quem.current = c.conta;
          // Another person on this phone: what the previous one read is gone from the screen too.
          if (c.mudou) alterar({ dados: null, recebidaEm: null, quem: c.conta.nome, conta: c.conta.id });
          else alterar({ quem: c.conta.nome, conta: c.conta.id });
          if (c.mudou) await recarregarLocais();
        }
      }
      // Known to have no session: nothing to send until the login (the next rounds ask again).
      const desfecho = semSessao ? 'sessao' : await sincronizar();
      if (!vivo) return;
      falhas = desfecho === 'rede' ? falhas + 1 : 0;
      const espera =
        falhas === 0
          ? INTERVALO_DE_SINCRONIA_MS
          : Math.min(INTERVALO_DE_SINCRONIA_MS, PRIMEIRA_NOVA_TENTATIVA_MS * 2 ** (falhas - 1));
      proxima = window.setTimeout(() => void rodar(false), espera);
    };
    void rodar(true);
    return () => {
      vivo = false;
      window.clearTimeout(proxima);
    };
  }, [carregado, online, sincronizar, alterar]);

  const registrar = useCallback(
    (nova: NovaAcao): AcaoLocal => {
      const acao: AcaoLocal = {
        ponto,
        acao: { ...nova, chave: crypto.randomUUID(), feitoEm: new Date().toISOString() },
        quem: quem.current?.nome ?? '',
        conta: quem.current?.id ?? null,
        ordem: proximaOrdem(),
      };
      gravando.current.set(acao.acao.chave, acao);
      setEstado((e) => ({ ...e, locais: { ...e.locais, fila: [...e.locais.fila, acao] } }));
      void enfileirar(acao)
        .catch(() => {
          alterar({
            problema: {
              tipo: 'erro',
              codigo: 'ARMAZENAMENTO',
              mensagem:
                'Este aparelho não conseguiu guardar a última ação (falta de espaço?). Ela está na tela, mas se perde se a página fechar.',
            },
          });
        })
        .finally(() => gravando.current.delete(acao.acao.chave));
      return acao;
    },
    [ponto, alterar],
  );

  const desfazer = useCallback(
    (chave: string) => {
      gravando.current.delete(chave);
      setEstado((e) => ({ ...e, locais: { ...e.locais, fila: e.locais.fila.filter((a) => a.acao.chave !== chave) } }));
      void desfazerNaLoja(chave).then(recarregarLocais);
    },
    [recarregarLocais],
  );

  const enviarAgora = useCallback(() => {
    void sincronizar();
  }, [sincronizar]);

  const esquecer = useCallback(() => {
    alterar({ locais: { ...estado.locais, recusadas: [] } });
    void esquecerRecusadas(ponto).then(recarregarLocais);
  }, [ponto, alterar, recarregarLocais, estado.locais]);

  return { ...estado, registrar, desfazer, enviarAgora, esquecerRecusadas: esquecer };
}
