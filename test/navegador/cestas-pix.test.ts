/**
 * Pix on a phone, in chromium: the confirmed order shows how to pay (the charge line by line, the
 * QR code and the copy-and-paste text); the coordination imports a statement, changes one
 * proposal and confirms, and the payment lands in the person's balance.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  abrirContexto,
  conferirPagina,
  entrarNoNavegador,
  semChromium,
  semErrosNoConsole,
} from '../helpers/chromium.ts';
import { criarCesta, criarCiclo, criarPonto, criarUsuario, dividaAnterior } from '../helpers/fabricas.ts';
import { NO_PEDIDO, entrarComoNovo, lido, montarPalco, type Palco, type Sessao } from './cestas-apoio.ts';

const pular = semChromium();
const PIX = { PIX_CHAVE: 'financeiro@cestas.org', PIX_NOME: 'Associação Raízes', PIX_CIDADE: 'São Carlos' };

describe('o Pix no navegador', { skip: pular }, () => {
  let palco: Palco;
  let consumidora: Sessao;
  let admin: Sessao;
  let pedidoId = 0;
  let cicloid = 0;

  before(async () => {
    palco = await montarPalco(NO_PEDIDO, PIX);
    consumidora = await entrarComoNovo(palco, ['consumidor'], 'Helena Souza Lima');
    admin = await entrarComoNovo(palco, ['admin'], 'Bruna Tesoureira');
    const db = palco.amb.banco;
    const iso = new Date().toISOString();
    // A debt carried from before, and this cycle's confirmed order.
    await dividaAnterior(db, consumidora.usuario.id, 1250, { data: '2026-02-20', descricao: 'Ciclo de fevereiro' });
    const cesta = await criarCesta(db, { nome: 'Cesta da estação' });
    const ciclo = await criarCiclo(db, { cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }] });
    cicloid = ciclo.id;
    const ponto = await criarPonto(db, 'Escola do bairro');
    const pedido = await db
      .insertInto('pedido')
      .values({
        cicloid,
        usuarioid: consumidora.usuario.id,
        pontoEntregaId: ponto.id,
        finalizado: true,
        dataConfirmacao: '2026-03-07T12:00:00',
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('pedidoproduto')
      .values({
        pedidoid: pedido.id,
        cicloCestaId: ciclo.cicloCestas[0] ?? 0,
        quantidadeMilesimos: 2000,
        valorCentavos: 4500,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    pedidoId = pedido.id;
  });
  after(async () => {
    await consumidora.ctx.fechar();
    await admin.ctx.fechar();
    await palco.fechar();
  });

  test('a confirmação mostra como pagar: o saldo anterior, o pedido, o total, o QR e o copia e cola', async () => {
    const { pagina, ctx } = consumidora;
    await pagina.goto(`${palco.amb.url}/pedidoconsumidoresconfirmacao/${pedidoId}`);
    const bloco = pagina.locator('section.pix');
    assert.match(
      lido(await bloco.innerText()),
      /Saldo devedor.*R\$ 12,50.*Pedido confirmado no .*R\$ 90,00.*Total a pagar R\$ 102,50/,
    );
    // What the Pix pays, in words beside the amount: the balance, and how much of it is this order.
    assert.equal(
      lido(await bloco.locator('.pix-o-que-paga').innerText()),
      'Este Pix paga tudo o que você deve hoje: R$ 102,50, o saldo, e não um pedido só. Este pedido é R$ 90,00; os outros R$ 12,50 vêm de antes (linhas abaixo). Pague uma vez: quando a coordenação registra o pagamento, o valor devido diminui.',
    );
    assert.equal(await pagina.locator('section.pix').count(), 1, 'um Pix só na página');
    const campo = pagina.getByLabel('Pix copia e cola de R$ 102,50 (tudo o que você deve)');
    const codigo = await campo.inputValue();
    assert.match(codigo, /^000201.*0121financeiro@cestas\.org/);
    // A tap on the code selects all of it; the button copies it and says so.
    await campo.click();
    assert.deepEqual(await campo.evaluate((e: HTMLTextAreaElement) => [e.selectionStart, e.selectionEnd]), [
      0,
      codigo.length,
    ]);
    await ctx.contexto.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: palco.amb.url });
    await pagina.getByRole('button', { name: 'Copiar código Pix' }).click();
    await bloco.getByRole('status').filter({ hasText: 'Código copiado.' }).waitFor();
    assert.equal(await pagina.evaluate(() => navigator.clipboard.readText()), codigo);
    assert.ok(codigo.includes('102.50') && codigo.includes(`CST${consumidora.usuario.id}C${cicloid}`), codigo);
    assert.ok(await pagina.locator('.pix-qr svg').isVisible(), 'o QR code aparece');
    const largura = await pagina.locator('.pix-qr svg').evaluate((e) => e.getBoundingClientRect().width);
    assert.ok(largura >= 150 && largura <= 340, `o QR cabe na tela e se lê (${largura} px)`);
    await conferirPagina(pagina, ctx, 'cestas-pix-confirmacao');
    semErrosNoConsole(ctx);
  });

  test('sem JavaScript, o botão de copiar não aparece, e o código continua lá para copiar à mão', async () => {
    const sem = await abrirContexto(palco.navegador, { largura: 360, altura: 740, javaScript: false });
    try {
      const pagina = await sem.novaPagina();
      await entrarNoNavegador(pagina, `${palco.amb.url}/`, palco.amb.url, {
        email: consumidora.usuario.email,
        nome: consumidora.usuario.nome,
      });
      await pagina.goto(`${palco.amb.url}/pedidoconsumidoresconfirmacao/${pedidoId}`);
      assert.equal(await pagina.getByRole('button', { name: 'Copiar código Pix' }).isVisible(), false);
      assert.match(await pagina.getByLabel(/Pix copia e cola de R\$ 102,50/).inputValue(), /^000201/);
    } finally {
      await sem.fechar();
    }
  });

  test('a coordenação importa o extrato, troca uma proposta e confirma; o saldo da pessoa zera', async () => {
    const { pagina, ctx } = admin;
    const homonima = await criarUsuario(palco.amb.banco, { nome: 'Helena Souza' });
    await pagina.goto(`${palco.amb.url}/extratos`);
    const ofx = `<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><BANKACCTFROM><BANKID>1<ACCTID>2</BANKACCTFROM><BANKTRANLIST>
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20260308<TRNAMT>102.50<FITID>N1<MEMO>PIX RECEBIDO HELENA SOUZA LIMA</STMTTRN>
<STMTTRN><TRNTYPE>CREDIT<DTPOSTED>20260308<TRNAMT>7.00<FITID>N2<MEMO>PIX RECEBIDO DEVOLUCAO FEIRA DO PRODUTOR RURAL ASSOCIADO</STMTTRN>
</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>`;
    await pagina
      .getByLabel(/Arquivo do banco/)
      .setInputFiles({ name: 'extrato-marco.ofx', mimeType: 'application/x-ofx', buffer: Buffer.from(ofx) });
    await Promise.all([
      pagina.waitForURL(`${palco.amb.url}/extratos`),
      pagina.getByRole('button', { name: 'Importar' }).click(),
    ]);
    await pagina.getByRole('status').filter({ hasText: 'Extrato importado' }).waitFor();
    const cartoes = pagina.locator('li.linha-extrato');
    assert.equal(await cartoes.count(), 2);
    const primeiro = cartoes.filter({ hasText: /HELENA SOUZA LIMA/ });
    assert.match(lido(await primeiro.innerText()), /R\$ 102,50.*Proposta pelo valor e pelo nome/);
    assert.equal(await primeiro.getByLabel('Creditar a').locator('option:checked').innerText(), 'Helena Souza Lima');
    await conferirPagina(pagina, ctx, 'cestas-pix-extrato');
    // The 7,00 goes to the namesake by hand; then both are confirmed.
    await cartoes
      .filter({ hasText: /DEVOLUCAO/ })
      .getByLabel('Creditar a')
      .selectOption({ label: 'Helena Souza' });
    await Promise.all([
      pagina.waitForURL(`${palco.amb.url}/extratos`),
      pagina.getByRole('button', { name: 'Confirmar os créditos escolhidos' }).click(),
    ]);
    await pagina.getByRole('status').filter({ hasText: '2 pagamentos registrados' }).waitFor();
    assert.equal(await pagina.locator('li.linha-extrato').count(), 0);
    const movs = await palco.amb.banco
      .selectFrom('movimentacao')
      .select(['usuarioid', 'valorCentavos'])
      .where('chave', 'like', 'extrato:%')
      .orderBy('valorCentavos')
      .execute();
    assert.deepEqual(movs, [
      { usuarioid: homonima.id, valorCentavos: 700 },
      { usuarioid: consumidora.usuario.id, valorCentavos: 10250 },
    ]);
    await consumidora.pagina.goto(`${palco.amb.url}/saldo`);
    assert.match(lido(await consumidora.pagina.locator('section.pix').innerText()), /Nada a pagar agora R\$ 0,00/);
    assert.equal(await consumidora.pagina.locator('.pix-qr').count(), 0);
    semErrosNoConsole(ctx);
  });
});
