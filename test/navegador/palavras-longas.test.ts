/**
 * Long words on a 360 px phone (issue 37): the demo community (src/demo/dados.ts) has a person
 * with a 60-character e-mail and a long name, and a product with a long name. Logged in as her,
 * and as the coordination, the main pages of both faces wrap them: the document is never wider
 * than the phone, and each long text is on screen, inside its 360 px.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { EMAIL_LONGO_DEMO, PRODUTO_LONGO_DEMO } from '../../src/demo/dados.ts';
import { CICLO_COM_MERCADOS } from '../../src/demo/mercados-no-ciclo.ts';
import { liberarParaMercado } from '../../src/domain/mercados-do-ciclo/venda-direta.ts';
import { conferirPagina, semChromium, type ContextoDeTeste } from '../helpers/chromium.ts';
import { criarOfertaFinalizada, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { montarDemo, pessoaDemo, type PalcoDemo } from './demo-apoio.ts';

const pular = semChromium();
const LARGURA = 360;
const LONGA = pessoaDemo(EMAIL_LONGO_DEMO);
const ANA = pessoaDemo('ana@exemplo.org');
const FORNECEDORA_LONGA = 'Cooperativa Agroextrativista Recanto das Águas Claras do Alto Ribeira';
const PRODUTO_DA_FEIRA = 'Geleia de jabuticaba-sabará orgânica sem açúcar, pote de vidro retornável';

describe('palavras longas a 360 px, nas duas faces', { skip: pular }, () => {
  let palco: PalcoDemo;
  const ids = { ciclo: 0, feira: 0, pedido: 0 };

  before(async () => {
    palco = await montarDemo();
    const { amb, id } = palco;
    ids.ciclo = await id('ciclo', CICLO_COM_MERCADOS);
    ids.feira = await id('mercado', 'Feira da Associação');
    const usuario = await amb.banco
      .selectFrom('usuario')
      .select('id')
      .where('email', '=', EMAIL_LONGO_DEMO)
      .executeTakeFirstOrThrow();
    ids.pedido = (
      await amb.banco
        .selectFrom('pedido')
        .select('id')
        .where('cicloid', '=', ids.ciclo)
        .where('usuarioid', '=', usuario.id)
        .executeTakeFirstOrThrow()
    ).id;
    // The fair sells another long-named product, from a supplier with a long name and e-mail (a
    // product is sold once per cycle, and the demo's long one is already a Cestas extra).
    const fornecedora = await criarUsuario(amb.banco, {
      perfil: ['fornecedor'],
      nome: FORNECEDORA_LONGA,
      email: 'cooperativa.agroextrativista.recanto.das.aguas.claras@exemplo.org.br',
    });
    const geleia = await criarProduto(amb.banco, { nome: PRODUTO_DA_FEIRA, unidade: 'unidade', valorCentavos: 1500 });
    await criarOfertaFinalizada(
      amb.banco,
      ids.ciclo,
      [{ produtoId: geleia.id, quantidadeMilesimos: 20_000, valorCentavos: 1200 }],
      fornecedora.id,
    );
    const iso = new Date().toISOString();
    await amb.banco
      .insertInto('precomercado')
      .values({
        mercadoId: ids.feira,
        produtoId: geleia.id,
        precoCentavos: 1700,
        ativo: true,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    await liberarParaMercado(
      amb.banco,
      await palco.ana(),
      ids.ciclo,
      ids.feira,
      [
        { produtoId: await id('produto', 'Alface crespa'), quantidadeMilesimos: 10_000, campo: 'itens.0' },
        { produtoId: geleia.id, quantidadeMilesimos: 6_000, campo: 'itens.1' },
      ],
      amb.relogio.agora(),
    );
  });
  after(() => palco?.fechar());

  /**
   * Opens `caminho`, waits for `espera` (a text the page shows once drawn), and checks that the
   * document is at most 360 px wide and that every text in `longos` shown there lies inside the
   * screen; saves `palavras-longas-<nome>-360.png` (conferirPagina: axe and console errors too).
   */
  async function conferir(
    ctx: ContextoDeTeste,
    pagina: Page,
    url: string,
    nome: string,
    espera: string,
    longos: readonly string[],
  ): Promise<void> {
    await pagina.goto(url);
    await pagina.getByText(espera, { exact: false }).first().waitFor();
    await pagina.waitForLoadState('networkidle');
    const largura = await pagina.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(largura <= LARGURA, `${nome}: o documento tem ${largura} px para ${LARGURA} px de tela`);
    for (const texto of longos) {
      const alvo = pagina.getByText(texto, { exact: false }).first();
      assert.ok(await alvo.isVisible(), `${nome}: mostra "${texto}"`);
      const caixa = await alvo.boundingBox();
      assert.ok(
        caixa !== null && caixa.x >= 0 && caixa.x + caixa.width <= LARGURA + 0.5,
        `${nome}: "${texto}" vai de ${caixa?.x} a ${(caixa?.x ?? 0) + (caixa?.width ?? 0)} px`,
      );
    }
    await conferirPagina(pagina, ctx, `palavras-longas-${nome}`);
  }

  test('Cestas: a pessoa do e-mail longo no início (os ciclos), nas assinaturas, no pedido, na confirmação, no saldo e no perfil', async () => {
    assert.ok(LONGA.email.length >= 40, 'a demonstração tem um e-mail de 40+ caracteres');
    const { ctx, pagina } = await palco.entrar(`${palco.amb.url}/`, palco.amb.url, LONGA);
    try {
      const u = palco.amb.url;
      await conferir(ctx, pagina, `${u}/`, 'cestas-inicio', CICLO_COM_MERCADOS, [LONGA.nome]);
      await conferir(ctx, pagina, `${u}/assinaturas`, 'cestas-assinaturas', 'Assinaturas', []);
      await conferir(ctx, pagina, `${u}/pedidoconsumidores/${ids.ciclo}`, 'cestas-pedido', PRODUTO_LONGO_DEMO, [
        PRODUTO_LONGO_DEMO,
      ]);
      await conferir(
        ctx,
        pagina,
        `${u}/pedidoconsumidoresconfirmacao/${ids.pedido}`,
        'cestas-confirmacao',
        PRODUTO_LONGO_DEMO,
        [PRODUTO_LONGO_DEMO],
      );
      await conferir(ctx, pagina, `${u}/saldo`, 'cestas-saldo', 'Saldo', []);
      await conferir(ctx, pagina, `${u}/profile`, 'cestas-perfil', 'Meu perfil', []);
      assert.equal(await pagina.getByLabel('E-mail', { exact: false }).first().inputValue(), LONGA.email);
    } finally {
      await ctx.fechar();
    }
  });

  test('Cestas: a coordenação lista pessoas, produtos e pedidos com os nomes longos', async () => {
    const { ctx, pagina } = await palco.entrar(`${palco.amb.url}/`, palco.amb.url, ANA);
    try {
      const u = palco.amb.url;
      await conferir(ctx, pagina, `${u}/usuario-index`, 'cestas-pessoas', LONGA.email, [LONGA.email, LONGA.nome]);
      await conferir(ctx, pagina, `${u}/produto-index`, 'cestas-produtos', PRODUTO_LONGO_DEMO, [PRODUTO_LONGO_DEMO]);
      await conferir(ctx, pagina, `${u}/pedidosconsumidorestodos/${ids.ciclo}`, 'cestas-pedidos', LONGA.nome, [
        LONGA.nome,
      ]);
      await conferir(ctx, pagina, `${u}/ciclo/${ids.ciclo}`, 'cestas-ciclo', CICLO_COM_MERCADOS, []);
    } finally {
      await ctx.fechar();
    }
  });

  test('Mercados: a pessoa do e-mail longo no painel, nos ciclos, no pedido e em Meus pedidos', async () => {
    const m = palco.amb.urlMercados;
    const { ctx, pagina } = await palco.entrar(`${m}/login`, `${m}/dashboard`, LONGA);
    try {
      await conferir(ctx, pagina, `${m}/dashboard`, 'mercados-painel', `Olá, ${LONGA.nome}!`, [
        LONGA.email,
        `Olá, ${LONGA.nome}!`,
      ]);
      await conferir(ctx, pagina, `${m}/ciclos`, 'mercados-ciclos', CICLO_COM_MERCADOS, []);
      await conferir(ctx, pagina, `${m}/ciclos/${ids.ciclo}/pedido`, 'mercados-pedido', PRODUTO_DA_FEIRA, [
        PRODUTO_DA_FEIRA,
      ]);
      await conferir(ctx, pagina, `${m}/pedidos`, 'mercados-meus-pedidos', CICLO_COM_MERCADOS, []);
      await conferir(ctx, pagina, `${m}/avisos`, 'mercados-avisos', 'Avisos', []);
    } finally {
      await ctx.fechar();
    }
  });

  test('Mercados: a administração lista usuários, mercados e preços com os nomes longos', async () => {
    const m = palco.amb.urlMercados;
    const { ctx, pagina } = await palco.entrar(`${m}/login`, `${m}/dashboard`, ANA);
    try {
      await conferir(ctx, pagina, `${m}/usuarios`, 'mercados-usuarios', LONGA.email, [LONGA.email]);
      await conferir(ctx, pagina, `${m}/mercados/${ids.feira}`, 'mercados-mercado', PRODUTO_DA_FEIRA, [
        PRODUTO_DA_FEIRA,
      ]);
      await conferir(ctx, pagina, `${m}/mercados/${ids.feira}/precos`, 'mercados-precos', PRODUTO_LONGO_DEMO, [
        PRODUTO_LONGO_DEMO,
      ]);
      await conferir(ctx, pagina, `${m}/ciclos/${ids.ciclo}/mercados`, 'mercados-do-ciclo', 'Feira da Associação', []);
    } finally {
      await ctx.fechar();
    }
  });
});
