/**
 * The Mercados face's policy: its four profiles, and one table of pure rules over loaded data,
 * `podeMercados(ator, acao, alvo)`, with `acoesDoMercado` for what a client may offer. Each rule
 * names the profiles the action needs (its gate, which the GraphQL @auth lists must repeat
 * exactly), then what holds on the record. What is not listed is denied. Markets and accounts both
 * read it; it reads neither of them.
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

/** The target each action is judged against (null: the action needs none). */
interface Alvos {
  /** The markets, one market by id (GraphQL mercados, mercado). */
  readonly verMercados: null;
  /** The shared product catalogue, to build prices (GraphQL produtos). */
  readonly verCatalogo: null;
  /** One's own e-mail notices (GraphQL meusAvisos, definirMeusAvisos). */
  readonly escolherAvisos: null;
  /** The cycles one can act in now, and one cycle by id (GraphQL ciclos, ciclo). */
  readonly verCiclos: null;
  /** Every cycle: all the active ones of the dashboard's span in `ciclos`, and an inactive one by its id. */
  readonly verTodosOsCiclos: null;
  readonly criarMercado: null;
  readonly atualizarMercado: { readonly adminId: number };
  /** Changing a market's adminId or ativo: who runs it, and whether it runs at all. */
  readonly gerirMercado: null;
  /** The pages that manage a market (its form, its prices); which market is judged on it. */
  readonly gerirAlgumMercado: null;
  readonly desativarMercado: null;
  readonly atualizarPrecos: { readonly adminId: number };
  /** A market's orders in a cycle (GraphQL pedidosDoMercado, and as a file). */
  readonly verPedidosDoMercado: { readonly adminId: number };
  /** A market's price list as a file (its prices are on the market for any account; the file is its management's). */
  readonly baixarPrecos: { readonly adminId: number };
  readonly listarUsuarios: null;
  readonly atribuirPerfis: null;
  /**
   * A supplier's own offers, as oneself: offering in a cycle's offer window, reading one's offers,
   * the products to offer and what one delivers (the administration acts on behalf through gravarOferta).
   */
  readonly ofertar: null;
  /** A consumer's own orders and subscriptions, as oneself: ordering in a cycle's order window, reading them. */
  readonly pedir: null;
  /**
   * Saving an offer (GraphQL salvarOferta): a supplier's own, or, for the Administrador, a supplier's
   * named by `input.usuarioid`. Whose offer it may be is the Cestas record rule (agirPor).
   */
  readonly gravarOferta: null;
  /** Making or confirming an order (GraphQL fazerPedido, confirmarPedido): one's own, or a consumer's for the Administrador. */
  readonly gravarPedido: null;
  /** Saving or skipping a subscription (GraphQL salvarAssinatura, pularCiclo): one's own, or a consumer's for the Administrador. */
  readonly gravarAssinatura: null;
  /** A subscription's season payment (GraphQL registrarPagamentoDaTemporada). */
  readonly registrarPagamento: null;
  /** Which markets a cycle serves (GraphQL definirMercadosDoCiclo). */
  readonly definirMercadosDoCiclo: null;
  /**
   * Reading a pickup point's orders and recording its pickup (GraphQL meusPontosDeRetirada,
   * retiradaDoPonto, sincronizarRetirada). The gate is any account: the right is a row of
   * `voluntario` (or the coordination's perfis), judged by src/domain/retirada/acesso.ts.
   */
  readonly trabalharNaRetirada: null;
  readonly verEmail: { readonly id: number };
  /** An account's profiles and the markets it administers. */
  readonly verConta: { readonly id: number };
}
export type AcaoMercados = keyof Alvos;

/** Who may ever take an action: any logged-in account, or whoever holds one of these profiles. */
export type PerfisDaAcao = 'qualquerConta' | readonly NomePerfil[];

/**
 * One action's rule: the profiles it needs (the gate, the same list the GraphQL field's @auth
 * carries: src/mercados/graphql/acesso.ts refuses to build a schema where they differ), then,
 * when the action is about a record, the rule on that record for whoever passed the gate.
 */
interface Regra<A extends AcaoMercados> {
  readonly perfis: PerfisDaAcao;
  readonly noRegistro?: (ator: AtorMercados, alvo: Alvos[A]) => boolean;
  /** What a refusal says; without it, the profiles the action needs. */
  readonly recusa?: readonly [codigo: string, mensagem: string];
}

const tem = (ator: AtorMercados, perfil: NomePerfil): boolean => ator.profiles.includes(perfil);
/** Past the gate of Administrador and AdminMercado: the Administrador, or the market's own AdminMercado. */
const oMercadoESeu = (ator: AtorMercados, m: { readonly adminId: number }): boolean =>
  tem(ator, 'Administrador') || m.adminId === ator.id;
/** The account itself, or the Administrador. */
const aPropriaConta = (ator: AtorMercados, u: { readonly id: number }): boolean =>
  ator.id === u.id || tem(ator, 'Administrador');

const ADMINISTRADOR = ['Administrador'] as const;
const GESTAO = ['Administrador', 'AdminMercado'] as const;

const REGRAS: { readonly [A in AcaoMercados]: Regra<A> } = {
  verMercados: { perfis: 'qualquerConta' },
  verCatalogo: { perfis: 'qualquerConta' },
  escolherAvisos: { perfis: 'qualquerConta' },
  verCiclos: { perfis: 'qualquerConta' },
  verTodosOsCiclos: { perfis: ADMINISTRADOR },
  criarMercado: { perfis: ADMINISTRADOR },
  atualizarMercado: {
    perfis: GESTAO,
    noRegistro: oMercadoESeu,
    recusa: ['MERCADO_DE_OUTRO_ADMIN', 'Acesso negado: você só pode alterar o mercado que administra'],
  },
  gerirMercado: {
    perfis: ADMINISTRADOR,
    recusa: [
      'SO_ADMINISTRADOR',
      'Acesso negado: só o perfil Administrador troca o administrador de um mercado ou o ativa e desativa',
    ],
  },
  gerirAlgumMercado: {
    perfis: GESTAO,
    recusa: ['SO_GESTAO', 'Acesso negado: requer o perfil Administrador ou AdminMercado'],
  },
  desativarMercado: { perfis: ADMINISTRADOR },
  atualizarPrecos: {
    perfis: GESTAO,
    noRegistro: oMercadoESeu,
    recusa: ['MERCADO_DE_OUTRO_ADMIN', 'Acesso negado: você só pode alterar os preços do mercado que administra'],
  },
  verPedidosDoMercado: {
    perfis: GESTAO,
    noRegistro: oMercadoESeu,
    recusa: ['MERCADO_DE_OUTRO_ADMIN', 'Acesso negado: você só pode ver os pedidos do mercado que administra'],
  },
  baixarPrecos: {
    perfis: GESTAO,
    noRegistro: oMercadoESeu,
    recusa: ['MERCADO_DE_OUTRO_ADMIN', 'Acesso negado: você só pode baixar os preços do mercado que administra'],
  },
  listarUsuarios: { perfis: ADMINISTRADOR },
  atribuirPerfis: { perfis: ADMINISTRADOR },
  ofertar: { perfis: ['Fornecedor'] },
  pedir: { perfis: ['Consumidor'] },
  gravarOferta: { perfis: ['Fornecedor', 'Administrador'] },
  gravarPedido: { perfis: ['Consumidor', 'Administrador'] },
  gravarAssinatura: { perfis: ['Consumidor', 'Administrador'] },
  registrarPagamento: { perfis: ADMINISTRADOR },
  definirMercadosDoCiclo: { perfis: ADMINISTRADOR },
  trabalharNaRetirada: { perfis: 'qualquerConta' },
  verEmail: {
    perfis: 'qualquerConta',
    noRegistro: aPropriaConta,
    recusa: ['EMAIL_DE_OUTRA_PESSOA', 'Acesso negado: o e-mail de outra pessoa só é visível ao perfil Administrador'],
  },
  // Like `usuarios`, which only Administrador lists: someone else's roles and markets are theirs.
  verConta: {
    perfis: 'qualquerConta',
    noRegistro: aPropriaConta,
    recusa: [
      'CONTA_DE_OUTRA_PESSOA',
      'Acesso negado: os perfis e os mercados de outra pessoa só são visíveis ao perfil Administrador',
    ],
  },
};

/** Every action of the table. */
export const ACOES_MERCADOS = Object.keys(REGRAS) as AcaoMercados[];

/** The profiles an action needs (its gate): what the @auth of a GraphQL field guarded by it must list. */
export function perfisDaAcao(acao: AcaoMercados): PerfisDaAcao {
  return REGRAS[acao].perfis;
}

function passaNoPortao(ator: AtorMercados, perfis: PerfisDaAcao): boolean {
  return perfis === 'qualquerConta' || ator.profiles.some((p) => perfis.includes(p));
}

/** A refusal that names the profiles, as the GraphQL @auth does. */
function recusaPorPerfis(perfis: PerfisDaAcao): readonly [string, string] {
  if (perfis === 'qualquerConta') return ['SEM_PERMISSAO', 'Acesso negado'];
  const [um, ...outros] = perfis;
  if (outros.length === 0) return [`SO_${(um ?? '').toUpperCase()}`, `Acesso negado: requer o perfil ${um ?? ''}`];
  return ['SEM_PERFIL', `Acesso negado: requer um dos perfis ${perfis.join(', ')}`];
}

/** Whether the actor may perform the action on the target: the gate, then the rule on the record. */
export function podeMercados<A extends AcaoMercados>(ator: AtorMercados, acao: A, alvo: Alvos[A]): boolean {
  const regra: Regra<A> = REGRAS[acao];
  return passaNoPortao(ator, regra.perfis) && (regra.noRegistro === undefined || regra.noRegistro(ator, alvo));
}

/** Throws Proibido unless the actor may perform the action on the target. */
export function autorizarMercados<A extends AcaoMercados>(ator: AtorMercados, acao: A, alvo: Alvos[A]): void {
  if (!podeMercados(ator, acao, alvo)) {
    const regra: Regra<A> = REGRAS[acao];
    const [codigo, mensagem] = regra.recusa ?? recusaPorPerfis(regra.perfis);
    throw new Proibido(codigo, mensagem);
  }
}

export interface AcoesDoMercado {
  readonly editar: boolean;
  readonly editarPrecos: boolean;
  readonly desativar: boolean;
  /** See the market's orders in a cycle (GraphQL pedidosDoMercado). */
  readonly verPedidos: boolean;
  /** Download the market's price list (/planilhas/mercados/:id/precos). */
  readonly baixarPrecos: boolean;
}

/** What the actor may do with a market, from the same table, sent along with the market. */
export function acoesDoMercado(
  ator: AtorMercados,
  m: { readonly adminId: number; readonly ativo: boolean },
): AcoesDoMercado {
  return {
    editar: podeMercados(ator, 'atualizarMercado', m),
    editarPrecos: podeMercados(ator, 'atualizarPrecos', m),
    desativar: m.ativo && podeMercados(ator, 'desativarMercado', null),
    verPedidos: podeMercados(ator, 'verPedidosDoMercado', m),
    baixarPrecos: podeMercados(ator, 'baixarPrecos', m),
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
