import type { ColumnDefinitionBuilder, CreateTableBuilder, Kysely, Migration } from 'kysely';

/**
 * What a migration may know about where it runs. Migrations never import application code;
 * dialect differences go through this small context instead.
 */
export interface ContextoMigracao {
  readonly dialeto: 'sqlite' | 'postgres';
}

export type FabricaMigracao = (ctx: ContextoMigracao) => Migration;

/** Adds the surrogate key every table has, in the dialect's own idiom. */
export function comId<T extends string>(
  ctx: ContextoMigracao,
  tabela: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  return ctx.dialeto === 'sqlite'
    ? tabela.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
    : tabela.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity());
}

/** Adds createdAt/updatedAt as ISO-8601 text, identical on both dialects. */
export function comDatas<T extends string, C extends string>(tabela: CreateTableBuilder<T, C>) {
  return tabela.addColumn('createdAt', 'text', (c) => c.notNull()).addColumn('updatedAt', 'text', (c) => c.notNull());
}

export const naoNulo = (c: ColumnDefinitionBuilder) => c.notNull();

export type Db = Kysely<any>;
