/**
 * What the QR code of a receipt opens, with no login (GET /retirada/pedido/:token): that one order
 * and nothing else. The person's first name, the items with their units (a basket with what is in
 * it), where and when to pick it up, and whether it was picked up already. No amounts, no phone,
 * no e-mail: whoever holds the receipt sees what the receipt already says.
 */
import { crc32, deflateSync } from 'node:zlib';
import QRCode from 'qrcode';
import type { Db } from '../../db/banco.ts';
import { itensDasCestas } from '../conteudo-das-cestas.ts';
import { pedidoDe } from '../pedidos/leituras.ts';
import type { Taxa } from '../pedidos/taxa.ts';

/** The address the QR code of an order's receipt carries (and the receipt links to). */
export function enderecoDoQr(base: string, token: string): string {
  return `${base}/retirada/pedido/${token}`;
}

export interface ItemDoRecibo {
  readonly tipo: 'cesta' | 'extra';
  readonly nome: string;
  readonly unidade: string;
  readonly quantidadeMilesimos: number;
  /** A basket line: what is in those baskets, per product, for all of them. */
  readonly conteudo: ReadonlyArray<{
    readonly nome: string;
    readonly unidade: string;
    readonly quantidadeMilesimos: number;
  }>;
}

export interface PedidoDoQr {
  readonly pedidoId: number;
  readonly primeiroNome: string;
  /** Only a confirmed order is delivered (and charged). */
  readonly finalizado: boolean;
  readonly ciclo: {
    readonly nome: string;
    readonly dataRetiradaInicio: string;
    readonly dataRetiradaFim: string;
  };
  readonly ponto: {
    readonly nome: string;
    readonly endereco: string | null;
    readonly cidade: string | null;
    readonly dataRetirada: string | null;
    readonly horaInicio: string | null;
    readonly horaFim: string | null;
  };
  readonly itens: readonly ItemDoRecibo[];
  /** When it was picked up (the earliest record's moment on the device), or null. */
  readonly retiradoEm: string | null;
}

/** The order a token names, as its QR page shows it; null when there is no such order (any more). */
export async function pedidoDoQr(db: Db, pedidoId: number, taxa: Taxa): Promise<PedidoDoQr | null> {
  const dono = await db
    .selectFrom('pedido as p')
    .innerJoin('ciclo as c', 'c.id', 'p.cicloid')
    .innerJoin('pontoentrega as pe', 'pe.id', 'p.pontoEntregaId')
    .select([
      'p.cicloid',
      'p.usuarioid',
      'c.nome as ciclo',
      'c.dataRetiradaInicio',
      'c.dataRetiradaFim',
      'pe.endereco',
      'pe.cidade',
    ])
    .where('p.id', '=', pedidoId)
    .executeTakeFirst();
  if (dono === undefined) return null;
  const [pedido, conteudo, retirada] = await Promise.all([
    pedidoDe(db, dono.cicloid, dono.usuarioid, taxa),
    itensDasCestas(db, { cicloid: dono.cicloid }, 'produto'),
    db
      .selectFrom('acaoretirada')
      .select('feitoEm')
      .where('pedidoid', '=', pedidoId)
      .where('tipo', '=', 'retirada')
      .orderBy('feitoEm')
      .orderBy('chave')
      .limit(1)
      .executeTakeFirst(),
  ]);
  // Stryker disable next-line ConditionalExpression: the order was just read; only a delete in between makes it null
  if (pedido === null) return null;
  const porCesta = new Map<number, Map<number, { nome: string; unidade: string; quantidadeMilesimos: number }>>();
  for (const i of conteudo) {
    const cesta = porCesta.get(i.cicloCestaId) ?? new Map();
    const atual = cesta.get(i.produtoId);
    cesta.set(i.produtoId, {
      nome: i.produto,
      unidade: i.unidade,
      quantidadeMilesimos: (atual?.quantidadeMilesimos ?? 0) + i.quantidadePorCestaMilesimos,
    });
    porCesta.set(i.cicloCestaId, cesta);
  }
  return {
    pedidoId,
    primeiroNome: pedido.usuario.nome.trim().split(/\s+/)[0] ?? pedido.usuario.nome,
    finalizado: pedido.finalizado,
    ciclo: { nome: dono.ciclo, dataRetiradaInicio: dono.dataRetiradaInicio, dataRetiradaFim: dono.dataRetiradaFim },
    ponto: {
      nome: pedido.pontoEntrega.nome,
      endereco: dono.endereco,
      cidade: dono.cidade,
      dataRetirada: pedido.pontoEntrega.dataRetirada,
      horaInicio: pedido.pontoEntrega.horaInicio,
      horaFim: pedido.pontoEntrega.horaFim,
    },
    itens: pedido.produtos.map((l) => ({
      tipo: l.tipo,
      nome: l.nome,
      unidade: l.unidade,
      quantidadeMilesimos: l.quantidadeMilesimos,
      conteudo:
        l.cicloCestaId === null
          ? []
          : [...(porCesta.get(l.cicloCestaId)?.values() ?? [])].map((x) => ({
              ...x,
              // Per basket × the baskets on the line (whole baskets: the product is exact).
              quantidadeMilesimos: Math.round((x.quantidadeMilesimos * l.quantidadeMilesimos) / 1000),
            })),
    })),
    retiradoEm: retirada?.feitoEm ?? null,
  };
}

/** The QR code of an order's address, as SVG: the QR page shows it inline (the page's CSP allows it). */
export function qrSvgDoEndereco(endereco: string): Promise<string> {
  return QRCode.toString(endereco, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

/**
 * The QR code of an order's address as a PNG data URI, for the receipt e-mail: the sender turns it
 * into an image attached to the message (`cid:`), which mail programs show where they block
 * `data:` images and SVG (src/mensagens/correio/remetente.ts).
 *
 * NOTE: written here as a 1-bit grayscale PNG (each module `ESCALA` pixels, a quiet zone of
 * `MARGEM` modules), not through qrcode's PNG renderer: that one paints RGBA pixels and deflates
 * them, 2.5 to 5 ms of CPU per image, and a cycle's subscription receipts are thousands of e-mails
 * written in a row. The matrix is qrcode's; only the image is made here.
 */
export function qrPngDoEndereco(endereco: string): string {
  const { size, data } = QRCode.create(endereco, { errorCorrectionLevel: 'M' }).modules;
  const lado = (size + 2 * MARGEM) * ESCALA;
  const porLinha = Math.ceil(lado / 8);
  const bruto = Buffer.alloc((porLinha + 1) * lado, 0);
  for (let y = 0; y < lado; y++) {
    const inicio = y * (porLinha + 1);
    // Filter byte 0 (none), then the row: a bit set is white.
    bruto.fill(0xff, inicio + 1, inicio + 1 + porLinha);
    const linha = Math.floor(y / ESCALA) - MARGEM;
    if (linha < 0 || linha >= size) continue;
    for (let x = 0; x < lado; x++) {
      const coluna = Math.floor(x / ESCALA) - MARGEM;
      if (coluna >= 0 && coluna < size && data[linha * size + coluna] === 1) {
        const i = inicio + 1 + (x >> 3);
        bruto[i] = (bruto[i] ?? 0) & ~(0x80 >> (x & 7));
      }
    }
  }
  const cabecalho = Buffer.alloc(13);
  cabecalho.writeUInt32BE(lado, 0);
  cabecalho.writeUInt32BE(lado, 4);
  cabecalho.set([1, 0, 0, 0, 0], 8); // 1 bit, grayscale, deflate, no filter method, no interlace
  const png = Buffer.concat([
    ASSINATURA_PNG,
    pedacoPng('IHDR', cabecalho),
    pedacoPng('IDAT', deflateSync(bruto, { level: 9 })),
    pedacoPng('IEND', Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** Pixels per module, and the quiet zone in modules (the standard asks for 4; 2 reads fine on a screen). */
const ESCALA = 8;
const MARGEM = 2;
const ASSINATURA_PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pedacoPng(tipo: string, dados: Buffer): Buffer {
  const tamanho = Buffer.alloc(4);
  tamanho.writeUInt32BE(dados.length, 0);
  const corpo = Buffer.concat([Buffer.from(tipo, 'latin1'), dados]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(corpo), 0);
  return Buffer.concat([tamanho, corpo, crc]);
}
