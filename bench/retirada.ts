/**
 * `npm run bench:retirada`
 *
 * The pickup app on a point with 300 confirmed orders, as a volunteer's phone meets it: opened once
 * online (360×740), then with the network off (Playwright's offline emulation) and the CPU 4×
 * slower (CDP Emulation.setCPUThrottlingRate). It prints, for each kind of tap (search, open an
 * order, Entregue, Faltou, a payment, a note, back to the list), 5 times each, the ms from the tap
 * to the next frame (handler, React's render and layout, in the page's own clock). The server is
 * the real one, in this process, on a fresh SQLite.
 */
import { abrirChromium, abrirContexto } from '../test/helpers/chromium.ts';
import { criarCicloComPedidos, criarPonto, criarUsuario, DATAS_PADRAO } from '../test/helpers/fabricas.ts';
import { iniciarAmbiente } from '../test/helpers/servidor.ts';
process.env.TEST_DIALETO ??= 'sqlite';
const ADMIN = 'coord-medida@exemplo.org';
const amb = await iniciarAmbiente({ mercados: true, env: { ADMIN_EMAILS: ADMIN } });
const navegador = await abrirChromium();
try {
  await criarUsuario(amb.banco, { email: ADMIN, nome: 'Coordenação', perfil: ['master'] });
  const ponto = await criarPonto(amb.banco, 'Ponto Grande');
  const cicloId = await criarCicloComPedidos(amb.banco, 300, ponto.id, DATAS_PADRAO);
  const caminho = `/retirada/${cicloId}/${ponto.id}`;
  const ctx = await abrirContexto(navegador, { largura: 360, altura: 740 });
  ctx.contexto.setDefaultTimeout(60_000);
  const pagina = await ctx.novaPagina();
  await pagina.goto(`${amb.urlMercados}/login?voltar=${encodeURIComponent(caminho)}`);
  await pagina.waitForURL(/\/interaction\//);
  await pagina.fill('#email', ADMIN);
  await pagina.fill('#nome', 'Coordenação');
  await Promise.all([
    pagina.waitForURL(`${amb.urlMercados}${caminho}`),
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
  await ctx.fechar();
} finally {
  await navegador.close();
  await amb.fechar();
}
