/**
 * The thread that writes delivery PDFs (started by ./a-parte.ts). Laying out a big cycle's PDF is
 * seconds of CPU and tens of megabytes of allocations (pdfkit, its fonts, zlib): here they never
 * hold the server's event loop, nor grow its heap. The document comes in, the PDF goes back in
 * parts of about 64 KB, each part's memory handed over rather than copied.
 */
import { parentPort } from 'node:worker_threads';
import type { PedidoDoPdf, RespostaDoPdf } from './a-parte.ts';
import { pdfDeEntrega } from './entrega.ts';

const PARTE = 64 * 1024;

const porta = parentPort;
const emCurso = new Map<number, PDFKit.PDFDocument>();

function enviar(r: RespostaDoPdf): void {
  if ('parte' in r) porta?.postMessage(r, [r.parte.buffer]);
  else porta?.postMessage(r);
}

/** A part whose memory is its own, so it can be handed over (a small Buffer shares Node's pool). */
function propria(partes: readonly Buffer[]): Uint8Array<ArrayBuffer> {
  const junta = Buffer.concat(partes);
  return new Uint8Array(
    junta.byteOffset === 0 && junta.byteLength === junta.buffer.byteLength ? junta : Uint8Array.from(junta),
  );
}

async function escrever(id: number, documento: PedidoDoPdf & { tipo: 'escrever' }): Promise<void> {
  const doc = await pdfDeEntrega(documento.documento);
  emCurso.set(id, doc);
  let partes: Buffer[] = [];
  let bytes = 0;
  doc.on('data', (b: Buffer) => {
    partes.push(b);
    bytes += b.length;
    if (bytes < PARTE) return;
    enviar({ id, parte: propria(partes) });
    partes = [];
    bytes = 0;
  });
  doc.on('end', () => {
    emCurso.delete(id);
    if (bytes > 0) enviar({ id, parte: propria(partes) });
    enviar({ id, fim: true });
  });
  doc.on('error', (e: Error) => {
    emCurso.delete(id);
    enviar({ id, erro: e.message });
  });
}

porta?.on('message', (m: PedidoDoPdf) => {
  if (m.tipo === 'cancelar') {
    emCurso.get(m.id)?.destroy();
    emCurso.delete(m.id);
    return;
  }
  escrever(m.id, m).catch((e: unknown) => enviar({ id: m.id, erro: e instanceof Error ? e.message : String(e) }));
});
