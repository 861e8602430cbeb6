/**
 * Browser tests over the demo community (src/demo), as `npm start` loads it: the service with both
 * faces and the demo data, one chromium, ids by name, the demo's coordinator as the actor of a
 * set-up step, and logging a demo person in on a 360 px phone through the provider's page.
 */
import type { Browser, Page } from 'playwright-core';
import { PESSOAS_DEMO } from '../../src/demo/dados.ts';
import type { Ator } from '../../src/domain/acesso.ts';
import { abrirChromium, abrirContexto, entrarNoNavegador, type ContextoDeTeste } from '../helpers/chromium.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { zerarLimiteDeLogin } from '../mercados/apoio.ts';

export interface PalcoDemo {
  readonly amb: AmbienteDeTeste;
  readonly navegador: Browser;
  /** The id of the demo row with this name. */
  id(tabela: 'ciclo' | 'mercado' | 'produto', nome: string): Promise<number>;
  /** Ana, the demo's master, for set-up through the domain's own rules. */
  ana(): Promise<Ator>;
  /** A 360 px phone logged in as `pessoa` (a demo person): `inicio` leads to the provider, `origem` is where it lands. */
  entrar(
    inicio: string,
    origem: string,
    pessoa: { email: string; nome: string },
  ): Promise<{ ctx: ContextoDeTeste; pagina: Page }>;
  fechar(): Promise<void>;
}

/** A demo person by e-mail; a test over the demo fails loudly when the demo drifts. */
export function pessoaDemo(email: string): { email: string; nome: string } {
  const p = PESSOAS_DEMO.find((x) => x.email === email);
  if (p === undefined) throw new Error(`a demonstração não tem ${email}`);
  return p;
}

export async function montarDemo(): Promise<PalcoDemo> {
  const amb = await iniciarAmbiente({ mercados: true, env: { DEMO_DATA: 'true' } });
  const navegador = await abrirChromium().catch(async (e: unknown) => {
    await amb.fechar();
    throw e;
  });
  return {
    amb,
    navegador,
    async id(tabela, nome) {
      return (await amb.banco.selectFrom(tabela).select('id').where('nome', '=', nome).executeTakeFirstOrThrow()).id;
    },
    async ana() {
      const u = await amb.banco
        .selectFrom('usuario')
        .select(['id', 'nome', 'email'])
        .where('email', '=', 'ana@exemplo.org')
        .executeTakeFirstOrThrow();
      return { email: u.email, nome: u.nome, usuarioid: u.id, perfil: ['master'], ativo: true };
    },
    async entrar(inicio, origem, pessoa) {
      await zerarLimiteDeLogin(amb.banco);
      const ctx = await abrirContexto(navegador, { largura: 360, altura: 740 });
      ctx.contexto.setDefaultTimeout(10_000);
      const pagina = await ctx.novaPagina();
      await entrarNoNavegador(pagina, inicio, origem, pessoa);
      return { ctx, pagina };
    },
    async fechar() {
      await navegador.close();
      await amb.fechar();
    },
  };
}
