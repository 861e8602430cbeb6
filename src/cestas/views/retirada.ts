/**
 * The pickup day's pages on the Cestas face: the page a receipt's QR code opens (the order, with
 * no login), and the coordination's view of a cycle's pickup, point by point, kept live by
 * /static/retirada.js (without it, the page is the same and is refreshed by hand).
 */
import { NOMES_FASES } from '../../domain/ciclos/calendario.ts';
import type { PedidoDoQr } from '../../domain/retirada/recibo.ts';
import type {
  ConflitoDaRetirada,
  PontoNoResumo,
  Registro,
  ResumoDaRetirada,
  TotaisDosPagamentos,
} from '../../domain/retirada/resumo.ts';
import { horarioDeRetiradaTexto } from '../../domain/tempo.ts';
import { dataBr, instanteBr, numeroDeQuantidade, quantidade, reais } from '../../formatos.ts';
import { confiavel, html, type Html } from '../../http/html.ts';
import { campoCsrf, resumoDeErros } from './layout.ts';

/** When and where, in one line: the point's day and hours in the cycle, else the cycle's pickup days. */
function quando(p: PedidoDoQr): string {
  const texto = horarioDeRetiradaTexto(p.ponto);
  return texto === '' ? `de ${dataBr(p.ciclo.dataRetiradaInicio)} a ${dataBr(p.ciclo.dataRetiradaFim)}` : texto;
}

/** The page a receipt's QR code opens: the order, the QR to show at the point, where and when. */
export function paginaDoQr(p: PedidoDoQr, qrSvg: string, fuso: string): Html {
  const lugar = [p.ponto.endereco, p.ponto.cidade].filter((x) => x !== null && x !== '').join(', ');
  return html`<p class="saudacao">Olá, ${p.primeiroNome}! Este é o seu pedido nº ${p.pedidoId} no ${p.ciclo.nome}.</p>
  ${
    p.finalizado
      ? ''
      : html`<p class="alerta" role="alert"><strong>Este pedido não está confirmado:</strong> um pedido sem confirmação não é entregue nem cobrado. Fale com a coordenação.</p>`
  }
  ${p.retiradoEm === null ? '' : html`<p class="aviso" role="status">Retirado em ${instanteBr(p.retiradoEm, fuso)}.</p>`}
  <section class="qr-retirada" aria-labelledby="t-qr">
    <h2 id="t-qr">Mostre este código na retirada</h2>
    <figure class="pix-qr"><div role="img" aria-label="QR code do pedido nº ${p.pedidoId}, para a retirada">${confiavel(qrSvg)}</div>
      <figcaption>A pessoa voluntária lê o código e encontra o seu pedido, mesmo sem internet.</figcaption></figure>
  </section>
  <section aria-labelledby="t-onde">
    <h2 id="t-onde">Onde e quando</h2>
    <p><strong>${p.ponto.nome}</strong>${lugar === '' ? '' : html`<br>${lugar}`}<br>${quando(p)}</p>
  </section>
  <section aria-labelledby="t-itens">
    <h2 id="t-itens">O que retirar</h2>
    <ul class="itens-da-retirada">
      ${p.itens.map(
        (i) =>
          html`<li><strong>${
            i.tipo === 'cesta'
              ? `${numeroDeQuantidade(i.quantidadeMilesimos)} × ${i.nome}`
              : `${quantidade(i.quantidadeMilesimos, i.unidade)} de ${i.nome}`
          }</strong>${
            i.conteudo.length === 0
              ? ''
              : html`<ul>${i.conteudo.map((c) => html`<li>${quantidade(c.quantidadeMilesimos, c.unidade)} de ${c.nome}</li>`)}</ul>`
          }</li>`,
      )}
    </ul>
  </section>
  <p><a href="/pedidoconsumidoresconfirmacao/${p.pedidoId}">Entrar para ver o pedido completo, com os valores</a></p>`;
}

/** A record's who, where and when, as a line: "14/03/2026 às 10:02 · Ana · aparelho 1a2b3c4d". */
function registro(r: Registro, fuso: string): Html {
  return html`<span class="registro">${instanteBr(r.feitoEm, fuso)} · ${r.quem} · <span title="${r.dispositivo}">aparelho ${r.dispositivo.slice(0, 8)}</span></span>`;
}

function conflitos(lista: readonly ConflitoDaRetirada[], fuso: string): Html | '' {
  if (lista.length === 0) return '';
  return html`<div class="alerta-suave conflitos">
    <h3>${lista.length === 1 ? '1 conflito' : `${lista.length} conflitos`} para conferir</h3>
    <ul>${lista.map(
      (
        c,
      ) => html`<li><strong>${c.pessoa}</strong>: ${c.descricao}${c.tipo === 'retirada_repetida' ? ' (vale a primeira)' : ''}
        <ul>${c.registros.map((r) => html`<li>${registro(r, fuso)}</li>`)}</ul></li>`,
    )}</ul>
  </div>`;
}

function totais(t: TotaisDosPagamentos): Html {
  const linha = (rotulo: string, x: { quantos: number; centavos: number }) =>
    html`<dt>${rotulo} (${x.quantos === 1 ? '1 pagamento' : `${x.quantos} pagamentos`})</dt><dd>${reais(x.centavos)}</dd>`;
  return html`<dl class="totais">${linha('Dinheiro', t.dinheiro)}${linha('Pix', t.pix)}<dt>Total recebido</dt><dd>${reais(t.totalCentavos)}</dd></dl>`;
}

/** One point: the count, the conflicts, who is missing, and each kind of record as a table (cards at 360 px). */
function ponto(p: PontoNoResumo, fuso: string): Html {
  const id = `ponto-${p.pontoEntregaId}`;
  const horario = horarioDeRetiradaTexto(p);
  const tabela = (rotulo: string, cabecalho: readonly string[], linhas: readonly Html[]) =>
    html`<div class="tabela-rolavel" role="region" aria-label="${rotulo}, ${p.nome}" tabindex="0"><table class="tabela-cartoes">
      <thead><tr>${cabecalho.map((c) => html`<th scope="col">${c}</th>`)}</tr></thead>
      <tbody>${linhas}</tbody></table></div>`;
  return html`<section class="ponto-da-retirada" aria-labelledby="${id}">
    <h2 id="${id}">${p.nome}</h2>
    <p class="contagem"><strong>${p.retirados.length} de ${p.pedidos} retirados</strong>${
      p.faltando.length === 0 ? (p.pedidos === 0 ? '' : ' · todos retiraram') : ` · ${p.faltando.length} ainda não`
    }</p>
    <p class="nota">${horario === '' ? '' : html`${horario} · `}${
      p.voluntarios.length === 0
        ? html`Nenhum voluntário nomeado (<a href="#voluntarios-${p.pontoEntregaId}">nomear</a>).`
        : `Voluntários: ${p.voluntarios.map((v) => v.nome).join(', ')}.`
    }</p>
    ${conflitos(p.conflitos, fuso)}
    <h3>Ainda não retiraram (${p.faltando.length})</h3>
    ${
      p.faltando.length === 0
        ? html`<p class="nota">Ninguém.</p>`
        : html`<ul class="faltando">${p.faltando.map((x) => html`<li>${x.pessoa}${x.telefone === null ? '' : html` · <a href="tel:${x.telefone.replace(/[^\d+]/g, '')}">${x.telefone}</a>`}</li>`)}</ul>`
    }
    <h3>Retirados (${p.retirados.length})</h3>
    ${
      p.retirados.length === 0
        ? html`<p class="nota">Nenhuma retirada registrada ainda.</p>`
        : tabela(
            'Retirados',
            ['Pessoa', 'Retirado', 'Registros'],
            p.retirados.map(
              (r) =>
                html`<tr><th scope="row">${r.pessoa}</th><td data-rotulo="Retirado">${registro(r.primeira, fuso)}</td><td data-rotulo="Registros">${r.registros.length === 1 ? '1' : html`<strong>${r.registros.length}</strong>`}</td></tr>`,
            ),
          )
    }
    <h3>Faltas (${p.faltas.length})${p.faltas.length === 0 ? '' : html` · ${reais(p.creditoDasFaltasCentavos)} de crédito`}</h3>
    ${
      p.faltas.length === 0
        ? html`<p class="nota">Nenhuma falta registrada.</p>`
        : tabela(
            'Faltas',
            ['Pessoa', 'Item', 'Faltou', 'No lugar', 'Nota', 'Crédito', 'Registro'],
            p.faltas.map(
              (f) =>
                html`<tr><th scope="row">${f.pessoa}</th><td data-rotulo="Item">${f.item}${f.cesta === null ? '' : html`<br><span class="nota">${f.cesta}</span>`}</td>
                <td data-rotulo="Faltou">${quantidade(f.quantidadeMilesimos, f.unidade)}</td><td data-rotulo="No lugar">${f.substituto ?? '—'}</td>
                <td data-rotulo="Nota">${f.texto ?? '—'}</td><td data-rotulo="Crédito">${reais(f.creditoCentavos)}</td><td data-rotulo="Registro">${registro(f.registro, fuso)}</td></tr>`,
            ),
          )
    }
    <h3>Pagamentos (${p.pagamentos.length})</h3>
    ${
      p.pagamentos.length === 0
        ? html`<p class="nota">Nenhum pagamento registrado.</p>`
        : html`${totais(p.totais)}${tabela(
            'Pagamentos',
            ['Pessoa', 'Forma', 'Valor', 'Registro'],
            p.pagamentos.map(
              (x) =>
                html`<tr><th scope="row">${x.pessoa}</th><td data-rotulo="Forma">${x.forma === 'pix' ? 'Pix' : 'Dinheiro'}</td><td data-rotulo="Valor">${reais(x.valorCentavos)}</td><td data-rotulo="Registro">${registro(x.registro, fuso)}</td></tr>`,
            ),
          )}`
    }
    <h3>Notas (${p.notas.length})</h3>
    ${
      p.notas.length === 0
        ? html`<p class="nota">Nenhuma nota.</p>`
        : html`<ul class="notas-da-retirada">${p.notas.map((n) => html`<li><strong>${n.pessoa}</strong>: ${n.texto}<br>${registro(n.registro, fuso)}</li>`)}</ul>`
    }
  </section>`;
}

/** The points of the view: what the script swaps when the version changes. */
export function pontosDaRetirada(r: ResumoDaRetirada, fuso: string): Html {
  return html`<div id="retirada-pontos" data-versao="${r.versao}">
    ${r.pontos.length === 0 ? html`<p>Nenhum ponto de retirada com pedidos confirmados neste ciclo.</p>` : r.pontos.map((p) => ponto(p, fuso))}
  </div>`;
}

/** A refused save of one point's volunteers: which point, what was typed, and the errors by field. */
export interface VoluntariosRecusados {
  readonly pontoEntregaId: number | null;
  readonly valor: string;
  readonly erros: Readonly<Record<string, string>>;
  readonly geral: string | null;
}

/**
 * One form per point to name its volunteers, outside the points the script swaps (a form being
 * typed in is never redrawn under the person's fingers). It works with the cycle closed too.
 */
function voluntariosDosPontos(
  r: ResumoDaRetirada,
  csrf: string | null,
  recusa: VoluntariosRecusados | null,
): Html | '' {
  if (r.pontos.length === 0) return '';
  return html`<section id="voluntarios" class="voluntarios-da-retirada" aria-labelledby="t-voluntarios">
    <h2 id="t-voluntarios">Voluntários da retirada</h2>
    <p class="nota" id="ajuda-voluntarios">Os e-mails de pessoas cadastradas, separados por vírgula ou um por linha. Cada uma registra, no app da retirada, só a retirada daquele ponto neste ciclo. Dá para mudar aqui mesmo com o ciclo fechado.</p>
    ${r.pontos.map((p) => {
      const recusado = recusa !== null && recusa.pontoEntregaId === p.pontoEntregaId ? recusa : null;
      const erro = recusado?.erros.voluntarios;
      const id = `voluntarios-${p.pontoEntregaId}`;
      const valor = recusado === null ? p.voluntarios.map((v) => v.email).join(', ') : recusado.valor;
      return html`<form method="post" action="/retirada/${r.cicloid}/voluntarios" class="formulario voluntarios-do-ponto">
        ${campoCsrf(csrf)}<input type="hidden" name="pontoEntregaId" value="${p.pontoEntregaId}">
        <div class="campo${erro === undefined ? '' : ' com-erro'}">
          <label for="${id}">${p.nome}</label>
          <textarea id="${id}" name="voluntarios" rows="3" autocomplete="off" autocapitalize="off" spellcheck="false" aria-describedby="${erro === undefined ? 'ajuda-voluntarios' : `erro-${id} ajuda-voluntarios`}" ${erro === undefined ? '' : html`aria-invalid="true"`}>${valor}</textarea>
          ${erro === undefined ? '' : html`<p class="erro" id="erro-${id}">${erro}</p>`}
        </div>
        <p><button type="submit" class="botao secundario">Salvar os voluntários de ${p.nome}</button></p>
      </form>`;
    })}
  </section>`;
}

/** The coordination's view of a cycle's pickup day. */
export function paginaDaRetirada(
  r: ResumoDaRetirada,
  opcoes: {
    readonly fuso: string;
    readonly geradoEm: string;
    readonly app: string | null;
    /** Naming volunteers here (voluntariosNomear), with the form's token; null: not offered. */
    readonly voluntarios: { readonly csrf: string | null; readonly recusa: VoluntariosRecusados | null } | null;
  },
): Html {
  const recusa = opcoes.voluntarios?.recusa ?? null;
  const todos = r.pontos.reduce((s, p) => s + p.pedidos, 0);
  const retirados = r.pontos.reduce((s, p) => s + p.retirados.length, 0);
  return html`${
    recusa === null
      ? ''
      : resumoDeErros(
          recusa.erros,
          (chave) =>
            chave === 'voluntarios' && recusa.pontoEntregaId !== null
              ? { id: `voluntarios-${recusa.pontoEntregaId}`, rotulo: 'Voluntários da retirada' }
              : null,
          recusa.geral,
        )
  }<p class="fase fase-${r.fase}">${NOMES_FASES[r.fase]}${r.fechadoEm === null ? '' : ' · fechado'}</p>
  ${
    r.aberta
      ? ''
      : html`<p class="alerta-suave" role="status">A retirada abre depois do fim dos pedidos (${dataBr(r.dataPedidoFim)}): até lá os aparelhos não registram nada.</p>`
  }
  ${
    r.fechadoEm === null
      ? ''
      : html`<p class="nota">Ciclo fechado em ${instanteBr(r.fechadoEm, opcoes.fuso)}: as faltas registradas agora viram ajustes no extrato na mesma hora, e os pagamentos entram no extrato como sempre.</p>`
  }
  <p><strong>${retirados} de ${todos} pedidos confirmados retirados</strong> em ${r.pontos.length === 1 ? '1 ponto' : `${r.pontos.length} pontos`}.</p>
  ${
    r.pontos.length < 2
      ? ''
      : html`<nav aria-label="Pontos de retirada"><ul class="pontos-da-retirada">${r.pontos.map(
          (p) =>
            html`<li><a href="#ponto-${p.pontoEntregaId}">${p.nome}</a>: ${p.retirados.length} de ${p.pedidos}${p.conflitos.length === 0 ? '' : html` · <strong>${p.conflitos.length === 1 ? '1 conflito' : `${p.conflitos.length} conflitos`}</strong>`}</li>`,
        )}</ul></nav>`
  }
  <p class="nota" id="retirada-atualizado" data-fuso="${opcoes.fuso}">Atualizado em ${instanteBr(opcoes.geradoEm, opcoes.fuso)}. Esta página se atualiza sozinha a cada 10 segundos.</p>
  <p class="sr" role="status" aria-live="polite" id="retirada-novidades"></p>
  ${
    opcoes.app === null
      ? ''
      : html`<p class="nota">Os voluntários abrem o app da retirada no celular em <a href="${opcoes.app}/retirada">${opcoes.app}/retirada</a>, entrando com o e-mail nomeado no ciclo; ele funciona sem internet depois da primeira visita.</p>`
  }
  <ul class="atalhos">
    ${opcoes.app === null ? '' : html`<li><a class="botao" href="${opcoes.app}/retirada">Abrir o app da retirada</a></li>`}
    <li><a class="botao secundario" href="/entregaCicloPDF/${r.cicloid}">PDF da entrega (para o papel)</a></li>
    <li><a class="botao secundario" href="/ciclo/${r.cicloid}">Voltar ao ciclo</a></li>
  </ul>
  ${pontosDaRetirada(r, opcoes.fuso)}
  ${opcoes.voluntarios === null ? '' : voluntariosDosPontos(r, opcoes.voluntarios.csrf, recusa)}
  <script src="/static/retirada.js" defer></script>`;
}
