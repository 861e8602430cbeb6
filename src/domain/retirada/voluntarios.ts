/**
 * The volunteers of a pickup point: the people the coordination names, on the cycle's form, to run
 * one point in one cycle (docs/dominio.md, "A retirada"). Named by e-mail, as the coordination
 * knows them; each must be an active person of the community. Saving replaces the set of that
 * (cycle, point); a point that leaves the cycle takes its volunteers with it.
 */
import { emTransacao, type Banco, type Db } from '../../db/banco.ts';
import { autorizar, type Ator } from '../acesso.ts';
import { auditar } from '../auditoria.ts';
import { cicloDasJanelas } from '../ciclos/janelas.ts';
import { Invalido } from '../erros.ts';
import { EMAIL } from '../textos.ts';
import { chaveDeEmail } from '../usuarios.ts';

/** At most this many volunteers per point and cycle: a list longer than that is a typing accident. */
export const MAXIMO_DE_VOLUNTARIOS = 50;

/** A volunteer as the cycle shows them. */
export interface Voluntario {
  readonly usuarioid: number;
  readonly nome: string;
  readonly email: string;
}

/**
 * The e-mails of a "Voluntários da retirada" field: separated by commas, semicolons, spaces or
 * lines (a form), or a list (JSON: e-mails, or the volunteers as the cycle's JSON gives them).
 * Repeated ones count once. Returns the e-mails as typed (trimmed), or the field's error in
 * Portuguese. Blank is the empty list.
 */
export function lerEmailsDosVoluntarios(v: unknown): { readonly emails: string[] } | { readonly erro: string } {
  const partes: unknown[] =
    v === null || v === undefined
      ? []
      : typeof v === 'string'
        ? v.split(/[\s,;]+/)
        : Array.isArray(v)
          ? v.map((x: unknown) =>
              x !== null && typeof x === 'object' && 'email' in x && typeof x.email === 'string' ? x.email : x,
            )
          : [v];
  if (partes.some((p) => typeof p !== 'string'))
    return { erro: 'Informe os e-mails dos voluntários, separados por vírgula ou um por linha' };
  const vistos = new Map<string, string>();
  const invalidos: string[] = [];
  for (const parte of partes as string[]) {
    const email = parte.trim();
    if (email === '') continue;
    if (email.length > 254 || !EMAIL.test(email)) invalidos.push(email.length > 60 ? `${email.slice(0, 57)}…` : email);
    else if (!vistos.has(chaveDeEmail(email))) vistos.set(chaveDeEmail(email), email);
  }
  if (invalidos.length > 0)
    return {
      erro: `${invalidos.length === 1 ? 'E-mail inválido' : 'E-mails inválidos'}: ${invalidos.join(', ')}. Separe os e-mails por vírgula ou um por linha`,
    };
  if (vistos.size > MAXIMO_DE_VOLUNTARIOS)
    return { erro: `No máximo ${MAXIMO_DE_VOLUNTARIOS} voluntários por ponto (há ${vistos.size})` };
  return { emails: [...vistos.values()] };
}

/** The volunteers a point's row names: by e-mail, and where a refusal goes (`cicloPontos.N.voluntarios`). */
export interface VoluntariosLidos {
  readonly pontoEntregaId: number;
  readonly emails: readonly string[];
  readonly campo: string;
}

/**
 * The people these rows name, by point: every e-mail must be an active person's; otherwise each
 * row's field gets an error naming the e-mails not found (one query for all rows). Returns the
 * ids by point, or the errors by field.
 */
export async function pessoasDosVoluntarios(
  db: Db,
  linhas: readonly VoluntariosLidos[],
): Promise<{ readonly ids: ReadonlyMap<number, number[]> } | { readonly erros: Record<string, string> }> {
  const chaves = [...new Set(linhas.flatMap((l) => l.emails.map(chaveDeEmail)))];
  // Stryker disable next-line ConditionalExpression: an empty IN list is valid on SQLite; PostgreSQL refuses it
  const pessoas =
    chaves.length === 0
      ? []
      : await db
          .selectFrom('usuario')
          .select(['id', 'emailChave'])
          .where('emailChave', 'in', chaves)
          .where('ativo', '=', true)
          .execute();
  const porChave = new Map(pessoas.map((p) => [p.emailChave, p.id]));
  const erros: Record<string, string> = {};
  const ids = new Map<number, number[]>();
  for (const l of linhas) {
    const faltam = l.emails.filter((e) => !porChave.has(chaveDeEmail(e)));
    if (faltam.length > 0) {
      erros[l.campo] =
        faltam.length === 1
          ? `Não há pessoa ativa com o e-mail ${faltam[0] ?? ''}: confira o e-mail ou cadastre a pessoa antes`
          : `Não há pessoas ativas com os e-mails ${faltam.join(', ')}: confira os e-mails ou cadastre as pessoas antes`;
      continue;
    }
    ids.set(l.pontoEntregaId, [...new Set(l.emails.map((e) => porChave.get(chaveDeEmail(e)) ?? 0))]);
  }
  return Object.keys(erros).length > 0 ? { erros } : { ids };
}

/**
 * Replaces the volunteers of (cycle, point) with these people: those who stay keep their row
 * (and when they were named), the others go, the new ones come. Returns whether anything changed.
 */
export async function gravarVoluntarios(
  trx: Db,
  cicloid: number,
  pontoEntregaId: number,
  usuarioids: readonly number[],
  iso: string,
): Promise<boolean> {
  const atuais = new Set(
    (
      await trx
        .selectFrom('voluntario')
        .select('usuarioid')
        .where('cicloid', '=', cicloid)
        .where('pontoEntregaId', '=', pontoEntregaId)
        .execute()
    ).map((v) => v.usuarioid),
  );
  const novos = new Set(usuarioids);
  const saem = [...atuais].filter((u) => !novos.has(u));
  const entram = [...novos].filter((u) => !atuais.has(u));
  if (saem.length > 0)
    await trx
      .deleteFrom('voluntario')
      .where('cicloid', '=', cicloid)
      .where('pontoEntregaId', '=', pontoEntregaId)
      .where('usuarioid', 'in', saem)
      .execute();
  if (entram.length > 0)
    await trx
      .insertInto('voluntario')
      .values(entram.map((usuarioid) => ({ cicloid, pontoEntregaId, usuarioid, createdAt: iso })))
      .execute();
  return saem.length > 0 || entram.length > 0;
}

/** Forgets the volunteers of points that left a cycle. */
export async function apagarVoluntariosDosPontos(
  trx: Db,
  cicloid: number,
  pontoEntregaIds: readonly number[],
): Promise<void> {
  if (pontoEntregaIds.length === 0) return;
  await trx
    .deleteFrom('voluntario')
    .where('cicloid', '=', cicloid)
    .where('pontoEntregaId', 'in', [...pontoEntregaIds])
    .execute();
}

/** A cycle's volunteers by point, each point's by name (one query). */
export async function voluntariosDoCiclo(db: Db, cicloid: number): Promise<Map<number, Voluntario[]>> {
  const linhas = await db
    .selectFrom('voluntario as v')
    .innerJoin('usuario as u', 'u.id', 'v.usuarioid')
    .select(['v.pontoEntregaId', 'v.usuarioid', 'u.nome', 'u.email'])
    .where('v.cicloid', '=', cicloid)
    .orderBy('v.pontoEntregaId')
    .orderBy('u.nomeChave')
    .orderBy('u.id')
    .execute();
  const porPonto = new Map<number, Voluntario[]>();
  for (const l of linhas) {
    const v = { usuarioid: l.usuarioid, nome: l.nome, email: l.email };
    porPonto.set(l.pontoEntregaId, [...(porPonto.get(l.pontoEntregaId) ?? []), v]);
  }
  return porPonto;
}

/**
 * Names the volunteers of one point in a cycle by themselves (the coordination's view of the
 * pickup, POST /retirada/:cicloId/voluntarios): the same rule as the cycle's form, but it also
 * works once the cycle is closed, since the pickup goes on after the closing and naming who runs
 * a point touches no money. The point must be one the cycle serves (its list, or every active
 * point when it lists none) or one its orders pick up at. Audited on the cycle.
 */
export async function nomearVoluntarios(
  banco: Banco,
  ator: Ator,
  cicloid: number,
  entrada: { readonly pontoEntregaId: number; readonly emails: readonly string[] },
  agora: Date,
): Promise<Voluntario[]> {
  autorizar(ator, 'voluntariosNomear');
  return emTransacao(banco, async (trx) => {
    await cicloDasJanelas(trx, cicloid);
    const { pontoEntregaId } = entrada;
    const [listados, ponto, pedidos] = await Promise.all([
      trx.selectFrom('ciclopontoentrega').select('pontoEntregaId').where('cicloid', '=', cicloid).execute(),
      trx.selectFrom('pontoentrega').select('ativo').where('id', '=', pontoEntregaId).executeTakeFirst(),
      trx
        .selectFrom('pedido')
        .select('id')
        .where('cicloid', '=', cicloid)
        .where('pontoEntregaId', '=', pontoEntregaId)
        .limit(1)
        .executeTakeFirst(),
    ]);
    const serve =
      listados.length > 0 ? listados.some((l) => l.pontoEntregaId === pontoEntregaId) : ponto?.ativo === true;
    if (ponto === undefined || (!serve && pedidos === undefined))
      throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
        pontoEntregaId: 'Este ciclo não entrega neste ponto: inclua o ponto na lista de pontos do ciclo antes',
      });
    const pessoas = await pessoasDosVoluntarios(trx, [
      { pontoEntregaId, emails: entrada.emails, campo: 'voluntarios' },
    ]);
    if ('erros' in pessoas) throw new Invalido('VALIDACAO', 'Verifique os campos destacados', pessoas.erros);
    const antes = (await voluntariosDoCiclo(trx, cicloid)).get(pontoEntregaId) ?? [];
    const mudou = await gravarVoluntarios(
      trx,
      cicloid,
      pontoEntregaId,
      pessoas.ids.get(pontoEntregaId) ?? [],
      agora.toISOString(),
    );
    const depois = (await voluntariosDoCiclo(trx, cicloid)).get(pontoEntregaId) ?? [];
    if (mudou)
      await auditar(trx, ator, agora, {
        acao: 'nomear voluntários',
        entidade: 'ciclo',
        entidadeId: cicloid,
        antes: { pontoEntregaId, voluntarios: antes },
        depois: { pontoEntregaId, voluntarios: depois },
      });
    return depois;
  });
}
