import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { DocumentoDeEntrega } from '../../domain/relatorios/documento-de-entrega.ts';
import { colunasLegiveis, type Relatorio } from '../../domain/relatorios/modelo.ts';
import { colunaNumerica, textoParaPessoas } from '../apresentadores/relatorios.ts';
import { dataBr, reais } from '../../formatos.ts';

const fontes = join(dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONTE = join(fontes, 'DejaVuSans.ttf');
const FONTE_NEGRITO = join(fontes, 'DejaVuSans-Bold.ttf');

interface ColunaPdf {
  readonly titulo: string;
  readonly direita?: boolean;
  /** Room to write by hand, whatever the cells hold: a signature, or a tick. */
  readonly aMao?: 'rubrica' | 'marca';
}

const retirada = (d: DocumentoDeEntrega) =>
  d.ciclo.dataRetiradaInicio === d.ciclo.dataRetiradaFim
    ? dataBr(d.ciclo.dataRetiradaInicio)
    : `${dataBr(d.ciclo.dataRetiradaInicio)} a ${dataBr(d.ciclo.dataRetiradaFim)}`;

/** Lets the event loop serve other requests (and the response drain) between chunks of work. */
const respirar = () => new Promise<void>((r) => setImmediate(r));
const LINHAS_POR_VEZ = 100;

/**
 * A table that never cuts a row: a row that does not fit goes whole to the next page, whose
 * header row is drawn again.
 */
async function tabela(
  doc: PDFKit.PDFDocument,
  colunas: readonly ColunaPdf[],
  linhas: readonly (readonly string[])[],
  tituloNaQuebra?: string,
): Promise<void> {
  const x0 = doc.page.margins.left;
  const largura = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  // Numbers, short text (a phone) and the hand-written column keep their natural width, so they
  // never wrap; longer text columns share what is left in proportion to their longest cell.
  const folga = 3;
  const medir = (texto: string, fonte: string) => doc.font(fonte).fontSize(9).widthOfString(texto) + 2 * folga + 1;
  const natural = colunas.map((c, i) =>
    c.aMao !== undefined
      ? Math.max(c.aMao === 'rubrica' ? 170 : 70, medir(c.titulo, 'negrito'))
      : linhas.reduce((m, l) => Math.max(m, medir(l[i] ?? '', 'normal')), medir(c.titulo, 'negrito')),
  );
  // A column is never narrower than its longest word, so no word is cut in two.
  const palavra = (texto: string, fonte: string) => Math.max(0, ...texto.split(/\s+/).map((p) => medir(p, fonte)));
  const minimo = colunas.map((c, i) =>
    linhas.reduce((m, l) => Math.max(m, palavra(l[i] ?? '', 'normal')), palavra(c.titulo, 'negrito')),
  );
  const fixa = new Set(
    colunas.flatMap((c, i) =>
      c.aMao !== undefined || c.direita === true || (natural[i] ?? 0) <= largura / 5 ? [i] : [],
    ),
  );
  const larguras = [...natural];
  // Shrink the long text columns to the room left, pinning at its minimum any that reaches it.
  for (let volta = 0; volta < colunas.length; volta++) {
    const ocupado = larguras.reduce((s, w, i) => s + (fixa.has(i) ? w : 0), 0);
    const flexivel = natural.reduce((s, w, i) => s + (fixa.has(i) ? 0 : w), 0);
    if (flexivel === 0) break;
    const escala = Math.max(0, largura - ocupado) / flexivel;
    const presas = colunas.flatMap((_, i) =>
      !fixa.has(i) && (natural[i] ?? 0) * escala < (minimo[i] ?? 0) ? [i] : [],
    );
    colunas.forEach((_, i) => {
      if (!fixa.has(i)) larguras[i] = Math.max(minimo[i] ?? 0, (natural[i] ?? 0) * escala);
    });
    if (presas.length === 0) break;
    for (const i of presas) fixa.add(i);
  }
  // A row to sign in is tall enough for a pen.
  const minima = colunas.some((c) => c.aMao === 'rubrica') ? 30 : 0;
  const altura = (celulas: readonly string[], fonte: string) => {
    doc.font(fonte).fontSize(9);
    return Math.max(
      minima,
      Math.max(...celulas.map((c, i) => doc.heightOfString(c, { width: (larguras[i] ?? 0) - 2 * folga }))) + 2 * folga,
    );
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
      doc.text(c, x + folga, y + folga, {
        width: w - 2 * folga,
        align: colunas[i]?.direita === true ? 'right' : 'left',
        lineBreak: true,
      });
      x += w;
    });
    doc
      .moveTo(x0, y + h)
      .lineTo(x0 + largura, y + h)
      .lineWidth(0.5)
      .strokeColor('#999')
      .stroke();
    doc.x = x0;
    doc.y = y + h;
  };
  const cabecalho = colunas.map((c) => c.titulo);
  if (doc.y + altura(cabecalho, 'negrito') + altura(linhas[0] ?? cabecalho, 'normal') > fundo()) doc.addPage();
  desenhar(cabecalho, 'negrito', true);
  for (const [i, linha] of linhas.entries()) {
    if (i > 0 && i % LINHAS_POR_VEZ === 0) await respirar();
    if (doc.y + altura(linha, 'normal') > fundo()) {
      doc.addPage();
      // A sheet that goes on says whose it is, so a loose page still finds its place.
      if (tituloNaQuebra !== undefined)
        doc.font('negrito').fontSize(11).fillColor('#000').text(`${tituloNaQuebra} (continuação)`).moveDown(0.3);
      desenhar(cabecalho, 'negrito', true);
    }
    desenhar(linha, 'normal', false);
  }
  doc.moveDown(0.8);
}

function titulo(doc: PDFKit.PDFDocument, texto: string, tamanho = 14): void {
  // A title never ends a page: it keeps room for a note, the table's header and its first rows.
  if (doc.y + 120 > doc.page.height - doc.page.margins.bottom) doc.addPage();
  doc.font('negrito').fontSize(tamanho).fillColor('#000').text(texto, doc.page.margins.left, doc.y);
  doc.moveDown(0.4);
}

/**
 * Writes the delivery document as a stream: cover, then each section of the document's report
 * model (one per delivery point, one packing sheet per basket type, one receiving sheet per
 * supplier), formatted by the same presenter as the report pages. Page numbers on every page. The
 * document is returned at once and written in chunks, so a big cycle never blocks the server.
 */
export async function pdfDeEntrega(d: DocumentoDeEntrega): Promise<PDFKit.PDFDocument> {
  // Loaded on the first PDF, not at start-up: most processes never write one (~12 MB).
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 40,
    bufferPages: false,
    info: { Title: `Entrega · ${d.ciclo.nome}`, Author: 'Cestaria' },
  });
  doc.registerFont('normal', FONTE);
  doc.registerFont('negrito', FONTE_NEGRITO);
  let pagina = 0;
  // The cycle and its pickup days on every page: a sheet taken to a pickup point says which day it is for.
  // Narrowed to one market, every page says so too.
  const rodape = `${d.ciclo.nome}${d.mercado === null ? '' : ` · só ${d.mercado}`} · retirada ${retirada(d)}`;
  const numerar = () => {
    pagina++;
    const margem = doc.page.margins.bottom;
    // Writing inside the bottom margin would add a page: lift the margin while the number goes in.
    doc.page.margins.bottom = 0;
    doc
      .font('normal')
      .fontSize(8)
      .fillColor('#555')
      .text(`${rodape} · página ${pagina}`, doc.page.margins.left, doc.page.height - 28, { lineBreak: false });
    doc.page.margins.bottom = margem;
    doc.fillColor('#000').x = doc.page.margins.left;
    doc.y = doc.page.margins.top;
  };
  doc.on('pageAdded', numerar);
  numerar();
  escrever(doc, d).catch((e: unknown) => doc.destroy(e instanceof Error ? e : new Error(String(e))));
  return doc;
}

/** One section of the document: a table per group (or one table), titled, with its totals. */
async function secao(doc: PDFKit.PDFDocument, r: Relatorio): Promise<void> {
  const colunas = colunasLegiveis(r).filter((c) => c.chave !== r.agrupadoPor);
  const cabecalho: ColunaPdf[] = [
    ...colunas.map((c) => ({ titulo: c.titulo, direita: colunaNumerica(c) })),
    ...(r.conferencia === undefined
      ? []
      : [{ titulo: r.conferencia.titulo, aMao: r.conferencia.rubrica ? ('rubrica' as const) : ('marca' as const) }]),
  ];
  const vazio = r.conferencia === undefined ? [] : [''];
  const total = (somas: Readonly<Record<string, number>>) => [
    ...colunas.map((c, i) =>
      i === 0 ? 'Total' : somas[c.chave] === undefined ? '' : textoParaPessoas(c, somas[c.chave] ?? null),
    ),
    ...vazio,
  ];
  for (const g of r.grupos) {
    if (g.linhas.length === 0) continue;
    if (r.paginaPorGrupo === true && doc.y > doc.page.margins.top) doc.addPage();
    const nome = r.agrupadoPor === undefined ? r.titulo : `${r.titulo}: ${g.titulo}`;
    titulo(doc, nome);
    if (g.nota !== undefined) doc.font('normal').fontSize(10).text(g.nota).moveDown(0.3);
    const linhas = g.linhas.map((l) => [...colunas.map((c) => textoParaPessoas(c, l[c.chave] ?? null)), ...vazio]);
    await tabela(doc, cabecalho, Object.keys(g.subtotais).length > 0 ? [...linhas, total(g.subtotais)] : linhas, nome);
  }
}

async function escrever(doc: PDFKit.PDFDocument, d: DocumentoDeEntrega): Promise<void> {
  titulo(doc, `Entrega do ${d.ciclo.nome}`, 20);
  doc.font('normal').fontSize(11);
  if (d.mercado !== null) doc.text(`Só o mercado ${d.mercado}`);
  doc.text(`Retirada: ${retirada(d)}`);
  doc.text(`Pedidos confirmados: ${d.pedidos}`);
  doc.text(`Valor total dos pedidos (com taxa): ${reais(d.totalCentavos)}`);
  doc.moveDown();
  for (const r of d.secoes) await secao(doc, r);
  doc.end();
}
