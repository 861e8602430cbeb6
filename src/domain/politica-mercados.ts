/**
 * The Mercados face's policy: its four profiles, and one table of pure rules over loaded data,
 * `podeMercados(ator, acao, alvo)`, with `acoesDoMercado` for what a client may offer. What is
 * not listed is denied. Markets and accounts both read it; it reads neither of them.
 */
import type { Ator } from './acesso.ts';
import { Proibido } from './erros.ts';

/** The four access profiles (spec, section 2), in canonical order. */
export const PROFILES = ['Administrador', 'AdminMercado', 'Fornecedor', 'Consumidor'] as const;
export type NomePerfil = (typeof PROFILES)[number];

/** What each profile may do (spec, section 2), as people read it. */
export const DESCRICOES_PERFIS: Readonly<Record<NomePerfil, string>> = {
  Administrador: 'Administração geral: todas as funções',
  AdminMercado: 'Administração de um mercado: o próprio mercado, seus produtos e preços',
  Fornecedor: 'Produtor ou fornecedor: registra ofertas e vê os próprios pedidos',
  Consumidor: 'Consumidor: faz pedidos e vê os ciclos disponíveis',
};

/** What every account created at login receives. */
export const PERFIL_PADRAO: NomePerfil = 'Consumidor';

/** Who acts: the logged-in account and its profiles. */
export interface AtorMercados {
  readonly id: number;
  readonly email: string;
  readonly name: string;
  readonly profiles: readonly NomePerfil[];
  /** The person's Cestas record, when the account is linked to one. */
  readonly usuarioId?: number | null;
}

/** The target each action is judged against. */
interface Alvos {
  readonly criarMercado: null;
  readonly atualizarMercado: { readonly adminId: number };
  /** Changing a market's adminId or ativo: who runs it, and whether it runs at all. */
  readonly gerirMercado: null;
  /** The pages that manage a market (its form, its prices); which market is judged on it. */
  readonly gerirAlgumMercado: null;
  readonly desativarMercado: null;
  readonly atualizarPrecos: { readonly adminId: number };
  /** A market's orders in a cycle (GraphQL pedidosDoMercado). */
  readonly verPedidosDoMercado: { readonly adminId: number };
  readonly listarUsuarios: null;
  readonly atribuirPerfis: null;
  /** Offering in a cycle's offer window, as oneself (the administration acts on behalf through the API). */
  readonly ofertar: null;
  /** Ordering in a cycle's order window, as oneself. */
  readonly pedir: null;
  /** Which markets a cycle serves (GraphQL definirMercadosDoCiclo). */
  readonly definirMercadosDoCiclo: null;
  readonly verEmail: { readonly id: number };
  /** An account's profiles and the markets it administers. */
  readonly verConta: { readonly id: number };
}
export type AcaoMercados = keyof Alvos;

const tem = (ator: AtorMercados, perfil: NomePerfil): boolean => ator.profiles.includes(perfil);
const administraOMercado = (ator: AtorMercados, m: { readonly adminId: number }): boolean =>
  tem(ator, 'AdminMercado') && m.adminId === ator.id;

const REGRAS: { readonly [A in AcaoMercados]: (ator: AtorMercados, alvo: Alvos[A]) => boolean } = {
  criarMercado: (a) => tem(a, 'Administrador'),
  atualizarMercado: (a, m) => tem(a, 'Administrador') || administraOMercado(a, m),
  gerirMercado: (a) => tem(a, 'Administrador'),
  gerirAlgumMercado: (a) => tem(a, 'Administrador') || tem(a, 'AdminMercado'),
  desativarMercado: (a) => tem(a, 'Administrador'),
  atualizarPrecos: (a, m) => tem(a, 'Administrador') || administraOMercado(a, m),
  verPedidosDoMercado: (a, m) => tem(a, 'Administrador') || administraOMercado(a, m),
  listarUsuarios: (a) => tem(a, 'Administrador'),
  atribuirPerfis: (a) => tem(a, 'Administrador'),
  ofertar: (a) => tem(a, 'Fornecedor'),
  pedir: (a) => tem(a, 'Consumidor'),
  definirMercadosDoCiclo: (a) => tem(a, 'Administrador'),
  verEmail: (a, u) => a.id === u.id || tem(a, 'Administrador'),
  // Like `usuarios`, which only Administrador lists: someone else's roles and markets are theirs.
  verConta: (a, u) => a.id === u.id || tem(a, 'Administrador'),
};

/** What a refusal says, per action. */
const RECUSAS: { readonly [A in AcaoMercados]: readonly [codigo: string, mensagem: string] } = {
  criarMercado: ['SO_ADMINISTRADOR', 'Acesso negado: requer o perfil Administrador'],
  atualizarMercado: ['MERCADO_DE_OUTRO_ADMIN', 'Acesso negado: você só pode alterar o mercado que administra'],
  gerirMercado: ['SO_ADMINISTRADOR', 'Acesso negado: só o perfil Administrador troca o administrador de um mercado ou o ativa e desativa'],
  gerirAlgumMercado: ['SO_GESTAO', 'Acesso negado: requer o perfil Administrador ou AdminMercado'],
  desativarMercado: ['SO_ADMINISTRADOR', 'Acesso negado: requer o perfil Administrador'],
  atualizarPrecos: ['MERCADO_DE_OUTRO_ADMIN', 'Acesso negado: você só pode alterar os preços do mercado que administra'],
  verPedidosDoMercado: ['MERCADO_DE_OUTRO_ADMIN', 'Acesso negado: você só pode ver os pedidos do mercado que administra'],
  listarUsuarios: ['SO_ADMINISTRADOR', 'Acesso negado: requer o perfil Administrador'],
  atribuirPerfis: ['SO_ADMINISTRADOR', 'Acesso negado: requer o perfil Administrador'],
  ofertar: ['SO_FORNECEDOR', 'Acesso negado: requer o perfil Fornecedor'],
  pedir: ['SO_CONSUMIDOR', 'Acesso negado: requer o perfil Consumidor'],
  definirMercadosDoCiclo: ['SO_ADMINISTRADOR', 'Acesso negado: requer o perfil Administrador'],
  verEmail: ['EMAIL_DE_OUTRA_PESSOA', 'Acesso negado: o e-mail de outra pessoa só é visível ao perfil Administrador'],
  verConta: ['CONTA_DE_OUTRA_PESSOA', 'Acesso negado: os perfis e os mercados de outra pessoa só são visíveis ao perfil Administrador'],
};

/** Whether the actor may perform the action on the target. */
export function podeMercados<A extends AcaoMercados>(ator: AtorMercados, acao: A, alvo: Alvos[A]): boolean {
  return REGRAS[acao](ator, alvo);
}

/** Throws Proibido unless the actor may perform the action on the target. */
export function autorizarMercados<A extends AcaoMercados>(ator: AtorMercados, acao: A, alvo: Alvos[A]): void {
  if (!podeMercados(ator, acao, alvo)) {
    const [codigo, mensagem] = RECUSAS[acao];
    throw new Proibido(codigo, mensagem);
  }
}

export interface AcoesDoMercado {
  readonly editar: boolean;
  readonly editarPrecos: boolean;
  readonly desativar: boolean;
  /** See the market's orders in a cycle (GraphQL pedidosDoMercado). */
  readonly verPedidos: boolean;
}

/** What the actor may do with a market, from the same table, sent along with the market. */
export function acoesDoMercado(ator: AtorMercados, m: { readonly adminId: number; readonly ativo: boolean }): AcoesDoMercado {
  return {
    editar: podeMercados(ator, 'atualizarMercado', m),
    editarPrecos: podeMercados(ator, 'atualizarPrecos', m),
    desativar: m.ativo && podeMercados(ator, 'desativarMercado', null),
    verPedidos: podeMercados(ator, 'verPedidosDoMercado', m),
  };
}

/** What the account may do anywhere in the face: the client builds its navigation and guards from it, never from profile names. */
export interface AcoesDaConta {
  readonly criarMercado: boolean;
  readonly gerirMercados: boolean;
  readonly gerirAlgumMercado: boolean;
  readonly listarUsuarios: boolean;
  readonly atribuirPerfis: boolean;
  readonly ofertar: boolean;
  readonly pedir: boolean;
  readonly definirMercadosDoCiclo: boolean;
}

export function acoesDaConta(ator: AtorMercados): AcoesDaConta {
  return {
    criarMercado: podeMercados(ator, 'criarMercado', null),
    gerirMercados: podeMercados(ator, 'gerirMercado', null),
    gerirAlgumMercado: podeMercados(ator, 'gerirAlgumMercado', null),
    listarUsuarios: podeMercados(ator, 'listarUsuarios', null),
    atribuirPerfis: podeMercados(ator, 'atribuirPerfis', null),
    ofertar: podeMercados(ator, 'ofertar', null),
    pedir: podeMercados(ator, 'pedir', null),
    definirMercadosDoCiclo: podeMercados(ator, 'definirMercadosDoCiclo', null),
  };
}

/**
 * The audit trail names a Usuario: the person the account is linked to, or none (the line then
 * carries only the account's e-mail).
 */
export function atorDaAuditoria(ator: AtorMercados): Ator {
  return { email: ator.email, nome: ator.name, usuarioid: ator.usuarioId ?? null, perfil: [], ativo: true };
}
