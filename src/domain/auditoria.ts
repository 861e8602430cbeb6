import { sql } from 'kysely';
import { contem, totalDaLista } from '../db/consultas.ts';
import type { Db } from '../db/banco.ts';
import { consultaPreparada } from '../db/preparadas.ts';
import type { Ator } from './acesso.ts';
import { montarPagina, type Pagina, type PedidoDePagina } from './registros.ts';

export interface RegistroAuditoria {
  readonly acao: string;
  readonly entidade: string;
  readonly entidadeId: string | number | null;
  readonly antes?: unknown;
  readonly depois?: unknown;
}

/** Lines written per statement when many go at once (8 values each, well under SQLite's limit). */
const POR_INSERCAO = 500;

/** Appends one line (or several, in as few statements as fit) to the audit trail, in the caller's transaction. */
export async function auditar(
  db: Db,
  ator: Ator,
  agora: Date,
  registros: RegistroAuditoria | readonly RegistroAuditoria[],
): Promise<void> {
  const em = agora.toISOString();
  const linha = (registro: RegistroAuditoria): Linha => ({
    usuarioid: ator.usuarioid,
    ator: ator.email,
    acao: registro.acao,
    entidade: registro.entidade,
    entidadeId: registro.entidadeId === null ? null : String(registro.entidadeId),
    antes: registro.antes === undefined ? null : JSON.stringify(registro.antes),
    depois: registro.depois === undefined ? null : JSON.stringify(registro.depois),
    em,
  });
  if (!Array.isArray(registros)) {
    const l = linha(registros as RegistroAuditoria);
    await inserirUma(db, l.usuarioid, l.ator, l.acao, l.entidade, l.entidadeId, l.antes, l.depois, l.em);
    return;
  }
  const lista = registros as readonly RegistroAuditoria[];
  for (let i = 0; i < lista.length; i += POR_INSERCAO)
    await db
      .insertInto('auditoria')
      .values(lista.slice(i, i + POR_INSERCAO).map(linha))
      .execute();
}

/** An audit line as written: the actor, what was done to what, before and after as JSON text. */
interface Linha {
  readonly usuarioid: number | null;
  readonly ator: string;
  readonly acao: string;
  readonly entidade: string;
  readonly entidadeId: string | null;
  readonly antes: string | null;
  readonly depois: string | null;
  readonly em: string;
}

// Every write appends one line: compiled once, not per request (consultaPreparada).
const inserirUma = consultaPreparada(
  (
    db: Db,
    usuarioid: number | null,
    ator: string,
    acao: string,
    entidade: string,
    entidadeId: string | null,
    antes: string | null,
    depois: string | null,
    em: string,
  ) => db.insertInto('auditoria').values({ usuarioid, ator, acao, entidade, entidadeId, antes, depois, em }),
  8,
);

export interface LinhaDeAuditoria {
  readonly id: number;
  readonly usuarioid: number | null;
  readonly ator: string;
  readonly acao: string;
  readonly entidade: string;
  readonly entidadeId: string | null;
  readonly antes: unknown;
  readonly depois: unknown;
  readonly em: string;
}

function lerJson(texto: string | null): unknown {
  if (texto === null) return null;
  try {
    return JSON.parse(texto) as unknown;
  } catch {
    return texto;
  }
}

/** The audit trail, newest first, filtered by entity, record and person; one query per page. */
export async function listarAuditoria(
  db: Db,
  pedido: PedidoDePagina,
  filtro: { entidade?: string | null; entidadeId?: string | null; usuarioid?: number | null },
): Promise<Pagina<LinhaDeAuditoria>> {
  let q = db.selectFrom('auditoria').selectAll().select(totalDaLista);
  if (filtro.entidade) q = q.where('entidade', '=', filtro.entidade);
  if (filtro.entidadeId) q = q.where('entidadeId', '=', filtro.entidadeId);
  if (filtro.usuarioid) q = q.where('usuarioid', '=', filtro.usuarioid);
  if (pedido.busca !== null) q = q.where(contem(sql`lower(ator)`, pedido.busca.toLowerCase()));
  const linhas = await q
    .orderBy('id', 'desc')
    .limit(pedido.porPagina)
    .offset((pedido.pagina - 1) * pedido.porPagina)
    .execute();
  const pagina = montarPagina(linhas, pedido, 0);
  return { ...pagina, itens: pagina.itens.map((l) => ({ ...l, antes: lerJson(l.antes), depois: lerJson(l.depois) })) };
}
