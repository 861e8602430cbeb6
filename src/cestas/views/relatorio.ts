import {
  colunasLegiveis,
  type Celula,
  type Coluna,
  type MercadoDosCiclos,
  type Relatorio,
} from '../../domain/relatorios/modelo.ts';
import { colunaNumerica as numerica, textoParaPessoas } from '../apresentadores/relatorios.ts';
import type { Fase } from '../../domain/ciclos/calendario.ts';
import { NOMES_FASES } from '../../domain/ciclos/calendario.ts';
import { html, type Html } from '../../http/html.ts';
import { pode, type Acao, type Ator } from '../../domain/acesso.ts';
import { campoCsrf } from './layout.ts';

function celula(c: Coluna, v: Celula): Html | string {
  if (typeof v === 'string' && c.chave === 'comprovante') return html`<a href="${v}">baixar</a>`;
  return textoParaPessoas(c, v);
}

/**
 * A report page's market filter (offering the report's `mercados`): the request that shows the
 * report again (a GET of the same page, or a POST of the same cycles) and the market chosen.
 */
export interface FiltroDeMercadoDaPagina {
  readonly acao: string;
  readonly metodo: 'get' | 'post';
  readonly csrf: string | null;
  /** The cycles a POST sends again. */
  readonly ciclos: readonly number[];
  readonly mercadoId: number | null;
}

export interface ExtrasDoRelatorio {
  /** The report as files: the spreadsheet people open (the main download) and the contract's CSV. */
  readonly downloads?: { readonly planilha: string; readonly csv: string };
  readonly pdf?: string;
  readonly filtro?: FiltroDeMercadoDaPagina;
}

/** The select of a cycle's markets, labelled: "Todos os mercados", or one. */
function seletorDeMercado(mercados: readonly MercadoDosCiclos[], mercadoId: number | null): Html {
  return html`<label for="campo-mercadoId">Mercado</label>
    <select id="campo-mercadoId" name="mercadoId"><option value="">Todos os mercados</option>
      ${mercados.map((m) => html`<option value="${m.id}" ${m.id === mercadoId ? html`selected` : ''}>${m.nome}</option>`)}</select>`;
}

/** The filter form above a report of cycles with markets; nothing for cycles without. */
function filtroDeMercado(mercados: readonly MercadoDosCiclos[], f: FiltroDeMercadoDaPagina | undefined): Html | string {
  if (f === undefined || mercados.length === 0) return '';
  // One line above the table, left out of print (the subtitle says which market it shows).
  return html`<form method="${f.metodo}" action="${f.acao}" class="filtros">
    ${f.metodo === 'post' ? campoCsrf(f.csrf) : ''}
    ${f.ciclos.map((id) => html`<input type="hidden" name="ciclos" value="${id}">`)}
    ${seletorDeMercado(mercados, f.mercadoId)}
    <button type="submit" class="botao secundario">Filtrar por mercado</button>
  </form>`;
}

/** Any report as a table: group headers, rows, subtotals and the total. Prints cleanly. */
export function tabelaRelatorio(r: Relatorio, extras: ExtrasDoRelatorio = {}): Html {
  const agrupado = r.grupos.length > 1 || (r.grupos[0]?.titulo ?? '') !== '';
  // The column the rows are grouped by is each group's heading already, as in the printed document.
  const colunas = colunasLegiveis(r).filter((c) => !agrupado || c.chave !== r.agrupadoPor);
  // On a phone each row is a card (tabela-cartoes): the first cell its title, every other cell
  // labelled with its column's title.
  const classe = (c: Coluna, i: number) =>
    [i === 0 ? 'titulo' : '', numerica(c) ? 'num' : ''].filter((x) => x !== '').join(' ');
  const rotuloTotal = (t: Readonly<Record<string, number>>, rotulo: string, classeDaLinha: string) =>
    html`<tr class="${classeDaLinha}">${colunas.map((c, i) =>
      i === 0
        ? html`<th scope="row">${rotulo}</th>`
        : html`<td class="${classe(c, i)}" data-rotulo="${c.titulo}">${t[c.chave] === undefined ? '' : celula(c, t[c.chave] ?? null)}</td>`,
    )}</tr>`;
  return html`<p class="nota">${r.subtitulo}</p>
  ${filtroDeMercado(r.mercados ?? [], extras.filtro)}
  <p class="acoes-relatorio">
    ${
      extras.downloads === undefined
        ? ''
        : html`<a class="botao" href="${extras.downloads.planilha}" download>Planilha (Excel, LibreOffice)</a>
    <a class="botao secundario" href="${extras.downloads.csv}" download>CSV</a>`
    }
    ${extras.pdf === undefined ? '' : html`<a class="botao secundario" href="${extras.pdf}" download>Documento de entrega (PDF)</a>`}
  </p>
  ${
    r.grupos.every((g) => g.linhas.length === 0)
      ? html`<p>Nada a mostrar.</p>`
      : html`<div class="tabela-rolavel" role="region" aria-label="${r.titulo}" tabindex="0"><table class="relatorio tabela-cartoes">
    <thead><tr>${colunas.map((c) => html`<th scope="col" class="${numerica(c) ? 'num' : ''}">${c.titulo}</th>`)}</tr></thead>
    ${r.grupos.map(
      (g) => html`<tbody>
      ${agrupado ? html`<tr class="grupo"><th colspan="${colunas.length}" scope="colgroup">${g.titulo}</th></tr>` : ''}
      ${g.linhas.map((l) => html`<tr>${colunas.map((c, i) => html`<td class="${classe(c, i)}" data-rotulo="${c.titulo}">${celula(c, l[c.chave] ?? null)}</td>`)}</tr>`)}
      ${agrupado && Object.keys(g.subtotais).length > 0 ? rotuloTotal(g.subtotais, `Subtotal ${g.titulo}`, 'subtotal') : ''}
    </tbody>`,
    )}
    ${Object.keys(r.totais).length > 0 ? html`<tfoot>${rotuloTotal(r.totais, 'Total', 'total')}</tfoot>` : ''}
  </table></div>`
  }`;
}

/**
 * The cycle choice of the selection reports: a checkbox per cycle, posting `ciclos`; and, when
 * any listed cycle serves markets, a select of those markets (`mercadoId`).
 */
export function escolhaDeCiclos(
  acao: string,
  ciclos: ReadonlyArray<{ id: number; nome: string; fase: Fase }>,
  mercados: readonly MercadoDosCiclos[],
  csrf: string | null,
  erro: string | null,
): Html {
  return html`${erro === null ? '' : html`<div class="alerta" role="alert"><p>${erro}</p></div>`}
  <form method="post" action="${acao}" class="formulario">
    ${campoCsrf(csrf)}
    <fieldset class="campo"><legend>Ciclos</legend>
      ${ciclos.map(
        (c) => html`<div class="marcar"><input type="checkbox" id="ciclo-${c.id}" name="ciclos" value="${c.id}">
        <label for="ciclo-${c.id}">${c.nome} <small>(${NOMES_FASES[c.fase]})</small></label></div>`,
      )}
    </fieldset>
    ${mercados.length === 0 ? '' : html`<div class="campo">${seletorDeMercado(mercados, null)}</div>`}
    <button type="submit" class="botao">Ver relatório</button>
  </form>`;
}

export interface LinkDeRelatorio {
  readonly titulo: string;
  readonly href: string;
  /** A file (CSV or PDF) the browser saves instead of showing. */
  readonly arquivo?: boolean;
}

const POR_CICLO: ReadonlyArray<readonly [Acao, string, (id: number) => string, boolean]> = [
  ['relatoriosFornecedores', 'Pedidos aos fornecedores', (id) => `/pedidosfornecedorestodos/${id}`, false],
  ['relatoriosFornecedores', 'Sobra das ofertas', (id) => `/pedidosfornecedoressobra/${id}`, false],
  ['pedidosLer', 'Pedidos dos consumidores', (id) => `/pedidosconsumidorestodos/${id}`, false],
  ['documentoEntrega', 'Documento de entrega (PDF)', (id) => `/entregaCicloPDF/${id}`, true],
  [
    'relatoriosFornecedores',
    'Pedidos aos fornecedores (CSV)',
    (id) => `/downloadpedidosfornecedoresciclos?cicloId=${id}`,
    true,
  ],
];

const DE_VARIOS: ReadonlyArray<readonly [Acao, string, string]> = [
  ['relatoriosFornecedores', 'Pedidos aos fornecedores', '/pedidosfornecedoresciclos'],
  ['relatoriosConsumidores', 'Pedidos dos consumidores', '/pedidosconsumidoresciclos'],
  ['relatoriosFornecedores', 'Produtos dos ciclos', '/relatorioprodutosciclos'],
  ['financeiroLer', 'Movimentações e saldos', '/movimentacaotodos'],
];

/** The reports this person may open: per cycle, and across cycles; from the access table. */
export function relatoriosDoAtor(ator: Ator, ciclos: ReadonlyArray<{ id: number; nome: string; fase: Fase }>) {
  return {
    ciclos: ciclos.map((c) => ({
      ...c,
      relatorios: POR_CICLO.filter(([acao]) => pode(ator, acao)).map(([, titulo, href, arquivo]): LinkDeRelatorio => ({
        titulo,
        href: href(c.id),
        arquivo,
      })),
    })),
    deVariosCiclos: DE_VARIOS.filter(([acao]) => pode(ator, acao)).map(([, titulo, href]): LinkDeRelatorio => ({
      titulo,
      href,
    })),
  };
}

function link(l: LinkDeRelatorio): Html {
  return l.arquivo === true
    ? html`<a href="${l.href}" download>${l.titulo}</a>`
    : html`<a href="${l.href}">${l.titulo}</a>`;
}

/** /relatorios: where every report is found. */
export function paginaRelatorios(r: ReturnType<typeof relatoriosDoAtor>): Html {
  return html`${
    r.deVariosCiclos.length === 0
      ? ''
      : html`<section aria-labelledby="t-varios"><h2 id="t-varios">De um ou de vários ciclos</h2>
    <ul class="atalhos">${r.deVariosCiclos.map((l) => html`<li><a class="botao secundario" href="${l.href}">${l.titulo}</a></li>`)}</ul></section>`
  }
  <section aria-labelledby="t-por-ciclo"><h2 id="t-por-ciclo">Por ciclo</h2>
    ${
      r.ciclos.length === 0
        ? html`<p>Nenhum ciclo ainda.</p>`
        : html`<ul class="cartoes">${r.ciclos.map(
            (c) => html`<li class="cartao">
        <h3>${c.nome}</h3><p class="fase fase-${c.fase}">${NOMES_FASES[c.fase]}</p>
        <ul class="links-relatorio">${c.relatorios.map((l) => html`<li>${link(l)}</li>`)}</ul>
      </li>`,
          )}</ul>`
    }
  </section>`;
}
