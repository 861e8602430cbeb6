/**
 * An order as the edge reads it (EntradaPedido, LinhaPedida) and the rules on it before anything
 * is locked: whom the actor may order for (consumidorAlvo), and that each basket and extra comes
 * once (regrasDasLinhas).
 */
import type { Db } from '../../db/banco.ts';
import { ehConsumidor, ehGestor, exigirAgirPor, type Ator } from '../acesso.ts';
import type { Unidade } from '../catalogo.ts';
import { Invalido, Proibido } from '../erros.ts';
import { lerPerfis } from '../perfis.ts';

/**
 * The consumer an actor orders for: themselves (named or not), or, for admins, the consumer they
 * name. Whoever is named must have the consumidor profile, the actor included.
 */
export async function consumidorAlvo(
  db: Db,
  ator: Ator,
  usuarioid: number | null,
): Promise<{ id: number; nome: string }> {
  const eu = exigirAgirPor(ator, usuarioid, 'pedido');
  if (ehConsumidor(ator) && (usuarioid === null || usuarioid === eu)) return { id: eu, nome: ator.nome };
  if (!ehGestor(ator)) throw new Proibido('SEM_PERMISSAO', 'Só consumidores fazem pedidos');
  if (usuarioid === null)
    throw new Invalido('VALIDACAO', 'Informe o consumidor', { usuarioid: 'Informe o consumidor do pedido' });
  const u = await db.selectFrom('usuario').select(['perfil', 'nome']).where('id', '=', usuarioid).executeTakeFirst();
  if (u === undefined || !ehConsumidor({ perfil: lerPerfis(u.perfil) }))
    throw new Invalido('VALIDACAO', 'Consumidor inválido', { usuarioid: 'Não há consumidor com este id' });
  return { id: usuarioid, nome: u.nome };
}

/** What identifies a line inside an order: its basket or its extra (an order holds each once). */
export function chaveDaLinha(l: {
  readonly cicloCestaId: number | null;
  readonly cicloProdutoId: number | null;
}): string {
  return l.cicloCestaId !== null ? `c${l.cicloCestaId}` : `e${l.cicloProdutoId ?? 0}`;
}

/** One basket or extra of an order, in thousandths of its unit (baskets are whole). */
export interface LinhaPedida {
  readonly cicloCestaId: number | null;
  readonly cicloProdutoId: number | null;
  readonly quantidadeMilesimos: number;
  /** The unit a person wrote after an extra's quantity ("1,5 kg"), which must be the product's. */
  readonly unidadeEscrita?: Unidade | null;
  /** Where a refusal of this line is reported (the edge names it). */
  readonly campo: string;
}

/** An order as the edge reads it: for whom (null: the actor), where to pick up, and its lines. */
export interface EntradaPedido {
  readonly usuarioid: number | null;
  readonly cicloid: number;
  readonly pontoEntregaId: number;
  readonly linhas: readonly LinhaPedida[];
}

/** An order holds each basket and each extra once, and holds something: the broken rules, by field. */
export function regrasDasLinhas(linhas: readonly LinhaPedida[]): Record<string, string> {
  const erros: Record<string, string> = {};
  const vistos = new Set<string>();
  for (const l of linhas) {
    const chave = chaveDaLinha(l);
    if (vistos.has(chave)) erros[l.campo] = 'Item repetido no pedido';
    vistos.add(chave);
  }
  if (linhas.length === 0) erros.produtos = 'Escolha pelo menos uma cesta ou um extra';
  return erros;
}
