/**
 * What the pickup app keeps and sends, in the shapes of the Mercados GraphQL API
 * (`meusPontosDeRetirada`, `retiradaDoPonto`, `sincronizarRetirada`; docs/api.md). Money travels as
 * Decimal text ("24.50"), quantities as Quantidade text ("1.500"), instants as ISO text.
 */

export interface PontoDeRetirada {
  readonly cicloId: string;
  readonly cicloNome: string;
  readonly pontoId: string;
  readonly pontoNome: string;
  readonly dataRetirada: string | null;
  readonly horaInicio: string | null;
  readonly horaFim: string | null;
  readonly pedidos: number;
}

export interface ItemNaRetirada {
  readonly pedidoProdutoId: string;
  /** 'cesta' (then cicloCestaId) or 'extra'. */
  readonly tipo: string;
  readonly nome: string;
  readonly unidade: string;
  readonly quantidade: string;
  readonly cicloCestaId: string | null;
}

export interface PedidoNaRetirada {
  readonly id: string;
  readonly pessoa: string;
  readonly telefone: string | null;
  readonly assinatura: boolean;
  readonly itens: readonly ItemNaRetirada[];
  readonly total: string;
  readonly devido: string;
  readonly pago: string;
  readonly pix: string | null;
  readonly token: string;
}

export interface ItemDaCesta {
  readonly produtoId: string;
  readonly nome: string;
  readonly unidade: string;
  readonly quantidadePorCesta: string;
}

export interface ConteudoDaCesta {
  readonly cicloCestaId: string;
  readonly nome: string;
  readonly itens: readonly ItemDaCesta[];
}

export type TipoDeAcao = 'retirada' | 'falta' | 'pagamento' | 'nota';
export type FormaDePagamento = 'dinheiro' | 'pix';

/** An action as the server stores and lists it. */
export interface AcaoDeRetirada {
  readonly chave: string;
  readonly tipo: TipoDeAcao;
  readonly pedidoId: string;
  readonly pedidoProdutoId: string | null;
  readonly produtoId: string | null;
  readonly quantidade: string | null;
  readonly substituto: string | null;
  readonly valor: string | null;
  readonly forma: FormaDePagamento | null;
  readonly texto: string | null;
  readonly feitoEm: string;
  readonly dispositivo: string;
  readonly quem: string;
}

export interface RetiradaDoPonto {
  readonly cicloId: string;
  readonly cicloNome: string;
  readonly pontoId: string;
  readonly pontoNome: string;
  readonly endereco: string | null;
  readonly dataRetirada: string | null;
  readonly horaInicio: string | null;
  readonly horaFim: string | null;
  readonly geradoEm: string;
  readonly pedidos: readonly PedidoNaRetirada[];
  readonly cestas: readonly ConteudoDaCesta[];
  readonly acoes: readonly AcaoDeRetirada[];
}

/** What the device sends for one action (AcaoDeRetiradaInput): the server adds who and the device. */
export interface AcaoParaEnviar {
  readonly chave: string;
  readonly tipo: TipoDeAcao;
  readonly pedidoId: string;
  readonly pedidoProdutoId?: string;
  readonly produtoId?: string;
  readonly quantidade?: string;
  readonly substituto?: string;
  readonly valor?: string;
  readonly forma?: FormaDePagamento;
  readonly texto?: string;
  readonly feitoEm: string;
}

export type EstadoDoResultado = 'aplicada' | 'repetida' | 'recusada';

export interface ResultadoDaAcao {
  readonly chave: string;
  readonly estado: EstadoDoResultado;
  readonly mensagem: string | null;
}

/** The key of one point's pickup in a cycle, as the device stores it. */
export function chaveDoPonto(cicloId: string, pontoId: string): string {
  return `${cicloId}/${pontoId}`;
}

/** An action made on this device, kept until the server has it (and after, until a snapshot shows it). */
export interface AcaoLocal {
  readonly ponto: string;
  readonly acao: AcaoParaEnviar;
  /** Who made it, as the session named them when it was made. */
  readonly quem: string;
  /**
   * The account it was made under (null when not known yet): it is sent only under that account's
   * session, so another person logging in on the same phone never sends it as theirs.
   */
  readonly conta: number | null;
  /** Its place in the queue: the device's order of actions. */
  readonly ordem: number;
}

/** An action the server refused: out of the queue, shown with the server's reason. */
export interface AcaoRecusada extends AcaoLocal {
  readonly mensagem: string;
  readonly recusadaEm: string;
}
