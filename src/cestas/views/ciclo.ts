import { NOMES_FASES } from '../../domain/ciclos/calendario.ts';
import type { CicloDaLista } from '../../domain/ciclos/leitura.ts';
import { ROTULOS_DATAS, type Ciclo } from '../../domain/ciclos/modelo.ts';
import { fechamentoPossivel } from '../../domain/ciclos/regras.ts';
import type { Pagina } from '../../domain/registros.ts';
import { html, type Html } from '../../http/html.ts';
import { campoCsrf, resumoDeErros, type AlvoDoErro } from './layout.ts';
import { indiceRegistros } from './registros.ts';
import { dataBr, instanteBr, quantidade } from '../../formatos.ts';

export interface OpcoesCiclo {
  readonly cestas: ReadonlyArray<{ id: number; nome: string; ativo: boolean }>;
  readonly produtos: ReadonlyArray<{ id: number; nome: string; unidade: string; ativo: boolean }>;
  readonly pontos: ReadonlyArray<{ id: number; nome: string; ativo: boolean }>;
  /** A master may reopen a closed cycle. */
  readonly podeReabrir: boolean;
  /** Admins may write to everyone in the cycle. */
  readonly podeEnviarMensagem: boolean;
  /** The coordination follows the pickup day at /retirada/:cicloId. */
  readonly podeAcompanharRetirada: boolean;
  /** Today in the community's time zone (YYYY-MM-DD), and that zone: instants are shown in it. */
  readonly hoje: string;
  readonly fuso: string;
}

type Valores = Readonly<Record<string, unknown>>;

function texto(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** The rows of a child list as the form sent them (qs array or index map) or as loaded. */
function linhas(v: unknown): Valores[] {
  if (Array.isArray(v)) return v.filter((x): x is Valores => x !== null && typeof x === 'object');
  if (v !== null && typeof v === 'object')
    return Object.values(v).filter((x): x is Valores => x !== null && typeof x === 'object');
  return [];
}

function erroDe(erros: Valores, chave: string): Html | '' {
  const e = erros[chave];
  return typeof e === 'string' ? html`<p class="erro" id="erro-${chave}">${e}</p>` : '';
}

/** A control with an error says so and points at its message (erroDe's id). */
function ariaDe(erros: Valores, chave: string): Html | '' {
  return typeof erros[chave] === 'string' ? html`aria-invalid="true" aria-describedby="erro-${chave}"` : '';
}

/** What a row's control is made of: its name, value, label, id and whether it has an error. */
interface Controle {
  readonly nome: string;
  readonly valor: string;
  readonly desabilitado: boolean;
  /** Names the control for assistive technology: the column and the row. */
  readonly rotulo: string;
  /** Where the error banner links. */
  readonly id: string;
  /** aria-invalid and aria-describedby when the row's field was refused. */
  readonly aria: Html | '';
}

function selecao(c: Controle, opcoes: ReadonlyArray<{ id: number; rotulo: string; ativo: boolean }>): Html {
  const { nome, rotulo, valor: atual, desabilitado, id } = c;
  return html`<select id="${id}" name="${nome}" aria-label="${rotulo}" ${c.aria} ${desabilitado ? html`disabled` : ''}>
    <option value="">—</option>
    ${opcoes.map((o) => html`<option value="${o.id}" ${String(o.id) === atual ? html`selected` : ''}>${o.rotulo}${o.ativo ? '' : ' (inativo)'}</option>`)}
  </select>`;
}

/** A text of several lines (the volunteers' e-mails), as a row's control. */
function areaDeTexto(c: Controle): Html {
  return html`<textarea id="${c.id}" name="${c.nome}" rows="3" aria-label="${c.rotulo}" autocomplete="off" autocapitalize="off" spellcheck="false" ${c.aria} ${c.desabilitado ? html`disabled` : ''}>${c.valor}</textarea>`;
}

interface Coluna {
  readonly campo: string;
  readonly rotulo: string;
  readonly controle: (c: Controle) => Html;
  /** What the row's control is judged against, shown beside it (the leftover that caps an extra). */
  readonly apoio?: (linha: Valores) => Html | '';
}

function entrada(tipo: string, modo?: string) {
  return (c: Controle) =>
    html`<input type="${tipo}" id="${c.id}" name="${c.nome}" value="${c.valor}" aria-label="${c.rotulo}" ${modo === undefined ? '' : html`inputmode="${modo}"`} ${c.aria} ${c.desabilitado ? html`disabled` : ''}>`;
}

/** The rows of a child list worth showing, each with the position it was sent at (its errors use it). */
function linhasMantidas(
  lista: string,
  colunas: readonly Coluna[],
  valores: Valores,
): Array<{ v: Valores; enviada: number }> {
  // Rows sent blank (the spare ones) are not rows: the form comes back with two spare rows, not more each time.
  return linhas(valores[lista])
    .map((v, enviada) => ({ v, enviada }))
    .filter(({ v }) => texto(v.id) !== '' || colunas.some((c) => texto(v[c.campo]).trim() !== ''));
}

const idDoControle = (lista: string, i: number | string, campo: string) => `campo-${lista}-${i}-${campo}`;

/**
 * One child list as a table. Without JavaScript: existing rows plus two blank ones (data-reserva),
 * and a row is removed by clearing it. With /static/ciclo.js: buttons add and remove rows, and the
 * spare rows go (one stays in an empty list), so a refused save never comes back with more blanks.
 */
function tabelaFilha(
  lista: string,
  titulo: string,
  colunas: readonly Coluna[],
  valores: Valores,
  erros: Valores,
  somenteLeitura: boolean,
  nota?: string,
): Html {
  const existentes = linhasMantidas(lista, colunas, valores);
  const total = existentes.length + (somenteLeitura ? 0 : 2);
  const linha = (
    i: number | '__i__',
    v: Valores,
    enviada: number | null,
  ) => html`<tr ${typeof i === 'number' && enviada === null ? html`data-reserva` : ''}>
      <td hidden>${texto(v.id) === '' ? '' : html`<input type="hidden" name="${lista}[${i}][id]" value="${texto(v.id)}">`}</td>
      ${colunas.map((c) => {
        const chave = `${lista}.${enviada ?? ''}.${c.campo}`;
        const controle = c.controle({
          nome: `${lista}[${i}][${c.campo}]`,
          valor: texto(v[c.campo]),
          desabilitado: somenteLeitura,
          rotulo: `${c.rotulo}, ${typeof i === 'number' ? `linha ${i + 1}` : 'nova linha'}`,
          id: idDoControle(lista, i, c.campo),
          aria: enviada === null ? '' : ariaDe(erros, chave),
        });
        return html`<td data-rotulo="${c.rotulo}">${controle}${c.apoio?.(v) ?? ''}${enviada === null ? '' : erroDe(erros, chave)}</td>`;
      })}
      ${somenteLeitura ? '' : html`<td><button type="button" class="link" data-remover hidden>Remover</button></td>`}
    </tr>`;
  return html`<fieldset class="lista-filha" id="lista-${lista}" data-lista="${lista}" data-proximo="${total}">
    <legend>${titulo}</legend>
    ${nota === undefined ? '' : html`<p class="nota">${nota}</p>`}
    ${erroDe(erros, lista)}
    <div class="tabela-rolavel" role="region" aria-label="${titulo}" tabindex="0"><table>
      <thead><tr><th hidden>id</th>${colunas.map((c) => html`<th scope="col">${c.rotulo}</th>`)}${somenteLeitura ? '' : html`<th><span class="sr">Ações</span></th>`}</tr></thead>
      <tbody>${Array.from({ length: total }, (_, i) => linha(i, existentes[i]?.v ?? {}, existentes[i]?.enviada ?? null))}</tbody>
    </table></div>
    ${
      somenteLeitura
        ? ''
        : html`<template>${linha('__i__', {}, null)}</template>
    <p class="nota">Para tirar uma linha, apague os campos dela.</p>
    <button type="button" class="botao secundario" data-adicionar hidden>Adicionar linha</button>`
    }
  </fieldset>`;
}

/** The four child lists of a cycle's form: their columns, titles, notes and order on the page. */
function listasDoCiclo(f: {
  opcoes: OpcoesCiclo;
  registro: Ciclo | null;
}): Array<{ lista: string; titulo: string; colunas: Coluna[]; nota?: string }> {
  const cestas = f.opcoes.cestas.map((c) => ({ id: c.id, rotulo: c.nome, ativo: c.ativo }));
  const produtos = f.opcoes.produtos.map((p) => ({ id: p.id, rotulo: `${p.nome} (${p.unidade})`, ativo: p.ativo }));
  const sobras = new Map((f.registro?.sobras ?? []).map((x) => [String(x.produtoId), x]));
  const pontos = f.opcoes.pontos.map((p) => ({ id: p.id, rotulo: p.nome, ativo: p.ativo }));
  const pedidosNoPonto = new Map((f.registro?.cicloPontos ?? []).map((p) => [String(p.pontoEntregaId), p.pedidos]));
  const voluntariosNoPonto = new Map(
    (f.registro?.cicloPontos ?? []).map((p) => [String(p.pontoEntregaId), p.voluntarios]),
  );
  return [
    {
      lista: 'cicloCestas',
      titulo: 'Cestas do ciclo',
      colunas: [
        { campo: 'cestaId', rotulo: 'Cesta', controle: (c) => selecao(c, cestas) },
        { campo: 'quantidadeCestas', rotulo: 'Quantas podem ser vendidas', controle: entrada('text', 'numeric') },
      ],
    },
    {
      lista: 'cicloProdutos',
      titulo: 'Extras (produtos avulsos)',
      colunas: [
        { campo: 'produtoId', rotulo: 'Produto', controle: (c) => selecao(c, produtos) },
        {
          campo: 'quantidade',
          rotulo: 'Quantidade disponível',
          controle: entrada('text', 'decimal'),
          // The cap sits by the field it caps: what the finalised offers leave over after the baskets.
          apoio: (v) => {
            const x = sobras.get(texto(v.produtoId));
            return texto(v.produtoId) === ''
              ? ''
              : html`<p class="nota">Sobra das ofertas: ${x === undefined ? 'nenhuma' : quantidade(x.sobraMilesimos, x.unidade)}</p>`;
          },
        },
        { campo: 'valor', rotulo: 'Preço ao consumidor (R$)', controle: entrada('text', 'decimal') },
      ],
    },
    {
      lista: 'cicloPontos',
      titulo: 'Pontos de retirada',
      nota: 'Sem nenhum ponto na lista, os consumidores escolhem entre todos os pontos ativos. Voluntários da retirada: os e-mails de pessoas cadastradas, separados por vírgula ou um por linha; cada uma registra a retirada só daquele ponto, neste ciclo.',
      colunas: [
        {
          campo: 'pontoEntregaId',
          rotulo: 'Ponto',
          controle: (c) => selecao(c, pontos),
          apoio: (v) => {
            const n = pedidosNoPonto.get(texto(v.pontoEntregaId)) ?? 0;
            return n === 0
              ? ''
              : html`<p class="nota">${n === 1 ? '1 pedido retira aqui' : `${n} pedidos retiram aqui`}</p>`;
          },
        },
        { campo: 'dataRetirada', rotulo: 'Dia', controle: entrada('date') },
        { campo: 'horaInicio', rotulo: 'Das', controle: entrada('time') },
        { campo: 'horaFim', rotulo: 'Até', controle: entrada('time') },
        {
          campo: 'voluntarios',
          rotulo: 'Voluntários da retirada',
          controle: areaDeTexto,
          // The set saved, by name, beside the e-mails (a refused save shows what was typed above it).
          apoio: (v) => {
            const salvos = voluntariosNoPonto.get(texto(v.pontoEntregaId)) ?? [];
            return salvos.length === 0
              ? ''
              : html`<p class="nota">${salvos.length === 1 ? 'Nomeado' : 'Nomeados'}: ${salvos.map((x) => x.nome).join(', ')}</p>`;
          },
        },
      ],
    },
    {
      lista: 'cicloEntregas',
      titulo: 'Dias de entrega dos fornecedores',
      colunas: [
        { campo: 'dataEntrega', rotulo: 'Data', controle: entrada('date') },
        { campo: 'observacao', rotulo: 'Observação', controle: entrada('text') },
      ],
    },
  ];
}

/** Where each error of the cycle's form leads, for the banner's links. */
function alvosDoCiclo(listas: ReturnType<typeof listasDoCiclo>, valores: Valores): AlvoDoErro {
  return (chave) => {
    if (chave === 'nome') return { id: 'campo-nome', rotulo: 'Nome' };
    if (chave in ROTULOS_DATAS)
      return { id: `campo-${chave}`, rotulo: maiuscula(ROTULOS_DATAS[chave as keyof typeof ROTULOS_DATAS]) };
    const [nome, posicao, campo] = chave.split('.');
    const l = listas.find((x) => x.lista === nome);
    if (l === undefined) return null;
    if (posicao === undefined) return { id: `lista-${l.lista}`, rotulo: l.titulo };
    const i = linhasMantidas(l.lista, l.colunas, valores).findIndex((x) => String(x.enviada) === posicao);
    const coluna = l.colunas.find((c) => c.campo === campo) ?? l.colunas[0];
    if (i < 0 || coluna === undefined) return { id: `lista-${l.lista}`, rotulo: l.titulo };
    return { id: idDoControle(l.lista, i, coluna.campo), rotulo: `${l.titulo}, linha ${i + 1}: ${coluna.rotulo}` };
  };
}

function maiuscula(t: string): string {
  return t.charAt(0).toUpperCase() + t.slice(1);
}

/** The cycle's own page, above its form: its phase, everything to do in it, and its closing. */
function trabalhoDoCiclo(c: Ciclo, f: { csrf: string | null; somenteLeitura: boolean; opcoes: OpcoesCiclo }): Html {
  // Once closed, nothing is for sale any more: the warning would only be noise.
  const semComposicao = c.fechadoEm === null ? c.cicloCestas.filter((x) => !x.composta) : [];
  return html`<p class="fase fase-${c.fase}">${NOMES_FASES[c.fase]}${c.fechadoEm === null ? '' : ' · fechado'}</p>
  <section id="composicao" aria-labelledby="t-trabalho" class="trabalho-do-ciclo">
    <h2 id="t-trabalho">Trabalho do ciclo</h2>
    ${semComposicao.length === 0 ? '' : html`<p class="alerta-suave" role="status"><strong>Sem composição:</strong> ${semComposicao.map((x) => x.nome).join(', ')}. Uma cesta só pode ser pedida depois de composta.</p>`}
    <ul class="atalhos">
      ${c.cicloCestas.map((x) => html`<li><a class="botao secundario" href="/composicao/${x.id}">Compor ${x.nome}${x.composta ? '' : ' (em composição)'}</a></li>`)}
      <li><a class="botao secundario" href="#lista-cicloProdutos">Extras</a></li>
      <li><a class="botao secundario" href="/oferta-index?cicloid=${c.id}">Ofertas</a></li>
      <li><a class="botao secundario" href="/ciclo/${c.id}/mercados">Mercados</a></li>
      <li><a class="botao secundario" href="/pedidosconsumidorestodos/${c.id}">Pedidos</a></li>
      <li><a class="botao secundario" href="/pedidosfornecedorestodos/${c.id}">Pedidos aos fornecedores</a></li>
      <li><a class="botao secundario" href="/pedidosfornecedoressobra/${c.id}">Sobra</a></li>
      <li><a class="botao secundario" href="/entregaCicloPDF/${c.id}">PDF da entrega</a></li>
      ${f.opcoes.podeAcompanharRetirada ? html`<li><a class="botao secundario" href="/retirada/${c.id}">Retirada</a></li>` : ''}
      ${f.opcoes.podeEnviarMensagem ? html`<li><a class="botao secundario" href="/ciclo/${c.id}/mensagem">Mensagem a todos</a></li>` : ''}
    </ul>
    ${
      c.fechadoEm !== null
        ? html`<p class="nota">Ciclo fechado em ${instanteBr(c.fechadoEm, f.opcoes.fuso)}: ofertas, composições, pedidos e datas não mudam mais.</p>
        ${
          f.opcoes.podeReabrir
            ? html`<details class="reabrir"><summary>Reabrir o ciclo</summary>
          <form method="post" action="/reabrirciclo/${c.id}" class="formulario">${campoCsrf(f.csrf)}
            <div class="campo"><label for="campo-motivo">Por que reabrir <span aria-hidden="true">*</span></label>
            <textarea id="campo-motivo" name="motivo" required rows="2"></textarea></div>
            <p class="nota">Fica na auditoria. Ao fechar de novo, só as diferenças viram novas movimentações.</p>
            <button type="submit" class="botao perigo">Reabrir ciclo</button></form></details>`
            : ''
        }`
        : f.somenteLeitura
          ? ''
          : fechamentoPossivel(c)
            ? html`<p><a class="botao" href="/fecharciclo/${c.id}">Fechar ciclo…</a></p>
            <p class="nota">Mostra o resumo (pedidos, totais, pedidos sem confirmação) antes de lançar as movimentações.</p>`
            : html`<p class="nota">O ciclo poderá ser fechado depois do fim dos pedidos (${dataBr(c.dataPedidoFim)}).</p>`
    }
  </section>`;
}

/**
 * Extras can only be accepted out of what the finalised offers leave over after the baskets
 * (salvarCiclo refuses any quantity above it): a cycle without surplus, and a new one, has nothing
 * to sell as an extra. One that already has extras keeps the list, to change or remove them.
 */
function extrasAceitaveis(c: Ciclo | null): boolean {
  return c !== null && (c.cicloProdutos.length > 0 || c.sobras.some((x) => x.sobraMilesimos > 0));
}

/** In place of the extras' list while there is nothing to sell as one: why, in one sentence. */
function semExtrasAinda(c: Ciclo | null): Html {
  return html`<div class="lista-filha" id="lista-cicloProdutos">
    <p><strong>Extras (produtos avulsos)</strong></p>
    <p class="nota">${
      c === null
        ? 'Os extras aparecem aqui depois de salvar o ciclo, quando as ofertas finalizadas deixarem sobra além das cestas: só essa sobra pode ser vendida como extra.'
        : 'Os extras aparecem aqui quando as ofertas finalizadas deixarem sobra além das cestas (ainda não há): só essa sobra pode ser vendida como extra.'
    }</p>
  </div>`;
}

/**
 * The start date warns, without refusing (the server accepts it), when it is before today and is
 * not the date the cycle already has: a cycle under way keeps its past start quietly.
 * /static/ciclo.js keeps the warning in step as the person types.
 */
function inicioNoPassado(valor: string, c: Ciclo | null, hoje: string): boolean {
  return valor !== '' && valor < hoje && valor !== (c?.dataOfertaInicio ?? '');
}

/** The start date's input: what ciclo.js compares, and the messages it points at (error, warning). */
function atributosDoInicio(valor: string, c: Ciclo | null, hoje: string, erros: Valores): Html {
  const descricoes = [
    ...(typeof erros.dataOfertaInicio === 'string' ? ['erro-dataOfertaInicio'] : []),
    ...(inicioNoPassado(valor, c, hoje) ? ['aviso-dataOfertaInicio'] : []),
  ];
  return html`data-hoje="${hoje}" data-salvo="${c?.dataOfertaInicio ?? ''}" data-aviso="aviso-dataOfertaInicio" ${descricoes.length === 0 ? '' : html`aria-describedby="${descricoes.join(' ')}"`} ${typeof erros.dataOfertaInicio === 'string' ? html`aria-invalid="true"` : ''}`;
}

function avisoDoInicio(valor: string, c: Ciclo | null, hoje: string): Html {
  const texto = `Esta data já passou (hoje é ${dataBr(hoje)}). Dá para salvar assim, mas confira se não é engano.`;
  const passou = inicioNoPassado(valor, c, hoje);
  return html`<p class="alerta-suave" id="aviso-dataOfertaInicio" role="status" data-texto="${texto}" ${passou ? '' : html`hidden`}>${passou ? texto : ''}</p>`;
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
  geral?: string | null;
}): Html {
  const v = f.valores;
  // A closed cycle is locked for everyone (a master reopens it first).
  const ro = f.somenteLeitura || (f.registro?.fechadoEm ?? null) !== null;
  const listas = listasDoCiclo(f);
  const campoData = (
    nome: keyof typeof ROTULOS_DATAS,
  ) => html`<div class="campo${f.erros[nome] === undefined ? '' : ' com-erro'}">
      <label for="campo-${nome}">${maiuscula(ROTULOS_DATAS[nome])} <span aria-hidden="true">*</span></label>
      <input type="date" id="campo-${nome}" name="${nome}" value="${texto(v[nome])}" required ${nome === 'dataOfertaInicio' && !ro ? atributosDoInicio(texto(v[nome]), f.registro, f.opcoes.hoje, f.erros) : ariaDe(f.erros, nome)} ${ro ? html`disabled` : ''}>
      ${erroDe(f.erros, nome)}${nome === 'dataOfertaInicio' && !ro ? avisoDoInicio(texto(v[nome]), f.registro, f.opcoes.hoje) : ''}
    </div>`;
  const extras = listas.find((l) => l.lista === 'cicloProdutos');
  const digitados = extras === undefined ? [] : linhasMantidas('cicloProdutos', extras.colunas, v);
  const publicados = new Set(digitados.map((x) => texto(x.v.produtoId)));
  const naoPublicadas = (f.registro?.sobras ?? []).filter(
    (x) => x.sobraMilesimos > 0 && !publicados.has(String(x.produtoId)),
  );
  const comExtras = extrasAceitaveis(f.registro) || digitados.length > 0;
  return html`${resumoDeErros(f.erros, alvosDoCiclo(listas, v), f.geral)}
  ${f.registro === null ? '' : trabalhoDoCiclo(f.registro, { csrf: f.csrf, somenteLeitura: f.somenteLeitura, opcoes: f.opcoes })}
  <form method="post" action="${f.acao}" class="formulario largo" novalidate>
    ${campoCsrf(f.csrf)}
    <input type="hidden" name="_listas" value="${listas.map((l) => l.lista).join(',')}">
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
    ${listas.map((l) =>
      l.lista === 'cicloProdutos' && !comExtras
        ? semExtrasAinda(f.registro)
        : html`${
            l.lista === 'cicloProdutos' && naoPublicadas.length > 0
              ? html`<p class="nota">Sobra das ofertas ainda sem extra: ${naoPublicadas.map((x) => `${x.nome} ${quantidade(x.sobraMilesimos, x.unidade)}`).join(' · ')}.</p>`
              : ''
          }${tabelaFilha(l.lista, l.titulo, l.colunas, v, f.erros, ro, l.nota)}`,
    )}
    ${ro ? html`<p class="nota">${f.somenteLeitura ? 'Você pode consultar, mas não alterar.' : 'Ciclo fechado: só consulta.'}</p>` : html`<button type="submit" class="botao">Salvar</button>`}
  </form>
  ${
    f.apagar === null || ro
      ? ''
      : html`<form method="post" action="${f.apagar}" class="apagar">${campoCsrf(f.csrf)}
    <p>Só é possível apagar um ciclo sem ofertas, pedidos nem movimentações; os demais podem ser desativados.</p>
    <button type="submit" class="botao perigo">Apagar ciclo</button></form>`
  }
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
      {
        titulo: 'Ofertas',
        valor: (c) => `${dataBr(c.dataOfertaInicio)} a ${dataBr(c.dataOfertaFim)}`,
        ordem: 'dataOfertaInicio',
      },
      {
        titulo: 'Pedidos',
        valor: (c) => `${dataBr(c.dataPedidoInicio)} a ${dataBr(c.dataPedidoFim)}`,
        ordem: 'dataPedidoInicio',
      },
      {
        titulo: 'Retirada',
        valor: (c) => `${dataBr(c.dataRetiradaInicio)} a ${dataBr(c.dataRetiradaFim)}`,
        ordem: 'dataRetiradaInicio',
      },
      { titulo: 'Ativo', valor: (c) => (c.ativo ? 'Sim' : 'Não'), ordem: 'ativo' },
      {
        titulo: 'Ver',
        valor: (c) =>
          html`<a href="/oferta-index?cicloid=${c.id}">ofertas</a> · <a href="/pedidosconsumidorestodos/${c.id}">pedidos</a>`,
      },
    ],
  });
}
