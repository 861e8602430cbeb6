import type { Conta } from '../../domain/contas.ts';
import { html, type Html, type Interpolavel } from '../../http/html.ts';

/** Who is looking at the page, and the CSRF token its forms carry. */
export interface ContextoPagina {
  readonly conta: Conta | null;
  readonly csrf: string | null;
}

function navegacao(ctx: ContextoPagina): Html {
  if (ctx.conta === null) return html`<nav aria-label="Principal"><ul><li><a href="/login">Entrar</a></li></ul></nav>`;
  return html`<nav aria-label="Principal">
    <ul>
      <li><a href="/dashboard">Painel</a></li>
      <li>
        <form method="post" action="/logout" class="inline">
          ${ctx.csrf === null ? '' : html`<input type="hidden" name="_csrf" value="${ctx.csrf}">`}
          <button type="submit" class="link">Sair</button>
        </form>
      </li>
    </ul>
  </nav>`;
}

/** The frame of the error pages the server renders itself: mobile first, pt-BR, no JavaScript. */
export function layout(titulo: string, ctx: ContextoPagina, conteudo: Interpolavel): Html {
  return html`<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${titulo} · Cestaria Mercados</title>
<link rel="stylesheet" href="/static/estilo.css">
</head>
<body>
<a class="pular" href="#conteudo">Pular para o conteúdo</a>
<header class="topo">
  <a class="marca" href="/">Cestaria Mercados</a>
  ${navegacao(ctx)}
</header>
<main id="conteudo">
<h1>${titulo}</h1>
${conteudo}
</main>
<footer class="rodape"><p>Cestaria Mercados · mercados da comunidade</p></footer>
</body>
</html>`;
}

/** The server's own pages are errors and the logout confirmation; every other page is the browser client's. */
export function paginaErro(mensagem: string, codigoRequisicao: string | null): Html {
  return html`<div class="alerta" role="alert"><p>${mensagem}</p></div>
  ${codigoRequisicao === null ? '' : html`<p><small>Código da requisição: <code>${codigoRequisicao}</code></small></p>`}
  <p><a href="/">Voltar ao início</a></p>`;
}

/** Asked when a GET /logout came from another site: only this page's own form ends the session. */
export function paginaConfirmarSaida(csrf: string | null): Html {
  return html`<p>Deseja sair da Cestaria Mercados neste aparelho?</p>
  <form method="post" action="/logout">
    ${csrf === null ? '' : html`<input type="hidden" name="_csrf" value="${csrf}">`}
    <button type="submit">Sair</button>
  </form>
  <p><a href="/dashboard">Continuar</a></p>`;
}
