/**
 * The Mercados client shows instants in the community's time zone (the server's `TZ`, which the
 * client learns from /auth/status), not the device's: a supplier whose phone is set to Tokyo reads
 * the moment their offer was finalised at São Paulo's hour, as the Cestas pages and e-mails say it.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { diaLocal, somarDias } from '../../src/domain/tempo.ts';
import { abrirChromium, abrirContexto, entrarNoNavegador, semChromium } from '../helpers/chromium.ts';
import { criarOfertaFinalizada, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { zerarLimiteDeLogin } from '../mercados/apoio.ts';

const pular = semChromium();

describe('instantes no fuso da comunidade, no cliente Mercados', { skip: pular }, () => {
  let amb: AmbienteDeTeste;
  let navegador: Browser;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true, env: { TZ: 'America/Sao_Paulo' } });
    navegador = await abrirChromium();
  });
  after(async () => {
    await navegador.close();
    await amb.fechar();
  });

  test('num navegador em Tóquio, "finalizada em" mostra a hora de São Paulo', async () => {
    const sufixo = randomBytes(2).toString('hex');
    const hoje = diaLocal(amb.relogio.agora(), 'America/Sao_Paulo');
    const iso = new Date().toISOString();
    const nomeCiclo = `Ciclo do fuso ${sufixo}`;
    const ciclo = await amb.banco
      .insertInto('ciclo')
      .values({
        nome: nomeCiclo,
        nomeChave: nomeCiclo.toLowerCase(),
        dataOfertaInicio: somarDias(hoje, -1),
        dataOfertaFim: somarDias(hoje, 1),
        dataPedidoInicio: somarDias(hoje, 2),
        dataPedidoFim: somarDias(hoje, 3),
        dataRetiradaInicio: somarDias(hoje, 4),
        dataRetiradaFim: somarDias(hoje, 5),
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const fornecedora = await criarUsuario(amb.banco, { perfil: ['fornecedor'], nome: 'Fernanda Fornecedora' });
    const produto = await criarProduto(amb.banco, { nome: `Couve ${sufixo}`, unidade: 'maço', valorCentavos: 300 });
    const { ofertaId } = await criarOfertaFinalizada(
      amb.banco,
      ciclo.id,
      [{ produtoId: produto.id, quantidadeMilesimos: 10_000, valorCentavos: 300 }],
      fornecedora.id,
    );
    // 15:16 UTC: 12:16 in São Paulo, 00:16 of the next day in Tokyo.
    await amb.banco
      .updateTable('oferta')
      .set({ finalizadaEm: '2026-11-20T15:16:00.000Z' })
      .where('id', '=', ofertaId)
      .execute();

    const ctx = await abrirContexto(navegador, { fuso: 'Asia/Tokyo' });
    try {
      const pagina = await ctx.novaPagina();
      await zerarLimiteDeLogin(amb.banco);
      await entrarNoNavegador(pagina, `${amb.urlMercados}/login`, amb.urlMercados, {
        email: fornecedora.email,
        nome: 'Fernanda Fornecedora',
      });
      assert.equal(
        await pagina.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone),
        'Asia/Tokyo',
        'o navegador está em Tóquio',
      );

      await pagina.goto(`${amb.urlMercados}/ciclos/${ciclo.id}/oferta`);
      await pagina.getByRole('heading', { name: `Oferta em ${nomeCiclo}` }).waitFor();
      await pagina.getByText('finalizada em 20/11/2026 às 12:16').waitFor();
      assert.equal(await pagina.getByText('00:16').count(), 0, 'nunca a hora do aparelho');

      await pagina.goto(`${amb.urlMercados}/entregas`);
      await pagina.getByRole('heading', { name: nomeCiclo }).waitFor();
      await pagina.getByText('finalizada em 20/11/2026 às 12:16').waitFor();
      assert.equal(await pagina.getByText('21/11/2026').count(), 0, 'nem o dia do aparelho');
      assert.deepEqual(ctx.ocorrencias.erros, []);
    } finally {
      await ctx.fechar();
    }
  });
});
