/**
 * The delivery PDF written on a thread apart (./trabalhador.ts), so that the seconds of CPU a big
 * cycle's PDF takes never hold the event loop that answers everyone else (docs/decisions.md, "O
 * PDF numa thread à parte"). One thread serves every PDF of the process; it starts with the
 * first PDF asked for and ends after a while without any, so a process that writes none never
 * carries pdfkit and its fonts in memory.
 */
import { PassThrough, type Readable } from 'node:stream';
import { Worker } from 'node:worker_threads';
import type { DocumentoDeEntrega } from '../../domain/relatorios/documento-de-entrega.ts';

export type PedidoDoPdf =
  | { readonly tipo: 'escrever'; readonly id: number; readonly documento: DocumentoDeEntrega }
  | { readonly tipo: 'cancelar'; readonly id: number };

export type RespostaDoPdf =
  | { readonly id: number; readonly parte: Uint8Array<ArrayBuffer> }
  | { readonly id: number; readonly fim: true }
  | { readonly id: number; readonly erro: string };

/** How long the thread stays after its last PDF, ready for the next one. */
const OCIOSO_MS = 30_000;
let ociosoMs = OCIOSO_MS;

interface Trabalhador {
  readonly worker: Worker;
  readonly emCurso: Map<number, PassThrough>;
  ocioso: NodeJS.Timeout | null;
}

let atual: Trabalhador | null = null;
let ultimoId = 0;

function encerrar(t: Trabalhador, erro: Error): void {
  if (atual === t) atual = null;
  for (const saida of t.emCurso.values()) saida.destroy(erro);
  t.emCurso.clear();
}

function trabalhador(): Trabalhador {
  if (atual !== null) {
    if (atual.ocioso !== null) clearTimeout(atual.ocioso);
    atual.ocioso = null;
    return atual;
  }
  const t: Trabalhador = {
    worker: new Worker(new URL('./trabalhador.ts', import.meta.url), { name: 'pdf de entrega' }),
    emCurso: new Map(),
    ocioso: null,
  };
  // The thread never keeps the process alive: the server does, while it serves.
  t.worker.unref();
  t.worker.on('message', (r: RespostaDoPdf) => {
    const saida = t.emCurso.get(r.id);
    if (saida === undefined) return;
    if ('parte' in r) {
      saida.write(Buffer.from(r.parte.buffer, r.parte.byteOffset, r.parte.byteLength));
      return;
    }
    t.emCurso.delete(r.id);
    if ('fim' in r) saida.end();
    else saida.destroy(new Error(`o PDF de entrega falhou: ${r.erro}`));
    descansar(t);
  });
  t.worker.on('error', (e) => encerrar(t, e));
  t.worker.on('exit', (codigo) => encerrar(t, new Error(`a thread dos PDFs saiu (${codigo})`)));
  atual = t;
  return t;
}

/** With no PDF left to write, the thread ends after OCIOSO_MS. */
function descansar(t: Trabalhador): void {
  if (t.emCurso.size > 0 || t.ocioso !== null) return;
  t.ocioso = setTimeout(() => {
    if (atual === t) atual = null;
    void t.worker.terminate();
  }, ociosoMs);
  t.ocioso.unref();
}

/**
 * The delivery PDF of a document, as a stream that the thread fills. Closing the stream before its
 * end (the person left) stops the writing; a failure of the thread ends the stream with an error.
 */
export function pdfDeEntregaAParte(documento: DocumentoDeEntrega): Readable {
  const t = trabalhador();
  const id = ++ultimoId;
  const saida = new PassThrough();
  t.emCurso.set(id, saida);
  saida.on('close', () => {
    if (!t.emCurso.delete(id)) return;
    t.worker.postMessage({ tipo: 'cancelar', id } satisfies PedidoDoPdf);
    descansar(t);
  });
  t.worker.postMessage({ tipo: 'escrever', id, documento } satisfies PedidoDoPdf);
  return saida;
}

/**
 * The thread's state, for the tests: whether it is
 * up, its thread id, and how many PDFs it is writing. `ocioso` sets how long it waits for the
 * next PDF before it ends (the tests wait less than OCIOSO_MS).
 */
export function threadDosPdfs(ocioso?: number): { viva: boolean; threadId: number | null; escrevendo: number } {
  if (ocioso !== undefined) ociosoMs = ocioso;
  return { viva: atual !== null, threadId: atual?.worker.threadId ?? null, escrevendo: atual?.emCurso.size ?? 0 };
}
