/**
 * The supplier's pages of the Mercados client in a real browser (issue 18): a Fornecedor logs in
 * through the development provider, offers two products with decimal commas, sees a bad value
 * refused on its field, saves a draft, finds it after a reload, finalises; then, once the
 * coordination composed a basket from the offer and a consumer confirmed an order in two markets
 * (through the real APIs), sees the refusal to go below what the baskets use on that line's
 * field, the list of their cycles and what to deliver per product and per market; and, with the
 * window closed, the offer read-only. Every page at 360 and 1280 px, axe and console checked.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { diaLocal, somarDias } from '../../src/domain/tempo.ts';
import {
  PASTA_DE_TELAS,
  abrirChromium,
  abrirContexto,
  conferirPagina,
  entrarNoNavegador,
  semChromium,
  type ContextoDeTeste,
} from '../helpers/chromium.ts';
import { criarCesta, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import {
  contaPorEmail,
  criarMercadoNoBanco,
  entrarNoMercados,
  graphql,
  zerarLimiteDeLogin,
  type RespostaGraphql,
} from '../mercados/apoio.ts';

const pular = semChromium();

function dados<T>(r: RespostaGraphql, campo: string): T {
  assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
  return r.corpo.data?.[campo] as T;
}

const ddmmaaaa = (d: string) => d.split('-').reverse().join('/');

describe('páginas do fornecedor no cliente Mercados', { skip: pular }, () => {
  let amb: AmbienteDeTeste;
  let navegador: Browser;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
    navegador = await abrirChromium();
  });
  after(async () => {
    await navegador.close();
    await amb.fechar();
  });

  test('oferta com vírgulas, rascunho e final; recusa no campo; minhas entregas por produto e por mercado; oferta fechada só leitura', async () => {
    const sufixo = randomBytes(2).toString('hex');
    const hoje = diaLocal(amb.relogio.agora(), 'America/Sao_Paulo');
    const iso = new Date().toISOString();
    // A cycle whose offer window closes today and whose order window opens today, one basket type.
    const nomeCiclo = `Ciclo da Fornecedora ${sufixo}`;
    const ciclo = await amb.banco
      .insertInto('ciclo')
      .values({
        nome: nomeCiclo,
        nomeChave: nomeCiclo.toLowerCase(),
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
    const cesta = await criarCesta(amb.banco, { valorCentavos: 5000 });
    const cc = await amb.banco
      .insertInto('ciclocesta')
      .values({ cicloid: ciclo.id, cestaId: cesta.id, quantidadeCestas: 2, createdAt: iso, updatedAt: iso })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tomate = await criarProduto(amb.banco, { nome: `Tomate ${sufixo}`, unidade: 'kg', valorCentavos: 410 });
    const alface = await criarProduto(amb.banco, { nome: `Alface ${sufixo}`, unidade: 'maço', valorCentavos: 200 });
    // A catalogue of a real size: the page lists every active product.
    for (let i = 1; i <= 30; i++)
      await criarProduto(amb.banco, {
        nome: `Produto ${String(i).padStart(2, '0')} ${sufixo}`,
        valorCentavos: 100 + i * 7,
      });
    const sede = await criarPonto(amb.banco, `Sede ${sufixo}`);

    const fornecedora = await criarUsuario(amb.banco, { perfil: ['fornecedor'], nome: 'Fátima Fornecedora' });
    const ctx: ContextoDeTeste = await abrirContexto(navegador);
    const pagina: Page = await ctx.novaPagina();
    await zerarLimiteDeLogin(amb.banco);
    await entrarNoNavegador(pagina, `${amb.urlMercados}/login`, amb.urlMercados, {
      email: fornecedora.email,
      nome: 'Fátima Fornecedora',
    });
    const nav = pagina.getByRole('navigation', { name: 'Principal' });
    await nav.getByRole('link', { name: 'Minhas entregas' }).waitFor();

    // 1. The offer page: nothing offered yet, the suggestion prefilled as the price.
    await pagina.goto(`${amb.urlMercados}/ciclos/${ciclo.id}/oferta`);
    await pagina.getByRole('heading', { name: `Oferta em ${nomeCiclo}` }).waitFor();
    await pagina.getByText(`Ofertas até ${ddmmaaaa(hoje)}`).waitFor();
    await pagina.getByText('sem oferta ainda').waitFor();
    const qTomate = pagina.getByLabel(`Quantidade de ${tomate.nome} (kg)`);
    const vTomate = pagina.getByLabel(`Preço de ${tomate.nome} por kg (R$)`);
    const qAlface = pagina.getByLabel(`Quantidade de ${alface.nome} (maço)`);
    assert.equal(await vTomate.inputValue(), '4,10', 'o preço vem com a sugestão');
    await pagina.getByText('sugestão: R$ 4,10').waitFor();
    assert.equal(await pagina.getByText('já ofertou').count(), 0);

    // A bad value is refused on its field, in Portuguese, and nothing is saved.
    await qTomate.fill('12,5555');
    await vTomate.fill('4,30');
    await qAlface.fill('40');
    await pagina.getByText('Total: R$ 80,00', { exact: true }).waitFor();
    await pagina.getByRole('button', { name: 'Salvar rascunho' }).click();
    await pagina.getByText('Use uma quantidade com até 3 casas, como 12,5').waitFor();
    assert.equal(await qTomate.getAttribute('aria-invalid'), 'true');
    await pagina.getByRole('alert').filter({ hasText: 'Há 1 produto a corrigir. Nada foi gravado.' }).waitFor();
    assert.equal(
      await pagina.evaluate(() => document.activeElement?.getAttribute('aria-invalid')),
      'true',
      'o foco vai ao campo recusado',
    );
    assert.equal(
      await amb.banco.selectFrom('oferta').select('id').where('cicloid', '=', ciclo.id).executeTakeFirst(),
      undefined,
    );

    // Fixed with the keyboard (Enter saves the draft): 12,5 kg at R$ 4,30 and 40 maços at the suggested R$ 2,00.
    await qTomate.fill('12,5');
    await qTomate.press('Enter');
    await pagina.getByText('Rascunho salvo.', { exact: false }).waitFor();
    await pagina.getByText('Total: R$ 133,75', { exact: true }).waitFor();
    await pagina.locator('.situacao-oferta').getByText('rascunho').waitFor();
    await conferirPagina(pagina, ctx, 'mercados-oferta');
    // What a phone shows while scrolling the list: the total and the buttons stay at the bottom.
    await pagina.setViewportSize({ width: 360, height: 740 });
    await pagina.getByLabel(`Quantidade de Produto 10 ${sufixo} (kg)`).scrollIntoViewIfNeeded();
    const barra = await pagina.locator('.barra-salvar.fixa').boundingBox();
    assert.ok(
      barra !== null && Math.abs(barra.y + barra.height - 740) < 2,
      `a barra do total fica no pé da tela: ${JSON.stringify(barra)}`,
    );
    await pagina.screenshot({ path: join(PASTA_DE_TELAS, 'mercados-oferta-rolando-360.png') });
    await pagina.setViewportSize({ width: 1280, height: 800 });

    // The search box and "only the offer's products" narrow the ~30 cards.
    const cartoes = pagina.locator('.linha-oferta');
    assert.equal(await cartoes.count(), 32);
    await pagina.getByLabel('Buscar produto').fill(`tomate ${sufixo}`);
    assert.deepEqual(
      await cartoes
        .locator('h3')
        .allInnerTexts()
        .then((t) => t.map((x) => x.replace(/\s+/g, ' ').trim())),
      [`Tomate ${sufixo} (kg)`],
    );
    await pagina.getByLabel('Buscar produto').fill('');
    await pagina.getByLabel('Só os produtos da oferta').check();
    assert.equal(await cartoes.count(), 2);
    await pagina.getByLabel('Só os produtos da oferta').uncheck();

    // After a reload the draft is there, with commas.
    await pagina.reload();
    await pagina.getByRole('heading', { name: `Oferta em ${nomeCiclo}` }).waitFor();
    assert.equal(await pagina.getByLabel(`Quantidade de ${tomate.nome} (kg)`).inputValue(), '12,5');
    assert.equal(await pagina.getByLabel(`Preço de ${tomate.nome} por kg (R$)`).inputValue(), '4,30');
    assert.equal(await pagina.getByLabel(`Quantidade de ${alface.nome} (maço)`).inputValue(), '40');
    await pagina.getByText('Total: R$ 133,75', { exact: true }).waitFor();
    await pagina.getByRole('button', { name: 'Finalizar oferta' }).click();
    await pagina.getByText('Oferta finalizada.').waitFor();
    await pagina
      .locator('.situacao-oferta')
      .getByText(/^finalizada em \d\d\/\d\d\/\d{4} às \d\d:\d\d$/)
      .waitFor();
    const linhas = await amb.banco
      .selectFrom('ofertaproduto as op')
      .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
      .select(['op.id', 'op.produtoid', 'op.quantidadeMilesimos', 'op.valorCentavos', 'o.finalizada'])
      .where('o.cicloid', '=', ciclo.id)
      .orderBy('op.produtoid')
      .execute();
    assert.deepEqual(
      linhas.map((l) => [l.produtoid, l.quantidadeMilesimos, l.valorCentavos, Boolean(l.finalizada)]),
      [
        [tomate.id, 12_500, 430, true],
        [alface.id, 40_000, 200, true],
      ],
    );
    const linhaTomate = linhas.find((l) => l.produtoid === tomate.id)?.id;

    // 2. Through the APIs: the coordination composes 2 baskets with 5 kg of the tomatoes each, sets a
    // cesta market and a venda_direta market, releases 2 kg there; a consumer orders 1 basket and 1,5 kg.
    const admin = await criarUsuario(amb.banco, { perfil: ['admin'], nome: 'Ana Coordenação' });
    const adminCestas = new Navegador();
    await entrarPeloProvedor(adminCestas, `${amb.url}/`, { email: admin.email });
    const adminMercados = new Navegador();
    await entrarNoMercados(amb, adminMercados, { email: admin.email, nome: 'Ana Coordenação' });
    const contaAdmin = await contaPorEmail(amb.banco, admin.email);
    assert.ok(contaAdmin);
    const mCesta = await criarMercadoNoBanco(amb.banco, {
      adminId: contaAdmin.id,
      nome: `Cestas ${sufixo}`,
      tipo: 'cesta',
      valorMaximoCestaCentavos: 3000,
    });
    const mFeira = await criarMercadoNoBanco(amb.banco, {
      adminId: contaAdmin.id,
      nome: `Feira livre ${sufixo}`,
      tipo: 'venda_direta',
    });
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
    const compor = await adminCestas.postJson(`${amb.url}/composicao/${cc.id}`, {
      quantidadeCestas: 2,
      produtos: [{ ofertaProdutoId: linhaTomate, quantidadePorCesta: 5, unidade: 'kg' }],
    });
    assert.equal(compor.status, 200, compor.texto);
    const definir = await graphql(
      amb.urlMercados,
      adminMercados,
      'mutation($c: ID!, $i: [CicloMercadoInput!]!) { definirMercadosDoCiclo(cicloId: $c, input: $i) { id } }',
      {
        c: ciclo.id,
        i: [
          { mercadoId: mCesta.id, ordemAtendimento: 1, pontoEntregaIds: [sede.id], cicloCestaIds: [cc.id] },
          { mercadoId: mFeira.id, ordemAtendimento: 2, pontoEntregaIds: [sede.id] },
        ],
      },
    );
    dados(definir, 'definirMercadosDoCiclo');
    const liberar = await adminCestas.postJson(`${amb.url}/ciclo/${ciclo.id}/mercado/${mFeira.id}/liberar`, {
      itens: [{ produtoId: tomate.id, quantidade: 2 }],
    });
    assert.equal(liberar.status, 200, liberar.texto);
    const consumidor = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Carlos Consumidor' });
    const consumidorMercados = new Navegador();
    await entrarNoMercados(amb, consumidorMercados, { email: consumidor.email, nome: 'Carlos Consumidor' });
    const itens = dados<{ itens: Array<{ cicloProdutoId: string; produtoId: string }> }>(
      await graphql(
        amb.urlMercados,
        consumidorMercados,
        'query($id: ID!) { ciclo(id: $id) { itens { cicloProdutoId produtoId } } }',
        { id: ciclo.id },
      ),
      'ciclo',
    ).itens;
    const item = itens.find((i) => i.produtoId === String(tomate.id));
    const pedido = dados<{ id: string }>(
      await graphql(
        amb.urlMercados,
        consumidorMercados,
        'mutation($c: ID!, $i: PedidoInput!) { fazerPedido(cicloId: $c, input: $i) { id } }',
        {
          c: ciclo.id,
          i: {
            pontoEntregaId: sede.id,
            produtos: [
              { cicloCestaId: cc.id, quantidade: 1 },
              { cicloProdutoId: item?.cicloProdutoId, quantidade: '1.5' },
            ],
          },
        },
      ),
      'fazerPedido',
    );
    dados(
      await graphql(amb.urlMercados, consumidorMercados, 'mutation($p: ID!) { confirmarPedido(pedidoId: $p) { id } }', {
        p: pedido.id,
      }),
      'confirmarPedido',
    );

    // 3. The offer again: the usual products first, the allocation shown; going below it is refused on that field.
    await pagina.reload();
    await pagina.getByRole('heading', { name: `Oferta em ${nomeCiclo}` }).waitFor();
    await pagina.getByText('alocado: 10 kg em cestas').waitFor();
    const usuais = pagina.getByRole('region', { name: /Produtos que você já ofertou/ });
    assert.deepEqual((await usuais.locator('h3').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()).sort(), [
      `Alface ${sufixo} (maço) já ofertou`,
      `Tomate ${sufixo} (kg) já ofertou`,
    ]);
    await pagina.getByLabel(`Quantidade de ${tomate.nome} (kg)`).fill('8');
    await pagina.getByRole('button', { name: 'Finalizar oferta' }).click();
    const erroNoCampo = pagina
      .locator('.linha-oferta .erro-campo')
      .filter({ hasText: `Faltam 2 kg de ${tomate.nome}` });
    await erroNoCampo.waitFor();
    assert.equal(await pagina.getByLabel(`Quantidade de ${tomate.nome} (kg)`).getAttribute('aria-invalid'), 'true');
    assert.match(
      String(await pagina.getByLabel(`Quantidade de ${tomate.nome} (kg)`).getAttribute('aria-describedby')),
      new RegExp(String(await erroNoCampo.getAttribute('id')).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    );
    await pagina
      .getByRole('alert')
      .filter({ hasText: 'O servidor recusou a oferta por causa dos produtos marcados. Nada foi gravado.' })
      .waitFor();
    await conferirPagina(pagina, ctx, 'mercados-oferta-recusada');
    assert.equal(
      (
        await amb.banco
          .selectFrom('ofertaproduto')
          .select('quantidadeMilesimos')
          .where('id', '=', Number(linhaTomate))
          .executeTakeFirstOrThrow()
      ).quantidadeMilesimos,
      12_500,
    );

    // 4. Minhas entregas: the cycles with an offer, then the cycle's deliveries by product and by market.
    await nav.getByRole('link', { name: 'Minhas entregas' }).click();
    await pagina.waitForURL(`${amb.urlMercados}/entregas`);
    await pagina.getByRole('heading', { name: 'Minhas entregas', level: 1 }).waitFor();
    const cartao = pagina.locator('.ciclos-fornecedor > li').filter({ hasText: nomeCiclo });
    await cartao.getByText('oferta finalizada').waitFor();
    await cartao.getByText('Oferta: R$ 133,75').waitFor();
    await cartao.getByRole('link', { name: `Editar oferta de ${nomeCiclo}` }).waitFor();
    await conferirPagina(pagina, ctx, 'mercados-entregas');
    await cartao.getByRole('link', { name: `Entregas de ${nomeCiclo}` }).click();
    await pagina.waitForURL(`${amb.urlMercados}/ciclos/${ciclo.id}/entregas`);
    await pagina.getByRole('heading', { name: `Minhas entregas em ${nomeCiclo}` }).waitFor();
    // Tomatoes: 5 kg in the basket ordered + 1,5 kg released and ordered = 6,5 kg at R$ 4,30 = R$ 27,95.
    const linhaProduto = pagina.locator('table.entregas tbody tr').filter({ hasText: tomate.nome });
    assert.deepEqual(
      (await linhaProduto.locator('td').allInnerTexts()).map((t) => t.replace(/\s+/g, ' ').trim()),
      ['12,5 kg', '12 kg R$ 51,60', '6,5 kg', 'R$ 27,95', `5 kg em Cestas ${sufixo} 1,5 kg em Feira livre ${sufixo}`],
    );
    const porMercado = async (nome: string) =>
      (
        await pagina
          .locator('.mercados-entrega > li')
          .filter({ has: pagina.getByRole('heading', { name: nome }) })
          .locator('tbody tr, tfoot tr')
          .allInnerTexts()
      ).map((t) => t.replace(/\s+/g, ' ').trim());
    assert.deepEqual(await porMercado(`Cestas ${sufixo}`), [
      `${tomate.nome} 5 kg R$ 21,50`,
      `Total em Cestas ${sufixo} R$ 21,50`,
    ]);
    assert.deepEqual(await porMercado(`Feira livre ${sufixo}`), [
      `${tomate.nome} 1,5 kg R$ 6,45`,
      `Total em Feira livre ${sufixo} R$ 6,45`,
    ]);
    await pagina.locator('.totais-entrega').getByText('R$ 27,95').waitFor();
    await conferirPagina(pagina, ctx, 'mercados-minhas-entregas');
    // The same lines as a file: the CSV link downloads them, one column per market, dot decimals.
    const [csv] = await Promise.all([
      pagina.waitForEvent('download'),
      pagina.getByRole('link', { name: 'CSV', exact: true }).click(),
    ]);
    assert.match(csv.suggestedFilename(), /^entregas-[A-Za-z0-9-]+\.csv$/);
    const linhasDoCsv = readFileSync(await csv.path(), 'utf8')
      .trim()
      .split('\n');
    assert.ok(linhasDoCsv.includes(`${tomate.nome},kg,4.30,12.5,12,5,1.5,6.5,27.95`), linhasDoCsv.join('\n'));

    // 5. With the offer window closed the offer is read-only, with the reason, and /entregas offers no edit.
    await amb.banco
      .updateTable('ciclo')
      .set({ dataOfertaInicio: somarDias(hoje, -3), dataOfertaFim: somarDias(hoje, -1) })
      .where('id', '=', ciclo.id)
      .execute();
    await pagina.goto(`${amb.urlMercados}/ciclos/${ciclo.id}/oferta`);
    await pagina
      .getByText(`As ofertas deste ciclo fecharam em ${ddmmaaaa(somarDias(hoje, -1))}. A oferta não pode ser alterada.`)
      .waitFor();
    assert.equal(await pagina.getByRole('button', { name: 'Finalizar oferta' }).count(), 0);
    assert.equal(await pagina.getByRole('textbox').count(), 0, 'nenhum campo para editar');
    await pagina.locator('table tfoot').getByText('R$ 133,75').waitFor();
    await conferirPagina(pagina, ctx, 'mercados-oferta-fechada');
    await pagina.goto(`${amb.urlMercados}/entregas`);
    await pagina
      .locator('.ciclos-fornecedor > li')
      .filter({ hasText: nomeCiclo })
      .getByRole('link', { name: `Entregas de ${nomeCiclo}` })
      .waitFor();
    assert.equal(await pagina.getByRole('link', { name: `Editar oferta de ${nomeCiclo}` }).count(), 0);
    await ctx.fechar();
  });

  test('quem não é fornecedor não tem o atalho e é levado a /unauthorized', async () => {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Clara Consumidora' });
    const ctx = await abrirContexto(navegador);
    const pagina = await ctx.novaPagina();
    await zerarLimiteDeLogin(amb.banco);
    await entrarNoNavegador(pagina, `${amb.urlMercados}/login`, amb.urlMercados, {
      email: pessoa.email,
      nome: 'Clara Consumidora',
    });
    await pagina.getByRole('navigation', { name: 'Principal' }).getByRole('link', { name: 'Avisos' }).waitFor();
    assert.equal(await pagina.getByRole('link', { name: 'Minhas entregas' }).count(), 0);
    await pagina.goto(`${amb.urlMercados}/entregas`);
    await pagina.waitForURL(`${amb.urlMercados}/unauthorized`);
    await ctx.fechar();
  });
});
