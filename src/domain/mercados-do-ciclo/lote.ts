/**
 * lote markets in a cycle: lots for a named buyer (`lote`, `loteproduto`), drawn from finalised
 * offer lines against a target value. A lot is ordered once built: the capacity rule
 * (alocacao.ts) counts what lots take from each line. Writes hold the cycle.
 */
import { emTransacao, travar, type Banco, type Db } from '../../db/banco.ts';
import { valorDaQuantidade } from '../../decimal.ts';
import type { Ator } from '../acesso.ts';
import { conferirCapacidade, extrasPublicados, linhasOfertadas } from '../alocacao.ts';
import { auditar } from '../auditoria.ts';
import { cicloDasJanelas, exigirAberto } from '../ciclos/janelas.ts';
import { NaoEncontrado } from '../erros.ts';
import { exigirGestor, invalido, mercadoDoCiclo } from './comum.ts';

export interface LinhaDoLote {
  readonly ofertaProdutoId: number;
  readonly produto: string;
  readonly unidade: string;
  readonly fornecedor: string;
  readonly fornecedorId: number;
  readonly quantidadeMilesimos: number;
  readonly valorCentavos: number;
  readonly subtotalCentavos: number;
}

export interface Lote {
  readonly id: number;
  readonly cicloid: number;
  readonly mercadoId: number;
  readonly mercado: string;
  readonly comprador: string;
  readonly compradorUsuarioId: number | null;
  readonly pontoEntregaId: number;
  readonly ponto: string;
  readonly valorAlvoCentavos: number;
  readonly valorCentavos: number;
  readonly linhas: readonly LinhaDoLote[];
}

/** A cycle's lots (optionally one market's), each with its lines valued at the offer price. */
export async function lotesDoCiclo(db: Db, cicloid: number, mercadoId: number | null = null): Promise<Lote[]> {
  let q = db
    .selectFrom('lote as l')
    .innerJoin('mercado as m', 'm.id', 'l.mercadoId')
    .innerJoin('pontoentrega as pe', 'pe.id', 'l.pontoEntregaId')
    .select([
      'l.id',
      'l.cicloid',
      'l.mercadoId',
      'm.nome as mercado',
      'l.comprador',
      'l.compradorUsuarioId',
      'l.pontoEntregaId',
      'pe.nome as ponto',
      'l.valorAlvoCentavos',
    ])
    .where('l.cicloid', '=', cicloid);
  if (mercadoId !== null) q = q.where('l.mercadoId', '=', mercadoId);
  const [lotes, linhas] = await Promise.all([
    q.orderBy('l.id').execute(),
    db
      .selectFrom('loteproduto as lp')
      .innerJoin('lote as l', 'l.id', 'lp.loteid')
      .innerJoin('ofertaproduto as op', 'op.id', 'lp.ofertaProdutoId')
      .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
      .innerJoin('produto as p', 'p.id', 'op.produtoid')
      .innerJoin('usuario as u', 'u.id', 'o.usuarioid')
      .select([
        'lp.loteid',
        'lp.ofertaProdutoId',
        'p.nome as produto',
        'p.unidade',
        'u.nome as fornecedor',
        'o.usuarioid as fornecedorId',
        'lp.quantidadeMilesimos',
        'op.valorCentavos',
      ])
      .where('l.cicloid', '=', cicloid)
      .orderBy('p.nome')
      .orderBy('lp.id')
      .execute(),
  ]);
  return lotes.map((l) => {
    const doLote = linhas
      .filter((x) => x.loteid === l.id)
      .map(({ loteid: _, ...x }) => ({
        ...x,
        subtotalCentavos: valorDaQuantidade(x.valorCentavos, x.quantidadeMilesimos),
      }));
    return { ...l, linhas: doLote, valorCentavos: doLote.reduce((s, x) => s + x.subtotalCentavos, 0) };
  });
}

export interface LoteLido {
  readonly mercadoId: number;
  readonly comprador: string;
  readonly compradorUsuarioId: number | null;
  readonly pontoEntregaId: number;
  readonly valorAlvoCentavos: number;
  readonly linhas: ReadonlyArray<{
    readonly ofertaProdutoId: number;
    readonly quantidadeMilesimos: number;
    readonly campo: string;
  }>;
}

/** The rules on a lot alone: a buyer's name, a positive target, lines, no line twice, positive quantities. */
export function regrasDoLoteDoCiclo(l: LoteLido): Record<string, string> {
  const erros: Record<string, string> = {};
  if (l.comprador.trim() === '') erros.comprador = 'Diga quem compra o lote (por exemplo, a escola)';
  if (l.valorAlvoCentavos <= 0) erros.valorAlvo = 'O valor-alvo é maior que zero';
  if (l.linhas.length === 0) erros.linhas = 'Escolha pelo menos uma linha das ofertas';
  const vistas = new Set<number>();
  for (const x of l.linhas) {
    if (vistas.has(x.ofertaProdutoId)) erros[`${x.campo}.ofertaProdutoId`] = 'Linha repetida no lote';
    vistas.add(x.ofertaProdutoId);
    if (x.quantidadeMilesimos <= 0) erros[`${x.campo}.quantidade`] = 'A quantidade é maior que zero';
  }
  return erros;
}

/**
 * Creates (id null) or replaces a lot of a lote market of the cycle. Its lines are finalised offer
 * lines of the cycle; everything drawn from a line stays within what was offered (409). Audited.
 */
export async function salvarLote(
  banco: Banco,
  ator: Ator,
  cicloid: number,
  id: number | null,
  lido: LoteLido,
  agora: Date,
): Promise<Lote> {
  exigirGestor(ator);
  const erros = regrasDoLoteDoCiclo(lido);
  if (Object.keys(erros).length > 0) throw invalido(erros);
  return emTransacao(banco, async (trx) => {
    await travar(trx, 'ciclo', [cicloid]);
    exigirAberto(await cicloDasJanelas(trx, cicloid));
    await mercadoDoCiclo(trx, cicloid, lido.mercadoId, 'lotes');
    const antes = id === null ? null : ((await lotesDoCiclo(trx, cicloid)).find((l) => l.id === id) ?? null);
    if (id !== null && antes === null)
      throw new NaoEncontrado('LOTE_NAO_ENCONTRADO', 'Lote não encontrado neste ciclo');
    const ponto = await trx
      .selectFrom('pontoentrega')
      .select(['id', 'ativo'])
      .where('id', '=', lido.pontoEntregaId)
      .executeTakeFirst();
    if (ponto === undefined || !ponto.ativo) erros.pontoEntregaId = 'Ponto de entrega inexistente ou inativo';
    if (
      lido.compradorUsuarioId !== null &&
      (await trx.selectFrom('usuario').select('id').where('id', '=', lido.compradorUsuarioId).executeTakeFirst()) ===
        undefined
    ) {
      erros.compradorUsuarioId = 'Não há cadastro com este id';
    }
    const linhas = await linhasOfertadas(trx, cicloid);
    for (const x of lido.linhas) {
      const l = linhas.find((y) => y.ofertaProdutoId === x.ofertaProdutoId);
      if (l === undefined || !l.finalizada)
        erros[`${x.campo}.ofertaProdutoId`] = 'Não é uma linha de oferta finalizada deste ciclo';
    }
    if (Object.keys(erros).length > 0) throw invalido(erros);
    const iso = agora.toISOString();
    const dados = {
      mercadoId: lido.mercadoId,
      comprador: lido.comprador.trim(),
      compradorUsuarioId: lido.compradorUsuarioId,
      pontoEntregaId: lido.pontoEntregaId,
      valorAlvoCentavos: lido.valorAlvoCentavos,
      updatedAt: iso,
    };
    let loteid: number;
    if (id === null) {
      loteid = (
        await trx
          .insertInto('lote')
          .values({ cicloid, ...dados, createdAt: iso })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    } else {
      loteid = id;
      await trx.updateTable('lote').set(dados).where('id', '=', id).execute();
      await trx.deleteFrom('loteproduto').where('loteid', '=', id).execute();
    }
    await trx
      .insertInto('loteproduto')
      .values(
        lido.linhas.map((x) => ({
          loteid,
          ofertaProdutoId: x.ofertaProdutoId,
          quantidadeMilesimos: x.quantidadeMilesimos,
          createdAt: iso,
          updatedAt: iso,
        })),
      )
      .execute();
    conferirCapacidade(await linhasOfertadas(trx, cicloid), await extrasPublicados(trx, cicloid));
    const depois = (await lotesDoCiclo(trx, cicloid)).find((l) => l.id === loteid);
    // Stryker disable next-line ConditionalExpression: the lot was just written
    if (depois === undefined) throw new Error('lote gravado e não encontrado');
    await auditar(trx, ator, agora, {
      acao: id === null ? 'criar' : 'atualizar',
      entidade: 'lote',
      entidadeId: loteid,
      antes,
      depois,
    });
    return depois;
  });
}

export async function apagarLote(banco: Banco, ator: Ator, cicloid: number, id: number, agora: Date): Promise<void> {
  exigirGestor(ator);
  await emTransacao(banco, async (trx) => {
    await travar(trx, 'ciclo', [cicloid]);
    exigirAberto(await cicloDasJanelas(trx, cicloid));
    const antes = (await lotesDoCiclo(trx, cicloid)).find((l) => l.id === id);
    if (antes === undefined) throw new NaoEncontrado('LOTE_NAO_ENCONTRADO', 'Lote não encontrado neste ciclo');
    await trx.deleteFrom('loteproduto').where('loteid', '=', id).execute();
    await trx.deleteFrom('lote').where('id', '=', id).execute();
    await auditar(trx, ator, agora, { acao: 'apagar', entidade: 'lote', entidadeId: id, antes });
  });
}
