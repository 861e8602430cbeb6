// Adds and removes rows of the cycle's child lists. The form works without this script: spare
// blank rows are always rendered, and clearing a row removes it.
for (const lista of document.querySelectorAll('[data-lista]')) {
  const corpo = lista.querySelector('tbody');
  const modelo = lista.querySelector('template');
  const adicionar = lista.querySelector('[data-adicionar]');
  if (!corpo || !modelo || !adicionar) continue;
  adicionar.hidden = false;
  for (const b of lista.querySelectorAll('[data-remover]')) b.hidden = false;
  adicionar.addEventListener('click', () => {
    const indice = Number(lista.dataset.proximo);
    lista.dataset.proximo = String(indice + 1);
    const novo = modelo.content.cloneNode(true);
    for (const campo of novo.querySelectorAll('[name]')) {
      campo.name = campo.name.replace('__i__', String(indice));
      if (campo.id) campo.id = campo.id.replace('__i__', String(indice));
      const rotulo = campo.getAttribute('aria-label');
      if (rotulo) campo.setAttribute('aria-label', rotulo.replace('nova linha', `linha ${indice + 1}`));
    }
    for (const b of novo.querySelectorAll('[data-remover]')) b.hidden = false;
    corpo.append(novo);
    corpo.lastElementChild?.querySelector('select, input:not([type=hidden])')?.focus();
  });
  corpo.addEventListener('click', (evento) => {
    const alvo = evento.target;
    if (alvo instanceof HTMLElement && alvo.matches('[data-remover]')) alvo.closest('tr')?.remove();
  });
}
