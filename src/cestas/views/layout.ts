import { pode, type Ator } from '../../domain/acesso.ts';
import { html, type Html, type Interpolavel } from '../../http/html.ts';

export interface ContextoPagina {
  readonly titulo: string;
  readonly ator: Ator | null;
  readonly csrf: string | null;
  readonly flash: string | null;
  /** The Mercados face's address, when it runs beside this one. */
  readonly mercados?: string | null;
}

function navegacao(ator: Ator | null, csrf: string | null, mercados: string | null): Html {
  if (ator === null) return html``;
  const registrado = ator.usuarioid !== null;
  return html`<nav aria-label="Principal">
    <ul>
      ${registrado ? html`<li><a href="/">Início</a></li>` : html`<li><a href="/usuarionovo">Cadastro</a></li>`}
      ${pode(ator, 'catalogoLer') ? html`<li><a href="/ciclo-index">Ciclos</a></li>` : ''}
      ${registrado && pode(ator, 'painel') ? html`<li><a href="/relatorios">Relatórios</a></li>` : ''}
      ${registrado && pode(ator, 'assinaturaPropria') ? html`<li><a href="/assinaturas">Assinaturas</a></li>` : ''}
      <li><a href="/profile">Meu perfil</a></li>
      ${mercados === null ? '' : html`<li><a href="${mercados}/dashboard">Mercados</a></li>`}
      <li>
        <form method="post" action="/logout" class="inline">
          ${csrf === null ? '' : html`<input type="hidden" name="_csrf" value="${csrf}">`}
          <button type="submit" class="link">Sair</button>
        </form>
      </li>
    </ul>
  </nav>`;
}

/** The page frame: mobile first, pt-BR, works without JavaScript. */
export function layout(ctx: ContextoPagina, conteudo: Interpolavel): Html {
  return html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${ctx.titulo} · Cestaria</title>
<link rel="icon" href="/static/icone.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/estilo.css">
</head>
<body>
<a class="pular" href="#conteudo">Pular para o conteúdo</a>
<header class="topo">
  <a class="marca" href="/">Cestaria</a>
  ${navegacao(ctx.ator, ctx.csrf, ctx.mercados ?? null)}
</header>
<main id="conteudo">
${ctx.flash === null ? '' : html`<p class="aviso" role="status">${ctx.flash}</p>`}
<h1>${ctx.titulo}</h1>
${conteudo}
</main>
<footer class="rodape"><p>Cestaria · pedidos de cestas da comunidade · <a href="/limitesolar">Limite solidário</a></p></footer>
</body>
</html>`;
}

/** A labelled text input with its error message, keeping the typed value. */
export function campoTexto(opcoes: {
  nome: string;
  rotulo: string;
  valor: string | number | null | undefined;
  erro?: string | undefined;
  tipo?: string;
  obrigatorio?: boolean;
  somenteLeitura?: boolean;
  ajuda?: string;
  extra?: Html;
}): Html {
  const id = `campo-${opcoes.nome}`;
  const erroId = `${id}-erro`;
  return html`<div class="campo${opcoes.erro === undefined ? '' : ' com-erro'}">
  <label for="${id}">${opcoes.rotulo}${opcoes.obrigatorio === true ? html` <span aria-hidden="true">*</span>` : ''}</label>
  <input id="${id}" name="${opcoes.nome}" type="${opcoes.tipo ?? 'text'}" value="${opcoes.valor ?? ''}"
    ${opcoes.obrigatorio === true ? html`required` : ''} ${opcoes.somenteLeitura === true ? html`readonly` : ''}
    ${opcoes.erro === undefined ? '' : html`aria-invalid="true" aria-describedby="${erroId}"`} ${opcoes.extra ?? ''}>
  ${opcoes.ajuda === undefined ? '' : html`<small>${opcoes.ajuda}</small>`}
  ${opcoes.erro === undefined ? '' : html`<p class="erro" id="${erroId}">${opcoes.erro}</p>`}
</div>`;
}

export function campoAreaTexto(opcoes: {
  nome: string;
  rotulo: string;
  valor: string | null | undefined;
  erro?: string | undefined;
}): Html {
  const id = `campo-${opcoes.nome}`;
  return html`<div class="campo${opcoes.erro === undefined ? '' : ' com-erro'}">
  <label for="${id}">${opcoes.rotulo}</label>
  <textarea id="${id}" name="${opcoes.nome}" rows="3"
    ${opcoes.erro === undefined ? '' : html`aria-invalid="true" aria-describedby="${id}-erro"`}>${opcoes.valor ?? ''}</textarea>
  ${opcoes.erro === undefined ? '' : html`<p class="erro" id="${id}-erro">${opcoes.erro}</p>`}
</div>`;
}

export function caixaDeMarcar(opcoes: {
  nome: string;
  valor: string;
  rotulo: string;
  marcado: boolean;
  id?: string;
}): Html {
  const id = opcoes.id ?? `campo-${opcoes.nome}-${opcoes.valor}`;
  return html`<div class="marcar">
  <input type="checkbox" id="${id}" name="${opcoes.nome}" value="${opcoes.valor}" ${opcoes.marcado ? html`checked` : ''}>
  <label for="${id}">${opcoes.rotulo}</label>
</div>`;
}

export function campoCsrf(csrf: string | null): Html {
  return csrf === null ? html`` : html`<input type="hidden" name="_csrf" value="${csrf}">`;
}

/** Where a field's error leads: the control's id and how people call the field. */
export type AlvoDoErro = (chave: string) => { readonly id: string; readonly rotulo: string } | null;

/**
 * The banner over a refused form: how many fields to fix, each named and linked to its control
 * (a long form puts the field far below the banner), and a refusal of the whole form.
 */
export function resumoDeErros(
  erros: Readonly<Record<string, unknown>>,
  alvo?: AlvoDoErro,
  geral?: string | null,
): Html {
  const campos = Object.entries(erros).filter((e): e is [string, string] => typeof e[1] === 'string');
  const n = campos.length;
  if (n === 0 && (geral ?? null) === null) return html``;
  const itens =
    alvo === undefined
      ? []
      : campos.flatMap(([chave, msg]) => {
          const a = alvo(chave);
          return a === null ? [] : [html`<li><a href="#${a.id}">${a.rotulo}</a>: ${msg}</li>`];
        });
  return html`<div class="alerta" role="alert" tabindex="-1" id="resumo-erros">
  ${geral === undefined || geral === null ? '' : html`<p><strong>${geral}</strong></p>`}
  ${n === 0 ? '' : html`<p>${n === 1 ? 'Há 1 campo a corrigir' : `Há ${n} campos a corrigir`}${itens.length === 0 ? '.' : ':'}</p>`}
  ${itens.length === 0 ? '' : html`<ul>${itens}</ul>`}
</div>`;
}
