import type { Cobranca, Pix } from '../../domain/pix.ts';
import type { LinhaParaRevisar, MapeamentoCsv, RevisaoDoExtrato } from '../../domain/extratos.ts';
import { confiavel, html, type Html } from '../../http/html.ts';
import { campoCsrf } from './layout.ts';
import { mensagemDeErro } from './fluxo.ts';
import { dataBr, linhasEmTexto, reais } from '../../formatos.ts';

/**
 * What a Pix pays, in words beside its amount: the whole balance, never one order (docs/dominio.md,
 * "O que cada pessoa deve, e o Pix que paga"). On an order's page it also says how much of it is
 * this order, so R$ 551,79 under an order of R$ 177,79 is never a surprise.
 */
function oQuePaga(c: Cobranca, quem: string | null, pedidoId: number | null): Html {
  const sujeito = quem === null ? 'você deve' : html`${quem} deve`;
  const doPedido = pedidoId === null ? undefined : c.linhas.find((l) => l.tipo === 'pedido' && l.pedidoId === pedidoId);
  const resto = doPedido === undefined ? 0 : c.devidoCentavos - doPedido.valorCentavos;
  return html`<p class="pix-o-que-paga">Este Pix paga <strong>tudo o que ${sujeito} hoje: ${reais(c.devidoCentavos)}</strong>, o saldo, e não um pedido só.${
    doPedido === undefined || resto === 0
      ? ''
      : resto > 0
        ? html` Este pedido é ${reais(doPedido.valorCentavos)}; os outros ${reais(resto)} vêm de antes (linhas abaixo).`
        : html` Este pedido é ${reais(doPedido.valorCentavos)}, menos ${reais(-resto)} de crédito.`
  } Pague uma vez: quando a coordenação registra o pagamento, o valor devido diminui.</p>`;
}

/**
 * How to pay: what the Pix pays in words, the charge line by line (so a carried debt or credit is
 * visible), then the Pix: its QR code (inline SVG, which the page's CSP allows) and the
 * copy-and-paste text with a "Copiar código Pix" button (pix.js; without it, tapping the text
 * selects it all for the phone's own copy).
 */
export function blocoPix(
  c: Cobranca,
  pix: Pix | null,
  opcoes: { recebedor: string | null; titulo?: string; quem?: string | null; pedidoId?: number | null } = {
    recebedor: null,
  },
): Html {
  const linhas = linhasEmTexto(c);
  return html`<section class="pix" id="pagar" aria-labelledby="t-pix"><h2 id="t-pix">${opcoes.titulo ?? 'Pagar com Pix'}</h2>
    ${c.devidoCentavos > 0 && pix !== null ? oQuePaga(c, opcoes.quem ?? null, opcoes.pedidoId ?? null) : ''}
    ${
      linhas.length === 0
        ? html`<p>Nenhum valor em aberto.</p>`
        : html`<dl class="totais cobranca">
      ${linhas.map(([d, v]) => html`<dt>${d}</dt><dd>${v}</dd>`)}
      <dt class="total">${c.devidoCentavos > 0 ? 'Total a pagar' : 'Nada a pagar agora'}</dt><dd class="total">${c.devidoCentavos > 0 ? reais(c.devidoCentavos) : c.devidoCentavos < 0 ? html`crédito de ${reais(-c.devidoCentavos)}` : reais(0)}</dd>
    </dl>`
    }
    ${
      pix === null
        ? c.devidoCentavos > 0
          ? html`<p class="nota">Combine o pagamento com a coordenação.</p>`
          : ''
        : html`<div class="pix-codigo">
        <figure class="pix-qr"><div role="img" aria-label="QR code do Pix de ${reais(pix.valorCentavos)}">${confiavel(pix.qrSvg)}</div>
          <figcaption>Aponte a câmera do app do banco${opcoes.recebedor === null ? '' : html` · para ${opcoes.recebedor}`}</figcaption></figure>
        <div class="campo"><label for="pix-copia">Pix copia e cola de ${reais(pix.valorCentavos)} (tudo o que ${opcoes.quem ?? 'você'} deve)</label>
          <textarea id="pix-copia" class="pix-copia" readonly rows="5" spellcheck="false" data-selecionar>${pix.copiaECola}</textarea>
          <p class="acoes-pix"><button type="button" class="botao" data-copiar="pix-copia" hidden>Copiar código Pix</button>
            <span class="pix-copiado" role="status" aria-live="polite" data-copiado></span></p>
          <p class="nota">Copie o código e cole em "Pix copia e cola" no app do banco. Identificador: <code>${pix.txid}</code>.</p></div>
      </div>
      <script src="/static/pix.js" defer></script>`
    }
  </section>`;
}

/** A person's balance: the charge and the Pix, with the link to the movements behind it. */
export function paginaSaldo(c: Cobranca, pix: Pix | null, recebedor: string | null, proprio: boolean): Html {
  return html`<p>${proprio ? 'O que você deve' : html`O que <strong>${c.nome}</strong> deve`} é o saldo das movimentações mais os pedidos confirmados de ciclos ainda não fechados: uma dívida de um ciclo passa para o seguinte, e um crédito é descontado.</p>
  ${blocoPix(c, pix, { recebedor, titulo: 'Saldo e pagamento', quem: proprio ? null : c.nome })}
  <p><a href="/movimentacaotodos${proprio ? '' : `?usuarioid=${c.usuarioid}`}">Ver as movimentações</a></p>`;
}

/** Who owes what: the coordination's list, each with a link to the person's charge and Pix. */
export function paginaCobrancas(cobrancas: readonly Cobranca[], pixLigado: boolean): Html {
  const total = cobrancas.reduce((t, c) => t + c.devidoCentavos, 0);
  return html`<p>${cobrancas.length === 0 ? 'Ninguém deve nada agora.' : html`${cobrancas.length} ${cobrancas.length === 1 ? 'pessoa deve' : 'pessoas devem'} ${reais(total)} ao todo.`}
    ${pixLigado ? '' : html` O Pix não está configurado (PIX_CHAVE, PIX_NOME e PIX_CIDADE).`}</p>
  <p><a class="botao secundario" href="/extratos">Importar extrato do banco</a></p>
  ${
    cobrancas.length === 0
      ? ''
      : html`<ul class="cartoes">${cobrancas.map(
          (c) => html`<li class="cartao">
    <h2><a href="/saldo?usuarioid=${c.usuarioid}">${c.nome}</a></h2>
    <p class="valor-devido"><strong>${reais(c.devidoCentavos)}</strong></p>
    <p class="nota">${linhasEmTexto(c).map(([d, v], i) => html`${i > 0 ? html`<br>` : ''}${d}: ${v}`)}</p>
    <p class="nota">Identificador do Pix: <code>${c.txid}</code></p></li>`,
        )}</ul>`
  }`;
}

function opcaoDePessoa(id: number, nome: string, atual: number | null): Html {
  return html`<option value="${id}" ${id === atual ? html`selected` : ''}>${nome}</option>`;
}

const COMO = {
  txid: 'pelo código do Pix',
  nome: 'pelo valor e pelo nome',
  ambigua: 'mais de uma pessoa deve este valor: escolha',
} as const;

function cartaoPendente(l: LinhaParaRevisar, i: number, pessoas: RevisaoDoExtrato['pessoas']): Html {
  const sugeridos = new Set(l.candidatos.map((x) => x.id));
  const atual = l.usuario?.id ?? null;
  return html`<li class="cartao linha-extrato" id="linha-${l.id}">
    <input type="hidden" name="linhas[${i}][id]" value="${l.id}">
    <p><strong>${reais(l.valorCentavos)}</strong> · ${dataBr(l.data)}</p>
    <p class="descricao-extrato">${l.descricao}${l.pagador === null || l.descricao.includes(l.pagador) ? '' : html` · ${l.pagador}`}</p>
    <p class="nota">${l.proposta === null ? 'Sem correspondência: escolha a pessoa, ou descarte com o motivo.' : html`Proposta ${COMO[l.proposta]}.`}</p>
    <div class="campo"><label for="l-${l.id}">Creditar a</label>
      <select id="l-${l.id}" name="linhas[${i}][usuarioid]">
        <option value="">— ninguém (fica em aberto) —</option>
        ${l.candidatos.length === 0 ? '' : html`<optgroup label="Devem este valor">${l.candidatos.map((x) => opcaoDePessoa(x.id, x.nome, atual))}</optgroup>`}
        <optgroup label="Todas as pessoas">${pessoas.filter((p) => !sugeridos.has(p.id)).map((p) => opcaoDePessoa(p.id, p.nome, atual))}</optgroup>
      </select></div>
  </li>`;
}

/** The statement page: the upload form (OFX, or CSV with a mapping) and the review of pending credits. */
export function paginaExtratos(
  r: RevisaoDoExtrato,
  mapeamentos: ReadonlyArray<MapeamentoCsv & { id: number }>,
  csrf: string | null,
  falha: { erro: string | null; detalhes: Readonly<Record<string, unknown>> } = { erro: null, detalhes: {} },
): Html {
  const erro = (k: string) =>
    typeof falha.detalhes[k] === 'string' ? html`<p class="erro">${String(falha.detalhes[k])}</p>` : '';
  return html`${mensagemDeErro(falha.erro, falha.detalhes)}
  <section aria-labelledby="t-importar"><h2 id="t-importar">Importar extrato</h2>
  <form method="post" action="/extratos" enctype="multipart/form-data" class="formulario">
    ${campoCsrf(csrf)}
    <div class="campo"><label for="x-arquivo">Arquivo do banco (OFX ou CSV, até 2 MiB)</label>
      <input id="x-arquivo" name="arquivo" type="file" accept=".ofx,.csv,.txt,text/csv,application/x-ofx" required>${erro('arquivo')}</div>
    <details${Object.keys(falha.detalhes).some((k) => k.startsWith('coluna') || k === 'mapeamentoId' || k === 'nomeMapeamento') ? html` open` : ''}><summary>É um CSV? Diga onde estão as colunas</summary>
      ${
        mapeamentos.length === 0
          ? ''
          : html`<div class="campo"><label for="x-mapa">Mapeamento salvo</label>
        <select id="x-mapa" name="mapeamentoId"><option value="">—</option>${mapeamentos.map((m) => html`<option value="${m.id}">${m.nome}</option>`)}</select>${erro('mapeamentoId')}</div>
        <p class="nota">Ou escreva um novo:</p>`
      }
      <div class="campo"><label for="x-sep">Separador</label><select id="x-sep" name="separador"><option value=";">; (ponto e vírgula)</option><option value=",">, (vírgula)</option><option value="tab">tabulação</option></select></div>
      <p class="nota" id="x-colunas">Escreva cada coluna como ela aparece na primeira linha do arquivo do banco (por exemplo: Data, Valor, Histórico).</p>
      <div class="campo"><label for="x-data">Coluna da data</label><input id="x-data" name="colunaData" aria-describedby="x-colunas">${erro('colunaData')}</div>
      <div class="campo"><label for="x-valor">Coluna do valor</label><input id="x-valor" name="colunaValor" aria-describedby="x-colunas">${erro('colunaValor')}</div>
      <div class="campo"><label for="x-desc">Coluna da descrição</label><input id="x-desc" name="colunaDescricao" aria-describedby="x-colunas">${erro('colunaDescricao')}</div>
      <div class="campo"><label for="x-pag">Coluna do pagador (opcional)</label><input id="x-pag" name="colunaPagador">${erro('colunaPagador')}</div>
      <div class="campo"><label for="x-doc">Coluna do número do documento (opcional)</label><input id="x-doc" name="colunaDocumento" aria-describedby="x-doc-ajuda">
        <p class="nota" id="x-doc-ajuda">O número que o banco dá a cada lançamento (ex.: N° documento). Com ele, dois créditos iguais no mesmo dia nunca se confundem, e o mesmo lançamento já importado por OFX é reconhecido.</p>${erro('colunaDocumento')}</div>
      <div class="campo"><label><input type="checkbox" name="salvarMapeamento" value="on"> Guardar este mapeamento</label>
        <label for="x-nome">Nome do mapeamento</label><input id="x-nome" name="nomeMapeamento">${erro('nomeMapeamento')}</div>
    </details>
    <button type="submit" class="botao">Importar</button>
  </form></section>
  <section aria-labelledby="t-revisar"><h2 id="t-revisar">Créditos a conferir (${r.pendentes.length})</h2>
  ${
    r.pendentes.length === 0
      ? html`<p>Nenhum crédito esperando conferência.</p>`
      : html`<form method="post" action="/extratos/conciliar" class="formulario largo">
    ${campoCsrf(csrf)}
    <p class="nota">Confirme cada proposta, troque a pessoa, ou escolha "ninguém" para recusá-la. Cada crédito confirmado vira um "Pagamento recebido" nas movimentações.</p>
    <ul class="cartoes">${r.pendentes.map((l, i) => cartaoPendente(l, i, r.pessoas))}</ul>
    <button type="submit" class="botao">Confirmar os créditos escolhidos</button>
  </form>
  <details><summary>Descartar um crédito que não é pagamento</summary>
    <ul class="cartoes">${r.pendentes.map(
      (l) => html`<li class="cartao"><form method="post" action="/extratos/${l.id}/descartar" class="formulario">
      ${campoCsrf(csrf)}<p>${reais(l.valorCentavos)} · ${dataBr(l.data)} · ${l.descricao}</p>
      <div class="campo"><label for="d-${l.id}">Motivo</label><input id="d-${l.id}" name="motivo" required></div>
      <button type="submit" class="botao secundario">Descartar</button></form></li>`,
    )}</ul>
  </details>`
  }
  </section>
  ${
    r.resolvidas.length === 0
      ? ''
      : html`<section aria-labelledby="t-resolvidas"><h2 id="t-resolvidas">Últimos conferidos</h2>
    <ul class="cartoes">${r.resolvidas.map(
      (
        l,
      ) => html`<li class="cartao"><p><strong>${reais(l.valorCentavos)}</strong> · ${dataBr(l.data)} · ${l.descricao}</p>
      <p class="nota">${l.estado === 'conciliada' ? html`Pagamento recebido de ${l.usuario?.nome ?? ''}` : html`Descartado: ${l.motivo ?? ''}`}</p></li>`,
    )}</ul></section>`
  }`;
}
