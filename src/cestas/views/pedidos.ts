import type { Fase, Janela } from '../../domain/ciclos/calendario.ts';
import { escritasDaUnidade } from '../../domain/catalogo.ts';
import type { CestaParaPedir, ExtraParaPedir } from '../../domain/pedidos/disponibilidade.ts';
import type { HorarioDeRetirada, Pedido } from '../../domain/pedidos/modelo.ts';
import type { Taxa } from '../../domain/pedidos/taxa.ts';
import { horarioDeRetiradaTexto } from '../../domain/tempo.ts';
import { html, type Html } from '../../http/html.ts';
import { campoCsrf } from './layout.ts';
import {
  SCRIPT_FORMULARIOS,
  ariaDoErro,
  cabecalhoDoCiclo,
  erroDoCampo,
  mensagemDeErro,
  paraCampo,
  precoParaScript,
  retornoDoFormulario,
  textoDoErro,
} from './fluxo.ts';
import { dataBr, dataHoraBr, numeroDeQuantidade, quantidade, reais } from '../../formatos.ts';

export interface PaginaPedido {
  readonly ciclo: {
    id: number;
    nome: string;
    fase: Fase;
    abertas: readonly Janela[];
    dataPedidoInicio: string;
    dataPedidoFim: string;
  };
  readonly pedido: Pedido | null;
  readonly cestas: readonly CestaParaPedir[];
  readonly extras: readonly ExtraParaPedir[];
  readonly pontosEntrega: ReadonlyArray<
    HorarioDeRetirada & { id: number; nome: string; endereco: string | null; cidade: string | null }
  >;
  readonly taxa: { readonly percentual: number; readonly fixa: number };
  readonly acoes: { readonly editar: boolean; readonly confirmar: boolean };
  readonly consumidor: { id: number; nome: string };
}

function texto(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/**
 * What happens to an unconfirmed order, in words (DOMAIN.md, "Order"): it holds its stock only
 * while the order window is open, and is neither delivered nor charged unless confirmed by the
 * window's last minute. `encerrado`: the window has closed.
 */
export function prazoDeConfirmacao(dataPedidoFim: string, encerrado: boolean): string {
  return encerrado
    ? `Os pedidos fecharam em ${dataBr(dataPedidoFim)} e este pedido não foi confirmado: ele não será entregue nem cobrado, e o que ele reservava ficou livre para outros pedidos.`
    : `Se este pedido não for confirmado até ${dataHoraBr(`${dataPedidoFim}T23:59`)}, ele não será entregue nem cobrado, e o que ele reserva volta a ficar livre para outros pedidos.`;
}

/** The order window has closed in this phase (the phase is derived from today's date). */
const janelaEncerrada = (fase: Fase) => fase === 'retirada' || fase === 'encerrado';

/** The order page: baskets (with what is inside), extras, the delivery point and a live total with the fee apart. */
export function paginaPedido(
  p: PaginaPedido,
  csrf: string | null,
  falha: {
    erro: string | null;
    detalhes: Readonly<Record<string, unknown>>;
    valores: Readonly<Record<string, unknown>> | null;
  },
): Html {
  const ro = !p.acoes.editar;
  const noPedido = new Map(
    (p.pedido?.produtos ?? []).map((l) => [
      l.cicloCestaId !== null ? `c${l.cicloCestaId}` : `e${l.cicloProdutoId ?? 0}`,
      l.quantidadeMilesimos,
    ]),
  );
  const enviados = falha.valores?.produtos;
  const linhasEnviadas = Array.isArray(enviados)
    ? enviados
    : enviados !== null && typeof enviados === 'object'
      ? Object.values(enviados)
      : null;
  const qtd = (i: number, chave: string) => {
    const e = linhasEnviadas?.[i] as Record<string, unknown> | undefined;
    const gravada = noPedido.get(chave);
    return e === undefined ? (gravada === undefined ? '' : paraCampo(gravada, 'quantidade')) : texto(e.quantidade);
  };
  const ponto = falha.valores === null ? String(p.pedido?.pontoEntregaId ?? '') : texto(falha.valores.pontoEntregaId);
  const nCestas = p.cestas.length;
  const nLinhas = nCestas + p.extras.length;
  const noCampo = (k: string) =>
    k === 'pontoEntregaId' || (/^produtos\.\d+\.quantidade$/.test(k) && Number(k.split('.')[1]) < nLinhas);
  const erroPonto = erroDoCampo(falha.detalhes, 'pontoEntregaId');
  return html`${cabecalhoDoCiclo(p.ciclo)}
  <p>Pedido de <strong>${p.consumidor.nome}</strong>${p.pedido === null ? '' : html` · ${p.pedido.finalizado ? html`<span class="estado finalizada">confirmado</span>` : html`<span class="estado rascunho">salvo, falta confirmar</span>`}`}</p>
  ${ro ? html`<p class="nota">Fora do período de pedidos: só é possível consultar.</p>` : ''}
  ${
    p.pedido === null || p.pedido.finalizado
      ? ''
      : html`<p class="alerta-suave" role="status" id="prazo-de-confirmacao"><strong>Falta confirmar.</strong> ${prazoDeConfirmacao(p.ciclo.dataPedidoFim, janelaEncerrada(p.ciclo.fase))}
    ${janelaEncerrada(p.ciclo.fase) ? '' : html`<a href="/pedidoconsumidoresconfirmacao/${p.pedido.pedidoId}">Conferir e confirmar</a>`}</p>`
  }
  ${mensagemDeErro(falha.erro, falha.detalhes, noCampo)}
  ${retornoDoFormulario('form-pedido')}
  <form method="post" action="/pedidoconsumidores" id="form-pedido" class="formulario largo" data-pedido data-envio="pedido" data-taxa-percentual="${p.taxa.percentual}" data-taxa-fixa="${p.taxa.fixa}">
    ${campoCsrf(csrf)}
    <input type="hidden" name="cicloid" value="${p.ciclo.id}">
    <input type="hidden" name="usuarioid" value="${p.consumidor.id}">
    <h2>Cestas</h2>
    ${
      p.cestas.length === 0
        ? html`<p>Nenhuma cesta à venda neste ciclo.</p>`
        : html`<ul class="cartoes">${p.cestas.map((c, i) => {
            const erro = erroDoCampo(falha.detalhes, `produtos.${i}.quantidade`);
            // A basket still being composed cannot be ordered: it gets no field. One already in the order stays as it is.
            const indisponivel = c.emComposicao && !noPedido.has(`c${c.cicloCestaId}`);
            return html`<li class="cartao" data-linha data-preco="${precoParaScript(c.valorCentavos)}">
      <h3>${c.nome}</h3><p><strong>${reais(c.valorCentavos)}</strong> · <span data-disponivel>${c.emComposicao ? html`<span class="estado rascunho">em composição</span>` : c.disponivel > 0 ? `${c.disponivel} disponíveis` : 'esgotada'}</span></p>
      ${c.emComposicao ? html`<p class="nota">A coordenação ainda está montando esta cesta: ela poderá ser pedida quando estiver composta.</p>` : ''}
      ${c.descricao === null ? '' : html`<p class="nota">${c.descricao}</p>`}
      ${c.mercado === null ? '' : html`<p class="nota">Vendida por ${c.mercado}</p>`}
      ${c.composicao.length === 0 ? '' : html`<details><summary>O que vem na cesta</summary><ul>${c.composicao.map((x) => html`<li>${x.produto}: ${quantidade(x.quantidadeMilesimos, x.unidade)}</li>`)}</ul></details>`}
      ${
        indisponivel
          ? ''
          : html`<input type="hidden" name="produtos[${i}][cicloCestaId]" value="${c.cicloCestaId}">
      <div class="campo${erro === null ? '' : ' com-erro'}">
        <label for="cesta-${i}">Quantidade <span class="sr">de ${c.nome}</span></label>
        <input id="cesta-${i}" name="produtos[${i}][quantidade]" inputmode="numeric" autocomplete="off" value="${qtd(i, `c${c.cicloCestaId}`)}" data-quantidade data-inteiro ${ariaDoErro(erro)} ${ro ? html`disabled` : ''}>
        ${textoDoErro(erro)}
      </div>`
      }
    </li>`;
          })}</ul>`
    }
    ${
      p.extras.length === 0
        ? ''
        : html`<h2>Extras</h2><div class="tabela-rolavel" role="region" aria-label="Extras" tabindex="0"><table class="tabela-cartoes">
      <thead><tr><th scope="col">Produto</th><th scope="col">Preço</th><th scope="col">Disponível</th><th scope="col">Quantidade</th></tr></thead>
      <tbody>${p.extras.map((e, j) => {
        const i = nCestas + j;
        const erro = erroDoCampo(falha.detalhes, `produtos.${i}.quantidade`);
        return html`<tr data-linha data-preco="${precoParaScript(e.valorCentavos)}"><th scope="row"><label for="extra-${j}">${e.nome}</label>${e.mercado === null ? '' : html`<br><span class="nota">${e.mercado}</span>`}</th>
          <td data-rotulo="Preço">${reais(e.valorCentavos)}/${e.unidade}</td><td data-rotulo="Disponível">${quantidade(e.disponivelMilesimos, e.unidade)}</td>
          <td data-rotulo="Quantidade"><input type="hidden" name="produtos[${i}][cicloProdutoId]" value="${e.cicloProdutoId}">
          <input id="extra-${j}" name="produtos[${i}][quantidade]" inputmode="decimal" autocomplete="off" value="${qtd(i, `e${e.cicloProdutoId}`)}" data-quantidade data-escritas="${escritasDaUnidade(e.unidade).join(' ')}" ${ariaDoErro(erro)} ${ro ? html`disabled` : ''}>
          ${textoDoErro(erro)}</td></tr>`;
      })}</tbody></table></div>`
    }
    <div class="campo${erroPonto === null ? '' : ' com-erro'}">
      <label for="ponto">Onde vai retirar</label>
      <select id="ponto" name="pontoEntregaId" required ${ariaDoErro(erroPonto)} ${ro ? html`disabled` : ''}>
        <option value="">Escolha um ponto de entrega</option>
        ${p.pontosEntrega.map((pe) => html`<option value="${pe.id}" ${String(pe.id) === ponto ? html`selected` : ''}>${pe.nome}${pe.cidade === null ? '' : ` (${pe.cidade})`}</option>`)}
      </select>
      ${textoDoErro(erroPonto)}
      ${quandoRetirar(p.pontosEntrega)}
    </div>
    <dl class="totais">
      <dt>Total</dt><dd><output data-total>${reais(p.pedido?.totalCentavos ?? 0)}</output></dd>
      <dt>Taxa administrativa</dt><dd><output data-taxa>${reais(p.pedido?.taxaCentavos ?? 0)}</output></dd>
      <dt>A pagar</dt><dd><output data-total-com-taxa>${reais(p.pedido?.totalComTaxaCentavos ?? 0)}</output></dd>
    </dl>
    ${ro ? '' : html`${notaDaConfirmacao(p.pedido)}<button type="submit" class="botao" aria-describedby="nota-da-confirmacao">Salvar pedido</button>`}
  </form>
  ${SCRIPT_FORMULARIOS}`;
}

/** What saving does to the confirmation (docs/dominio.md), said beside the button before the person saves. */
function notaDaConfirmacao(pedido: Pedido | null): Html {
  const texto =
    pedido === null || !pedido.finalizado
      ? 'Salvar não confirma: depois de salvar, confira os itens e confirme o pedido.'
      : pedido.produtos.some((l) => l.assinaturaId !== null)
        ? 'Este pedido tem a cesta da sua assinatura e continua confirmado: o que você mudar entra nele ao salvar.'
        : 'Este pedido já está confirmado. Se você mudar algo e salvar, ele precisa ser confirmado de novo para entrar na entrega e na cobrança.';
  return html`<p class="nota" id="nota-da-confirmacao">${texto}</p>`;
}

/**
 * Where and when each point of the cycle hands out, under the choice (a phone's select shows only
 * the start of a long option): only when the cycle sets days or hours.
 */
function quandoRetirar(
  pontos: ReadonlyArray<HorarioDeRetirada & { nome: string; endereco: string | null }>,
): Html | '' {
  if (pontos.every((pe) => horarioDeRetiradaTexto(pe) === '')) return '';
  return html`<ul class="pontos-do-ciclo" id="quando-retirar">${pontos.map((pe) => html`<li><strong>${pe.nome}</strong>${comHorario(pe)}${pe.endereco === null ? '' : html`<br><span class="nota">${pe.endereco}</span>`}</li>`)}</ul>`;
}

/** " — sábado, 28/11/2026, das 08:00 às 12:00" after a point's name, when the cycle sets when. */
function comHorario(h: HorarioDeRetirada): string {
  const t = horarioDeRetiradaTexto(h);
  return t === '' ? '' : ` — ${t}`;
}

export function paginaConfirmacao(
  pedido: Pedido,
  csrf: string | null,
  podeConfirmar: boolean,
  prazo: { readonly dataPedidoFim: string; readonly fase: Fase },
  pagamento: Html | null = null,
): Html {
  const encerrado = janelaEncerrada(prazo.fase);
  const confirmavel = podeConfirmar && !pedido.finalizado;
  // The state, and the button when there is one, come first: on a phone the items can be screens long.
  return html`<p>Pedido de <strong>${pedido.usuario.nome}</strong> · retirada em <strong>${pedido.pontoEntrega.nome}</strong>${comHorario(pedido.pontoEntrega)}</p>
  ${
    pedido.finalizado
      ? html`<p class="aviso" role="status">Pedido confirmado em ${pedido.dataConfirmacao === null ? '' : dataHoraBr(pedido.dataConfirmacao)}.</p>`
      : confirmavel
        ? html`${retornoDoFormulario('form-confirmacao')}
        <form method="post" action="/pedidoconsumidoresconfirmacao" id="form-confirmacao" class="formulario" data-envio="recarregar">${campoCsrf(csrf)}
        <input type="hidden" name="pedidoId" value="${pedido.pedidoId}">
        <p class="alerta-suave" role="status"><strong>Falta confirmar.</strong> Sem confirmação, o pedido não entra na entrega nem na cobrança. ${prazoDeConfirmacao(prazo.dataPedidoFim, encerrado)}</p>
        <p>Confira os itens abaixo e confirme. Enquanto os pedidos estiverem abertos, você ainda pode mudar; uma mudança pede nova confirmação.</p>
        <button type="submit" class="botao">Confirmar pedido</button></form>`
        : html`<p class="nota">Este pedido ainda não foi confirmado. ${prazoDeConfirmacao(prazo.dataPedidoFim, encerrado)}</p>`
  }
  ${tabelaDoPedido(pedido)}
  ${pagamento ?? ''}
  <p><a href="/pedidoconsumidores/${pedido.cicloid}?usuarioid=${pedido.usuario.id}">Voltar ao pedido</a></p>
  ${confirmavel ? SCRIPT_FORMULARIOS : ''}`;
}

/** A fee in hundredths of a percent, as people write it: 1000 → "10%", 550 → "5,5%". */
function percentual(centesimos: number): string {
  const fracao = String(centesimos % 100)
    .padStart(2, '0')
    .replace(/0+$/, '');
  return `${Math.trunc(centesimos / 100)}${fracao === '' ? '' : `,${fracao}`}%`;
}

/** The fee rows: one per market the order buys in (DOMAIN.md, Fees), or the community's one. */
function linhasDaTaxa(pedido: Pedido): Html {
  const comMercado = pedido.partes.some((x) => x.mercadoId !== null);
  if (!comMercado)
    return html`<tr><th scope="row" colspan="3">Taxa administrativa</th><td class="num">${reais(pedido.taxaCentavos)}</td></tr>`;
  return html`${pedido.partes.map(
    (x) =>
      html`<tr><th scope="row" colspan="3">${
        x.mercadoId === null
          ? 'Taxa administrativa (itens fora dos mercados)'
          : `Taxa de ${x.mercado ?? ''} (${percentual(x.taxaCentesimos ?? 0)} de ${reais(x.subtotalCentavos)})`
      }</th><td class="num">${reais(x.taxaCentavos)}</td></tr>`,
  )}`;
}

export function tabelaDoPedido(pedido: Pedido): Html {
  // On a phone each item is a card, its cells labelled, and the totals stack below (tabela-cartoes).
  return html`<div class="tabela-rolavel" role="region" aria-label="Itens do pedido" tabindex="0"><table class="tabela-cartoes itens-do-pedido">
    <thead><tr><th scope="col">Item</th><th scope="col" class="num">Quantidade</th><th scope="col" class="num">Preço</th><th scope="col" class="num">Subtotal</th></tr></thead>
    <tbody>${pedido.produtos.map(
      (
        l,
      ) => html`<tr><th scope="row">${l.nome}${l.mercado === null ? '' : html`<br><span class="nota">${l.mercado}</span>`}</th><td class="num" data-rotulo="Quantidade">${quantidade(l.quantidadeMilesimos, l.unidade)}</td>
      <td class="num" data-rotulo="Preço">${reais(l.valorCentavos)}${l.cicloCestaId === null ? `/${l.unidade}` : ''}</td><td class="num" data-rotulo="Subtotal">${reais(l.subtotalCentavos)}</td></tr>`,
    )}</tbody>
    <tfoot><tr><th scope="row" colspan="3">Total</th><td class="num">${reais(pedido.totalCentavos)}</td></tr>
      ${linhasDaTaxa(pedido)}
      <tr><th scope="row" colspan="3">A pagar</th><td class="num"><strong>${reais(pedido.totalComTaxaCentavos)}</strong></td></tr></tfoot>
  </table></div>`;
}

export function listaDePedidos(pedidos: readonly Pedido[]): Html {
  if (pedidos.length === 0) return html`<p>Nenhum pedido neste ciclo.</p>`;
  // On a phone each order is a card (tabela-cartoes): the consumer its title, every cell labelled.
  return html`<div class="tabela-rolavel" role="region" aria-label="Pedidos do ciclo" tabindex="0"><table class="tabela-cartoes">
    <thead><tr><th scope="col">Consumidor</th><th scope="col">Ponto de entrega</th><th scope="col">Itens</th><th scope="col">Situação</th><th scope="col">A pagar</th></tr></thead>
    <tbody>${pedidos.map(
      (
        p,
      ) => html`<tr><th scope="row"><a href="/pedidoconsumidoresconfirmacao/${p.pedidoId}">${p.usuario.nome}</a></th><td data-rotulo="Ponto de entrega">${p.pontoEntrega.nome}</td>
      <td data-rotulo="Itens">${p.produtos.map((l) => `${l.tipo === 'cesta' ? `${numeroDeQuantidade(l.quantidadeMilesimos)} ×` : quantidade(l.quantidadeMilesimos, l.unidade)} ${l.nome}`).join(', ')}</td><td data-rotulo="Situação">${p.finalizado ? 'Confirmado' : 'Não confirmado'}</td><td data-rotulo="A pagar">${reais(p.totalComTaxaCentavos)}</td></tr>`,
    )}</tbody>
    <tfoot>${totalDosPedidos(
      'Confirmados (entram na entrega e na cobrança)',
      pedidos.filter((p) => p.finalizado),
    )}
      ${totalDosPedidos(
        'Não confirmados',
        pedidos.filter((p) => !p.finalizado),
      )}
      ${totalDosPedidos('Todos', pedidos)}</tfoot>
  </table></div>`;
}

function totalDosPedidos(rotulo: string, pedidos: readonly Pedido[]): Html {
  return html`<tr><th scope="row" colspan="4">${rotulo}: ${pedidos.length} ${pedidos.length === 1 ? 'pedido' : 'pedidos'}</th><td>${reais(pedidos.reduce((s, p) => s + p.totalComTaxaCentavos, 0))}</td></tr>`;
}

export function taxaParaPagina(t: Taxa): { percentual: number; fixa: number } {
  return { percentual: t.percentualCentesimos / 100, fixa: t.fixaCentavos / 100 };
}
