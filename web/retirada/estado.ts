/**
 * What the screen shows, derived from the point's snapshot and the actions of this device: the
 * server's actions, the accepted ones a snapshot does not list yet, and the queue. Pure functions,
 * so every tap redraws from memory at once and the tests can read the same rules.
 */
import { ESCALA_DINHEIRO, ESCALA_QUANTIDADE, lerDecimal } from '../../src/decimal.ts';
import type { AcoesDoPonto } from './loja.ts';
import type {
  AcaoDeRetirada,
  AcaoParaEnviar,
  FormaDePagamento,
  PedidoNaRetirada,
  RetiradaDoPonto,
  TipoDeAcao,
} from './tipos.ts';

/** Where a record is: on the server, accepted and waiting for the next snapshot, or in this device's queue. */
export type Origem = 'servidor' | 'enviada' | 'fila';

export interface Registro {
  readonly chave: string;
  readonly tipo: TipoDeAcao;
  readonly pedidoId: string;
  readonly pedidoProdutoId: string | null;
  readonly produtoId: string | null;
  readonly quantidadeMilesimos: number | null;
  readonly substituto: string | null;
  readonly valorCentavos: number | null;
  readonly forma: FormaDePagamento | null;
  readonly texto: string | null;
  readonly feitoEm: string;
  readonly quem: string;
  readonly origem: Origem;
}

/** Decimal text of the API ("24.50") → cents; 0 for anything else (never a float). */
export function centavosDe(valor: string | null | undefined): number {
  if (valor === null || valor === undefined) return 0;
  const negativo = valor.startsWith('-');
  const r = lerDecimal(negativo ? valor.slice(1) : valor, ESCALA_DINHEIRO);
  return r.ok ? (negativo ? -r.valor : r.valor) : 0;
}

/** Quantidade text of the API ("1.500") → thousandths; null for anything else. */
export function milesimosDe(valor: string | null | undefined): number | null {
  if (valor === null || valor === undefined) return null;
  const r = lerDecimal(valor, ESCALA_QUANTIDADE);
  return r.ok ? r.valor : null;
}

function doServidor(a: AcaoDeRetirada): Registro {
  return {
    chave: a.chave,
    tipo: a.tipo,
    pedidoId: a.pedidoId,
    pedidoProdutoId: a.pedidoProdutoId,
    produtoId: a.produtoId,
    quantidadeMilesimos: milesimosDe(a.quantidade),
    substituto: a.substituto,
    valorCentavos: a.valor === null ? null : centavosDe(a.valor),
    forma: a.forma,
    texto: a.texto,
    feitoEm: a.feitoEm,
    quem: a.quem,
    origem: 'servidor',
  };
}

/** An action of this device as a record. */
export function registroDe(a: AcaoParaEnviar, quem: string, origem: Origem): Registro {
  return {
    chave: a.chave,
    tipo: a.tipo,
    pedidoId: a.pedidoId,
    pedidoProdutoId: a.pedidoProdutoId ?? null,
    produtoId: a.produtoId ?? null,
    quantidadeMilesimos: milesimosDe(a.quantidade),
    substituto: a.substituto ?? null,
    valorCentavos: a.valor === undefined ? null : centavosDe(a.valor),
    forma: a.forma ?? null,
    texto: a.texto ?? null,
    feitoEm: a.feitoEm,
    quem,
    origem,
  };
}

/** Every record of the point by order, each action once (the server's copy first), in the order they happened. */
export function registrosPorPedido(dados: RetiradaDoPonto, locais: AcoesDoPonto): Map<string, Registro[]> {
  const vistos = new Set<string>();
  const porPedido = new Map<string, Registro[]>();
  const incluir = (r: Registro) => {
    if (vistos.has(r.chave)) return;
    vistos.add(r.chave);
    const lista = porPedido.get(r.pedidoId);
    if (lista === undefined) porPedido.set(r.pedidoId, [r]);
    else lista.push(r);
  };
  for (const a of dados.acoes) incluir(doServidor(a));
  for (const [origem, lista] of [
    ['enviada', locais.enviadas],
    ['fila', locais.fila],
  ] as const)
    for (const l of lista) incluir(registroDe(l.acao, l.quem, origem));
  for (const lista of porPedido.values()) lista.sort(antes);
  return porPedido;
}

/** The order of records: by the moment they happened, ties by their key (the server's rule for "picked up at"). */
function antes(a: Registro, b: Registro): number {
  const ta = Date.parse(a.feitoEm);
  const tb = Date.parse(b.feitoEm);
  if (ta !== tb) return ta - tb;
  return a.chave < b.chave ? -1 : a.chave > b.chave ? 1 : 0;
}

export interface Situacao {
  /** The first pickup record (the one shown as "picked up at/by"), or null. */
  readonly retirada: Registro | null;
  readonly retiradas: number;
  readonly faltas: readonly Registro[];
  readonly pagamentos: readonly Registro[];
  readonly notas: readonly Registro[];
  /** Paid at pickup, the server's and this device's not yet counted by it. */
  readonly pagoCentavos: number;
  /** What the person still owes: the server's amount less the payments it has not counted yet. */
  readonly devidoCentavos: number;
  /** Records of this order still in this device's queue. */
  readonly naFila: number;
}

export function situacaoDoPedido(pedido: PedidoNaRetirada, registros: readonly Registro[] = []): Situacao {
  const de = (tipo: TipoDeAcao) => registros.filter((r) => r.tipo === tipo);
  const retiradas = de('retirada');
  const pagamentos = de('pagamento');
  // The snapshot's `devido` and `pago` already count the payments it lists.
  const novos = pagamentos.filter((p) => p.origem !== 'servidor').reduce((s, p) => s + (p.valorCentavos ?? 0), 0);
  return {
    retirada: retiradas[0] ?? null,
    retiradas: retiradas.length,
    faltas: de('falta'),
    pagamentos,
    notas: de('nota'),
    pagoCentavos: centavosDe(pedido.pago) + novos,
    devidoCentavos: Math.max(0, centavosDe(pedido.devido) - novos),
    naFila: registros.filter((r) => r.origem === 'fila').length,
  };
}

/** One thing handed over that can be short: an extra line, or one product of a basket line. */
export interface ItemEntregue {
  readonly pedidoProdutoId: string;
  /** The basket's product; null for an extra line. */
  readonly produtoId: string | null;
  readonly nome: string;
  readonly unidade: string;
  /** The ordered quantity, in the item's unit (for a basket product: per basket × baskets). */
  readonly quantidadeMilesimos: number;
  /** Recorded short so far (server and device). */
  readonly faltouMilesimos: number;
}

export interface LinhaDoPedido {
  readonly pedidoProdutoId: string;
  readonly tipo: 'cesta' | 'extra';
  readonly nome: string;
  readonly unidade: string;
  readonly quantidadeMilesimos: number;
  /** An extra: itself; a basket: its products. */
  readonly itens: readonly ItemEntregue[];
}

/** The order's lines with the baskets' contents expanded and the shorts recorded against each item. */
export function linhasDoPedido(
  pedido: PedidoNaRetirada,
  dados: RetiradaDoPonto,
  faltas: readonly Registro[],
): LinhaDoPedido[] {
  const faltou = (pedidoProdutoId: string, produtoId: string | null) =>
    faltas
      .filter((f) => f.pedidoProdutoId === pedidoProdutoId && (f.produtoId ?? null) === produtoId)
      .reduce((s, f) => s + (f.quantidadeMilesimos ?? 0), 0);
  const cestas = new Map(dados.cestas.map((c) => [c.cicloCestaId, c]));
  return pedido.itens.map((item) => {
    const quantidade = milesimosDe(item.quantidade) ?? 0;
    const cesta = item.tipo === 'cesta' && item.cicloCestaId !== null ? cestas.get(item.cicloCestaId) : undefined;
    if (cesta === undefined)
      return {
        pedidoProdutoId: item.pedidoProdutoId,
        tipo: 'extra',
        nome: item.nome,
        unidade: item.unidade,
        quantidadeMilesimos: quantidade,
        itens: [
          {
            pedidoProdutoId: item.pedidoProdutoId,
            produtoId: null,
            nome: item.nome,
            unidade: item.unidade,
            quantidadeMilesimos: quantidade,
            faltouMilesimos: faltou(item.pedidoProdutoId, null),
          },
        ],
      };
    // A product listed twice in a composition counts once, as the server reads it (its first row).
    const vistos = new Set<string>();
    const itens: ItemEntregue[] = [];
    for (const c of cesta.itens) {
      if (vistos.has(c.produtoId)) continue;
      vistos.add(c.produtoId);
      const porCesta = milesimosDe(c.quantidadePorCesta) ?? 0;
      itens.push({
        pedidoProdutoId: item.pedidoProdutoId,
        produtoId: c.produtoId,
        nome: c.nome,
        unidade: c.unidade,
        quantidadeMilesimos: Math.round((porCesta * quantidade) / 1000),
        faltouMilesimos: faltou(item.pedidoProdutoId, c.produtoId),
      });
    }
    return {
      pedidoProdutoId: item.pedidoProdutoId,
      tipo: 'cesta',
      nome: item.nome,
      unidade: item.unidade,
      quantidadeMilesimos: quantidade,
      itens,
    };
  });
}

/** Lower case without accents: "Conceição" and "conceicao" are the same search. */
export function semAcentos(texto: string): string {
  return texto.normalize('NFD').replace(/\p{M}/gu, '').toLocaleLowerCase('pt-BR');
}

/** The words of a search, lower case without accents. */
export function termosDaBusca(busca: string): string[] {
  return semAcentos(busca)
    .split(/\s+/)
    .filter((t) => t !== '');
}

/** Whether every word appears in the name (already without accents), or is the order's number (#12 or 12). */
export function casaComTermos(id: string, nomeSemAcentos: string, termos: readonly string[]): boolean {
  return termos.every((t) => nomeSemAcentos.includes(t) || t.replace(/^#/, '') === id);
}

/** Whether every word typed appears in the name, accents and case aside; an order number matches too. */
export function casaComBusca(pedido: { readonly id: string; readonly pessoa: string }, busca: string): boolean {
  return casaComTermos(pedido.id, semAcentos(pedido.pessoa), termosDaBusca(busca));
}

/** The order a receipt's QR names: its text is the receipt's address `…/retirada/pedido/<token>` (or the bare token). */
export function pedidoDoQr<T extends { readonly token: string }>(texto: string, pedidos: readonly T[]): T | null {
  const limpo = texto.trim();
  const m = /\/retirada\/pedido\/([^/?#\s]+)/.exec(limpo);
  let token = m?.[1] ?? limpo;
  try {
    token = decodeURIComponent(token);
  } catch {
    return null;
  }
  return pedidos.find((p) => p.token === token) ?? null;
}
