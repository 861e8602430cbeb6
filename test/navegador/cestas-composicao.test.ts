/**
 * The coordination composes a basket in chromium: the cost of one basket and each line's
 * availability change as the quantities are typed, a slow save keeps the button disabled, a
 * refusal (more than was offered) is said on the page, and the saved composition updates the
 * suppliers' accumulated values in place.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { conferirPagina, descartarOcorrencias, semChromium } from '../helpers/chromium.ts';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';
import { NA_COMPOSICAO, entrarComoNovo, lido, montarPalco, type Palco, type Sessao } from './cestas-apoio.ts';

const pular = semChromium();

describe('a composição da cesta no navegador', { skip: pular }, () => {
  let palco: Palco;
  let cicloid = 0;
  let cicloCestaId = 0;
  let admin: Sessao;

  before(async () => {
    palco = await montarPalco(NA_COMPOSICAO);
    const banco = palco.amb.banco;
    const tomate = await criarProduto(banco, { nome: 'Tomate', unidade: 'kg', valorCentavos: 900 });
    const ovos = await criarProduto(banco, { nome: 'Ovos caipiras', unidade: 'dúzia', valorCentavos: 1800 });
    const cesta = await criarCesta(banco, { nome: 'Cesta pequena', valorCentavos: 5000 });
    const ciclo = await criarCiclo(banco, {
      nome: 'Ciclo de março',
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
    });
    cicloid = ciclo.id;
    cicloCestaId = ciclo.cicloCestas[0] ?? 0;
    const sitio = await criarUsuario(banco, { perfil: ['fornecedor'], nome: 'Sítio Boa Terra' });
    const granja = await criarUsuario(banco, { perfil: ['fornecedor'], nome: 'Granja Feliz' });
    await criarOfertaFinalizada(
      banco,
      cicloid,
      [{ produtoId: tomate.id, quantidadeMilesimos: 30_000, valorCentavos: 800 }],
      sitio.id,
    );
    await criarOfertaFinalizada(
      banco,
      cicloid,
      [{ produtoId: ovos.id, quantidadeMilesimos: 15_000, valorCentavos: 1600 }],
      granja.id,
    );
    admin = await entrarComoNovo(palco, ['admin'], 'Bruno Coordena', { largura: 1280 });
  });
  after(async () => {
    await admin.ctx.fechar();
    await palco.fechar();
  });

  const linha = (produto: string) => admin.pagina.locator('tr[data-linha]', { hasText: produto });

  test('do painel ao ciclo e à composição, com o índice de ciclos pelo caminho', async () => {
    const { pagina, ctx } = admin;
    await conferirPagina(pagina, ctx, 'cestas-painel-admin');
    await pagina.getByRole('link', { name: 'Ciclos', exact: true }).first().click();
    await pagina.waitForURL('**/ciclo-index');
    await conferirPagina(pagina, ctx, 'cestas-ciclo-index');
    await pagina.getByRole('link', { name: 'Ciclo de março' }).click();
    await pagina.waitForURL(`**/ciclo/${cicloid}`);
    await conferirPagina(pagina, ctx, 'cestas-ciclo');
    await pagina.getByRole('link', { name: 'Compor Cesta pequena' }).click();
    await pagina.waitForURL(`**/composicao/${cicloCestaId}`);
  });

  test('o custo da cesta e a disponibilidade mudam ao digitar', async () => {
    const { pagina } = admin;
    const custo = pagina.locator('p.custo output[data-total]');
    assert.equal(lido(await custo.textContent()), 'R$ 0,00');
    await pagina.getByLabel('Quantas cestas montar').fill('10');
    await linha('Tomate')
      .getByLabel(/Quantidade de Tomate/)
      .fill('1.5');
    assert.equal(lido(await custo.textContent()), 'R$ 12,00', '1.5 kg × R$ 8,00');
    assert.equal(
      lido(await linha('Tomate').locator('output[data-disponivel]').textContent()),
      '15',
      '30 kg − 10 cestas × 1.5 kg',
    );
    await linha('Ovos caipiras')
      .getByLabel(/Quantidade de Ovos caipiras/)
      .fill('6');
    await linha('Ovos caipiras')
      .getByLabel(/Unidade de Ovos caipiras/)
      .selectOption('unidade');
    assert.equal(lido(await custo.textContent()), 'R$ 20,00', 'meia dúzia × R$ 16,00 a mais');
    assert.equal(
      lido(await linha('Ovos caipiras').locator('output[data-disponivel]').textContent()),
      '10',
      '15 dúzias − 10 × 0.5',
    );
    assert.match(lido(await pagina.locator('output[data-diferenca]').textContent()), /R\$ 30,00 abaixo/);
  });

  test('mais do que o ofertado: o servidor recusa e a página diz o porquê, com o botão de volta', async () => {
    const { pagina } = admin;
    await linha('Tomate')
      .getByLabel(/Quantidade de Tomate/)
      .fill('4');
    assert.equal(lido(await linha('Tomate').locator('output[data-disponivel]').textContent()), '-10');
    assert.equal(
      await linha('Tomate').locator('output[data-disponivel].negativo').count(),
      1,
      'a falta aparece antes de salvar',
    );
    await pagina.getByRole('button', { name: 'Salvar composição' }).click();
    const alerta = pagina.getByRole('alert');
    await alerta.waitFor();
    assert.match(lido(await alerta.textContent()), /Tomate/);
    assert.equal(await pagina.getByRole('button', { name: 'Salvar composição' }).isEnabled(), true);
    assert.ok(descartarOcorrencias(admin.ctx, /status of 409/) >= 1);
    assert.equal(
      await palco.amb.banco
        .selectFrom('composicao')
        .select('id')
        .where('cicloCestaId', '=', cicloCestaId)
        .executeTakeFirst(),
      undefined,
    );
  });

  test('salvar numa rede lenta desativa o botão; depois o valor por fornecedor é atualizado', async () => {
    const { pagina, ctx } = admin;
    await linha('Tomate')
      .getByLabel(/Quantidade de Tomate/)
      .fill('1.5');
    let liberar = (): void => undefined;
    const retida = new Promise<void>((r) => (liberar = r));
    await pagina.route(`**/composicao/${cicloCestaId}`, async (rota) => {
      if (rota.request().method() !== 'POST') return rota.fallback();
      await retida;
      return rota.continue();
    });
    const botao = pagina.locator('#form-composicao button[type=submit]');
    await botao.click();
    await pagina.locator('#form-composicao[aria-busy="true"]').waitFor();
    assert.equal(await botao.isDisabled(), true);
    liberar();
    await pagina.getByRole('status').filter({ hasText: 'Composição salva' }).waitFor();
    assert.equal(await botao.isEnabled(), true);
    await pagina.unroute(`**/composicao/${cicloCestaId}`);
    const fornecedores = lido(await pagina.locator('[data-fornecedores]').textContent());
    assert.match(fornecedores, /Sítio Boa Terra: R\$ 120,00/, '10 cestas × 1.5 kg × R$ 8,00');
    assert.match(fornecedores, /Granja Feliz: R\$ 80,00/, '10 cestas × meia dúzia × R$ 16,00');
    assert.equal(lido(await linha('Tomate').locator('[data-alocada]').textContent()), '15');
    const composicao = await palco.amb.banco
      .selectFrom('composicao')
      .select('quantidadeCestas')
      .where('cicloCestaId', '=', cicloCestaId)
      .executeTakeFirstOrThrow();
    assert.equal(composicao.quantidadeCestas, 10);
    await conferirPagina(pagina, ctx, 'cestas-composicao');
  });
});
