import type { TetoDaCesta } from '../../domain/mercados-do-ciclo/cesta.ts';
import type { MercadoDoCiclo } from '../../domain/mercados-do-ciclo/comum.ts';
import type { Lote } from '../../domain/mercados-do-ciclo/lote.ts';
import type { LiberacaoDoMercado } from '../../domain/mercados-do-ciclo/venda-direta.ts';
import type { LinhaOfertada } from '../../domain/alocacao.ts';
import { sobraDaLinha } from '../../domain/alocacao.ts';
import { TIPOS_DE_MERCADO, vendeDoTipo, type TipoMercado } from '../../domain/tipos-de-mercado.ts';
import { html, type Html } from '../../http/html.ts';
import { campoCsrf } from './layout.ts';
import { ariaDoErro, erroDoCampo, mensagemDeErro, paraCampo, textoDoErro } from './fluxo.ts';
import { quantidade, reais } from '../../formatos.ts';

type Detalhes = Readonly<Record<string, unknown>>;
interface Recusa {
  readonly erro: string | null;
  readonly detalhes: Detalhes;
}

/** A market that can serve the cycle, with what the form shows of it. */
export interface MercadoParaOCiclo {
  readonly id: number;
  readonly nome: string;
  readonly tipo: TipoMercado;
  readonly ativo: boolean;
  readonly valorMaximoCestaCentavos: number | null;
}

function valorDe(valores: Detalhes, chave: string): unknown {
  return valores[chave];
}

/**
 * /ciclo/:id/mercados: every active market (and those already in the cycle) as a row: whether the
 * cycle serves it, its order of service, its pickup points and, for a cesta market, its baskets.
 */
export function paginaMercadosDoCiclo(p: {
  ciclo: { id: number; nome: string };
  mercados: readonly MercadoParaOCiclo[];
  doCiclo: readonly MercadoDoCiclo[];
  pontos: ReadonlyArray<{ id: number; nome: string }>;
  cestas: ReadonlyArray<{ id: number; nome: string }>;
  tetos: readonly TetoDaCesta[];
  csrf: string | null;
  somenteLeitura: boolean;
  recusa: Recusa;
}): Html {
  const noCiclo = new Map(p.doCiclo.map((m) => [m.mercadoId, m]));
  const ordenados = [...p.mercados].sort(
    (a, b) =>
      (noCiclo.get(a.id)?.ordemAtendimento ?? 1000) - (noCiclo.get(b.id)?.ordemAtendimento ?? 1000) ||
      a.nome.localeCompare(b.nome, 'pt-BR'),
  );
  const erro = (i: number, k: string) => erroDoCampo(p.recusa.detalhes, `cicloMercados.${i}.${k}`);
  return html`${mensagemDeErro(p.recusa.erro, p.recusa.detalhes, (k) => k.startsWith('cicloMercados.'))}
  <p>Um ciclo sem mercados é o ciclo de sempre: a comunidade inteira pede nos pontos do ciclo. Com mercados, cada um tem a sua ordem de atendimento e os seus pontos de retirada (sem pontos marcados, usa os do ciclo).</p>
  ${p.mercados.length === 0 ? html`<p class="nota">Nenhum mercado ativo. Os mercados são criados na face Mercados.</p>` : ''}
  <form method="post" action="/ciclo/${p.ciclo.id}/mercados" class="formulario">
    ${campoCsrf(p.csrf)}
    ${ordenados.map((m, i) => {
      const atual = noCiclo.get(m.id);
      const tetos = p.tetos.filter((t) => t.mercadoId === m.id);
      return html`<fieldset class="mercado-do-ciclo">
        <legend>${m.nome} <span class="nota">· ${TIPOS_DE_MERCADO[m.tipo].nome}${m.ativo ? '' : ' · desativado'}</span></legend>
        <input type="hidden" name="cicloMercados[${i}][mercadoId]" value="${m.id}">
        <input type="hidden" name="cicloMercados[${i}][incluir]" value="false">
        <div class="marcar"><input type="checkbox" id="mercado-${m.id}-incluir" name="cicloMercados[${i}][incluir]" value="on" ${atual === undefined ? '' : html`checked`} ${p.somenteLeitura ? html`disabled` : ''}>
          <label for="mercado-${m.id}-incluir">Este ciclo atende ${m.nome}</label></div>
        <div class="campo"><label for="mercado-${m.id}-ordem">Ordem de atendimento</label>
          <input id="mercado-${m.id}-ordem" name="cicloMercados[${i}][ordemAtendimento]" inputmode="numeric" size="4" value="${String(atual?.ordemAtendimento ?? i + 1)}" ${ariaDoErro(erro(i, 'ordemAtendimento'))} ${p.somenteLeitura ? html`readonly` : ''}>
          ${textoDoErro(erro(i, 'ordemAtendimento'))}${textoDoErro(erro(i, 'mercadoId'))}</div>
        <fieldset class="opcoes"><legend>Pontos de retirada deste mercado</legend>
          ${p.pontos.map(
            (
              pt,
            ) => html`<div class="marcar"><input type="checkbox" id="mercado-${m.id}-ponto-${pt.id}" name="cicloMercados[${i}][pontoEntregaIds]" value="${pt.id}" ${atual?.pontos.some((x) => x.id === pt.id) === true ? html`checked` : ''} ${p.somenteLeitura ? html`disabled` : ''}>
            <label for="mercado-${m.id}-ponto-${pt.id}">${pt.nome}</label></div>`,
          )}
          ${textoDoErro(erro(i, 'pontoEntregaIds'))}
        </fieldset>
        ${
          vendeDoTipo(m.tipo, 'cestas')
            ? html`<fieldset class="opcoes"><legend>Cestas do ciclo vendidas aqui${m.valorMaximoCestaCentavos === null ? '' : ` (até ${reais(m.valorMaximoCestaCentavos)} de custo por cesta)`}</legend>
          ${
            p.cestas.length === 0
              ? html`<p class="nota">O ciclo ainda não tem cestas.</p>`
              : p.cestas.map((c) => {
                  const teto = tetos.find((t) => t.cicloCestaId === c.id);
                  return html`<div class="marcar"><input type="checkbox" id="mercado-${m.id}-cesta-${c.id}" name="cicloMercados[${i}][cicloCestaIds]" value="${c.id}" ${atual?.cicloCestaIds.includes(c.id) === true ? html`checked` : ''} ${p.somenteLeitura ? html`disabled` : ''}>
              <label for="mercado-${m.id}-cesta-${c.id}">${c.nome}${teto === undefined ? '' : html` <span class="${teto.custoCentavos > teto.valorMaximoCestaCentavos ? 'erro' : 'nota'}">· custo ${reais(teto.custoCentavos)} de ${reais(teto.valorMaximoCestaCentavos)}</span>`}</label></div>`;
                })
          }
          ${textoDoErro(erro(i, 'cicloCestaIds'))}
        </fieldset>`
            : ''
        }
        ${atual !== undefined && vendeDoTipo(m.tipo, 'itens') ? html`<p><a class="botao secundario" href="/ciclo/${p.ciclo.id}/mercado/${m.id}/liberar">Liberar itens para ${m.nome}</a></p>` : ''}
        ${atual !== undefined && vendeDoTipo(m.tipo, 'lotes') ? html`<p><a class="botao secundario" href="/ciclo/${p.ciclo.id}/lotes">Lotes de ${m.nome}</a></p>` : ''}
      </fieldset>`;
    })}
    ${p.somenteLeitura || p.mercados.length === 0 ? '' : html`<button type="submit" class="botao">Salvar mercados do ciclo</button>`}
  </form>
  <p><a href="/ciclo/${p.ciclo.id}">Voltar ao ciclo</a></p>`;
}

/**
 * Why a product without the market's price cannot be released, beside its locked field: where that
 * price is set (the Mercados face's price editor; without that face running, said in words).
 */
function semPreco(id: string, mercado: string, editorDePrecos: string | null): Html {
  return html`<p class="nota sem-preco" id="${id}">Sem preço ativo em ${mercado}: ${
    editorDePrecos === null
      ? 'defina o preço no editor de preços do mercado, na face Mercados, para liberar.'
      : html`defina o preço no <a href="${editorDePrecos}">editor de preços de ${mercado}</a> para liberar.`
  }</p>`;
}

/**
 * /ciclo/:id/mercado/:mercadoId/liberar: the surplus of each product, the market's price, and what
 * to release. `editorDePrecos`: the address of the market's price editor (Mercados), when known.
 */
export function paginaLiberacao(p: {
  ciclo: { id: number; nome: string };
  liberacao: LiberacaoDoMercado;
  csrf: string | null;
  somenteLeitura: boolean;
  recusa: Recusa;
  valores: Detalhes;
  editorDePrecos: string | null;
}): Html {
  const { liberacao: l } = p;
  return html`${mensagemDeErro(p.recusa.erro, p.recusa.detalhes, (k) => k.startsWith('itens.'))}
  <p>O que sobra das ofertas finalizadas, depois das cestas, dos lotes e dos outros extras, pode ser vendido em ${l.mercado.nome} pelo preço do mercado. Deixe em branco o que não vai liberar.</p>
  ${
    l.produtos.length === 0
      ? html`<p class="nota">Nenhuma oferta finalizada neste ciclo ainda.</p>`
      : html`<form method="post" action="/ciclo/${p.ciclo.id}/mercado/${l.mercado.mercadoId}/liberar" class="formulario">
    ${campoCsrf(p.csrf)}
    <div class="tabela-rolavel" role="region" aria-label="Produtos" tabindex="0"><table class="tabela-cartoes">
      <thead><tr><th scope="col">Produto</th><th scope="col">Preço em ${l.mercado.nome}</th><th scope="col">Sobra para liberar</th><th scope="col">Pedido</th><th scope="col">Liberar</th></tr></thead>
      <tbody>${l.produtos.map((prod, i) => {
        const item = l.itens.find((x) => x.produtoId === prod.produtoId);
        const e =
          erroDoCampo(p.recusa.detalhes, `itens.${i}.quantidade`) ??
          erroDoCampo(p.recusa.detalhes, `itens.${i}.produtoId`);
        const digitado = valorDe(p.valores, `itens.${i}.quantidade`);
        const valor =
          typeof digitado === 'string'
            ? digitado
            : item === undefined
              ? ''
              : paraCampo(item.quantidadeMilesimos, 'quantidade');
        // Without the market's price a product cannot be released: its field is locked (disabled)
        // and the reason sits beside it; a blank quantity goes in its place (a row not released).
        const travado = !p.somenteLeitura && prod.precoCentavos === null;
        const motivo = `sem-preco-${prod.produtoId}`;
        return html`<tr>
          <th scope="row">${prod.nome}<input type="hidden" name="itens[${i}][produtoId]" value="${prod.produtoId}"></th>
          <td data-rotulo="Preço">${prod.precoCentavos === null ? html`<span class="erro">sem preço ativo</span>` : html`${reais(prod.precoCentavos)} / ${prod.unidade}`}</td>
          <td data-rotulo="Sobra">${quantidade(prod.sobraMilesimos, prod.unidade)}</td>
          <td data-rotulo="Pedido">${quantidade(item?.pedidoMilesimos ?? 0, prod.unidade)}</td>
          <td data-rotulo="Liberar"><label class="sr" for="liberar-${prod.produtoId}">Liberar de ${prod.nome} (${prod.unidade})</label>
            ${travado ? html`<input type="hidden" name="itens[${i}][quantidade]" value="">` : ''}<input id="liberar-${prod.produtoId}" ${travado ? '' : html`name="itens[${i}][quantidade]"`} inputmode="decimal" size="7" value="${valor}" ${travado ? html`aria-describedby="${motivo}"` : ariaDoErro(e)} ${p.somenteLeitura || travado ? html`disabled` : ''}> ${prod.unidade}${textoDoErro(e)}
            ${travado ? semPreco(motivo, l.mercado.nome, p.editorDePrecos) : ''}</td>
        </tr>`;
      })}</tbody></table></div>
    ${p.somenteLeitura ? html`<p class="nota">Você pode consultar, mas não alterar.</p>` : html`<button type="submit" class="botao">Salvar o que está liberado</button>`}
  </form>`
  }
  <p><a href="/ciclo/${p.ciclo.id}/mercados">Voltar aos mercados do ciclo</a></p>`;
}

/** /ciclo/:id/lotes: the cycle's lots, each against its target, and the form for a new one (or the one being edited). */
export function paginaLotes(p: {
  ciclo: { id: number; nome: string };
  lotes: readonly Lote[];
  mercados: readonly MercadoDoCiclo[];
  pontos: ReadonlyArray<{ id: number; nome: string }>;
  linhas: readonly LinhaOfertada[];
  editando: Lote | null;
  csrf: string | null;
  somenteLeitura: boolean;
  recusa: Recusa;
  valores: Detalhes;
}): Html {
  const deLote = p.mercados.filter((m) => vendeDoTipo(m.tipo, 'lotes'));
  const e = p.editando;
  const v = (k: string, padrao: string) => {
    const x = valorDe(p.valores, k);
    return typeof x === 'string' ? x : padrao;
  };
  const erro = (k: string) => erroDoCampo(p.recusa.detalhes, k);
  const acao = e === null ? `/ciclo/${p.ciclo.id}/lotes` : `/ciclo/${p.ciclo.id}/lotes/${e.id}`;
  return html`${mensagemDeErro(p.recusa.erro, p.recusa.detalhes, (k) => ['mercadoId', 'comprador', 'pontoEntregaId', 'valorAlvo'].includes(k) || k.startsWith('linhas.'))}
  ${
    p.lotes.length === 0
      ? html`<p>Nenhum lote neste ciclo ainda.</p>`
      : html`<ul class="cartoes">${p.lotes.map(
          (l) => html`<li class="cartao">
    <h2>${l.comprador} <span class="nota">· ${l.mercado}</span></h2>
    <p>Entrega em ${l.ponto}. Valor <strong>${reais(l.valorCentavos)}</strong> de ${reais(l.valorAlvoCentavos)} do alvo
      ${l.valorCentavos === l.valorAlvoCentavos ? '(no alvo)' : l.valorCentavos < l.valorAlvoCentavos ? `(faltam ${reais(l.valorAlvoCentavos - l.valorCentavos)})` : `(${reais(l.valorCentavos - l.valorAlvoCentavos)} acima)`}.</p>
    <ul>${l.linhas.map((x) => html`<li>${x.produto} de ${x.fornecedor}: ${quantidade(x.quantidadeMilesimos, x.unidade)} × ${reais(x.valorCentavos)} = ${reais(x.subtotalCentavos)}</li>`)}</ul>
    ${
      p.somenteLeitura
        ? ''
        : html`<p><a class="botao secundario" href="/ciclo/${p.ciclo.id}/lotes/${l.id}">Editar</a></p>
    <form method="post" action="/ciclo/${p.ciclo.id}/lotes/${l.id}/apagar" class="apagar">${campoCsrf(p.csrf)}<button type="submit" class="botao perigo">Apagar lote</button></form>`
    }
  </li>`,
        )}</ul>`
  }
  ${
    p.somenteLeitura
      ? ''
      : deLote.length === 0
        ? html`<p class="nota">O ciclo não atende nenhum mercado de lotes: <a href="/ciclo/${p.ciclo.id}/mercados">inclua um nos mercados do ciclo</a>.</p>`
        : html`<h2 id="t-lote">${e === null ? 'Novo lote' : `Editar o lote de ${e.comprador}`}</h2>
  <form method="post" action="${acao}" class="formulario" aria-labelledby="t-lote">
    ${campoCsrf(p.csrf)}
    <div class="campo"><label for="campo-mercadoId">Mercado</label>
      <select id="campo-mercadoId" name="mercadoId" ${ariaDoErro(erro('mercadoId'))}>${deLote.map((m) => html`<option value="${m.mercadoId}" ${v('mercadoId', String(e?.mercadoId ?? '')) === String(m.mercadoId) ? html`selected` : ''}>${m.nome}</option>`)}</select>${textoDoErro(erro('mercadoId'))}</div>
    <div class="campo"><label for="campo-comprador">Quem compra</label>
      <input id="campo-comprador" name="comprador" maxlength="200" required value="${v('comprador', e?.comprador ?? '')}" ${ariaDoErro(erro('comprador'))}>${textoDoErro(erro('comprador'))}</div>
    <div class="campo"><label for="campo-pontoEntregaId">Onde entrega</label>
      <select id="campo-pontoEntregaId" name="pontoEntregaId" ${ariaDoErro(erro('pontoEntregaId'))}>${p.pontos.map((pt) => html`<option value="${pt.id}" ${v('pontoEntregaId', String(e?.pontoEntregaId ?? '')) === String(pt.id) ? html`selected` : ''}>${pt.nome}</option>`)}</select>${textoDoErro(erro('pontoEntregaId'))}</div>
    <div class="campo"><label for="campo-valorAlvo">Valor-alvo (R$)</label>
      <input id="campo-valorAlvo" name="valorAlvo" inputmode="decimal" required value="${v('valorAlvo', e === null ? '' : paraCampo(e.valorAlvoCentavos, 'dinheiro'))}" ${ariaDoErro(erro('valorAlvo'))}>${textoDoErro(erro('valorAlvo'))}</div>
    ${textoDoErro(erro('linhas'))}
    <div class="tabela-rolavel" role="region" aria-label="Linhas das ofertas" tabindex="0"><table class="tabela-cartoes">
      <thead><tr><th scope="col">Produto</th><th scope="col">Fornecedor</th><th scope="col">Preço</th><th scope="col">Livre</th><th scope="col">No lote</th></tr></thead>
      <tbody>${p.linhas
        .filter((l) => l.finalizada)
        .map((l, i) => {
          const noLote = e?.linhas.find((x) => x.ofertaProdutoId === l.ofertaProdutoId)?.quantidadeMilesimos ?? 0;
          const ee = erro(`linhas.${i}.quantidade`) ?? erro(`linhas.${i}.ofertaProdutoId`);
          return html`<tr>
          <th scope="row">${l.produto}<input type="hidden" name="linhas[${i}][ofertaProdutoId]" value="${l.ofertaProdutoId}"></th>
          <td data-rotulo="Fornecedor">${l.fornecedor}</td>
          <td data-rotulo="Preço">${reais(l.valorCentavos)} / ${l.unidade}</td>
          <td data-rotulo="Livre">${quantidade(sobraDaLinha(l) + noLote, l.unidade)}</td>
          <td data-rotulo="No lote"><label class="sr" for="lote-${l.ofertaProdutoId}">${l.produto} de ${l.fornecedor} no lote (${l.unidade})</label>
            <input id="lote-${l.ofertaProdutoId}" name="linhas[${i}][quantidade]" inputmode="decimal" size="7" value="${v(`linhas.${i}.quantidade`, noLote === 0 ? '' : paraCampo(noLote, 'quantidade'))}" ${ariaDoErro(ee)}> ${l.unidade}${textoDoErro(ee)}</td>
        </tr>`;
        })}</tbody></table></div>
    <button type="submit" class="botao">${e === null ? 'Criar lote' : 'Salvar lote'}</button>
  </form>`
  }
  <p><a href="/ciclo/${p.ciclo.id}/mercados">Voltar aos mercados do ciclo</a></p>`;
}
