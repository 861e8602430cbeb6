/**
 * One cycle's story on the Mercados client, every profile in a real browser (issue 18, "Proof"):
 * 1. a Fornecedor offers;
 * 2. the Administrador composes the basket (Cestas face, reached from the Mercados navigation),
 *    sets the cycle's markets and releases the surplus to the direct-sale market;
 * 3. a Consumidor on a 360 px screen orders a basket and a direct-sale item, confirms, edits (and
 *    is told the order must be confirmed again), and confirms again;
 * 4. the Fornecedor sees the delivery, per market;
 * 5. the AdminMercado sees the order in their market, and cannot open another market's.
 * Runs on both databases, like the whole suite; every page is screenshotted at 360 and 1280 px.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { diaLocal, somarDias } from '../../src/domain/tempo.ts';
import {
  abrirChromium,
  abrirContexto,
  conferirPagina,
  entrarNoNavegador,
  semChromium,
  type ContextoDeTeste,
} from '../helpers/chromium.ts';
import { criarCesta, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { Navegador } from '../helpers/navegador.ts';
import { contaComSessao, contaPorEmail, criarMercadoNoBanco, zerarLimiteDeLogin } from '../mercados/apoio.ts';
import { lido } from './cestas-apoio.ts';

const pular = semChromium();

describe('a história de um ciclo no cliente Mercados, perfil a perfil', { skip: pular }, () => {
  let amb: AmbienteDeTeste;
  let navegador: Browser;
  const sufixo = randomBytes(2).toString('hex');
  const nomes = {
    ciclo: `Ciclo da história ${sufixo}`,
    tomate: `Tomate ${sufixo}`,
    sede: `Sede ${sufixo}`,
    mercadoCestas: `Cestas da Vila ${sufixo}`,
    mercadoFeira: `Feira Livre ${sufixo}`,
  };
  let cesta = { id: 0, nome: '' };
  let cicloid = 0;
  let cicloCestaId = 0;
  const mercados = { cestas: 0, feira: 0 };
  const pessoas = {
    fornecedor: { email: '', nome: 'Fátima Fornecedora' },
    admin: { email: '', nome: 'Ana Coordenação' },
    consumidora: { email: '', nome: 'Clara Consumidora' },
    donaDaCesta: { email: `dona-${sufixo}@teste.org`, nome: 'Dora Dona' },
  };
  const contextos: ContextoDeTeste[] = [];

  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
    navegador = await abrirChromium();
    // The offer window closes and the order window opens today: the whole story happens today.
    const hoje = diaLocal(amb.relogio.agora(), 'America/Sao_Paulo');
    const iso = new Date().toISOString();
    const c = await amb.banco
      .insertInto('ciclo')
      .values({
        nome: nomes.ciclo,
        nomeChave: nomes.ciclo.toLowerCase(),
        dataOfertaInicio: somarDias(hoje, -1),
        dataOfertaFim: hoje,
        dataPedidoInicio: hoje,
        dataPedidoFim: somarDias(hoje, 2),
        dataRetiradaInicio: somarDias(hoje, 3),
        dataRetiradaFim: somarDias(hoje, 4),
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    cicloid = c.id;
    const tipo = await criarCesta(amb.banco, { valorCentavos: 5000 });
    cesta = { id: tipo.id, nome: tipo.nome };
    cicloCestaId = (
      await amb.banco
        .insertInto('ciclocesta')
        .values({ cicloid, cestaId: tipo.id, quantidadeCestas: 10, createdAt: iso, updatedAt: iso })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    const tomate = await criarProduto(amb.banco, { nome: nomes.tomate, unidade: 'kg' });
    await criarPonto(amb.banco, nomes.sede);
    for (const [chave, perfil] of [
      ['fornecedor', 'fornecedor'],
      ['admin', 'admin'],
      ['consumidora', 'consumidor'],
    ] as const) {
      const u = await criarUsuario(amb.banco, { perfil: [perfil], nome: pessoas[chave].nome });
      pessoas[chave].email = u.email;
    }
    // Two markets, first both with another AdminMercado; the cesta one is handed to Dora at her first login (5).
    const { conta: outro } = await contaComSessao(amb, new Navegador(), amb.urlMercados, {
      perfis: ['AdminMercado'],
      nome: 'Otávio da Feira',
    });
    const adminProvisorio = outro.id;
    mercados.cestas = (
      await criarMercadoNoBanco(amb.banco, {
        adminId: adminProvisorio,
        nome: nomes.mercadoCestas,
        tipo: 'cesta',
        valorMaximoCestaCentavos: 3000,
      })
    ).id;
    mercados.feira = (
      await criarMercadoNoBanco(amb.banco, { adminId: adminProvisorio, nome: nomes.mercadoFeira, tipo: 'venda_direta' })
    ).id;
    await amb.banco
      .updateTable('mercado')
      .set({ taxaAdministrativaCentesimos: 1000 })
      .where('id', '=', mercados.feira)
      .execute();
    await amb.banco
      .insertInto('precomercado')
      .values({
        mercadoId: mercados.feira,
        produtoId: tomate.id,
        precoCentavos: 600,
        ativo: true,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
  });
  after(async () => {
    for (const ctx of contextos) await ctx.fechar();
    await navegador.close();
    await amb.fechar();
  });

  async function contexto(largura: 360 | 1280): Promise<ContextoDeTeste> {
    const ctx = await abrirContexto(navegador, { largura, altura: largura === 360 ? 740 : 800 });
    ctx.contexto.setDefaultTimeout(8000);
    contextos.push(ctx);
    return ctx;
  }

  /** Logs in to Mercados through the development provider's page; waits for the dashboard. */
  async function entrarNoMercados(ctx: ContextoDeTeste, pessoa: { email: string; nome: string }): Promise<Page> {
    await zerarLimiteDeLogin(amb.banco);
    const pagina = await ctx.novaPagina();
    await entrarNoNavegador(pagina, `${amb.urlMercados}/login`, amb.urlMercados, pessoa);
    await pagina.getByRole('heading', { name: `Olá, ${pessoa.nome}!` }).waitFor();
    return pagina;
  }

  const cartaoDoCiclo = (pagina: Page) => pagina.getByRole('article', { name: new RegExp(nomes.ciclo) });

  let fornecedor: Page;

  test('1. a fornecedora oferta pelo cliente', async () => {
    const ctx = await contexto(1280);
    fornecedor = await entrarNoMercados(ctx, pessoas.fornecedor);
    await fornecedor
      .getByRole('navigation', { name: 'Principal' })
      .getByRole('link', { name: 'Ciclos', exact: true })
      .click();
    await cartaoDoCiclo(fornecedor).getByRole('link', { name: 'Ofertar' }).click();
    await fornecedor.getByRole('heading', { name: `Oferta em ${nomes.ciclo}` }).waitFor();
    await fornecedor.getByLabel(`Quantidade de ${nomes.tomate} (kg)`).fill('100');
    await fornecedor.getByLabel(`Preço de ${nomes.tomate} por kg (R$)`).fill('4,00');
    await fornecedor.getByText('Total: R$ 400,00', { exact: true }).waitFor();
    await fornecedor.getByRole('button', { name: 'Finalizar oferta' }).click();
    await fornecedor.getByText('Oferta finalizada.').waitFor();
    await conferirPagina(fornecedor, ctx, 'historia-1-oferta');
  });

  test('2. a coordenação compõe a cesta (face Cestas), define os mercados do ciclo e libera a sobra para a feira', async () => {
    const ctx = await contexto(1280);
    const pagina = await entrarNoMercados(ctx, pessoas.admin);
    // To the Cestas face from the Mercados navigation: the provider does not ask again.
    await Promise.all([
      pagina.waitForURL(`${amb.url}/`),
      pagina.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Cestas', exact: true }).click(),
    ]);
    await pagina.goto(`${amb.url}/composicao/${cicloCestaId}`);
    await pagina.getByLabel('Quantas cestas montar').fill('10');
    await pagina
      .locator('tr[data-linha]', { hasText: nomes.tomate })
      .getByLabel(new RegExp(`Quantidade de ${nomes.tomate}`))
      .fill('5');
    await pagina.getByRole('button', { name: 'Salvar composição' }).click();
    await pagina.getByRole('status').filter({ hasText: 'Composição salva' }).waitFor();

    // Back on Mercados: the cycle's markets, the basket sold in the cesta market.
    await Promise.all([
      pagina.waitForURL(`${amb.urlMercados}/dashboard`),
      pagina
        .getByRole('navigation', { name: 'Principal' })
        .getByRole('link', { name: 'Mercados', exact: true })
        .click(),
    ]);
    await pagina
      .getByRole('navigation', { name: 'Principal' })
      .getByRole('link', { name: 'Ciclos', exact: true })
      .click();
    await cartaoDoCiclo(pagina).getByRole('link', { name: 'Mercados do ciclo' }).click();
    await pagina.getByRole('heading', { name: `Mercados do ciclo · ${nomes.ciclo}` }).waitFor();
    for (const [nome, tipo] of [
      [nomes.mercadoCestas, 'Cesta'],
      [nomes.mercadoFeira, 'Venda direta'],
    ] as const) {
      await pagina.getByLabel('Mercado ativo').selectOption({ label: `${nome} (${tipo})` });
      await pagina.getByRole('button', { name: 'Adicionar ao ciclo' }).click();
    }
    await pagina
      .locator('li')
      .filter({ has: pagina.getByRole('heading', { name: new RegExp(nomes.mercadoCestas) }) })
      .getByLabel(new RegExp(cesta.nome))
      .check();
    await pagina.getByRole('button', { name: 'Salvar mercados do ciclo' }).click();
    await pagina.getByText('Mercados do ciclo salvos.').waitFor();
    await conferirPagina(pagina, ctx, 'historia-2-mercados-do-ciclo');

    // The surplus of the tomatoes (100 − 50 in baskets) goes to the feira at its price: 30 kg.
    await pagina.goto(`${amb.url}/ciclo/${cicloid}/mercado/${mercados.feira}/liberar`);
    await pagina.getByLabel(`Liberar de ${nomes.tomate} (kg)`).fill('30');
    await pagina.getByRole('button', { name: 'Salvar o que está liberado' }).click();
    await pagina.getByText('Itens liberados para venda direta.').waitFor();
  });

  test('3. a consumidora, num telefone, pede uma cesta e tomates da feira, confirma, altera, e confirma de novo', async () => {
    const ctx = await contexto(360);
    const pagina = await entrarNoMercados(ctx, pessoas.consumidora);
    const nav = pagina.getByRole('navigation', { name: 'Principal' });
    await nav.getByRole('link', { name: 'Ciclos', exact: true }).click();
    const cartao = cartaoDoCiclo(pagina);
    await cartao.getByText(nomes.mercadoCestas).first().waitFor();
    await cartao.getByText(nomes.mercadoFeira).first().waitFor();
    await cartao.getByRole('link', { name: 'Fazer pedido' }).click();
    await pagina.getByRole('heading', { name: `Pedido em ${nomes.ciclo}` }).waitFor();
    await pagina.getByLabel(`Quantidade de ${cesta.nome} (cestas)`).fill('1');
    const tomates = pagina.getByLabel(`Quantidade de ${nomes.tomate} (kg)`);
    await tomates.fill('1,5');
    await pagina.getByLabel(new RegExp(nomes.sede)).check();
    await pagina.getByRole('button', { name: 'Salvar pedido' }).click();
    const salvo = pagina.getByRole('region', { name: 'Seu pedido salvo' });
    await salvo.getByText('salvo, ainda não confirmado').waitFor();
    // The basket in the cesta market (5 % fee), the tomatoes at the feira's price (10 % fee): fees apart.
    await salvo.getByText('R$ 50,00 + taxa R$ 2,50').waitFor();
    await salvo.getByText('R$ 9,00 + taxa R$ 0,90').waitFor();
    await salvo.getByText('R$ 62,40', { exact: true }).waitFor();
    // The total stays in view on the phone.
    assert.ok(await pagina.locator('.resumo-topo').getByText('R$ 62,40').isVisible());
    // The confirm button sits in the bar kept at the bottom of the screen.
    await pagina
      .getByRole('region', { name: 'Confirmar o pedido' })
      .getByRole('button', { name: 'Confirmar pedido' })
      .click();
    await pagina.getByText(/^Pedido confirmado em /).waitFor();

    await tomates.fill('2');
    await pagina.getByRole('button', { name: 'Salvar pedido' }).click();
    await salvo.getByText('Pedido alterado: falta confirmar de novo').waitFor();
    await conferirPagina(pagina, ctx, 'historia-3-pedido-alterado');
    await pagina.getByRole('button', { name: 'Confirmar de novo' }).click();
    await pagina.getByText(/^Pedido confirmado em /).waitFor();
    assert.equal(await pagina.getByText('Pedido alterado: falta confirmar de novo').count(), 0);

    await nav.getByRole('link', { name: 'Meus pedidos' }).click();
    const meu = pagina.getByRole('article', { name: nomes.ciclo });
    await meu.getByText(/confirmado em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/).waitFor();
    await meu.getByText('R$ 65,70', { exact: true }).waitFor();
    await conferirPagina(pagina, ctx, 'historia-3-meus-pedidos');
    const gravado = await amb.banco
      .selectFrom('pedido')
      .select(['finalizado'])
      .where('cicloid', '=', cicloid)
      .executeTakeFirstOrThrow();
    assert.equal(Boolean(gravado.finalizado), true);
  });

  test('4. a fornecedora vê o que entregar, por mercado', async () => {
    const nav = fornecedor.getByRole('navigation', { name: 'Principal' });
    await nav.getByRole('link', { name: 'Minhas entregas' }).click();
    await fornecedor.getByRole('link', { name: `Entregas de ${nomes.ciclo}` }).click();
    await fornecedor.getByRole('heading', { name: `Minhas entregas em ${nomes.ciclo}` }).waitFor();
    // 5 kg in the basket (R$ 20,00) at the cesta market, 2 kg (R$ 8,00) at the feira: R$ 28,00 ordered.
    const main = lido(await fornecedor.locator('main').textContent());
    assert.match(main, new RegExp(`${nomes.mercadoCestas}.*5 kg.*R\\$ 20,00`));
    assert.match(main, new RegExp(`${nomes.mercadoFeira}.*2 kg.*R\\$ 8,00`));
    assert.match(main, /R\$ 28,00/);
  });

  test('5. a dona do mercado de cestas vê o pedido no seu mercado, e não abre os de outro', async () => {
    const ctx = await contexto(360);
    // Her first login makes her account; the coordination then hands her the cesta market.
    await entrarNoMercados(ctx, pessoas.donaDaCesta);
    const conta = await contaPorEmail(amb.banco, pessoas.donaDaCesta.email);
    assert.ok(conta);
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
    await amb.banco.updateTable('mercado').set({ adminId: conta.id }).where('id', '=', mercados.cestas).execute();
    const pagina = await ctx.novaPagina();
    await pagina.goto(`${amb.urlMercados}/dashboard`);
    await pagina.getByRole('link', { name: `Meu mercado: ${nomes.mercadoCestas}` }).click();
    await pagina.getByRole('heading', { name: nomes.mercadoCestas, exact: true }).waitFor();
    await pagina
      .getByRole('link', { name: /Pedidos deste mercado/ })
      .first()
      .click();
    await pagina.getByRole('heading', { name: `Pedidos · ${nomes.mercadoCestas}` }).waitFor();
    const pedido = pagina.locator('li').filter({ hasText: pessoas.consumidora.nome }).last();
    await pedido.getByText('Confirmado', { exact: true }).waitFor();
    // Only what was bought in this market: the basket and its fee, not the feira's tomatoes.
    const texto = lido(await pedido.textContent());
    assert.match(texto, /R\$ 50,00/);
    assert.match(texto, /R\$ 2,50/);
    assert.doesNotMatch(texto, new RegExp(nomes.tomate));
    await conferirPagina(pagina, ctx, 'historia-5-pedidos-do-mercado');

    await pagina.goto(`${amb.urlMercados}/mercados/${mercados.feira}/ciclos/${cicloid}/pedidos`);
    await pagina.getByText('Você só pode ver os pedidos do mercado que administra').first().waitFor();
    assert.equal(await pagina.getByText(pessoas.consumidora.nome).count(), 0, 'nenhum pedido do outro mercado aparece');
  });
});
