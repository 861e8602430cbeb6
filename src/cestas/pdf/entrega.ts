import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { formatarReais } from '../../decimal.ts';
import type { DocumentoDeEntrega } from '../../domain/relatorios.ts';

const fontes = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONTE = join(fontes, 'DejaVuSans.ttf');
const FONTE_NEGRITO = join(fontes, 'DejaVuSans-Bold.ttf');

interface ColunaPdf {
  readonly titulo: string;
  /** Share of the usable width. */
  readonly peso: number;
  readonly direita?: boolean;
}

function dataBr(iso: string): string {
  const [a, m, d] = iso.split('-');
  return `${d}/${m}/${a}`;
}

/** Lets the event loop serve other requests (and the response drain) between chunks of work. */
const respirar = () => new Promise<void>((r) => setImmediate(r));
const LINHAS_POR_VEZ = 100;

/**
 * A table that never cuts a row: a row that does not fit goes whole to the next page, whose
 * header row is drawn again.
 */
async function tabela(doc: PDFKit.PDFDocument, colunas: readonly ColunaPdf[], linhas: readonly (readonly string[])[]): Promise<void> {
  const x0 = doc.page.margins.left;
  const largura = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  const pesoTotal = colunas.reduce((s, c) => s + c.peso, 0);
  const larguras = colunas.map((c) => (c.peso / pesoTotal) * largura);
  const folga = 3;
  const altura = (celulas: readonly string[], fonte: string) => {
    doc.font(fonte).fontSize(9);
    return Math.max(...celulas.map((c, i) => doc.heightOfString(c, { width: (larguras[i] ?? 0) - 2 * folga }))) + 2 * folga;
  };
  const fundo = () => doc.page.height - doc.page.margins.bottom;
  const desenhar = (celulas: readonly string[], fonte: string, cabecalho: boolean) => {
    const h = altura(celulas, fonte);
    let x = x0;
    const y = doc.y;
    if (cabecalho) doc.rect(x0, y, largura, h).fill('#e8efe9').fillColor('#000');
    doc.font(fonte).fontSize(9);
    celulas.forEach((c, i) => {
      const w = larguras[i] ?? 0;
      doc.text(c, x + folga, y + folga, { width: w - 2 * folga, align: colunas[i]?.direita === true ? 'right' : 'left', lineBreak: true });
      x += w;
    });
    doc.moveTo(x0, y + h).lineTo(x0 + largura, y + h).lineWidth(0.5).strokeColor('#999').stroke();
    doc.x = x0;
    doc.y = y + h;
  };
  const cabecalho = colunas.map((c) => c.titulo);
  if (doc.y + altura(cabecalho, 'negrito') * 2 > fundo()) doc.addPage();
  desenhar(cabecalho, 'negrito', true);
  for (const [i, linha] of linhas.entries()) {
    if (i > 0 && i % LINHAS_POR_VEZ === 0) await respirar();
    if (doc.y + altura(linha, 'normal') > fundo()) {
      doc.addPage();
      desenhar(cabecalho, 'negrito', true);
    }
    desenhar(linha, 'normal', false);
  }
  doc.moveDown(0.8);
}

function titulo(doc: PDFKit.PDFDocument, texto: string, tamanho = 14): void {
  if (doc.y + 60 > doc.page.height - doc.page.margins.bottom) doc.addPage();
  doc.font('negrito').fontSize(tamanho).fillColor('#000').text(texto, doc.page.margins.left, doc.y);
  doc.moveDown(0.4);
}

/**
 * Writes the delivery document as a stream: cover, one section per delivery point, one packing
 * sheet per basket type, one receiving sheet per supplier. Page numbers on every page. The
 * document is returned at once and written in chunks, so a big cycle never blocks the server.
 */
export async function pdfDeEntrega(d: DocumentoDeEntrega): Promise<PDFKit.PDFDocument> {
  // Loaded on the first PDF, not at start-up: most processes never write one (~12 MB).
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({ size: 'A4', margin: 40, bufferPages: false, info: { Title: `Entrega · ${d.ciclo.nome}`, Author: 'Cestaria' } });
  doc.registerFont('normal', FONTE);
  doc.registerFont('negrito', FONTE_NEGRITO);
  let pagina = 0;
  const numerar = () => {
    pagina++;
    const margem = doc.page.margins.bottom;
    // Writing inside the bottom margin would add a page: lift the margin while the number goes in.
    doc.page.margins.bottom = 0;
    doc.font('normal').fontSize(8).fillColor('#555').text(`${d.ciclo.nome} · página ${pagina}`, doc.page.margins.left, doc.page.height - 28, { lineBreak: false });
    doc.page.margins.bottom = margem;
    doc.fillColor('#000').x = doc.page.margins.left;
    doc.y = doc.page.margins.top;
  };
  doc.on('pageAdded', numerar);
  numerar();
  escrever(doc, d).catch((e: unknown) => doc.destroy(e instanceof Error ? e : new Error(String(e))));
  return doc;
}

async function escrever(doc: PDFKit.PDFDocument, d: DocumentoDeEntrega): Promise<void> {
  titulo(doc, `Entrega do ${d.ciclo.nome}`, 20);
  doc.font('normal').fontSize(11).text(`Retirada: ${dataBr(d.ciclo.dataRetiradaInicio)} a ${dataBr(d.ciclo.dataRetiradaFim)}`);
  doc.text(`Pedidos confirmados: ${d.resumo.pedidos}`);
  doc.text(`Valor total dos pedidos (com taxa): ${formatarReais(d.resumo.totalCentavos)}`);
  doc.moveDown();
  if (d.resumo.cestas.length > 0) await tabela(doc, [{ titulo: 'Cesta', peso: 3 }, { titulo: 'Quantidade', peso: 1, direita: true }], d.resumo.cestas.map((c) => [c.nome, String(c.quantidade)]));

  for (const p of d.pontos) {
    titulo(doc, `Ponto de entrega: ${p.nome}`);
    const linha = [p.endereco, p.responsavel === null ? null : `Responsável: ${p.responsavel}`].filter((x) => x !== null).join(' · ');
    if (linha !== '') doc.font('normal').fontSize(10).text(linha).moveDown(0.3);
    await tabela(
      doc,
      [{ titulo: 'Consumidor', peso: 2.2 }, { titulo: 'Telefone', peso: 1.4 }, { titulo: 'Itens', peso: 4 }, { titulo: 'Valor', peso: 1.2, direita: true }, { titulo: 'Retirado (assinatura)', peso: 2 }],
      p.consumidores.map((c) => [c.nome, c.celular ?? '', c.itens, formatarReais(c.totalCentavos), '']),
    );
  }
  for (const m of d.montagem) {
    titulo(doc, `Montagem: ${m.nome} — montar ${m.montar}`);
    await tabela(doc, [{ titulo: 'Produto', peso: 3 }, { titulo: 'Fornecedor', peso: 3 }, { titulo: 'Por cesta', peso: 1.5, direita: true }, { titulo: 'Conferido', peso: 1.2 }], m.itens.map((i) => [i.produto, i.fornecedor, i.quantidade, '']));
  }
  for (const r of d.recebimento) {
    titulo(doc, `Recebimento: ${r.fornecedor}`);
    await tabela(
      doc,
      [{ titulo: 'Produto', peso: 3 }, { titulo: 'Quantidade', peso: 1.5, direita: true }, { titulo: 'Valor unitário', peso: 1.5, direita: true }, { titulo: 'Valor', peso: 1.5, direita: true }, { titulo: 'Recebido', peso: 1.2 }],
      [...r.linhas.map((l) => [l.produto, l.quantidade, formatarReais(l.valorUnitarioCentavos), formatarReais(l.valorCentavos), '']), ['Total', '', '', formatarReais(r.totalCentavos), '']],
    );
  }
  doc.end();
}
