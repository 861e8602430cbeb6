/**
 * Live totals, in chromium on a phone, read what Brazilians type as the server reads the form:
 * "1,5", "12,50", "R$ 1.234,56", and a quantity followed by its product's unit ("2,5 kg", "3 maços",
 * "2 dz"). What the server would refuse (another unit, a basket's fraction) is left out of the total.
 * Each page is then saved, and the server's own total is the one the page showed.
 * Fee: 2.50 % + R$ 1.00 per order.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { conferirPagina, semChromium, semErrosNoConsole } from '../helpers/chromium.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto, criarProduto } from '../helpers/fabricas.ts';
import { NA_OFERTA, NO_PEDIDO, entrarComoNovo, lido, montarPalco, type Palco, type Sessao } from './cestas-apoio.ts';

const pular = semChromium();

describe('os totais ao vivo leem vírgulas, reais e unidades', { skip: pular }, () => {
  let palco: Palco;
  let cicloid = 0;
  const sessoes: Sessao[] = [];
  const nomes = {
    tomate: 'Tomate italiano',
    queijo: 'Queijo da serra',
    alface: 'Alface roxa',
    mel: 'Mel de eucalipto',
    ovos: 'Ovos de quintal',
    cesta: 'Cesta da semana',
  };

  before(async () => {
    palco = await montarPalco(NA_OFERTA, { TAXA_PEDIDO_PERCENTUAL: '2.50', TAXA_PEDIDO_FIXA: '1.00' });
    const banco = palco.amb.banco;
    await criarProduto(banco, { nome: nomes.tomate, unidade: 'kg', valorCentavos: 900 });
    await criarProduto(banco, { nome: nomes.queijo, unidade: 'kg', valorCentavos: 9000 });
    await criarProduto(banco, { nome: nomes.alface, unidade: 'maço', valorCentavos: 300 });
    const cesta = await criarCesta(banco, { nome: nomes.cesta, valorCentavos: 6000 });
    cicloid = (
      await criarCiclo(banco, {
        nome: 'Ciclo das vírgulas',
        datas: DATAS_PADRAO,
        cestas: [{ cestaId: cesta.id, quantidadeCestas: 5 }],
        compor: true,
      })
    ).id;
    await criarPonto(banco, 'Feira do Largo');
  });
  after(async () => {
    for (const s of sessoes) await s.ctx.fechar();
    await palco.fechar();
  });

  test('oferta: "1,5" × "12,50", "2,5 kg" × "R$ 1.234,56" e "3 maços" × "3,50" somam como o servidor grava', async () => {
    const fornecedora = await entrarComoNovo(palco, ['fornecedor'], 'Vera Vírgula');
    sessoes.push(fornecedora);
    const { pagina, ctx } = fornecedora;
    await pagina.goto(`${palco.amb.url}/oferta/${cicloid}`);
    const linha = (nome: string) => pagina.locator('tr[data-linha]', { hasText: nome });
    const preencher = async (nome: string, quantidade: string, preco: string) => {
      await linha(nome)
        .getByLabel(/^Quantidade de/)
        .fill(quantidade);
      await linha(nome)
        .getByLabel(/^Preço de/)
        .fill(preco);
    };
    const subtotal = async (nome: string) => lido(await linha(nome).locator('[data-subtotal]').textContent());
    const total = async () => lido(await pagina.locator('output[data-total]').textContent());

    await preencher(nomes.tomate, '1,5', '12,50');
    assert.equal(await subtotal(nomes.tomate), 'R$ 18,75');
    await preencher(nomes.queijo, '2,5 kg', 'R$ 1.234,56');
    assert.equal(await subtotal(nomes.queijo), 'R$ 3.086,40');
    await preencher(nomes.alface, '3 maços', '3,50');
    assert.equal(await subtotal(nomes.alface), 'R$ 10,50');
    assert.equal(await total(), 'R$ 3.115,65');
    // Alface is sold by the maço: "3 litros" is refused by the server, so it counts for nothing here.
    await linha(nomes.alface)
      .getByLabel(/^Quantidade de/)
      .fill('3 litros');
    assert.equal(await subtotal(nomes.alface), '');
    assert.equal(await total(), 'R$ 3.105,15');
    await linha(nomes.alface)
      .getByLabel(/^Quantidade de/)
      .fill('3 Maços');
    assert.equal(await total(), 'R$ 3.115,65');

    await pagina.getByRole('button', { name: 'Salvar rascunho' }).click();
    await pagina.getByRole('status').filter({ hasText: 'Rascunho da oferta salvo' }).waitFor();
    assert.equal(await total(), 'R$ 3.115,65', 'o total que o servidor respondeu é o que a página mostrava');
    const gravadas = await palco.amb.banco
      .selectFrom('ofertaproduto as l')
      .innerJoin('oferta as o', 'o.id', 'l.ofertaid')
      .innerJoin('produto as p', 'p.id', 'l.produtoid')
      .select(['p.nome', 'l.quantidadeMilesimos', 'l.valorCentavos'])
      .where('o.cicloid', '=', cicloid)
      .where('o.usuarioid', '=', fornecedora.usuario.id)
      .orderBy('p.nome')
      .execute();
    assert.deepEqual(gravadas, [
      { nome: nomes.alface, quantidadeMilesimos: 3000, valorCentavos: 350 },
      { nome: nomes.queijo, quantidadeMilesimos: 2500, valorCentavos: 123_456 },
      { nome: nomes.tomate, quantidadeMilesimos: 1500, valorCentavos: 1250 },
    ]);
    await conferirPagina(pagina, ctx, 'cestas-virgulas-oferta');
  });

  test('pedido: cestas inteiras, "1,5" e "2,5 kg" de mel e "2 dz" de ovos; a taxa e o valor a pagar acompanham, e a confirmação confere', async () => {
    palco.amb.relogio.definir(NO_PEDIDO);
    // The extras, published once the offers are in (published extras count against what is offered).
    const banco = palco.amb.banco;
    const iso = new Date().toISOString();
    const produtoMel = await criarProduto(banco, { nome: nomes.mel, unidade: 'kg', valorCentavos: 4000 });
    const produtoOvos = await criarProduto(banco, { nome: nomes.ovos, unidade: 'dúzia', valorCentavos: 1500 });
    await banco
      .insertInto('cicloproduto')
      .values([
        {
          cicloid,
          produtoId: produtoMel.id,
          quantidadeMilesimos: 10_000,
          valorCentavos: 4000,
          createdAt: iso,
          updatedAt: iso,
        },
        {
          cicloid,
          produtoId: produtoOvos.id,
          quantidadeMilesimos: 10_000,
          valorCentavos: 1500,
          createdAt: iso,
          updatedAt: iso,
        },
      ])
      .execute();
    const consumidora = await entrarComoNovo(palco, ['consumidor'], 'Nina Vírgula');
    sessoes.push(consumidora);
    const { pagina, ctx } = consumidora;
    await pagina.goto(`${palco.amb.url}/pedidoconsumidores/${cicloid}`);
    const valor = async (saida: string) => lido(await pagina.locator(`output[${saida}]`).textContent());
    const cesta = pagina.getByLabel(`Quantidade de ${nomes.cesta}`);
    const mel = pagina.getByLabel(nomes.mel);
    const ovos = pagina.getByLabel(nomes.ovos);

    await cesta.fill('2');
    await mel.fill('1,5');
    await ovos.fill('2 dz');
    // 2 × 60 + 1.5 × 40 + 2 × 15 = 210; fee 2.5 % = 5.25, plus 1.00.
    assert.deepEqual(
      [await valor('data-total'), await valor('data-taxa'), await valor('data-total-com-taxa')],
      ['R$ 210,00', 'R$ 6,25', 'R$ 216,25'],
    );
    await mel.fill('2,5 kg');
    assert.equal(await valor('data-total'), 'R$ 250,00');
    // Baskets are whole, and eggs are sold by the dúzia: the server refuses these, the total leaves them out.
    await cesta.fill('1,5');
    assert.equal(await valor('data-total'), 'R$ 130,00');
    await ovos.fill('24 unidades');
    assert.equal(await valor('data-total'), 'R$ 100,00');
    await cesta.fill('2');
    await ovos.fill('2 Dúzias');
    assert.deepEqual(
      [await valor('data-total'), await valor('data-taxa'), await valor('data-total-com-taxa')],
      ['R$ 250,00', 'R$ 7,25', 'R$ 257,25'],
    );
    await conferirPagina(pagina, ctx, 'cestas-virgulas-pedido');

    await pagina.getByLabel('Onde vai retirar').selectOption({ label: 'Feira do Largo' });
    await Promise.all([
      pagina.waitForURL(/\/pedidoconsumidoresconfirmacao\/\d+$/),
      pagina.getByRole('button', { name: 'Salvar pedido' }).click(),
    ]);
    const tabela = lido(await pagina.locator('table').innerText());
    assert.match(tabela, /Total R\$ 250,00/);
    assert.match(tabela, /Taxa administrativa R\$ 7,25/);
    assert.match(tabela, /A pagar R\$ 257,25/);
    semErrosNoConsole(ctx);
  });
});
