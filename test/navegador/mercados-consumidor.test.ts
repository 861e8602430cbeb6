/**
 * The Consumidor's pages of the Mercados client in a real browser (issue 18), on a 360 px phone:
 * the cycles list, an order of a basket (cesta market) and a released item (venda_direta market)
 * with each market's fee shown apart, a stock-short refusal that says what is left, saving and
 * confirming with the keyboard only, an edit that leaves the order "alterado, falta confirmar de
 * novo" (also after a reload: the server says it), confirming again, and /pedidos with the Pix.
 * The cycle is set up through the real APIs, as test/mercados/graphql-fluxo.test.ts does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { diaLocal, somarDias } from '../../src/domain/tempo.ts';
import { abrirChromium, abrirContexto, conferirPagina, semChromium } from '../helpers/chromium.ts';
import { criarCesta, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import {
  contaComSessao,
  criarMercadoNoBanco,
  entrarNoMercados,
  graphql,
  zerarLimiteDeLogin,
} from '../mercados/apoio.ts';

const pular = semChromium();

describe('páginas do Consumidor no cliente Mercados', { skip: pular }, () => {
  let amb: AmbienteDeTeste;
  let navegador: Browser;
  before(async () => {
    amb = await iniciarAmbiente({
      mercados: true,
      env: { PIX_CHAVE: 'financeiro@cestas.org', PIX_NOME: 'Associação Raízes', PIX_CIDADE: 'São Carlos' },
    });
    navegador = await abrirChromium();
  });
  after(async () => {
    await navegador.close();
    await amb.fechar();
  });

  const gql = async (nav: Navegador, query: string, variables?: Record<string, unknown>) => {
    const r = await graphql(amb.urlMercados, nav, query, variables);
    assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
    return r.corpo.data ?? {};
  };

  /**
   * A cycle with its order window open today: a basket (10, composed of 5 kg of tomatoes) sold in
   * a cesta market (5 %), 30 kg of tomatoes released to a venda_direta market (10 %, R$ 6,00/kg),
   * and two pickup points with day and hours.
   */
  async function cenario() {
    const hoje = diaLocal(amb.relogio.agora(), 'America/Sao_Paulo');
    const sufixo = Math.random().toString(16).slice(2, 6);
    const iso = new Date().toISOString();
    const nome = `Ciclo de dezembro ${sufixo}`;
    const ciclo = await amb.banco
      .insertInto('ciclo')
      .values({
        nome,
        nomeChave: nome.toLowerCase(),
        dataOfertaInicio: somarDias(hoje, -2),
        dataOfertaFim: hoje,
        dataPedidoInicio: hoje,
        dataPedidoFim: somarDias(hoje, 2),
        dataRetiradaInicio: somarDias(hoje, 3),
        dataRetiradaFim: somarDias(hoje, 3),
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const cesta = await criarCesta(amb.banco, { nome: `Cesta média ${sufixo}`, valorCentavos: 5000 });
    const cc = await amb.banco
      .insertInto('ciclocesta')
      .values({ cicloid: ciclo.id, cestaId: cesta.id, quantidadeCestas: 10, createdAt: iso, updatedAt: iso })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tomate = await criarProduto(amb.banco, { nome: `Tomate ${sufixo}`, unidade: 'kg' });
    const pontos = [];
    for (const [nomePonto, endereco, inicio, fim] of [
      [`Sede ${sufixo}`, 'Rua das Flores, 10', '08:00', '12:00'],
      [`Feira ${sufixo}`, 'Praça Central, s/n', '14:00', '17:00'],
    ] as const) {
      const p = await amb.banco
        .insertInto('pontoentrega')
        .values({
          nome: nomePonto,
          nomeChave: nomePonto.toLowerCase(),
          endereco,
          cidade: 'São Carlos',
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await amb.banco
        .insertInto('ciclopontoentrega')
        .values({
          cicloid: ciclo.id,
          pontoEntregaId: p.id,
          dataRetirada: somarDias(hoje, 3),
          horaInicio: inicio,
          horaFim: fim,
          createdAt: iso,
          updatedAt: iso,
        })
        .execute();
      pontos.push(p.id);
    }
    const [sede, feira] = pontos;

    // The supplier offers; the coordination composes the basket, sets the markets and releases tomatoes.
    const fornecedor = await criarUsuario(amb.banco, { perfil: ['fornecedor'], nome: 'Fátima Fornecedora' });
    const navFornecedor = new Navegador();
    await entrarNoMercados(amb, navFornecedor, { email: fornecedor.email, nome: 'Fátima Fornecedora' });
    const oferta = await gql(
      navFornecedor,
      'mutation($c: ID!, $i: OfertaInput!) { salvarOferta(cicloId: $c, input: $i, finalizar: true) { produtos { ofertaProdutoId produtoid } } }',
      {
        c: ciclo.id,
        i: { produtos: [{ produtoid: tomate.id, quantidade: '100', valor: '4' }] },
      },
    );
    const linha = (oferta.salvarOferta as { produtos: Array<{ ofertaProdutoId: string }> }).produtos[0]
      ?.ofertaProdutoId;
    const admin = await criarUsuario(amb.banco, { perfil: ['admin'], nome: 'Ana Coordenação' });
    const adminCestas = new Navegador();
    await entrarPeloProvedor(adminCestas, `${amb.url}/`, { email: admin.email });
    const adminMercados = new Navegador();
    await entrarNoMercados(amb, adminMercados, { email: admin.email, nome: 'Ana Coordenação' });
    const compor = await adminCestas.postJson(`${amb.url}/composicao/${cc.id}`, {
      quantidadeCestas: 10,
      produtos: [{ ofertaProdutoId: Number(linha), quantidadePorCesta: 5, unidade: 'kg' }],
    });
    assert.equal(compor.status, 200, compor.texto);
    const { conta: dono } = await contaComSessao(amb, new Navegador(), amb.urlMercados, { perfis: ['AdminMercado'] });
    const mCesta = await criarMercadoNoBanco(amb.banco, {
      adminId: dono.id,
      nome: `Cestas da Vila ${sufixo}`,
      tipo: 'cesta',
      valorMaximoCestaCentavos: 6000,
    });
    const mFeira = await criarMercadoNoBanco(amb.banco, {
      adminId: dono.id,
      nome: `Feira livre ${sufixo}`,
      tipo: 'venda_direta',
    });
    await amb.banco
      .updateTable('mercado')
      .set({ taxaAdministrativaCentesimos: 500 })
      .where('id', '=', mCesta.id)
      .execute();
    await amb.banco
      .updateTable('mercado')
      .set({ taxaAdministrativaCentesimos: 1000 })
      .where('id', '=', mFeira.id)
      .execute();
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
    await gql(
      adminMercados,
      'mutation($c: ID!, $i: [CicloMercadoInput!]!) { definirMercadosDoCiclo(cicloId: $c, input: $i) { id } }',
      {
        c: ciclo.id,
        i: [
          { mercadoId: mCesta.id, ordemAtendimento: 1, pontoEntregaIds: [sede], cicloCestaIds: [cc.id] },
          { mercadoId: mFeira.id, ordemAtendimento: 2, pontoEntregaIds: [sede, feira] },
        ],
      },
    );
    const liberar = await adminCestas.postJson(`${amb.url}/ciclo/${ciclo.id}/mercado/${mFeira.id}/liberar`, {
      itens: [{ produtoId: tomate.id, quantidade: 30 }],
    });
    assert.equal(liberar.status, 200, liberar.texto);
    return {
      cicloid: ciclo.id,
      nome,
      cesta: cesta.nome,
      tomate: tomate.nome,
      mCesta: `Cestas da Vila ${sufixo}`,
      mFeira: `Feira livre ${sufixo}`,
      sede: `Sede ${sufixo}`,
    };
  }

  async function entrar(pagina: Page, pessoa: { email: string; nome: string }): Promise<void> {
    await zerarLimiteDeLogin(amb.banco);
    await pagina.goto(`${amb.urlMercados}/login`);
    await pagina.waitForURL(/\/interaction\/[^/]+$/);
    await pagina.fill('#email', pessoa.email);
    await pagina.fill('#nome', pessoa.nome);
    await Promise.all([
      pagina.waitForURL(`${amb.urlMercados}/dashboard`),
      pagina.click('form button[type=submit] >> nth=0'),
    ]);
    await pagina.getByRole('heading', { name: `Olá, ${pessoa.nome}!` }).waitFor();
  }

  test('Consumidor num celular: vê os ciclos, pede cesta e item com a taxa de cada mercado, confirma, altera, confirma de novo e vê em Meus pedidos', async () => {
    const c = await cenario();
    const consumidora = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Clara Consumidora' });
    const ctx = await abrirContexto(navegador, { largura: 360, altura: 740 });
    await ctx.contexto.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: amb.urlMercados });
    const pagina = await ctx.novaPagina();
    await entrar(pagina, { email: consumidora.email, nome: 'Clara Consumidora' });
    const nav = pagina.getByRole('navigation', { name: 'Principal' });

    // 1. The cycles: windows in dd/mm/aaaa, markets with type and fee, points with address and hours.
    await nav.getByRole('link', { name: 'Ciclos', exact: true }).click();
    await pagina.waitForURL(`${amb.urlMercados}/ciclos`);
    const cartao = pagina.getByRole('article', { name: new RegExp(c.nome) });
    await cartao.waitFor();
    const hoje = diaLocal(amb.relogio.agora(), 'America/Sao_Paulo');
    const br = (iso: string) => iso.split('-').reverse().join('/');
    await cartao.getByText(`${br(hoje)} a ${br(somarDias(hoje, 2))}`).waitFor();
    await cartao.getByText(`${c.mCesta} · Cesta · taxa de 5,00%`).waitFor();
    await cartao.getByText(`${c.mFeira} · Venda direta · taxa de 10,00%`).waitFor();
    await cartao.getByText(`Retirada: ${br(somarDias(hoje, 3))}, das 08:00 às 12:00`).waitFor();
    await cartao.getByText('Rua das Flores, 10 · São Carlos', { exact: false }).waitFor();
    assert.equal(await cartao.getByRole('link', { name: 'Ofertar' }).count(), 0, 'só o que Ciclo.acoes permite');
    await conferirPagina(pagina, ctx, 'mercados-ciclos');

    // 2. The order page: the basket with what is in it, the released item with the market's price.
    await cartao.getByRole('link', { name: 'Fazer pedido' }).click();
    await pagina.waitForURL(`${amb.urlMercados}/ciclos/${c.cicloid}/pedido`);
    await pagina.getByRole('heading', { name: `Pedido em ${c.nome}` }).waitFor();
    const cestaDoMercado = pagina.getByRole('region', { name: c.mCesta });
    await cestaDoMercado.getByText(`${c.tomate}: 5 kg`).waitFor();
    await cestaDoMercado.getByText('restam 10 cestas').waitFor();
    await cestaDoMercado.getByText('R$ 50,00').waitFor();
    const feira = pagina.getByRole('region', { name: c.mFeira });
    await feira.getByText('R$ 6,00 / kg').waitFor();
    await feira.getByText('restam 30 kg').waitFor();
    const qCesta = pagina.getByLabel(`Quantidade de ${c.cesta} (cestas)`);
    const qTomate = pagina.getByLabel(`Quantidade de ${c.tomate} (kg)`);

    // 3. More than there is: the server refuses and the page says what is left, on the line.
    await qCesta.fill('1');
    await qTomate.fill('40');
    await pagina.getByLabel(new RegExp(c.sede)).check();
    await pagina.getByRole('button', { name: 'Salvar pedido' }).click();
    await pagina.getByRole('alert').filter({ hasText: 'Não há o suficiente' }).filter({ hasText: '30 kg' }).waitFor();
    await feira.getByText('Só há 30 kg para você').waitFor();
    assert.equal(await qTomate.getAttribute('aria-invalid'), 'true');
    await conferirPagina(pagina, ctx, 'mercados-pedido-sem-estoque');
    assert.equal(
      (await amb.banco.selectFrom('pedido').select('id').where('cicloid', '=', c.cicloid).execute()).length,
      0,
      'nada foi gravado',
    );

    // A fraction of a basket is caught before anything is sent.
    await qCesta.fill('1,5');
    await pagina.getByRole('button', { name: 'Salvar pedido' }).click();
    await cestaDoMercado.getByText('Use um número inteiro de cestas, como 2').waitFor();

    // A point that does not serve the basket's market: the server's message sits on the point chooser.
    await qCesta.fill('1');
    await pagina.getByLabel(new RegExp(`Feira ${c.sede.split(' ')[1] ?? ''}`)).check();
    await pagina.getByRole('button', { name: 'Salvar pedido' }).click();
    const pontos = pagina.getByRole('group', { name: 'Onde retirar' });
    await pontos.getByText(`Este ponto não serve todos os itens do pedido. Pontos que servem: ${c.sede}`).waitFor();
    await pagina
      .getByRole('alert')
      .filter({ hasText: 'O servidor recusou o pedido por causa dos campos marcados' })
      .waitFor();
    assert.equal(
      (await amb.banco.selectFrom('pedido').select('id').where('cicloid', '=', c.cicloid).execute()).length,
      0,
      'nada foi gravado',
    );

    // 4. With the keyboard only: the quantities, Tab to the pickup point, Tab to "Salvar pedido", Enter.
    await pagina.reload();
    await qCesta.waitFor();
    await qCesta.focus();
    await pagina.keyboard.type('2');
    await pagina.keyboard.press('Tab');
    assert.equal(await qTomate.evaluate((el) => el === document.activeElement), true, 'Tab leva da cesta ao item');
    await pagina.keyboard.type('1,5');
    await pagina.keyboard.press('Tab');
    await pagina.keyboard.press('Space');
    assert.equal(
      await pagina.getByLabel(new RegExp(c.sede)).isChecked(),
      true,
      'o primeiro ponto (o mais cedo) marcado pelo teclado',
    );
    const estimativa = pagina.getByRole('region', { name: 'Estimativa' });
    await estimativa
      .getByRole('listitem')
      .filter({ hasText: `${c.mCesta}: R$ 100,00 + taxa R$ 5,00` })
      .waitFor();
    await estimativa
      .getByRole('listitem')
      .filter({ hasText: `${c.mFeira}: R$ 9,00 + taxa R$ 0,90` })
      .waitFor();
    await estimativa.getByText('Total estimado: R$ 114,90').waitFor();
    await pagina.keyboard.press('Tab');
    assert.equal(await pagina.evaluate(() => document.activeElement?.textContent), 'Salvar pedido');
    await pagina.keyboard.press('Enter');
    await pagina.getByText('Pedido salvo. Confira os valores abaixo e confirme o pedido.').waitFor();
    const salvo = pagina.getByRole('region', { name: 'Seu pedido salvo' });
    await salvo.getByText('salvo, ainda não confirmado').waitFor();
    await salvo.getByText('R$ 100,00 + taxa R$ 5,00').waitFor();
    await salvo.getByText('R$ 9,00 + taxa R$ 0,90').waitFor();
    await salvo.getByText('R$ 114,90', { exact: true }).waitFor();
    await feira.getByText('restam 28,5 kg').waitFor();
    await conferirPagina(pagina, ctx, 'mercados-pedido');
    // The confirm button sits in the bar kept at the bottom of the screen, with the saved total.
    const barra = pagina.getByRole('region', { name: 'Confirmar o pedido' });
    await barra.getByText('R$ 114,90').waitFor();
    const confirmar = barra.getByRole('button', { name: 'Confirmar pedido' });
    await confirmar.focus();
    await pagina.keyboard.press('Enter');
    await pagina
      .getByText(
        /^Pedido confirmado em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\. Pagar com Pix em Meus pedidos \(um só Pix paga tudo o que você deve\)\.$/,
      )
      .waitFor();
    assert.equal(
      await pagina.getByRole('link', { name: 'Pagar com Pix em Meus pedidos' }).getAttribute('href'),
      '/pedidos',
    );
    await salvo.getByText(/confirmado em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/).waitFor();
    const gravado = await amb.banco
      .selectFrom('pedido')
      .select(['id', 'finalizado'])
      .where('cicloid', '=', c.cicloid)
      .executeTakeFirstOrThrow();
    assert.equal(Boolean(gravado.finalizado), true);

    // 5. An edit re-opens it: the page says so, also after a reload (the server's alteradoAposConfirmar).
    await qTomate.fill('2');
    await pagina.getByRole('button', { name: 'Salvar pedido' }).click();
    await salvo.getByText('Pedido alterado: falta confirmar de novo').waitFor();
    await salvo.getByText('R$ 12,00 + taxa R$ 1,20').waitFor();
    await pagina.reload();
    await pagina
      .getByRole('region', { name: 'Seu pedido salvo' })
      .getByText('Pedido alterado: falta confirmar de novo')
      .waitFor();
    // At the top of the page too, with the saved total: visible on a phone without scrolling.
    await pagina.locator('.resumo-topo').getByText('Pedido alterado: falta confirmar de novo').waitFor();
    assert.ok(await pagina.locator('.resumo-topo').getByText('R$ 118,20').isVisible());
    assert.equal(await qTomate.inputValue(), '2');
    await conferirPagina(pagina, ctx, 'mercados-pedido-alterado');
    await pagina.getByRole('button', { name: 'Confirmar de novo' }).click();
    await pagina.getByText(/^Pedido confirmado em /).waitFor();
    assert.equal(await pagina.getByText('Pedido alterado: falta confirmar de novo').count(), 0);

    // 6. Meus pedidos: the cycle, the status, the lines with markets, the fee per market, the total and the Pix.
    await nav.getByRole('link', { name: 'Meus pedidos' }).click();
    await pagina.waitForURL(`${amb.urlMercados}/pedidos`);
    const meu = pagina.getByRole('article', { name: c.nome });
    await meu.getByText(/confirmado em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/).waitFor();
    await meu.getByRole('rowheader', { name: `${c.tomate} ${c.mFeira}` }).waitFor();
    await meu.getByRole('cell', { name: '2 cestas × R$ 50,00' }).waitFor();
    await meu.getByRole('cell', { name: '2 kg × R$ 6,00' }).waitFor();
    await meu.getByText('R$ 12,00 + taxa R$ 1,20').waitFor();
    await meu.getByText('R$ 118,20', { exact: true }).waitFor();
    // The Pix pays the balance, so it is shown once, above the orders, and says so beside the amount.
    const pagar = pagina.getByRole('region', { name: 'Pagar com Pix' });
    await pagar
      .getByText(/Este Pix paga tudo o que você deve hoje: R\$ 118,20, o saldo, e não um pedido só\./)
      .waitFor();
    assert.match(
      (await pagar.locator('dl').innerText()).replace(/\s+/g, ' '),
      new RegExp(`Pedido confirmado no ${c.nome} .*R\\$ 118,20 Total a pagar R\\$ 118,20`),
    );
    await pagar.getByRole('img', { name: 'QR code do Pix de R$ 118,20' }).waitFor();
    assert.equal(await meu.getByText(/Pix/).count(), 0, 'nenhum Pix dentro do cartão do pedido');
    assert.equal(await pagina.getByRole('button', { name: 'Copiar código Pix' }).count(), 1, 'um Pix só na página');
    const campo = pagar.getByLabel('Pix copia e cola de R$ 118,20 (tudo o que você deve)');
    const copiaECola = await campo.inputValue();
    assert.match(copiaECola, /^000201.*5406118\.20/);
    // A tap on the code selects all of it.
    await campo.click();
    assert.deepEqual(await campo.evaluate((e: HTMLTextAreaElement) => [e.selectionStart, e.selectionEnd]), [
      0,
      copiaECola.length,
    ]);
    await pagar.getByRole('button', { name: 'Copiar código Pix' }).click();
    await pagar.getByText('Código copiado.').waitFor();
    assert.equal(await pagina.evaluate(() => navigator.clipboard.readText()), copiaECola);
    assert.equal(
      await meu.getByRole('link', { name: 'Alterar pedido' }).getAttribute('href'),
      `/ciclos/${c.cicloid}/pedido`,
    );
    await conferirPagina(pagina, ctx, 'mercados-meus-pedidos');
    await ctx.fechar();
  });

  test('sem ciclos abertos ou com a janela fechada: a lista explica, o pedido fica só para ver', async () => {
    const c = await cenario();
    const consumidor = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Caio Consumidor' });
    const navApi = new Navegador();
    await entrarNoMercados(amb, navApi, { email: consumidor.email, nome: 'Caio Consumidor' });
    const ciclo = await gql(
      navApi,
      'query($id: ID!) { ciclo(id: $id) { cestas { cicloCestaId } pontosEntrega { id nome } } }',
      { id: c.cicloid },
    );
    const { cestas, pontosEntrega } = ciclo.ciclo as {
      cestas: Array<{ cicloCestaId: string }>;
      pontosEntrega: Array<{ id: string; nome: string }>;
    };
    await gql(navApi, 'mutation($c: ID!, $i: PedidoInput!) { fazerPedido(cicloId: $c, input: $i) { id } }', {
      c: c.cicloid,
      i: {
        pontoEntregaId: pontosEntrega.find((p) => p.nome === c.sede)?.id,
        produtos: [{ cicloCestaId: cestas[0]?.cicloCestaId, quantidade: 1 }],
      },
    });
    // Every cycle's order window closes.
    const hoje = diaLocal(amb.relogio.agora(), 'America/Sao_Paulo');
    await amb.banco
      .updateTable('ciclo')
      .set({
        dataOfertaInicio: somarDias(hoje, -6),
        dataOfertaFim: somarDias(hoje, -5),
        dataPedidoInicio: somarDias(hoje, -4),
        dataPedidoFim: somarDias(hoje, -1),
      })
      .execute();

    const ctx = await abrirContexto(navegador, { largura: 360, altura: 740 });
    const pagina = await ctx.novaPagina();
    await entrar(pagina, { email: consumidor.email, nome: 'Caio Consumidor' });
    await pagina
      .getByRole('navigation', { name: 'Principal' })
      .getByRole('link', { name: 'Ciclos', exact: true })
      .click();
    await pagina.getByText('Nenhum ciclo aberto para você agora.').waitFor();
    await conferirPagina(pagina, ctx, 'mercados-ciclos-vazio');

    await pagina.goto(`${amb.urlMercados}/ciclos/${c.cicloid}/pedido`);
    await pagina
      .getByText(
        `A janela de pedidos deste ciclo vai de ${somarDias(hoje, -4).split('-').reverse().join('/')} a ${somarDias(hoje, -1).split('-').reverse().join('/')}`,
        { exact: false },
      )
      .waitFor();
    await pagina.getByText('salvo, ainda não confirmado').waitFor();
    assert.equal(await pagina.getByRole('button', { name: 'Salvar pedido' }).count(), 0);
    assert.equal(await pagina.getByRole('textbox').count(), 0, 'nenhum campo para editar');
    await conferirPagina(pagina, ctx, 'mercados-pedido-fechado');

    await pagina.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Meus pedidos' }).click();
    await pagina.getByRole('article', { name: c.nome }).waitFor();
    assert.equal(
      await pagina.getByRole('link', { name: /Alterar pedido|Continuar pedido/ }).count(),
      0,
      'sem janela aberta, sem link para editar',
    );
    await ctx.fechar();
  });

  test('mais de uma página: “Carregar mais” traz os ciclos e os pedidos seguintes', async () => {
    // Runs after the test above closed every other cycle: 21 cycles open for orders, without markets.
    const hoje = diaLocal(amb.relogio.agora(), 'America/Sao_Paulo');
    const iso = new Date().toISOString();
    const consumidor = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Paula Paginada' });
    const ponto = await amb.banco
      .insertInto('pontoentrega')
      .values({ nome: 'Ponto das páginas', nomeChave: 'ponto das páginas', createdAt: iso, updatedAt: iso })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (let i = 1; i <= 21; i++) {
      const nome = `Ciclo paginado ${String(i).padStart(2, '0')}`;
      const ciclo = await amb.banco
        .insertInto('ciclo')
        .values({
          nome,
          nomeChave: nome.toLowerCase(),
          dataOfertaInicio: somarDias(hoje, -3),
          dataOfertaFim: somarDias(hoje, -1),
          dataPedidoInicio: hoje,
          dataPedidoFim: somarDias(hoje, 2),
          dataRetiradaInicio: somarDias(hoje, 3),
          dataRetiradaFim: somarDias(hoje, 3),
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await amb.banco
        .insertInto('pedido')
        .values({
          cicloid: ciclo.id,
          usuarioid: consumidor.id,
          pontoEntregaId: ponto.id,
          finalizado: false,
          dataConfirmacao: null,
          createdAt: iso,
          updatedAt: iso,
        })
        .execute();
    }
    const ctx = await abrirContexto(navegador);
    const pagina = await ctx.novaPagina();
    await entrar(pagina, { email: consumidor.email, nome: 'Paula Paginada' });
    for (const [caminho, lista, botao] of [
      ['/ciclos', 'Ciclos', 'Carregar mais ciclos'],
      ['/pedidos', 'Pedidos', 'Carregar mais pedidos'],
    ] as const) {
      await pagina.goto(`${amb.urlMercados}${caminho}`);
      const itens = pagina.getByRole('list', { name: lista, exact: true }).getByRole('article');
      await pagina.getByRole('heading', { name: 'Ciclo paginado 21' }).waitFor();
      assert.equal(await itens.count(), 20, `${caminho}: uma página`);
      assert.equal(await pagina.getByRole('heading', { name: 'Ciclo paginado 01' }).count(), 0);
      await pagina.getByRole('button', { name: botao }).click();
      await pagina.getByRole('heading', { name: 'Ciclo paginado 01' }).waitFor();
      assert.equal(await itens.count(), 21, `${caminho}: a segunda página, sem repetir`);
      assert.equal(await pagina.getByRole('button', { name: botao }).count(), 0, 'não há mais');
    }
    await ctx.fechar();
  });
});
