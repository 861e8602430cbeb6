/**
 * The only module of the pickup app that talks to the server (the lint allows `fetch` here).
 * Every request carries the session cookie. Unlike the Mercados client, a missing session does not
 * send the person to the login: the app keeps its queue and says so (the login link returns here).
 */
import type { AcaoParaEnviar, PontoDeRetirada, ResultadoDaAcao, RetiradaDoPonto } from './tipos.ts';

export type CodigoDeErro =
  'SEM_CONEXAO' | 'UNAUTHENTICATED' | 'FORBIDDEN' | 'PEDIDOS_ABERTOS' | 'BAD_USER_INPUT' | 'ERRO';

export class ErroApi extends Error {
  override name = 'ErroApi';
  readonly codigo: CodigoDeErro;
  constructor(mensagem: string, codigo: CodigoDeErro) {
    super(mensagem);
    this.codigo = codigo;
  }
}

const SEM_CONEXAO = 'Sem conexão com o servidor agora.';
export const SESSAO_EXPIRADA = 'Sua sessão expirou.';
/** A request that hangs (a weak signal in the hall) gives up and is tried again later. */
const ESPERA_MAXIMA_MS = 30_000;

async function requisitar(caminho: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(caminho, {
      ...init,
      credentials: 'include',
      cache: 'no-store',
      signal: AbortSignal.timeout(ESPERA_MAXIMA_MS),
      headers: { accept: 'application/json', ...init.headers },
    });
  } catch {
    throw new ErroApi(SEM_CONEXAO, 'SEM_CONEXAO');
  }
}

export interface Sessao {
  readonly autenticada: boolean;
  /** The account (its id and name) when there is a session. */
  readonly conta: { readonly id: number; readonly nome: string } | null;
}

/** GET /auth/status: whether there is a session, and whose name to record on the actions. */
export async function sessaoAtual(): Promise<Sessao> {
  const r = await requisitar('/auth/status');
  if (!r.ok) throw new ErroApi(`Não foi possível verificar a sessão (status ${r.status}).`, 'ERRO');
  const corpo = (await r.json().catch(() => null)) as {
    authenticated?: boolean;
    user?: { id?: number; name?: string };
  } | null;
  const id = corpo?.user?.id;
  return {
    autenticada: corpo?.authenticated === true,
    conta: corpo?.authenticated === true && typeof id === 'number' ? { id, nome: corpo.user?.name ?? '' } : null,
  };
}

interface RespostaGraphql<T> {
  readonly data?: T | null;
  readonly errors?: ReadonlyArray<{ message: string; extensions?: { code?: string } }>;
}

const CODIGOS: readonly CodigoDeErro[] = ['UNAUTHENTICATED', 'FORBIDDEN', 'PEDIDOS_ABERTOS', 'BAD_USER_INPUT'];

async function graphql<T>(query: string, variables: Readonly<Record<string, unknown>> = {}): Promise<T> {
  const r = await requisitar('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  if (r.status === 401) throw new ErroApi(SESSAO_EXPIRADA, 'UNAUTHENTICATED');
  let corpo: RespostaGraphql<T>;
  try {
    corpo = (await r.json()) as RespostaGraphql<T>;
  } catch {
    // A captive portal or a proxy's error page: not our server's answer, so as good as no network.
    throw new ErroApi(`O servidor respondeu de forma inesperada (status ${r.status}).`, 'SEM_CONEXAO');
  }
  const erro = corpo.errors?.[0];
  if (erro !== undefined) {
    const codigo = CODIGOS.find((c) => c === erro.extensions?.code) ?? 'ERRO';
    throw new ErroApi(codigo === 'UNAUTHENTICATED' ? SESSAO_EXPIRADA : erro.message, codigo);
  }
  if (!r.ok || corpo.data === undefined || corpo.data === null)
    throw new ErroApi(`O servidor não conseguiu responder (status ${r.status}). Tente de novo.`, 'ERRO');
  return corpo.data;
}

export async function meusPontos(): Promise<PontoDeRetirada[]> {
  const d = await graphql<{ meusPontosDeRetirada: PontoDeRetirada[] }>(
    `query MeusPontosDeRetirada { meusPontosDeRetirada { cicloId cicloNome pontoId pontoNome dataRetirada horaInicio horaFim pedidos } }`,
  );
  return d.meusPontosDeRetirada;
}

const ACAO =
  'chave tipo pedidoId pedidoProdutoId produtoId quantidade substituto valor forma texto feitoEm dispositivo quem';

export async function retiradaDoPonto(cicloId: string, pontoId: string): Promise<RetiradaDoPonto> {
  const d = await graphql<{ retiradaDoPonto: RetiradaDoPonto }>(
    `query RetiradaDoPonto($cicloId: ID!, $pontoId: ID!) {
      retiradaDoPonto(cicloId: $cicloId, pontoId: $pontoId) {
        cicloId cicloNome pontoId pontoNome endereco dataRetirada horaInicio horaFim geradoEm
        pedidos { id pessoa telefone assinatura total devido pago pix token
          itens { pedidoProdutoId tipo nome unidade quantidade cicloCestaId } }
        cestas { cicloCestaId nome itens { produtoId nome unidade quantidadePorCesta } }
        acoes { ${ACAO} }
      }
    }`,
    { cicloId, pontoId },
  );
  return d.retiradaDoPonto;
}

/** The most actions one call may carry (the server refuses more). */
export const ACOES_POR_ENVIO = 100;

export async function sincronizarRetirada(
  cicloId: string,
  pontoId: string,
  dispositivo: string,
  acoes: readonly AcaoParaEnviar[],
): Promise<ResultadoDaAcao[]> {
  const d = await graphql<{ sincronizarRetirada: ResultadoDaAcao[] }>(
    `mutation SincronizarRetirada($cicloId: ID!, $pontoId: ID!, $dispositivo: ID!, $acoes: [AcaoDeRetiradaInput!]!) {
      sincronizarRetirada(cicloId: $cicloId, pontoId: $pontoId, dispositivo: $dispositivo, acoes: $acoes) { chave estado mensagem }
    }`,
    { cicloId, pontoId, dispositivo, acoes },
  );
  return d.sincronizarRetirada;
}
