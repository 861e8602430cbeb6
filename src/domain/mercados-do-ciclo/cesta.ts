/**
 * cesta markets in a cycle: the cycle baskets each sells (`ciclocesta.mercadoId`), and the
 * ceiling check (`conferirTetos`): a basket's composed cost against its market's
 * `valorMaximoCesta`, run when a basket is composed (composicao.ts) and when it is put in a market.
 */
import type { Db } from '../../db/banco.ts';
import { ESCALA_DINHEIRO, formatarReais, paraNumero, valorDaQuantidade } from '../../decimal.ts';
import { itensDasCestas } from '../conteudo-das-cestas.ts';
import { Conflito } from '../erros.ts';
import { tiposQue } from '../tipos-de-mercado.ts';
import type { CicloMercadoLido } from './comum.ts';

/** What a basket of a cycle costs to compose: Σ quantity per basket × the supplier's offer price. */
export async function custosDasCestas(db: Db, cicloid: number): Promise<Map<number, number>> {
  const linhas = await itensDasCestas(db, { cicloid });
  const custos = new Map<number, number>();
  for (const l of linhas)
    custos.set(
      l.cicloCestaId,
      (custos.get(l.cicloCestaId) ?? 0) + valorDaQuantidade(l.valorCentavos, l.quantidadePorCestaMilesimos),
    );
  return custos;
}

/** Each basket sold in a cesta market, with its composed cost against the market's ceiling. */
export interface TetoDaCesta {
  readonly cicloCestaId: number;
  readonly cesta: string;
  readonly mercadoId: number;
  readonly mercado: string;
  readonly custoCentavos: number;
  readonly valorMaximoCestaCentavos: number;
}

export async function tetosDasCestas(db: Db, cicloid: number): Promise<TetoDaCesta[]> {
  const [cestas, custos] = await Promise.all([
    db
      .selectFrom('ciclocesta as cc')
      .innerJoin('cesta', 'cesta.id', 'cc.cestaId')
      .innerJoin('mercado as m', 'm.id', 'cc.mercadoId')
      .select(['cc.id', 'cesta.nome as cesta', 'm.id as mercadoId', 'm.nome as mercado', 'm.valorMaximoCestaCentavos'])
      .where('cc.cicloid', '=', cicloid)
      .where(
        'm.tipo',
        'in',
        tiposQue((t) => t.exigeValorMaximoCesta),
      )
      .orderBy('cc.id')
      .execute(),
    custosDasCestas(db, cicloid),
  ]);
  return cestas.flatMap((c) =>
    c.valorMaximoCestaCentavos === null
      ? []
      : [
          {
            cicloCestaId: c.id,
            cesta: c.cesta,
            mercadoId: c.mercadoId,
            mercado: c.mercado,
            custoCentavos: custos.get(c.id) ?? 0,
            valorMaximoCestaCentavos: c.valorMaximoCestaCentavos,
          },
        ],
  );
}

/** A basket whose composed cost passes its market's `valorMaximoCesta` gives 409 naming the basket and the excess. */
export async function conferirTetos(db: Db, cicloid: number): Promise<void> {
  const acima = (await tetosDasCestas(db, cicloid)).find((t) => t.custoCentavos > t.valorMaximoCestaCentavos);
  if (acima === undefined) return;
  const excesso = acima.custoCentavos - acima.valorMaximoCestaCentavos;
  throw new Conflito(
    'TETO_DA_CESTA',
    `A cesta ${acima.cesta} custa ${formatarReais(acima.custoCentavos)} para compor: ${formatarReais(excesso)} acima do máximo de ${formatarReais(acima.valorMaximoCestaCentavos)} do mercado ${acima.mercado}`,
    {
      cicloCestaId: acima.cicloCestaId,
      cesta: acima.cesta,
      mercadoId: acima.mercadoId,
      excesso: paraNumero(excesso, ESCALA_DINHEIRO),
    },
  );
}

/** Each cycle basket goes to the cesta market that lists it, or to none; one already ordered keeps its market. */
export async function atribuirCestas(
  trx: Db,
  cicloid: number,
  itens: readonly CicloMercadoLido[],
  iso: string,
): Promise<void> {
  const atuais = await trx
    .selectFrom('ciclocesta')
    .select(['id', 'mercadoId', 'reservadoMilesimos'])
    .where('cicloid', '=', cicloid)
    .execute();
  const nomes = new Map(
    (
      await trx
        .selectFrom('ciclocesta as cc')
        .innerJoin('cesta', 'cesta.id', 'cc.cestaId')
        .select(['cc.id', 'cesta.nome'])
        .where('cc.cicloid', '=', cicloid)
        .execute()
    ).map((c) => [c.id, c.nome]),
  );
  for (const c of atuais) {
    const novo = itens.find((i) => i.cicloCestaIds.includes(c.id))?.mercadoId ?? null;
    if (novo === c.mercadoId) continue;
    if (Number(c.reservadoMilesimos) > 0) {
      throw new Conflito(
        'CESTA_JA_PEDIDA',
        `A cesta ${nomes.get(c.id) ?? c.id} já foi pedida: ela fica no mercado em que foi vendida`,
        { cicloCestaId: c.id },
      );
    }
    await trx.updateTable('ciclocesta').set({ mercadoId: novo, updatedAt: iso }).where('id', '=', c.id).execute();
  }
}
