import {
  ESTADOS_DA_MENSAGEM,
  TIPOS_DE_AVISO,
  TIPOS_OPCIONAIS,
  ehTipoDeAviso,
  type EstadoDaMensagem,
  type MensagemNaCaixa,
  type TipoDeAviso,
} from '../../domain/avisos.ts';
import { html, type Html } from '../../http/html.ts';
import { campoCsrf } from './layout.ts';
import { instanteBr } from '../../formatos.ts';

const NOMES_ESTADOS: Readonly<Record<EstadoDaMensagem, string>> = {
  pendente: 'Na fila',
  enviando: 'Enviando',
  enviada: 'Enviada',
  falhou: 'Falhou',
};

const aviso = (ligado: boolean): Html | '' =>
  ligado
    ? ''
    : html`<p class="alerta-suave" role="status">O envio de e-mails está desligado neste serviço (sem SMTP_URL): nada é enviado.</p>`;

/** /profile/avisos: the optional kinds, each a box to tick; the mandatory ones are named as always sent. */
export function paginaAvisos(recebe: readonly TipoDeAviso[], csrf: string | null, ligado: boolean): Html {
  const obrigatorios = (Object.keys(TIPOS_DE_AVISO) as TipoDeAviso[]).filter((t) => !TIPOS_DE_AVISO[t].opcional);
  return html`${aviso(ligado)}
  <form method="post" action="/profile/avisos" class="formulario">
    ${campoCsrf(csrf)}
    <input type="hidden" name="avisos" value="">
    <fieldset>
      <legend>Quais avisos você quer receber por e-mail</legend>
      ${TIPOS_OPCIONAIS.map(
        (
          t,
        ) => html`<div class="marcar"><input type="checkbox" id="aviso-${t}" name="avisos" value="${t}" ${recebe.includes(t) ? html`checked` : ''}>
        <label for="aviso-${t}">${TIPOS_DE_AVISO[t].nome}</label></div>`,
      )}
    </fieldset>
    <p class="nota">Sempre enviados: ${obrigatorios.map((t) => TIPOS_DE_AVISO[t].nome.toLowerCase()).join('; ')}.</p>
    <button type="submit" class="botao">Salvar avisos</button>
  </form>
  <p><a href="/profile">Voltar ao perfil</a></p>`;
}

/** The unsubscribe link's page: one button, no login. */
export function paginaDeixarDeReceber(token: string, tipo: TipoDeAviso, feito: boolean): Html {
  const nome = TIPOS_DE_AVISO[tipo].nome;
  return feito
    ? html`<p class="aviso" role="status">Pronto: você não recebe mais “${nome}”.</p>
      <p>Você pode voltar a receber quando quiser, em <a href="/profile/avisos">Meu perfil › Avisos por e-mail</a>.</p>`
    : html`<p>Deixar de receber por e-mail: <strong>${nome}</strong>?</p>
      <form method="post" action="/avisos/sair/${token}" class="formulario">
        <button type="submit" class="botao">Deixar de receber</button>
      </form>
      <p class="nota">Recibos de pedido e mensagens da coordenação continuam chegando.</p>`;
}

/** The admins' outbox: the latest messages, their state, and resend for those that failed. */
export function paginaCaixaDeSaida(
  caixa: { mensagens: readonly MensagemNaCaixa[]; porEstado: Readonly<Record<EstadoDaMensagem, number>> },
  estado: EstadoDaMensagem | null,
  csrf: string | null,
  podeReenviar: boolean,
  ligado: boolean,
  tz: string,
): Html {
  return html`${aviso(ligado)}
  <nav aria-label="Filtrar por estado"><ul class="atalhos">
    <li><a class="botao secundario" href="/mensagens" ${estado === null ? html`aria-current="page"` : ''}>Todas</a></li>
    ${ESTADOS_DA_MENSAGEM.map((e) => html`<li><a class="botao secundario" href="/mensagens?estado=${e}" ${estado === e ? html`aria-current="page"` : ''}>${NOMES_ESTADOS[e]} (${caixa.porEstado[e]})</a></li>`)}
  </ul></nav>
  ${
    caixa.mensagens.length === 0
      ? html`<p>Nenhuma mensagem${estado === null ? '' : ` com estado “${NOMES_ESTADOS[estado]}”`}.</p>`
      : html`<div class="tabela-rolavel" role="region" aria-label="Mensagens" tabindex="0"><table class="tabela-cartoes">
      <thead><tr><th scope="col">Assunto</th><th scope="col">Para</th><th scope="col">Tipo</th><th scope="col">Estado</th><th scope="col">Quando</th><th scope="col"><span class="sr">Ações</span></th></tr></thead>
      <tbody>${caixa.mensagens.map(
        (m) => html`<tr>
        <th scope="row">${m.assunto}</th>
        <td data-rotulo="Para">${m.para}</td>
        <td data-rotulo="Tipo">${ehTipoDeAviso(m.tipo) ? TIPOS_DE_AVISO[m.tipo].nome : m.tipo}</td>
        <td data-rotulo="Estado"><span class="estado estado-${m.estado}">${NOMES_ESTADOS[m.estado]}</span>${m.tentativas > 1 ? ` · ${m.tentativas} tentativas` : ''}${m.ultimoErro === null ? '' : html`<br><span class="nota">${m.ultimoErro}</span>`}</td>
        <td data-rotulo="Quando">${instanteBr(m.enviadaEm ?? m.criadaEm, tz)}${m.estado === 'pendente' && m.tentativas > 0 ? html`<br><span class="nota">nova tentativa ${instanteBr(m.proximaTentativa, tz)}</span>` : ''}</td>
        <td>${
          podeReenviar && (m.estado === 'falhou' || m.estado === 'enviada')
            ? html`<form method="post" action="/mensagens/${m.id}/reenviar">${campoCsrf(csrf)}<button type="submit" class="botao secundario">Reenviar</button></form>`
            : ''
        }</td>
      </tr>`,
      )}</tbody></table></div>`
  }`;
}

/** /ciclo/:id/mensagem: a message to everyone in the cycle. */
export function formularioMensagem(
  ciclo: { id: number; nome: string },
  destinatarios: number,
  mercados: ReadonlyArray<{ id: number; nome: string; compradores: number }>,
  valores: Readonly<Record<string, unknown>>,
  erros: Readonly<Record<string, unknown>>,
  csrf: string | null,
  ligado: boolean,
): Html {
  const v = (k: string) => (typeof valores[k] === 'string' ? valores[k] : '');
  const pessoas = (n: number) => (n === 1 ? '1 pessoa' : `${n} pessoas`);
  const erro = (k: string) =>
    typeof erros[k] === 'string' ? html`<p class="erro" id="erro-${k}">${erros[k]}</p>` : '';
  return html`${aviso(ligado)}
  <p>Vai para <strong>${destinatarios === 1 ? '1 pessoa' : `${destinatarios} pessoas`}</strong> do ${ciclo.nome}: quem ofertou e quem pediu.</p>
  <form method="post" action="/ciclo/${ciclo.id}/mensagem" class="formulario">
    ${campoCsrf(csrf)}
    ${
      mercados.length === 0
        ? ''
        : html`<div class="campo${erros.mercadoId === undefined ? '' : ' com-erro'}"><label for="campo-mercadoId">Para quem</label>
      <select id="campo-mercadoId" name="mercadoId"><option value="">Todos do ciclo (${pessoas(destinatarios)})</option>
        ${mercados.map((m) => html`<option value="${m.id}" ${v('mercadoId') === String(m.id) ? html`selected` : ''}>Quem comprou em ${m.nome} (${pessoas(m.compradores)})</option>`)}</select>${erro('mercadoId')}</div>`
    }
    <div class="campo${erros.assunto === undefined ? '' : ' com-erro'}"><label for="campo-assunto">Assunto <span aria-hidden="true">*</span></label>
      <input id="campo-assunto" name="assunto" maxlength="120" required value="${v('assunto')}" ${erros.assunto === undefined ? '' : html`aria-invalid="true" aria-describedby="erro-assunto"`}>${erro('assunto')}</div>
    <div class="campo${erros.texto === undefined ? '' : ' com-erro'}"><label for="campo-texto">Mensagem <span aria-hidden="true">*</span></label>
      <textarea id="campo-texto" name="texto" rows="8" maxlength="5000" required ${erros.texto === undefined ? '' : html`aria-invalid="true" aria-describedby="erro-texto"`}>${v('texto')}</textarea>${erro('texto')}</div>
    <button type="submit" class="botao">Enviar a todos</button>
  </form>
  <p><a href="/ciclo/${ciclo.id}">Voltar ao ciclo</a></p>`;
}
