import type { SaldoDePessoa } from '../../domain/financeiro.ts';
import { html, type Html } from '../../http/html.ts';
import { campoCsrf } from './layout.ts';
import { mensagemDeErro, reais } from './fluxo.ts';

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
export function paginaMovimentacao(o: OpcoesMovimentacao, csrf: string | null, hoje: string, falha: { erro: string | null; detalhes: Readonly<Record<string, unknown>>; valores: Readonly<Record<string, unknown>> }): Html {
  const v = falha.valores;
  const erro = (k: string) => (typeof falha.detalhes[k] === 'string' ? html`<p class="erro">${String(falha.detalhes[k])}</p>` : '');
  const opcao = (valor: number | string, rotulo: string, atual: unknown) => html`<option value="${valor}" ${String(valor) === texto(atual) ? html`selected` : ''}>${rotulo}</option>`;
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
    <div class="campo"><label for="m-arquivo">Comprovante (PDF, PNG ou JPEG, até 10 MiB)</label><input id="m-arquivo" name="arquivo" type="file" accept="application/pdf,image/png,image/jpeg">${erro('arquivo')}</div>
    <button type="submit" class="botao">Registrar</button>
  </form>
  <section aria-labelledby="t-saldos"><h2 id="t-saldos">Saldos</h2>
    ${o.saldos.length === 0 ? html`<p>Nenhuma movimentação ainda.</p>` : html`<div class="tabela-rolavel" role="region" aria-label="Saldos" tabindex="0"><table>
      <thead><tr><th scope="col">Pessoa</th><th scope="col">Saldo</th></tr></thead>
      <tbody>${o.saldos.map((s) => html`<tr><td>${s.nome}</td><td>${reais(s.saldoCentavos)}</td></tr>`)}</tbody></table></div>`}
  </section>`;
}
