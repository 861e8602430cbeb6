import { randomUUID } from 'node:crypto';
import type { AssinaturaComCiclos, ProximoCiclo } from '../../domain/assinaturas/leitura.ts';
import type { FaltaNoCiclo, PainelDeAssinaturas } from '../../domain/assinaturas/painel.ts';
import { html, type Html } from '../../http/html.ts';
import { campoCsrf } from './layout.ts';
import { ariaDoErro, erroDoCampo, mensagemDeErro, textoDoErro } from './fluxo.ts';
import { dataBr, reais } from '../../formatos.ts';

type Escolha = { readonly id: number; readonly nome: string };

/** A next cycle as the pages show it, with whether the window still lets the subscriber act. */
export type CicloDaPagina = ProximoCiclo & { readonly vem: boolean; readonly janelaAberta: boolean };

/** A subscription with its next cycles as the pages show them. */
export type AssinaturaDaPagina = Omit<AssinaturaComCiclos, 'proximosCiclos'> & {
  readonly proximosCiclos: readonly CicloDaPagina[];
};

export interface PaginaAssinaturas {
  readonly consumidor: Escolha;
  /** Today in the community's zone (AAAA-MM-DD). */
  readonly hoje: string;
  /** Whether the consumer is someone else (an admin acting for them): forms carry usuarioid. */
  readonly porOutraPessoa: boolean;
  readonly itens: readonly AssinaturaDaPagina[];
  readonly cestas: ReadonlyArray<Escolha & { readonly limiteAssinaturas: number | null }>;
  readonly pontosEntrega: readonly Escolha[];
  readonly mercados: readonly Escolha[];
}

/** A refused post drawn back: the message, each field's error and what was typed, in the form that was posted. */
export interface FalhaNaPagina {
  readonly form: string | null;
  readonly erro: string | null;
  readonly detalhes: Readonly<Record<string, unknown>>;
  readonly valores: Readonly<Record<string, unknown>> | null;
}

export const SEM_FALHA: FalhaNaPagina = { form: null, erro: null, detalhes: {}, valores: null };

export const NOMES_FREQUENCIA = { cada_ciclo: 'A cada ciclo', ciclo_sim_ciclo_nao: 'Ciclo sim, ciclo não' } as const;

/** What became of a cycle, in words: vem, pulado, pausado, faltou (with the reason). */
export function situacaoEmPalavras(c: { situacao: ProximoCiclo['situacao']; motivo: string | null }): Html {
  switch (c.situacao) {
    case 'pulado':
      return html`<span class="estado rascunho">pulado</span>`;
    case 'pausado':
      return html`<span class="estado rascunho">pausado</span>`;
    case 'faltou':
      return html`<span class="estado inativo">faltou</span>${c.motivo === null ? '' : html` <span class="nota">(${c.motivo})</span>`}`;
    default:
      return html`<span class="estado finalizada">vem</span>`;
  }
}

function texto(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** One field of a form, its id prefixed by the form's, with its error when that form was the one posted. */
function campo(f: {
  prefixo: string;
  nome: string;
  rotulo: string;
  falha: FalhaNaPagina;
  valor: string;
  controle: (id: string, aria: Html) => Html;
  ajuda?: string;
}): Html {
  const id = `${f.prefixo}-${f.nome}`;
  const e = f.falha.form === f.prefixo ? erroDoCampo(f.falha.detalhes, f.nome) : null;
  const erro = e === null ? null : { ...e, id: `${id}-erro` };
  return html`<div class="campo${erro === null ? '' : ' com-erro'}"><label for="${id}">${f.rotulo}</label>${f.controle(id, ariaDoErro(erro))}
    ${f.ajuda === undefined ? '' : html`<small>${f.ajuda}</small>`}${textoDoErro(erro)}</div>`;
}

function selecao(nome: string, opcoes: readonly Escolha[], valor: string, vazio: string | null) {
  return (
    id: string,
    aria: Html,
  ) => html`<select id="${id}" name="${nome}" ${vazio === null ? html`required` : ''} ${aria}>
    ${vazio === null ? html`<option value="">Escolha</option>` : html`<option value="">${vazio}</option>`}
    ${opcoes.map((o) => html`<option value="${o.id}" ${String(o.id) === valor ? html`selected` : ''}>${o.nome}</option>`)}</select>`;
}

function entradaDe(nome: string, valor: string, tipo: string, extra: Html = html``) {
  return (id: string, aria: Html) =>
    html`<input id="${id}" name="${nome}" type="${tipo}" value="${valor}" autocomplete="off" ${extra} ${aria}>`;
}

/** The subscription form: a new one (a === null) or changing one. */
function formAssinatura(
  p: PaginaAssinaturas,
  a: PaginaAssinaturas['itens'][number] | null,
  csrf: string | null,
  falha: FalhaNaPagina,
): Html {
  const prefixo = a === null ? 'nova' : `a${a.id}`;
  const v = falha.form === prefixo && falha.valores !== null ? falha.valores : null;
  const val = (k: string, padrao: string) => (v === null ? padrao : texto(v[k]));
  const c = (nome: string, rotulo: string, valor: string, controle: (id: string, aria: Html) => Html, ajuda?: string) =>
    campo({ prefixo, nome, rotulo, falha, valor, controle, ...(ajuda === undefined ? {} : { ajuda }) });
  const freq = val('frequencia', a?.frequencia ?? 'cada_ciclo');
  return html`<form method="post" action="/assinaturas" class="formulario" id="form-${prefixo}">
    ${campoCsrf(csrf)}
    ${a === null ? '' : html`<input type="hidden" name="id" value="${a.id}">`}
    ${p.porOutraPessoa ? html`<input type="hidden" name="usuarioid" value="${p.consumidor.id}">` : ''}
    ${c('cestaId', 'Cesta', '', selecao('cestaId', p.cestas, val('cestaId', a === null ? '' : String(a.cestaId)), null))}
    ${c('quantidade', 'Quantas cestas por ciclo', '', entradaDe('quantidade', val('quantidade', a === null ? '1' : String(a.quantidade)), 'text', html`inputmode="numeric" required`))}
    ${c('pontoEntregaId', 'Onde vai retirar', '', selecao('pontoEntregaId', p.pontosEntrega, val('pontoEntregaId', a === null ? '' : String(a.pontoEntregaId)), null))}
    ${c(
      'frequencia',
      'Frequência',
      '',
      (id, aria) => html`<select id="${id}" name="frequencia" required ${aria}>
      ${Object.entries(NOMES_FREQUENCIA).map(([k, nome]) => html`<option value="${k}" ${freq === k ? html`selected` : ''}>${nome}</option>`)}</select>`,
    )}
    ${c('inicio', 'Início da temporada', '', entradaDe('inicio', val('inicio', a?.inicio ?? ''), 'date', html`required`))}
    ${c('fim', 'Fim da temporada', '', entradaDe('fim', val('fim', a?.fim ?? ''), 'date', html`required`))}
    ${p.mercados.length === 0 ? '' : c('mercadoId', 'Mercado de cestas (opcional)', '', selecao('mercadoId', p.mercados, val('mercadoId', a?.mercadoId === null || a === null ? '' : String(a.mercadoId)), 'Qualquer um'))}
    <button type="submit" class="botao">${a === null ? 'Assinar' : 'Salvar alterações'}</button>
  </form>`;
}

/** A next cycle's row: its situation, and inside the order window the skip and the change for this cycle only. */
function linhaDoCiclo(
  p: PaginaAssinaturas,
  a: PaginaAssinaturas['itens'][number],
  c: CicloDaPagina,
  csrf: string | null,
  falha: FalhaNaPagina,
): Html {
  const ponto = c.pontoEntrega;
  const prefixo = `c${a.id}-${c.cicloid}`;
  const v = falha.form === prefixo && falha.valores !== null ? falha.valores : null;
  return html`<li class="cartao" data-ciclo="${c.cicloid}">
    <h4>${c.nome}</h4>
    <p>Retirada a partir de ${dataBr(c.dataRetiradaInicio)} · ${situacaoEmPalavras(c)}${c.situacao === 'pulado' || c.situacao === 'pausado' ? '' : html` · ${c.quantidade} × ${a.cesta} em ${ponto}`}</p>
    ${
      !c.janelaAberta
        ? html`<p class="nota">Fora do período de pedidos deste ciclo${c.dataPedidoInicio > p.hoje ? html` (abre em ${dataBr(c.dataPedidoInicio)})` : ''}: mudanças neste ciclo passam pela coordenação.</p>`
        : html`${
            c.situacao === 'pulado'
              ? ''
              : html`<form method="post" action="/assinaturas/${a.id}/pular/${c.cicloid}" class="formulario em-linha">${campoCsrf(csrf)}
          <button type="submit" class="botao secundario">Pular este ciclo</button></form>`
          }
        <details ${falha.form === prefixo ? html`open` : ''}><summary>Mudar só neste ciclo</summary>
        <form method="post" action="/assinaturas/${a.id}/ciclo/${c.cicloid}" class="formulario" id="form-${prefixo}">${campoCsrf(csrf)}
          ${campo({ prefixo, nome: 'quantidade', rotulo: 'Cestas neste ciclo', falha, valor: '', controle: entradaDe('quantidade', v === null ? String(c.quantidade) : texto(v.quantidade), 'text', html`inputmode="numeric" required`) })}
          ${campo({ prefixo, nome: 'pontoEntregaId', rotulo: 'Onde retirar neste ciclo', falha, valor: '', controle: selecao('pontoEntregaId', p.pontosEntrega, v === null ? String(c.pontoEntregaId) : texto(v.pontoEntregaId), null) })}
          <button type="submit" class="botao">Salvar só neste ciclo</button>
        </form></details>`
    }
  </li>`;
}

function blocoDaAssinatura(
  p: PaginaAssinaturas,
  a: PaginaAssinaturas['itens'][number],
  csrf: string | null,
  falha: FalhaNaPagina,
): Html {
  const prefixoPausa = `p${a.id}`;
  const v = falha.form === prefixoPausa && falha.valores !== null ? falha.valores : null;
  return html`<section class="cartao assinatura" id="assinatura-${a.id}" aria-labelledby="titulo-assinatura-${a.id}">
    <h3 id="titulo-assinatura-${a.id}">${a.quantidade} × ${a.cesta}${a.ativa ? '' : html` <span class="estado inativo">encerrada</span>`}</h3>
    <dl class="datas">
      <dt>Retirada</dt><dd>${a.pontoEntrega}</dd>
      <dt>Frequência</dt><dd>${NOMES_FREQUENCIA[a.frequencia]}</dd>
      <dt>Temporada</dt><dd>${dataBr(a.inicio)} a ${dataBr(a.fim)}</dd>
      ${a.mercado === null ? '' : html`<dt>Mercado</dt><dd>${a.mercado}</dd>`}
    </dl>
    ${
      !a.ativa
        ? ''
        : html`
    <h4>Próximos ciclos</h4>
    ${a.proximosCiclos.length === 0 ? html`<p class="nota">Nenhum ciclo com esta cesta na temporada, por enquanto.</p>` : html`<ul class="cartoes ciclos-da-assinatura">${a.proximosCiclos.map((c) => linhaDoCiclo(p, a, c, csrf, falha))}</ul>`}
    <h4>Pausas</h4>
    ${
      a.pausas.length === 0
        ? html`<p class="nota">Nenhuma pausa.</p>`
        : html`<ul>${a.pausas.map(
            (x) => html`<li>${dataBr(x.inicio)} a ${dataBr(x.fim)}
      <form method="post" action="/assinaturas/${a.id}/pausas/${x.id}/remover" class="em-linha">${campoCsrf(csrf)}<button type="submit" class="botao secundario">Remover pausa</button></form></li>`,
          )}</ul>`
    }
    <details ${falha.form === prefixoPausa ? html`open` : ''}><summary>Pausar (férias, viagem)</summary>
    <form method="post" action="/assinaturas/${a.id}/pausas" class="formulario" id="form-${prefixoPausa}">${campoCsrf(csrf)}
      ${campo({ prefixo: prefixoPausa, nome: 'inicio', rotulo: 'De', falha, valor: '', controle: entradaDe('inicio', v === null ? '' : texto(v.inicio), 'date', html`required`) })}
      ${campo({ prefixo: prefixoPausa, nome: 'fim', rotulo: 'Até', falha, valor: '', controle: entradaDe('fim', v === null ? '' : texto(v.fim), 'date', html`required`) })}
      <p class="nota">Os ciclos cujo período de pedidos começa nesses dias ficam sem cesta.</p>
      <button type="submit" class="botao">Pausar</button>
    </form></details>
    <details ${falha.form === `a${a.id}` ? html`open` : ''}><summary>Alterar a assinatura</summary>
    ${formAssinatura(p, a, csrf, falha)}
    <form method="post" action="/assinaturas" class="em-linha">${campoCsrf(csrf)}
      <input type="hidden" name="id" value="${a.id}">${p.porOutraPessoa ? html`<input type="hidden" name="usuarioid" value="${p.consumidor.id}">` : ''}
      <input type="hidden" name="cestaId" value="${a.cestaId}"><input type="hidden" name="quantidade" value="${a.quantidade}"><input type="hidden" name="pontoEntregaId" value="${a.pontoEntregaId}">
      <input type="hidden" name="frequencia" value="${a.frequencia}"><input type="hidden" name="inicio" value="${a.inicio}"><input type="hidden" name="fim" value="${a.fim}">
      ${a.mercadoId === null ? '' : html`<input type="hidden" name="mercadoId" value="${a.mercadoId}">`}<input type="hidden" name="ativa" value="false">
      <button type="submit" class="botao secundario">Encerrar a assinatura</button></form>
    </details>`
    }
  </section>`;
}

/** /assinaturas: the person's subscriptions, each with its next cycles and pauses, and the form for a new one. */
export function paginaAssinaturas(p: PaginaAssinaturas, csrf: string | null, falha: FalhaNaPagina = SEM_FALHA): Html {
  return html`<p>Assinaturas de <strong>${p.consumidor.nome}</strong>: a cesta vem sozinha a cada ciclo, sem precisar pedir.</p>
  ${mensagemDeErro(falha.erro, falha.detalhes, () => falha.form !== null)}
  <section aria-labelledby="titulo-assinaturas"><h2 id="titulo-assinaturas">${p.porOutraPessoa ? 'As assinaturas' : 'Suas assinaturas'}</h2>
  ${p.itens.length === 0 ? html`<p>Nenhuma assinatura ainda.</p>` : p.itens.map((a) => blocoDaAssinatura(p, a, csrf, falha))}</section>
  <section aria-labelledby="titulo-nova"><h2 id="titulo-nova">Nova assinatura</h2>
  ${p.cestas.length === 0 ? html`<p>Nenhuma cesta disponível para assinar.</p>` : formAssinatura(p, null, csrf, falha)}</section>`;
}

/** The dashboard card of a subscriber: the cycles whose order window is open, what comes and the skip. */
export function cartaoDaAssinatura(
  itens: ReadonlyArray<{ assinatura: AssinaturaDaPagina; ciclo: CicloDaPagina }>,
  csrf: string | null,
): Html {
  if (itens.length === 0) return html``;
  // One card per cycle, named, with each subscription's basket in it and the point its order uses.
  const porCiclo = new Map<number, Array<{ assinatura: AssinaturaDaPagina; ciclo: CicloDaPagina }>>();
  for (const item of itens) porCiclo.set(item.ciclo.cicloid, [...(porCiclo.get(item.ciclo.cicloid) ?? []), item]);
  return html`<section aria-labelledby="titulo-sua-cesta" class="sua-cesta"><h2 id="titulo-sua-cesta">${new Set(itens.map((i) => i.assinatura.id)).size > 1 ? 'Suas assinaturas' : 'Sua assinatura'}</h2><ul class="cartoes">${[
    ...porCiclo.values(),
  ].map((doCiclo) => {
    const ciclo = doCiclo[0]?.ciclo;
    if (ciclo === undefined) return '';
    return html`<li class="cartao" data-ciclo="${ciclo.cicloid}">
    <h3>${ciclo.nome}</h3><p class="nota">Retirada a partir de ${dataBr(ciclo.dataRetiradaInicio)}</p>
    ${doCiclo.map(
      ({ assinatura: a, ciclo: c }) =>
        html`<div data-assinatura="${a.id}">${
          c.situacao === 'pulado'
            ? html`<p>Você pulou a ${a.cesta} neste ciclo: ela não vem.</p>`
            : c.situacao === 'pausado'
              ? html`<p>Sua assinatura da ${a.cesta} está pausada neste ciclo.</p>`
              : c.situacao === 'faltou'
                ? html`<p>A ${a.cesta} faltou para você neste ciclo${c.motivo === null ? '' : `: ${c.motivo}`}.</p>`
                : html`<p>Sua cesta vem neste ciclo: <strong>${a.cesta} × ${c.quantidade}</strong>, retirada em <strong>${c.pontoEntrega}</strong>. Pular?</p>
            <form method="post" action="/assinaturas/${a.id}/pular/${c.cicloid}?de=painel" class="em-linha">${campoCsrf(csrf)}<button type="submit" class="botao secundario">Pular este ciclo<span class="sr"> (${a.cesta}, ${c.nome})</span></button></form>`
        }</div>`,
    )}
    <p><a href="/assinaturas">Ver suas assinaturas</a></p></li>`;
  })}</ul></section>`;
}

export interface PaginaTodas extends PainelDeAssinaturas {
  readonly cestasDisponiveis: ReadonlyArray<Escolha & { readonly limiteAssinaturas: number | null }>;
  readonly ciclos: readonly Escolha[];
  readonly ciclo: Escolha | null;
  readonly faltas: readonly FaltaNoCiclo[];
  readonly pontos: readonly Escolha[];
  readonly podeLimitar: boolean;
  /** The coordination records seasons paid in advance (financeiroEscrever). */
  readonly podeRegistrarPagamento: boolean;
}

/** What was paid in advance for a subscription and, for the coordination, the form that records a payment. */
function pagamentoDaTemporada(
  a: PaginaTodas['assinaturas'][number],
  pode: boolean,
  csrf: string | null,
  falha: FalhaNaPagina,
): Html {
  const prefixo = `pg${a.id}`;
  const v = falha.form === prefixo && falha.valores !== null ? falha.valores : null;
  const pago = a.pagoAdiantadoCentavos === 0 ? 'nada' : reais(a.pagoAdiantadoCentavos);
  return html`${pago}${
    !pode
      ? ''
      : html`<details id="pagamento-${a.id}" ${falha.form === prefixo ? html`open` : ''}><summary>Registrar pagamento</summary>
    <form method="post" action="/assinaturas/${a.id}/pagamento" class="formulario" id="form-${prefixo}">${campoCsrf(csrf)}
      <input type="hidden" name="envio" value="${randomUUID()}">
      ${campo({ prefixo, nome: 'valor', rotulo: 'Valor pago (R$)', falha, valor: '', controle: entradaDe('valor', v === null ? '' : texto(v.valor), 'text', html`inputmode="decimal" required`), ajuda: 'Como se escreve: 480,00 ou 1.234,56. Vira crédito de quem assina; cada ciclo fechado desconta o seu pedido' })}
      ${campo({ prefixo, nome: 'descricao', rotulo: 'Observação (opcional)', falha, valor: '', controle: entradaDe('descricao', v === null ? '' : texto(v.descricao), 'text', html`maxlength="200"`), ajuda: 'A forma de pagamento, por exemplo: Pix de 01/03' })}
      <button type="submit" class="botao">Registrar pagamento</button>
    </form></details>`
  }`;
}

/** /assinaturas/todas: every subscription, the totals per basket type (with the cap) and per point, and a cycle's shortages. */
export function paginaTodas(p: PaginaTodas, csrf: string | null, falha: FalhaNaPagina = SEM_FALHA): Html {
  const nomePonto = (id: number) => p.pontos.find((x) => x.id === id)?.nome ?? String(id);
  return html`${mensagemDeErro(falha.erro, falha.detalhes)}
  <section aria-labelledby="titulo-por-cesta"><h2 id="titulo-por-cesta">Por cesta</h2>
  ${
    p.porCesta.length === 0
      ? html`<p>Nenhuma assinatura ativa.</p>`
      : html`<div class="tabela-rolavel" role="region" aria-label="Assinaturas por cesta" tabindex="0"><table class="tabela-cartoes">
    <thead><tr><th scope="col">Cesta</th><th scope="col" class="num">Assinaturas</th><th scope="col" class="num">Cestas por ciclo</th><th scope="col" class="num">Limite</th></tr></thead>
    <tbody>${p.porCesta.map((c) => html`<tr><th scope="row">${c.nome}</th><td class="num" data-rotulo="Assinaturas">${c.assinaturas}</td><td class="num" data-rotulo="Cestas por ciclo">${c.cestas}</td><td class="num" data-rotulo="Limite">${c.limite === null ? 'sem limite' : c.limite}</td></tr>`)}</tbody></table></div>`
  }
  ${
    !p.podeLimitar || p.cestasDisponiveis.length === 0
      ? ''
      : html`<details ${falha.form === 'limite' ? html`open` : ''}><summary>Limite de assinaturas de uma cesta</summary>
  <form method="post" action="/assinaturas/limite" class="formulario" id="form-limite">${campoCsrf(csrf)}
    ${campo({
      prefixo: 'limite',
      nome: 'cestaId',
      rotulo: 'Cesta',
      falha,
      valor: '',
      controle: selecao(
        'cestaId',
        p.cestasDisponiveis.map((c) => ({
          id: c.id,
          nome: `${c.nome} (${c.limiteAssinaturas === null ? 'sem limite' : `limite ${c.limiteAssinaturas}`})`,
        })),
        '',
        null,
      ),
    })}
    ${campo({ prefixo: 'limite', nome: 'limiteAssinaturas', rotulo: 'Máximo de assinaturas ativas', falha, valor: '', controle: entradaDe('limiteAssinaturas', '', 'text', html`inputmode="numeric"`), ajuda: 'Vazio: sem limite' })}
    <button type="submit" class="botao">Salvar limite</button></form></details>`
  }
  </section>
  <section aria-labelledby="titulo-por-ponto"><h2 id="titulo-por-ponto">Por ponto de entrega</h2>
  ${
    p.porPonto.length === 0
      ? html`<p>Nenhuma assinatura ativa.</p>`
      : html`<div class="tabela-rolavel" role="region" aria-label="Assinaturas por ponto" tabindex="0"><table class="tabela-cartoes">
    <thead><tr><th scope="col">Ponto</th><th scope="col" class="num">Assinaturas</th><th scope="col" class="num">Cestas por ciclo</th></tr></thead>
    <tbody>${p.porPonto.map((c) => html`<tr><th scope="row">${c.nome}</th><td class="num" data-rotulo="Assinaturas">${c.assinaturas}</td><td class="num" data-rotulo="Cestas por ciclo">${c.cestas}</td></tr>`)}</tbody></table></div>`
  }
  </section>
  <section aria-labelledby="titulo-faltas"><h2 id="titulo-faltas">Quem ficou sem a cesta</h2>
  <form method="get" action="/assinaturas/todas" class="formulario em-linha">
    <div class="campo"><label for="faltas-ciclo">Ciclo</label><select id="faltas-ciclo" name="cicloId">${p.ciclos.map((c) => html`<option value="${c.id}" ${p.ciclo?.id === c.id ? html`selected` : ''}>${c.nome}</option>`)}</select></div>
    <button type="submit" class="botao secundario">Ver</button></form>
  ${p.ciclo === null ? '' : p.faltas.length === 0 ? html`<p>No ciclo ${p.ciclo.nome}, nenhuma assinatura ficou sem a cesta.</p>` : html`<p>No ciclo ${p.ciclo.nome}:</p><ul>${p.faltas.map((f) => html`<li><strong>${f.consumidor}</strong>: ${f.quantidade} × ${f.cesta} em ${nomePonto(f.pontoEntregaId)} — ${f.motivo}</li>`)}</ul>`}
  </section>
  <section aria-labelledby="titulo-todas"><h2 id="titulo-todas">Cada assinatura</h2>
  ${
    p.assinaturas.length === 0
      ? html`<p>Nenhuma assinatura.</p>`
      : html`<div class="tabela-rolavel" role="region" aria-label="Lista das assinaturas" tabindex="0"><table class="tabela-cartoes">
    <thead><tr><th scope="col">Consumidor</th><th scope="col">Cesta</th><th scope="col" class="num">Quantidade</th><th scope="col">Ponto</th><th scope="col">Frequência</th><th scope="col">Temporada</th><th scope="col">Situação</th><th scope="col">Pago adiantado</th></tr></thead>
    <tbody>${p.assinaturas.map(
      (
        a,
      ) => html`<tr><th scope="row"><a href="/assinaturas?usuarioid=${a.usuarioid}">${a.consumidor}</a></th><td data-rotulo="Cesta">${a.cesta}${a.mercado === null ? '' : html`<br><span class="nota">${a.mercado}</span>`}</td>
      <td class="num" data-rotulo="Quantidade">${a.quantidade}</td><td data-rotulo="Ponto">${a.pontoEntrega}</td><td data-rotulo="Frequência">${NOMES_FREQUENCIA[a.frequencia]}</td>
      <td data-rotulo="Temporada">${dataBr(a.inicio)} a ${dataBr(a.fim)}</td>
      <td data-rotulo="Situação">${!a.ativa ? 'encerrada' : a.pausas.length === 0 ? 'ativa' : html`ativa; pausas: ${a.pausas.map((x) => `${dataBr(x.inicio)} a ${dataBr(x.fim)}`).join(', ')}`}</td>
      <td data-rotulo="Pago adiantado">${pagamentoDaTemporada(a, p.podeRegistrarPagamento, csrf, falha)}</td></tr>`,
    )}</tbody></table></div>`
  }
  </section>`;
}
