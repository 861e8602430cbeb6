import assert from 'node:assert/strict';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

/** The text of a PDF, page by page (pdf.js, as a reader would extract it), and its page count. */
export async function textoDoPdf(bytes: Uint8Array): Promise<{ paginas: number; texto: string }> {
  const pdf = await getDocument({ data: bytes.slice(), useSystemFonts: false, isEvalSupported: false }).promise;
  let texto = '';
  for (let i = 1; i <= pdf.numPages; i++) {
    const conteudo = await (await pdf.getPage(i)).getTextContent();
    texto += `${conteudo.items.map((it) => ('str' in it ? it.str : '')).join(' ')}\n`;
  }
  return { paginas: pdf.numPages, texto };
}

/** Where things are on a PDF's pages, in points from the left edge: each text run and each drawn path. */
export interface PaginaMedida {
  readonly largura: number;
  readonly textos: ReadonlyArray<{ readonly texto: string; readonly esquerda: number; readonly direita: number }>;
  /** The horizontal extent of every line and rectangle drawn (tables' rules, header fills, boxes). */
  readonly tracos: ReadonlyArray<{ readonly esquerda: number; readonly direita: number }>;
}

/** Measures every page: a table column that runs past the page shows as a text or a rule beyond its width. */
export async function medidasDoPdf(bytes: Uint8Array): Promise<PaginaMedida[]> {
  const { OPS } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const pdf = await getDocument({ data: bytes.slice(), useSystemFonts: false, isEvalSupported: false }).promise;
  const paginas: PaginaMedida[] = [];
  for (let i = 1; i <= pdf.numPages; i++) {
    const pagina = await pdf.getPage(i);
    const [, , largura = 0] = pagina.view;
    const conteudo = await pagina.getTextContent();
    const textos = conteudo.items.flatMap((it) =>
      'str' in it && it.str.trim() !== ''
        ? [{ texto: it.str, esquerda: Number(it.transform[4]), direita: Number(it.transform[4]) + it.width }]
        : [],
    );
    const operacoes = await pagina.getOperatorList();
    const tracos = operacoes.fnArray.flatMap((fn, j) => {
      if (fn !== OPS.constructPath) return [];
      const minMax = (operacoes.argsArray[j] as unknown[])[2] as ArrayLike<number> | null | undefined;
      return minMax === null || minMax === undefined
        ? []
        : [{ esquerda: Number(minMax[0]), direita: Number(minMax[2]) }];
    });
    paginas.push({ largura, textos, tracos });
  }
  return paginas;
}

/**
 * Every text and every rule of every page lies inside the page's side margins (pdfkit's 40 pt, as
 * the delivery document sets them), and each "Retirado (rubrica)" column leaves room to sign: from
 * its box's left side to the right margin, at least `assinar` points (about 4 cm).
 */
export async function conferirMargens(bytes: Uint8Array, assinar = 115): Promise<void> {
  const margem = 40;
  const paginas = await medidasDoPdf(bytes);
  for (const [n, p] of paginas.entries()) {
    const dentro = (x: { esquerda: number; direita: number }) =>
      x.esquerda >= margem - 0.5 && x.direita <= p.largura - margem + 0.5;
    const fora = [
      ...p.textos
        .filter((t) => !dentro(t))
        .map((t) => `texto "${t.texto}" de ${t.esquerda.toFixed(1)} a ${t.direita.toFixed(1)}`),
      ...p.tracos.filter((t) => !dentro(t)).map((t) => `traço de ${t.esquerda.toFixed(1)} a ${t.direita.toFixed(1)}`),
    ];
    assert.deepEqual(fora, [], `página ${n + 1} (largura ${p.largura}): tudo dentro das margens`);
    for (const cabecalho of p.textos.filter((t) => t.texto.startsWith('Retirado'))) {
      // The box's left side: the vertical rule just left of the heading (the cell's padding is 3 pt).
      const lado = p.tracos.find((t) => t.esquerda === t.direita && Math.abs(cabecalho.esquerda - 3 - t.esquerda) < 1);
      assert.ok(lado, `página ${n + 1}: a coluna da rubrica tem a caixa desenhada`);
      const espaco = p.largura - margem - lado.esquerda;
      assert.ok(espaco >= assinar, `página ${n + 1}: ${espaco.toFixed(1)} pt para assinar`);
    }
  }
}
