import { Proibido } from './erros.ts';
import type { Perfil } from './perfis.ts';

/** Who is acting: the logged-in identity and, once registered, the Usuario behind it. */
export interface Ator {
  readonly email: string;
  readonly nome: string;
  /** null while the identity has no Usuario record yet. */
  readonly usuarioid: number | null;
  readonly perfil: readonly Perfil[];
  readonly ativo: boolean;
}

/**
 * Every action a route can ask for. The table below is the one place that says who may do it;
 * anything not listed is denied.
 */
export const ACOES = [
  'painel', 'perfilProprio', 'catalogoLer', 'catalogoEscrever', 'usuariosLer', 'usuariosEscrever', 'auditoriaLer',
  'ofertasLer', 'ofertasEscrever', 'composicaoLer', 'composicaoEscrever', 'pedidosLer', 'pedidosEscrever',
  'financeiroLer', 'financeiroEscrever', 'relatoriosFornecedores', 'relatoriosConsumidores', 'documentoEntrega',
] as const;
export type Acao = (typeof ACOES)[number];

type Regra = readonly Perfil[] | 'qualquerUsuario';

/** DOMAIN.md "Access (Variant A)": a user's rights are the union over their perfil values. */
const REGRAS: Readonly<Record<Acao, Regra>> = {
  painel: 'qualquerUsuario',
  perfilProprio: 'qualquerUsuario',
  catalogoLer: ['master', 'admin', 'info'],
  catalogoEscrever: ['master', 'admin'],
  usuariosLer: ['master', 'admin', 'info'],
  usuariosEscrever: ['master', 'admin'],
  auditoriaLer: ['master', 'admin'],
  // Suppliers reach only their own offers, and consumers their own orders: the domain scopes
  // every query and checks every id against the actor (see ehGestor below).
  ofertasLer: ['master', 'admin', 'info', 'fornecedor'],
  ofertasEscrever: ['master', 'admin', 'fornecedor'],
  composicaoLer: ['master', 'admin', 'info'],
  composicaoEscrever: ['master', 'admin'],
  pedidosLer: ['master', 'admin', 'info', 'consumidor'],
  pedidosEscrever: ['master', 'admin', 'consumidor'],
  financeiroLer: ['master', 'admin', 'info', 'fornecedor', 'consumidor'],
  financeiroEscrever: ['master', 'admin'],
  // Reports: suppliers see only their own rows, consumers only their own (scoped in the domain).
  relatoriosFornecedores: ['master', 'admin', 'info', 'fornecedor'],
  relatoriosConsumidores: ['master', 'admin', 'info', 'consumidor'],
  documentoEntrega: ['master', 'admin', 'info', 'fornecedor', 'consumidor'],
};

/** Whether the actor may perform the action; inactive or unregistered users may do nothing here. */
export function pode(ator: Ator, acao: Acao): boolean {
  if (ator.usuarioid === null || !ator.ativo) return false;
  const regra = REGRAS[acao];
  if (regra === 'qualquerUsuario') return true;
  return ator.perfil.some((p) => regra.includes(p));
}

/** Throws Proibido unless the actor may perform the action. */
export function autorizar(ator: Ator, acao: Acao): void {
  if (ator.usuarioid !== null && !ator.ativo) {
    throw new Proibido('USUARIO_INATIVO', 'Seu cadastro está desativado. Fale com a coordenação da comunidade.');
  }
  if (!pode(ator, acao)) throw new Proibido('SEM_PERMISSAO', 'Você não tem permissão para esta ação');
}

export function temPerfil(ator: Ator, ...perfis: Perfil[]): boolean {
  return ator.perfil.some((p) => perfis.includes(p));
}

/** admin and master act for anyone and at any time. */
export function ehGestor(ator: Ator): boolean {
  return temPerfil(ator, 'admin', 'master');
}

/** admin, master and info see everyone's records. */
export function veTudo(ator: Ator): boolean {
  return temPerfil(ator, 'admin', 'master', 'info');
}
