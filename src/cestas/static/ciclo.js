// Adds and removes rows of the cycle's child lists. The form works without this script: spare
// blank rows are always rendered, and clearing a row removes it. With it, the spare rows go (an
// empty list keeps one), since "Adicionar linha" adds more: a refused save shows only what was typed.
for (const lista of document.querySelectorAll('[data-lista]')) {
  const corpo = lista.querySelector('tbody');
  const modelo = lista.querySelector('template');
  const adicionar = lista.querySelector('[data-adicionar]');
  if (!corpo || !modelo || !adicionar) continue;
  const reservas = [...corpo.querySelectorAll('tr[data-reserva]')];
  const preenchidas = corpo.querySelectorAll('tr:not([data-reserva])').length;
  for (const r of reservas.slice(preenchidas === 0 ? 1 : 0)) r.remove();
  // The removed spares' positions are free again: a new row is numbered after those on screen.
  lista.dataset.proximo = String(corpo.rows.length);
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

// The start date warns while it is in the past (and is not the date the cycle already had); the
// server accepts it, so the warning never blocks the save.
for (const campo of document.querySelectorAll('input[data-hoje][data-aviso]')) {
  const aviso = document.getElementById(campo.dataset.aviso ?? '');
  if (!aviso) continue;
  const conferir = () => {
    const passou =
      campo.value !== '' && campo.value < (campo.dataset.hoje ?? '') && campo.value !== campo.dataset.salvo;
    const descricoes = (campo.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .filter((d) => d !== '' && d !== aviso.id);
    if (passou) descricoes.push(aviso.id);
    if (descricoes.length > 0) campo.setAttribute('aria-describedby', descricoes.join(' '));
    else campo.removeAttribute('aria-describedby');
    if (passou === !aviso.hidden) return;
    aviso.hidden = !passou;
    aviso.textContent = passou ? (aviso.dataset.texto ?? '') : '';
  };
  campo.addEventListener('input', conferir);
  campo.addEventListener('change', conferir);
  conferir();
}
