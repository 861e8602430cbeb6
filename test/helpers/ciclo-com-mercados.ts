import assert from 'node:assert/strict';
import { criarMercadoNoBanco } from '../mercados/apoio.ts';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
  criarUsuario,
} from './fabricas.ts';
import { entrarComo, type Pessoa } from './sessoes.ts';
import type { AmbienteDeTeste } from './servidor.ts';

/**
 * A cycle (DATAS_PADRAO) that serves a market of each type, with confirmed orders, for the reports
 * by market. One basket type (10 baskets of 5 kg of Ana's tomatoes at R$ 4,00) in a cesta market
 * (fee 5 %); 30 kg of tomatoes released to a venda_direta market at R$ 6,00 (fee 10 %), where
 * Beto's cheaper 20 kg (R$ 3,00) go first; a lot of 15 kg of Ana's tomatoes in a lote market; and
 * a market outside the cycle. Rita buys 1 basket and 2 kg, Sérgio 2 baskets and 21 kg: 23 kg sold
 * at the fair, 20 from Beto and 3 from Ana. Names end with the cycle's id. `admin` is logged in
 * with the admin perfil; `adminId` the Mercados account that runs the markets. The clock goes to
 * the composition phase and the order window and comes back to where it was.
 */
export async function cicloComMercados(amb: AmbienteDeTeste, admin: Pessoa, adminId: number) {
  const url = (p: string) => `${amb.url}${p}`;
  const antes = amb.relogio.agora();
  amb.relogio.definir('2026-03-05T15:00:00Z');
  const cesta = await criarCesta(amb.banco, { valorCentavos: 5000 });
  const ciclo = await criarCiclo(amb.banco, {
    datas: DATAS_PADRAO,
    cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
  });
  const cicloCestaId = ciclo.cicloCestas[0] ?? 0;
  const tomate = await criarProduto(amb.banco, { nome: `Tomate ${ciclo.id}`, unidade: 'kg' });
  const ana = await criarUsuario(amb.banco, { perfil: ['fornecedor'], nome: `Ana ${ciclo.id}` });
  const beto = await criarUsuario(amb.banco, { perfil: ['fornecedor'], nome: `Beto ${ciclo.id}` });
  const [linhaAna = 0] = (
    await criarOfertaFinalizada(
      amb.banco,
      ciclo.id,
      [{ produtoId: tomate.id, quantidadeMilesimos: 100_000, valorCentavos: 400 }],
      ana.id,
    )
  ).linhas;
  await criarOfertaFinalizada(
    amb.banco,
    ciclo.id,
    [{ produtoId: tomate.id, quantidadeMilesimos: 20_000, valorCentavos: 300 }],
    beto.id,
  );
  assert.equal(
    (
      await admin.nav.postJson(url(`/composicao/${cicloCestaId}`), {
        quantidadeCestas: 10,
        produtos: [{ ofertaProdutoId: linhaAna, quantidadePorCesta: 5, unidade: 'kg' }],
      })
    ).status,
    200,
  );
  const sede = await criarPonto(amb.banco, `Sede ${ciclo.id}`);
  const escola = await criarPonto(amb.banco, `Escola ${ciclo.id}`);
  const mCesta = await criarMercadoNoBanco(amb.banco, {
    adminId,
    nome: `Cestas ${ciclo.id}`,
    tipo: 'cesta',
    valorMaximoCestaCentavos: 3000,
  });
  const mFeira = await criarMercadoNoBanco(amb.banco, { adminId, nome: `Feira ${ciclo.id}`, tipo: 'venda_direta' });
  const mLote = await criarMercadoNoBanco(amb.banco, { adminId, nome: `PNAE ${ciclo.id}`, tipo: 'lote' });
  const mFora = await criarMercadoNoBanco(amb.banco, { adminId, nome: `Fora ${ciclo.id}`, tipo: 'venda_direta' });
  await amb.banco
    .updateTable('mercado')
    .set({ taxaAdministrativaCentesimos: 1000 })
    .where('id', '=', mFeira.id)
    .execute();
  const iso = new Date().toISOString();
  await amb.banco
    .insertInto('precomercado')
    .values({
      mercadoId: mFeira.id,
      produtoId: tomate.id,
      precoCentavos: 600,
      ativo: true,
      createdAt: iso,
      updatedAt: iso,
    })
    .execute();
  const mercados = await admin.nav.postJson(url(`/ciclo/${ciclo.id}/mercados`), {
    cicloMercados: [
      { mercadoId: mCesta.id, ordemAtendimento: 1, pontoEntregaIds: [sede.id], cicloCestaIds: [cicloCestaId] },
      { mercadoId: mFeira.id, ordemAtendimento: 2, pontoEntregaIds: [sede.id], cicloCestaIds: [] },
      { mercadoId: mLote.id, ordemAtendimento: 3, pontoEntregaIds: [], cicloCestaIds: [] },
    ],
  });
  assert.equal(mercados.status, 200, mercados.texto);
  assert.equal(
    (
      await admin.nav.postJson(url(`/ciclo/${ciclo.id}/mercado/${mFeira.id}/liberar`), {
        itens: [{ produtoId: tomate.id, quantidade: 30 }],
      })
    ).status,
    200,
  );
  const lote = await admin.nav.postJson(url(`/ciclo/${ciclo.id}/lotes`), {
    mercadoId: mLote.id,
    comprador: 'Escola Estadual',
    pontoEntregaId: escola.id,
    valorAlvo: 60,
    linhas: [{ ofertaProdutoId: linhaAna, quantidade: 15 }],
  });
  assert.equal(lote.status, 201, lote.texto);
  const liberado = (
    await amb.banco
      .selectFrom('cicloproduto')
      .select('id')
      .where('cicloid', '=', ciclo.id)
      .where('mercadoId', '=', mFeira.id)
      .executeTakeFirstOrThrow()
  ).id;
  amb.relogio.definir('2026-03-07T15:00:00Z');
  for (const [nome, cestas, kg] of [
    [`Rita ${ciclo.id}`, 1, 2],
    [`Sérgio ${ciclo.id}`, 2, 21],
  ] as const) {
    const consumidor = await entrarComo(amb, ['consumidor'], nome);
    const r = await consumidor.nav.postJson(url('/pedidoconsumidores'), {
      cicloid: ciclo.id,
      pontoEntregaId: sede.id,
      produtos: [
        { cicloCestaId, quantidade: cestas },
        { cicloProdutoId: liberado, quantidade: kg },
      ],
    });
    assert.equal(r.status, 201, r.texto);
    assert.equal(
      (
        await consumidor.nav.postJson(url('/pedidoconsumidoresconfirmacao'), {
          pedidoId: r.json<{ data: { pedidoId: number } }>().data.pedidoId,
        })
      ).status,
      200,
    );
  }
  amb.relogio.definir(antes);
  return { cicloid: ciclo.id, id: ciclo.id, ana, beto, mCesta, mFeira, mLote, mFora };
}

export type CicloComMercados = Awaited<ReturnType<typeof cicloComMercados>>;
