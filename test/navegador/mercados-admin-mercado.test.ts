/**
 * The market administration pages in a real browser (issue 18, AdminMercado and Administrador):
 * the Administrador sets a cycle's markets on /ciclos/:id/mercados (adds them, reorders them by
 * keyboard, picks pickup points and the basket, sees a refused market named on its card, and the
 * saved list after a reload); an AdminMercado reaches their market from the dashboard, sees the
 * cycle and its orders with the totals, and gets a clear refusal on another market's orders.
 * Every page is screenshotted at 360 and 1280 px and checked by axe (conferirPagina).
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser, Locator, Page, Request, Response } from 'playwright-core';
import { diaLocal, somarDias } from '../../src/domain/tempo.ts';
import {
  abrirChromium,
  abrirContexto,
  conferirPagina,
  semChromium,
  type ContextoDeTeste,
} from '../helpers/chromium.ts';
import { criarCesta, criarPonto, criarProduto, criarUsuario, emailUnico } from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import {
  contaComSessao,
  contaPorEmail,
  criarMercadoNoBanco,
  entrarNoMercados,
  graphql,
  zerarLimiteDeLogin,
} from '../mercados/apoio.ts';

const pular = semChromium();

/** "2026-11-27" → "27/11/2026", as the pages show dates. */
const br = (d: string): string => d.split('-').reverse().join('/');

describe('páginas do AdminMercado e do Administrador no navegador', { skip: pular }, () => {
  let amb: AmbienteDeTeste;
  let navegador: Browser;
  const sufixo = randomBytes(2).toString('hex');
  const admin = { email: emailUnico('adm-merc'), nome: 'Ana Coordenação' };
  const dona = { email: emailUnico('dona-merc'), nome: 'Dora Dona' };
  let cicloid = 0;
  let cicloNome = '';
  let cicloCestaId = 0;
  let cestaNome = '';
  let datas = { pedidoInicio: '', pedidoFim: '', retiradaInicio: '', retiradaFim: '' };
  const pontos = { sede: { id: 0, nome: `Sede ${sufixo}` }, feira: { id: 0, nome: `Praça ${sufixo}` } };
  const mercados = {
    cestas: { id: 0, nome: `Cestas da Vila ${sufixo}` },
    feira: { id: 0, nome: `Feira Livre ${sufixo}` },
    lote: { id: 0, nome: `Merenda ${sufixo}` },
  };

  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
    navegador = await abrirChromium();
    // A cycle whose offer window closes and order window opens today, one basket type (10) and two points.
    const hoje = diaLocal(amb.relogio.agora(), 'America/Sao_Paulo');
    datas = {
      pedidoInicio: hoje,
      pedidoFim: somarDias(hoje, 2),
      retiradaInicio: somarDias(hoje, 3),
      retiradaFim: somarDias(hoje, 4),
    };
    const cesta = await criarCesta(amb.banco, { valorCentavos: 5000 });
    cestaNome = cesta.nome;
    const iso = new Date().toISOString();
    cicloNome = `Ciclo de novembro ${sufixo}`;
    const ciclo = await amb.banco
      .insertInto('ciclo')
      .values({
        nome: cicloNome,
        nomeChave: cicloNome.toLowerCase(),
        dataOfertaInicio: somarDias(hoje, -1),
        dataOfertaFim: hoje,
        dataPedidoInicio: datas.pedidoInicio,
        dataPedidoFim: datas.pedidoFim,
        dataRetiradaInicio: datas.retiradaInicio,
        dataRetiradaFim: datas.retiradaFim,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    cicloid = ciclo.id;
    cicloCestaId = (
      await amb.banco
        .insertInto('ciclocesta')
        .values({ cicloid, cestaId: cesta.id, quantidadeCestas: 10, createdAt: iso, updatedAt: iso })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const tomate = await criarProduto(amb.banco, { nome: `Tomate ${sufixo}`, unidade: 'kg' });
    pontos.sede.id = (await criarPonto(amb.banco, pontos.sede.nome)).id;
    pontos.feira.id = (await criarPonto(amb.banco, pontos.feira.nome)).id;

    // A supplier offers through GraphQL and the coordination composes the basket on the Cestas face (5 kg: R$ 20,00).
    const fornecedor = await criarUsuario(amb.banco, { perfil: ['fornecedor'], nome: 'Fábio Fornecedor' });
    const navFornecedor = new Navegador();
    await entrarNoMercados(amb, navFornecedor, { email: fornecedor.email, nome: fornecedor.nome });
    const oferta = await graphql(
      amb.urlMercados,
      navFornecedor,
      'mutation($c: ID!, $i: OfertaInput!) { salvarOferta(cicloId: $c, input: $i, finalizar: true) { produtos { ofertaProdutoId } } }',
      {
        c: cicloid,
        i: { produtos: [{ produtoid: tomate.id, quantidade: '100', valor: '4' }] },
      },
    );
    assert.equal(oferta.corpo.errors, undefined, JSON.stringify(oferta.corpo.errors));
    const linha = (oferta.corpo.data?.salvarOferta as { produtos: Array<{ ofertaProdutoId: string }> }).produtos[0]
      ?.ofertaProdutoId;
    const coordenacao = await criarUsuario(amb.banco, { perfil: ['admin'], nome: admin.nome, email: admin.email });
    const naCestas = new Navegador();
    await entrarPeloProvedor(naCestas, `${amb.url}/`, { email: coordenacao.email });
    const compor = await naCestas.postJson(`${amb.url}/composicao/${cicloCestaId}`, {
      quantidadeCestas: 10,
      produtos: [{ ofertaProdutoId: Number(linha), quantidadePorCesta: 5, unidade: 'kg' }],
    });
    assert.equal(compor.status, 200, compor.texto);

    // The markets; the cesta one is handed to the AdminMercado when they first log in (test 2).
    const { conta: outro } = await contaComSessao(amb, new Navegador(), amb.urlMercados, {
      perfis: ['AdminMercado'],
      nome: 'Outro Admin',
    });
    mercados.cestas.id = (
      await criarMercadoNoBanco(amb.banco, {
        adminId: outro.id,
        nome: mercados.cestas.nome,
        tipo: 'cesta',
        valorMaximoCestaCentavos: 3000,
      })
    ).id;
    mercados.feira.id = (
      await criarMercadoNoBanco(amb.banco, { adminId: outro.id, nome: mercados.feira.nome, tipo: 'venda_direta' })
    ).id;
    mercados.lote.id = (
      await criarMercadoNoBanco(amb.banco, { adminId: outro.id, nome: mercados.lote.nome, tipo: 'lote' })
    ).id;
    await amb.banco
      .updateTable('mercado')
      .set({ taxaAdministrativaCentesimos: 1050 })
      .where('id', '=', mercados.feira.id)
      .execute();
  });
  after(async () => {
    await navegador.close();
    await amb.fechar();
  });

  /** Logs in through the development provider's page and waits for the dashboard. */
  async function entrar(ctx: ContextoDeTeste, pessoa: { email: string; nome: string }): Promise<Page> {
    await zerarLimiteDeLogin(amb.banco);
    const pagina = await ctx.novaPagina();
    await pagina.goto(`${amb.urlMercados}/login`);
    await pagina.waitForURL(/\/interaction\/[^/]+$/);
    await pagina.fill('#email', pessoa.email);
    await pagina.fill('#nome', pessoa.nome);
    await Promise.all([
      pagina.waitForURL(`${amb.urlMercados}/dashboard`),
      pagina.click('form button[type=submit] >> nth=0'),
    ]);
    await pagina.getByRole('heading', { name: `Olá, ${pessoa.nome}!` }).waitFor();
    return pagina;
  }

  /** A card of a list (the cycle's markets, the market's cycles, the orders) by the text it holds. */
  const cartao = (pagina: Page, texto: string): Locator =>
    pagina.locator('.mercados-ciclo > li, .ciclos > li, .pedidos > li').filter({ hasText: texto });
  const ordem = async (pagina: Page): Promise<string[]> =>
    (await pagina.locator('.mercados-ciclo h3').allInnerTexts()).map((t) => t.replace(/,.*$/s, '').trim());

  test('Administrador: define os mercados do ciclo, reordena pelo teclado, escolhe pontos e cesta; o erro vai ao mercado certo; a lista fica', async () => {
    const ctx = await abrirContexto(navegador);
    const pagina = await entrar(ctx, admin);
    await pagina.goto(`${amb.urlMercados}/ciclos/${cicloid}/mercados`);
    await pagina.getByRole('heading', { name: `Mercados do ciclo · ${cicloNome}` }).waitFor();
    await pagina.getByText('Nenhum mercado: o ciclo funciona sem mercados.').waitFor();
    await conferirPagina(pagina, ctx, 'mercados-do-ciclo-vazio');

    // Three markets, in the order added: the feira, the cesta market, the lote market.
    for (const [m, tipo] of [
      [mercados.feira, 'Venda direta'],
      [mercados.cestas, 'Cesta'],
      [mercados.lote, 'Lote'],
    ] as const) {
      await pagina.getByLabel('Mercado ativo').selectOption({ label: `${m.nome} (${tipo})` });
      await pagina.getByRole('button', { name: 'Adicionar ao ciclo' }).click();
      await cartao(pagina, m.nome).waitFor();
    }
    assert.deepEqual(await ordem(pagina), [mercados.feira.nome, mercados.cestas.nome, mercados.lote.nome]);
    // Type, fee and basket ceiling in words and commas.
    await cartao(pagina, mercados.cestas.nome).getByText('Cesta · taxa 5,00 % · cesta até R$ 30,00').waitFor();
    await cartao(pagina, mercados.feira.nome).getByText('Venda direta · taxa 10,50 %').waitFor();
    assert.equal(
      await cartao(pagina, mercados.feira.nome).getByText('Cestas que vende').count(),
      0,
      'só um mercado de cestas escolhe cestas',
    );

    // Keyboard: the cesta market goes up to first; the focus stays on its buttons (now "Descer", since it is first).
    await cartao(pagina, mercados.cestas.nome).getByRole('button', { name: /Subir/ }).focus();
    await pagina.keyboard.press('Enter');
    assert.deepEqual(await ordem(pagina), [mercados.cestas.nome, mercados.feira.nome, mercados.lote.nome]);
    const focado = await pagina.evaluate(() => document.activeElement?.textContent ?? '');
    assert.match(focado, new RegExp(`Descer ${mercados.cestas.nome}`));
    await pagina.getByText(`${mercados.cestas.nome} agora é o 1º no atendimento.`).waitFor({ state: 'attached' });
    // Space on a focused checkbox ticks it: the basket and the Sede point for the cesta market.
    await cartao(pagina, mercados.cestas.nome).getByLabel(new RegExp(cestaNome)).focus();
    await pagina.keyboard.press('Space');
    await cartao(pagina, mercados.cestas.nome).getByLabel(pontos.sede.nome).check();
    await cartao(pagina, mercados.feira.nome).getByLabel(pontos.sede.nome).check();
    await cartao(pagina, mercados.feira.nome).getByLabel(pontos.feira.nome).check();

    // The lote market is deactivated meanwhile: the refusal names it, on its card.
    await amb.banco.updateTable('mercado').set({ ativo: false }).where('id', '=', mercados.lote.id).execute();
    await pagina.getByRole('button', { name: 'Salvar mercados do ciclo' }).click();
    const loteCartao = cartao(pagina, mercados.lote.nome);
    await loteCartao
      .getByText(`O mercado ${mercados.lote.nome} está desativado: só mercados ativos entram num ciclo`)
      .waitFor();
    assert.match((await loteCartao.getAttribute('class')) ?? '', /com-erro/);
    assert.equal(await cartao(pagina, mercados.cestas.nome).locator('.erro-campo').count(), 0);
    await pagina.getByRole('alert').first().waitFor();
    await conferirPagina(pagina, ctx, 'mercados-do-ciclo-com-erro');
    assert.equal(
      (await amb.banco.selectFrom('ciclomercado').select('id').where('cicloid', '=', cicloid).execute()).length,
      0,
      'nada gravado',
    );

    await loteCartao.getByRole('button', { name: /Tirar do ciclo/ }).click();
    await pagina.getByRole('button', { name: 'Salvar mercados do ciclo' }).click();
    await pagina.getByText('Mercados do ciclo salvos.').waitFor();
    // The deactivated market is no longer offered to add.
    await pagina.getByText('Todos os mercados ativos já estão no ciclo.').waitFor();
    await conferirPagina(pagina, ctx, 'mercados-do-ciclo');

    // After a reload: the order, the points and the basket as saved.
    await pagina.reload();
    await cartao(pagina, mercados.cestas.nome).waitFor();
    assert.deepEqual(await ordem(pagina), [mercados.cestas.nome, mercados.feira.nome]);
    assert.equal(await cartao(pagina, mercados.cestas.nome).getByLabel(new RegExp(cestaNome)).isChecked(), true);
    assert.equal(await cartao(pagina, mercados.cestas.nome).getByLabel(pontos.sede.nome).isChecked(), true);
    assert.equal(await cartao(pagina, mercados.cestas.nome).getByLabel(pontos.feira.nome).isChecked(), false);
    assert.equal(await cartao(pagina, mercados.feira.nome).getByLabel(pontos.feira.nome).isChecked(), true);
    const gravados = await amb.banco
      .selectFrom('ciclomercado')
      .select(['mercadoId', 'ordemAtendimento'])
      .where('cicloid', '=', cicloid)
      .orderBy('ordemAtendimento')
      .execute();
    assert.deepEqual(
      gravados.map((g) => [g.mercadoId, g.ordemAtendimento]),
      [
        [mercados.cestas.id, 1],
        [mercados.feira.id, 2],
      ],
    );
    await ctx.fechar();
  });

  test('AdminMercado: do painel ao seu mercado, o ciclo e os pedidos com os totais; os pedidos de outro mercado são recusados com clareza', async () => {
    // The coordination hands the cesta market to Dora, an AdminMercado (after her first login, which creates her account).
    const ctx = await abrirContexto(navegador);
    const pagina = await entrar(ctx, dona);
    const conta = await contaPorEmail(amb.banco, dona.email);
    assert.ok(conta);
    await amb.banco.deleteFrom('appuserprofile').where('userId', '=', conta.id).execute();
    const perfil = await amb.banco
      .selectFrom('profile')
      .select('id')
      .where('name', '=', 'AdminMercado')
      .executeTakeFirstOrThrow();
    const iso = new Date().toISOString();
    await amb.banco
      .insertInto('appuserprofile')
      .values({ userId: conta.id, profileId: perfil.id, createdAt: iso, updatedAt: iso })
      .execute();
    await amb.banco.updateTable('mercado').set({ adminId: conta.id }).where('id', '=', mercados.cestas.id).execute();

    // Two consumers order baskets through GraphQL; one confirms.
    const pedidos: Array<[string, number, boolean]> = [
      ['Carla Consumidora', 2, true],
      ['Caio Consumidor', 1, false],
    ];
    for (const [nome, cestas, confirmar] of pedidos) {
      const u = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome });
      const nav = new Navegador();
      await entrarNoMercados(amb, nav, { email: u.email, nome });
      const feito = await graphql(
        amb.urlMercados,
        nav,
        'mutation($c: ID!, $i: PedidoInput!) { fazerPedido(cicloId: $c, input: $i) { id } }',
        {
          c: cicloid,
          i: { pontoEntregaId: pontos.sede.id, produtos: [{ cicloCestaId, quantidade: cestas }] },
        },
      );
      assert.equal(feito.corpo.errors, undefined, JSON.stringify(feito.corpo.errors));
      if (confirmar) {
        const id = (feito.corpo.data?.fazerPedido as { id: string }).id;
        const ok = await graphql(
          amb.urlMercados,
          nav,
          'mutation($p: ID!) { confirmarPedido(pedidoId: $p) { finalizado } }',
          { p: id },
        );
        assert.equal(ok.corpo.errors, undefined, JSON.stringify(ok.corpo.errors));
      }
    }

    // Ten newer cycles of her market (planned ones): the cycle above comes on the second page of the market's cycles.
    const hoje = diaLocal(amb.relogio.agora(), 'America/Sao_Paulo');
    for (let i = 1; i <= 10; i++) {
      const nome = `Ciclo futuro ${i} ${sufixo}`;
      const d = (n: number) => somarDias(hoje, 10 * i + n);
      const novo = await amb.banco
        .insertInto('ciclo')
        .values({
          nome,
          nomeChave: nome.toLowerCase(),
          dataOfertaInicio: d(0),
          dataOfertaFim: d(1),
          dataPedidoInicio: d(2),
          dataPedidoFim: d(3),
          dataRetiradaInicio: d(4),
          dataRetiradaFim: d(5),
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await amb.banco
        .insertInto('ciclomercado')
        .values({
          cicloid: novo.id,
          mercadoId: mercados.cestas.id,
          ordemAtendimento: 1,
          createdAt: iso,
          updatedAt: iso,
        })
        .execute();
    }

    // The dashboard: "Meu mercado" first, from the API's adminId.
    await pagina.reload();
    const meu = pagina.getByRole('link', { name: `Meu mercado: ${mercados.cestas.nome}` });
    await meu.waitFor();
    assert.equal(await pagina.getByRole('link', { name: `Meu mercado: ${mercados.feira.nome}` }).count(), 0);
    await conferirPagina(pagina, ctx, 'mercados-painel-admin-mercado');

    // Her market: the cycle with its dates, the orders link and the prices editor.
    await meu.click();
    await pagina.getByRole('heading', { name: mercados.cestas.nome, exact: true }).waitFor();
    await cartao(pagina, `Ciclo futuro 10 ${sufixo}`).waitFor();
    assert.equal(await pagina.locator('.ciclos > li').count(), 10);
    const ciclo = cartao(pagina, cicloNome);
    assert.equal(await ciclo.count(), 0, 'o ciclo mais antigo fica para a próxima página');
    await pagina.getByRole('button', { name: 'Carregar mais ciclos' }).click();
    await ciclo.waitFor();
    assert.equal(await pagina.locator('.ciclos > li').count(), 11);
    assert.equal(await pagina.getByRole('button', { name: 'Carregar mais ciclos' }).count(), 0, 'não há mais');
    await cartao(pagina, `Ciclo futuro 1 ${sufixo}`).getByText('Planejado').waitFor();
    await ciclo.getByText('Pedidos abertos').waitFor();
    await ciclo.getByText(`${br(datas.pedidoInicio)} a ${br(datas.pedidoFim)}`).waitFor();
    await ciclo.getByText(`${br(datas.retiradaInicio)} a ${br(datas.retiradaFim)}`).waitFor();
    await pagina.getByRole('link', { name: 'Editar preços' }).waitFor();
    await conferirPagina(pagina, ctx, 'mercados-detalhe-ciclos');

    // The orders: each consumer's part in this market, and the market's totals in the cycle.
    await ciclo.getByRole('link', { name: /Pedidos deste mercado/ }).click();
    await pagina.waitForURL(`${amb.urlMercados}/mercados/${mercados.cestas.id}/ciclos/${cicloid}/pedidos`);
    await pagina.getByRole('heading', { name: `Pedidos · ${mercados.cestas.nome}` }).waitFor();
    const totais = pagina.locator('.totais');
    await totais.waitFor();
    const numeros = await totais.locator('.numeros > div').allInnerTexts();
    assert.deepEqual(
      numeros.map((t) => t.replace(/\s+/g, ' ').trim()),
      ['Pedidos 2 (1 confirmado)', 'Subtotal R$ 150,00', 'Taxa R$ 7,50', 'Total R$ 157,50'],
    );
    await totais.getByRole('row', { name: new RegExp(`${cestaNome}.*3 cestas.*R\\$ 150,00`) }).waitFor();
    const carla = cartao(pagina, 'Carla Consumidora');
    await carla.getByText('Confirmado', { exact: true }).waitFor();
    await carla.getByText(pontos.sede.nome).waitFor();
    assert.deepEqual(
      (await carla.locator('.numeros > div').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()),
      ['Subtotal R$ 100,00', 'Taxa R$ 5,00', 'Total R$ 105,00'],
    );
    await cartao(pagina, 'Caio Consumidor').getByText('Não confirmado').waitFor();
    assert.equal(
      await pagina.getByRole('button', { name: 'Carregar mais pedidos' }).count(),
      0,
      'tudo cabe na primeira página',
    );
    await conferirPagina(pagina, ctx, 'mercados-pedidos-do-mercado');
    // Every order of the market in the cycle as a spreadsheet: the link downloads the XLSX.
    const [planilha] = await Promise.all([
      pagina.waitForEvent('download'),
      pagina.getByRole('link', { name: 'Planilha (Excel, LibreOffice)' }).click(),
    ]);
    assert.match(planilha.suggestedFilename(), /^pedidos-[A-Za-z0-9-]+\.xlsx$/);

    // A planned cycle of her market has no orders yet: the page says so.
    await pagina.getByRole('link', { name: 'Voltar ao mercado' }).click();
    await cartao(pagina, `Ciclo futuro 10 ${sufixo}`)
      .getByRole('link', { name: /Pedidos deste mercado/ })
      .click();
    await pagina.getByText('Nenhum pedido deste mercado no ciclo até agora.').waitFor();
    await conferirPagina(pagina, ctx, 'mercados-pedidos-vazio');

    // Another market in the same cycle: she sees the cycle there, but no orders link; its orders page refuses clearly.
    // The market and its cycles are asked for at once (no query waits for another's answer) and
    // drawn together, so nothing on the page moves when the cycles arrive (issue 22, on a phone).
    await pagina.addInitScript(() => {
      const w = window as unknown as { deslocamento: number };
      w.deslocamento = 0;
      new PerformanceObserver((l) => {
        for (const e of l.getEntries()) w.deslocamento += (e as PerformanceEntry & { value: number }).value;
      }).observe({ type: 'layout-shift', buffered: true });
    });
    const consultas: string[] = [];
    const aoPedir = (r: Request) => {
      if (new URL(r.url()).pathname === '/graphql')
        consultas.push(
          `pede ${/^\s*(?:query|mutation) (\w+)/.exec(String((r.postDataJSON() as { query?: unknown } | null)?.query))?.[1] ?? '?'}`,
        );
    };
    const aoReceber = (r: Response) => {
      if (new URL(r.url()).pathname === '/graphql') consultas.push('recebe');
    };
    pagina.on('request', aoPedir);
    pagina.on('response', aoReceber);
    await pagina.goto(`${amb.urlMercados}/mercados/${mercados.feira.id}`);
    await cartao(pagina, cicloNome).waitFor();
    await pagina.getByRole('heading', { name: 'Preços', exact: true }).waitFor();
    await pagina.evaluate(() => new Promise((pronto) => requestAnimationFrame(() => requestAnimationFrame(pronto))));
    pagina.off('request', aoPedir);
    pagina.off('response', aoReceber);
    assert.deepEqual([...consultas.slice(0, 2)].sort(), ['pede CiclosDoMercado', 'pede Mercado'], consultas.join(', '));
    assert.deepEqual(consultas.slice(2), ['recebe', 'recebe'], consultas.join(', '));
    assert.equal(
      await pagina.evaluate(() => (window as unknown as { deslocamento: number }).deslocamento),
      0,
      'nada se desloca na página do mercado',
    );
    assert.equal(await pagina.getByRole('link', { name: /Pedidos deste mercado/ }).count(), 0);
    await pagina.goto(`${amb.urlMercados}/mercados/${mercados.feira.id}/ciclos/${cicloid}/pedidos`);
    await pagina
      .getByRole('alert')
      .filter({ hasText: 'Você só pode ver os pedidos do mercado que administra.' })
      .waitFor();
    await pagina.getByRole('link', { name: 'Voltar ao mercado' }).first().waitFor();
    await conferirPagina(pagina, ctx, 'mercados-pedidos-recusa');

    // Setting a cycle's markets is the coordination's: the client sends her to /unauthorized.
    await pagina.goto(`${amb.urlMercados}/ciclos/${cicloid}/mercados`);
    await pagina.waitForURL(`${amb.urlMercados}/unauthorized`);
    await ctx.fechar();
  });
});
