import { Invalido, Proibido } from './erros.ts';
import type { Fase, Janela } from './ciclos/calendario.ts';
import type { Perfil } from './perfis.ts';

/** Who is acting: the logged-in identity and, once registered, the Usuario behind it. */
export interface Ator {
  readonly email: string;
  readonly nome: string;
  /** null while the identity has no Usuario record yet. */
  readonly usuarioid: number | null;
  readonly perfil: readonly Perfil[];
  readonly ativo: boolean;
  /** Has an active subscription (read with the session): the dashboard reads subscriptions only then. */
  readonly assinante?: boolean;
}

/**
 * Every action a route can ask for. The table below is the one place that says who may do it;
 * anything not listed is denied.
 */
export const ACOES = [
  'painel',
  'perfilProprio',
  'catalogoLer',
  'catalogoEscrever',
  'usuariosLer',
  'usuariosEscrever',
  'auditoriaLer',
  'ofertasLer',
  'ofertasEscrever',
  'composicaoLer',
  'composicaoEscrever',
  'pedidosLer',
  'pedidosEscrever',
  'financeiroLer',
  'financeiroEscrever',
  'relatoriosFornecedores',
  'relatoriosConsumidores',
  'documentoEntrega',
  'loginLiberar',
  'cicloReabrir',
  'mensagensLer',
  'mensagensEnviar',
  'assinaturasTodas',
  'ofertaPropria',
  'pedidoProprio',
  'assinaturaPropria',
  'pendenciasLer',
  'masterConceder',
  'retiradaAcompanhar',
  'voluntariosNomear',
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
  // Releasing an account's login binding hands the account to whoever logs in next with its e-mail.
  loginLiberar: ['master'],
  // Reopening a closed cycle undoes the lock its movements rely on: a master, with a reason, audited.
  cicloReabrir: ['master'],
  // The outbox holds every member's e-mail address and what was sent to them.
  mensagensLer: ['master', 'admin'],
  // A message to everyone in a cycle, or a resend: the coordination speaks for the community.
  mensagensEnviar: ['master', 'admin'],
  // Every subscription with its consumer, and the totals the coordination plans with (read only).
  assinaturasTodas: ['master', 'admin', 'info'],
  // Having one's own offer, order or subscription: the pages open on it, the menu and the
  // dashboard show it. (Whoever acts for others names the person: see agirPor and podeSerDono.)
  ofertaPropria: ['fornecedor'],
  pedidoProprio: ['consumidor'],
  assinaturaPropria: ['consumidor'],
  // Who has not offered, ordered or paid yet in a cycle under way: the coordination's list.
  pendenciasLer: ['master', 'admin'],
  // Granting or removing master (the domain rule is in usuarios.ts; the form greys the option out).
  masterConceder: ['master'],
  // The pickup day (docs/dominio.md, "A retirada"): the coordination follows every point live, and
  // names who runs each point in a cycle. A volunteer's own narrow right is not a perfil: it is a
  // row of `voluntario`, checked by src/domain/retirada/acesso.ts.
  retiradaAcompanhar: ['master', 'admin'],
  voluntariosNomear: ['master', 'admin'],
};

/** The action of having one's own record of each kind, in the table above. */
const PROPRIA: Readonly<Record<Posse, Acao>> = { oferta: 'ofertaPropria', pedido: 'pedidoProprio' };

/**
 * Whether a person (anyone's record, not only the actor) can own a record of this kind: an offer
 * is a supplier's, an order a consumer's. Read from the same table as `pode`.
 */
export function podeSerDono(pessoa: Pessoa, posse: Posse): boolean {
  const regra = REGRAS[PROPRIA[posse]];
  return regra === 'qualquerUsuario' || pessoa.perfil.some((p) => regra.includes(p));
}

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

/** Anyone whose roles matter here: the actor, or a person's record. */
type Pessoa = { readonly perfil: readonly Perfil[] };

export function temPerfil(pessoa: Pessoa, ...perfis: Perfil[]): boolean {
  return pessoa.perfil.some((p) => perfis.includes(p));
}

/** A person (the actor, or anyone's record) is a party to a cycle by these profiles: who offers, who orders. */
export function ehFornecedor(pessoa: Pessoa): boolean {
  return pessoa.perfil.includes('fornecedor');
}

export function ehConsumidor(pessoa: Pessoa): boolean {
  return pessoa.perfil.includes('consumidor');
}

/** master: the one who grants or removes master, and releases a login binding. */
export function ehMaster(pessoa: Pessoa): boolean {
  return pessoa.perfil.includes('master');
}

/** admin and master act for anyone and at any time. */
export function ehGestor(pessoa: Pessoa): boolean {
  return temPerfil(pessoa, 'admin', 'master');
}

/** admin, master and info see everyone's records. */
export function veTudo(pessoa: Pessoa): boolean {
  return temPerfil(pessoa, 'admin', 'master', 'info');
}

// ---------------------------------------------------------------------------------------------
// A cycle's steps: who takes each one, and in which phase. The dashboard's "next step" reads them.

export const ACOES_DO_CICLO = ['ofertar', 'compor', 'pedir', 'entregar', 'retirar'] as const;
export type AcaoDoCiclo = (typeof ACOES_DO_CICLO)[number];

type Momento = Pick<JanelaDoCiclo, 'fase' | 'abertas'>;

/**
 * Each step: when it is due (its own window, for offers and orders, which may be open together;
 * else the phase), who takes it, and how the dashboard names it.
 */
const PASSOS_DO_CICLO: Readonly<
  Record<
    AcaoDoCiclo,
    { readonly quando: (m: Momento) => boolean; readonly quem: (p: Pessoa) => boolean; readonly nome: string }
  >
> = {
  ofertar: {
    quando: (m) => m.abertas.includes('oferta'),
    quem: ehFornecedor,
    nome: 'Registrar sua oferta de produtos',
  },
  compor: { quando: (m) => m.fase === 'composicao', quem: ehGestor, nome: 'Compor as cestas do ciclo' },
  pedir: { quando: (m) => m.abertas.includes('pedido'), quem: ehConsumidor, nome: 'Fazer seu pedido' },
  entregar: { quando: (m) => m.fase === 'retirada', quem: ehFornecedor, nome: 'Entregar o que foi pedido' },
  retirar: { quando: (m) => m.fase === 'retirada', quem: ehConsumidor, nome: 'Retirar sua cesta no ponto de entrega' },
};

export const nomeDoPasso = (acao: AcaoDoCiclo): string => PASSOS_DO_CICLO[acao].nome;

/** What this person can do in a cycle today, in the order to show. */
export function proximasAcoes(pessoa: Pessoa, momento: Momento): AcaoDoCiclo[] {
  return ACOES_DO_CICLO.filter((a) => PASSOS_DO_CICLO[a].quando(momento) && PASSOS_DO_CICLO[a].quem(pessoa));
}

/** The refusal for acting on, or looking at, another person's order or offer (or for naming nobody). */
export const RECUSAS_DE_DONO = {
  pedido: {
    codigo: 'PEDIDO_DE_OUTRA_PESSOA',
    escrever: 'Você só pode fazer os seus próprios pedidos',
    ver: 'Você só pode ver os seus próprios pedidos',
    propria: 'pedidoProprio',
    escolha: 'Escolha o consumidor',
    semDono: 'Informe ?usuarioid= com o consumidor do pedido',
  },
  oferta: {
    codigo: 'OFERTA_DE_OUTRA_PESSOA',
    escrever: 'Você só pode registrar as suas próprias ofertas',
    ver: 'Você só pode ver as suas próprias ofertas',
    propria: 'ofertaPropria',
    escolha: 'Escolha o fornecedor',
    semDono: 'Informe ?usuarioid= com o fornecedor da oferta',
  },
} as const;
export type Posse = keyof typeof RECUSAS_DE_DONO;

/**
 * Refuses an actor who names another person (`usuarioid`) on a write they may make only for
 * themselves. Pure, so a use case calls it before validating anything else in the body: a
 * refused write must never reveal, through its validation errors or a redrawn form, anything
 * about someone the actor may not act for. Returns the actor's own id (they have a record).
 */
export function exigirAgirPor(ator: Ator, usuarioid: number | null, posse: Posse): number {
  if (ator.usuarioid === null) throw new Proibido('SEM_CADASTRO', 'Complete seu cadastro antes de continuar');
  if (usuarioid !== null && !REGRAS_NO_REGISTRO.agirPor(ator, { usuarioid })) {
    throw new Proibido(RECUSAS_DE_DONO[posse].codigo, RECUSAS_DE_DONO[posse].escrever);
  }
  return ator.usuarioid;
}

/**
 * Whose order or offer page an actor may see: the person named, when it is themselves or they see
 * everything; null when none is named. The page and every redraw of its form after a refusal go
 * through this one rule, so an error path never shows what the page would refuse.
 */
export function donoVisivel(ator: Ator, usuarioid: number | null, posse: Posse): number | null {
  if (usuarioid !== null && !REGRAS_NO_REGISTRO.verDe(ator, { usuarioid })) {
    throw new Proibido(RECUSAS_DE_DONO[posse].codigo, RECUSAS_DE_DONO[posse].ver);
  }
  return usuarioid;
}

/**
 * Whose order or offer page to show: the person named (when the actor may see theirs), else the
 * actor's own; someone with none of their own (the coordination) must name one.
 */
export function donoDaPagina(ator: Ator, usuarioid: number | null, posse: Posse): number {
  const dono = donoVisivel(ator, usuarioid, posse);
  if (dono !== null) return dono;
  const { propria, escolha, semDono } = RECUSAS_DE_DONO[posse];
  if (!pode(ator, propria)) throw new Invalido('VALIDACAO', escolha, { usuarioid: semDono });
  return ator.usuarioid ?? 0;
}

// ---------------------------------------------------------------------------------------------
// Rules about one record: whose it is, and the cycle's window. The routes, the pages and the JSON
// `acoes` read them here; no route works out who may edit by itself.

/** What the rules about editing need of a cycle. */
export interface JanelaDoCiclo {
  readonly fase: Fase;
  /** The writing windows open today, each checked on its own (they may share a day). */
  readonly abertas: readonly Janela[];
  readonly ativo: boolean;
  readonly fechadoEm: string | null;
}

/** The target each action is judged against. */
interface Alvos {
  /** A supplier's offer in a cycle. */
  readonly editarOferta: { readonly usuarioid: number; readonly ciclo: JanelaDoCiclo };
  /** A consumer's order in a cycle. */
  readonly editarPedido: { readonly usuarioid: number; readonly ciclo: JanelaDoCiclo };
  readonly confirmarPedido: { readonly usuarioid: number };
  /** Someone's order, offer or receipt: the person and whoever sees everything. */
  readonly verDe: { readonly usuarioid: number };
  /** Acting on someone's record: the person and whoever acts for anyone. */
  readonly agirPor: { readonly usuarioid: number };
}
export type AcaoNoRegistro = keyof Alvos;

const proprio = (ator: Ator, alvo: { readonly usuarioid: number }): boolean =>
  ator.usuarioid !== null && ator.usuarioid === alvo.usuarioid;

/**
 * The person edits inside the cycle's window while it is active; admin and master at any time.
 * A closed cycle is closed for everyone, the coordination included.
 */
const naJanela =
  (janela: Janela) =>
  (ator: Ator, alvo: Alvos['editarOferta']): boolean =>
    alvo.ciclo.fechadoEm === null &&
    (ehGestor(ator) || (proprio(ator, alvo) && alvo.ciclo.abertas.includes(janela) && alvo.ciclo.ativo));

const REGRAS_NO_REGISTRO: { readonly [A in AcaoNoRegistro]: (ator: Ator, alvo: Alvos[A]) => boolean } = {
  editarOferta: naJanela('oferta'),
  editarPedido: naJanela('pedido'),
  confirmarPedido: (a, p) => proprio(a, p) || ehGestor(a),
  verDe: (a, x) => proprio(a, x) || veTudo(a),
  agirPor: (a, x) => proprio(a, x) || ehGestor(a),
};

/** Whether the actor may perform the action on the record (inactive or unregistered: never). */
export function podeNoRegistro<A extends AcaoNoRegistro>(ator: Ator, acao: A, alvo: Alvos[A]): boolean {
  if (ator.usuarioid === null || !ator.ativo) return false;
  return REGRAS_NO_REGISTRO[acao](ator, alvo);
}

/** What the offer page offers (sent as `acoes`): the same rule the write applies. */
export function acoesDaOferta(ator: Ator, alvo: Alvos['editarOferta']): { readonly editar: boolean } {
  return { editar: podeNoRegistro(ator, 'editarOferta', alvo) };
}

/**
 * What the order pages offer (sent as `acoes`). Confirming is a write in the order's window, like
 * editing: the person's own order, or anyone's for the coordination, while the cycle is open.
 */
export function acoesDoPedido(
  ator: Ator,
  alvo: Alvos['editarPedido'],
): { readonly editar: boolean; readonly confirmar: boolean } {
  const editar = podeNoRegistro(ator, 'editarPedido', alvo);
  return { editar, confirmar: editar && podeNoRegistro(ator, 'confirmarPedido', alvo) };
}
