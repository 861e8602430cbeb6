import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

/** A message as it arrived at the SMTP server, parsed as a mail program would. */
export interface Chegada {
  readonly para: string;
  readonly de: string;
  readonly assunto: string;
  readonly texto: string;
  readonly html: string;
  /** Each header as it was written (lower-case name → value), e.g. list-unsubscribe. */
  readonly cabecalhos: ReadonlyMap<string, string>;
  /**
   * The attached files; an image the HTML shows (`cid:`) is `embutido`, and mailparser puts it
   * back into `html` as a data: URI, as a mail program shows it.
   */
  readonly anexos: ReadonlyArray<{
    readonly tipo: string;
    readonly cid: string | null;
    readonly embutido: boolean;
    readonly conteudo: Buffer;
  }>;
}

function cabecalhos(m: ParsedMail): Map<string, string> {
  return new Map(
    m.headerLines.map((h) => [
      h.key,
      h.line
        .slice(h.line.indexOf(':') + 1)
        .replace(/\r?\n\s+/g, ' ')
        .trim(),
    ]),
  );
}

/**
 * A real SMTP server for tests: it keeps every message it accepts, parsed by mailparser. `falhar`
 * makes it answer every message with a temporary error (an outage the sender must survive).
 */
export class CaixaDeTeste {
  readonly chegadas: Chegada[] = [];
  falhar = false;
  #servidor: SMTPServer;
  #porta = 0;

  private constructor() {
    this.#servidor = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData: (stream, _sessao, pronto) => {
        if (this.falhar) {
          stream.resume();
          stream.on('end', () =>
            pronto(Object.assign(new Error('Serviço indisponível, tente mais tarde'), { responseCode: 451 })),
          );
          return;
        }
        simpleParser(stream).then(
          (m) => {
            this.chegadas.push({
              para: Array.isArray(m.to) ? m.to.map((t) => t.text).join(', ') : (m.to?.text ?? ''),
              de: (m.from?.value ?? []).map((a) => `${a.name} <${a.address ?? ''}>`).join(', '),
              assunto: m.subject ?? '',
              texto: m.text ?? '',
              html: typeof m.html === 'string' ? m.html : '',
              cabecalhos: cabecalhos(m),
              anexos: m.attachments.map((a) => ({
                tipo: a.contentType,
                cid: a.cid ?? null,
                embutido: a.related === true && a.contentDisposition === 'inline',
                conteudo: a.content,
              })),
            });
            pronto();
          },
          (e: unknown) => pronto(e instanceof Error ? e : new Error(String(e))),
        );
      },
    });
  }

  static async iniciar(): Promise<CaixaDeTeste> {
    const c = new CaixaDeTeste();
    await new Promise<void>((ok, falha) => {
      c.#servidor.once('error', falha);
      c.#servidor.listen(0, '127.0.0.1', () => ok());
    });
    const endereco = c.#servidor.server.address();
    c.#porta = typeof endereco === 'object' && endereco !== null ? endereco.port : 0;
    return c;
  }

  get url(): string {
    return `smtp://127.0.0.1:${this.#porta}`;
  }

  /** The messages to one address. */
  para(email: string): Chegada[] {
    return this.chegadas.filter((c) => c.para.includes(email));
  }

  /** Waits until at least `n` messages arrived in all (or fails after `ms`). */
  async esperar(n: number, ms = 10_000): Promise<Chegada[]> {
    const fim = Date.now() + ms;
    while (this.chegadas.length < n) {
      if (Date.now() > fim) throw new Error(`esperava ${n} e-mails, chegaram ${this.chegadas.length}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.chegadas;
  }

  limpar(): void {
    this.chegadas.length = 0;
  }

  fechar(): Promise<void> {
    return new Promise((ok) => this.#servidor.close(() => ok()));
  }
}
