/**
 * The coordinator's cycle in chromium, on a phone and a laptop: the cycle page warns of a basket
 * with nothing composed and the order page shows it "em composição"; the form's pickup points get
 * a day and hours, a refusal comes back with what was typed and a banner whose link takes the
 * person to the field; the consumer picks from the cycle's points only; and closing shows its
 * summary first, then locks the cycle.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { conferirPagina, descartarOcorrencias, semChromium, semErrosNoConsole } from '../helpers/chromium.ts';
import { DATAS_PADRAO, comporCestas, criarCesta, criarCiclo, criarPonto } from '../helpers/fabricas.ts';
import { NO_PEDIDO, entrarComoNovo, lido, montarPalco, type Palco, type Sessao } from './cestas-apoio.ts';

const pular = semChromium();

describe('o ciclo da coordenação no navegador', { skip: pular }, () => {
  let palco: Palco;
  let cicloid = 0;
  let cestaPronta = 0;
  let admin: Sessao;
  let consumidora: Sessao;

  before(async () => {
    palco = await montarPalco(NO_PEDIDO);
    const banco = palco.amb.banco;
    const pronta = await criarCesta(banco, { nome: 'Cesta da roça', valorCentavos: 7000 });
    const crua = await criarCesta(banco, { nome: 'Cesta de frutas', valorCentavos: 5000 });
    const ciclo = await criarCiclo(banco, {
      nome: 'Ciclo de março',
      datas: DATAS_PADRAO,
      cestas: [
        { cestaId: pronta.id, quantidadeCestas: 8 },
        { cestaId: crua.id, quantidadeCestas: 4 },
      ],
    });
    cicloid = ciclo.id;
    cestaPronta = ciclo.cicloCestas[0] ?? 0;
    await comporCestas(banco, cicloid, [cestaPronta]);
    await criarPonto(banco, 'Sede da associação');
    await criarPonto(banco, 'Escola do bairro');
    await criarPonto(banco, 'Feira da praça');
    admin = await entrarComoNovo(palco, ['admin'], 'Rita Coordena', { largura: 1280 });
    consumidora = await entrarComoNovo(palco, ['consumidor'], 'Caio Consome');
  });
  after(async () => {
    await admin.ctx.fechar();
    await consumidora.ctx.fechar();
    await palco.fechar();
  });

  test('a página do ciclo avisa da cesta sem composição e leva ao trabalho do ciclo', async () => {
    const { pagina, ctx } = admin;
    await pagina.goto(`${palco.amb.url}/ciclo/${cicloid}`);
    assert.equal(
      lido(await pagina.getByRole('status').filter({ hasText: 'Sem composição' }).textContent()),
      'Sem composição: Cesta de frutas. Uma cesta só pode ser pedida depois de composta.',
    );
    assert.ok(await pagina.getByRole('link', { name: 'Compor Cesta de frutas (em composição)' }).isVisible());
    assert.ok(await pagina.getByRole('link', { name: 'PDF da entrega' }).isVisible());
    // During the order window there is no closing button, only when it becomes possible.
    assert.equal(await pagina.getByRole('link', { name: 'Fechar ciclo…' }).count(), 0);
    assert.match(
      lido(await pagina.locator('#composicao').textContent()),
      /poderá ser fechado depois do fim dos pedidos \(09\/03\/2026\)/,
    );
    await conferirPagina(pagina, ctx, 'ciclo-pagina');
    semErrosNoConsole(ctx);
  });

  test('os pontos de retirada ganham dia e horário; a recusa volta com o digitado e o aviso leva ao campo', async () => {
    const { pagina, ctx } = admin;
    await pagina.goto(`${palco.amb.url}/ciclo/${cicloid}`);
    const pontos = pagina.locator('#lista-cicloPontos');
    await pontos.getByLabel('Ponto, linha 1').selectOption({ label: 'Sede da associação' });
    await pontos.getByLabel('Dia, linha 1').fill('2026-03-11');
    await pontos.getByLabel('Das, linha 1').fill('08:00');
    await pontos.getByLabel('Até, linha 1').fill('12:00');
    // An empty list shows one row; the button adds the next.
    await pontos.getByRole('button', { name: 'Adicionar linha' }).click();
    await pontos.getByLabel('Ponto, linha 2').selectOption({ label: 'Escola do bairro' });
    await pontos.getByLabel('Das, linha 2').fill('15:00');
    await pontos.getByLabel('Até, linha 2').fill('14:00'); // ends before it starts
    await pagina.getByRole('button', { name: 'Salvar' }).click();
    await pagina.waitForLoadState();
    const aviso = pagina.locator('.resumo-erros, [role="alert"]').first();
    assert.match(lido(await aviso.textContent()), /Pontos de retirada, linha 2: Até/);
    // What was typed is still there, and no blank rows appeared (with JavaScript, "Adicionar linha" adds one).
    assert.equal(await pagina.locator('#lista-cicloPontos').getByLabel('Das, linha 2').inputValue(), '15:00');
    assert.equal(
      await pagina.locator('#lista-cicloPontos select').count(),
      2,
      'as duas linhas digitadas, nenhuma em branco',
    );
    // The refusal is a 400 page, which chromium logs; it is the expected one.
    assert.equal(descartarOcorrencias(ctx, /status of 400/), 1);
    await conferirPagina(pagina, ctx, 'ciclo-pontos-recusado');
    await pagina.getByRole('link', { name: 'Pontos de retirada, linha 2: Até' }).click();
    const alvo = pagina.locator('#campo-cicloPontos-1-horaFim');
    assert.equal(new URL(pagina.url()).hash, '#campo-cicloPontos-1-horaFim');
    assert.equal(
      await pagina.evaluate(() => document.activeElement?.id),
      'campo-cicloPontos-1-horaFim',
      'o link põe o foco no campo',
    );
    // The field is on screen with a little room above it for its row's context.
    assert.ok(
      await alvo.evaluate((e) => {
        const r = e.getBoundingClientRect();
        return r.top >= 40 && r.bottom <= window.innerHeight;
      }),
      'o campo na tela, com espaço acima',
    );
    await alvo.fill('18:00');
    await pagina.getByRole('button', { name: 'Salvar' }).click();
    await pagina.waitForURL(`**/ciclo/${cicloid}`);
    const linhas = await palco.amb.banco
      .selectFrom('ciclopontoentrega')
      .select(['horaInicio', 'horaFim'])
      .where('cicloid', '=', cicloid)
      .orderBy('horaInicio')
      .execute();
    assert.deepEqual(linhas, [
      { horaInicio: '08:00', horaFim: '12:00' },
      { horaInicio: '15:00', horaFim: '18:00' },
    ]);
    await conferirPagina(pagina, ctx, 'ciclo-pontos-salvo');
  });

  test('no celular, a cesta sem composição aparece "em composição" e só os pontos do ciclo, com horário, podem ser escolhidos', async () => {
    const { pagina, ctx } = consumidora;
    await pagina.goto(`${palco.amb.url}/pedidoconsumidores/${cicloid}`);
    const frutas = pagina.locator('li.cartao', { hasText: 'Cesta de frutas' });
    assert.match(lido(await frutas.textContent()), /em composição/);
    assert.equal(await frutas.locator('input').count(), 0, 'nenhum campo para pedir a cesta em composição');
    const opcoes = (await pagina.getByLabel('Onde vai retirar').locator('option').allTextContents()).map(lido);
    assert.deepEqual(opcoes, ['Escolha um ponto de entrega', 'Sede da associação', 'Escola do bairro']);
    // When each point hands out is written out under the choice, readable on a phone.
    assert.deepEqual((await pagina.locator('#quando-retirar li').allInnerTexts()).map(lido), [
      'Sede da associação — quarta-feira, 11/03/2026, das 08:00 às 12:00',
      'Escola do bairro — das 15:00 às 18:00',
    ]);
    await pagina.getByLabel('Quantidade de Cesta da roça').fill('1');
    await pagina.getByLabel('Onde vai retirar').selectOption({ label: 'Sede da associação' });
    await conferirPagina(pagina, ctx, 'pedido-em-composicao-e-pontos');
    await pagina.getByRole('button', { name: 'Salvar pedido' }).click();
    await pagina.waitForURL('**/pedidoconsumidoresconfirmacao/**');
    assert.match(
      lido(await pagina.locator('main').textContent()),
      /retirada em Sede da associação — quarta-feira, 11\/03\/2026, das 08:00 às 12:00/,
    );
    await pagina.getByRole('button', { name: /Confirmar/ }).click();
    await pagina.getByText(/Pedido confirmado em/).waitFor();
    await conferirPagina(pagina, ctx, 'pedido-confirmado-com-horario');
    semErrosNoConsole(ctx);
  });

  test('fechar: depois dos pedidos aparece o botão, o resumo vem antes, e o ciclo fechado fica só para consulta', async () => {
    palco.amb.relogio.definir('2026-03-10T15:00:00Z');
    const { pagina, ctx } = admin;
    await pagina.goto(`${palco.amb.url}/ciclo/${cicloid}`);
    await pagina.getByRole('link', { name: 'Fechar ciclo…' }).click();
    await pagina.waitForURL(`**/fecharciclo/${cicloid}`);
    const resumo = lido(await pagina.locator('main').textContent());
    assert.match(resumo, /Pedidos confirmados\s?1/);
    assert.match(resumo, /R\$ 70,00/);
    await conferirPagina(pagina, ctx, 'ciclo-fechar-resumo');
    await pagina.getByRole('button', { name: /Fechar/ }).click();
    await pagina.waitForURL(`**/ciclo/${cicloid}`);
    assert.match(lido(await pagina.locator('#composicao').textContent()), /Ciclo fechado em 10\/03\/2026/);
    assert.equal(await pagina.getByRole('button', { name: 'Salvar' }).count(), 0);
    assert.ok(await pagina.locator('#campo-nome').isDisabled());
    await conferirPagina(pagina, ctx, 'ciclo-fechado');
    semErrosNoConsole(ctx);
  });
});
