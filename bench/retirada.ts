/**
 * `npm run bench:retirada`
 *
 * The pickup app on a point with 300 confirmed orders, as a volunteer's phone meets it: opened once
 * online (360×740), then with the network off (Playwright's offline emulation) and the CPU 4×
 * slower (CDP Emulation.setCPUThrottlingRate). It prints, for each kind of tap (search, open an
 * order, Entregue, Faltou, a payment, a note, back to the list), 5 times each, the ms from the tap
 * to the next frame (handler, React's render and layout, in the page's own clock).
 *
 * Then a second phone (a fresh context) on the same point, offline and with the CPU 4× slower,
 * ticks every one of the 300 orders "Entregue" through the app's screens (the filter "Só quem
 * ainda não retirou", the first card, "Entregue", back), checks the counter says "300 ações
 * esperando envio", goes online (the CPU still 4× slower) and times, in the page's clock, from the
 * browser's `online` event to the counter saying "Tudo enviado" (the queue empty) and to the end of
 * the round (the point read again and kept). It prints those times, the requests the sync made
 * (each `sincronizarRetirada` carries at most 100 actions) with their time at the network, and
 * what the server holds afterwards: the rows of acaoretirada for that cycle and point, their
 * distinct keys and orders, and the database's "retirada: retirada" audit rows (only this phone's
 * actions ever reach the server), which must be exactly 300 each; it exits with 1 otherwise.
 *
 * The server is the real one, in this process, on a fresh SQLite; with TEST_DIALETO=postgres and
 * TEST_DATABASE_URL, on a fresh PostgreSQL database made there (dropped at the end).
 */
import { loadavg } from 'node:os';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { abrirChromium, abrirContexto } from '../test/helpers/chromium.ts';
import { criarCicloComPedidos, criarPonto, criarUsuario, DATAS_PADRAO } from '../test/helpers/fabricas.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../test/helpers/servidor.ts';
import { lerLoja } from '../test/navegador/retirada-apoio.ts';
process.env.TEST_DIALETO ??= 'sqlite';
process.env.TEST_PREFIXO ??= 'cestaria_bench_retirada';
const ADMIN = 'coord-medida@exemplo.org';
const PEDIDOS = 300;
const amb = await iniciarAmbiente({ mercados: true, env: { ADMIN_EMAILS: ADMIN } });
const navegador = await abrirChromium();

/** A new phone (its own storage) logged in, on the point's page with the snapshot read and the service worker in control. */
async function celular(nav: Browser, a: AmbienteDeTeste, caminho: string) {
  const ctx = await abrirContexto(nav, { largura: 360, altura: 740 });
  ctx.contexto.setDefaultTimeout(60_000);
  const pagina = await ctx.novaPagina();
  await pagina.goto(`${a.urlMercados}/login?voltar=${encodeURIComponent(caminho)}`);
  await pagina.waitForURL(/\/interaction\//);
  await pagina.fill('#email', ADMIN);
  await pagina.fill('#nome', 'Coordenação');
  await Promise.all([
    pagina.waitForURL(`${a.urlMercados}${caminho}`),
    pagina.click('form button[type=submit] >> nth=0'),
  ]);
  await pagina
    .getByText(/Tudo enviado · atualizado às/)
    .waitFor({ timeout: 20_000 })
    .catch(async (e: unknown) => {
      console.log(await pagina.locator('main').innerText());
      throw e;
    });
  await pagina.waitForFunction(() => navigator.serviceWorker.controller !== null);
  return { ctx, pagina };
}

try {
  console.log(
    `banco: ${amb.bancoConfig.tipo}; carga (uptime): ${loadavg()
      .map((x) => x.toFixed(2))
      .join(', ')}`,
  );
  await criarUsuario(amb.banco, { email: ADMIN, nome: 'Coordenação', perfil: ['master'] });
  const ponto = await criarPonto(amb.banco, 'Ponto Grande');
  const cicloId = await criarCicloComPedidos(amb.banco, PEDIDOS, ponto.id, DATAS_PADRAO);
  const caminho = `/retirada/${cicloId}/${ponto.id}`;
  const { ctx, pagina } = await celular(navegador, amb, caminho);
  await ctx.contexto.setOffline(true);
  await pagina.reload();
  await pagina.getByText('0 de 300').waitFor();
  const cdp = await ctx.contexto.newCDPSession(pagina);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });

  /** Runs `acao` in the page and returns ms until the frame after it. */
  const medir = (nome: string, acao: string) =>
    pagina
      .evaluate(
        async ([codigo]) => {
          const t0 = performance.now();
          new Function(codigo)();
          await new Promise((ok) => requestAnimationFrame(() => setTimeout(ok, 0)));
          return performance.now() - t0;
        },
        [acao] as const,
      )
      .then((ms) => ({ nome, ms }));

  const resultados: Array<{ nome: string; ms: number }> = [];
  for (let rodada = 0; rodada < 5; rodada++) {
    // Search: typing one letter into the field (React's onChange through the native setter).
    resultados.push(
      await medir(
        'busca (uma letra)',
        `const i = document.getElementById('busca'); const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set; set.call(i, i.value + 'c'); i.dispatchEvent(new Event('input', { bubbles: true }));`,
      ),
    );
    resultados.push(
      await medir(
        'limpar a busca',
        `const i = document.getElementById('busca'); const set = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set; set.call(i, ''); i.dispatchEvent(new Event('input', { bubbles: true }));`,
      ),
    );
    resultados.push(
      await medir('abrir um pedido', `document.querySelectorAll('.lista-pedidos a')[${rodada * 5}].click();`),
    );
    await pagina.locator('.pedido-aberto').waitFor();
    resultados.push(
      await medir(
        'Entregue',
        `[...document.querySelectorAll('button')].find((b) => b.textContent.includes('Entregue')).click();`,
      ),
    );
    resultados.push(
      await medir(
        'abrir Faltou',
        `[...document.querySelectorAll('button')].find((b) => b.textContent.startsWith('Faltou')).click();`,
      ),
    );
    resultados.push(
      await medir(
        'Registrar falta',
        `[...document.querySelectorAll('button')].find((b) => b.textContent === 'Registrar falta').click();`,
      ),
    );
    resultados.push(
      await medir(
        'Registrar pagamento',
        `[...document.querySelectorAll('button')].find((b) => b.textContent === 'Registrar pagamento').click();`,
      ),
    );
    await pagina.getByLabel('Nota sobre este pedido').fill('nota de teste');
    resultados.push(
      await medir(
        'Guardar nota',
        `[...document.querySelectorAll('button')].find((b) => b.textContent === 'Guardar nota').click();`,
      ),
    );
    resultados.push(
      await medir(
        'voltar à lista',
        `[...document.querySelectorAll('a')].find((a) => a.textContent.startsWith('← Voltar')).click();`,
      ),
    );
    await pagina.locator('.lista-pedidos').waitFor();
  }
  const porNome = new Map<string, number[]>();
  for (const r of resultados) porNome.set(r.nome, [...(porNome.get(r.nome) ?? []), r.ms]);
  console.log('CPU 4× mais lenta, sem rede, ponto com 300 pedidos (ms do toque ao quadro seguinte; 5 vezes cada):');
  for (const [nome, ms] of porNome) {
    const o = [...ms].sort((a, b) => a - b);
    console.log(
      `  ${nome.padEnd(22)} mediana ${o[2]?.toFixed(0)} ms, pior ${o[4]?.toFixed(0)} ms  (${ms.map((x) => x.toFixed(0)).join(', ')})`,
    );
  }
  console.log(`  ações na fila: ${(await pagina.locator('.contador-fila').textContent())?.trim()}`);
  // This phone's queue is never sent: it closes offline.
  await ctx.fechar();

  await medirEnvio(cicloId, ponto.id, caminho);
} finally {
  await navegador.close();
  await amb.fechar();
  const base = process.env.TEST_DATABASE_URL;
  if (amb.bancoConfig.tipo === 'postgres' && base !== undefined) {
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${new URL(amb.bancoConfig.url).pathname.slice(1)}" WITH (FORCE)`);
    await admin.end();
  }
}

/**
 * A second phone ticks all the point's orders "Entregue" offline, through the screens, and then
 * goes online: the time until "Tudo enviado", the requests, and what the server holds.
 */
async function medirEnvio(cicloId: number, pontoId: number, caminho: string): Promise<void> {
  const { ctx, pagina } = await celular(navegador, amb, caminho);
  await ctx.contexto.setOffline(true);
  await pagina.reload();
  await pagina.getByText(`0 de ${PEDIDOS}`).waitFor();
  const cdp = await ctx.contexto.newCDPSession(pagina);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });

  const inicioDaFila = performance.now();
  await pagina.getByLabel('Só quem ainda não retirou').check();
  const contagem = pagina.locator('.contagem strong');
  for (let i = 1; i <= PEDIDOS; i++) {
    await pagina.locator('.lista-pedidos li:not(.mais) a').first().click();
    await pagina.getByRole('button', { name: 'Entregue' }).click();
    await pagina.getByText(/Retirado às \d\d:\d\d, por Coordenação \(esperando envio\)/).waitFor();
    await pagina.getByRole('link', { name: /Voltar à lista/ }).click();
    await contagem.filter({ hasText: `${i} de ${PEDIDOS}` }).waitFor();
  }
  await pagina.getByText('Todos os pedidos deste ponto já foram retirados.').waitFor();
  const segundosNaFila = (performance.now() - inicioDaFila) / 1000;
  await pagina.getByText(`${PEDIDOS} ações esperando envio`).waitFor();
  const fila = await lerLoja(pagina, 'fila');
  if (fila.length !== PEDIDOS || fila.some((a) => a.acao.tipo !== 'retirada'))
    throw new Error(`a fila do aparelho tem ${fila.length} ações: ${JSON.stringify(fila.map((a) => a.acao.tipo))}`);

  // The requests of the sync, with their time at the network (the server's work and the local hop).
  const pedidos: Array<{ operacao: string; acoes: number; inicio: number; fim: number; status: number }> = [];
  pagina.on('requestfinished', (req) => {
    void (async () => {
      const url = new URL(req.url());
      if (req.method() === 'GET' && url.pathname === '/auth/status') {
        const t = req.timing();
        pedidos.push({
          operacao: '/auth/status',
          acoes: 0,
          inicio: t.startTime,
          fim: t.startTime + t.responseEnd,
          status: (await req.response())?.status() ?? 0,
        });
        return;
      }
      if (req.method() !== 'POST' || url.pathname !== '/graphql') return;
      const corpo = req.postDataJSON() as { query?: string; variables?: { acoes?: unknown[] } } | null;
      const operacao = /(?:query|mutation) (\w+)/.exec(corpo?.query ?? '')?.[1] ?? '?';
      const t = req.timing();
      pedidos.push({
        operacao,
        acoes: corpo?.variables?.acoes?.length ?? 0,
        inicio: t.startTime,
        fim: t.startTime + t.responseEnd,
        status: (await req.response())?.status() ?? 0,
      });
    })();
  });
  // In the page's clock: the browser's `online` event; the counter saying "Tudo enviado" (the
  // queue is empty: every action was accepted); the end of the round (the point read again and
  // kept, the "Atualizar" button enabled again).
  await pagina.evaluate(() => {
    const marcas = { online: 0, fim: 0, rodada: 0 };
    (window as unknown as { marcasDoEnvio: typeof marcas }).marcasDoEnvio = marcas;
    // In ms since the epoch, as Playwright's request timings are.
    const agora = () => performance.timeOrigin + performance.now();
    window.addEventListener('online', () => (marcas.online = agora()), { once: true });
    const observador = new MutationObserver(() => {
      if (marcas.online === 0) return;
      const barra = document.querySelector('.barra-fila');
      if (marcas.fim === 0 && /Tudo enviado/.test(barra?.querySelector('.contador-fila')?.textContent ?? ''))
        marcas.fim = agora();
      const botao = barra?.querySelector('button');
      if (marcas.fim !== 0 && botao?.textContent === 'Atualizar' && !botao.disabled) {
        marcas.rodada = agora();
        observador.disconnect();
      }
    });
    observador.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
  });
  const inicio = Date.now();
  await ctx.contexto.setOffline(false);
  await pagina.getByText(/Tudo enviado · atualizado às/).waitFor({ timeout: 120_000 });
  const segundosDeFora = (Date.now() - inicio) / 1000;
  await pagina.getByRole('button', { name: 'Atualizar' }).and(pagina.locator(':enabled')).waitFor();
  const marcas = await pagina.evaluate(
    () => (window as unknown as { marcasDoEnvio: { online: number; fim: number; rodada: number } }).marcasDoEnvio,
  );
  const segundos = (marcas.fim - marcas.online) / 1000;
  const segundosDaRodada = (marcas.rodada - marcas.online) / 1000;
  // Playwright reports a finished request a moment after the page saw it.
  await pagina.waitForTimeout(500);
  await ctx.fechar();

  const linhas = await amb.banco
    .selectFrom('acaoretirada')
    .select(['chave', 'pedidoid', 'tipo', 'id'])
    .where('cicloid', '=', cicloId)
    .where('pontoEntregaId', '=', pontoId)
    .execute();
  const auditoria = await amb.banco
    .selectFrom('auditoria')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('acao', '=', 'retirada: retirada')
    .executeTakeFirstOrThrow();
  const chaves = new Set(linhas.map((l) => l.chave));
  const daFila = fila.every((a) => chaves.has(a.acao.chave));
  const doPonto = new Set(linhas.map((l) => l.pedidoid));

  const envios = pedidos.filter((p) => p.operacao === 'SincronizarRetirada').sort((a, b) => a.inicio - b.inicio);
  console.log(
    `\n${PEDIDOS} ações na fila (todas "Entregue", marcadas pela tela sem rede com a CPU 4× mais lenta, em ${segundosNaFila.toFixed(0)} s); a rede volta, CPU 4× mais lenta:`,
  );
  console.log(
    `  do evento online a "Tudo enviado": ${segundos.toFixed(2)} s (no relógio da página; ${segundosDeFora.toFixed(2)} s visto pelo Playwright, de setOffline(false) ao texto); ao fim da rodada (o ponto lido de novo e guardado): ${segundosDaRodada.toFixed(2)} s`,
  );
  console.log(`  requisições: ${pedidos.length}, das quais ${envios.length} sincronizarRetirada`);
  // Where the time goes: each request's start and end from the `online` event; between them, the page's own work.
  let naRede = 0;
  for (const p of [...pedidos].sort((a, b) => a.inicio - b.inicio)) {
    naRede += p.fim - p.inicio;
    console.log(
      `    ${p.operacao.padEnd(20)} ${String(p.acoes).padStart(3)} ações  de ${(p.inicio - marcas.online).toFixed(0).padStart(5)} a ${(p.fim - marcas.online).toFixed(0).padStart(5)} ms: ${(p.fim - p.inicio).toFixed(0).padStart(4)} ms na rede  status ${p.status}`,
    );
  }
  console.log(
    `  da rodada, ${(naRede / 1000).toFixed(2)} s na rede (o servidor e o caminho local) e ${(segundosDaRodada - naRede / 1000).toFixed(2)} s no aparelho (IndexedDB, React, a tela)`,
  );
  console.log(
    `  no servidor (acaoretirada deste ciclo e ponto): ${linhas.length} linhas, ${chaves.size} chaves distintas, ${doPonto.size} pedidos distintos, tipos ${[...new Set(linhas.map((l) => l.tipo))].join(',')}; as ${fila.length} chaves da fila ${daFila ? 'todas lá' : 'NÃO estão todas lá'}; ${auditoria.n} linhas de auditoria "retirada: retirada"`,
  );
  const certo =
    linhas.length === PEDIDOS &&
    chaves.size === PEDIDOS &&
    doPonto.size === PEDIDOS &&
    daFila &&
    Number(auditoria.n) === PEDIDOS &&
    envios.length === Math.ceil(PEDIDOS / 100) &&
    envios.every((e) => e.acoes <= 100);
  console.log(`  ${certo ? 'certo' : 'ERRADO'}: ${PEDIDOS} ações aplicadas uma vez cada, em lotes de no máximo 100`);
  if (!certo) process.exitCode = 1;
}
