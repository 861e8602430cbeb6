/**
 * Where people stand in the dashboard's cycles: a person's own offer and order, and, for the
 * coordination, who has not finalised an offer and whose order still waits for confirmation.
 * The dashboard's next steps read it, so they say what is left to do, not what the phase is.
 */
import type { Db } from '../db/banco.ts';
import { ehConsumidor, ehFornecedor } from './acesso.ts';
import { lerPerfis, type Perfil } from './perfis.ts';
import { horarioDeRetiradaTexto } from './tempo.ts';

export type SituacaoDaOferta = 'sem' | 'rascunho' | 'finalizada';
export type SituacaoDoPedido = 'sem' | 'salvo' | 'confirmado';

export interface Andamento {
  readonly oferta: SituacaoDaOferta;
  readonly pedido: SituacaoDoPedido;
  /** The order, when there is one: its id (the confirmation page) and where it is picked up. */
  readonly pedidoId: number | null;
  readonly pontoEntrega: string | null;
  /** The cycle's day and hours at that point, as people read them ('' when the cycle sets none). */
  readonly horarioRetirada: string;
}

const SEM_NADA: Andamento = { oferta: 'sem', pedido: 'sem', pedidoId: null, pontoEntrega: null, horarioRetirada: '' };

/**
 * A person's offer and order in each of the given cycles: one query for what their profiles let
 * them have (a consumer's dashboard does not look for offers), none without cycles.
 */
export async function andamentoDaPessoa(db: Db, pessoa: { readonly usuarioid: number; readonly perfil: readonly Perfil[] }, cicloids: readonly number[]): Promise<Map<number, Andamento>> {
  const porCiclo = new Map<number, Andamento>(cicloids.map((id) => [id, SEM_NADA]));
  if (cicloids.length === 0) return porCiclo;
  const { usuarioid } = pessoa;
  const [ofertas, pedidos] = await Promise.all([
    !ehFornecedor(pessoa) ? [] : db.selectFrom('oferta').select(['cicloid', 'finalizada']).where('usuarioid', '=', usuarioid).where('cicloid', 'in', [...cicloids]).execute(),
    !ehConsumidor(pessoa) ? [] : db
      .selectFrom('pedido as p')
      .innerJoin('pontoentrega as pe', 'pe.id', 'p.pontoEntregaId')
      .leftJoin('ciclopontoentrega as cpe', (j) => j.onRef('cpe.cicloid', '=', 'p.cicloid').onRef('cpe.pontoEntregaId', '=', 'p.pontoEntregaId'))
      .select(['p.cicloid', 'p.id', 'p.finalizado', 'pe.nome as ponto', 'cpe.dataRetirada', 'cpe.horaInicio', 'cpe.horaFim'])
      .where('p.usuarioid', '=', usuarioid)
      .where('p.cicloid', 'in', [...cicloids])
      .execute(),
  ]);
  for (const o of ofertas) porCiclo.set(o.cicloid, { ...(porCiclo.get(o.cicloid) ?? SEM_NADA), oferta: o.finalizada ? 'finalizada' : 'rascunho' });
  for (const p of pedidos) {
    porCiclo.set(p.cicloid, { ...(porCiclo.get(p.cicloid) ?? SEM_NADA), pedido: p.finalizado ? 'confirmado' : 'salvo', pedidoId: p.id, pontoEntrega: p.ponto, horarioRetirada: horarioDeRetiradaTexto(p) });
  }
  return porCiclo;
}

export interface Pendencias {
  /** Active suppliers without a finalised offer in the cycle. */
  readonly semOferta: ReadonlyArray<{ readonly id: number; readonly nome: string }>;
  /** Saved orders not yet confirmed: neither delivered nor charged until they are. */
  readonly naoConfirmados: ReadonlyArray<{ readonly id: number; readonly nome: string; readonly pedidoId: number }>;
}

/** What the coordination still waits for in each of the given cycles (three queries). */
export async function pendenciasDosCiclos(db: Db, cicloids: readonly number[]): Promise<Map<number, Pendencias>> {
  const porCiclo = new Map<number, Pendencias>();
  if (cicloids.length === 0) return porCiclo;
  const [candidatos, finalizadas, abertos] = await Promise.all([
    // Profiles are stored as JSON text: the LIKE narrows, lerPerfis decides.
    db.selectFrom('usuario').select(['id', 'nome', 'perfil']).where('ativo', '=', true).where('perfil', 'like', '%"fornecedor"%').orderBy('nomeChave').execute(),
    db.selectFrom('oferta').select(['cicloid', 'usuarioid']).where('finalizada', '=', true).where('cicloid', 'in', [...cicloids]).execute(),
    db
      .selectFrom('pedido as p')
      .innerJoin('usuario as u', 'u.id', 'p.usuarioid')
      .select(['p.cicloid', 'p.id as pedidoId', 'u.id', 'u.nome'])
      .where('p.finalizado', '=', false)
      .where('p.cicloid', 'in', [...cicloids])
      .orderBy('u.nomeChave')
      .execute(),
  ]);
  const fornecedores = candidatos.filter((u) => ehFornecedor({ perfil: lerPerfis(u.perfil) }));
  for (const cicloid of cicloids) {
    const ofertaram = new Set(finalizadas.filter((o) => o.cicloid === cicloid).map((o) => o.usuarioid));
    porCiclo.set(cicloid, {
      semOferta: fornecedores.filter((f) => !ofertaram.has(f.id)).map((f) => ({ id: f.id, nome: f.nome })),
      naoConfirmados: abertos.filter((p) => p.cicloid === cicloid).map((p) => ({ id: p.id, nome: p.nome, pedidoId: p.pedidoId })),
    });
  }
  return porCiclo;
}
