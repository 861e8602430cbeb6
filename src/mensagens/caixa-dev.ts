/**
 * Development only: a real SMTP server that keeps every message it receives, and a page that lists
 * them and shows each one as its reader would see it. `npm start` runs both, so a newcomer sees
 * the e-mails their actions cause with no set-up. Never started in production (servicos.ts).
 */
import { createServer, type Server } from 'node:http';
import { SMTPServer } from 'smtp-server';
import { simpleParser } from 'mailparser';
import { instanteBr } from '../formatos.ts';
import { html } from '../http/html.ts';

interface Recebida {
  readonly n: number;
  readonly em: Date;
  readonly de: string;
  readonly para: string;
  readonly assunto: string;
  readonly texto: string;
  readonly html: string | null;
  readonly cabecalhos: ReadonlyArray<readonly [string, string]>;
}

/** Messages kept, newest last; older ones are dropped. */
const MAXIMO = 500;

export interface CaixaDev {
  readonly smtp: string;
  readonly pagina: string;
  fechar(): Promise<void>;
}

/** `fuso`: the community's time zone (config TZ), in which the page says when each message arrived. */
export async function iniciarCaixaDev(
  host: string,
  portaSmtp: number,
  portaPagina: number,
  fuso: string,
): Promise<CaixaDev> {
  const recebidas: Recebida[] = [];
  let proximo = 1;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    banner: 'Cestaria: caixa de e-mails de desenvolvimento',
    logger: false,
    onData(stream, _sessao, pronto) {
      simpleParser(stream).then(
        (m) => {
          const para = Array.isArray(m.to) ? m.to.map((t) => t.text).join(', ') : (m.to?.text ?? '');
          recebidas.push({
            n: proximo++,
            em: new Date(),
            de: m.from?.text ?? '',
            para,
            assunto: m.subject ?? '(sem assunto)',
            texto: m.text ?? '',
            html: typeof m.html === 'string' ? m.html : null,
            cabecalhos: [...m.headers.entries()]
              .filter(([k]) => k.startsWith('list-'))
              .map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as const),
          });
          if (recebidas.length > MAXIMO) recebidas.shift();
          pronto();
        },
        (e: unknown) => pronto(e instanceof Error ? e : new Error(String(e))),
      );
    },
  });
  await new Promise<void>((ok, falha) => {
    smtp.once('error', falha);
    smtp.listen(portaSmtp, host, () => ok());
  });

  const quando = (r: Recebida) => instanteBr(r.em.toISOString(), fuso);
  // The port it listens on (the one asked for, or the system's pick for 0).
  const portaDoSmtp = () => {
    const endereco = smtp.server.address();
    return typeof endereco === 'object' && endereco !== null ? endereco.port : portaSmtp;
  };
  const pagina: Server = createServer((req, res) => {
    const caminho = new URL(req.url ?? '/', 'http://x').pathname;
    const cabecalhos = {
      'content-type': 'text/html; charset=utf-8',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    };
    const corpoHtml = /^\/m\/(\d+)\/corpo$/.exec(caminho);
    if (corpoHtml !== null) {
      const m = recebidas.find((r) => r.n === Number(corpoHtml[1]));
      // The message's own HTML, in a sandbox: no scripts, no forms, nothing from elsewhere.
      res.writeHead(m?.html == null ? 404 : 200, {
        ...cabecalhos,
        'content-security-policy': "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:",
      });
      res.end(m?.html ?? 'Sem versão HTML.');
      return;
    }
    const uma = /^\/m\/(\d+)$/.exec(caminho);
    const m = uma === null ? undefined : recebidas.find((r) => r.n === Number(uma[1]));
    res.writeHead(uma !== null && m === undefined ? 404 : 200, {
      ...cabecalhos,
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'",
    });
    // Long subjects and addresses wrap; on a phone each message is a block, its subject first.
    const estilo =
      'body{font-family:system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem;color:#1d1d1b;overflow-wrap:anywhere}table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:.4rem;border-bottom:1px solid #ddd;vertical-align:top}td:first-child{white-space:nowrap}h1{font-size:1.6rem}iframe{width:100%;height:70vh;border:1px solid #ccc}pre{white-space:pre-wrap;background:#f6f5ef;padding:1rem}a{color:#1f5c2e}' +
      '@media (max-width:40rem){thead{position:absolute;width:1px;height:1px;overflow:hidden;clip-path:inset(50%)}tr{display:flex;flex-direction:column;padding:.5rem 0;border-bottom:1px solid #ddd}td{display:block;border:0;padding:.1rem 0}td:nth-child(3){order:-1;font-weight:600}td:nth-child(-n+2){font-size:.9rem;color:#4a4a45}}';
    if (m !== undefined) {
      res.end(
        html`<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${m.assunto}</title><style>${estilo}</style></head><body>
        <p><a href="/">← Todos os e-mails</a></p><h1>${m.assunto}</h1>
        <p>De ${m.de}<br>Para ${m.para}<br>${quando(m)}</p>
        ${m.cabecalhos.length === 0 ? '' : html`<p>${m.cabecalhos.map(([k, v]) => html`<code>${k}: ${v}</code><br>`)}</p>`}
        ${m.html === null ? '' : html`<iframe title="O e-mail como chega" src="/m/${m.n}/corpo" sandbox></iframe>`}
        <h2>Texto</h2><pre>${m.texto}</pre></body></html>`.texto,
      );
      return;
    }
    if (uma !== null) {
      res.end(
        '<!doctype html><html lang="pt-BR"><meta charset="utf-8"><title>Não encontrado</title><p>E-mail não encontrado. <a href="/">Voltar</a></p></html>',
      );
      return;
    }
    res.end(
      html`<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>E-mails de desenvolvimento · Cestaria</title><style>${estilo}</style></head><body>
      <h1>E-mails de desenvolvimento</h1>
      <p>O que a Cestaria enviou desde que o serviço começou (SMTP em ${host}:${portaDoSmtp()}). Recarregue para ver os novos.</p>
      ${
        recebidas.length === 0
          ? html`<p>Nenhum e-mail ainda.</p>`
          : html`<table><thead><tr><th>Quando</th><th>Para</th><th>Assunto</th></tr></thead><tbody>
        ${[...recebidas].reverse().map((r) => html`<tr><td>${quando(r)}</td><td>${r.para}</td><td><a href="/m/${r.n}">${r.assunto}</a></td></tr>`)}
      </tbody></table>`
      }</body></html>`.texto,
    );
  });
  await new Promise<void>((ok, falha) => {
    pagina.once('error', falha);
    pagina.listen(portaPagina, host, () => ok());
  });
  const enderecoPagina = pagina.address();
  const porta = typeof enderecoPagina === 'object' && enderecoPagina !== null ? enderecoPagina.port : portaPagina;
  const portaReal = portaDoSmtp();
  return {
    smtp: `smtp://${host}:${portaReal}`,
    pagina: `http://${['0.0.0.0', '127.0.0.1', '::', '::1'].includes(host) ? 'localhost' : host}:${porta}`,
    async fechar() {
      await new Promise<void>((ok) => pagina.close(() => ok()));
      await new Promise<void>((ok) => smtp.close(() => ok()));
    },
  };
}
