import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { ErroConfig, carregarConfig } from '../../src/config.ts';
import { markdownParaHtml } from '../../src/http/markdown.ts';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente } from '../helpers/servidor.ts';

test('/limitesolar é público e mostra o arquivo que a comunidade escolheu, trocado sem reiniciar', async () => {
  const arquivo = join(mkdtempSync(join(tmpdir(), 'limite-')), 'limite.md');
  writeFileSync(
    arquivo,
    '# Nosso limite\n\nCesta até **R$ 90,00**.\n\n- item <b>um</b>\n- [site](https://exemplo.org) e [mal](javascript:alert(1))\n',
  );
  const amb = await iniciarAmbiente({ env: { LIMITESOLAR_FILE: arquivo } });
  try {
    const r = await new Navegador().get(`${amb.url}/limitesolar`);
    assert.equal(r.status, 200);
    assert.match(r.texto, /<h1>Nosso limite<\/h1>/);
    assert.match(r.texto, /Cesta até <strong>R\$ 90,00<\/strong>\./);
    assert.match(r.texto, /<li>item &lt;b&gt;um&lt;\/b&gt;<\/li>/);
    assert.match(r.texto, /<a href="https:\/\/exemplo.org">site<\/a> e mal/);
    assert.doesNotMatch(r.texto, /javascript:/);
    writeFileSync(arquivo, '# Texto novo\n\nOutro parágrafo.\n');
    const depois = await new Navegador().getJson(`${amb.url}/limitesolar`);
    assert.equal(depois.json<{ data: { titulo: string } }>().data.titulo, 'Texto novo');
  } finally {
    await amb.fechar();
  }
});

test('o texto padrão do limite solidário existe e é em português', async () => {
  const amb = await iniciarAmbiente();
  try {
    const r = await new Navegador().get(`${amb.url}/limitesolar`);
    assert.equal(r.status, 200);
    assert.match(r.texto, /limite solidário/i);
    assert.match(r.texto, /fundo solidário/);
  } finally {
    await amb.fechar();
  }
});

test('LIMITESOLAR_FILE inexistente impede o início com mensagem que nomeia a variável', () => {
  assert.throws(
    () => carregarConfig({ LIMITESOLAR_FILE: '/nao/existe.md' }),
    (e: unknown) => e instanceof ErroConfig && e.message.includes('LIMITESOLAR_FILE'),
  );
});

test('markdown: títulos começam em h2, parágrafos juntam linhas', () => {
  assert.equal(markdownParaHtml('## Sub\nlinha um\nlinha dois'), '<h2>Sub</h2>\n<p>linha um linha dois</p>');
  // No level skipped after the page's h1, whatever level the file starts at (axe's heading-order).
  assert.equal(markdownParaHtml('# A\n## B\n### C'), '<h2>A</h2>\n<h3>B</h3>\n<h4>C</h4>');
  assert.equal(markdownParaHtml('## A\n### B\n## C'), '<h2>A</h2>\n<h3>B</h3>\n<h2>C</h2>');
});
