import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Configuration, KoaContextWithOIDC } from 'oidc-provider';
import { EMAIL } from '../domain/textos.ts';
import { confiavel, escapar, html, type Html } from '../http/html.ts';

/**
 * Development identity provider: a real OpenID provider (oidc-provider) whose login page lets
 * anyone sign in as any e-mail and name, with one click per demo user. Never used in production.
 */
export interface ClienteDev {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUris: readonly string[];
  readonly postLogoutRedirectUris: readonly string[];
}

export interface PessoaDemo {
  readonly email: string;
  readonly nome: string;
  readonly papel: string;
}

interface Conta {
  readonly email: string;
  readonly name: string;
  /** Always true from the login page; a form field can say otherwise, to try a refusal. */
  readonly verificado: boolean;
}

export interface ProvedorDev {
  readonly issuer: string;
  /** Registers the clients (known once the faces listen) and starts answering. */
  ativar(clientes: readonly ClienteDev[], demos: readonly PessoaDemo[]): void;
  fechar(): Promise<void>;
}

/** The subject is stable per e-mail, unless a login names one explicitly. */
export function subDoEmail(email: string): string {
  return `dev-${createHash('sha256').update(email.trim().toLowerCase()).digest('hex').slice(0, 24)}`;
}

const LIMITE_FORM = 16 * 1024;

function lerFormulario(req: IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let tamanho = 0;
    const partes: Buffer[] = [];
    req.on('data', (c: Buffer) => {
      tamanho += c.length;
      if (tamanho > LIMITE_FORM) {
        reject(new Error('formulário grande demais'));
        req.destroy();
        return;
      }
      partes.push(c);
    });
    req.on('end', () => resolve(new URLSearchParams(Buffer.concat(partes).toString('utf8'))));
    req.on('error', reject);
  });
}

function pagina(titulo: string, corpo: Html): string {
  return html`<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>${titulo}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:32rem;margin:0 auto;padding:1rem;color:#1c1c1c;background:#f4f6fb}
h1{font-size:1.3rem}label{display:block;font-weight:600;margin-top:.75rem}
input{font:inherit;width:100%;padding:.6rem;border:1px solid #889;border-radius:6px;min-height:2.75rem;box-sizing:border-box}
button{font:inherit;font-weight:600;background:#243b7a;color:#fff;border:0;border-radius:6px;padding:.7rem 1rem;margin-top:1rem;min-height:2.75rem;cursor:pointer}
.demo{display:flex;flex-wrap:wrap;gap:.5rem}.demo button{background:#fff;color:#243b7a;border:1px solid #243b7a;margin:0}
.nota{color:#444;font-size:.9rem}:focus-visible{outline:3px solid #f0a500}
</style></head><body><h1>${titulo}</h1>${corpo}</body></html>`.texto;
}

/**
 * The headers of the provider's pages. Forms may end anywhere (`form-action`): a login or a
 * logout is a post here that redirects back to the application. The only script ever allowed is
 * the one named by its hash.
 */
function cabecalhosDePagina(script?: string): Record<string, string> {
  const scriptSrc =
    script === undefined ? '' : ` script-src 'sha256-${createHash('sha256').update(script).digest('base64')}';`;
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'content-security-policy': `default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:;${scriptSrc} form-action 'self' http: https:; frame-ancestors 'none'`,
  };
}

function responderHtml(res: ServerResponse, status: number, corpo: string): void {
  res.writeHead(status, cabecalhosDePagina());
  res.end(corpo);
}

/** Submits the end-session form as soon as the page is read (allowed by its hash, nothing else). */
const ENVIAR_SAIDA = "document.getElementById('op.logoutForm').submit();";

/**
 * Whether an application asked for this logout on the person's behalf: its request carried an
 * ID token it was issued (oidc-provider has already checked the signature, the issuer and that the
 * audience is a registered client, or refused the request) for the account signed in here. Then the
 * provider ends its session without asking, as the application's "Sair" means. Without the hint,
 * or with the token of someone else, the page asks.
 */
function saidaPedidaPeloCliente(ctx: KoaContextWithOIDC): boolean {
  const dica = ctx.oidc.entities.IdTokenHint;
  const conta = ctx.oidc.session?.accountId;
  return dica !== undefined && ctx.oidc.client !== undefined && conta !== undefined && dica.payload.sub === conta;
}

function paginaLogin(uid: string, demos: readonly PessoaDemo[], erro?: string): string {
  const acao = `/interaction/${encodeURIComponent(uid)}/login`;
  return pagina(
    'Entrar (provedor de desenvolvimento)',
    html`<p class="nota">Provedor de login de desenvolvimento: qualquer e-mail entra, sem senha.</p>
    ${erro === undefined ? '' : html`<p role="alert" style="color:#a30d0d;font-weight:600">${erro}</p>`}
    <form method="post" action="${acao}">
      <label for="email">E-mail</label><input id="email" name="email" type="email" required autocomplete="email">
      <label for="nome">Nome</label><input id="nome" name="nome" autocomplete="name">
      <details><summary>Avançado</summary>
        <label for="sub">Identificador (sub) fixo, opcional</label><input id="sub" name="sub">
      </details>
      <button type="submit">Entrar</button>
    </form>
    ${
      demos.length === 0
        ? ''
        : html`<h2 style="font-size:1.1rem">Pessoas de demonstração</h2><div class="demo">${demos.map(
            (d) => html`<form method="post" action="${acao}"><input type="hidden" name="email" value="${d.email}">
        <input type="hidden" name="nome" value="${d.nome}"><button type="submit">${d.nome} (${d.papel})</button></form>`,
          )}</div>`
    }
    <p><a href="/interaction/${encodeURIComponent(uid)}/abort">Cancelar</a></p>`,
  );
}

function avatar(sub: string, conta: Conta | undefined): string {
  const iniciais = (conta?.name ?? '?')
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((p) => p[0]?.toUpperCase() ?? '')
    .join('');
  const cor = `#${createHash('sha256').update(sub).digest('hex').slice(0, 6)}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96"><rect width="96" height="96" fill="${cor}"/><text x="48" y="60" font-family="sans-serif" font-size="38" fill="#fff" text-anchor="middle">${escapar(iniciais)}</text></svg>`;
}

/** Listens on the port first (so the issuer address is known), then waits for `ativar`. */
export async function iniciarProvedorDev(host: string, porta: number): Promise<ProvedorDev> {
  // Loaded here, not at the top: only development ever runs this provider, and the package with
  // its dependencies costs ~19 MB of memory that production processes should not carry.
  const { default: Provider } = await import('oidc-provider');
  let tratador: ((req: IncomingMessage, res: ServerResponse) => void) | null = null;
  const servidor: Server = createServer((req, res) => {
    if (tratador === null) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' }).end('Provedor iniciando');
      return;
    }
    tratador(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    servidor.once('error', reject);
    servidor.listen(porta, host, () => resolve());
  });
  const issuer = `http://localhost:${(servidor.address() as AddressInfo).port}`;
  const contas = new Map<string, Conta>();

  function ativar(clientes: readonly ClienteDev[], demos: readonly PessoaDemo[]): void {
    const chave = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' });
    const configuracao: Configuration = {
      clients: clientes.map((c) => ({
        client_id: c.clientId,
        client_secret: c.clientSecret,
        redirect_uris: [...c.redirectUris],
        post_logout_redirect_uris: [...c.postLogoutRedirectUris],
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      })),
      jwks: { keys: [{ ...chave, kid: randomBytes(8).toString('hex'), alg: 'RS256', use: 'sig' }] },
      cookies: { keys: [randomBytes(32).toString('base64url')] },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
      // Put the profile claims in the ID token too, as most hosted providers do.
      conformIdTokenClaims: false,
      ttl: {
        AccessToken: 3600,
        AuthorizationCode: 60,
        IdToken: 3600,
        Interaction: 3600,
        Grant: 14 * 86400,
        Session: 14 * 86400,
      },
      features: {
        devInteractions: { enabled: false },
        rpInitiatedLogout: {
          enabled: true,
          logoutSource(ctx, form) {
            const automatica = saidaPedidaPeloCliente(ctx);
            ctx.set(cabecalhosDePagina(automatica ? ENVIAR_SAIDA : undefined));
            if (automatica) {
              // NOTE: ending the session takes a post of this form (it carries the provider's
              // XSRF token; nothing else ends it), and only a script can post without a click.
              // Without JavaScript the button below does it; the application's own mark makes
              // the next login ask for the person again even if nobody presses it.
              ctx.body = pagina(
                'Saindo',
                html`${confiavel(form)}<input type="hidden" form="op.logoutForm" name="logout" value="yes">
                <p>Encerrando a sessão no provedor de login…</p>
                <noscript><button form="op.logoutForm" type="submit">Sair do provedor de login</button></noscript>
                <script>${confiavel(ENVIAR_SAIDA)}</script>`,
              );
              return;
            }
            ctx.body = pagina(
              'Sair',
              html`${confiavel(form)}<p>Deseja sair também do provedor de login?</p>
              <button form="op.logoutForm" name="logout" value="yes" type="submit">Sair</button>`,
            );
          },
          postLogoutSuccessSource(ctx) {
            ctx.type = 'html';
            ctx.body = pagina('Você saiu', html`<p>Sessão encerrada no provedor de login.</p>`);
          },
        },
      },
      interactions: { url: (_ctx, interacao) => `/interaction/${interacao.uid}` },
      async findAccount(_ctx, sub) {
        const conta = contas.get(sub);
        if (conta === undefined) return undefined;
        return {
          accountId: sub,
          claims: () => ({
            sub,
            email: conta.email,
            email_verified: conta.verificado,
            name: conta.name,
            picture: `${issuer}/avatar/${sub}.svg`,
          }),
        };
      },
      // First-party clients only: grant the requested scopes without a consent screen.
      async loadExistingGrant(ctx: KoaContextWithOIDC) {
        const { client, session, provider } = ctx.oidc;
        if (client === undefined || session === undefined || session.accountId === undefined) return undefined;
        const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
        if (grantId !== undefined) {
          const existente = await provider.Grant.find(grantId);
          if (existente !== undefined) return existente;
        }
        const grant = new provider.Grant({ clientId: client.clientId, accountId: session.accountId });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        return grant;
      },
      renderError(ctx, saida) {
        ctx.type = 'html';
        ctx.body = pagina('Erro no login', html`<p role="alert">${saida.error_description ?? saida.error}</p>`);
      },
    };
    const provedor = new Provider(issuer, configuracao);
    const oidc = provedor.callback();

    tratador = (req, res) => {
      const url = new URL(req.url ?? '/', issuer);
      const interacao = /^\/interaction\/([^/]+)(\/login|\/abort)?$/.exec(url.pathname);
      const foto = /^\/avatar\/([\w-]+)\.svg$/.exec(url.pathname);
      if (foto?.[1] !== undefined && req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'public, max-age=3600' });
        res.end(avatar(foto[1], contas.get(foto[1])));
        return;
      }
      if (interacao === null) {
        void oidc(req, res);
        return;
      }
      void (async () => {
        const detalhes = await provedor.interactionDetails(req, res);
        if (interacao[2] === '/abort') {
          await provedor.interactionFinished(
            req,
            res,
            { error: 'access_denied', error_description: 'Login cancelado' },
            { mergeWithLastSubmission: false },
          );
        } else if (interacao[2] === '/login' && req.method === 'POST') {
          const form = await lerFormulario(req);
          const email = (form.get('email') ?? '').trim();
          if (email.length > 254 || !EMAIL.test(email)) {
            responderHtml(res, 400, paginaLogin(detalhes.uid, demos, 'Informe um e-mail válido.'));
            return;
          }
          const nome = (form.get('nome') ?? '').trim() || email.split('@')[0] || email;
          const sub = (form.get('sub') ?? '').trim() || subDoEmail(email);
          contas.set(sub, { email, name: nome.slice(0, 120), verificado: form.get('verificado') !== 'nao' });
          await provedor.interactionFinished(
            req,
            res,
            { login: { accountId: sub } },
            { mergeWithLastSubmission: false },
          );
        } else {
          responderHtml(res, 200, paginaLogin(detalhes.uid, demos));
        }
      })().catch((e: unknown) => {
        if (res.headersSent) return;
        const mensagem =
          e instanceof Error && e.name === 'SessionNotFound'
            ? 'Este login expirou. Volte ao aplicativo e tente de novo.'
            : 'Falha no login.';
        responderHtml(res, 400, pagina('Erro no login', html`<p role="alert">${mensagem}</p>`));
      });
    };
  }

  return {
    issuer,
    ativar,
    fechar: () =>
      new Promise<void>((resolve) => {
        servidor.closeAllConnections();
        servidor.close(() => resolve());
      }),
  };
}
