import { sql } from 'kysely';
import type { Db, FabricaMigracao } from './dialeto.ts';

/**
 * One account per person. A Mercados account (`appuser`) points at the Usuario of the same
 * person (`usuarioId`, unique); the person's roles then live only in `usuario.perfil`, which may
 * also hold `adminMercado` (the Mercados role with no Cestas perfil). `emailVerificado` records
 * whether the provider vouched for the account's e-mail: only such an account is linked later.
 *
 * Existing accounts with the same e-mail in both tables are linked here: the person keeps the
 * union of both role sets, the account's own profile rows go, and each merge is written to the
 * audit trail. Role changes now happen in `usuario`, so its role and `ativo` columns move the
 * Mercados data version (20261121_2100_versao_dos_mercados.ts), through that migration's function
 * on PostgreSQL.
 */
const ORDEM = ['info', 'master', 'admin', 'fornecedor', 'consumidor', 'adminMercado'];

/** What each Mercados profile becomes in `usuario.perfil`; Administrador is held through admin or master. */
const PAPEL_DO_PERFIL: Readonly<Record<string, string>> = {
  Administrador: 'admin',
  AdminMercado: 'adminMercado',
  Fornecedor: 'fornecedor',
  Consumidor: 'consumidor',
};

function lerLista(texto: string): string[] {
  try {
    const v: unknown = JSON.parse(texto);
    return Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

function uniao(perfil: readonly string[], perfis: readonly string[]): string[] {
  const papeis = new Set(perfil);
  for (const p of perfis) {
    if (p === 'Administrador' && (papeis.has('admin') || papeis.has('master'))) continue;
    const papel = PAPEL_DO_PERFIL[p];
    if (papel !== undefined) papeis.add(papel);
  }
  return [...ORDEM.filter((p) => papeis.has(p)), ...[...papeis].filter((p) => !ORDEM.includes(p))];
}

async function unirContas(db: Db): Promise<void> {
  const pares = await db
    .selectFrom('appuser as a')
    .innerJoin('usuario as u', 'u.emailChave', 'a.emailChave')
    .select(['a.id as contaId', 'a.providerId', 'u.id as usuarioId', 'u.email', 'u.perfil'])
    .orderBy('u.id')
    .execute();
  const em = new Date().toISOString();
  for (const par of pares) {
    const perfis = (
      await db
        .selectFrom('appuserprofile as up')
        .innerJoin('profile as p', 'p.id', 'up.profileId')
        .select('p.name')
        .where('up.userId', '=', par.contaId)
        .orderBy('p.id')
        .execute()
    ).map((l: { name: string }) => l.name);
    const antes = lerLista(par.perfil);
    const depois = uniao(antes, perfis);
    await db.updateTable('usuario').set({ perfil: JSON.stringify(depois), updatedAt: em }).where('id', '=', par.usuarioId).execute();
    await db.updateTable('appuser').set({ usuarioId: par.usuarioId }).where('id', '=', par.contaId).execute();
    await db.deleteFrom('appuserprofile').where('userId', '=', par.contaId).execute();
    await db
      .insertInto('auditoria')
      .values({
        usuarioid: par.usuarioId,
        ator: 'migração 20261126_1300_uma_conta',
        acao: 'unir contas',
        entidade: 'usuario',
        entidadeId: String(par.usuarioId),
        antes: JSON.stringify({ perfil: antes, conta: { id: par.contaId, providerId: par.providerId, profiles: perfis } }),
        depois: JSON.stringify({ perfil: depois, contaId: par.contaId }),
        em,
      })
      .execute();
  }
}

export const umaConta: FabricaMigracao = (ctx) => ({
  async up(db) {
    await db.schema.alterTable('appuser').addColumn('usuarioId', 'integer', (c) => c.references('usuario.id')).execute();
    await db.schema.alterTable('appuser').addColumn('emailVerificado', 'boolean', (c) => c.notNull().defaultTo(sql`false`)).execute();
    // At most one Mercados account per person; NULLs (accounts not linked) do not collide.
    await db.schema.createIndex('appuser_usuario_uq').on('appuser').column('usuarioId').unique().execute();
    await unirContas(db);
    if (ctx.dialeto === 'postgres') {
      await sql`CREATE TRIGGER usuario_versao_tg AFTER INSERT OR UPDATE OF perfil, ativo OR DELETE OR TRUNCATE ON usuario
        FOR EACH STATEMENT EXECUTE FUNCTION cestaria_mudou_versao()`.execute(db);
      return;
    }
    for (const evento of ['insert', 'update', 'delete']) {
      const quando = evento === 'update' ? sql`UPDATE OF perfil, ativo` : sql.raw(evento.toUpperCase());
      await sql`CREATE TRIGGER ${sql.id(`usuario_versao_${evento}_tg`)} AFTER ${quando} ON usuario
        BEGIN UPDATE versaodados SET versao = versao + 1 WHERE id = 1; END`.execute(db);
    }
  },
  async down(db) {
    if (ctx.dialeto === 'postgres') await sql`DROP TRIGGER IF EXISTS usuario_versao_tg ON usuario`.execute(db);
    else for (const e of ['insert', 'update', 'delete']) await sql`DROP TRIGGER IF EXISTS ${sql.id(`usuario_versao_${e}_tg`)}`.execute(db);
    await db.schema.dropIndex('appuser_usuario_uq').execute();
    await db.schema.alterTable('appuser').dropColumn('emailVerificado').execute();
    await db.schema.alterTable('appuser').dropColumn('usuarioId').execute();
  },
});
