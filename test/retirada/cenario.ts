import type { Db } from '../../src/db/banco.ts';
import type { DatasCiclo } from '../../src/domain/ciclos/calendario.ts';
import { diaLocal, somarDias } from '../../src/domain/tempo.ts';
import {
  criarCesta,
  criarCiclo,
  criarExtra,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';

/**
 * A cycle on its pickup day (the order window ended yesterday by `agora`), with two pickup points
 * and, in numbers chosen so every amount is easy to check by hand:
 *
 * - one basket type (R$ 50,00), composed of 2 kg of Ana's tomatoes (R$ 4,00/kg) and 1 maço of
 *   Carla's lettuce (R$ 2,50) per basket;
 * - tomatoes as an extra at R$ 6,00/kg: Beto's 20 kg (R$ 3,00/kg, cheaper, so the allocation
 *   gives them first) and Ana's 100 kg (80 kg left after the baskets);
 * - at the Sede (listed with its day and hours): Rita, 1 basket and 5 kg of tomatoes; Sérgio, 2
 *   baskets and 18 kg; Uma's order was never confirmed. At the Escola: Tais, 1 basket.
 *
 * Confirmed extras: 23 kg, so Beto delivers 20 and Ana 3. Names end with the cycle's id.
 */
export async function cenarioDaRetirada(db: Db, opcoes: { agora: Date; tz?: string; datas?: Partial<DatasCiclo> }) {
  const hoje = diaLocal(opcoes.agora, opcoes.tz ?? 'America/Sao_Paulo');
  const datas: DatasCiclo = {
    dataOfertaInicio: somarDias(hoje, -8),
    dataOfertaFim: somarDias(hoje, -6),
    dataPedidoInicio: somarDias(hoje, -4),
    dataPedidoFim: somarDias(hoje, -1),
    dataRetiradaInicio: hoje,
    dataRetiradaFim: somarDias(hoje, 1),
    ...opcoes.datas,
  };
  const cesta = await criarCesta(db, { valorCentavos: 5000 });
  const ciclo = await criarCiclo(db, { datas, cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }] });
  const cicloid = ciclo.id;
  const cicloCestaId = ciclo.cicloCestas[0] ?? 0;
  const iso = new Date().toISOString();
  const tomate = await criarProduto(db, { nome: `Tomate ${cicloid}`, unidade: 'kg' });
  const alface = await criarProduto(db, { nome: `Alface ${cicloid}`, unidade: 'maço' });
  const ana = await criarUsuario(db, { perfil: ['fornecedor'], nome: `Ana ${cicloid}` });
  const beto = await criarUsuario(db, { perfil: ['fornecedor'], nome: `Beto ${cicloid}` });
  const carla = await criarUsuario(db, { perfil: ['fornecedor'], nome: `Carla ${cicloid}` });
  const [tomateAna = 0] = (
    await criarOfertaFinalizada(
      db,
      cicloid,
      [{ produtoId: tomate.id, quantidadeMilesimos: 100_000, valorCentavos: 400 }],
      ana.id,
    )
  ).linhas;
  const [tomateBeto = 0] = (
    await criarOfertaFinalizada(
      db,
      cicloid,
      [{ produtoId: tomate.id, quantidadeMilesimos: 20_000, valorCentavos: 300 }],
      beto.id,
    )
  ).linhas;
  const [alfaceCarla = 0] = (
    await criarOfertaFinalizada(
      db,
      cicloid,
      [{ produtoId: alface.id, quantidadeMilesimos: 50_000, valorCentavos: 250 }],
      carla.id,
    )
  ).linhas;
  const composicao = await db
    .insertInto('composicao')
    .values({ cicloCestaId, quantidadeCestas: 10, createdAt: iso, updatedAt: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('composicaoproduto')
    .values([
      {
        composicaoid: composicao.id,
        ofertaProdutoId: tomateAna,
        quantidadePorCestaMilesimos: 2000,
        unidade: 'kg',
        createdAt: iso,
        updatedAt: iso,
      },
      {
        composicaoid: composicao.id,
        ofertaProdutoId: alfaceCarla,
        quantidadePorCestaMilesimos: 1000,
        unidade: 'maço',
        createdAt: iso,
        updatedAt: iso,
      },
    ])
    .execute();
  const extra = await criarExtra(db, cicloid, {
    produtoId: tomate.id,
    quantidadeMilesimos: 30_000,
    valorCentavos: 600,
  });
  const sede = { id: (await criarPonto(db, `Sede ${cicloid}`)).id, nome: `Sede ${cicloid}` };
  const escola = { id: (await criarPonto(db, `Escola ${cicloid}`)).id, nome: `Escola ${cicloid}` };
  await db
    .updateTable('pontoentrega')
    .set({ endereco: 'Rua das Hortas, 12', cidade: 'São Carlos' })
    .where('id', '=', sede.id)
    .execute();
  await db
    .insertInto('ciclopontoentrega')
    .values([
      {
        cicloid,
        pontoEntregaId: sede.id,
        dataRetirada: hoje,
        horaInicio: '09:00',
        horaFim: '12:00',
        createdAt: iso,
        updatedAt: iso,
      },
      {
        cicloid,
        pontoEntregaId: escola.id,
        dataRetirada: somarDias(hoje, 1),
        horaInicio: null,
        horaFim: null,
        createdAt: iso,
        updatedAt: iso,
      },
    ])
    .execute();

  /** A consumer's order at a point: baskets and kilos of tomatoes (0: none). */
  async function pedido(
    nome: string,
    ponto: number,
    cestas: number,
    kg: number,
    finalizado = true,
  ): Promise<{ usuarioid: number; pedidoId: number; linhaCesta: number; linhaExtra: number }> {
    const u = await criarUsuario(db, { perfil: ['consumidor'], nome: `${nome} ${cicloid}` });
    await db.updateTable('usuario').set({ celular: '(16) 99999-0000' }).where('id', '=', u.id).execute();
    const p = await db
      .insertInto('pedido')
      .values({
        cicloid,
        usuarioid: u.id,
        pontoEntregaId: ponto,
        finalizado,
        dataConfirmacao: finalizado ? `${datas.dataPedidoInicio}T10:00:00` : null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const linhas: number[] = [];
    for (const [cicloCesta, cicloProdutoId, quantidadeMilesimos, valorCentavos] of [
      [cicloCestaId, null, cestas * 1000, 5000],
      [null, extra.id, kg * 1000, 600],
    ] as const) {
      if (quantidadeMilesimos === 0) {
        linhas.push(0);
        continue;
      }
      const l = await db
        .insertInto('pedidoproduto')
        .values({
          pedidoid: p.id,
          cicloCestaId: cicloCesta,
          cicloProdutoId,
          quantidadeMilesimos,
          valorCentavos,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      linhas.push(l.id);
    }
    return { usuarioid: u.id, pedidoId: p.id, linhaCesta: linhas[0] ?? 0, linhaExtra: linhas[1] ?? 0 };
  }

  const rita = await pedido('Rita', sede.id, 1, 5);
  const sergio = await pedido('Sérgio', sede.id, 2, 18);
  const uma = await pedido('Uma', sede.id, 1, 0, false);
  const tais = await pedido('Tais', escola.id, 1, 0);
  return {
    cicloid,
    cicloCestaId,
    cesta: cesta.nome,
    datas,
    hoje,
    tomate,
    alface,
    ana,
    beto,
    carla,
    linhas: { tomateAna, tomateBeto, alfaceCarla },
    extra: extra.id,
    sede,
    escola,
    rita,
    sergio,
    uma,
    tais,
  };
}

export type CenarioDaRetirada = Awaited<ReturnType<typeof cenarioDaRetirada>>;

/** Names a volunteer for a point in a cycle, as the cycle's form does (src/domain/retirada/voluntarios.ts). */
export async function nomearVoluntario(db: Db, cicloid: number, pontoEntregaId: number, usuarioid: number) {
  await db
    .insertInto('voluntario')
    .values({ cicloid, pontoEntregaId, usuarioid, createdAt: new Date().toISOString() })
    .execute();
}
