/**
 * The pickup day on the Cestas face, in chromium on a 360 px phone (issue 38): naming a point's
 * volunteers on the cycle's form (a refused e-mail by its field, the saved set shown again); the
 * coordination's view with picked up, missing, shorts, payments and conflicts, which follows new
 * records without a reload; and the receipt's QR code, as it arrives in the development mailbox,
 * and the page it opens with no login.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import type { TipoDeAcaoDeRetirada } from '../../src/db/tipos.ts';
import { iniciarCaixaDev, type CaixaDev } from '../../src/mensagens/caixa-dev.ts';
import {
  abrirContexto,
  conferirPagina,
  descartarOcorrencias,
  semChromium,
  type ContextoDeTeste,
} from '../helpers/chromium.ts';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarExtra,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';
import { entrarComo } from '../helpers/sessoes.ts';
import { entrarComoNovo, lido, montarPalco, type Palco, type Sessao } from './cestas-apoio.ts';

const pular = semChromium();

/** 10:00 in São Paulo on 11/03, the first pickup day of DATAS_PADRAO (orders closed on 09/03). */
const NA_RETIRADA = '2026-03-11T13:00:00Z';
const VERA = '3f9c2a71-5b8e-4d0a-9c1e-7a2b3c4d5e6f';
const VITOR = 'a04d77e2-1c3b-4e5f-8a9b-0c1d2e3f4a5b';

const JSQR = readFileSync(createRequire(import.meta.url).resolve('jsqr/dist/jsQR.js'), 'utf8');

/**
 * Reads a QR code the way the pickup app's photo fallback does (jsQR): the image (a data: URI,
 * PNG or SVG) drawn on a canvas, 400 px wide, in a blank page of the context. The text it
 * encodes, or null when there is no readable code.
 */
async function lerQr(ctx: ContextoDeTeste, imagem: string): Promise<string | null> {
  const pagina = await ctx.novaPagina();
  try {
    // Evaluated through the DevTools protocol, as axe-core is (chromium.ts).
    await pagina.evaluate(JSQR);
    return await pagina.evaluate(async (src) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = 400;
      canvas.height = 400;
      const c2d = canvas.getContext('2d');
      if (c2d === null) return null;
      c2d.fillStyle = '#fff';
      c2d.fillRect(0, 0, 400, 400);
      c2d.imageSmoothingEnabled = false;
      c2d.drawImage(img, 0, 0, 400, 400);
      const dados = c2d.getImageData(0, 0, 400, 400);
      const ler = (
        globalThis as unknown as { jsQR: (d: Uint8ClampedArray, w: number, h: number) => { data: string } | null }
      ).jsQR;
      return ler(dados.data, 400, 400)?.data ?? null;
    }, imagem);
  } finally {
    await pagina.close();
  }
}

/** Every table region of the page fits the viewport: nothing scrolls sideways, no cell past the edge. */
async function foraDaTela(pagina: Page): Promise<string[]> {
  return pagina.evaluate(() => {
    const problemas: string[] = [];
    const largura = document.documentElement.clientWidth;
    for (const regiao of document.querySelectorAll('.tabela-rolavel')) {
      const nome = regiao.getAttribute('aria-label') ?? '?';
      if (regiao.scrollWidth > regiao.clientWidth + 1)
        problemas.push(`${nome}: rola ${regiao.scrollWidth - regiao.clientWidth} px de lado`);
      for (const c of regiao.querySelectorAll('tbody td, tbody th')) {
        const r = c.getBoundingClientRect();
        if (r.width > 0 && (r.left < -1 || r.right > largura + 1))
          problemas.push(`${nome}: "${(c.textContent ?? '').trim().slice(0, 30)}" vai de ${r.left} a ${r.right}`);
      }
    }
    return problemas;
  });
}

describe('a retirada na face Cestas, num telefone de 360 px', { skip: pular }, () => {
  let caixa: CaixaDev;
  let palco: Palco;
  let admin: Sessao;
  let c: {
    cicloid: number;
    sede: number;
    cicloCestaId: number;
    produtoId: number;
    vera: { id: number; email: string };
    vitor: { id: number; email: string };
    pedidos: Record<'ana' | 'bia' | 'caio' | 'davi', { id: number; cesta: number; extra: number }>;
  };

  before(async () => {
    caixa = await iniciarCaixaDev('127.0.0.1', 0, 0, 'America/Sao_Paulo');
    palco = await montarPalco(NA_RETIRADA, { SMTP_URL: caixa.smtp, AVISOS_INTERVALO_S: '3600' });
    const banco = palco.amb.banco;
    const cesta = await criarCesta(banco, { nome: 'Cesta da roça' });
    const ciclo = await criarCiclo(banco, {
      nome: 'Ciclo de março',
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 20 }],
      compor: true,
    });
    const cicloCestaId = ciclo.cicloCestas[0] ?? 0;
    const produto = await banco
      .selectFrom('composicaoproduto as x')
      .innerJoin('composicao as k', 'k.id', 'x.composicaoid')
      .innerJoin('ofertaproduto as op', 'op.id', 'x.ofertaProdutoId')
      .select('op.produtoid')
      .where('k.cicloCestaId', '=', cicloCestaId)
      .executeTakeFirstOrThrow();
    await banco
      .updateTable('produto')
      .set({ nome: 'Mandioca descascada' })
      .where('id', '=', produto.produtoid)
      .execute();
    // The extra comes out of a finalised offer's surplus, as the cycle's form requires.
    const tomate = await criarProduto(banco, { nome: 'Tomate cereja orgânico', unidade: 'kg' });
    await criarOfertaFinalizada(banco, ciclo.id, [
      { produtoId: tomate.id, quantidadeMilesimos: 30_000, valorCentavos: 500 },
    ]);
    const extra = await criarExtra(banco, ciclo.id, {
      produtoId: tomate.id,
      quantidadeMilesimos: 20_000,
      valorCentavos: 800,
    });
    const sede = (await criarPonto(banco, 'Sede da associação')).id;
    const escola = (await criarPonto(banco, 'Escola Municipal Professora Maria Aparecida')).id;
    await banco
      .updateTable('pontoentrega')
      .set({ endereco: 'Rua das Hortas, 12', cidade: 'São Carlos' })
      .where('id', '=', sede)
      .execute();
    const iso = new Date().toISOString();
    await banco
      .insertInto('ciclopontoentrega')
      .values([
        {
          cicloid: ciclo.id,
          pontoEntregaId: sede,
          dataRetirada: '2026-03-11',
          horaInicio: '08:00',
          horaFim: '12:00',
          createdAt: iso,
          updatedAt: iso,
        },
        {
          cicloid: ciclo.id,
          pontoEntregaId: escola,
          dataRetirada: '2026-03-12',
          horaInicio: '14:00',
          horaFim: '17:00',
          createdAt: iso,
          updatedAt: iso,
        },
      ])
      .execute();
    const vera = await criarUsuario(banco, { nome: 'Vera Voluntária', email: 'vera.voluntaria@teste.org' });
    const vitor = await criarUsuario(banco, { nome: 'Vítor Voluntário', email: 'vitor.voluntario@teste.org' });
    const pedido = async (nome: string, ponto: number, finalizado: boolean, celular: string | null) => {
      const u = await criarUsuario(banco, {
        nome,
        email: `${nome.split(' ')[0]?.toLowerCase() ?? 'x'}.${randomUUID().slice(0, 6)}@teste.org`,
      });
      await banco.updateTable('usuario').set({ celular }).where('id', '=', u.id).execute();
      const p = await banco
        .insertInto('pedido')
        .values({
          cicloid: ciclo.id,
          usuarioid: u.id,
          pontoEntregaId: ponto,
          finalizado,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const linha = (campos: {
        cicloCestaId?: number;
        cicloProdutoId?: number;
        quantidadeMilesimos: number;
        valorCentavos: number;
      }) =>
        banco
          .insertInto('pedidoproduto')
          .values({ pedidoid: p.id, ...campos, createdAt: iso, updatedAt: iso })
          .returning('id')
          .executeTakeFirstOrThrow();
      const cestaLinha = await linha({ cicloCestaId, quantidadeMilesimos: 1000, valorCentavos: 5000 });
      const extraLinha = await linha({ cicloProdutoId: extra.id, quantidadeMilesimos: 1500, valorCentavos: 800 });
      return { id: p.id, cesta: cestaLinha.id, extra: extraLinha.id };
    };
    c = {
      cicloid: ciclo.id,
      sede,
      cicloCestaId,
      produtoId: produto.produtoid,
      vera,
      vitor,
      pedidos: {
        // Ana's order is confirmed in the receipt's test (the receipt goes out then).
        ana: await pedido('Ana Beatriz dos Santos Albuquerque', sede, false, '(16) 99999-0001'),
        bia: await pedido('Bia Borges', sede, true, null),
        caio: await pedido('Caio Costa', sede, true, '(16) 99999-0003'),
        davi: await pedido('Davi Dias', escola, true, null),
      },
    };
    admin = await entrarComoNovo(palco, ['admin'], 'Rita Coordena');
  });
  after(async () => {
    await admin?.ctx.fechar();
    await palco?.fechar();
    await caixa?.fechar();
  });

  const campoDosVoluntarios = (linha: number) =>
    admin.pagina.locator('#lista-cicloPontos').getByLabel(`Voluntários da retirada, linha ${linha}`);

  test('os voluntários no formulário do ciclo: o e-mail desconhecido volta junto ao campo, e o conjunto salvo aparece', async () => {
    const { pagina, ctx } = admin;
    await pagina.goto(`${palco.amb.url}/ciclo/${c.cicloid}`);
    const campo = campoDosVoluntarios(1);
    assert.equal(await campo.inputValue(), '');
    const digitado = `${c.vera.email}\nninguem.aqui@teste.org`;
    await campo.fill(digitado);
    await pagina.getByRole('button', { name: 'Salvar' }).click();
    await pagina.locator('#resumo-erros').waitFor();
    assert.equal(descartarOcorrencias(ctx, /status of 400/), 1);
    const erro = 'Não há pessoa ativa com o e-mail ninguem.aqui@teste.org: confira o e-mail ou cadastre a pessoa antes';
    assert.ok(lido(await pagina.locator('#resumo-erros').textContent()).includes(erro));
    // The message sits right under the field it is about, which keeps what was typed.
    const mensagem = pagina.locator('[id="erro-cicloPontos.0.voluntarios"]');
    assert.equal(lido(await mensagem.textContent()), erro);
    assert.equal(await campoDosVoluntarios(1).inputValue(), digitado);
    assert.equal(await campoDosVoluntarios(1).getAttribute('aria-invalid'), 'true');
    const [caixaDoCampo, caixaDaMensagem] = [await campoDosVoluntarios(1).boundingBox(), await mensagem.boundingBox()];
    assert.ok(caixaDoCampo && caixaDaMensagem && caixaDaMensagem.y >= caixaDoCampo.y + caixaDoCampo.height - 1);
    assert.ok(caixaDoCampo.x >= 0 && caixaDoCampo.x + caixaDoCampo.width <= 360, 'o campo cabe na tela');
    await campoDosVoluntarios(1).scrollIntoViewIfNeeded();
    await conferirPagina(pagina, ctx, 'cestas-retirada-voluntarios-erro');

    await campoDosVoluntarios(1).fill(`${c.vitor.email}, ${c.vera.email}`);
    await pagina.getByRole('button', { name: 'Salvar' }).click();
    await pagina.getByText('Ciclo atualizado.').waitFor();
    assert.equal(await campoDosVoluntarios(1).inputValue(), `${c.vera.email}, ${c.vitor.email}`);
    const nomeados = pagina.locator('#lista-cicloPontos').getByText('Nomeados: Vera Voluntária, Vítor Voluntário');
    assert.ok(await nomeados.isVisible());
    assert.equal(await campoDosVoluntarios(2).inputValue(), '', 'a Escola segue sem voluntários');
    assert.deepEqual(
      (
        await palco.amb.banco
          .selectFrom('voluntario')
          .select('usuarioid')
          .where('cicloid', '=', c.cicloid)
          .where('pontoEntregaId', '=', c.sede)
          .orderBy('usuarioid')
          .execute()
      ).map((v) => v.usuarioid),
      [c.vera.id, c.vitor.id],
    );
    await nomeados.scrollIntoViewIfNeeded();
    await conferirPagina(pagina, ctx, 'cestas-retirada-voluntarios');
  });

  /** A record as the sync stores it. */
  const registrar = (
    quem: { id: number },
    pedidoid: number,
    tipo: TipoDeAcaoDeRetirada,
    feitoEm: string,
    campos: Record<string, string | number> = {},
    dispositivo = VERA,
  ) =>
    palco.amb.banco
      .insertInto('acaoretirada')
      .values({
        chave: randomUUID(),
        dispositivo,
        usuarioid: quem.id,
        cicloid: c.cicloid,
        pontoEntregaId: c.sede,
        pedidoid,
        tipo,
        feitoEm,
        recebidoEm: new Date().toISOString(),
        ...campos,
      })
      .execute();

  test('a visão da coordenação: retirados, quem falta, faltas, pagamentos e um conflito; segue os registros novos sem recarregar', async () => {
    const { pagina, ctx } = admin;
    const { bia, caio } = c.pedidos;
    // Bia was ticked on both phones; two shorts on her basket's cassava; cash and Pix; a note on Caio.
    await registrar(c.vitor, bia.id, 'retirada', '2026-03-11T12:31:00.000Z', {}, VITOR);
    await registrar(c.vera, bia.id, 'retirada', '2026-03-11T12:02:00.000Z');
    await registrar(c.vera, bia.id, 'falta', '2026-03-11T12:03:00.000Z', {
      pedidoProdutoId: bia.cesta,
      produtoId: c.produtoId,
      quantidadeMilesimos: 500,
      substituto: 'Abóbora cabotiá',
      texto: 'A mandioca acabou antes da hora',
    });
    await registrar(
      c.vitor,
      bia.id,
      'falta',
      '2026-03-11T12:33:00.000Z',
      { pedidoProdutoId: bia.cesta, produtoId: c.produtoId, quantidadeMilesimos: 250 },
      VITOR,
    );
    await registrar(c.vera, bia.id, 'falta', '2026-03-11T12:04:00.000Z', {
      pedidoProdutoId: bia.extra,
      quantidadeMilesimos: 500,
    });
    await registrar(c.vera, bia.id, 'pagamento', '2026-03-11T12:05:00.000Z', {
      valorCentavos: 2450,
      forma: 'dinheiro',
    });
    await registrar(
      c.vitor,
      bia.id,
      'pagamento',
      '2026-03-11T12:35:00.000Z',
      { valorCentavos: 3000, forma: 'pix' },
      VITOR,
    );
    await registrar(c.vera, caio.id, 'nota', '2026-03-11T12:20:00.000Z', {
      texto: 'Vem depois das 11h, a filha busca',
    });

    // From the cycle's page, "Retirada".
    await pagina.goto(`${palco.amb.url}/ciclo/${c.cicloid}`);
    await Promise.all([
      pagina.waitForURL(`${palco.amb.url}/retirada/${c.cicloid}`),
      pagina.getByRole('link', { name: 'Retirada', exact: true }).click(),
    ]);
    await pagina.getByRole('heading', { level: 1, name: 'Retirada: Ciclo de março' }).waitFor();
    const sede = pagina.locator('section.ponto-da-retirada').first();
    assert.equal(lido(await sede.locator('.contagem').textContent()), '1 de 2 retirados · 1 ainda não');
    assert.equal(lido(await sede.locator('ul.faltando').textContent()), 'Caio Costa · (16) 99999-0003');
    assert.match(lido(await sede.locator('.conflitos').textContent()), /2 conflitos para conferir/);
    assert.match(
      lido(await sede.locator('.conflitos').textContent()),
      /Bia Borges: Retirada registrada 2 vezes \(vale a primeira\)/,
    );
    assert.match(
      lido(await sede.locator('.conflitos').textContent()),
      /Bia Borges: 2 faltas registradas em Mandioca descascada \(Cesta da roça\)/,
    );
    assert.match(
      lido(await sede.locator('dl.totais').textContent()),
      /Dinheiro \(1 pagamento\)R\$ 24,50Pix \(1 pagamento\)R\$ 30,00Total recebidoR\$ 54,50/,
    );
    assert.deepEqual(await foraDaTela(pagina), []);
    await conferirPagina(pagina, ctx, 'cestas-retirada-coordenacao');

    // Caio is picked up on a phone: the page follows without a reload (its script asks when the tab shows).
    await pagina.evaluate(() => Object.assign(window, { semRecarregar: true }));
    await registrar(c.vera, caio.id, 'retirada', '2026-03-11T13:10:00.000Z');
    await pagina.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
    await sede.locator('.contagem', { hasText: '2 de 2 retirados' }).waitFor();
    assert.equal(await pagina.evaluate(() => 'semRecarregar' in window), true, 'a página não recarregou');
    assert.equal(
      lido(await pagina.locator('#retirada-novidades').textContent()),
      'Chegaram registros novos da retirada.',
    );
    assert.match(
      lido(await pagina.locator('#retirada-atualizado').textContent()),
      /^Atualizado em 11\/03\/2026 às 10:00:00\./,
    );
    assert.equal(
      lido(await sede.locator('h3', { hasText: 'Ainda não retiraram' }).textContent()),
      'Ainda não retiraram (0)',
    );

    // The school has nobody: "nomear" leads to its field below the points, and saving it says so there.
    const escola = pagina.locator('section.ponto-da-retirada').nth(1);
    await escola.getByRole('link', { name: 'nomear' }).click();
    const campo = pagina.getByRole('textbox', { name: 'Escola Municipal Professora Maria Aparecida', exact: true });
    assert.equal(await campo.evaluate((e) => e === document.activeElement || location.hash === `#${e.id}`), true);
    await campo.fill(c.vitor.email);
    await Promise.all([
      pagina.waitForURL(`${palco.amb.url}/retirada/${c.cicloid}`),
      pagina
        .getByRole('button', { name: 'Salvar os voluntários de Escola Municipal Professora Maria Aparecida' })
        .click(),
    ]);
    await pagina.getByText('Voluntários salvos.').waitFor();
    assert.match(
      lido(await pagina.locator('section.ponto-da-retirada').nth(1).locator('.nota').first().textContent()),
      /Voluntários: Vítor Voluntário\.$/,
    );
    await conferirPagina(pagina, ctx, 'cestas-retirada-coordenacao-voluntarios');
  });

  test('o recibo chega com o QR do pedido, e o QR abre o pedido sem login', async () => {
    const coordenacao = await entrarComo(palco.amb, ['admin'], 'Coordenação');
    const r = await coordenacao.nav.postJson(`${palco.amb.url}/pedidoconsumidoresconfirmacao`, {
      pedidoId: c.pedidos.ana.id,
    });
    assert.equal(r.status, 200, r.texto);
    await palco.amb.servicos.correio.enviarPendentes();

    const leitor = await abrirContexto(palco.navegador, { largura: 360, altura: 740 });
    try {
      const caixaDeEmails = await leitor.novaPagina();
      await caixaDeEmails.goto(caixa.pagina);
      await caixaDeEmails.getByRole('link', { name: 'Pedido confirmado: Ciclo de março' }).click();
      const corpo = caixaDeEmails.frameLocator('iframe');
      const qr = corpo.getByRole('img', { name: 'QR code do seu pedido, para mostrar na retirada' });
      await qr.waitFor();
      // The image arrived attached to the message and shows (the mailbox puts it back as data:).
      assert.ok((await qr.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0))) > 200);
      assert.ok(await corpo.getByText('Mostre este código na retirada').isVisible());
      const texto = lido(await caixaDeEmails.locator('pre').textContent());
      const endereco = /Mostre este código na retirada \(o QR code do seu pedido\): (\S+)/.exec(texto)?.[1] ?? '';
      assert.ok(endereco.startsWith(`${palco.amb.url}/retirada/pedido/${c.pedidos.ana.id}.`), texto);
      assert.equal(
        await corpo.getByRole('link', { name: 'Abra o código no navegador' }).getAttribute('href'),
        endereco,
      );
      // A QR reader gets exactly that address from the image.
      assert.equal(await lerQr(leitor, (await qr.getAttribute('src')) ?? ''), endereco);
      await qr.scrollIntoViewIfNeeded();
      await conferirPagina(caixaDeEmails, leitor, 'cestas-retirada-recibo');

      // Anyone holding the receipt (here a browser with no session) opens the order, and only it.
      const pagina = await leitor.novaPagina();
      await pagina.goto(endereco);
      await pagina.getByRole('heading', { level: 1, name: 'Seu pedido na retirada' }).waitFor();
      const principal = lido(await pagina.locator('main').textContent());
      assert.ok(
        principal.includes(`Olá, Ana! Este é o seu pedido nº ${c.pedidos.ana.id} no Ciclo de março.`),
        principal,
      );
      assert.ok(!principal.includes('Albuquerque') && !principal.includes('R$'), 'sem sobrenome nem valores');
      assert.ok(principal.includes('1 × Cesta da roça1 kg de Mandioca descascada'), principal);
      assert.ok(principal.includes('1,5 kg de Tomate cereja orgânico'));
      assert.ok(
        principal.includes(
          'Sede da associaçãoRua das Hortas, 12, São Carlosquarta-feira, 11/03/2026, das 08:00 às 12:00',
        ),
      );
      const imagem = pagina.getByRole('img', { name: `QR code do pedido nº ${c.pedidos.ana.id}, para a retirada` });
      const caixaDoQr = await imagem.boundingBox();
      assert.ok(
        caixaDoQr && caixaDoQr.width >= 200 && caixaDoQr.x + caixaDoQr.width <= 360,
        'o QR grande, inteiro na tela',
      );
      assert.equal(await pagina.getByRole('navigation').count(), 0, 'sem menu: ninguém entrou');
      // The code on the page, shown at the point if the e-mail is not at hand, reads back as the same address.
      const svg = await imagem.locator('svg').evaluate((e) => new XMLSerializer().serializeToString(e));
      assert.equal(await lerQr(leitor, `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`), endereco);
      await conferirPagina(pagina, leitor, 'cestas-retirada-qr');
    } finally {
      await leitor.fechar();
    }
  });
});
