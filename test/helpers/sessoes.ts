import { randomBytes } from 'node:crypto';
import { DURACAO_SESSAO_MS } from '../../src/cestas/sessao.ts';
import type { Perfil } from '../../src/domain/perfis.ts';
import { Cofre } from '../../src/http/cofre.ts';
import { subDoEmail } from '../../src/idp/provedor.ts';
import { criarUsuario, emailUnico } from './fabricas.ts';
import { Navegador, entrarPeloProvedor, tokenCsrf } from './navegador.ts';
import type { AmbienteDeTeste } from './servidor.ts';

export interface Pessoa {
  readonly nav: Navegador;
  readonly id: number | null;
  readonly email: string;
}

/**
 * A logged-in browser (through the real provider) for a new user with these perfis;
 * 'semCadastro' logs in an identity with no Usuario, 'anonimo' is a browser with no session.
 */
export async function entrarComo(
  amb: AmbienteDeTeste,
  perfil: readonly Perfil[] | 'semCadastro' | 'anonimo',
  nome?: string,
): Promise<Pessoa> {
  const nav = new Navegador();
  if (perfil === 'anonimo') return { nav, id: null, email: '' };
  if (perfil === 'semCadastro') {
    const email = emailUnico('sem-cadastro');
    await entrarPeloProvedor(nav, `${amb.url}/`, { email });
    return { nav, id: null, email };
  }
  const u = await criarUsuario(amb.banco, { perfil, nome: nome ?? `Pessoa ${perfil.join('+')}` });
  await entrarPeloProvedor(nav, `${amb.url}/`, { email: u.email });
  return { nav, id: u.id, email: u.email };
}

/** The CSRF token of a logged-in browser, read from one of its pages. */
export async function csrfDe(amb: AmbienteDeTeste, nav: Navegador): Promise<string> {
  return tokenCsrf((await nav.get(`${amb.url}/profile`)).texto);
}

/**
 * A browser holding a real, sealed appSession for this e-mail, made with the service's own key
 * and the subject the development provider gives that e-mail (so it matches the account's binding):
 * for tests that need hundreds of distinct people. The login flow itself is tested end to end
 * through the provider elsewhere.
 */
export function navegadorComSessao(amb: AmbienteDeTeste, email: string, nome = 'Pessoa'): Navegador {
  const agora = amb.relogio.agora().getTime();
  const cofre = new Cofre(amb.config.appSessionSecret, 'appSession');
  const valor = cofre.selar(
    {
      sid: randomBytes(12).toString('base64url'),
      identidade: { sub: subDoEmail(email), email, name: nome, email_verified: true },
      idToken: undefined,
      csrf: randomBytes(16).toString('base64url'),
      inicio: agora,
    },
    agora + DURACAO_SESSAO_MS,
  );
  const nav = new Navegador();
  nav.definirCookie(amb.url, 'appSession', valor);
  return nav;
}
