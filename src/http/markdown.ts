import { escapar } from './html.ts';

/**
 * A small, safe Markdown subset for community-editable pages: headings (#..###), paragraphs,
 * "-" lists, **bold**, *italic* and [links](https://… or /path). Everything is escaped first;
 * only the markup produced here reaches the page, and links accept http(s) and local paths only.
 */
export function markdownParaHtml(texto: string): string {
  const saida: string[] = [];
  let paragrafo: string[] = [];
  let lista: string[] = [];
  const fecharParagrafo = () => {
    if (paragrafo.length > 0) saida.push(`<p>${paragrafo.map(inline).join(' ')}</p>`);
    paragrafo = [];
  };
  const fecharLista = () => {
    if (lista.length > 0) saida.push(`<ul>${lista.map((i) => `<li>${inline(i)}</li>`).join('')}</ul>`);
    lista = [];
  };
  const linhas = texto.replace(/\r\n?/g, '\n').split('\n');
  // The page title is the h1; the file's shallowest heading is h2 and the others follow, so no
  // level is skipped (a file whose own title was taken for the page starts at ##).
  const raso = Math.min(4, ...linhas.map((l) => /^(#{1,3})\s/.exec(l.trim())?.[1]?.length ?? 4));
  for (const bruta of linhas) {
    const linha = bruta.trim();
    const titulo = /^(#{1,3})\s+(.*)$/.exec(linha);
    const item = /^[-*]\s+(.*)$/.exec(linha);
    if (linha === '') {
      fecharParagrafo();
      fecharLista();
    } else if (titulo !== null) {
      fecharParagrafo();
      fecharLista();
      const nivel = Math.min((titulo[1] ?? '#').length - raso + 2, 4);
      saida.push(`<h${nivel}>${inline(titulo[2] ?? '')}</h${nivel}>`);
    } else if (item !== null) {
      fecharParagrafo();
      lista.push(item[1] ?? '');
    } else {
      fecharLista();
      paragrafo.push(linha);
    }
  }
  fecharParagrafo();
  fecharLista();
  return saida.join('\n');
}

function inline(texto: string): string {
  return escapar(texto)
    .replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, rotulo: string, url: string) =>
      /^(https?:\/\/|\/(?!\/))/.test(url) ? `<a href="${url}">${rotulo}</a>` : rotulo,
    )
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
    .replace(/\*([^*]+)\*/g, '<em>$1</em>');
}
