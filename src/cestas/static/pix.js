// The Pix copy-and-paste code: a "Copiar código Pix" button that says "Código copiado", and a tap
// on the code that selects it all. Without this script the button stays hidden and the code can
// still be selected and copied by hand.
for (const botao of document.querySelectorAll('button[data-copiar]')) {
  const codigo = document.getElementById(botao.dataset.copiar);
  const aviso = botao.parentElement?.querySelector('[data-copiado]');
  if (!(codigo instanceof HTMLTextAreaElement)) continue;
  const selecionar = () => codigo.setSelectionRange(0, codigo.value.length);
  codigo.addEventListener('focus', selecionar);
  codigo.addEventListener('click', selecionar);
  const dizer = (texto) => {
    if (aviso) aviso.textContent = texto;
  };
  botao.hidden = false;
  botao.addEventListener('click', async () => {
    try {
      // The clipboard API needs a secure context (https or localhost); execCommand covers the rest.
      if (navigator.clipboard) await navigator.clipboard.writeText(codigo.value);
      else {
        codigo.focus();
        selecionar();
        if (!document.execCommand('copy')) throw new Error('cópia recusada');
      }
      dizer('Código copiado.');
    } catch {
      codigo.focus();
      selecionar();
      dizer('Não deu para copiar sozinho: o código está selecionado, copie pelo menu do celular.');
    }
  });
}
