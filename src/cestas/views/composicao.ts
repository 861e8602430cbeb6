import { converter, type PaginaComposicao } from '../../domain/composicao.ts';
import { html, type Html } from '../../http/html.ts';
import { campoCsrf } from './layout.ts';
import { quantidadeJson } from '../apresentadores/numeros.ts';
import {
  SCRIPT_FORMULARIOS,
  ariaDoErro,
  erroDoCampo,
  mensagemDeErro,
  paraCampo,
  precoParaScript,
  retornoDoFormulario,
  textoDoErro,
} from './fluxo.ts';
import { numeroDeQuantidade, pluralDaUnidade, quantidade, reais, unidadeDaQuantidade } from '../../formatos.ts';

/** Units offered for a product's unit, with the factor the page script uses for the live cost. */
function unidadesPara(unidade: string): Array<{ nome: string; fator: number }> {
  const candidatas = ['kg', 'g', 'litro', 'ml', 'dúzia', 'unidade', 'maço'];
  // NOTE: probed with 12 whole units, so that a dozen's unit (1/12) converts exactly too.
  const sonda = 12_000;
  return candidatas.flatMap((u) => {
    const r = converter(sonda, u, unidade);
    return r.ok ? [{ nome: u, fator: r.valor / sonda }] : [];
  });
}

/** A live quantity's unit word: formularios.js puts it in the singular or the plural as the number beside it changes. */
function palavraViva(milesimos: number, unidade: string): Html {
  return html`<span data-singular="${unidade}" data-plural="${pluralDaUnidade(unidade)}">${unidadeDaQuantidade(milesimos, unidade)}</span>`;
}

function texto(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/**
 * The composition of one basket type: every finalised offered line with offered / allocated /
 * available, the quantity per basket, the live cost of one basket against its reference price,
 * and each supplier's accumulated value in the cycle.
 */
export function paginaComposicao(
  p: PaginaComposicao,
  csrf: string | null,
  podeEditar: boolean,
  falha: {
    erro: string | null;
    detalhes: Readonly<Record<string, unknown>>;
    valores: Readonly<Record<string, unknown>> | null;
  },
): Html {
  const noAtual = new Map(p.composicao.produtos.map((x) => [x.ofertaProdutoId, x]));
  const enviados = falha.valores?.produtos;
  const linhasEnviadas = Array.isArray(enviados)
    ? enviados
    : enviados !== null && typeof enviados === 'object'
      ? Object.values(enviados)
      : null;
  const ro = !podeEditar;
  const qtdCestas =
    falha.valores === null
      ? String(p.composicao.quantidadeCestas || p.cicloCesta.quantidadeCestas)
      : texto(falha.valores.quantidadeCestas);
  const noCampo = (k: string) =>
    k === 'quantidadeCestas' ||
    (/^produtos\.\d+\.(quantidadePorCesta|unidade|ofertaProdutoId)$/.test(k) &&
      Number(k.split('.')[1]) < p.ofertas.length);
  const erroCestas = erroDoCampo(falha.detalhes, 'quantidadeCestas');
  return html`<p class="ciclo-da-pagina">Ciclo <a href="/ciclo/${p.cicloCesta.cicloid}">${p.cicloCesta.cicloNome}</a></p>
  <p>Até <strong>${p.cicloCesta.quantidadeCestas}</strong> cestas neste ciclo; <strong>${p.cicloCesta.cestasPedidas}</strong> já pedidas.</p>
  ${mensagemDeErro(falha.erro, falha.detalhes, noCampo)}
  ${retornoDoFormulario('form-composicao')}
  <form method="post" action="/composicao/${p.cicloCesta.id}" id="form-composicao" class="formulario largo" data-composicao data-envio="composicao">
    ${campoCsrf(csrf)}
    <input type="hidden" name="cicloCestaId" value="${p.cicloCesta.id}">
    <div class="campo${erroCestas === null ? '' : ' com-erro'}">
      <label for="quantidadeCestas">Quantas cestas montar</label>
      <input id="quantidadeCestas" name="quantidadeCestas" inputmode="numeric" autocomplete="off" value="${qtdCestas}" data-cestas ${ariaDoErro(erroCestas)} ${ro ? html`disabled` : ''}>
      ${textoDoErro(erroCestas)}
    </div>
    ${
      p.ofertas.length === 0
        ? html`<p>Nenhuma oferta finalizada neste ciclo ainda.</p>`
        : html`<div class="tabela-rolavel" role="region" aria-labelledby="t-ofertas" tabindex="0"><table class="tabela-cartoes">
      <caption id="t-ofertas">Ofertas finalizadas: quanto vai em cada cesta</caption>
      <thead><tr><th scope="col">Produto</th><th scope="col">Fornecedor</th><th scope="col">Preço</th><th scope="col">Ofertado</th><th scope="col">Nas cestas</th><th scope="col">Disponível</th><th scope="col">Por cesta</th><th scope="col">Unidade</th></tr></thead>
      <tbody>${p.ofertas.map((o, i) => {
        const atual = noAtual.get(o.ofertaProdutoId);
        const enviado = linhasEnviadas?.[i] as Record<string, unknown> | undefined;
        // In the unit the coordinator composed in (6 unidade of eggs, not 0,5 dúzia).
        const qpc =
          enviado === undefined
            ? atual === undefined
              ? ''
              : paraCampo(atual.quantidadeNaUnidadeEscolhida, 'quantidade')
            : texto(enviado.quantidadePorCesta);
        const unidadeEscolhida =
          enviado === undefined ? (atual?.unidadeEscolhida ?? o.unidade) : texto(enviado.unidade);
        // What this line has left besides its use in this very basket, for the live availability.
        const usoAqui = atual === undefined ? 0 : atual.quantidadePorCestaMilesimos * p.composicao.quantidadeCestas;
        const erroQ =
          erroDoCampo(falha.detalhes, `produtos.${i}.quantidadePorCesta`) ??
          erroDoCampo(falha.detalhes, `produtos.${i}.ofertaProdutoId`);
        const erroU = erroDoCampo(falha.detalhes, `produtos.${i}.unidade`);
        return html`<tr data-linha data-oferta-produto="${o.ofertaProdutoId}" data-preco="${precoParaScript(o.valorCentavos)}" data-livre="${quantidadeJson(o.disponivelMilesimos + usoAqui)}">
          <th scope="row">${o.produto}</th><td data-rotulo="Fornecedor">${o.fornecedor.nome}</td><td data-rotulo="Preço">${reais(o.valorCentavos)}/${o.unidade}</td>
          <td data-rotulo="Ofertado">${quantidade(o.ofertadaMilesimos, o.unidade)}</td><td data-rotulo="Nas cestas"><span data-alocada>${numeroDeQuantidade(o.alocadaMilesimos)}</span> ${palavraViva(o.alocadaMilesimos, o.unidade)}</td>
          <td data-rotulo="Disponível"><output data-disponivel>${numeroDeQuantidade(o.disponivelMilesimos)}</output> ${palavraViva(o.disponivelMilesimos, o.unidade)}</td>
          <td data-rotulo="Por cesta"><input type="hidden" name="produtos[${i}][ofertaProdutoId]" value="${o.ofertaProdutoId}">
            <label for="qpc-${i}" class="sr">Quantidade de ${o.produto} de ${o.fornecedor.nome} por cesta</label>
            <input id="qpc-${i}" name="produtos[${i}][quantidadePorCesta]" value="${qpc}" inputmode="decimal" autocomplete="off" data-quantidade ${ariaDoErro(erroQ)} ${ro ? html`disabled` : ''}>
            ${textoDoErro(erroQ)}</td>
          <td data-rotulo="Unidade"><label for="un-${i}" class="sr">Unidade de ${o.produto} de ${o.fornecedor.nome}</label>
            <select id="un-${i}" name="produtos[${i}][unidade]" data-unidade ${ariaDoErro(erroU)} ${ro ? html`disabled` : ''}>
            ${unidadesPara(o.unidade).map((u) => html`<option value="${u.nome}" data-fator="${u.fator}" ${u.nome === unidadeEscolhida ? html`selected` : ''}>${u.nome}</option>`)}
          </select>${textoDoErro(erroU)}</td>
        </tr>`;
      })}</tbody>
    </table></div>`
    }
    <p class="custo">Custo de uma cesta: <output data-total>${reais(p.custoPorCestaCentavos)}</output> · valor de referência ${reais(p.valorReferenciaCentavos)}
      <output data-diferenca data-referencia="${precoParaScript(p.valorReferenciaCentavos)}"></output></p>
    ${ro ? '' : html`<button type="submit" class="botao">Salvar composição</button>`}
  </form>
  <section aria-labelledby="t-fornecedores"><h2 id="t-fornecedores">Valor por fornecedor no ciclo</h2>
    <p class="nota">Somando todas as cestas já compostas, para dividir as compras com justiça.</p>
    <ul data-fornecedores>${p.fornecedores.map((f) => html`<li>${f.nome}: ${reais(f.valorAcumuladoCentavos)}</li>`)}</ul>
  </section>
  ${
    p.extras.length === 0
      ? ''
      : html`<section aria-labelledby="t-extras"><h2 id="t-extras">Extras publicados</h2>
    <ul>${p.extras.map((e) => html`<li>${e.produto}: ${quantidade(e.quantidadeMilesimos, e.unidade)}</li>`)}</ul></section>`
  }
  <p><a href="/ciclo/${p.cicloCesta.cicloid}">Voltar ao ciclo ${p.cicloCesta.cicloNome}</a></p>
  ${SCRIPT_FORMULARIOS}`;
}
