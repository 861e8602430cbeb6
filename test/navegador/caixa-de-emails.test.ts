/**
 * The development e-mail page (`npm start`'s catcher, src/mensagens/caixa-dev.ts) on a 360 px
 * phone: when each message arrived is said in the community's time zone (config TZ), not in UTC
 * nor the machine's, and a long subject and a long address wrap instead of being cut off.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import nodemailer from 'nodemailer';
import type { Browser } from 'playwright-core';
import { instanteBr } from '../../src/formatos.ts';
import { iniciarCaixaDev, type CaixaDev } from '../../src/mensagens/caixa-dev.ts';
import { abrirChromium, abrirContexto, conferirPagina, semChromium } from '../helpers/chromium.ts';
import { lido } from './cestas-apoio.ts';

const pular = semChromium();
// Four hours behind UTC all year: a page in UTC (or in the machine's zone) shows another hour.
const FUSO = 'America/Manaus';
const ASSUNTO =
  'Pedido confirmado no Ciclo de novembro da Associação Agroecológica Raízes do Vale: Cesta Média, 2 maços de couve-manteiga orgânica';
const PARA = 'maria.aparecida.nascimento.albuquerque@cooperativa-exemplo.org.br';

describe('a caixa de e-mails de desenvolvimento no telefone', { skip: pular }, () => {
  let caixa: CaixaDev;
  let navegador: Browser;
  let instantes: string[] = [];
  before(async () => {
    caixa = await iniciarCaixaDev('127.0.0.1', 0, 0, FUSO);
    navegador = await abrirChromium();
    const smtp = new URL(caixa.smtp);
    const transporte = nodemailer.createTransport({
      host: smtp.hostname,
      port: Number(smtp.port),
      secure: false,
      ignoreTLS: true,
    });
    const antes = new Date().toISOString();
    await transporte.sendMail({ from: 'cestaria@exemplo.org', to: PARA, subject: ASSUNTO, text: 'Olá, Maria.' });
    // The minute may turn while the message travels: either side of it is the arrival.
    instantes = [...new Set([instanteBr(antes, FUSO), instanteBr(new Date().toISOString(), FUSO)])];
    transporte.close();
  });
  after(async () => {
    await navegador?.close();
    await caixa?.fechar();
  });

  test('a lista e o e-mail dizem a hora no fuso da comunidade, e o assunto longo quebra a 360 px', async () => {
    const ctx = await abrirContexto(navegador, { largura: 360, altura: 740, fuso: 'UTC' });
    try {
      const pagina = await ctx.novaPagina();
      await pagina.goto(caixa.pagina);
      const linha = pagina.locator('tbody tr').first();
      const [quando = '', para = '', assunto = ''] = (await linha.locator('td').allInnerTexts()).map(lido);
      assert.ok(instantes.includes(quando), `chegou às ${quando}; esperava ${instantes.join(' ou ')} (${FUSO})`);
      assert.equal(para, PARA);
      assert.equal(assunto, ASSUNTO);
      // The whole subject is on screen: inside the 360 px, wrapped over lines, nothing clipped.
      const link = linha.getByRole('link', { name: ASSUNTO });
      const caixaDoLink = await link.boundingBox();
      assert.ok(
        caixaDoLink !== null && caixaDoLink.x >= 0 && caixaDoLink.x + caixaDoLink.width <= 360,
        'o assunto cabe',
      );
      assert.ok(caixaDoLink.height > 30, `o assunto quebra em linhas (${caixaDoLink.height} px de altura)`);
      const largura = await pagina.evaluate(() => document.documentElement.scrollWidth);
      assert.ok(largura <= 360, `a página tem ${largura} px`);
      await conferirPagina(pagina, ctx, 'caixa-de-emails-lista');

      await link.click();
      await pagina.getByRole('heading', { level: 1, name: ASSUNTO }).waitFor();
      const cabecalho = lido(await pagina.locator('p').nth(1).innerText());
      assert.ok(
        instantes.some((i) => cabecalho.endsWith(i)),
        `${cabecalho}: esperava terminar em ${instantes.join(' ou ')}`,
      );
      assert.ok(cabecalho.includes(`Para ${PARA}`), cabecalho);
      await conferirPagina(pagina, ctx, 'caixa-de-emails-um');
    } finally {
      await ctx.fechar();
    }
  });
});
