// The coordination's view of the pickup day, kept live while phones sync: every 10 seconds it asks
// the page's JSON whether its version changed (If-None-Match: a 304 when not) and, when it did,
// fetches the page again and swaps the points in place (focus and scroll stay). Without this
// script the page is the same, refreshed by hand. A hidden tab does not ask.
const area = document.getElementById('retirada-pontos');
const estado = document.getElementById('retirada-atualizado');
const novidades = document.getElementById('retirada-novidades');
if (area && estado) {
  const hora = new Intl.DateTimeFormat('pt-BR', {
    timeZone: estado.dataset.fuso || undefined,
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const dizer = (texto) => {
    estado.textContent = texto;
  };
  let ocupado = false;
  const atualizar = async () => {
    if (ocupado || document.hidden) return;
    ocupado = true;
    try {
      const r = await fetch(window.location.pathname, {
        headers: { accept: 'application/json', 'if-none-match': `"${area.dataset.versao ?? ''}"` },
        cache: 'no-store',
      });
      if (r.status === 401) {
        dizer('Sua sessão terminou: recarregue a página para entrar de novo.');
        return;
      }
      // 304: nothing changed since the version on screen; the server's clock says when it looked.
      const quando = r.status === 304 ? new Date(r.headers.get('date') ?? Date.now()) : null;
      if (r.status !== 304 && !r.ok) throw new Error(String(r.status));
      const data = quando === null ? (await r.json()).data : null;
      if (data !== null && data.versao !== area.dataset.versao) {
        const pagina = await fetch(window.location.pathname, { headers: { accept: 'text/html' }, cache: 'no-store' });
        if (!pagina.ok) throw new Error(String(pagina.status));
        const nova = new window.DOMParser()
          .parseFromString(await pagina.text(), 'text/html')
          .getElementById('retirada-pontos');
        if (nova) {
          area.replaceChildren(...nova.childNodes);
          area.dataset.versao = nova.dataset.versao ?? '';
          if (novidades) novidades.textContent = 'Chegaram registros novos da retirada.';
        }
      }
      dizer(
        `Atualizado em ${hora.format(quando ?? new Date(data.geradoEm)).replace(', ', ' às ')}. Esta página se atualiza sozinha a cada 10 segundos.`,
      );
    } catch {
      dizer('Sem conexão com o servidor agora: tentando de novo em 10 segundos.');
    } finally {
      ocupado = false;
    }
  };
  window.setInterval(() => void atualizar(), 10_000);
  document.addEventListener('visibilitychange', () => {
    if (!document.hidden) void atualizar();
  });
}
