/**
 * The delivery PDF on its own thread (src/cestas/pdf/a-parte.ts): the server's thread never loads
 * pdfkit nor lays out a page; PDFs asked at once each get their own bytes; a PDF closed halfway,
 * or one that fails, leaves the thread ready for the next; an idle thread ends, and the next PDF
 * starts another.
 */
import assert from 'node:assert/strict';
import { registerHooks } from 'node:module';
import type { Readable } from 'node:stream';
import { test } from 'node:test';
import { threadId } from 'node:worker_threads';
import { pdfDeEntregaAParte, threadDosPdfs } from '../../src/cestas/pdf/a-parte.ts';
import type { DocumentoDeEntrega } from '../../src/domain/relatorios/documento-de-entrega.ts';
import { montarRelatorio } from '../../src/domain/relatorios/modelo.ts';
import { textoDoPdf } from '../helpers/pdf.ts';

// Every module this thread resolves (hooks are the thread's own: the PDF thread's are not seen).
const resolvidos: string[] = [];
registerHooks({
  resolve(especificador, contexto, proximo) {
    const r = proximo(especificador, contexto);
    resolvidos.push(r.url);
    return r;
  },
});
const pdfkitAqui = () => resolvidos.some((u) => /\/node_modules\/pdfkit\//.test(u));

function documento(ciclo: string, pessoas: number): DocumentoDeEntrega {
  return {
    ciclo: { id: 1, nome: ciclo, dataRetiradaInicio: '2026-03-10', dataRetiradaFim: '2026-03-10' },
    mercado: null,
    pedidos: pessoas,
    totalCentavos: pessoas * 4500,
    secoes: [
      montarRelatorio(
        'Pedidos por ponto',
        ciclo,
        [
          { chave: 'consumidor', titulo: 'Consumidor', tipo: 'texto' },
          { chave: 'valor', titulo: 'Valor', tipo: 'dinheiro', soma: true },
        ],
        Array.from({ length: pessoas }, (_, i) => ({ consumidor: `Pessoa ${i + 1} do ${ciclo}`, valor: 4500 })),
      ),
    ],
  };
}

async function bytes(r: Readable): Promise<Uint8Array> {
  const partes: Buffer[] = [];
  for await (const p of r) partes.push(p as Buffer);
  return new Uint8Array(Buffer.concat(partes));
}

async function ate(condicao: () => boolean, o: string): Promise<void> {
  for (let i = 0; i < 500 && !condicao(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(condicao(), o);
}

test('o PDF vem da thread à parte: a do servidor nunca carrega o pdfkit', async () => {
  assert.equal(threadDosPdfs().viva, false);
  const pdf = await bytes(pdfDeEntregaAParte(documento('Ciclo 7', 400)));
  const { paginas, texto } = await textoDoPdf(pdf);
  assert.ok(paginas > 5, `${paginas} páginas`);
  assert.match(texto, /Entrega do Ciclo 7/);
  assert.match(texto, /Pessoa 400 do Ciclo 7/);
  assert.match(texto, /R\$ 18\.000,00/);
  const estado = threadDosPdfs();
  assert.equal(estado.viva, true);
  assert.notEqual(estado.threadId, threadId);
  assert.equal(pdfkitAqui(), false, 'o pdfkit foi carregado na thread do servidor');
  // The check sees a load on this thread when there is one.
  await import('pdfkit');
  assert.equal(pdfkitAqui(), true);
});

test('dois PDFs ao mesmo tempo: cada um com as suas páginas', async () => {
  const [a, b] = await Promise.all([
    bytes(pdfDeEntregaAParte(documento('Ciclo A', 300))),
    bytes(pdfDeEntregaAParte(documento('Ciclo B', 20))),
  ]);
  const [ta, tb] = [(await textoDoPdf(a)).texto, (await textoDoPdf(b)).texto];
  assert.match(ta, /Pessoa 300 do Ciclo A/);
  assert.doesNotMatch(ta, /Ciclo B/);
  assert.match(tb, /Pessoa 20 do Ciclo B/);
  assert.doesNotMatch(tb, /Ciclo A/);
});

test('um PDF fechado no meio para de ser escrito, e o próximo sai inteiro', async () => {
  const grande = pdfDeEntregaAParte(documento('Ciclo grande', 5000));
  await new Promise((pronto) => grande.once('data', pronto));
  assert.equal(threadDosPdfs().escrevendo, 1);
  grande.destroy();
  await ate(() => threadDosPdfs().escrevendo === 0, 'o PDF fechado continuou em curso');
  const { texto } = await textoDoPdf(await bytes(pdfDeEntregaAParte(documento('Ciclo 8', 5))));
  assert.match(texto, /Pessoa 5 do Ciclo 8/);
});

test('um PDF que falha termina com erro, e a thread segue para o próximo', async () => {
  const quebrado = { ...documento('Ciclo quebrado', 1), secoes: null } as unknown as DocumentoDeEntrega;
  await assert.rejects(bytes(pdfDeEntregaAParte(quebrado)), /o PDF de entrega falhou/);
  const { texto } = await textoDoPdf(await bytes(pdfDeEntregaAParte(documento('Ciclo 9', 3))));
  assert.match(texto, /Pessoa 3 do Ciclo 9/);
});

test('sem PDFs a escrever, a thread acaba; o próximo PDF começa outra', async () => {
  threadDosPdfs(50);
  await bytes(pdfDeEntregaAParte(documento('Ciclo 10', 2)));
  const antes = threadDosPdfs().threadId;
  await ate(() => !threadDosPdfs().viva, 'a thread ociosa não acabou');
  const { texto } = await textoDoPdf(await bytes(pdfDeEntregaAParte(documento('Ciclo 11', 2))));
  assert.match(texto, /Pessoa 2 do Ciclo 11/);
  assert.notEqual(threadDosPdfs().threadId, antes);
});
