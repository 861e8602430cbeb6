import { NOMES_FASES, ROTULOS_DATAS, type Ciclo, type CicloDaLista } from '../../domain/ciclos.ts';
import type { Pagina } from '../../domain/registros.ts';
import { html, type Html } from '../../http/html.ts';
import { campoCsrf, resumoDeErros } from './layout.ts';
import { indiceRegistros } from './registros.ts';
import { dataBr } from '../apresentadores/datas.ts';

export interface OpcoesCiclo {
  readonly cestas: ReadonlyArray<{ id: number; nome: string; ativo: boolean }>;
  readonly produtos: ReadonlyArray<{ id: number; nome: string; unidade: string; ativo: boolean }>;
}

type Valores = Readonly<Record<string, unknown>>;

function texto(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** The rows of a child list as the form sent them (qs array or index map) or as loaded. */
function linhas(v: unknown): Valores[] {
  if (Array.isArray(v)) return v.filter((x): x is Valores => x !== null && typeof x === 'object');
  if (v !== null && typeof v === 'object') return Object.values(v).filter((x): x is Valores => x !== null && typeof x === 'object');
  return [];
}

function erroDe(erros: Valores, chave: string): Html | '' {
  const e = erros[chave];
  return typeof e === 'string' ? html`<p class="erro" id="erro-${chave}">${e}</p>` : '';
}

function selecao(nome: string, rotulo: string, atual: string, opcoes: ReadonlyArray<{ id: number; rotulo: string; ativo: boolean }>, desabilitado: boolean): Html {
  return html`<select name="${nome}" aria-label="${rotulo}" ${desabilitado ? html`disabled` : ''}>
    <option value="">—</option>
    ${opcoes.map((o) => html`<option value="${o.id}" ${String(o.id) === atual ? html`selected` : ''}>${o.rotulo}${o.ativo ? '' : ' (inativo)'}</option>`)}
  </select>`;
}

interface Coluna {
  readonly campo: string;
  readonly rotulo: string;
  /** `rotulo` names the control for assistive technology: the column and the row. */
  readonly controle: (nome: string, valor: string, desabilitado: boolean, rotulo: string) => Html;
}


function entrada(tipo: string, modo?: string) {
  return (nome: string, valor: string, desabilitado: boolean, rotulo: string) =>
    html`<input type="${tipo}" name="${nome}" value="${valor}" aria-label="${rotulo}" ${modo === undefined ? '' : html`inputmode="${modo}"`} ${desabilitado ? html`disabled` : ''}>`;
}

/**
 * One child list as a table. Without JavaScript: existing rows plus two blank ones, and a row is
 * removed by clearing it. With /static/ciclo.js: buttons add and remove rows.
 */
function tabelaFilha(lista: string, titulo: string, colunas: readonly Coluna[], valores: Valores, erros: Valores, somenteLeitura: boolean): Html {
  const existentes = linhas(valores[lista]);
  const total = existentes.length + (somenteLeitura ? 0 : 2);
  const linha = (i: number | '__i__', v: Valores) => html`<tr>
      <td hidden>${texto(v.id) === '' ? '' : html`<input type="hidden" name="${lista}[${i}][id]" value="${texto(v.id)}">`}</td>
      ${colunas.map((c) => html`<td data-rotulo="${c.rotulo}">${c.controle(`${lista}[${i}][${c.campo}]`, texto(v[c.campo]), somenteLeitura, `${c.rotulo}, ${typeof i === 'number' ? `linha ${i + 1}` : 'nova linha'}`)}${typeof i === 'number' ? erroDe(erros, `${lista}.${i}.${c.campo}`) : ''}</td>`)}
      ${somenteLeitura ? '' : html`<td><button type="button" class="link" data-remover hidden>Remover</button></td>`}
    </tr>`;
  return html`<fieldset class="lista-filha" data-lista="${lista}" data-proximo="${total}">
    <legend>${titulo}</legend>
    ${erroDe(erros, lista)}
    <div class="tabela-rolavel" role="region" aria-label="${titulo}" tabindex="0"><table>
      <thead><tr><th hidden>id</th>${colunas.map((c) => html`<th scope="col">${c.rotulo}</th>`)}${somenteLeitura ? '' : html`<th><span class="sr">Ações</span></th>`}</tr></thead>
      <tbody>${Array.from({ length: total }, (_, i) => linha(i, existentes[i] ?? {}))}</tbody>
    </table></div>
    ${somenteLeitura
      ? ''
      : html`<template>${linha('__i__', {})}</template>
    <p class="nota">Para tirar uma linha, apague os campos dela.</p>
    <button type="button" class="botao secundario" data-adicionar hidden>Adicionar linha</button>`}
  </fieldset>`;
}

export function formularioCiclo(f: {
  registro: Ciclo | null;
  opcoes: OpcoesCiclo;
  valores: Valores;
  erros: Valores;
  csrf: string | null;
  somenteLeitura: boolean;
  acao: string;
  apagar: string | null;
}): Html {
  const v = f.valores;
  const ro = f.somenteLeitura;
  const cestas = f.opcoes.cestas.map((c) => ({ id: c.id, rotulo: c.nome, ativo: c.ativo }));
  const produtos = f.opcoes.produtos.map((p) => ({ id: p.id, rotulo: `${p.nome} (${p.unidade})`, ativo: p.ativo }));
  const campoData = (nome: keyof typeof ROTULOS_DATAS) => html`<div class="campo${f.erros[nome] === undefined ? '' : ' com-erro'}">
      <label for="campo-${nome}">${ROTULOS_DATAS[nome].charAt(0).toUpperCase() + ROTULOS_DATAS[nome].slice(1)} <span aria-hidden="true">*</span></label>
      <input type="date" id="campo-${nome}" name="${nome}" value="${texto(v[nome])}" required ${ro ? html`disabled` : ''}>
      ${erroDe(f.erros, nome)}
    </div>`;
  return html`${resumoDeErros(f.erros)}
  ${f.registro === null ? '' : html`<p class="fase fase-${f.registro.fase}">${NOMES_FASES[f.registro.fase]}</p>
  <section id="composicao" aria-labelledby="t-trabalho" class="trabalho-do-ciclo">
    <h2 id="t-trabalho">Trabalho do ciclo</h2>
    <ul class="atalhos">
      ${f.registro.cicloCestas.map((c) => html`<li><a class="botao secundario" href="/composicao/${c.id}">Compor ${c.nome}</a></li>`)}
      <li><a class="botao secundario" href="/oferta-index?cicloid=${f.registro.id}">Ofertas</a></li>
      <li><a class="botao secundario" href="/pedidosconsumidorestodos/${f.registro.id}">Pedidos</a></li>
    </ul>
    ${ro
      ? ''
      : f.registro.fechadoEm === null
        ? html`<form method="post" action="/fecharciclo/${f.registro.id}" class="inline">${campoCsrf(f.csrf)}
          <button type="submit" class="botao">Fechar ciclo e lançar as movimentações</button></form>
          <p class="nota">Depois do fim dos pedidos: debita de cada consumidor o pedido confirmado e a taxa, e credita a cada fornecedor o que entregou.</p>`
        : html`<p class="nota">Ciclo fechado em ${f.registro.fechadoEm.slice(0, 10)}.</p>`}
  </section>`}
  <form method="post" action="${f.acao}" class="formulario largo" novalidate>
    ${campoCsrf(f.csrf)}
    <input type="hidden" name="_listas" value="cicloEntregas,cicloCestas,cicloProdutos">
    <div class="campo${f.erros.nome === undefined ? '' : ' com-erro'}">
      <label for="campo-nome">Nome <span aria-hidden="true">*</span></label>
      <input id="campo-nome" name="nome" value="${texto(v.nome)}" required ${ro ? html`disabled` : ''}>
      ${erroDe(f.erros, 'nome')}
    </div>
    <div class="grade-datas">
      ${campoData('dataOfertaInicio')}${campoData('dataOfertaFim')}
      ${campoData('dataPedidoInicio')}${campoData('dataPedidoFim')}
      ${campoData('dataRetiradaInicio')}${campoData('dataRetiradaFim')}
    </div>
    <div class="campo">
      <input type="hidden" name="ativo" value="false">
      <div class="marcar"><input type="checkbox" id="campo-ativo" name="ativo" value="true" ${v.ativo === false || v.ativo === 'false' ? '' : html`checked`} ${ro ? html`disabled` : ''}>
      <label for="campo-ativo">Ativo</label></div>
    </div>
    ${tabelaFilha('cicloCestas', 'Cestas do ciclo', [
      { campo: 'cestaId', rotulo: 'Cesta', controle: (n, a, d, r) => selecao(n, r, a, cestas, d) },
      { campo: 'quantidadeCestas', rotulo: 'Quantas podem ser vendidas', controle: entrada('text', 'numeric') },
    ], v, f.erros, ro)}
    ${tabelaFilha('cicloProdutos', 'Extras (produtos avulsos)', [
      { campo: 'produtoId', rotulo: 'Produto', controle: (n, a, d, r) => selecao(n, r, a, produtos, d) },
      { campo: 'quantidade', rotulo: 'Quantidade disponível', controle: entrada('text', 'decimal') },
      { campo: 'valor', rotulo: 'Preço ao consumidor (R$)', controle: entrada('text', 'decimal') },
    ], v, f.erros, ro)}
    ${tabelaFilha('cicloEntregas', 'Dias de entrega dos fornecedores', [
      { campo: 'dataEntrega', rotulo: 'Data', controle: entrada('date') },
      { campo: 'observacao', rotulo: 'Observação', controle: entrada('text') },
    ], v, f.erros, ro)}
    ${ro ? html`<p class="nota">Você pode consultar, mas não alterar.</p>` : html`<button type="submit" class="botao">Salvar</button>`}
  </form>
  ${f.apagar === null
    ? ''
    : html`<form method="post" action="${f.apagar}" class="apagar">${campoCsrf(f.csrf)}
    <p>Só é possível apagar um ciclo sem ofertas, pedidos nem movimentações; os demais podem ser desativados.</p>
    <button type="submit" class="botao perigo">Apagar ciclo</button></form>`}
  <p><a href="/ciclo-index">Voltar aos ciclos</a></p>
  <script src="/static/ciclo.js" defer></script>`;
}

export function indiceCiclos(pagina: Pagina<CicloDaLista>, podeCriar: boolean): Html {
  return indiceRegistros({
    base: '/ciclo-index',
    pagina,
    linkDe: (c) => `/ciclo/${c.id}`,
    novo: podeCriar ? '/ciclo' : null,
    rotuloNovo: 'Novo ciclo',
    comBusca: true,
    colunas: [
      { titulo: 'Nome', valor: (c) => c.nome, ordem: 'nome' },
      { titulo: 'Fase', valor: (c) => html`<span class="fase fase-${c.fase}">${NOMES_FASES[c.fase]}</span>` },
      { titulo: 'Ofertas', valor: (c) => `${dataBr(c.dataOfertaInicio)} a ${dataBr(c.dataOfertaFim)}`, ordem: 'dataOfertaInicio' },
      { titulo: 'Pedidos', valor: (c) => `${dataBr(c.dataPedidoInicio)} a ${dataBr(c.dataPedidoFim)}`, ordem: 'dataPedidoInicio' },
      { titulo: 'Retirada', valor: (c) => `${dataBr(c.dataRetiradaInicio)} a ${dataBr(c.dataRetiradaFim)}`, ordem: 'dataRetiradaInicio' },
      { titulo: 'Ativo', valor: (c) => (c.ativo ? 'Sim' : 'Não'), ordem: 'ativo' },
      { titulo: 'Ver', valor: (c) => html`<a href="/oferta-index?cicloid=${c.id}">ofertas</a> · <a href="/pedidosconsumidorestodos/${c.id}">pedidos</a>` },
    ],
  });
}
