import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** The text of a PDF, page by page (pdf.js, as a reader would extract it), and its page count. */
export async function textoDoPdf(bytes: Uint8Array): Promise<{ paginas: number; texto: string }> {
  const pdf = await getDocument({ data: bytes, useSystemFonts: false, isEvalSupported: false }).promise;
  let texto = '';
  for (let i = 1; i <= pdf.numPages; i++) {
    const conteudo = await (await pdf.getPage(i)).getTextContent();
    texto += `${conteudo.items.map((it) => ('str' in it ? it.str : '')).join(' ')}\n`;
  }
  return { paginas: pdf.numPages, texto };
}
