import { emTransacao, type Banco } from '../db/banco.ts';
import type { NomePerfil } from '../domain/politica-mercados.ts';
import type { TipoMercado } from '../domain/tipos-de-mercado.ts';
import { unirPorEmail } from '../domain/pessoas.ts';
import { chaveDeEmail } from '../domain/usuarios.ts';
import { subDoEmail } from '../idp/provedor.ts';
import { PESSOAS_DEMO } from './dados.ts';

/**
 * Demo content of the Mercados face: an account for each demo person, already carrying the
 * provider subject the development provider issues for that e-mail (so clicking the person on
 * its login page lands on this account) and linked to the person's Cestas record (one account,
 * whose roles are the union of both lists), a few markets and their prices over the demo catalogue.
 */
/**
 * The demo people's Mercados roles that have no Cestas perfil. The others come from their Cestas
 * record (admin and master are Administrador, fornecedor Fornecedor, consumidor Consumidor).
 */
const PERFIS_DEMO: Readonly<Record<string, readonly NomePerfil[]>> = {
  'elias@exemplo.org': ['AdminMercado'],
};

interface MercadoDemo {
  readonly nome: string;
  readonly descricao: string;
  readonly tipo: TipoMercado;
  readonly taxaAdministrativaCentesimos: number | null;
  readonly valorMaximoCestaCentavos: number | null;
  readonly ativo: boolean;
  readonly admin: string;
  /** [product name, price in cents, active?] */
  readonly precos: ReadonlyArray<readonly [string, number, boolean?]>;
}

const MERCADOS_DEMO: readonly MercadoDemo[] = [
  {
    nome: 'Feira da Associação',
    descricao: 'Venda direta dos produtores na sede, aos sábados',
    tipo: 'venda_direta',
    taxaAdministrativaCentesimos: 500,
    valorMaximoCestaCentavos: null,
    ativo: true,
    admin: 'elias@exemplo.org',
    precos: [
      ['Alface crespa', 400],
      ['Tomate', 950],
      ['Ovos caipiras', 1900],
      ['Queijo minas frescal', 2700],
      ['Rúcula', 500, false],
    ],
  },
  {
    nome: 'Cesta Solidária',
    descricao: 'Cestas semanais com preço máximo combinado',
    tipo: 'cesta',
    taxaAdministrativaCentesimos: 250,
    valorMaximoCestaCentavos: 12000,
    ativo: true,
    admin: 'ana@exemplo.org',
    precos: [
      ['Couve manteiga', 380],
      ['Mandioca', 580],
      ['Banana prata', 780],
      ['Feijão carioca', 1050],
    ],
  },
  {
    nome: 'Lote da merenda escolar',
    descricao: 'Lotes a granel para a chamada pública da alimentação escolar',
    tipo: 'lote',
    taxaAdministrativaCentesimos: null,
    valorMaximoCestaCentavos: null,
    ativo: true,
    admin: 'ana@exemplo.org',
    precos: [
      ['Laranja pera', 420],
      ['Batata-doce', 610],
      ['Fubá de milho crioulo', 850],
      ['Leite cru', 520],
    ],
  },
  {
    nome: 'Feira de inverno',
    descricao: 'Encerrada até o próximo inverno',
    tipo: 'venda_direta',
    taxaAdministrativaCentesimos: 500,
    valorMaximoCestaCentavos: null,
    ativo: false,
    admin: 'elias@exemplo.org',
    precos: [['Mandioca', 600]],
  },
];

/** A demo name that must exist: demo data drifting from the catalogue fails loudly. */
function exigir<T>(mapa: ReadonlyMap<string, T>, chave: string, oQue: string): T {
  const v = mapa.get(chave);
  if (v === undefined) throw new Error(`demonstração dos Mercados: ${oQue} "${chave}" não existe`);
  return v;
}

/** Loads the Mercados demo into a database that already holds the demo catalogue (carregarDemo). */
export async function carregarDemoMercados(banco: Banco, agora: Date): Promise<void> {
  const iso = agora.toISOString();
  const datas = { createdAt: iso, updatedAt: iso };
  await emTransacao(banco, async (trx) => {
    const perfis = new Map(
      (await trx.selectFrom('profile').select(['id', 'name']).execute()).map((p) => [p.name, p.id]),
    );
    const contas = new Map<string, number>();
    for (const p of PESSOAS_DEMO) {
      const { id } = await trx
        .insertInto('appuser')
        .values({
          providerId: subDoEmail(p.email),
          email: p.email,
          emailChave: chaveDeEmail(p.email),
          emailVerificado: true,
          name: p.nome,
          avatar: null,
          ...datas,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      contas.set(p.email, id);
      const nomes = PERFIS_DEMO[p.email] ?? [];
      if (nomes.length > 0) {
        await trx
          .insertInto('appuserprofile')
          .values(nomes.map((n) => ({ userId: id, profileId: exigir(perfis, n, 'o perfil'), ...datas })))
          .execute();
      }
      // The same person as the Cestas demo record with this e-mail: one account, the union of roles.
      await unirPorEmail(trx, chaveDeEmail(p.email), agora);
    }
    const produtos = new Map(
      (await trx.selectFrom('produto').select(['id', 'nome']).execute()).map((p) => [p.nome, p.id]),
    );
    for (const m of MERCADOS_DEMO) {
      const { precos, admin, ...campos } = m;
      const mercado = await trx
        .insertInto('mercado')
        .values({ ...campos, adminId: exigir(contas, admin, 'a pessoa'), ...datas })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('precomercado')
        .values(
          precos.map(([nome, precoCentavos, ativo]) => ({
            mercadoId: mercado.id,
            produtoId: exigir(produtos, nome, 'o produto'),
            precoCentavos,
            ativo: ativo ?? true,
            ...datas,
          })),
        )
        .execute();
    }
  });
}
