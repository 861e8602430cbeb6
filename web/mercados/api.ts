/**
 * The only module that talks to the server. Every request carries the session cookie
 * (`credentials: 'include'`, spec 5.B.10); the lint forbids `fetch` anywhere else.
 */
import type { NomePerfil } from './perfis.ts';

/** What the account may do, as the server's policy says (/auth/status): pages and links follow it. */
export interface AcoesDaConta {
  readonly criarMercado: boolean;
  readonly gerirMercados: boolean;
  readonly gerirAlgumMercado: boolean;
  readonly listarUsuarios: boolean;
  readonly atribuirPerfis: boolean;
  /** Offer in the cycles whose offer window is open. */
  readonly ofertar: boolean;
  /** Order in the cycles whose order window is open. */
  readonly pedir: boolean;
  readonly definirMercadosDoCiclo: boolean;
}

export interface Usuario {
  readonly id: number;
  readonly name: string;
  readonly email: string;
  readonly profiles: readonly NomePerfil[];
  readonly acoes: AcoesDaConta;
}

/** `cestas`, with a session: the Cestas face's address, when it runs beside this one (the same account enters it without typing again). */
export type StatusSessao =
  | { readonly authenticated: false }
  | {
      readonly authenticated: true;
      readonly user: Usuario;
      readonly cestas?: string;
      /** The community's time zone (the server's `TZ`), in which instants are shown. */
      readonly fuso?: string;
    };

/** A failure to show the person: a Portuguese message and, for invalid input, one per field. */
export class ErroApi extends Error {
  override name = 'ErroApi';
  readonly codigo: string;
  /** Field path (`input.nome`, `input.precos[2].preco`) → message. */
  readonly campos: Readonly<Record<string, string>>;
  constructor(mensagem: string, codigo: string, campos: Readonly<Record<string, string>> = {}) {
    super(mensagem);
    this.codigo = codigo;
    this.campos = campos;
  }
}

const SEM_CONEXAO = 'Não foi possível falar com o servidor. Verifique a conexão e tente novamente.';

/** Not logged in (any more): the server's /login takes the person to the provider. */
export function irParaLogin(): void {
  window.location.assign('/login');
}

async function requisitar(caminho: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(caminho, {
      ...init,
      credentials: 'include',
      headers: { accept: 'application/json', ...init.headers },
    });
  } catch {
    throw new ErroApi(SEM_CONEXAO, 'SEM_CONEXAO');
  }
}

async function lerJson<T>(r: Response): Promise<T> {
  try {
    return (await r.json()) as T;
  } catch {
    throw new ErroApi(
      `O servidor respondeu de forma inesperada (status ${r.status}). Tente novamente.`,
      'RESPOSTA_INVALIDA',
    );
  }
}

/** GET /auth/status: whether there is a session, and whose. */
export async function statusDaSessao(): Promise<StatusSessao> {
  const r = await requisitar('/auth/status');
  if (!r.ok) throw new ErroApi(`Não foi possível verificar a sessão (status ${r.status}).`, 'STATUS');
  return lerJson<StatusSessao>(r);
}

/** Ends the session on the server (POST /auth/logout with the session's CSRF token). */
export async function sair(): Promise<void> {
  const csrf = await requisitar('/auth/csrf');
  if (csrf.status === 401) return;
  if (!csrf.ok) throw new ErroApi('Não foi possível sair agora. Tente novamente.', 'LOGOUT');
  const { csrfToken } = await lerJson<{ csrfToken: string }>(csrf);
  const r = await requisitar('/auth/logout', { method: 'POST', headers: { 'x-csrf-token': csrfToken } });
  if (!r.ok) {
    const corpo = await lerJson<{ error?: string }>(r).catch(() => ({ error: undefined }));
    throw new ErroApi(corpo.error ?? 'Não foi possível sair agora. Tente novamente.', 'LOGOUT');
  }
}

interface RespostaGraphql<T> {
  readonly data?: T | null;
  readonly errors?: ReadonlyArray<{ message: string; extensions?: { code?: string; fields?: Record<string, string> } }>;
}

/** One GraphQL operation (POST /graphql, JSON). Errors become an ErroApi; 401 goes to the login. */
export async function graphql<T>(query: string, variables?: Readonly<Record<string, unknown>>): Promise<T> {
  const r = await requisitar('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(variables === undefined ? { query } : { query, variables }),
  });
  if (r.status === 401) {
    irParaLogin();
    throw new ErroApi('Sua sessão terminou. Entre de novo para continuar.', 'UNAUTHENTICATED');
  }
  const corpo = await lerJson<RespostaGraphql<T>>(r);
  const erro = corpo.errors?.[0];
  if (erro !== undefined)
    throw new ErroApi(erro.message, erro.extensions?.code ?? 'ERRO', erro.extensions?.fields ?? {});
  if (!r.ok || corpo.data === undefined || corpo.data === null) {
    throw new ErroApi(`O servidor não conseguiu responder (status ${r.status}). Tente novamente.`, 'ERRO');
  }
  return corpo.data;
}

/** The message to show for anything thrown while loading or saving. */
export function mensagemDe(e: unknown): string {
  if (e instanceof ErroApi) return e.message;
  return 'Algo deu errado. Recarregue a página e tente novamente.';
}
