import type { PreviaDoFechamento, SaldoDePessoa } from '../../domain/financeiro.ts';
import { html, type Html } from '../../http/html.ts';
import { campoCsrf } from './layout.ts';
import { mensagemDeErro } from './fluxo.ts';
import { dataBr, instanteBr, reais } from '../../formatos.ts';

export interface OpcoesMovimentacao {
  readonly pessoas: ReadonlyArray<{ id: number; nome: string }>;
  readonly tipos: ReadonlyArray<{ id: number; nome: string; sentido: string }>;
  readonly ciclos: ReadonlyArray<{ id: number; nome: string }>;
  readonly saldos: readonly SaldoDePessoa[];
}

function texto(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '';
}

/** The admin's form for a payment or an adjustment, with an optional receipt, and everyone's balance. */
export function paginaMovimentacao(
  o: OpcoesMovimentacao,
  csrf: string | null,
  hoje: string,
  falha: {
    erro: string | null;
    detalhes: Readonly<Record<string, unknown>>;
    valores: Readonly<Record<string, unknown>>;
    comprovante: { referencia: string; nome: string } | null;
  },
): Html {
  const v = falha.valores;
  const erro = (k: string) =>
    typeof falha.detalhes[k] === 'string' ? html`<p class="erro">${String(falha.detalhes[k])}</p>` : '';
  const opcao = (valor: number | string, rotulo: string, atual: unknown) =>
    html`<option value="${valor}" ${String(valor) === texto(atual) ? html`selected` : ''}>${rotulo}</option>`;
  return html`${mensagemDeErro(falha.erro, falha.detalhes)}
  <form method="post" action="/movimentacao" enctype="multipart/form-data" class="formulario">
    ${campoCsrf(csrf)}
    <div class="campo"><label for="m-pessoa">Pessoa</label>
      <select id="m-pessoa" name="usuarioid" required><option value="">—</option>${o.pessoas.map((p) => opcao(p.id, p.nome, v.usuarioid))}</select>${erro('usuarioid')}</div>
    <div class="campo"><label for="m-tipo">Tipo</label>
      <select id="m-tipo" name="tipoMovimentacaoId" required><option value="">—</option>${o.tipos.map((t) => opcao(t.id, t.nome, v.tipoMovimentacaoId))}</select>${erro('tipoMovimentacaoId')}</div>
    <div class="campo"><label for="m-sentido">Sentido (para ajustes)</label>
      <select id="m-sentido" name="sentido"><option value="">—</option>${opcao('credito', 'Crédito (a comunidade deve à pessoa)', v.sentido)}${opcao('debito', 'Débito (a pessoa deve à comunidade)', v.sentido)}</select>${erro('sentido')}</div>
    <div class="campo"><label for="m-valor">Valor (R$)</label><input id="m-valor" name="valor" inputmode="decimal" value="${texto(v.valor)}" required>${erro('valor')}</div>
    <div class="campo"><label for="m-data">Data</label><input id="m-data" name="data" type="date" value="${texto(v.data) || hoje}">${erro('data')}</div>
    <div class="campo"><label for="m-desc">Descrição</label><input id="m-desc" name="descricao" value="${texto(v.descricao)}" required>${erro('descricao')}</div>
    <div class="campo"><label for="m-ciclo">Ciclo (opcional)</label>
      <select id="m-ciclo" name="cicloid"><option value="">—</option>${o.ciclos.map((c) => opcao(c.id, c.nome, v.cicloid))}</select>${erro('cicloid')}</div>
    <div class="campo"><label for="m-arquivo">Comprovante (PDF, PNG ou JPEG, até 10 MiB)</label>
      ${
        falha.comprovante === null
          ? ''
          : html`<p class="arquivo-enviado" id="m-arquivo-enviado">Comprovante já enviado: <strong>${falha.comprovante.nome}</strong>. Ele será registrado com o pagamento; escolha outro arquivo só para trocá-lo.</p>
      <input type="hidden" name="comprovantePendente" value="${falha.comprovante.referencia}">`
      }
      <input id="m-arquivo" name="arquivo" type="file" accept="application/pdf,image/png,image/jpeg" ${falha.comprovante === null ? '' : html`aria-describedby="m-arquivo-enviado"`}>${erro('arquivo')}</div>
    <button type="submit" class="botao">Registrar</button>
  </form>
  <section aria-labelledby="t-saldos"><h2 id="t-saldos">Saldos</h2>
    ${
      o.saldos.length === 0
        ? html`<p>Nenhuma movimentação ainda.</p>`
        : html`<div class="tabela-rolavel" role="region" aria-label="Saldos" tabindex="0"><table>
      <thead><tr><th scope="col">Pessoa</th><th scope="col">Saldo</th></tr></thead>
      <tbody>${o.saldos.map((s) => html`<tr><td>${s.nome}</td><td>${reais(s.saldoCentavos)}</td></tr>`)}</tbody></table></div>`
    }
  </section>`;
}

/** Closing a cycle, confirmed: what it will debit and credit, and who has not confirmed; `fuso`, the community's zone. */
export function paginaFecharCiclo(p: PreviaDoFechamento, csrf: string | null, fuso: string): Html {
  const voltar = html`<p><a href="/ciclo/${p.ciclo.id}">Voltar ao ciclo</a></p>`;
  if (p.ciclo.fechadoEm !== null)
    return html`<p class="aviso" role="status">Este ciclo já foi fechado em ${instanteBr(p.ciclo.fechadoEm, fuso)}.</p>${voltar}`;
  const n = p.naoConfirmados.length;
  return html`<dl class="totais">
    <dt>Pedidos confirmados</dt><dd>${p.confirmados}</dd>
    <dt>Débitos aos consumidores (pedidos e taxas)</dt><dd>${reais(p.debitosCentavos)}</dd>
    <dt>Créditos a ${p.fornecedores} ${p.fornecedores === 1 ? 'fornecedor' : 'fornecedores'}</dt><dd>${reais(p.creditosCentavos)}</dd>
    <dt>Pedidos sem confirmação, que ficam de fora</dt><dd>${n}</dd>
  </dl>
  ${
    n === 0
      ? ''
      : html`<section aria-labelledby="t-sem-confirmacao"><h2 id="t-sem-confirmacao">Sem confirmação: ficam de fora da entrega e da cobrança</h2>
    <p>${
      p.possivel
        ? `${n === 1 ? 'Este pedido não foi confirmado' : `Estes ${n} pedidos não foram confirmados`} até o fim dos pedidos (${dataBr(p.ciclo.dataPedidoFim)}): não ${n === 1 ? 'será entregue nem cobrado' : 'serão entregues nem cobrados'}, e o que ${n === 1 ? 'ele reservava ficou livre' : 'eles reservavam ficou livre'}.`
        : `Se não ${n === 1 ? 'for confirmado' : 'forem confirmados'} até as 23:59 de ${dataBr(p.ciclo.dataPedidoFim)}, não ${n === 1 ? 'será entregue nem cobrado' : 'serão entregues nem cobrados'}.`
    }</p>
    <ul class="cartoes">${p.naoConfirmados.map((x) => html`<li class="cartao"><a href="/pedidoconsumidoresconfirmacao/${x.pedidoId}">${x.nome}</a> · ${reais(x.totalComTaxaCentavos)}</li>`)}</ul></section>`
  }
  ${
    p.possivel
      ? html`<form method="post" action="/fecharciclo/${p.ciclo.id}" class="formulario">${campoCsrf(csrf)}
      <p>Fechar lança essas movimentações e trava o ciclo: ofertas, composições, pedidos e datas não mudam mais.</p>
      <button type="submit" class="botao">Fechar ciclo e lançar as movimentações</button></form>`
      : html`<p class="nota">O ciclo só pode ser fechado depois do fim dos pedidos (${dataBr(p.ciclo.dataPedidoFim)}).</p>`
  }
  ${voltar}`;
}
