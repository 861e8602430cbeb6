import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Table types: the database type is their intersection. Money is integer cents (…Centavos),
 * quantities are integer thousandths (…Milesimos), instants and dates are ISO text, so both
 * dialects return identical values.
 */
type Id = Generated<number>;
interface Datas {
  createdAt: string;
  updatedAt: string;
}
/** Booleans with a database default. */
type BoolPadrao = ColumnType<boolean, boolean | undefined, boolean>;

export interface CategoriaTabela extends Datas {
  id: Id;
  nome: string;
  nomeChave: string;
  descricao: string | null;
  ativo: BoolPadrao;
}

export interface CestaTabela extends Datas {
  id: Id;
  nome: string;
  nomeChave: string;
  descricao: string | null;
  valorReferenciaCentavos: number;
  pesoAproximado: number | null;
  ativo: BoolPadrao;
  /** The cap on active subscriptions of this basket type; null: no cap. */
  limiteAssinaturas: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface ProdutoTabela extends Datas {
  id: Id;
  nome: string;
  nomeChave: string;
  unidade: string;
  pesoGramas: number | null;
  valorReferenciaCentavos: number;
  descritivo: string | null;
  categoriaid: number | null;
  ativo: BoolPadrao;
}

export interface PontoEntregaTabela extends Datas {
  id: Id;
  nome: string;
  nomeChave: string;
  endereco: string | null;
  cidade: string | null;
  referencia: string | null;
  responsavel: string | null;
  telefone: string | null;
  ativo: BoolPadrao;
}

export interface UsuarioTabela extends Datas {
  id: Id;
  nome: string;
  /** Normalised name for searching (see migration 20261121_1700). */
  nomeChave: ColumnType<string | null, string, string>;
  email: string;
  emailChave: string;
  /**
   * JSON array of the person's roles, shared by both faces: the perfil values and, for the
   * Mercados face, `adminMercado` (see src/domain/papeis.ts).
   */
  perfil: string;
  nomeoficial: string | null;
  celular: string | null;
  descritivo: string | null;
  cientepolitica: BoolPadrao;
  ativo: BoolPadrao;
  /** Sessions that started at or before this ISO instant are over. */
  sessoesDesde: ColumnType<string | null, string | null | undefined, string | null>;
  /** JSON list of the optional message kinds the person does not want (migration 20261125_1400). */
  avisosDesligados: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface CicloTabela extends Datas {
  id: Id;
  nome: string;
  nomeChave: ColumnType<string | null, string, string>;
  dataOfertaInicio: string;
  dataOfertaFim: string;
  dataPedidoInicio: string;
  dataPedidoFim: string;
  dataRetiradaInicio: string;
  dataRetiradaFim: string;
  ativo: BoolPadrao;
  fechadoEm: string | null;
}

export interface CicloEntregaTabela extends Datas {
  id: Id;
  cicloid: number;
  dataEntrega: string;
  observacao: string | null;
}

/** The e-mail outbox (see the migration 20261125_1400_mensagens). */
export interface MensagemTabela extends Datas {
  id: Id;
  chave: string;
  tipo: string;
  usuarioid: number | null;
  cicloid: number | null;
  para: string;
  assunto: string;
  texto: string;
  html: string;
  /** The one-click unsubscribe address (List-Unsubscribe), for the optional kinds. */
  cancelar: string | null;
  estado: Generated<'pendente' | 'enviando' | 'enviada' | 'falhou'>;
  tentativas: Generated<number>;
  proximaTentativa: string;
  travadaAte: string | null;
  ultimoErro: string | null;
  enviadaEm: string | null;
}

/** A credit of an imported bank statement (migration 20261126_1400). */
export interface ExtratoLinhaTabela extends Datas {
  id: Id;
  /**
   * The line's id, unique: `ofx:<conta>:<FITID>`, or for a CSV `csv:<data>:<centavos>:<n>`
   * (before migration 20261128_1100, `csv:<hash>`). What identifies the bank transaction across
   * formats is its keys in `extratochave`.
   */
  idBanco: string;
  data: string;
  valorCentavos: number;
  descricao: string;
  pagador: string | null;
  /** A Cestaria txid found in the line's text. */
  txid: string | null;
  /** The statement file it came from. */
  arquivo: string;
  estado: Generated<'pendente' | 'conciliada' | 'descartada'>;
  /** How the person was proposed: by txid, by amount and name, or several people fit. */
  proposta: 'txid' | 'nome' | 'ambigua' | null;
  /** The proposed person while pending; the person credited once conciliated. */
  usuarioid: number | null;
  /** JSON list of the people whose amount due equals the credit, for the review. */
  candidatos: string | null;
  cicloid: number | null;
  movimentacaoid: number | null;
  /** Why the coordinator dismissed it. */
  motivo: string | null;
  importadoPor: number | null;
}

/**
 * A key that identifies a stored statement line's bank transaction (migration 20261128_1100):
 * `ofx:<conta>:<FITID>`, `doc:<data>:<centavos>:<número>` or `seq:<data>:<centavos>:<n>`
 * (src/domain/transacoes-do-banco.ts). Unique: one transaction, one line.
 */
export interface ExtratoChaveTabela extends Datas {
  id: Id;
  chave: string;
  extratolinhaid: number;
}

/** A saved CSV column mapping (migration 20261126_1400; `colunaDocumento` since 20261128_1100). */
export interface MapeamentoExtratoTabela extends Datas {
  id: Id;
  nome: string;
  nomeChave: string;
  separador: ';' | ',' | 'tab';
  colunaData: string;
  colunaValor: string;
  colunaDescricao: string;
  colunaPagador: string | null;
  colunaDocumento: string | null;
}

export interface CicloPontoEntregaTabela extends Datas {
  id: Id;
  cicloid: number;
  pontoEntregaId: number;
  dataRetirada: string | null;
  horaInicio: string | null;
  horaFim: string | null;
}

export interface CicloCestaTabela extends Datas {
  id: Id;
  cicloid: number;
  cestaId: number;
  quantidadeCestas: number;
  /** What saved orders reserve, in thousandths of a basket; kept by triggers on pedidoproduto. */
  reservadoMilesimos: Generated<number>;
  /** The cesta market that sells it; null in a cycle without markets. */
  mercadoId: number | null;
}

export interface CicloProdutoTabela extends Datas {
  id: Id;
  cicloid: number;
  produtoId: number;
  quantidadeMilesimos: number;
  valorCentavos: number;
  /** What saved orders reserve, in thousandths; kept by triggers on pedidoproduto. */
  reservadoMilesimos: Generated<number>;
  /** The venda_direta market it was released to, at that market's price; null: a classic extra. */
  mercadoId: number | null;
}

export interface OfertaTabela extends Datas {
  id: Id;
  cicloid: number;
  usuarioid: number;
  finalizada: BoolPadrao;
  finalizadaEm: string | null;
}

export interface OfertaProdutoTabela extends Datas {
  id: Id;
  ofertaid: number;
  produtoid: number;
  quantidadeMilesimos: number;
  valorCentavos: number;
}

export interface ComposicaoTabela extends Datas {
  id: Id;
  cicloCestaId: number;
  quantidadeCestas: number;
}

export interface ComposicaoProdutoTabela extends Datas {
  id: Id;
  composicaoid: number;
  ofertaProdutoId: number;
  quantidadePorCestaMilesimos: number;
  unidade: string;
}

export interface PedidoTabela extends Datas {
  id: Id;
  cicloid: number;
  usuarioid: number;
  pontoEntregaId: number;
  finalizado: BoolPadrao;
  dataConfirmacao: string | null;
}

export interface PedidoProdutoTabela extends Datas {
  id: Id;
  pedidoid: number;
  cicloCestaId: number | null;
  cicloProdutoId: number | null;
  quantidadeMilesimos: number;
  valorCentavos: number;
  /** The line's market and that market's fee (hundredths of a percent) when it was written. */
  mercadoId: number | null;
  taxaCentesimos: number | null;
  /** The subscription that put this basket line in the order; null for a one-off line. */
  assinaturaId: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface TipoMovimentacaoTabela extends Datas {
  id: Id;
  nome: string;
  sentido: 'credito' | 'debito' | 'ambos';
}

export interface MovimentacaoTabela extends Datas {
  id: Id;
  usuarioid: number;
  tipoMovimentacaoId: number;
  sentido: 'credito' | 'debito';
  valorCentavos: number;
  data: string;
  descricao: string;
  arquivo: string | null;
  cicloid: number | null;
  chave: string | null;
  criadoPor: number | null;
}

export interface AuditoriaTabela {
  id: Id;
  usuarioid: number | null;
  ator: string;
  acao: string;
  entidade: string;
  entidadeId: string | null;
  antes: string | null;
  depois: string | null;
  em: string;
}

export interface SessaoEncerradaTabela {
  sid: string;
  expiraEm: string;
}

export interface LimiteTentativaTabela {
  chave: string;
  janelaInicio: number;
  contagem: number;
}

/** Mercados: the spec's User. */
export interface AppUserTabela extends Datas {
  id: Id;
  providerId: string;
  email: string;
  emailChave: string;
  name: string;
  avatar: string | null;
  /** The person (Usuario) this account belongs to; null until the same verified e-mail has one (migration 20261126_1300). */
  usuarioId: ColumnType<number | null, number | null | undefined, number | null>;
  /** Whether the provider vouched for `email` when it was stored: only such an account is linked to a person. */
  emailVerificado: BoolPadrao;
  /** The issuer that vouched for `providerId`; empty for accounts from before migration 20261128_1000 until their next login. */
  emissor: ColumnType<string, string | undefined, string>;
}
/** One (issuer, subject) pair bound to a person (migration 20261128_1000). */
export interface IdentidadeTabela {
  id: Id;
  usuarioid: number;
  emissor: string;
  sub: string;
  createdAt: string;
}

/** Mercados: the spec's Profile; `name` is one of Administrador, AdminMercado, Fornecedor, Consumidor. */
export interface ProfileTabela extends Datas {
  id: Id;
  name: string;
  description: string | null;
}

export interface AppUserProfileTabela extends Datas {
  id: Id;
  userId: number;
  profileId: number;
}

/** Mercados server-side session: `id` is the SHA-256 of the cookie's token. */
export interface AppSessionTabela extends Datas {
  id: string;
  userId: number;
  expiresAt: string;
}

/** Mercados: a market; `adminId` is the account (appuser) that administers it. */
export interface MercadoTabela extends Datas {
  id: Id;
  nome: string;
  descricao: string | null;
  tipo: 'cesta' | 'lote' | 'venda_direta';
  /** Hundredths of a percentage point: 12.50 % is 1250. */
  taxaAdministrativaCentesimos: number | null;
  valorMaximoCestaCentavos: number | null;
  ativo: BoolPadrao;
  adminId: number;
}

/** A market a cycle serves, in its order of service. */
export interface CicloMercadoTabela extends Datas {
  id: Id;
  cicloid: number;
  mercadoId: number;
  ordemAtendimento: number;
}

/** A pickup point of a market in a cycle. */
export interface CicloMercadoPontoTabela extends Datas {
  id: Id;
  cicloMercadoId: number;
  pontoEntregaId: number;
}

/** A lot of a lote market for a named buyer, against a target value. */
export interface LoteTabela extends Datas {
  id: Id;
  cicloid: number;
  mercadoId: number;
  comprador: string;
  compradorUsuarioId: number | null;
  pontoEntregaId: number;
  valorAlvoCentavos: number;
}

export interface LoteProdutoTabela extends Datas {
  id: Id;
  loteid: number;
  ofertaProdutoId: number;
  quantidadeMilesimos: number;
}

/** Mercados: a market's price for one product of the shared catalogue; unique per (mercadoId, produtoId). */
export interface PrecoMercadoTabela extends Datas {
  id: Id;
  mercadoId: number;
  produtoId: number;
  precoCentavos: number;
  ativo: BoolPadrao;
}

export type Frequencia = 'cada_ciclo' | 'ciclo_sim_ciclo_nao';
export type SituacaoNoCiclo = 'gerado' | 'pulado' | 'pausado' | 'faltou';

/** A consumer's standing order of one basket type; at most one active per (usuarioid, cestaId). */
export interface AssinaturaTabela extends Datas {
  id: Id;
  usuarioid: number;
  cestaId: number;
  quantidade: number;
  pontoEntregaId: number;
  frequencia: Frequencia;
  /** AAAA-MM-DD, both included. */
  inicio: string;
  fim: string;
  /** The cesta market it buys in; null: any cycle offering the basket type. */
  mercadoId: number | null;
  ativa: BoolPadrao;
}

/** A period [inicio, fim] (AAAA-MM-DD) a subscription is paused. */
export interface AssinaturaPausaTabela extends Datas {
  id: Id;
  assinaturaId: number;
  inicio: string;
  fim: string;
}

/** What became of a subscription in a cycle; unique per (assinaturaId, cicloid). */
export interface AssinaturaCicloTabela extends Datas {
  id: Id;
  assinaturaId: number;
  cicloid: number;
  situacao: SituacaoNoCiclo;
  /** Baskets that cycle got (gerado) or asked for. */
  quantidade: number;
  pontoEntregaId: number;
  pedidoId: number | null;
  motivo: string | null;
}

/** A person the coordination named to run one pickup point in one cycle. */
export interface VoluntarioTabela {
  id: Id;
  cicloid: number;
  pontoEntregaId: number;
  usuarioid: number;
  createdAt: string;
}

export type TipoDeAcaoDeRetirada = 'retirada' | 'falta' | 'pagamento' | 'nota';

/** One action recorded at a pickup point, as the device made it (docs/retirada.md). */
export interface AcaoRetiradaTabela {
  id: Id;
  /** The id the device gave the action: unique, so an action sent again is applied once. */
  chave: string;
  dispositivo: string;
  usuarioid: number;
  cicloid: number;
  pontoEntregaId: number;
  pedidoid: number;
  tipo: TipoDeAcaoDeRetirada;
  /** falta: the order line (an extra, or the basket whose content `produtoId` was short). */
  pedidoProdutoId: number | null;
  produtoId: number | null;
  quantidadeMilesimos: number | null;
  substituto: string | null;
  /** pagamento: the amount received. */
  valorCentavos: number | null;
  forma: 'dinheiro' | 'pix' | null;
  texto: string | null;
  /** The moment on the device. */
  feitoEm: string;
  recebidoEm: string;
}

/** One row (id 1): moves whenever data the Mercados read queries show changes (triggers). */
export interface VersaoDadosTabela {
  id: number;
  versao: number;
}

export interface DB {
  categoria: CategoriaTabela;
  cesta: CestaTabela;
  produto: ProdutoTabela;
  pontoentrega: PontoEntregaTabela;
  usuario: UsuarioTabela;
  ciclo: CicloTabela;
  cicloentrega: CicloEntregaTabela;
  ciclopontoentrega: CicloPontoEntregaTabela;
  mensagem: MensagemTabela;
  extratolinha: ExtratoLinhaTabela;
  extratochave: ExtratoChaveTabela;
  mapeamentoextrato: MapeamentoExtratoTabela;
  ciclocesta: CicloCestaTabela;
  cicloproduto: CicloProdutoTabela;
  oferta: OfertaTabela;
  ofertaproduto: OfertaProdutoTabela;
  composicao: ComposicaoTabela;
  composicaoproduto: ComposicaoProdutoTabela;
  pedido: PedidoTabela;
  pedidoproduto: PedidoProdutoTabela;
  tipomovimentacao: TipoMovimentacaoTabela;
  movimentacao: MovimentacaoTabela;
  auditoria: AuditoriaTabela;
  limitetentativa: LimiteTentativaTabela;
  sessaoencerrada: SessaoEncerradaTabela;
  identidade: IdentidadeTabela;
  appuser: AppUserTabela;
  profile: ProfileTabela;
  appuserprofile: AppUserProfileTabela;
  appsession: AppSessionTabela;
  mercado: MercadoTabela;
  precomercado: PrecoMercadoTabela;
  ciclomercado: CicloMercadoTabela;
  ciclomercadoponto: CicloMercadoPontoTabela;
  lote: LoteTabela;
  loteproduto: LoteProdutoTabela;
  versaodados: VersaoDadosTabela;
  assinatura: AssinaturaTabela;
  assinaturapausa: AssinaturaPausaTabela;
  assinaturaciclo: AssinaturaCicloTabela;
  voluntario: VoluntarioTabela;
  acaoretirada: AcaoRetiradaTabela;
}

export type Linha<T extends keyof DB> = Selectable<DB[T]>;
export type NovaLinha<T extends keyof DB> = Insertable<DB[T]>;
export type Alteracao<T extends keyof DB> = Updateable<DB[T]>;
