/**
 * A small HTTP client for the bench's logins: a cookie jar per host, manual redirects, and a
 * chosen source address on the loopback range. The login limits count attempts per client
 * address (100 per 15 minutes on Cestas, 5 on Mercados), as they should for a community behind
 * many networks; spreading the logins over 127.0.1.x and 127.0.2.x is what a crowd of people
 * looks like to the server.
 */
import { request } from 'node:http';

export interface Resposta {
  readonly status: number;
  readonly url: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly texto: string;
}

export class Cliente {
  readonly #jarra = new Map<string, Map<string, string>>();
  readonly #origem: string;

  constructor(origem: string) {
    this.#origem = origem;
  }

  cookie(url: string, nome: string): string | undefined {
    return this.#jarra.get(new URL(url).host)?.get(nome);
  }

  #guardar(url: URL, setCookie: string[] | undefined): void {
    const m = this.#jarra.get(url.host) ?? new Map<string, string>();
    this.#jarra.set(url.host, m);
    for (const linha of setCookie ?? []) {
      const par = linha.split(';')[0] ?? '';
      const i = par.indexOf('=');
      const nome = par.slice(0, i).trim();
      const valor = par.slice(i + 1);
      if (valor === '' || /max-age=0/i.test(linha) || /expires=Thu, 01 Jan 1970/i.test(linha)) m.delete(nome);
      else m.set(nome, valor);
    }
  }

  /** One request, no redirects. `localhost` is dialled as 127.0.0.1, where every face listens. */
  pedir(metodo: string, endereco: string, corpo?: { tipo: string; dados: string }): Promise<Resposta> {
    const url = new URL(endereco);
    const cookies = [...(this.#jarra.get(url.host) ?? new Map<string, string>()).entries()]
      .map(([n, v]) => `${n}=${v}`)
      .join('; ');
    const headers: Record<string, string> = { host: url.host, accept: 'text/html' };
    if (cookies !== '') headers.cookie = cookies;
    if (corpo !== undefined) {
      headers['content-type'] = corpo.tipo;
      headers['content-length'] = String(Buffer.byteLength(corpo.dados));
    }
    return new Promise((resolve, reject) => {
      const req = request(
        {
          method: metodo,
          hostname: url.hostname === 'localhost' ? '127.0.0.1' : url.hostname,
          port: url.port,
          path: `${url.pathname}${url.search}`,
          headers,
          localAddress: this.#origem,
          agent: false,
        },
        (res) => {
          const partes: Buffer[] = [];
          res.on('data', (c: Buffer) => partes.push(c));
          res.on('end', () => {
            this.#guardar(url, res.headers['set-cookie']);
            resolve({
              status: res.statusCode ?? 0,
              url: url.href,
              headers: res.headers,
              texto: Buffer.concat(partes).toString('utf8'),
            });
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(corpo?.dados);
    });
  }

  /** Follows redirects (a POST becomes a GET after 302/303), as a browser does. */
  async seguir(metodo: string, endereco: string, corpo?: { tipo: string; dados: string }): Promise<Resposta> {
    let atual = endereco;
    let met = metodo;
    let c = corpo;
    for (let salto = 0; salto < 20; salto++) {
      const r = await this.pedir(met, atual, c);
      const local = r.headers.location;
      if (r.status < 300 || r.status >= 400 || typeof local !== 'string') return r;
      atual = new URL(local, atual).href;
      met = 'GET';
      c = undefined;
    }
    throw new Error(`redirecionamentos demais a partir de ${endereco}`);
  }
}

/**
 * Logs in through the provider's real login page: `inicio` redirects to the provider, the form
 * is posted, and the redirects lead back through our callback. Returns the named session cookie.
 */
export async function entrarPeloProvedor(
  origem: string,
  inicio: string,
  email: string,
  nomeCookie: string,
): Promise<string> {
  const cliente = new Cliente(origem);
  const pagina = await cliente.seguir('GET', inicio);
  if (pagina.status !== 200 || !/\/interaction\/[^/]+$/.test(new URL(pagina.url).pathname)) {
    throw new Error(
      `login de ${email}: esperava a página do provedor, veio ${pagina.url} (${pagina.status}) ${pagina.texto.slice(0, 200)}`,
    );
  }
  const form = new URLSearchParams({ email, nome: email.split('@')[0] ?? email }).toString();
  const fim = await cliente.seguir('POST', `${pagina.url}/login`, {
    tipo: 'application/x-www-form-urlencoded',
    dados: form,
  });
  const valor = cliente.cookie(inicio, nomeCookie);
  if (valor === undefined || fim.status !== 200)
    throw new Error(`login de ${email} falhou: ${fim.url} (${fim.status}) ${fim.texto.slice(0, 200)}`);
  return `${nomeCookie}=${valor}`;
}

/** Runs `fazer` over the items with at most `paralelo` at a time, keeping the order of results. */
export async function emParalelo<T, R>(
  itens: readonly T[],
  paralelo: number,
  fazer: (item: T, i: number) => Promise<R>,
): Promise<R[]> {
  const saida: R[] = new Array<R>(itens.length);
  let proximo = 0;
  async function trabalhador(): Promise<void> {
    while (proximo < itens.length) {
      const i = proximo++;
      saida[i] = await fazer(itens[i] as T, i);
    }
  }
  await Promise.all(Array.from({ length: Math.min(paralelo, itens.length) }, trabalhador));
  return saida;
}
