/**
 * The Mercados client on a 360 px phone, as a new user found it (issue 37 items 6 and 2): the
 * dashboard lists each person's next steps, each a link to where it is done with its deadline in
 * the community's time zone (the phone is set to Tokyo); the cycles page says where the person's
 * order stands ("Confirmar pedido", "Pedido confirmado", "Confirmar de novo"); the confirm button
 * stays in view at the bottom of a long order page while the order waits for (re)confirmation,
 * covers nothing at the page's end, works with the keyboard and is gone once confirmed; and a
 * supplier in the delivery phase reads when and where to deliver.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { diaLocal, horarioDeRetiradaTexto, somarDias } from '../../src/domain/tempo.ts';
import { join } from 'node:path';
import {
  PASTA_DE_TELAS,
  abrirChromium,
  abrirContexto,
  conferirPagina,
  entrarNoNavegador,
  semChromium,
} from '../helpers/chromium.ts';
import {
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { cicloNaEntrega, zerarLimiteDeLogin } from '../mercados/apoio.ts';

const pular = semChromium();
const FUSO = 'America/Sao_Paulo';
const ALTURA = 740;

describe('próximos passos e a barra de confirmar no cliente Mercados', { skip: pular }, () => {
  let amb: AmbienteDeTeste;
  let navegador: Browser;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true, env: { TZ: FUSO } });
    navegador = await abrirChromium();
  });
  after(async () => {
    await navegador.close();
    await amb.fechar();
  });

  const hoje = () => diaLocal(amb.relogio.agora(), FUSO);
  /** "sexta-feira, 04/12/2026": how every page says a day. */
  const diaLido = (dia: string) => horarioDeRetiradaTexto({ dataRetirada: dia, horaInicio: null, horaFim: null });
  const texto = async (p: Page, seletor: string) => (await p.locator(seletor).innerText()).replace(/\s+/g, ' ').trim();

  async function entrar(pessoa: { email: string; nome: string }) {
    // The phone is set to Tokyo: deadlines still read in the community's zone.
    const ctx = await abrirContexto(navegador, { largura: 360, altura: ALTURA, fuso: 'Asia/Tokyo' });
    const pagina = await ctx.novaPagina();
    await zerarLimiteDeLogin(amb.banco);
    await entrarNoNavegador(pagina, `${amb.urlMercados}/login`, amb.urlMercados, pessoa);
    await pagina.getByRole('heading', { name: `Olá, ${pessoa.nome}!` }).waitFor();
    return { ctx, pagina };
  }

  /** Where the confirm bar is, against the viewport, with the page scrolled to `y`. */
  async function barraEm(pagina: Page, y: number | 'fim') {
    return pagina.evaluate((alvo) => {
      window.scrollTo(0, alvo === 'fim' ? document.documentElement.scrollHeight : alvo);
      const barra = document.querySelector('.barra-confirmar')?.getBoundingClientRect();
      const pedido = document.querySelector('#meu-pedido')?.getBoundingClientRect();
      return {
        topo: barra?.top ?? -1,
        base: barra?.bottom ?? -1,
        fimDoPedido: pedido?.bottom ?? -1,
        altura: document.documentElement.scrollHeight,
        janela: window.innerHeight,
      };
    }, y);
  }

  test('Consumidor: o painel diz o passo e o prazo; Ciclos diz onde está o pedido; "Confirmar de novo" fica à vista', async () => {
    const d = hoje();
    // Eight kinds of basket: on a phone the order page is several screens long.
    const cestas = [];
    for (let i = 1; i <= 8; i++)
      cestas.push({
        cestaId: (await criarCesta(amb.banco, { nome: `Cesta ${i} da horta`, valorCentavos: 4000 + i * 100 })).id,
        quantidadeCestas: 20,
      });
    const ciclo = await criarCiclo(amb.banco, {
      nome: `Ciclo dos passos ${d}`,
      datas: {
        dataOfertaInicio: somarDias(d, -6),
        dataOfertaFim: somarDias(d, -4),
        dataPedidoInicio: somarDias(d, -1),
        dataPedidoFim: somarDias(d, 2),
        dataRetiradaInicio: somarDias(d, 4),
        dataRetiradaFim: somarDias(d, 4),
      },
      cestas,
      compor: true,
    });
    const ponto = await criarPonto(amb.banco, `Sede ${ciclo.id}`);
    const iso = new Date().toISOString();
    await amb.banco
      .insertInto('ciclopontoentrega')
      .values({ cicloid: ciclo.id, pontoEntregaId: ponto.id, createdAt: iso, updatedAt: iso })
      .execute();
    const clara = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Clara Passos' });
    const { ctx, pagina } = await entrar({ email: clara.email, nome: 'Clara Passos' });
    const nav = pagina.getByRole('navigation', { name: 'Principal' });
    const nome = `Ciclo dos passos ${d}`;
    const prazo = new RegExp(
      `^Prazo: até 23:59 de ${diaLido(somarDias(d, 2)).replace(/[/]/g, '\\/')} \\(Hor[áa]rio .*Bras[íi]lia\\)$`,
    );

    // 1. The dashboard: the cycle, the step as a link to the order page, its deadline in São Paulo's time.
    const passos = pagina.getByRole('region', { name: 'Seus próximos passos' });
    await passos.getByRole('heading', { name: new RegExp(nome) }).waitFor();
    const fazer = passos.getByRole('link', { name: 'Fazer seu pedido' });
    assert.equal(await fazer.getAttribute('href'), `/ciclos/${ciclo.id}/pedido`);
    assert.match(await passos.locator('.passos .prazo').innerText(), prazo);
    assert.equal(await passos.getByRole('link', { name: /Pagar/ }).count(), 0, 'nada a pagar ainda');
    await conferirPagina(pagina, ctx, 'mercados-passos-painel');

    // 2. No order yet: the cycles page offers to make one, and no confirm bar anywhere.
    await nav.getByRole('link', { name: 'Ciclos', exact: true }).click();
    const cartao = pagina.getByRole('article', { name: new RegExp(nome) });
    await cartao.getByRole('link', { name: 'Fazer pedido' }).click();
    await pagina.waitForURL(`${amb.urlMercados}/ciclos/${ciclo.id}/pedido`);
    await pagina.getByLabel('Quantidade de Cesta 1 da horta (cestas)').waitFor();
    assert.equal(await pagina.locator('.barra-confirmar').count(), 0, 'sem pedido, nada a confirmar');

    // 3. Saved, not confirmed: the bar with the total and the button, in view at the top of a long page.
    await pagina.getByLabel('Quantidade de Cesta 1 da horta (cestas)').fill('2');
    await pagina.getByLabel(new RegExp(`Sede ${ciclo.id}`)).check();
    await pagina.getByRole('button', { name: 'Salvar pedido' }).click();
    const barra = pagina.getByRole('region', { name: 'Confirmar o pedido' });
    await barra.getByText('Falta confirmar').waitFor();
    const topo = await barraEm(pagina, 0);
    assert.ok(topo.altura > 3 * topo.janela, `a página é longa: ${topo.altura} px`);
    assert.ok(topo.topo >= 0 && topo.base <= topo.janela, `a barra à vista no topo: ${JSON.stringify(topo)}`);
    assert.equal(await barra.getByRole('button').innerText(), 'Confirmar pedido');
    // The bar's total is the saved order's, as the top of the page says it.
    const total = /Total salvo: (R\$ [\d.,]+)/.exec(await texto(pagina, '.resumo-topo'))?.[1] ?? 'sem total';
    assert.equal(await texto(pagina, '.barra-confirmar p'), `Falta confirmar · Total: ${total}`);
    // At the end of the page it takes its own place below the order: it covers none of it.
    const fim = await barraEm(pagina, 'fim');
    assert.ok(fim.topo >= fim.fimDoPedido - 1, `a barra não cobre o pedido: ${JSON.stringify(fim)}`);

    // 4. The dashboard and the cycles page say what is left.
    await nav.getByRole('link', { name: 'Painel' }).click();
    const salvo = passos.getByRole('link', { name: 'Pedido salvo, falta confirmar' });
    assert.equal(await salvo.getAttribute('href'), `/ciclos/${ciclo.id}/pedido`);
    await nav.getByRole('link', { name: 'Ciclos', exact: true }).click();
    await cartao.getByRole('link', { name: 'Confirmar pedido' }).click();
    await pagina.waitForURL(`${amb.urlMercados}/ciclos/${ciclo.id}/pedido`);

    // 5. With the keyboard: Tab reaches the bar's button last, Enter confirms; the bar goes, focus stays on the news.
    await barra.waitFor();
    await pagina.getByRole('button', { name: 'Salvar pedido' }).focus();
    for (let i = 0; i < 10 && !(await barra.getByRole('button').evaluate((b) => b === document.activeElement)); i++)
      await pagina.keyboard.press('Tab');
    assert.equal(
      await barra.getByRole('button').evaluate((b) => b === document.activeElement),
      true,
      'Tab chega ao botão da barra',
    );
    await pagina.keyboard.press('Enter');
    await pagina.getByText(/^Pedido confirmado em /).waitFor();
    assert.equal(await pagina.locator('.barra-confirmar').count(), 0, 'confirmado: a barra sai');
    assert.equal(
      await pagina.evaluate(() => document.activeElement?.classList.contains('foco-da-mensagem')),
      true,
      'o foco vai para a confirmação, não para o começo da página',
    );

    // 6. Confirmed: "Pedido confirmado" on the cycles page; on the dashboard, done, and what to pay.
    await nav.getByRole('link', { name: 'Ciclos', exact: true }).click();
    const confirmado = cartao.getByRole('link', { name: 'Pedido confirmado' });
    assert.equal(await confirmado.getAttribute('href'), `/ciclos/${ciclo.id}/pedido`);
    assert.equal(await cartao.getByRole('link', { name: 'Fazer pedido' }).count(), 0);
    await conferirPagina(pagina, ctx, 'mercados-passos-ciclos');
    await nav.getByRole('link', { name: 'Painel' }).click();
    const feito = passos.locator('.passos li').filter({ hasText: 'Pedido confirmado (ainda pode alterar)' });
    assert.equal(await feito.getAttribute('class'), 'feito');
    assert.match(await feito.innerText(), /Pode alterar: até 23:59 de /);
    const pagar = passos.getByRole('link', { name: `Pagar ${total} com Pix` });
    assert.equal(await pagar.getAttribute('href'), '/pedidos');

    // 7. Changed after confirming: "Confirmar de novo", in view without scrolling, on the cycles page too.
    await pagina.goto(`${amb.urlMercados}/ciclos/${ciclo.id}/pedido`);
    await pagina.getByLabel('Quantidade de Cesta 1 da horta (cestas)').fill('3');
    await pagina.getByRole('button', { name: 'Salvar pedido' }).click();
    await barra.getByText('Falta confirmar de novo').waitFor();
    await pagina.reload();
    await barra.getByRole('button', { name: 'Confirmar de novo' }).waitFor();
    const deNovo = await barraEm(pagina, 0);
    // What the phone shows without scrolling (the full-page captures below draw a sticky bar where the first screen ended).
    await pagina.screenshot({ path: join(PASTA_DE_TELAS, 'mercados-passos-barra-360.png') });
    assert.ok(
      deNovo.topo >= 0 && deNovo.base <= deNovo.janela,
      `"Confirmar de novo" à vista: ${JSON.stringify(deNovo)}`,
    );
    const novoTotal = /Total salvo: (R\$ [\d.,]+)/.exec(await texto(pagina, '.resumo-topo'))?.[1] ?? 'sem total';
    assert.notEqual(novoTotal, total);
    assert.equal(await texto(pagina, '.barra-confirmar p'), `Falta confirmar de novo · Total: ${novoTotal}`);
    await conferirPagina(pagina, ctx, 'mercados-passos-confirmar-de-novo');
    // Typing again, unsaved: the bar says to save first, and its button does nothing.
    await pagina.getByLabel('Quantidade de Cesta 2 da horta (cestas)').fill('1');
    await barra.getByText('Salve as alterações antes de confirmar.').waitFor();
    assert.equal(await barra.getByRole('button').getAttribute('aria-disabled'), 'true');
    await barra.getByRole('button').focus();
    await pagina.keyboard.press('Enter');
    await barra.getByText('Salve as alterações antes de confirmar.').waitFor();
    assert.equal(
      await pagina.getByText(/^Pedido confirmado em /).count(),
      0,
      'nada confirmado com alterações por salvar',
    );
    await pagina.getByLabel('Quantidade de Cesta 2 da horta (cestas)').fill('');
    await nav.getByRole('link', { name: 'Ciclos', exact: true }).click();
    await cartao.getByRole('link', { name: 'Confirmar de novo' }).click();
    await barra.getByRole('button', { name: 'Confirmar de novo' }).click();
    await pagina.getByText(/^Pedido confirmado em /).waitFor();
    assert.equal(await pagina.locator('.barra-confirmar').count(), 0);
    await ctx.fechar();
  });

  test('Fornecedor na entrega: o painel e as páginas de entregas dizem quando e onde entregar', async () => {
    const nome = `Ciclo da entrega ${hoje()}`;
    const ciclo = await cicloNaEntrega(amb, nome);
    const d = ciclo.hoje;
    const fabio = await criarUsuario(amb.banco, { perfil: ['fornecedor'], nome: 'Fábio Entregas' });
    const couve = await criarProduto(amb.banco, { nome: `Couve ${ciclo.id}`, unidade: 'maço', valorCentavos: 300 });
    await criarOfertaFinalizada(
      amb.banco,
      ciclo.id,
      [{ produtoId: couve.id, quantidadeMilesimos: 10_000, valorCentavos: 300 }],
      fabio.id,
    );
    const { ctx, pagina } = await entrar({ email: fabio.email, nome: 'Fábio Entregas' });
    const { dias } = ciclo;

    // The dashboard: the deliver step with the days in date order, to the page of what to deliver.
    const passos = pagina.getByRole('region', { name: 'Seus próximos passos' });
    const entregar = passos.getByRole('link', { name: `Entregar o que foi pedido da sua oferta: ${dias}` });
    assert.equal(await entregar.getAttribute('href'), `/ciclos/${ciclo.id}/entregas`);
    await conferirPagina(pagina, ctx, 'mercados-passos-fornecedor');
    await entregar.click();
    await pagina.waitForURL(`${amb.urlMercados}/ciclos/${ciclo.id}/entregas`);
    const quando = pagina.getByRole('region', { name: 'Quando e onde entregar' });
    await quando.getByRole('listitem').first().waitFor();
    assert.deepEqual(await quando.getByRole('listitem').allInnerTexts(), [
      `${diaLido(d)}: entregar na Sede até 17h`,
      diaLido(somarDias(d, 1)),
    ]);
    await conferirPagina(pagina, ctx, 'mercados-passos-entregas');

    // The list of one's cycles says it too, on the cycle's card.
    await pagina.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Minhas entregas' }).click();
    const card = pagina.locator('.ciclos-fornecedor > li').filter({ has: pagina.getByRole('heading', { name: nome }) });
    assert.equal((await card.locator('.dias-de-entrega').innerText()).replace(/\s+/g, ' '), `Entregar: ${dias}`);
    await ctx.fechar();
  });
});
