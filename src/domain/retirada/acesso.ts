/**
 * Who may run a pickup point in a cycle (docs/dominio.md, "A retirada"): the coordination (the
 * Cestas perfis master and admin; on the Mercados face, the Administrador) at every point, and the
 * people named volunteers for that (cycle, point) at that point only. A volunteer's right is that
 * narrow, and it is not a perfil: it is a row of `voluntario`. Anyone else is refused with one
 * answer, whether the cycle and the point exist or not, so a refusal says nothing about them.
 */
import type { Db } from '../../db/banco.ts';
import type { Ator } from '../acesso.ts';
import { NaoEncontrado, Proibido } from '../erros.ts';
import type { Perfil } from '../perfis.ts';
import type { NomePerfil } from '../politica-mercados.ts';

/** A perfil of either face: the coordination is named by both. */
export type PerfilDaRetirada = Perfil | NomePerfil;

/** The perfis of the coordination, on either face. */
const COORDENACAO: ReadonlySet<PerfilDaRetirada> = new Set<PerfilDaRetirada>(['master', 'admin', 'Administrador']);

/** Whether these perfis are the coordination's, who run every point. */
export function ehCoordenacaoDaRetirada(perfis: readonly PerfilDaRetirada[]): boolean {
  return perfis.some((p) => COORDENACAO.has(p));
}

/** Who works at a pickup: the person's Cestas record (who the records name) and the perfis of both faces. */
export interface QuemTrabalha {
  readonly ator: Ator;
  readonly perfis: readonly PerfilDaRetirada[];
}

/** The one refusal, for a point one does not run and for one that does not exist alike. */
export function recusaDoPonto(): Proibido {
  return new Proibido(
    'RETIRADA_DE_OUTRO_PONTO',
    'Acesso negado: você não trabalha na retirada deste ponto neste ciclo. Fale com a coordenação.',
  );
}

/**
 * Whether the person may read a point's orders in a cycle and record its pickup: an active person
 * who is either the coordination (and the cycle and the point exist) or a volunteer named for
 * that cycle and point. One query.
 */
export async function podeTrabalharNoPonto(
  db: Db,
  usuarioid: number,
  perfis: readonly PerfilDaRetirada[],
  cicloid: number,
  pontoId: number,
): Promise<boolean> {
  const coordenacao = ehCoordenacaoDaRetirada(perfis);
  const r = await db
    .selectFrom('usuario as u')
    .select('u.id')
    .where('u.id', '=', usuarioid)
    .where('u.ativo', '=', true)
    .where((eb) =>
      coordenacao
        ? eb.and([
            eb.exists(eb.selectFrom('ciclo').select('ciclo.id').where('ciclo.id', '=', cicloid)),
            eb.exists(eb.selectFrom('pontoentrega').select('pontoentrega.id').where('pontoentrega.id', '=', pontoId)),
          ])
        : eb.exists(
            eb
              .selectFrom('voluntario as v')
              .select('v.id')
              .whereRef('v.usuarioid', '=', 'u.id')
              .where('v.cicloid', '=', cicloid)
              .where('v.pontoEntregaId', '=', pontoId),
          ),
    )
    .executeTakeFirst();
  return r !== undefined;
}

/**
 * Throws unless the person may work at the point: FORBIDDEN for anyone but the coordination,
 * whether the cycle and point exist or not; the coordination, who may see every cycle anyway, is
 * told when there is no such cycle or point. Returns the person's Cestas id.
 */
export async function exigirTrabalhoNoPonto(
  db: Db,
  quem: QuemTrabalha,
  cicloid: number,
  pontoId: number,
): Promise<number> {
  const usuarioid = quem.ator.usuarioid;
  if (usuarioid === null) {
    throw new Proibido(
      'CADASTRO_PENDENTE',
      'Esta conta ainda não tem cadastro na face Cestas: complete-o em /usuarionovo para trabalhar na retirada',
    );
  }
  if (await podeTrabalharNoPonto(db, usuarioid, quem.perfis, cicloid, pontoId)) return usuarioid;
  if (quem.ator.ativo && ehCoordenacaoDaRetirada(quem.perfis)) {
    throw new NaoEncontrado('PONTO_NAO_ENCONTRADO', 'Não encontramos este ciclo ou este ponto de retirada');
  }
  throw recusaDoPonto();
}
