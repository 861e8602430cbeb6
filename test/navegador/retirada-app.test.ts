/**
 * The pickup app (/retirada, issue 38) in chromium on a 360 px phone, over the demo community's
 * "Ciclo em retirada": installable (manifest, icons, a service worker scoped to /retirada that
 * controls the page); after one online visit it works with the context offline, a reload too:
 * search (accents aside), pickup, a short, a payment and a note queued and shown; back online the
 * queue is sent and the server holds exactly those actions, once, even when the device sends them
 * again; a session that ended while offline keeps the queue, which goes after the login; an action
 * the server refuses lands in "Não aceitas"; the receipt's QR read from a photo with no network;
 * and the first load's JavaScript stays within 170 KB compressed.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import QRCode from 'qrcode';
import type { Page } from 'playwright-core';
import { abrirChromiumComPerfil, conferirPagina, semChromium, type ContextoDeTeste } from '../helpers/chromium.ts';
import { DATAS_PADRAO, criarCicloComPedidos, criarPonto } from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { entrarNoMercados, graphql, zerarLimiteDeLogin } from '../mercados/apoio.ts';
import { pessoaDemo } from './demo-apoio.ts';
import {
  acoesNoServidor,
  esperarServiceWorker,
  idDoAparelho,
  lerLoja,
  montarRetirada,
  pedidosDoPonto,
  type PalcoDaRetirada,
  type PontoDaDemo,
} from './retirada-apoio.ts';

const pular = semChromium();
const ANA = pessoaDemo('ana@exemplo.org');
/** Fabiana's name with accents, so the search's accent-insensitivity is seen. */
const FABIANA = 'Fabiana Conceição';

describe('o aplicativo da retirada no navegador', { skip: pular }, () => {
  let palco: PalcoDaRetirada;
  let sede: PontoDaDemo;
  let fabiana: number;
  let maria: number;

  before(async () => {
    palco = await montarRetirada();
    sede = await palco.ponto('Sede da Associação');
    await palco.amb.banco
      .updateTable('usuario')
      .set({ nome: FABIANA })
      .where('email', '=', 'fabi@exemplo.org')
      .execute();
    const pedidos = await pedidosDoPonto(palco.amb, sede);
    fabiana = pedidos.find((p) => p.nome === FABIANA)?.id ?? 0;
    maria = pedidos.find((p) => p.nome.startsWith('Maria Aparecida'))?.id ?? 0;
    assert.ok(fabiana > 0 && maria > 0, JSON.stringify(pedidos));
  });
  after(() => palco.fechar());

  /** A phone that opened the point once online: the snapshot and the service worker are in place. */
  async function celularComOPonto(): Promise<{ ctx: ContextoDeTeste; pagina: Page }> {
    const r = await palco.entrar(ANA, sede.caminho);
    await r.pagina.getByRole('heading', { name: sede.nome }).waitFor();
    await r.pagina.getByText(/Tudo enviado · atualizado às/).waitFor();
    await esperarServiceWorker(r.pagina);
    return r;
  }

  const contador = (pagina: Page) => pagina.locator('.contador-fila');

  /** What Chromium says stops the page from being installed (DevTools' Page.getInstallabilityErrors), as "id(arguments)". */
  async function errosDeInstalacao(pagina: Page): Promise<string[]> {
    const cdp = await pagina.context().newCDPSession(pagina);
    try {
      const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
      return installabilityErrors.map(
        (e) => `${e.errorId}(${e.errorArguments.map((a) => `${a.name}=${a.value}`).join(', ')})`,
      );
    } finally {
      await cdp.detach();
    }
  }

  /**
   * The installability errors of `caminho` in a Chromium with a profile on disk (not incognito),
   * logged in as `pessoa` through the provider's page, once the service worker controls the page.
   */
  async function errosNumPerfil(pessoa: { email: string; nome: string }, caminho: string): Promise<string[]> {
    const perfil = mkdtempSync(join(tmpdir(), 'cestaria-perfil-'));
    const contexto = await abrirChromiumComPerfil(perfil);
    try {
      contexto.setDefaultTimeout(15_000);
      await zerarLimiteDeLogin(palco.amb.banco);
      const pagina = contexto.pages()[0] ?? (await contexto.newPage());
      const u = palco.amb.urlMercados;
      await pagina.goto(`${u}/login?voltar=${encodeURIComponent(caminho)}`);
      await pagina.waitForURL(/\/interaction\/[^/]+$/);
      await pagina.fill('#email', pessoa.email);
      await pagina.fill('#nome', pessoa.nome);
      await Promise.all([pagina.waitForURL(`${u}${caminho}`), pagina.click('form button[type=submit] >> nth=0')]);
      await esperarServiceWorker(pagina);
      return await errosDeInstalacao(pagina);
    } finally {
      await contexto.close();
      rmSync(perfil, { recursive: true, force: true });
    }
  }

  test('instalável: o manifesto com os ícones PNG, e o service worker de /retirada controla a página', async () => {
    const { ctx, pagina } = await palco.entrar(ANA, '/retirada');
    await pagina.getByRole('heading', { name: 'Pontos de retirada' }).waitFor();
    await pagina.getByRole('link', { name: /Sede da Associação/ }).waitFor();
    const sw = await esperarServiceWorker(pagina);
    const u = palco.amb.urlMercados;
    assert.deepEqual(sw, { escopo: `${u}/retirada`, script: `${u}/retirada/sw.js` });
    await conferirPagina(pagina, ctx, 'retirada-pontos');
    // Chromium's own verdict (the check behind its install prompt), asked on a profile of its own
    // as a phone's browser has: Playwright's other contexts are incognito ones, where Chromium
    // installs nothing and answers "in-incognito" whatever the app.
    assert.deepEqual(await errosNumPerfil(ANA, '/retirada'), [], 'o Chromium aceita instalar o aplicativo');

    assert.equal(await pagina.locator('link[rel=manifest]').getAttribute('href'), '/retirada/manifest.webmanifest');
    const nav = new Navegador();
    const m = await nav.get(`${u}/retirada/manifest.webmanifest`);
    assert.equal(m.status, 200);
    assert.match(m.headers.get('content-type') ?? '', /^application\/manifest\+json/);
    const manifesto = m.json<{
      name: string;
      start_url: string;
      scope: string;
      display: string;
      lang: string;
      icons: Array<{ src: string; sizes: string; type: string; purpose: string }>;
    }>();
    assert.equal(manifesto.start_url, '/retirada');
    assert.equal(manifesto.scope, '/retirada');
    assert.equal(manifesto.display, 'standalone');
    assert.equal(manifesto.lang, 'pt-BR');
    for (const lado of [192, 512]) {
      for (const proposito of ['any', 'maskable'])
        assert.ok(
          manifesto.icons.some(
            (i) => i.sizes === `${lado}x${lado}` && i.type === 'image/png' && i.purpose === proposito,
          ),
          `ícone ${lado} ${proposito}: ${JSON.stringify(manifesto.icons)}`,
        );
      const icone = manifesto.icons.find((i) => i.sizes === `${lado}x${lado}`);
      const r = await fetch(`${u}${icone?.src ?? ''}`);
      const png = Buffer.from(await r.arrayBuffer());
      assert.equal(r.headers.get('content-type'), 'image/png');
      assert.equal(png.subarray(1, 4).toString('ascii'), 'PNG');
      assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [lado, lado], `o ícone de ${lado} px`);
    }

    // The worker is asked again at every check (a new version reaches the phones) and may control /retirada.
    const script = await nav.get(`${u}/retirada/sw.js`);
    assert.equal(script.status, 200);
    assert.match(script.headers.get('content-type') ?? '', /^text\/javascript/);
    assert.equal(script.headers.get('cache-control'), 'no-cache');
    assert.equal(script.headers.get('service-worker-allowed'), '/retirada');
    assert.match(script.texto, /retirada\/index\.html/, 'as navegações recebem o shell guardado');
    const shell = await nav.get(`${u}/retirada/index.html`);
    assert.equal(shell.headers.get('cache-control'), 'no-store');
    assert.match(shell.texto, /<html lang="pt-BR">/);
    await ctx.fechar();
  });

  test('sem rede, depois de uma visita: recarrega, busca sem acento, e entrega, falta, pagamento e nota ficam na fila e na tela', async () => {
    const { ctx, pagina } = await celularComOPonto();
    await ctx.contexto.setOffline(true);
    await pagina.reload();
    await pagina.getByRole('heading', { name: sede.nome }).waitFor();
    await pagina.getByText('Sem internet.').waitFor();
    await pagina.getByText('0 de 2').waitFor();

    await pagina.getByLabel('Buscar pelo nome').fill('conceicao');
    await pagina.getByText('1 de 2 pedidos').waitFor();
    assert.equal(await pagina.locator('.lista-pedidos li').count(), 1);
    await conferirPagina(pagina, ctx, 'retirada-busca-sem-rede');
    // Enter opens the only order left by the search.
    await pagina.getByLabel('Buscar pelo nome').press('Enter');
    await pagina.getByRole('heading', { name: FABIANA }).waitFor();
    assert.equal(new URL(pagina.url()).pathname, `${sede.caminho}/pedido/${fabiana}`);

    await pagina.getByRole('button', { name: 'Entregue' }).click();
    await pagina.getByText(/Retirado às \d\d:\d\d, por Ana Coordenadora \(esperando envio\)/).waitFor();
    await pagina.getByText('1 ação esperando envio').waitFor();

    await pagina.getByRole('button', { name: 'Faltou Alface crespa' }).click();
    const quanto = pagina.getByLabel('Quanto faltou de Alface crespa (maço)');
    assert.equal(await quanto.inputValue(), '2', 'a quantidade pedida, para corrigir');
    await quanto.fill('3');
    await pagina.getByRole('button', { name: 'Registrar falta' }).click();
    await pagina.getByText('A falta passaria do que foi pedido: no máximo 2 maços.').waitFor();
    await quanto.fill('1');
    await pagina.getByLabel('O que foi dado no lugar (opcional)').fill('Couve manteiga');
    await pagina.getByLabel('Nota (opcional)').fill('acabou a alface');
    await pagina.getByRole('button', { name: 'Registrar falta' }).click();
    await pagina.getByText('Faltou 1 maço', { exact: true }).waitFor();

    await pagina.getByLabel('Valor recebido (R$)').fill('24,50');
    await pagina.getByLabel('Dinheiro').check();
    await pagina.getByRole('button', { name: 'Registrar pagamento' }).click();
    await pagina.getByText('Pagamento de R$ 24,50 em dinheiro registrado.', { exact: false }).waitFor();
    assert.equal(await pagina.locator('.valores-pedido div:nth-child(2) dd').textContent(), 'R$ 24,50');

    await pagina.getByLabel('Nota sobre este pedido').fill('Levou a sacola de volta');
    await pagina.getByRole('button', { name: 'Guardar nota' }).click();
    await pagina.getByText('4 ações esperando envio').waitFor();
    await pagina.locator('.registros li > span').filter({ hasText: 'Nota: Levou a sacola de volta' }).waitFor();
    await conferirPagina(pagina, ctx, 'retirada-pedido-sem-rede');

    // Reloaded with no network: the order as it was left, from the device.
    await pagina.reload();
    await pagina.getByRole('heading', { name: FABIANA }).waitFor();
    await pagina.getByText('4 ações esperando envio').waitFor();
    await pagina.getByText(/Retirado às/).waitFor();
    await pagina.getByText('Faltou 1 maço', { exact: true }).waitFor();
    await pagina.getByRole('link', { name: /Voltar à lista/ }).click();
    await pagina.getByText('1 de 2').waitFor();
    await pagina.getByText('Retirado (esperando envio)').waitFor();
    await conferirPagina(pagina, ctx, 'retirada-lista-sem-rede');

    const fila = await lerLoja(pagina, 'fila');
    assert.deepEqual(
      fila.map((a) => a.acao.tipo),
      ['retirada', 'falta', 'pagamento', 'nota'],
    );
    assert.deepEqual(await acoesNoServidor(palco.amb, sede), [], 'nada chegou ao servidor sem rede');

    // Back online: the queue goes by itself, once; the server holds exactly those actions.
    await ctx.contexto.setOffline(false);
    await pagina.getByText(/Tudo enviado · atualizado às/).waitFor();
    const aparelho = await idDoAparelho(pagina);
    const noServidor = await acoesNoServidor(palco.amb, sede);
    assert.deepEqual(
      noServidor.map((a) => [a.chave, a.tipo, a.pedidoid, a.dispositivo, a.feitoEm]),
      fila.map((a) => [a.acao.chave, a.acao.tipo, fabiana, aparelho, a.acao.feitoEm]),
    );
    const falta = noServidor.find((a) => a.tipo === 'falta');
    assert.equal(falta?.quantidadeMilesimos, 1000);
    assert.equal(falta?.substituto, 'Couve manteiga');
    assert.equal(falta?.texto, 'acabou a alface');
    const pagamento = noServidor.find((a) => a.tipo === 'pagamento');
    assert.deepEqual([pagamento?.valorCentavos, pagamento?.forma], [2450, 'dinheiro']);
    // The payment is in the ledger at once, as a payment received.
    const mov = await palco.amb.banco
      .selectFrom('movimentacao')
      .select(['sentido', 'valorCentavos'])
      .where('chave', '=', `retirada:${pagamento?.chave ?? ''}`)
      .execute();
    assert.deepEqual(mov, [{ sentido: 'credito', valorCentavos: 2450 }]);
    assert.deepEqual(await lerLoja(pagina, 'fila'), []);

    // The device sends the same actions again (say, it never saw the answer): nothing changes.
    await pagina.evaluate(
      async (acoes) =>
        new Promise<void>((ok) => {
          const pedido = indexedDB.open('cestaria-retirada');
          pedido.onsuccess = () => {
            const tx = pedido.result.transaction('fila', 'readwrite');
            for (const a of acoes) tx.objectStore('fila').put(a);
            tx.oncomplete = () => {
              pedido.result.close();
              ok();
            };
          };
        }),
      fila,
    );
    await pagina.reload();
    await pagina.getByText(/Tudo enviado · atualizado às/).waitFor();
    assert.deepEqual(await lerLoja(pagina, 'fila'), []);
    assert.equal((await acoesNoServidor(palco.amb, sede)).length, 4, 'cada ação uma vez só');
    await pagina.getByText('1 de 2').waitFor();
    await pagina.getByRole('link', { name: /Fabiana/ }).click();
    await pagina.getByText(/Retirado às \d\d:\d\d, por Ana Coordenadora\./).waitFor();
    assert.equal(await pagina.getByText('enviado', { exact: true }).count(), 4);
    await conferirPagina(pagina, ctx, 'retirada-pedido-enviado');
    await ctx.fechar();
  });

  test('a sessão terminou sem rede: a fila fica, o aviso diz quantas ações esperam, e elas vão depois do login', async () => {
    const { ctx, pagina } = await celularComOPonto();
    await ctx.contexto.setOffline(true);
    await pagina.getByRole('link', { name: /Maria Aparecida/ }).click();
    await pagina.getByRole('button', { name: 'Entregue' }).click();
    await pagina.getByLabel('Valor recebido (R$)').fill('10');
    await pagina.getByRole('button', { name: 'Registrar pagamento' }).click();
    await pagina.getByText('2 ações esperando envio').waitFor();
    const fila = await lerLoja(pagina, 'fila');
    // Meanwhile the session ends on the server (it expired, or was ended elsewhere).
    const conta = await palco.amb.banco
      .selectFrom('appuser')
      .select('id')
      .where('emailChave', '=', ANA.email)
      .executeTakeFirstOrThrow();
    await palco.amb.banco.deleteFrom('appsession').where('userId', '=', conta.id).execute();
    await ctx.contexto.setOffline(false);
    await pagina.getByText('Sua sessão expirou: entre de novo para enviar 2 ações.').waitFor();
    assert.equal(await contador(pagina).textContent(), '2 ações esperando envio');
    assert.deepEqual(await lerLoja(pagina, 'fila'), fila, 'a fila continua no aparelho');
    assert.deepEqual(
      (await acoesNoServidor(palco.amb, sede)).filter((a) => a.pedidoid === maria),
      [],
    );
    await conferirPagina(pagina, ctx, 'retirada-sessao-expirada');

    // The login comes back to this order; the provider may still know Ana and not ask again.
    const destino = `${palco.amb.urlMercados}${sede.caminho}/pedido/${maria}`;
    await pagina.getByRole('link', { name: 'Entrar de novo' }).click();
    await pagina.waitForURL((u) => /\/interaction\/[^/]+$/.test(u.pathname) || u.href === destino);
    if (pagina.url() !== destino) {
      await pagina.fill('#email', ANA.email);
      await pagina.fill('#nome', ANA.nome);
      await Promise.all([pagina.waitForURL(destino), pagina.click('form button[type=submit] >> nth=0')]);
    }
    await pagina.getByText(/Tudo enviado · atualizado às/).waitFor();
    assert.deepEqual(
      (await acoesNoServidor(palco.amb, sede)).filter((a) => a.pedidoid === maria).map((a) => a.chave),
      fila.map((a) => a.acao.chave),
    );
    await ctx.fechar();
  });

  test('uma falta que outro aparelho já registrou volta como "Não aceita", com o motivo do servidor', async () => {
    const { ctx, pagina } = await celularComOPonto();
    await ctx.contexto.setOffline(true);
    await pagina.getByRole('link', { name: /Fabiana/ }).click();
    await pagina.getByRole('heading', { name: FABIANA }).waitFor();
    // Another phone, online, records the whole extra line as short.
    const outro = new Navegador();
    await entrarNoMercados(palco.amb, outro, ANA);
    const r = await graphql(
      palco.amb.urlMercados,
      outro,
      'query($c: ID!, $p: ID!) { retiradaDoPonto(cicloId: $c, pontoId: $p) { pedidos { id itens { pedidoProdutoId tipo nome quantidade } } } }',
      { c: String(sede.cicloId), p: String(sede.pontoId) },
    );
    const pedidos = (
      r.corpo.data?.retiradaDoPonto as {
        pedidos: Array<{
          id: string;
          itens: Array<{ pedidoProdutoId: string; tipo: string; nome: string; quantidade: string }>;
        }>;
      }
    ).pedidos;
    const extra = pedidos.find((p) => p.id === String(fabiana))?.itens.find((i) => i.tipo === 'extra');
    assert.ok(extra !== undefined);
    const envio = await graphql(
      palco.amb.urlMercados,
      outro,
      `mutation($c: ID!, $p: ID!, $a: [AcaoDeRetiradaInput!]!) {
        sincronizarRetirada(cicloId: $c, pontoId: $p, dispositivo: "outro-celular", acoes: $a) { estado mensagem } }`,
      {
        c: String(sede.cicloId),
        p: String(sede.pontoId),
        a: [
          {
            chave: randomUUID(),
            tipo: 'falta',
            pedidoId: String(fabiana),
            pedidoProdutoId: extra.pedidoProdutoId,
            quantidade: extra.quantidade,
            feitoEm: new Date().toISOString(),
          },
        ],
      },
    );
    assert.deepEqual(envio.corpo.data, { sincronizarRetirada: [{ estado: 'aplicada', mensagem: null }] });

    // This phone, offline, does not know: it records a short on the same item.
    await pagina.getByRole('button', { name: `Faltou ${extra.nome}` }).click();
    await pagina.getByRole('button', { name: 'Registrar falta' }).click();
    await pagina.getByText('1 ação esperando envio').waitFor();
    await ctx.contexto.setOffline(false);
    await pagina.getByRole('link', { name: /Voltar à lista/ }).click();
    await pagina.getByRole('heading', { name: 'Não aceitas (1)' }).waitFor();
    await pagina.getByText(/A falta passaria do que foi pedido/).waitFor();
    assert.equal(
      await contador(pagina).textContent(),
      `Tudo enviado · atualizado às ${await pagina.evaluate(() => new Date().toLocaleTimeString('pt-BR', { hour: '2-digit', minute: '2-digit' }))}`,
    );
    const recusadas = await lerLoja(pagina, 'recusadas');
    assert.equal(recusadas.length, 1);
    assert.match(recusadas[0]?.mensagem ?? '', /A falta passaria do que foi pedido/);
    await conferirPagina(pagina, ctx, 'retirada-nao-aceitas');
    await pagina.getByRole('button', { name: 'Entendi, tirar da lista' }).click();
    await pagina.getByRole('heading', { name: /Não aceitas/ }).waitFor({ state: 'detached' });
    assert.deepEqual(await lerLoja(pagina, 'recusadas'), []);
    await ctx.fechar();
  });

  test('o QR do recibo, lido de uma foto sem rede, abre o pedido; o de outro ponto, não', async () => {
    const { ctx, pagina } = await celularComOPonto();
    await ctx.contexto.setOffline(true);
    const foto = async (texto: string) =>
      pagina.getByLabel('Usar uma foto do QR').setInputFiles({
        name: 'recibo.png',
        mimeType: 'image/png',
        buffer: await QRCode.toBuffer(texto, { width: 480, margin: 4 }),
      });
    await pagina.getByRole('button', { name: 'Ler QR' }).click();
    await pagina.getByRole('heading', { name: 'Ler o QR do recibo' }).waitFor();
    await foto(`${palco.amb.url}/retirada/pedido/${palco.token(999_999)}`);
    await pagina.getByText('Este QR não é de um pedido deste ponto neste ciclo.').waitFor();
    await pagina.getByRole('button', { name: 'Ler QR' }).click();
    await conferirPagina(pagina, ctx, 'retirada-ler-qr');
    await foto(`${palco.amb.url}/retirada/pedido/${palco.token(maria)}`);
    await pagina.getByRole('heading', { name: /Maria Aparecida/ }).waitFor();
    assert.equal(new URL(pagina.url()).pathname, `${sede.caminho}/pedido/${maria}`);
    await ctx.fechar();
  });

  test('o Pix do que falta pagar, feito no aparelho sem rede, com o valor depois de um pagamento parcial', async () => {
    const { ctx, pagina } = await celularComOPonto();
    await pagina.getByRole('link', { name: /Fabiana/ }).click();
    await pagina.getByRole('heading', { name: FABIANA }).waitFor();
    await ctx.contexto.setOffline(true);
    const devido = await pagina.locator('.valores-pedido .destaque dd').textContent();
    await pagina.getByLabel('Valor recebido (R$)').fill('4,50');
    await pagina.getByLabel('Pix (visto no celular de quem pagou)').check();
    await pagina.getByRole('button', { name: 'Registrar pagamento' }).click();
    await pagina.getByText('Pagamento de R$ 4,50 por Pix registrado.', { exact: false }).waitFor();
    const agora = await pagina.locator('.valores-pedido .destaque dd').textContent();
    const centavos = (t: string | null) => Number((t ?? '').replace(/\D/g, ''));
    assert.equal(centavos(devido) - centavos(agora), 450);
    await pagina.getByRole('button', { name: `Mostrar o Pix de ${agora ?? ''}` }).click();
    await pagina.getByRole('img', { name: `QR do Pix de ${agora ?? ''}` }).waitFor();
    const texto = await pagina.getByLabel('Pix copia e cola').inputValue();
    const { parsePix, hasError } = await import('pix-utils');
    const pix = parsePix(texto);
    assert.ok(!hasError(pix), texto);
    assert.equal(Math.round((pix as { transactionAmount: number }).transactionAmount * 100), centavos(agora));
    await conferirPagina(pagina, ctx, 'retirada-pix');
    await ctx.fechar();
  });

  test('um voluntário vê só o ponto dele e trabalha só com o teclado; outro ponto diz que não pode, sem dados', async () => {
    const gabriel = pessoaDemo('gabriel@exemplo.org');
    const { ctx, pagina } = await palco.entrar(gabriel, '/retirada');
    await pagina.getByRole('heading', { name: 'Pontos de retirada' }).waitFor();
    await pagina.locator('.lista-pontos').waitFor();
    assert.deepEqual(await pagina.locator('.lista-pontos .nome').allTextContents(), [sede.nome]);

    const escola = await palco.ponto('Escola Estadual Centro');
    await pagina.goto(`${palco.amb.urlMercados}${escola.caminho}`);
    const recusa = pagina.getByRole('alert');
    await recusa.waitFor();
    assert.match((await recusa.textContent()) ?? '', /não trabalha na retirada deste ponto/);
    assert.equal(await pagina.locator('.lista-pedidos').count(), 0, 'nenhum pedido de outro ponto');
    await conferirPagina(pagina, ctx, 'retirada-outro-ponto');

    // Keyboard only: Tab to the search, type, Enter opens the order; Tab to the note, type, Enter on "Guardar nota".
    await pagina.goto(`${palco.amb.urlMercados}${sede.caminho}`);
    await pagina.getByText(/Tudo enviado · atualizado às/).waitFor();
    const focoEm = () =>
      pagina.evaluate(() => {
        const e = document.activeElement as HTMLInputElement | null;
        return e?.labels?.[0]?.textContent ?? e?.textContent ?? '';
      });
    const tabAte = async (alvo: RegExp) => {
      for (let i = 0; i < 40 && !alvo.test(await focoEm()); i++) await pagina.keyboard.press('Tab');
      assert.match(await focoEm(), alvo);
    };
    await tabAte(/^Buscar pelo nome$/);
    await pagina.keyboard.type('maria');
    await pagina.keyboard.press('Enter');
    await pagina.getByRole('heading', { name: /Maria Aparecida/, level: 1 }).waitFor();
    await tabAte(/^Nota sobre este pedido$/);
    await pagina.keyboard.type('Retirou o filho dela');
    await tabAte(/^Guardar nota$/);
    await pagina.keyboard.press('Enter');
    await pagina
      .locator('.registros li > span')
      .filter({ hasText: 'Nota: Retirou o filho dela · Gabriel Consumidor' })
      .waitFor();
    await ctx.fechar();
  });

  test('outra pessoa entra no mesmo celular: a fila da primeira espera por ela, e vai com o nome dela quando ela volta', async () => {
    const { ctx, pagina } = await celularComOPonto();
    await ctx.contexto.setOffline(true);
    await pagina.getByRole('link', { name: /Fabiana/ }).click();
    await pagina.getByLabel('Nota sobre este pedido').fill('Nota da Ana');
    await pagina.getByRole('button', { name: 'Guardar nota' }).click();
    await pagina.getByText('1 ação esperando envio').waitFor();
    const [nota] = await lerLoja(pagina, 'fila');
    assert.ok(nota !== undefined);

    // Gabriel, a volunteer of the same point, logs in on this phone.
    const gabriel = pessoaDemo('gabriel@exemplo.org');
    await ctx.contexto.clearCookies();
    await ctx.contexto.setOffline(false);
    await zerarLimiteDeLogin(palco.amb.banco);
    await pagina.goto(`${palco.amb.urlMercados}/login?voltar=${encodeURIComponent(sede.caminho)}`);
    await pagina.waitForURL(/\/interaction\/[^/]+$/);
    await pagina.fill('#email', gabriel.email);
    await pagina.fill('#nome', gabriel.nome);
    await Promise.all([
      pagina.waitForURL(`${palco.amb.urlMercados}${sede.caminho}`),
      pagina.click('form button[type=submit] >> nth=0'),
    ]);
    await pagina
      .getByText('1 ação foi feita neste aparelho por Ana Coordenadora: vai quando essa pessoa entrar de novo.')
      .waitFor();
    await pagina.locator('.lista-pedidos').waitFor();
    // The round under Gabriel's session is over (it read the point again): her note was not in it.
    await pagina.waitForLoadState('networkidle');
    assert.equal(await contador(pagina).textContent(), '1 ação esperando envio');
    const chaves = async () => (await acoesNoServidor(palco.amb, sede)).map((a) => a.chave);
    assert.ok(!(await chaves()).includes(nota.acao.chave), 'não foi enviada com a sessão de outra pessoa');
    await conferirPagina(pagina, ctx, 'retirada-outra-pessoa');

    // Ana again: her note goes, as hers.
    await ctx.contexto.clearCookies();
    await zerarLimiteDeLogin(palco.amb.banco);
    await pagina.goto(`${palco.amb.urlMercados}/login?voltar=${encodeURIComponent(sede.caminho)}`);
    await pagina.waitForURL(/\/interaction\/[^/]+$/);
    await pagina.fill('#email', ANA.email);
    await pagina.fill('#nome', ANA.nome);
    await Promise.all([
      pagina.waitForURL(`${palco.amb.urlMercados}${sede.caminho}`),
      pagina.click('form button[type=submit] >> nth=0'),
    ]);
    await pagina.getByText(/Tudo enviado · atualizado às/).waitFor();
    const enviada = (await acoesNoServidor(palco.amb, sede)).find((a) => a.chave === nota.acao.chave);
    const ana = await palco.amb.banco
      .selectFrom('usuario')
      .select('id')
      .where('email', '=', ANA.email)
      .executeTakeFirstOrThrow();
    assert.equal(enviada?.usuarioid, ana.id);
    await ctx.fechar();
  });

  test('o login volta ao endereço do aplicativo que pediu; qualquer outro destino é ignorado', async () => {
    const u = palco.amb.urlMercados;
    const anonimo = new Navegador();
    const ida = (voltar: string) =>
      anonimo
        .get(`${u}/login?voltar=${encodeURIComponent(voltar)}`, { seguir: false })
        .then((r) => r.headers.get('location'));
    assert.equal(await ida(sede.caminho), `/auth/idp?voltar=${encodeURIComponent(sede.caminho)}`);
    for (const fora of [
      'https://exemplo.com/retirada',
      '//exemplo.com',
      '/dashboard',
      '/retirada/../usuarios',
      '/retirada/1',
    ])
      assert.equal(await ida(fora), '/auth/idp', fora);
    const nav = new Navegador();
    const r = await entrarNoMercados(palco.amb, nav, ANA);
    assert.equal(new URL(r.url).pathname, '/dashboard');
    const volta = new Navegador();
    await zerarLimiteDeLogin(palco.amb.banco);
    const fim = await entrarPeloProvedor(
      volta,
      `${u}/login?voltar=${encodeURIComponent(`${sede.caminho}/pedido/${maria}`)}`,
      ANA,
    );
    assert.equal(fim.url, `${u}${sede.caminho}/pedido/${maria}`);
    // Already logged in: straight there.
    const ja = await volta.get(`${u}/login?voltar=/retirada`, { seguir: false });
    assert.equal(ja.headers.get('location'), '/retirada');
    assert.equal(
      (await volta.get(`${u}/login?voltar=//exemplo.com`, { seguir: false })).headers.get('location'),
      '/dashboard',
    );
  });

  test('um ponto com 120 pedidos: a lista desenha aos poucos, a busca acha quem ainda não foi desenhado, e a volta de um pedido mantém o lugar', async () => {
    const ponto = await criarPonto(palco.amb.banco, 'Ponto Grande');
    const cicloId = await criarCicloComPedidos(palco.amb.banco, 120, ponto.id, DATAS_PADRAO);
    const caminho = `/retirada/${cicloId}/${ponto.id}`;
    const { ctx, pagina } = await palco.entrar(ANA, caminho);
    await pagina.getByText(/Tudo enviado · atualizado às/).waitFor();
    await pagina.getByText('0 de 120').waitFor();
    const cartoes = pagina.locator('.lista-pedidos li:not(.mais)');
    assert.equal(await cartoes.count(), 40, 'os primeiros 40');
    await pagina.getByRole('button', { name: 'Mostrar mais 40 de 80' }).waitFor();
    // The last name alphabetically is not drawn yet, but the search finds it.
    const nomes = (await pedidosDoPonto(palco.amb, { cicloId, pontoId: ponto.id, nome: '', caminho })).map(
      (p) => p.nome,
    );
    const ultimo = [...nomes].sort((a, b) => a.localeCompare(b, 'pt-BR')).at(-1) ?? '';
    await pagina.getByLabel('Buscar pelo nome').fill(ultimo);
    await pagina.getByText('1 de 120 pedidos').waitFor();
    await pagina.getByLabel('Buscar pelo nome').fill('');
    // Scrolling near the end draws the next ones; the button does too.
    await cartoes.nth(39).scrollIntoViewIfNeeded();
    await pagina.waitForFunction(() => document.querySelectorAll('.lista-pedidos li:not(.mais)').length === 80);
    // And only those: the page does not follow the end of the list down and draw the rest in a cascade.
    await pagina.evaluate(
      () => new Promise((pronto) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(pronto, 300)))),
    );
    assert.equal(await cartoes.count(), 80, 'os 40 seguintes, não todos');
    // The button, tapped where it is (a click would scroll it into view first, and the scroll
    // alone draws the rest): the last 40, and the focus on the first of them, not lost with it.
    await pagina.getByRole('button', { name: 'Mostrar mais 40 de 40' }).dispatchEvent('click');
    await pagina.waitForFunction(() => document.querySelectorAll('.lista-pedidos li:not(.mais)').length === 120);
    const octogesimoPrimeiro = await cartoes.nth(80).locator('a').getAttribute('id');
    await pagina.waitForFunction((alvo) => document.activeElement?.id === alvo, octogesimoPrimeiro);
    assert.equal(await pagina.locator('.lista-pedidos li.mais').count(), 0);
    // Open the 100th and come back: the same place, the card focused.
    const centesimo = cartoes.nth(99).locator('a');
    const id = await centesimo.getAttribute('id');
    await centesimo.click();
    await pagina.getByRole('button', { name: 'Entregue' }).click();
    await pagina.getByRole('link', { name: /Voltar à lista/ }).click();
    await pagina.waitForFunction((alvo) => document.activeElement?.id === alvo, id);
    assert.equal(await pagina.locator('.lista-pedidos li:not(.mais)').count(), 120);
    await pagina.getByText('1 de 120').waitFor();
    await ctx.fechar();
  });

  test('o primeiro carregamento do ponto baixa no máximo 170 KB de JavaScript comprimido, sem o código do QR', async () => {
    const scripts: Array<{ url: string; bytes: number; codificacao: string | undefined }> = [];
    const esperas: Array<Promise<void>> = [];
    // The first visit of a new phone: nothing cached, no service worker yet; what the network sends.
    const { ctx, pagina } = await palco.entrar(ANA, sede.caminho, (p) =>
      p.on('requestfinished', (req) => {
        if (req.resourceType() !== 'script') return;
        esperas.push(
          (async () => {
            const resposta = await req.response();
            scripts.push({
              url: req.url(),
              bytes: (await req.sizes()).responseBodySize,
              codificacao: resposta?.headers()['content-encoding'],
            });
          })(),
        );
      }),
    );
    await pagina.getByText(/Tudo enviado · atualizado às/).waitFor();
    await pagina.waitForLoadState('networkidle');
    await Promise.all(esperas);
    assert.ok(scripts.length >= 1, 'o código do aplicativo');
    for (const s of scripts) assert.match(s.codificacao ?? '', /^(br|gzip)$/, s.url);
    assert.deepEqual(
      scripts.filter((s) => /\/qr-/.test(s.url)).map((s) => s.url),
      [],
      'o leitor e o desenho do QR vêm só quando usados',
    );
    const total = scripts.reduce((t, s) => t + s.bytes, 0);
    console.log(
      `retirada: primeiro carregamento, ${total} bytes de JavaScript comprimido em ${scripts.length} arquivo(s)`,
    );
    assert.ok(total > 10_000 && total <= 170 * 1024, `${total} bytes`);
    await ctx.fechar();
  });
});
