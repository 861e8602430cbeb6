import type { Fase, Janela } from '../../domain/ciclos/calendario.ts';
import { escritasDaUnidade } from '../../domain/catalogo.ts';
import type { Oferta, OfertaDaLista, ProdutoParaOfertar } from '../../domain/ofertas.ts';
import { html, type Html } from '../../http/html.ts';
import { campoCsrf } from './layout.ts';
import { valorDaQuantidade } from '../../decimal.ts';
import {
  SCRIPT_FORMULARIOS,
  ariaDoErro,
  cabecalhoDoCiclo,
  erroDoCampo,
  mensagemDeErro,
  paraCampo,
  retornoDoFormulario,
  textoDoErro,
} from './fluxo.ts';
import { quantidade as quantidadeDe, reais } from '../../formatos.ts';

export interface PaginaOferta {
  readonly ciclo: {
    id: number;
    nome: string;
    fase: Fase;
    abertas: readonly Janela[];
    dataOfertaInicio: string;
    dataOfertaFim: string;
  };
  readonly oferta: Oferta;
  readonly produtosDisponiveis: readonly ProdutoParaOfertar[];
  readonly acoes: { readonly editar: boolean };
  readonly fornecedor: { id: number; nome: string };
}

function texto(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/**
 * The supplier's offer: one row per active product (offered recently first), quantity and unit
 * price, with a running total. Works as a plain form; /static/formularios.js adds the live total.
 */
export function paginaOferta(
  p: PaginaOferta,
  csrf: string | null,
  falha: {
    erro: string | null;
    detalhes: Readonly<Record<string, unknown>>;
    valores: ReadonlyArray<Readonly<Record<string, unknown>>> | null;
  },
): Html {
  const atuais = new Map(p.oferta.produtos.map((l) => [l.produtoid, l]));
  const ro = !p.acoes.editar;
  const noCampo = (k: string) =>
    /^produtos\.\d+\.(quantidade|valor)$/.test(k) && Number(k.split('.')[1]) < p.produtosDisponiveis.length;
  return html`${cabecalhoDoCiclo(p.ciclo)}
  <p>Fornecedor: <strong>${p.fornecedor.nome}</strong> ·
    ${p.oferta.finalizada ? html`<span class="estado finalizada" data-estado>Oferta finalizada</span>` : html`<span class="estado rascunho" data-estado>${p.oferta.id === null ? 'Nenhuma oferta ainda' : 'Rascunho (ainda não finalizada)'}</span>`}</p>
  ${ro ? html`<p class="nota">Fora do período de ofertas: só é possível consultar.</p>` : ''}
  ${mensagemDeErro(falha.erro, falha.detalhes, noCampo)}
  ${retornoDoFormulario('form-oferta')}
  <form method="post" action="/oferta" id="form-oferta" class="formulario largo" data-soma data-envio="oferta">
    ${campoCsrf(csrf)}
    <input type="hidden" name="cicloid" value="${p.ciclo.id}">
    <input type="hidden" name="usuarioid" value="${p.fornecedor.id}">
    <div class="tabela-rolavel" role="region" aria-label="Produtos da oferta" tabindex="0"><table class="tabela-oferta tabela-cartoes">
      <caption class="sr">Produtos da oferta: quantidade e preço de cada um</caption>
      <thead><tr><th scope="col">Produto</th><th scope="col">Sugestão</th><th scope="col">Quantidade</th><th scope="col">Preço por unidade (R$)</th><th scope="col">Subtotal</th></tr></thead>
      <tbody>${p.produtosDisponiveis.map((prod, i) => {
        const atual = atuais.get(prod.produtoid);
        const enviado = falha.valores?.[i];
        const quantidade =
          enviado === undefined
            ? atual === undefined
              ? ''
              : paraCampo(atual.quantidadeMilesimos, 'quantidade')
            : texto(enviado.quantidade);
        const valor =
          enviado === undefined
            ? paraCampo(atual === undefined ? prod.valorReferenciaCentavos : atual.valorCentavos, 'dinheiro')
            : texto(enviado.valor);
        const erroQ = erroDoCampo(falha.detalhes, `produtos.${i}.quantidade`);
        const erroV = erroDoCampo(falha.detalhes, `produtos.${i}.valor`);
        return html`<tr data-linha>
          <th scope="row">${prod.nome} <small>(${prod.unidade})</small>${atual !== undefined && atual.alocadoMilesimos > 0 ? html`<br><small>${quantidadeDe(atual.alocadoMilesimos, prod.unidade)} já nas cestas</small>` : ''}</th>
          <td data-rotulo="Sugestão">${reais(prod.valorReferenciaCentavos)}</td>
          <td data-rotulo="Quantidade (${prod.unidade})"><input type="hidden" name="produtos[${i}][produtoid]" value="${prod.produtoid}">
            <label for="q-${i}" class="sr">Quantidade de ${prod.nome} em ${prod.unidade}</label>
            <input id="q-${i}" name="produtos[${i}][quantidade]" value="${quantidade}" inputmode="decimal" autocomplete="off" data-quantidade data-escritas="${escritasDaUnidade(prod.unidade).join(' ')}" ${ariaDoErro(erroQ)} ${ro ? html`disabled` : ''}>
            ${textoDoErro(erroQ)}</td>
          <td data-rotulo="Preço (R$)"><label for="v-${i}" class="sr">Preço de ${prod.nome} por ${prod.unidade}, em reais</label>
            <input id="v-${i}" name="produtos[${i}][valor]" value="${valor}" inputmode="decimal" autocomplete="off" data-preco ${ariaDoErro(erroV)} ${ro ? html`disabled` : ''}>
            ${textoDoErro(erroV)}</td>
          <td data-rotulo="Subtotal" data-subtotal>${atual === undefined ? '' : reais(valorDaQuantidade(atual.valorCentavos, atual.quantidadeMilesimos))}</td>
        </tr>`;
      })}</tbody>
      <tfoot><tr><th scope="row" colspan="4">Total da oferta</th><td><output data-total>${reais(p.oferta.totalCentavos)}</output></td></tr></tfoot>
    </table></div>
    ${
      ro
        ? ''
        : html`<p class="nota">Deixe a quantidade em branco nos produtos que não vai ofertar. Decimais com vírgula ou ponto (ex.: 2,5). Só ofertas finalizadas entram nas cestas.</p>
    <div class="botoes">
      <button type="submit" class="botao secundario" formaction="/oferta">Salvar rascunho</button>
      <button type="submit" class="botao" formaction="/ofertasave">Finalizar oferta</button>
    </div>`
    }
  </form>
  ${SCRIPT_FORMULARIOS}`;
}

export function listaDeOfertas(ofertas: readonly OfertaDaLista[]): Html {
  if (ofertas.length === 0) return html`<p>Nenhuma oferta.</p>`;
  return html`<div class="tabela-rolavel" role="region" aria-label="Ofertas" tabindex="0"><table>
    <thead><tr><th scope="col">Ciclo</th><th scope="col">Fornecedor</th><th scope="col">Situação</th><th scope="col">Itens</th><th scope="col">Total</th></tr></thead>
    <tbody>${ofertas.map(
      (o) => html`<tr>
      <td><a href="/oferta/${o.ciclo.id}?usuarioid=${o.fornecedor.id}">${o.ciclo.nome}</a></td>
      <td>${o.fornecedor.nome}</td><td>${o.finalizada ? 'Finalizada' : 'Rascunho'}</td><td>${o.itens}</td><td>${reais(o.totalCentavos)}</td>
    </tr>`,
    )}</tbody>
  </table></div>`;
}
