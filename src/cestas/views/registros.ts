import type { Pagina } from '../../domain/registros.ts';
import { html, type Html, type Interpolavel } from '../../http/html.ts';
import { campoCsrf, resumoDeErros } from './layout.ts';

export interface Opcao {
  readonly valor: string;
  readonly rotulo: string;
  readonly desabilitada?: boolean;
}

/** One field of a record form; the type decides the control and the keyboard on phones. */
export interface CampoForm {
  readonly nome: string;
  readonly rotulo: string;
  readonly tipo:
    | 'texto'
    | 'area'
    | 'email'
    | 'tel'
    | 'data'
    | 'dinheiro'
    | 'quantidade'
    | 'inteiro'
    | 'booleano'
    | 'selecao'
    | 'multipla';
  readonly obrigatorio?: boolean;
  readonly ajuda?: string;
  readonly opcoes?: readonly Opcao[];
}

export interface ColunaIndice<T> {
  readonly titulo: string;
  readonly valor: (item: T) => Interpolavel;
  /** The sort key, when the column can sort the list. */
  readonly ordem?: string;
}

function textoDe(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return '';
}

function lista(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(textoDe);
  return v === undefined || v === null || v === '' ? [] : [textoDe(v)];
}

function ligado(v: unknown, padrao: boolean): boolean {
  if (v === undefined || v === null || v === '') return padrao;
  const ultimo: unknown = Array.isArray(v) ? v[v.length - 1] : v;
  return ultimo === true || ultimo === 'true' || ultimo === 'on' || ultimo === '1';
}

function controle(campo: CampoForm, valor: unknown, erroId: string | undefined, somenteLeitura: boolean): Html {
  const id = `campo-${campo.nome}`;
  const comuns = html`id="${id}" name="${campo.nome}" ${campo.obrigatorio === true ? html`required` : ''}
    ${somenteLeitura ? html`disabled` : ''} ${erroId === undefined ? '' : html`aria-invalid="true" aria-describedby="${erroId}"`}`;
  switch (campo.tipo) {
    case 'area':
      return html`<textarea ${comuns} rows="3">${textoDe(valor)}</textarea>`;
    case 'selecao':
      return html`<select ${comuns}>
        <option value="">—</option>
        ${(campo.opcoes ?? []).map((o) => html`<option value="${o.valor}" ${o.valor === textoDe(valor) ? html`selected` : ''}>${o.rotulo}</option>`)}
      </select>`;
    case 'dinheiro':
    case 'quantidade':
      return html`<input ${comuns} type="text" inputmode="decimal" value="${textoDe(valor)}" autocomplete="off">`;
    case 'inteiro':
      return html`<input ${comuns} type="text" inputmode="numeric" value="${textoDe(valor)}" autocomplete="off">`;
    case 'data':
      return html`<input ${comuns} type="date" value="${textoDe(valor)}">`;
    case 'email':
    case 'tel':
      return html`<input ${comuns} type="${campo.tipo}" value="${textoDe(valor)}">`;
    default:
      return html`<input ${comuns} type="text" value="${textoDe(valor)}">`;
  }
}

function campoHtml(
  campo: CampoForm,
  valores: Readonly<Record<string, unknown>>,
  erros: Readonly<Record<string, unknown>>,
  somenteLeitura: boolean,
): Html {
  const erro = typeof erros[campo.nome] === 'string' ? (erros[campo.nome] as string) : undefined;
  const erroId = erro === undefined ? undefined : `campo-${campo.nome}-erro`;
  const mensagem = erro === undefined ? '' : html`<p class="erro" id="${erroId}">${erro}</p>`;
  const ajuda = campo.ajuda === undefined ? '' : html`<small>${campo.ajuda}</small>`;
  const classe = `campo${erro === undefined ? '' : ' com-erro'}`;
  if (campo.tipo === 'booleano') {
    return html`<div class="${classe}">
      ${somenteLeitura ? '' : html`<input type="hidden" name="${campo.nome}" value="false">`}
      <div class="marcar"><input type="checkbox" id="campo-${campo.nome}" name="${campo.nome}" value="true"
        ${ligado(valores[campo.nome], true) ? html`checked` : ''} ${somenteLeitura ? html`disabled` : ''}>
      <label for="campo-${campo.nome}">${campo.rotulo}</label></div>${ajuda}${mensagem}</div>`;
  }
  if (campo.tipo === 'multipla') {
    const marcados = lista(valores[campo.nome]);
    return html`<fieldset class="${classe}"><legend>${campo.rotulo}</legend>
      ${(campo.opcoes ?? []).map(
        (
          o,
        ) => html`<div class="marcar"><input type="checkbox" id="campo-${campo.nome}-${o.valor}" name="${campo.nome}" value="${o.valor}"
          ${marcados.includes(o.valor) ? html`checked` : ''} ${somenteLeitura || o.desabilitada === true ? html`disabled` : ''}>
          <label for="campo-${campo.nome}-${o.valor}">${o.rotulo}</label></div>`,
      )}${ajuda}${mensagem}</fieldset>`;
  }
  return html`<div class="${classe}">
    <label for="campo-${campo.nome}">${campo.rotulo}${campo.obrigatorio === true ? html` <span aria-hidden="true">*</span>` : ''}</label>
    ${controle(campo, valores[campo.nome], erroId, somenteLeitura)}${ajuda}${mensagem}</div>`;
}

export interface FormRegistro {
  readonly acao: string;
  readonly campos: readonly CampoForm[];
  readonly valores: Readonly<Record<string, unknown>>;
  readonly erros: Readonly<Record<string, unknown>>;
  readonly csrf: string | null;
  readonly somenteLeitura: boolean;
  /** The delete action, when the record exists and the actor may delete it. */
  readonly apagar: string | null;
  readonly voltar: string;
  readonly extra?: Html;
  /** A refusal of the whole record (in use, say), shown over the form. */
  readonly geral?: string | null;
}

export function formularioRegistro(f: FormRegistro): Html {
  const alvo = (chave: string) => {
    const campo = f.campos.find((c) => c.nome === chave);
    if (campo === undefined) return null;
    const primeira = campo.tipo === 'multipla' ? campo.opcoes?.[0]?.valor : undefined;
    return {
      id: primeira === undefined ? `campo-${campo.nome}` : `campo-${campo.nome}-${primeira}`,
      rotulo: campo.rotulo,
    };
  };
  return html`${resumoDeErros(f.erros, alvo, f.geral)}
  <form method="post" action="${f.acao}" class="formulario" novalidate>
    ${campoCsrf(f.csrf)}
    ${f.campos.map((c) => campoHtml(c, f.valores, f.erros, f.somenteLeitura))}
    ${f.extra ?? ''}
    ${f.somenteLeitura ? html`<p class="nota">Você pode consultar, mas não alterar.</p>` : html`<button type="submit" class="botao">Salvar</button>`}
  </form>
  ${
    f.apagar === null
      ? ''
      : html`<form method="post" action="${f.apagar}" class="apagar">
    ${campoCsrf(f.csrf)}
    <p>Apagar só funciona para registros que nada usa; os demais podem ser desativados acima.</p>
    <button type="submit" class="botao perigo">Apagar</button>
  </form>`
  }
  <p><a href="${f.voltar}">Voltar à lista</a></p>`;
}

function urlDaLista(
  base: string,
  pagina: Pagina<unknown>,
  mudar: Record<string, string | number>,
  filtros: Readonly<Record<string, string>>,
): string {
  const p = new URLSearchParams({ ...filtros });
  if (pagina.busca !== null) p.set('busca', pagina.busca);
  p.set('ordem', pagina.ordem);
  p.set('direcao', pagina.direcao);
  p.set('pagina', String(pagina.pagina));
  for (const [k, v] of Object.entries(mudar)) p.set(k, String(v));
  return `${base}?${p.toString()}`;
}

export interface IndiceRegistros<T> {
  readonly base: string;
  readonly pagina: Pagina<T>;
  readonly colunas: readonly ColunaIndice<T>[];
  readonly linkDe: (item: T) => string;
  readonly novo: string | null;
  readonly rotuloNovo: string;
  readonly comBusca: boolean;
  readonly filtros?: Readonly<Record<string, string>>;
}

/** A sortable, paginated table with a search box; works without JavaScript. */
export function indiceRegistros<T>(i: IndiceRegistros<T>): Html {
  const { pagina } = i;
  const filtros = i.filtros ?? {};
  const cabecalho = (c: ColunaIndice<T>) => {
    if (c.ordem === undefined) return html`<th scope="col">${c.titulo}</th>`;
    const atual = pagina.ordem === c.ordem;
    const direcao = atual && pagina.direcao === 'asc' ? 'desc' : 'asc';
    const aria = atual ? (pagina.direcao === 'asc' ? 'ascending' : 'descending') : 'none';
    return html`<th scope="col" aria-sort="${aria}"><a href="${urlDaLista(i.base, pagina, { ordem: c.ordem, direcao, pagina: 1 }, filtros)}">${c.titulo}${atual ? (pagina.direcao === 'asc' ? ' ▲' : ' ▼') : ''}</a></th>`;
  };
  return html`<div class="acoes-lista">
    ${i.novo === null ? '' : html`<a class="botao" href="${i.novo}">${i.rotuloNovo}</a>`}
    ${
      i.comBusca
        ? html`<form method="get" action="${i.base}" class="busca" role="search">
      ${Object.entries(filtros).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`)}
      <label for="busca">Buscar</label>
      <input id="busca" name="busca" type="search" value="${pagina.busca ?? ''}">
      <button type="submit" class="botao secundario">Buscar</button>
    </form>`
        : ''
    }
  </div>
  <p class="nota">${pagina.total === 1 ? '1 registro' : `${pagina.total} registros`}${pagina.busca === null ? '' : html` para “${pagina.busca}”`}</p>
  ${
    pagina.itens.length === 0
      ? html`<p>Nada encontrado.</p>`
      : html`<div class="tabela-rolavel"><table>
      <thead><tr>${i.colunas.map(cabecalho)}</tr></thead>
      <tbody>${pagina.itens.map((item) => html`<tr>${i.colunas.map((c, n) => (n === 0 ? html`<td><a href="${i.linkDe(item)}">${c.valor(item)}</a></td>` : html`<td>${c.valor(item)}</td>`))}</tr>`)}</tbody>
    </table></div>`
  }
  ${
    pagina.paginas <= 1
      ? ''
      : html`<nav class="paginacao" aria-label="Páginas">
      ${pagina.pagina > 1 ? html`<a href="${urlDaLista(i.base, pagina, { pagina: pagina.pagina - 1 }, filtros)}" rel="prev">Anterior</a>` : ''}
      <span>Página ${pagina.pagina} de ${pagina.paginas}</span>
      ${pagina.pagina < pagina.paginas ? html`<a href="${urlDaLista(i.base, pagina, { pagina: pagina.pagina + 1 }, filtros)}" rel="next">Próxima</a>` : ''}
    </nav>`
  }`;
}

export function simNao(v: boolean): string {
  return v ? 'Sim' : 'Não';
}

/** A master's way to release an account's login binding (someone changed provider accounts). */
export function formularioLiberarLogin(id: number, csrf: string | null): Html {
  return html`<form method="post" action="/usuario/${id}/liberarlogin" class="apagar">
    ${campoCsrf(csrf)}
    <p>Este cadastro está ligado à conta do provedor de login usada no primeiro acesso. Se a pessoa trocou de conta no provedor, libere o login: as sessões abertas terminam e o próximo login com este e-mail fica ligado ao cadastro.</p>
    <button type="submit" class="botao">Liberar o login</button>
  </form>`;
}
