/**
 * Markets in a cycle, in chromium on a phone: the coordinator ticks the markets the cycle serves,
 * their points and the basket a cesta market sells (its cost against the ceiling), releases
 * surplus to the direct-sale market at its price, makes a lot for the school; a consumer sees
 * which market sells each item and each market's fee on the confirmation.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { conferirPagina, descartarOcorrencias, semChromium, semErrosNoConsole } from '../helpers/chromium.ts';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
} from '../helpers/fabricas.ts';
import { criarMercadoNoBanco } from '../mercados/apoio.ts';
import { NO_PEDIDO, entrarComoNovo, lido, montarPalco, type Palco, type Sessao } from './cestas-apoio.ts';

const pular = semChromium();

describe('mercados no ciclo, no navegador', { skip: pular }, () => {
  let palco: Palco;
  let admin: Sessao;
  let consumidora: Sessao;
  let cicloid = 0;
  let mercados: { cesta: number; direta: number; lote: number } = { cesta: 0, direta: 0, lote: 0 };

  before(async () => {
    palco = await montarPalco(NO_PEDIDO);
    const banco = palco.amb.banco;
    const cesta = await criarCesta(banco, { nome: 'Cesta da roça', valorCentavos: 6000 });
    const ciclo = await criarCiclo(banco, {
      nome: 'Ciclo de março',
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
    });
    cicloid = ciclo.id;
    const tomate = await criarProduto(banco, { nome: 'Tomate', unidade: 'kg' });
    const oferta = await criarOfertaFinalizada(banco, cicloid, [
      { produtoId: tomate.id, quantidadeMilesimos: 100_000, valorCentavos: 400 },
    ]);
    const iso = new Date().toISOString();
    const composicao = await banco
      .insertInto('composicao')
      .values({ cicloCestaId: ciclo.cicloCestas[0] ?? 0, quantidadeCestas: 10, createdAt: iso, updatedAt: iso })
      .returning('id')
      .executeTakeFirstOrThrow();
    await banco
      .insertInto('composicaoproduto')
      .values({
        composicaoid: composicao.id,
        ofertaProdutoId: oferta.linhas[0] ?? 0,
        quantidadePorCestaMilesimos: 5000,
        unidade: 'kg',
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    await criarPonto(banco, 'Sede da associação');
    await criarPonto(banco, 'Escola do bairro');
    const dono = await banco
      .insertInto('appuser')
      .values({
        providerId: 'idp|dono-nav',
        email: 'dono-nav@mercados.org',
        emailChave: 'dono-nav@mercados.org',
        name: 'Dono',
        avatar: null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    mercados = {
      cesta: (
        await criarMercadoNoBanco(banco, {
          adminId: dono.id,
          nome: 'Cesta Solidária',
          tipo: 'cesta',
          valorMaximoCestaCentavos: 3000,
        })
      ).id,
      direta: (await criarMercadoNoBanco(banco, { adminId: dono.id, nome: 'Feira da praça', tipo: 'venda_direta' })).id,
      lote: (await criarMercadoNoBanco(banco, { adminId: dono.id, nome: 'Merenda escolar', tipo: 'lote' })).id,
    };
    await banco
      .insertInto('precomercado')
      .values({
        mercadoId: mercados.direta,
        produtoId: tomate.id,
        precoCentavos: 650,
        ativo: true,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    admin = await entrarComoNovo(palco, ['admin'], 'Rita Coordena');
    consumidora = await entrarComoNovo(palco, ['consumidor'], 'Caio Consome');
  });
  after(async () => {
    await admin.ctx.fechar();
    await consumidora.ctx.fechar();
    await palco.fechar();
  });

  test('a coordenação marca os mercados do ciclo, os pontos e a cesta; vê o custo contra o máximo', async () => {
    const { pagina, ctx } = admin;
    await pagina.goto(`${palco.amb.url}/ciclo/${cicloid}`);
    await pagina.getByRole('link', { name: 'Mercados', exact: true }).last().click();
    await pagina.getByRole('heading', { name: 'Mercados do Ciclo de março' }).waitFor();
    await pagina.getByLabel('Este ciclo atende Cesta Solidária').check();
    await pagina.getByLabel('Este ciclo atende Feira da praça').check();
    await pagina.getByLabel('Este ciclo atende Merenda escolar').check();
    const cesta = pagina.getByRole('group', { name: /Cesta Solidária/ });
    await cesta.getByLabel('Sede da associação').check();
    await cesta.getByLabel(/Cesta da roça/).check();
    await pagina.getByRole('button', { name: 'Salvar mercados do ciclo' }).click();
    await pagina.getByText('Mercados do ciclo salvos.').waitFor();
    assert.match(
      lido(await pagina.getByRole('group', { name: /Cesta Solidária/ }).textContent()),
      /Cesta da roça · custo R\$ 20,00 de R\$ 30,00/,
    );
    await conferirPagina(pagina, ctx, 'mercados-do-ciclo');
    semErrosNoConsole(ctx);
  });

  test('libera a sobra para a feira pelo preço dela, e monta o lote da escola contra o alvo', async () => {
    const { pagina, ctx } = admin;
    await pagina.getByRole('link', { name: 'Liberar itens para Feira da praça' }).click();
    await pagina.getByLabel('Liberar de Tomate (kg)').fill('20');
    await pagina.getByRole('button', { name: 'Salvar o que está liberado' }).click();
    await pagina.getByText('Itens liberados para venda direta.').waitFor();
    assert.match(lido(await pagina.locator('table tbody').textContent()), /Tomate R\$ 6,50 \/ kg 50 kg 0 kg/);
    assert.equal(await pagina.getByLabel('Liberar de Tomate (kg)').inputValue(), '20');
    await conferirPagina(pagina, ctx, 'mercados-liberar');
    await pagina.goto(`${palco.amb.url}/ciclo/${cicloid}/lotes`);
    await pagina.getByLabel('Quem compra').fill('Escola do bairro (merenda)');
    await pagina.getByLabel('Onde entrega').selectOption({ label: 'Escola do bairro' });
    await pagina.getByLabel('Valor-alvo (R$)').fill('100,00');
    await pagina.getByLabel(/Tomate de .* no lote \(kg\)/).fill('20');
    await pagina.getByRole('button', { name: 'Criar lote' }).click();
    await pagina.getByText('Lote de Escola do bairro (merenda) criado.').waitFor();
    assert.match(
      lido(await pagina.locator('.cartao').first().textContent()),
      /Valor R\$ 80,00 de R\$ 100,00 do alvo\s*\(faltam R\$ 20,00\)/,
    );
    // 50 in baskets + 20 released + 20 in the lot: 10 kg left for more lots.
    await pagina.getByLabel(/Tomate de .* no lote \(kg\)/).fill('11');
    await pagina.getByLabel('Quem compra').fill('Creche');
    await pagina.getByLabel('Valor-alvo (R$)').fill('50');
    await pagina.getByRole('button', { name: 'Criar lote' }).click();
    await pagina.getByRole('alert').filter({ hasText: 'Falta 1 kg de Tomate' }).waitFor();
    // The refusal is the page's own answer (409), which the browser also notes in its console.
    assert.equal(descartarOcorrencias(ctx, /status of 409/), 1);
    assert.equal(
      await pagina.getByLabel('Quem compra').inputValue(),
      'Creche',
      'o formulário volta com o que foi digitado',
    );
    await conferirPagina(pagina, ctx, 'mercados-lotes');
    semErrosNoConsole(ctx);
  });

  test('quem pede vê o mercado de cada item, e a confirmação mostra a taxa de cada mercado', async () => {
    const { pagina, ctx } = consumidora;
    await pagina.goto(`${palco.amb.url}/pedidoconsumidores/${cicloid}`);
    await pagina.getByText('Vendida por Cesta Solidária').waitFor();
    await pagina.getByLabel('Quantidade de Cesta da roça').fill('1');
    await pagina.getByLabel('Tomate').fill('2');
    await pagina.getByLabel('Onde vai retirar').selectOption({ label: 'Sede da associação' });
    await pagina.getByRole('button', { name: 'Salvar pedido' }).click();
    await pagina.waitForURL(/\/pedidoconsumidoresconfirmacao\/\d+/);
    const tabela = lido(await pagina.locator('table.itens-do-pedido').textContent());
    assert.match(tabela, /Taxa de Cesta Solidária \(5% de R\$ 60,00\)R\$ 3,00/);
    assert.match(tabela, /Taxa de Feira da praça \(5% de R\$ 13,00\)R\$ 0,65/);
    assert.match(tabela, /A pagarR\$ 76,65/);
    await conferirPagina(pagina, ctx, 'mercados-confirmacao');
    semErrosNoConsole(ctx);
  });
});
