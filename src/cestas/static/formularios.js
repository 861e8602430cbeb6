// Progressive enhancement of the offer, composition and order forms: live totals, live
// availability, saving without leaving the page, and no double submits on slow networks. Every
// form works without this script (a plain post answered by a redirect or by the page with the
// messages); the server recomputes everything exactly.
const moeda = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });
const quantidadeBr = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 3 });
const ESPERA_MAXIMA_MS = 60_000;

/** A dot decimal the server wrote into the page (prices, fees, what is left); anything else is zero. */
function numero(texto) {
  const n = Number(String(texto ?? '').trim());
  return Number.isFinite(n) && n > 0 ? n : 0;
}

/**
 * A quantity without the unit a person may write after it ("2,5 kg", "3 maços"), split as the
 * server splits it (Campos.quantidadeEscrita): the number when the word is one of `escritas`, the
 * spellings of the line's unit the page lists; null for any other word (the server refuses it).
 */
function semUnidade(texto, escritas) {
  const t = String(texto ?? '').trim();
  const fim = t.endsWith('.') ? t.length - 1 : t.length;
  let inicio = fim;
  while (inicio > 0 && /\p{L}/u.test(t.charAt(inicio - 1))) inicio--;
  const numero = t.slice(0, inicio);
  if (inicio === fim || !/\d/.test(numero)) return t;
  const palavra = t.slice(inicio, fim).normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return escritas.includes(palavra) ? numero : null;
}

/** A quantity field's value as a number of its unit: a whole number only where the server wants one (baskets). */
function quantidadeDo(campo) {
  if (!campo) return 0;
  if (campo.hasAttribute('data-inteiro')) return /^\d{1,15}$/.test(campo.value.trim()) ? Number(campo.value.trim()) : 0;
  return digitado(semUnidade(campo.value, (campo.dataset.escritas ?? '').split(' ').filter(Boolean)), QUANTIDADE);
}

/**
 * What a person typed, read as the server reads forms (lerDecimalDigitado): "1,5", "1.5",
 * "R$ 12,50", "1.234,56". Dots in groups of three are thousands for money; a quantity's "1.500"
 * is ambiguous and, like anything unreadable, counts as zero here (the server says why on save).
 */
function digitado(texto, escala) {
  const t = String(texto ?? '').replace(/[\s\u00a0]+/g, '').replace(/^R\$/i, '');
  const virgula = /^(\d{1,3}(?:\.\d{3})+|\d+),(\d+)$/.exec(t);
  let canonico = null;
  if (virgula) canonico = `${virgula[1].replaceAll('.', '')}.${virgula[2]}`;
  else if (/^[1-9]\d{0,2}(?:\.\d{3})+$/.test(t)) canonico = escala >= 3 && t.split('.').length === 2 ? null : t.replaceAll('.', '');
  else if (/^\d+(?:\.\d+)?$/.test(t)) canonico = t;
  return canonico === null ? 0 : numero(canonico);
}
const QUANTIDADE = 3;
const DINHEIRO = 2;

function escrever(alvo, valor) {
  if (alvo) alvo.textContent = valor;
}

const PLURAL = new Intl.PluralRules('pt-BR');

/** Writes a live quantity, and the unit beside it (data-singular, data-plural) in the word that agrees: "1,5 dúzia", "2 dúzias". */
function escreverQuantidade(alvo, n) {
  escrever(alvo, quantidadeBr.format(n));
  const palavra = alvo?.nextElementSibling;
  if (palavra?.dataset.singular !== undefined)
    palavra.textContent = PLURAL.select(Math.abs(n)) === 'one' ? palavra.dataset.singular : palavra.dataset.plural;
}

for (const form of document.querySelectorAll('form[data-soma]')) {
  const atualizar = () => {
    let total = 0;
    for (const linha of form.querySelectorAll('[data-linha]')) {
      const sub = quantidadeDo(linha.querySelector('[data-quantidade]')) * digitado(linha.querySelector('[data-preco]')?.value, DINHEIRO);
      total += sub;
      escrever(linha.querySelector('[data-subtotal]'), sub > 0 ? moeda.format(sub) : '');
    }
    escrever(form.querySelector('[data-total]'), moeda.format(total));
  };
  form.addEventListener('input', atualizar);
  atualizar();
}

for (const form of document.querySelectorAll('form[data-pedido]')) {
  const percentual = numero(form.dataset.taxaPercentual);
  const fixa = numero(form.dataset.taxaFixa);
  const atualizar = () => {
    let total = 0;
    for (const linha of form.querySelectorAll('[data-linha]')) total += quantidadeDo(linha.querySelector('[data-quantidade]')) * numero(linha.dataset.preco);
    total = Math.round(total * 100) / 100;
    const taxa = total > 0 ? Math.round(total * percentual) / 100 + fixa : 0;
    escrever(form.querySelector('[data-total]'), moeda.format(total));
    escrever(form.querySelector('[data-taxa]'), moeda.format(taxa));
    escrever(form.querySelector('[data-total-com-taxa]'), moeda.format(total + taxa));
  };
  form.addEventListener('input', atualizar);
  form.addEventListener('change', atualizar);
  atualizar();
}

for (const form of document.querySelectorAll('form[data-composicao]')) {
  const atualizar = () => {
    const cestas = digitado(form.querySelector('[data-cestas]')?.value, 0);
    let custo = 0;
    for (const linha of form.querySelectorAll('[data-linha]')) {
      const opcao = linha.querySelector('[data-unidade]')?.selectedOptions?.[0];
      const fator = numero(opcao?.dataset.fator) || 1;
      const porCesta = quantidadeDo(linha.querySelector('[data-quantidade]')) * fator;
      custo += porCesta * numero(linha.dataset.preco);
      const restante = Math.round((numero(linha.dataset.livre) - porCesta * cestas) * 1000) / 1000;
      const saida = linha.querySelector('[data-disponivel]');
      escreverQuantidade(saida, restante);
      saida?.classList.toggle('negativo', restante < 0);
    }
    escrever(form.querySelector('[data-total]'), moeda.format(custo));
    const diferenca = form.querySelector('[data-diferenca]');
    if (diferenca) {
      const d = Math.round((custo - numero(diferenca.dataset.referencia)) * 100) / 100;
      diferenca.textContent = d > 0 ? ` (${moeda.format(d)} acima)` : d < 0 ? ` (${moeda.format(-d)} abaixo)` : ' (igual)';
      diferenca.classList.toggle('negativo', d > 0);
    }
  };
  form.addEventListener('input', atualizar);
  form.addEventListener('change', atualizar);
  atualizar();
}

// ---- Saving without leaving the page (forms marked data-envio) ----

/** "produtos.3.quantidade" → the control named "produtos[3][quantidade]". */
function campoDaChave(form, chave) {
  const [primeira, ...resto] = chave.split('.');
  const nome = primeira + resto.map((p) => `[${p}]`).join('');
  return form.querySelector(`[name="${window.CSS.escape(nome)}"]:not([type=hidden])`);
}

function limparRetorno(form, retorno) {
  for (const e of form.querySelectorAll('.erro')) e.remove();
  for (const c of form.querySelectorAll('[aria-invalid="true"]')) {
    c.removeAttribute('aria-invalid');
    c.removeAttribute('aria-describedby');
  }
  for (const c of form.querySelectorAll('.com-erro')) c.classList.remove('com-erro');
  retorno.replaceChildren();
  // Messages a no-JavaScript post left on the page are answered now.
  for (const antigo of document.querySelectorAll('[data-falha-do-servidor]')) antigo.remove();
}

function paragrafo(texto, classe) {
  const p = document.createElement('p');
  p.textContent = texto;
  if (classe) p.className = classe;
  return p;
}

/** The error inline: the message on top, each field's message next to its field. */
function mostrarErro(form, retorno, mensagem, detalhes) {
  const caixa = document.createElement('div');
  caixa.className = 'alerta';
  caixa.setAttribute('role', 'alert');
  caixa.tabIndex = -1;
  caixa.append(paragrafo(mensagem));
  const soltas = [];
  let primeiro = null;
  let n = 0;
  for (const [chave, texto] of Object.entries(detalhes ?? {})) {
    if (typeof texto !== 'string') continue;
    const campo = campoDaChave(form, chave);
    if (!campo) {
      soltas.push(texto);
      continue;
    }
    n++;
    const id = `erro-${chave.replace(/[^A-Za-z0-9_-]/g, '-')}`;
    const p = paragrafo(texto, 'erro');
    p.id = id;
    campo.after(p);
    campo.setAttribute('aria-invalid', 'true');
    campo.setAttribute('aria-describedby', id);
    campo.closest('.campo')?.classList.add('com-erro');
    primeiro ??= campo;
  }
  if (n > 0) caixa.append(paragrafo(n === 1 ? 'Corrija o campo marcado.' : `Corrija os ${n} campos marcados.`));
  if (soltas.length > 0) {
    const ul = document.createElement('ul');
    for (const t of soltas) {
      const li = document.createElement('li');
      li.textContent = t;
      ul.append(li);
    }
    caixa.append(ul);
  }
  retorno.replaceChildren(caixa);
  (primeiro ?? caixa).focus();
}

function mostrarSucesso(retorno, mensagem) {
  const p = paragrafo(`${mensagem}.`, 'aviso');
  p.setAttribute('role', 'status');
  p.tabIndex = -1;
  retorno.replaceChildren(p);
  p.focus();
}

/** What changed on the server, shown in place of the old values. */
const DEPOIS_DE_SALVAR = {
  // The offer as every route answers it: `oferta` beside `produtos`.
  oferta(form, { oferta }) {
    const estado = document.querySelector('[data-estado]');
    if (estado) {
      estado.textContent = oferta.finalizada ? 'Oferta finalizada' : 'Rascunho (ainda não finalizada)';
      estado.className = `estado ${oferta.finalizada ? 'finalizada' : 'rascunho'}`;
    }
    escrever(form.querySelector('[data-total]'), moeda.format(oferta.total));
  },
  composicao(form, dados) {
    escrever(form.querySelector('[data-total]'), moeda.format(dados.custoPorCesta));
    for (const o of dados.ofertas ?? []) {
      const linha = form.querySelector(`[data-linha][data-oferta-produto="${o.ofertaProdutoId}"]`);
      escreverQuantidade(linha?.querySelector('[data-alocada]'), o.quantidadeAlocada);
    }
    const lista = document.querySelector('[data-fornecedores]');
    if (lista) {
      lista.replaceChildren(...(dados.fornecedores ?? []).map((f) => {
        const li = document.createElement('li');
        li.textContent = `${f.nome}: ${moeda.format(f.valorAcumulado)}`;
        return li;
      }));
    }
  },
};

for (const form of document.querySelectorAll('form[data-envio]')) {
  const retorno = document.querySelector(`[data-retorno="${form.id}"]`) ?? form.querySelector('[data-retorno]');
  if (!retorno) continue;
  form.addEventListener('submit', async (evento) => {
    evento.preventDefault();
    if (form.dataset.enviando === 'sim') return;
    const botao = evento.submitter instanceof window.HTMLButtonElement ? evento.submitter : form.querySelector('button[type=submit]');
    // formAction falls back to the page's own address when the attribute is absent, not to the form's.
    const destino = botao?.hasAttribute('formaction') ? botao.formAction : form.action;
    const corpo = new window.URLSearchParams(new FormData(form));
    const botoes = [...form.querySelectorAll('button[type=submit]')];
    form.dataset.enviando = 'sim';
    form.setAttribute('aria-busy', 'true');
    for (const b of botoes) b.disabled = true;
    const rotulo = botao?.textContent ?? '';
    if (botao) botao.textContent = 'Salvando…';
    const cancelar = new window.AbortController();
    const limite = setTimeout(() => cancelar.abort(), ESPERA_MAXIMA_MS);
    limparRetorno(form, retorno);
    try {
      const resposta = await fetch(destino, { method: 'POST', body: corpo, headers: { Accept: 'application/json' }, credentials: 'same-origin', signal: cancelar.signal });
      const envelope = await resposta.json().catch(() => null);
      if (!resposta.ok || envelope === null || envelope.success !== true) {
        const mensagem = envelope?.error ?? (resposta.status === 401 ? 'Sua sessão terminou. Entre de novo para salvar.' : `O servidor não conseguiu salvar (erro ${resposta.status}). Tente de novo.`);
        mostrarErro(form, retorno, mensagem, envelope?.details);
        return;
      }
      const depois = form.dataset.envio;
      if (depois === 'pedido') {
        window.location.assign(`/pedidoconsumidoresconfirmacao/${envelope.data.pedidoId}`);
        return;
      }
      if (depois === 'recarregar') {
        window.location.reload();
        return;
      }
      DEPOIS_DE_SALVAR[depois]?.(form, envelope.data);
      mostrarSucesso(retorno, envelope.message);
    } catch {
      mostrarErro(form, retorno, cancelar.signal.aborted
        ? 'O servidor demorou demais para responder. Confira a conexão e tente de novo.'
        : 'Não foi possível falar com o servidor. Confira a conexão e tente de novo.', {});
    } finally {
      window.clearTimeout(limite);
      delete form.dataset.enviando;
      form.removeAttribute('aria-busy');
      if (botao) botao.textContent = rotulo;
      for (const b of botoes) b.disabled = false;
    }
  });
}

// ---- Every other form: one submit at a time, and say that it is on its way ----
for (const form of document.querySelectorAll('form:not([data-envio])')) {
  form.addEventListener('submit', (evento) => {
    if (form.dataset.enviando === 'sim') {
      evento.preventDefault();
      return;
    }
    form.dataset.enviando = 'sim';
    const botao = evento.submitter;
    if (botao instanceof window.HTMLButtonElement) {
      botao.dataset.rotulo = botao.textContent ?? '';
      botao.textContent = 'Enviando…';
    }
    // Disabled after the submit event, so the clicked button's formaction still applies.
    setTimeout(() => {
      for (const b of form.querySelectorAll('button[type=submit]')) b.disabled = true;
    }, 0);
  });
}

// Back from the next page (the browser's page cache): the form can be used again.
window.addEventListener('pageshow', (evento) => {
  if (!evento.persisted) return;
  for (const form of document.querySelectorAll('form[data-enviando]')) {
    delete form.dataset.enviando;
    form.removeAttribute('aria-busy');
    for (const b of form.querySelectorAll('button[type=submit]')) {
      b.disabled = false;
      if (b.dataset.rotulo) b.textContent = b.dataset.rotulo;
    }
  }
});
