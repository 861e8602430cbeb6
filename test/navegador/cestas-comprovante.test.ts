/**
 * The coordination records a payment on a phone, in chromium: the receipt is attached, the value
 * is mistyped, and the form comes back saying what was wrong and that the receipt was already
 * received. Correcting only the value records the payment with that receipt, byte for byte.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { conferirPagina, descartarOcorrencias, semChromium, semErrosNoConsole } from '../helpers/chromium.ts';
import { criarUsuario } from '../helpers/fabricas.ts';
import { NO_PEDIDO, entrarComoNovo, lido, montarPalco, type Palco, type Sessao } from './cestas-apoio.ts';

const pular = semChromium();
const PDF = Buffer.from('%PDF-1.4\n% comprovante do Pix da Dalva\n%%EOF\n');

describe('o comprovante no navegador', { skip: pular }, () => {
  let palco: Palco;
  let admin: Sessao;
  let pessoa = { id: 0, nome: '' };

  before(async () => {
    palco = await montarPalco(NO_PEDIDO);
    pessoa = await criarUsuario(palco.amb.banco, { perfil: ['consumidor'], nome: 'Dalva Pagadora' });
    admin = await entrarComoNovo(palco, ['admin'], 'Bruna Tesoureira');
  });
  after(async () => {
    await admin.ctx.fechar();
    await palco.fechar();
  });

  test('um valor errado volta com o comprovante já recebido; corrigido, o pagamento fica com ele', async () => {
    const { pagina, ctx } = admin;
    await pagina.goto(`${palco.amb.url}/movimentacao`);
    await pagina.getByLabel('Pessoa').selectOption({ label: pessoa.nome });
    await pagina.getByLabel('Tipo').selectOption({ label: 'Pagamento recebido' });
    await pagina.getByLabel('Valor (R$)').fill('doze e cinquenta');
    await pagina.getByLabel('Descrição').fill('Pix de março');
    await pagina
      .getByLabel(/Comprovante/)
      .setInputFiles({ name: 'pix-março.pdf', mimeType: 'application/pdf', buffer: PDF });
    await Promise.all([
      pagina.waitForResponse((r) => r.url().endsWith('/movimentacao') && r.request().method() === 'POST'),
      pagina.getByRole('button', { name: 'Registrar' }).click(),
    ]);
    await pagina.getByRole('alert').waitFor();
    assert.match(
      lido(await pagina.locator('.campo', { has: pagina.locator('#m-valor') }).innerText()),
      /Digite um número, como 1,5 ou 1\.234,56/,
    );
    const aviso = pagina.locator('#m-arquivo-enviado');
    assert.ok(await aviso.isVisible());
    assert.match(lido(await aviso.innerText()), /^Comprovante já enviado: pix-março\.pdf\./);
    assert.equal(
      await pagina.getByLabel(/Comprovante/).getAttribute('aria-describedby'),
      'm-arquivo-enviado',
      'o campo do arquivo aponta o aviso',
    );
    assert.equal(await pagina.getByLabel('Descrição').inputValue(), 'Pix de março', 'o que foi digitado voltou');
    assert.equal(
      await pagina.locator('input[type=file]').evaluate((e) => (e as HTMLInputElement).files?.length ?? -1),
      0,
      'o navegador não preenche de novo o arquivo',
    );
    assert.equal(
      (await palco.amb.banco.selectFrom('movimentacao').select('id').where('usuarioid', '=', pessoa.id).execute())
        .length,
      0,
    );
    // The refused page comes with 400, which chromium logs; it is the refusal this test asked for.
    assert.ok(descartarOcorrencias(ctx, /status of 400/) >= 1);
    await conferirPagina(pagina, ctx, 'cestas-comprovante-mantido');

    await pagina.getByLabel('Valor (R$)').fill('12,50');
    await Promise.all([
      pagina.waitForURL(`${palco.amb.url}/movimentacao`),
      pagina.getByRole('button', { name: 'Registrar' }).click(),
    ]);
    await pagina.getByRole('status').filter({ hasText: 'Movimentação registrada' }).waitFor();
    const mov = await palco.amb.banco
      .selectFrom('movimentacao')
      .select(['id', 'valorCentavos', 'arquivo'])
      .where('usuarioid', '=', pessoa.id)
      .executeTakeFirstOrThrow();
    assert.equal(mov.valorCentavos, 1250);
    assert.match(mov.arquivo ?? '', /\.pdf$/);
    const baixado = await pagina.request.get(`${palco.amb.url}/movimentacao/${mov.id}/arquivo`);
    assert.equal(baixado.status(), 200);
    assert.ok(Buffer.from(await baixado.body()).equals(PDF), 'o comprovante registrado é o do primeiro envio');
    assert.equal(await pagina.locator('#m-arquivo-enviado').count(), 0, 'o formulário novo começa sem comprovante');
    semErrosNoConsole(ctx);
  });
});
