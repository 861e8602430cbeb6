/**
 * A minimal browser for tests: a cookie jar per host, manual redirects, form and JSON posts.
 * It talks real HTTP to the real servers, including the development identity provider.
 */
interface Cookie {
  valor: string;
  caminho: string;
}

export interface Resposta {
  readonly status: number;
  readonly url: string;
  readonly headers: Headers;
  readonly texto: string;
  /** The URLs visited, in order, when redirects were followed. */
  readonly caminho: readonly string[];
  json<T = Record<string, unknown>>(): T;
}

type Corpo =
  { json: unknown } | { form: Record<string, string | readonly string[]> } | { bruto: string | Buffer; tipo: string };

export class Navegador {
  readonly #jarra = new Map<string, Map<string, Cookie>>();

  cookies(url: string): Map<string, Cookie> {
    const host = new URL(url).host;
    let m = this.#jarra.get(host);
    if (m === undefined) {
      m = new Map();
      this.#jarra.set(host, m);
    }
    return m;
  }

  cookie(url: string, nome: string): string | undefined {
    return this.cookies(url).get(nome)?.valor;
  }

  definirCookie(url: string, nome: string, valor: string, caminho = '/'): void {
    this.cookies(url).set(nome, { valor, caminho });
  }

  apagarCookie(url: string, nome: string): void {
    this.cookies(url).delete(nome);
  }

  #cabecalhoCookie(url: string): string | undefined {
    const caminho = new URL(url).pathname;
    const pares = [...this.cookies(url).entries()]
      .filter(
        ([, c]) =>
          caminho === c.caminho ||
          caminho.startsWith(c.caminho.endsWith('/') ? c.caminho : `${c.caminho}/`) ||
          c.caminho === '/',
      )
      .map(([n, c]) => `${n}=${c.valor}`);
    return pares.length === 0 ? undefined : pares.join('; ');
  }

  #guardar(url: string, headers: Headers): void {
    for (const linha of headers.getSetCookie()) {
      const [par = '', ...atributos] = linha.split(';').map((s) => s.trim());
      const i = par.indexOf('=');
      const nome = par.slice(0, i);
      const valor = par.slice(i + 1);
      let caminho = '/';
      let expirado = valor === '';
      for (const a of atributos) {
        const [k = '', v = ''] = a.split('=');
        if (k.toLowerCase() === 'path') caminho = v;
        if (k.toLowerCase() === 'max-age' && Number(v) <= 0) expirado = true;
        if (k.toLowerCase() === 'expires' && new Date(v).getTime() < Date.now()) expirado = true;
      }
      if (expirado) this.cookies(url).delete(nome);
      else this.cookies(url).set(nome, { valor, caminho });
    }
  }

  async requisitar(
    metodo: string,
    url: string,
    opcoes: { corpo?: Corpo; headers?: Record<string, string>; seguir?: boolean } = {},
  ): Promise<Resposta> {
    const caminho: string[] = [];
    let atual = url;
    let met = metodo;
    let corpo = opcoes.corpo;
    for (let salto = 0; salto < 25; salto++) {
      caminho.push(atual);
      const headers: Record<string, string> = { ...(opcoes.headers ?? {}) };
      const c = this.#cabecalhoCookie(atual);
      if (c !== undefined) headers.cookie = c;
      let body: string | Uint8Array<ArrayBuffer> | undefined;
      if (corpo !== undefined && met !== 'GET') {
        if ('json' in corpo) {
          headers['content-type'] ??= 'application/json';
          body = JSON.stringify(corpo.json);
        } else if ('form' in corpo) {
          headers['content-type'] ??= 'application/x-www-form-urlencoded';
          const p = new URLSearchParams();
          for (const [k, v] of Object.entries(corpo.form))
            for (const item of typeof v === 'string' ? [v] : v) p.append(k, item);
          body = p.toString();
        } else {
          headers['content-type'] ??= corpo.tipo;
          body = typeof corpo.bruto === 'string' ? corpo.bruto : new Uint8Array(corpo.bruto);
        }
      }
      const res = await fetch(atual, { method: met, headers, body, redirect: 'manual' });
      this.#guardar(atual, res.headers);
      const local = res.headers.get('location');
      if (opcoes.seguir !== false && local !== null && res.status >= 300 && res.status < 400) {
        await res.arrayBuffer();
        atual = new URL(local, atual).href;
        if (res.status !== 307 && res.status !== 308) {
          met = 'GET';
          corpo = undefined;
        }
        continue;
      }
      const texto = await res.text();
      return {
        status: res.status,
        url: atual,
        headers: res.headers,
        texto,
        caminho,
        json<T>() {
          return JSON.parse(texto) as T;
        },
      };
    }
    throw new Error(`redirecionamentos demais a partir de ${url}`);
  }

  get(url: string, opcoes: { headers?: Record<string, string>; seguir?: boolean } = {}): Promise<Resposta> {
    return this.requisitar('GET', url, opcoes);
  }

  getJson(url: string): Promise<Resposta> {
    return this.requisitar('GET', url, { headers: { accept: 'application/json' } });
  }

  post(
    url: string,
    corpo: Corpo,
    opcoes: { headers?: Record<string, string>; seguir?: boolean } = {},
  ): Promise<Resposta> {
    return this.requisitar('POST', url, { ...opcoes, corpo });
  }

  postJson(url: string, json: unknown, headers: Record<string, string> = {}): Promise<Resposta> {
    return this.requisitar('POST', url, { corpo: { json }, headers: { accept: 'application/json', ...headers } });
  }
}

/** The CSRF token a page embeds in its forms. */
export function tokenCsrf(pagina: string): string {
  const m = /name="_csrf" value="([^"]+)"/.exec(pagina);
  if (m?.[1] === undefined) throw new Error('a página não tem token CSRF');
  return m[1];
}

/**
 * Logs in through the development provider's real login page: visit `inicio`, follow the
 * redirects to the provider, submit the form, follow the redirects back.
 */
export async function entrarPeloProvedor(
  nav: Navegador,
  inicio: string,
  pessoa: { email: string; nome?: string; sub?: string; naoVerificado?: boolean },
): Promise<Resposta> {
  const login = await nav.get(inicio);
  if (!/\/interaction\/[^/]+$/.test(new URL(login.url).pathname)) {
    throw new Error(`esperava a página de login do provedor, veio ${login.url} (${login.status})`);
  }
  const form: Record<string, string> = {
    email: pessoa.email,
    nome: pessoa.nome ?? pessoa.email.split('@')[0] ?? 'Pessoa',
  };
  if (pessoa.sub !== undefined) form.sub = pessoa.sub;
  if (pessoa.naoVerificado === true) form.verificado = 'nao';
  return nav.post(`${login.url}/login`, { form });
}

/**
 * Logs in at the provider but stops before our callback: returns the callback address the
 * provider redirected to, so a test can tamper with it, replay it or use it from elsewhere.
 */
export async function ateOCallback(
  nav: Navegador,
  inicio: string,
  prefixoCallback: string,
  email: string,
): Promise<string> {
  const login = await nav.get(inicio);
  const r = await nav.post(`${login.url}/login`, { form: { email, nome: 'X' } }, { seguir: false });
  let local = new URL(r.headers.get('location') ?? '', login.url).href;
  for (let i = 0; i < 5 && !local.startsWith(prefixoCallback); i++) {
    const passo = await nav.get(local, { seguir: false });
    local = new URL(passo.headers.get('location') ?? '', local).href;
  }
  if (!local.startsWith(prefixoCallback)) throw new Error(`o provedor não levou ao callback: ${local}`);
  return local;
}

/** The attributes of one HTML start tag, names in lower case (values as written, entities left alone). */
function atributos(tag: string): Map<string, string> {
  const m = new Map<string, string>();
  for (const a of tag.matchAll(/([\w:.-]+)\s*=\s*"([^"]*)"/g)) m.set((a[1] ?? '').toLowerCase(), a[2] ?? '');
  return m;
}

/**
 * What a page's `form.submit()` sends: a post of the form with this id to its action, with the
 * hidden fields inside it or naming it in their `form` attribute, as a browser would.
 */
export function enviarFormulario(nav: Navegador, pagina: Resposta, id: string): Promise<Resposta> {
  const abre = [...pagina.texto.matchAll(/<form\b[^>]*>/g)].find((m) => atributos(m[0]).get('id') === id);
  if (abre === undefined) throw new Error(`a página ${pagina.url} não tem o formulário ${id}`);
  const fecha = pagina.texto.indexOf('</form>', abre.index);
  const campos: Record<string, string[]> = {};
  for (const m of pagina.texto.matchAll(/<input\b[^>]*>/g)) {
    const a = atributos(m[0]);
    const dentro = m.index > abre.index && m.index < fecha;
    const nome = a.get('name');
    if (nome === undefined || !(dentro || a.get('form') === id)) continue;
    (campos[nome] ??= []).push(a.get('value') ?? '');
  }
  const acao = new URL(atributos(abre[0]).get('action') ?? '', pagina.url).href;
  return nav.post(acao, { form: campos });
}

/**
 * Where the provider at `idp` takes this browser when `inicio` sends it there to log in: the
 * authorization request, and where it ends, the provider's login form (`/interaction/…`) or
 * straight back to the application (a silent login, stopped before the callback is visited).
 */
export async function aondeOProvedorLeva(
  nav: Navegador,
  inicio: string,
  idp: string,
): Promise<{ autorizacao: URL; destino: URL }> {
  const ida = await nav.get(inicio, { seguir: false });
  const autorizacao = new URL(ida.headers.get('location') ?? '', inicio);
  if (autorizacao.origin !== idp) throw new Error(`esperava ir ao provedor, foi a ${autorizacao.href}`);
  let local = autorizacao.href;
  for (let i = 0; i < 5 && local.startsWith(idp) && !/\/interaction\/[^/]+$/.test(new URL(local).pathname); i++) {
    const passo = await nav.get(local, { seguir: false });
    local = new URL(passo.headers.get('location') ?? '', local).href;
  }
  return { autorizacao, destino: new URL(local) };
}
