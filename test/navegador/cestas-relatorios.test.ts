/**
 * The coordination, in chromium, finds the reports of a cycle and downloads the delivery PDF and
 * the suppliers' spreadsheet and CSV (Playwright download events); both files carry the confirmed order. Also
 * the login page, the reports list and the page after leaving pass the page checks.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { abrirContexto, conferirPagina, semChromium } from '../helpers/chromium.ts';
import { textoDoPdf } from '../helpers/pdf.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarUsoDaCesta } from '../helpers/fabricas.ts';
import { NO_PEDIDO, entrarComoNovo, lido, montarPalco, sairPor, type Palco, type Sessao } from './cestas-apoio.ts';

const pular = semChromium();

/**
 * The text a PDF shows. pdfkit embeds font subsets: the page text is hex glyph ids inside deflated
 * content streams, and each font's ToUnicode map turns ids back into characters. Without tracking
 * which font each run uses, every run is read with every map; a name typed in one font comes out
 * whole under that font's map.
 */
async function baixar(pagina: Page, nome: string): Promise<{ nome: string; conteudo: Buffer }> {
  const [download] = await Promise.all([
    pagina.waitForEvent('download'),
    pagina.getByRole('link', { name: nome, exact: true }).first().click(),
  ]);
  const caminho = await download.path();
  return { nome: download.suggestedFilename(), conteudo: readFileSync(caminho) };
}

describe('os relatórios no navegador', { skip: pular }, () => {
  let palco: Palco;
  let cicloid = 0;
  let admin: Sessao;
  const nomes = { consumidora: 'Helena Compradora', produto: '', fornecedor: 'Sitio Alvorada' };

  before(async () => {
    palco = await montarPalco(NO_PEDIDO);
    const banco = palco.amb.banco;
    const cesta = await criarCesta(banco, { nome: 'Cesta grande' });
    const ciclo = await criarCiclo(banco, {
      nome: 'Ciclo de abril',
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
    });
    cicloid = ciclo.id;
    const uso = await criarUsoDaCesta(banco, cicloid, ciclo.cicloCestas[0] ?? 0, { pedidas: 2, compostas: 5 });
    const pedido = await banco
      .updateTable('pedido')
      .set({ finalizado: true, dataConfirmacao: '2026-03-07T12:00:00' })
      .where('id', '=', uso.pedidoId)
      .returning('usuarioid')
      .executeTakeFirstOrThrow();
    await banco
      .updateTable('usuario')
      .set({ nome: nomes.consumidora, nomeChave: nomes.consumidora.toLowerCase() })
      .where('id', '=', pedido.usuarioid)
      .execute();
    const linha = await banco
      .selectFrom('ofertaproduto as op')
      .innerJoin('produto as p', 'p.id', 'op.produtoid')
      .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
      .select(['p.nome', 'o.usuarioid'])
      .where('op.id', '=', uso.ofertaProdutoId)
      .executeTakeFirstOrThrow();
    nomes.produto = linha.nome;
    await banco
      .updateTable('usuario')
      .set({ nome: nomes.fornecedor, nomeChave: nomes.fornecedor.toLowerCase() })
      .where('id', '=', linha.usuarioid)
      .execute();
  });
  after(async () => {
    await admin.ctx.fechar();
    await palco.fechar();
  });

  test('a página de login do provedor passa pela conferência', async () => {
    const ctx = await abrirContexto(palco.navegador, { largura: 360, altura: 740 });
    try {
      const pagina = await ctx.novaPagina();
      await pagina.goto(`${palco.amb.url}/`);
      await pagina.waitForURL(/\/interaction\/[^/]+$/);
      await conferirPagina(pagina, ctx, 'cestas-login');
    } finally {
      await ctx.fechar();
    }
  });

  test('a coordenação encontra os relatórios do ciclo', async () => {
    admin = await entrarComoNovo(palco, ['admin'], 'Bruno Coordena');
    const { pagina, ctx } = admin;
    await pagina.getByRole('link', { name: 'Relatórios' }).click();
    await pagina.waitForURL('**/relatorios');
    await conferirPagina(pagina, ctx, 'cestas-relatorios');
    await pagina
      .locator('li.cartao', { hasText: 'Ciclo de abril' })
      .getByRole('link', { name: 'Pedidos aos fornecedores', exact: true })
      .click();
    await pagina.waitForURL(`**/pedidosfornecedorestodos/${cicloid}`);
    assert.match(lido(await pagina.locator('table').innerText()), new RegExp(nomes.fornecedor));
    await conferirPagina(pagina, ctx, 'cestas-relatorio-fornecedores');
  });

  test('o documento de entrega baixa como PDF com o pedido confirmado', async () => {
    const { nome, conteudo } = await baixar(admin.pagina, 'Documento de entrega (PDF)');
    assert.match(nome, /^entrega-Ciclo-de-abril\.pdf$/);
    assert.equal(conteudo.subarray(0, 5).toString('latin1'), '%PDF-');
    assert.match(conteudo.subarray(-8).toString('latin1'), /%%EOF/);
    const { texto } = await textoDoPdf(new Uint8Array(conteudo));
    assert.match(texto, /Entrega do Ciclo de abril/, 'a capa do ciclo');
    assert.match(texto, /Consumidor/, 'o bloco do ponto de entrega com os consumidores');
    assert.ok(texto.includes(nomes.consumidora), `a consumidora ${nomes.consumidora} no documento`);
    assert.match(texto, /Cesta grande/, 'a cesta pedida');
  });

  test('a planilha e o CSV dos pedidos aos fornecedores baixam com a linha do fornecedor', async () => {
    const planilha = await baixar(admin.pagina, 'Planilha (Excel, LibreOffice)');
    assert.match(planilha.nome, /^pedidos-fornecedores-Ciclo-de-abril\.xlsx$/);
    assert.equal(planilha.conteudo.subarray(0, 2).toString('latin1'), 'PK', 'um arquivo xlsx (zip)');
    const { nome, conteudo } = await baixar(admin.pagina, 'CSV');
    assert.match(nome, /^pedidos-fornecedores-Ciclo-de-abril\.csv$/);
    const texto = conteudo.toString('utf8');
    assert.notEqual(texto.charCodeAt(0), 0xfeff, 'o formato do contrato: UTF-8 sem BOM');
    const linhas = texto.trim().split(/\r?\n/);
    assert.equal(
      linhas[0],
      'Fornecedor,Produto,Unidade,Quantidade planejada,Quantidade pedida,Valor unitário (R$),Valor (R$)',
    );
    const doFornecedor = linhas.filter((l) => l.startsWith(`${nomes.fornecedor},${nomes.produto},`));
    assert.ok(doFornecedor.length >= 1, `uma linha de ${nomes.fornecedor} em:\n${texto}`);
    for (const l of doFornecedor)
      assert.match(
        l.slice(`${nomes.fornecedor},${nomes.produto},`.length),
        /^[^,]+,\d+(\.\d{1,3})?,\d+(\.\d{1,3})?,\d+\.\d{2},\d+\.\d{2}$/,
        'quantidades e valores com ponto decimal',
      );
  });

  // POST /logout answers 303 to the provider's sign-out address, on another origin: the CSP's
  // form-action names that origin, or Chromium would refuse to follow and "Sair" would do nothing.
  test('"Sair" passa pelo provedor e chega à página de despedida, e a sessão acabou', async () => {
    const { pagina, ctx } = admin;
    await sairPor(pagina, palco.amb.url, pagina.getByRole('button', { name: 'Sair' }));
    await conferirPagina(pagina, ctx, 'cestas-saiu');
    const depois = await pagina.request.get(`${palco.amb.url}/`, {
      headers: { accept: 'application/json' },
      maxRedirects: 0,
    });
    assert.equal(depois.status(), 401, 'sem sessão depois de sair');
  });
});
