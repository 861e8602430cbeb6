/**
 * Saving a cycle's child lists: each input row matched to an existing one (by id, else by key) and
 * updated in place; what would orphan compositions or orders is refused with 409, never cascaded.
 */
import type { Db } from '../../db/banco.ts';
import { concordancia, formatarQuantidadeComUnidade } from '../../decimal.ts';
import { Conflito, Invalido } from '../erros.ts';
import { apagarVoluntariosDosPontos } from '../retirada/voluntarios.ts';
import { pontosDoCiclo } from './leitura.ts';
import type { CestaLida, EntregaLida, PontoLido, ProdutoLido } from './modelo.ts';

/** Baskets ordered and composed per cycle basket, to refuse removals and cuts that would orphan them. */
async function usoDasCestas(db: Db, cicloid: number) {
  const linhas = await db
    .selectFrom('ciclocesta')
    .innerJoin('cesta', 'cesta.id', 'ciclocesta.cestaId')
    .leftJoin('composicao', 'composicao.cicloCestaId', 'ciclocesta.id')
    .select([
      'ciclocesta.id',
      'ciclocesta.cestaId',
      'cesta.nome',
      'composicao.quantidadeCestas as composta',
      'ciclocesta.reservadoMilesimos as pedidoMilesimos',
    ])
    .where('ciclocesta.cicloid', '=', cicloid)
    .execute();
  return new Map(
    linhas.map((l) => [
      l.id,
      { ...l, pedidas: Math.ceil(Number(l.pedidoMilesimos ?? 0) / 1000), composta: l.composta },
    ]),
  );
}

async function usoDosExtras(db: Db, cicloid: number) {
  const linhas = await db
    .selectFrom('cicloproduto')
    .innerJoin('produto', 'produto.id', 'cicloproduto.produtoId')
    .select([
      'cicloproduto.id',
      'cicloproduto.produtoId',
      'produto.nome',
      'produto.unidade',
      'cicloproduto.reservadoMilesimos as pedidoMilesimos',
    ])
    .where('cicloproduto.cicloid', '=', cicloid)
    .where('cicloproduto.mercadoId', 'is', null)
    .execute();
  return new Map(linhas.map((l) => [l.id, { ...l, pedido: Number(l.pedidoMilesimos ?? 0) }]));
}

/** Baskets already ordered, in words: "1 cesta pedida", "2 cestas pedidas". */
function cestasPedidas(n: number): string {
  return `${formatarQuantidadeComUnidade(n * 1000, 'cesta')} ${concordancia(n * 1000, 'pedida', 'pedidas')}`;
}

/** Matches an input row to an existing child: by id (which must belong to this cycle), else by key. */
function casar<T extends { id: number }>(
  existentes: ReadonlyMap<number, T>,
  porChave: (k: number) => T | undefined,
  id: number | null,
  chave: number,
  campo: string,
): T | undefined {
  if (id !== null) {
    const achado = existentes.get(id);
    if (achado === undefined)
      throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
        [campo]: 'Esta linha não pertence a este ciclo',
      });
    return achado;
  }
  return porChave(chave);
}

export async function reconciliarCestas(
  trx: Db,
  cicloid: number,
  itens: readonly CestaLida[],
  iso: string,
): Promise<void> {
  const uso = await usoDasCestas(trx, cicloid);
  const porCesta = (cestaId: number) => [...uso.values()].find((u) => u.cestaId === cestaId);
  const mantidos = new Set<number>();
  for (const item of itens) {
    const atual = casar(uso, porCesta, item.id, item.cestaId, item.campo);
    if (atual === undefined) {
      await trx
        .insertInto('ciclocesta')
        .values({
          cicloid,
          cestaId: item.cestaId,
          quantidadeCestas: item.quantidadeCestas,
          createdAt: iso,
          updatedAt: iso,
        })
        .execute();
      continue;
    }
    mantidos.add(atual.id);
    if (atual.cestaId !== item.cestaId) {
      throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
        [item.campo]: 'Não é possível trocar a cesta de uma linha existente: remova a linha e adicione outra',
      });
    }
    const minimo = Math.max(atual.pedidas, atual.composta ?? 0);
    if (item.quantidadeCestas < minimo) {
      throw new Conflito(
        'QUANTIDADE_ABAIXO_DO_USO',
        `A ${atual.nome} já tem ${cestasPedidas(atual.pedidas)} e ${atual.composta ?? 0} na composição: a quantidade não pode ficar abaixo de ${minimo}`,
        { cicloCestaId: atual.id, pedidas: atual.pedidas, compostas: atual.composta ?? 0 },
      );
    }
    await trx
      .updateTable('ciclocesta')
      .set({ quantidadeCestas: item.quantidadeCestas, updatedAt: iso })
      .where('id', '=', atual.id)
      .execute();
  }
  for (const u of uso.values()) {
    if (mantidos.has(u.id)) continue;
    if (u.pedidas > 0 || u.composta !== null) {
      throw new Conflito(
        'CESTA_EM_USO',
        `A ${u.nome} não pode sair do ciclo: ela tem ${u.pedidas > 0 ? cestasPedidas(u.pedidas) : 'composição'}`,
        {
          cicloCestaId: u.id,
        },
      );
    }
    await trx.deleteFrom('ciclocesta').where('id', '=', u.id).execute();
  }
}

export async function reconciliarProdutos(
  trx: Db,
  cicloid: number,
  itens: readonly ProdutoLido[],
  iso: string,
): Promise<void> {
  const uso = await usoDosExtras(trx, cicloid);
  const porProduto = (produtoId: number) => [...uso.values()].find((u) => u.produtoId === produtoId);
  const mantidos = new Set<number>();
  // A product is sold once per cycle: as a classic extra or released to one market (decisions.md).
  const liberados = await trx
    .selectFrom('cicloproduto as cp')
    .innerJoin('mercado as m', 'm.id', 'cp.mercadoId')
    .select(['cp.produtoId', 'm.nome'])
    .where('cp.cicloid', '=', cicloid)
    .execute();
  const noMercado = Object.fromEntries(
    itens.flatMap((i) => {
      const l = liberados.find((x) => x.produtoId === i.produtoId);
      return l === undefined
        ? []
        : [
            [
              i.campo,
              `Este produto está liberado para ${l.nome} neste ciclo: um produto é vendido uma vez por ciclo, como extra ou num mercado`,
            ],
          ];
    }),
  );
  if (Object.keys(noMercado).length > 0)
    throw new Conflito('PRODUTO_JA_NO_CICLO', 'Verifique os campos destacados', noMercado);
  for (const item of itens) {
    const atual = casar(uso, porProduto, item.id, item.produtoId, item.campo);
    const valores = {
      quantidadeMilesimos: item.quantidadeMilesimos,
      valorCentavos: item.valorCentavos,
      updatedAt: iso,
    };
    if (atual === undefined) {
      await trx
        .insertInto('cicloproduto')
        .values({ cicloid, produtoId: item.produtoId, ...valores, createdAt: iso })
        .execute();
      continue;
    }
    mantidos.add(atual.id);
    if (atual.produtoId !== item.produtoId) {
      throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
        [item.campo]: 'Não é possível trocar o produto de uma linha existente: remova a linha e adicione outra',
      });
    }
    if (item.quantidadeMilesimos < atual.pedido) {
      throw new Conflito(
        'QUANTIDADE_ABAIXO_DO_USO',
        `O extra ${atual.nome} já tem ${formatarQuantidadeComUnidade(atual.pedido, atual.unidade)} pedidos: a quantidade não pode ficar abaixo disso`,
        { cicloProdutoId: atual.id },
      );
    }
    await trx.updateTable('cicloproduto').set(valores).where('id', '=', atual.id).execute();
  }
  for (const u of uso.values()) {
    if (mantidos.has(u.id)) continue;
    if (u.pedido > 0)
      throw new Conflito('EXTRA_EM_USO', `O extra ${u.nome} não pode sair do ciclo: já foi pedido`, {
        cicloProdutoId: u.id,
      });
    await trx.deleteFrom('cicloproduto').where('id', '=', u.id).execute();
  }
}

/**
 * The cycle's points: matched by id or by point, updated in place. A point with orders stays
 * (409); once the cycle lists points, every order of it must pick up at one of them (409 naming
 * the points missing), and a point added must be active.
 */
export async function reconciliarPontos(
  trx: Db,
  cicloid: number,
  itens: readonly PontoLido[],
  iso: string,
): Promise<void> {
  const atuais = new Map((await pontosDoCiclo(trx, cicloid)).map((p) => [p.id, p]));
  const porPonto = (pontoEntregaId: number) => [...atuais.values()].find((p) => p.pontoEntregaId === pontoEntregaId);
  const mantidos = new Set<number>();
  const novos = itens.filter((i) => i.id === null && porPonto(i.pontoEntregaId) === undefined);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it
  if (novos.length > 0) {
    const ativos = new Set(
      (
        await trx
          .selectFrom('pontoentrega')
          .select('id')
          .where(
            'id',
            'in',
            novos.map((n) => n.pontoEntregaId),
          )
          .where('ativo', '=', true)
          .execute()
      ).map((p) => p.id),
    );
    const inativos = novos.filter((n) => !ativos.has(n.pontoEntregaId));
    if (inativos.length > 0)
      throw new Invalido(
        'VALIDACAO',
        'Verifique os campos destacados',
        Object.fromEntries(
          inativos.map((n) => [n.campo, 'Ponto de entrega inativo: ative-o antes de incluí-lo no ciclo']),
        ),
      );
  }
  for (const item of itens) {
    const atual = casar(atuais, porPonto, item.id, item.pontoEntregaId, item.campo);
    const valores = {
      dataRetirada: item.dataRetirada,
      horaInicio: item.horaInicio,
      horaFim: item.horaFim,
      updatedAt: iso,
    };
    if (atual === undefined) {
      await trx
        .insertInto('ciclopontoentrega')
        .values({ cicloid, pontoEntregaId: item.pontoEntregaId, ...valores, createdAt: iso })
        .execute();
      continue;
    }
    mantidos.add(atual.id);
    if (atual.pontoEntregaId !== item.pontoEntregaId) {
      throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
        [item.campo]: 'Não é possível trocar o ponto de uma linha existente: remova a linha e adicione outra',
      });
    }
    await trx.updateTable('ciclopontoentrega').set(valores).where('id', '=', atual.id).execute();
  }
  const saem = [...atuais.values()].filter((p) => !mantidos.has(p.id));
  // An empty list serves every active point again, so only a list that leaves a point out can orphan its orders.
  const comPedidos = itens.length === 0 ? undefined : saem.find((p) => p.pedidos > 0);
  if (comPedidos !== undefined) {
    throw new Conflito(
      'PONTO_EM_USO',
      `O ponto ${comPedidos.nome} não pode sair do ciclo: ${comPedidos.pedidos} pedido(s) retiram nele`,
      { pontoEntregaId: comPedidos.pontoEntregaId },
    );
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it
  if (saem.length > 0)
    await trx
      .deleteFrom('ciclopontoentrega')
      .where(
        'id',
        'in',
        saem.map((p) => p.id),
      )
      .execute();
  // A point that leaves the cycle takes its volunteers: their right was that point in this cycle.
  await apagarVoluntariosDosPontos(
    trx,
    cicloid,
    saem.map((p) => p.pontoEntregaId),
  );
  if (itens.length === 0) return;
  // Orders placed while the cycle served every point must still have their point listed.
  const fora = await trx
    .selectFrom('pedido as p')
    .innerJoin('pontoentrega as pe', 'pe.id', 'p.pontoEntregaId')
    .select(['pe.id', 'pe.nome'])
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('p.cicloid', '=', cicloid)
    .where(
      'p.pontoEntregaId',
      'not in',
      itens.map((i) => i.pontoEntregaId),
    )
    .groupBy(['pe.id', 'pe.nome'])
    .orderBy('pe.nome')
    .execute();
  if (fora.length > 0) {
    throw new Conflito(
      'PONTO_EM_USO',
      `Há pedidos deste ciclo com retirada em ${fora.map((f) => `${f.nome} (${Number(f.n)})`).join(', ')}: inclua esse(s) ponto(s) no ciclo ou mude os pedidos antes`,
      { pontoEntregaIds: fora.map((f) => f.id) },
    );
  }
}

export async function reconciliarEntregas(
  trx: Db,
  cicloid: number,
  itens: readonly EntregaLida[],
  iso: string,
): Promise<void> {
  const existentes = new Map(
    (await trx.selectFrom('cicloentrega').select(['id']).where('cicloid', '=', cicloid).execute()).map((e) => [
      e.id,
      e,
    ]),
  );
  const mantidos = new Set<number>();
  for (const [i, item] of itens.entries()) {
    const atual = casar(existentes, () => undefined, item.id, 0, `cicloEntregas.${i}.id`);
    const valores = { dataEntrega: item.dataEntrega, observacao: item.observacao, updatedAt: iso };
    if (atual === undefined) {
      await trx
        .insertInto('cicloentrega')
        .values({ cicloid, ...valores, createdAt: iso })
        .execute();
    } else {
      mantidos.add(atual.id);
      await trx.updateTable('cicloentrega').set(valores).where('id', '=', atual.id).execute();
    }
  }
  const removidos = [...existentes.keys()].filter((id) => !mantidos.has(id));
  // Stryker disable next-line ConditionalExpression,EqualityOperator: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it
  if (removidos.length > 0) await trx.deleteFrom('cicloentrega').where('id', 'in', removidos).execute();
}
