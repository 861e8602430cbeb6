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

/** Room to sign (a rubrica, about 4 cm at least, 6 cm when the page has it) and to tick, in points. */
const RUBRICA_MINIMA = 115;
const RUBRICA_NATURAL = 170;
const MARCA_MINIMA = 45;
const MARCA_NATURAL = 70;

/**
 * The widths of a table's columns within the page, as a browser lays out an automatic table:
 * every column at its natural width when they fit (what is left goes to the room to write by
 * hand); else every column at its minimum (its longest word, or its whole text when it must not
 * wrap) plus a share of what is left in proportion to what it lacks; and only when even the
 * minimums do not fit, all of them shrunk alike. The sum never passes the page's width.
 */
export function larguraDasColunas(
  colunas: ReadonlyArray<{ readonly minima: number; readonly natural: number; readonly mao: boolean }>,
  largura: number,
): number[] {
  const somaNatural = colunas.reduce((t, c) => t + c.natural, 0);
  const somaMinima = colunas.reduce((t, c) => t + c.minima, 0);
  if (somaNatural <= largura) {
    const maos = colunas.filter((c) => c.mao).length;
    const sobra = maos === 0 ? 0 : (largura - somaNatural) / maos;
    return colunas.map((c) => c.natural + (c.mao ? sobra : 0));
  }
  if (somaMinima <= largura) {
    const falta = colunas.reduce((t, c) => t + (c.natural - c.minima), 0);
    return colunas.map((c) => c.minima + ((largura - somaMinima) * (c.natural - c.minima)) / falta);
  }
  return colunas.map((c) => (c.minima * largura) / somaMinima);
}

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
  const folga = 3;
  const medir = (texto: string, fonte: string) => doc.font(fonte).fontSize(9).widthOfString(texto) + 2 * folga + 1;
  const palavra = (texto: string, fonte: string) => Math.max(0, ...texto.split(/\s+/).map((p) => medir(p, fonte)));
  const maior = (i: number, f: (texto: string) => number) => linhas.reduce((m, l) => Math.max(m, f(l[i] ?? '')), 0);
  const larguras = larguraDasColunas(
    colunas.map((c, i) => {
      // A header may wrap between its words; a cell of a number, a short text (a phone, a market)
      // or a hand-written column never wraps, and a long text only between words.
      const cabecalho = palavra(c.titulo, 'negrito');
      if (c.aMao !== undefined) {
        const [minima, natural] =
          c.aMao === 'rubrica' ? [RUBRICA_MINIMA, RUBRICA_NATURAL] : [MARCA_MINIMA, MARCA_NATURAL];
        return { minima: Math.max(minima, cabecalho), natural: Math.max(natural, cabecalho), mao: true };
      }
      const natural = Math.max(
        medir(c.titulo, 'negrito'),
        maior(i, (t) => medir(t, 'normal')),
      );
      const inteira = c.direita === true || maior(i, (t) => medir(t, 'normal')) <= largura / 6;
      const minima = Math.max(
        cabecalho,
        maior(i, (t) => (inteira ? medir(t, 'normal') : palavra(t, 'normal'))),
      );
      return { minima, natural, mao: false };
    }),
    largura,
  );
  const larguraDaTabela = larguras.reduce((t, w) => t + w, 0);
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
    if (cabecalho) doc.rect(x0, y, larguraDaTabela, h).fill('#e8efe9').fillColor('#000');
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
      .lineTo(x0 + larguraDaTabela, y + h)
      .lineWidth(0.5)
      .strokeColor('#999')
      .stroke();
    // The room to write by hand is a box: its left side drawn, its right side the table's end.
    colunas.forEach((c, i) => {
      if (c.aMao === undefined) return;
      const esquerda = x0 + larguras.slice(0, i).reduce((t, w) => t + w, 0);
      for (const lado of [esquerda, esquerda + (larguras[i] ?? 0)])
        doc
          .moveTo(lado, y)
          .lineTo(lado, y + h)
          .lineWidth(0.5)
          .strokeColor('#999')
          .stroke();
    });
    doc.x = x0;
    doc.y = y + h;
  };
  const cabecalho = colunas.map((c) => c.titulo);
  if (doc.y + altura(cabecalho, 'negrito') + altura(linhas[0] ?? cabecalho, 'normal') > fundo()) doc.addPage();
  desenhar(cabecalho, 'negrito', true);
  for (const [i, linha] of linhas.entries()) {
    if (i > 0 && i % LINHAS_POR_VEZ === 0) {
      await respirar();
      // Closed before its end (the person left): nobody reads the rest.
      if (doc.destroyed) throw new Error('o PDF foi fechado antes do fim');
    }
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
 * document is returned at once and written in chunks, so the thread that writes it (a-parte.ts)
 * still hears a request to stop between them.
 */
export async function pdfDeEntrega(d: DocumentoDeEntrega): Promise<PDFKit.PDFDocument> {
  // Loaded on the first PDF, not at start-up (~12 MB): on the PDF thread (a-parte.ts), never in the server's.
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
