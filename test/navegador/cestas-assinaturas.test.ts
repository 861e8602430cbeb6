/**
 * Subscriptions in chromium: a subscriber on a 360 px phone sees on the dashboard that the basket
 * comes in this cycle, skips it there, and finds the cycle "pulado" on /assinaturas; the
 * coordination's list with the totals. Screenshots at 360 and 1280 px.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { conferirPagina, semChromium, semErrosNoConsole } from '../helpers/chromium.ts';
import { criarCesta, criarCiclo, criarExtra, criarPonto, criarProduto } from '../helpers/fabricas.ts';
import { NO_PEDIDO, entrarComoNovo, lido, montarPalco, type Palco, type Sessao } from './cestas-apoio.ts';

const pular = semChromium();

describe('assinaturas no navegador', { skip: pular }, () => {
  let palco: Palco;
  const sessoes: Sessao[] = [];
  let cestaId = 0;
  let frutasId = 0;
  let sede = 0;
  let cicloid = 0;
  let ponto = 0;

  before(async () => {
    palco = await montarPalco(NO_PEDIDO);
    cestaId = (await criarCesta(palco.amb.banco, { nome: 'Cesta da Horta' })).id;
    frutasId = (await criarCesta(palco.amb.banco, { nome: 'Cesta de Frutas', valorCentavos: 4500 })).id;
    cicloid = (
      await criarCiclo(palco.amb.banco, {
        nome: 'Ciclo de março',
        cestas: [
          { cestaId, quantidadeCestas: 10 },
          { cestaId: frutasId, quantidadeCestas: 10 },
        ],
        compor: true,
      })
    ).id;
    const mel = await criarProduto(palco.amb.banco, { nome: 'Mel silvestre', unidade: 'kg', valorCentavos: 4000 });
    await criarExtra(palco.amb.banco, cicloid, { produtoId: mel.id, quantidadeMilesimos: 5000, valorCentavos: 4000 });
    ponto = (await criarPonto(palco.amb.banco, 'Escola Municipal')).id;
    sede = (await criarPonto(palco.amb.banco, 'Sede da Feira')).id;
  });
  /** Subscribes through the page's new-subscription form, at Escola Municipal, for the season. */
  const assinar = async (pagina: Page, cesta: number, quantas: number): Promise<void> => {
    await pagina.goto(`${palco.amb.url}/assinaturas`);
    const nova = pagina.locator('#form-nova');
    await nova.getByLabel('Cesta', { exact: true }).selectOption(String(cesta));
    await nova.getByLabel('Quantas cestas por ciclo').fill(String(quantas));
    await nova.getByLabel('Onde vai retirar').selectOption(String(ponto));
    await nova.getByLabel('Início da temporada').fill('2026-03-01');
    await nova.getByLabel('Fim da temporada').fill('2026-06-30');
    await nova.getByRole('button', { name: 'Assinar' }).click();
    await pagina.waitForURL(`${palco.amb.url}/assinaturas`);
  };
  after(async () => {
    for (const s of sessoes) await s.ctx.fechar();
    await palco.fechar();
  });

  test('no telefone: assina, vê no painel que a cesta vem, pula pelo painel e vê "pulado" em /assinaturas', async () => {
    const s = await entrarComoNovo(palco, ['consumidor'], 'Rosa Maria', { largura: 360 });
    sessoes.push(s);
    const { pagina } = s;
    const url = palco.amb.url;
    await assinar(pagina, cestaId, 2);
    assert.match(lido(await pagina.getByRole('status').first().innerText()), /Assinatura criada/);

    await pagina.goto(`${url}/`);
    const cartao = pagina.locator('section.sua-cesta li.cartao');
    assert.equal(lido(await cartao.locator('h3').innerText()), 'Ciclo de março');
    assert.equal(
      lido(await cartao.locator('[data-assinatura] p').first().innerText()),
      'Sua cesta vem neste ciclo: Cesta da Horta × 2, retirada em Escola Municipal. Pular?',
    );
    const caixa = await cartao.getByRole('button', { name: /^Pular este ciclo/ }).boundingBox();
    assert.ok(caixa !== null && caixa.x >= 0 && caixa.x + caixa.width <= 360, 'o botão de pular cabe na tela');
    await conferirPagina(pagina, s.ctx, 'assinaturas-painel');
    await cartao.getByRole('button', { name: /^Pular este ciclo/ }).click();
    await pagina.waitForURL(`${url}/`);
    assert.match(lido(await pagina.getByRole('status').first().innerText()), /a cesta não vem no ciclo Ciclo de março/);
    assert.match(
      lido(await pagina.locator('section.sua-cesta').innerText()),
      /Ciclo de março .*Você pulou a Cesta da Horta neste ciclo: ela não vem\./,
    );
    await conferirPagina(pagina, s.ctx, 'assinaturas-painel-pulado');

    await pagina.getByRole('link', { name: 'Ver suas assinaturas' }).click();
    await pagina.waitForURL(`${url}/assinaturas`);
    const ciclo = pagina.locator(`li[data-ciclo="${cicloid}"]`);
    assert.match(lido(await ciclo.innerText()), /Ciclo de março .*pulado/);
    await conferirPagina(pagina, s.ctx, 'assinaturas-consumidor');
    semErrosNoConsole(s.ctx);
  });

  test('a coordenação vê todas as assinaturas com os totais por cesta e por ponto', async () => {
    const s = await entrarComoNovo(palco, ['admin'], 'Coordenação', { largura: 1280 });
    sessoes.push(s);
    const { pagina } = s;
    await pagina.goto(`${palco.amb.url}/`);
    await pagina.getByRole('link', { name: 'Assinaturas' }).first().click();
    await pagina.waitForURL(`${palco.amb.url}/assinaturas/todas`);
    const porCesta = pagina.getByRole('region', { name: 'Assinaturas por cesta' });
    assert.match(lido(await porCesta.locator('tbody tr').first().innerText()), /Cesta da Horta 1 2 sem limite/);
    const porPonto = pagina.getByRole('region', { name: 'Assinaturas por ponto' });
    assert.match(lido(await porPonto.locator('tbody tr').first().innerText()), /Escola Municipal 1 2/);
    assert.match(
      lido(await pagina.getByRole('region', { name: 'Lista das assinaturas' }).innerText()),
      /Rosa Maria Cesta da Horta 2 Escola Municipal A cada ciclo 01\/03\/2026 a 30\/06\/2026 ativa/,
    );
    await conferirPagina(pagina, s.ctx, 'assinaturas-todas');
    // The season paid in advance, typed as people type money; the row then shows it.
    const lista = pagina.getByRole('region', { name: 'Lista das assinaturas' });
    await lista.getByText('Registrar pagamento', { exact: true }).first().click();
    await lista.getByLabel('Valor pago (R$)').fill('480,00');
    await lista.getByLabel('Observação (opcional)').fill('Pix de 01/03');
    await conferirPagina(pagina, s.ctx, 'assinaturas-todas-pagamento');
    await lista.getByRole('button', { name: 'Registrar pagamento' }).click();
    await pagina.waitForURL(`${palco.amb.url}/assinaturas/todas#pagamento-*`);
    assert.match(lido(await pagina.locator('body').innerText()), /Pagamento de R\$ 480,00 registrado para Rosa Maria/);
    assert.match(
      lido(await pagina.getByRole('region', { name: 'Lista das assinaturas' }).innerText()),
      /ativa R\$ 480,00/,
    );
    semErrosNoConsole(s.ctx);
  });
  test('duas assinaturas no mesmo ciclo: um cartão com o nome do ciclo; o extra acrescentado mantém a confirmação, e o cartão mostra o ponto do pedido', async () => {
    const s = await entrarComoNovo(palco, ['consumidor'], 'Tereza Assina', { largura: 360 });
    sessoes.push(s);
    const { pagina } = s;
    const url = palco.amb.url;
    for (const cesta of [frutasId, cestaId]) await assinar(pagina, cesta, 1);
    await pagina.goto(`${url}/`);
    const cartoes = pagina.locator('section.sua-cesta li.cartao');
    assert.equal(await cartoes.count(), 1, 'um cartão por ciclo');
    assert.equal(lido(await cartoes.locator('h3').innerText()), 'Ciclo de março');
    assert.equal(await cartoes.locator('[data-assinatura]').count(), 2);

    // The generated order is confirmed; the form says before saving that it stays so.
    await pagina.goto(`${url}/pedidoconsumidores/${cicloid}`);
    assert.match(
      lido(await pagina.locator('#nota-da-confirmacao').innerText()),
      /^Este pedido tem a cesta da sua assinatura e continua confirmado/,
    );
    await pagina.getByLabel('Mel silvestre').fill('1,5');
    await pagina.getByLabel('Onde vai retirar').selectOption(String(sede));
    await conferirPagina(pagina, s.ctx, 'assinaturas-pedido-com-extra');
    await Promise.all([
      pagina.waitForURL(/\/pedidoconsumidoresconfirmacao\/\d+$/),
      pagina.getByRole('button', { name: 'Salvar pedido' }).click(),
    ]);
    await pagina.getByText(/^Pedido confirmado em/).waitFor();
    assert.equal(await pagina.getByText('Falta confirmar.').count(), 0);
    const pedido = await palco.amb.banco
      .selectFrom('pedido')
      .select(['finalizado', 'pontoEntregaId'])
      .where('cicloid', '=', cicloid)
      .where('usuarioid', '=', s.usuario.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual([Boolean(pedido.finalizado), pedido.pontoEntregaId], [true, sede]);

    // The card says the point the order (and so the delivery PDF) uses.
    await pagina.goto(`${url}/`);
    const textos = await cartoes.locator('[data-assinatura] p').allInnerTexts();
    assert.deepEqual(textos.map(lido), [
      'Sua cesta vem neste ciclo: Cesta de Frutas × 1, retirada em Sede da Feira. Pular?',
      'Sua cesta vem neste ciclo: Cesta da Horta × 1, retirada em Sede da Feira. Pular?',
    ]);
    await conferirPagina(pagina, s.ctx, 'assinaturas-painel-um-cartao');
    semErrosNoConsole(s.ctx);
  });
});
