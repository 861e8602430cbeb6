/**
 * A receipt sent with a payment form that came back refused (an invalid value, say). A browser
 * cannot fill a file input again, so the server keeps the file as pending and the redrawn form
 * carries a sealed reference to it: the corrected form, sent back without a file, keeps the
 * receipt; a new file replaces it.
 *
 * The reference is sealed (encrypted and authenticated, `Cofre`) with the stored name, the name
 * the person's file had and the session it was sent in, and expires: it never names a path a
 * client chose, and it opens only in the same login of the same person that sent the file.
 * Pending files live in `<UPLOAD_DIR>/pendentes`, named by the instant they arrived; each new
 * one sweeps away those past their validity, and using or replacing one removes it.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { formatoDoArquivo, type ArquivoRecebido } from '../domain/financeiro.ts';
import type { Cofre } from '../http/cofre.ts';

/** How long a refused form's receipt waits for the corrected form. */
export const VALIDADE_PENDENTE_MS = 24 * 60 * 60 * 1000;

const PASTA = 'pendentes';
/** Only names this module makes: the arrival instant, a random id and the format's extension. */
const NOME_GUARDADO = /^(\d{1,16})-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.(pdf|png|jpg)$/;
const MAIOR_NOME = 120;

/** Whose a pending receipt is: the login (session id) and the person that sent it. */
export interface Dono {
  readonly sid: string;
  readonly usuarioid: number | null;
}

/** A pending receipt, as the redrawn form shows it: its sealed reference and the file's name. */
export interface ComprovanteMantido {
  readonly referencia: string;
  readonly nome: string;
}

interface Selado {
  readonly a: string;
  readonly n: string;
  readonly s: string;
  readonly u: number | null;
}

/**
 * The name a browser gave the file, for people to read. Browsers send it as UTF-8 bytes, which
 * the multipart parser reads as Latin-1: "março.pdf" arrives as "marÃ§o.pdf" and is decoded back.
 */
export function nomeLegivel(bruto: unknown): string {
  // A part may come with no file name at all (an empty file input, a hand-made request).
  let nome = typeof bruto === 'string' ? bruto : '';
  if ([...nome].every((c) => c.charCodeAt(0) <= 0xff)) {
    const utf8 = Buffer.from(nome, 'latin1').toString('utf8');
    if (!utf8.includes('\ufffd')) nome = utf8;
  }
  nome = nome.replace(/\p{Cc}/gu, '').trim();
  return nome === '' ? 'comprovante' : [...nome].slice(0, MAIOR_NOME).join('');
}

/** Removes the pending receipts past their validity; a failure only leaves them for the next sweep. */
async function varrer(pasta: string, agoraMs: number): Promise<void> {
  const nomes = await readdir(pasta).catch(() => [] as string[]);
  await Promise.all(
    nomes.map(async (n) => {
      const chegada = NOME_GUARDADO.exec(n)?.[1];
      if (chegada !== undefined && Number(chegada) + VALIDADE_PENDENTE_MS <= agoraMs)
        await rm(join(pasta, n), { force: true }).catch(() => undefined);
    }),
  );
}

/**
 * Keeps a receipt a refused form carried, for that person's login, and seals its reference.
 * Null when the file is not a receipt (not PDF, PNG or JPEG): the form says why, and nothing is kept.
 */
export async function guardarPendente(
  cofre: Cofre,
  dirArquivos: string,
  arquivo: ArquivoRecebido,
  dono: Dono,
  agora: Date,
): Promise<ComprovanteMantido | null> {
  const formato = formatoDoArquivo(arquivo.conteudo);
  if (formato === undefined) return null;
  const pasta = join(dirArquivos, PASTA);
  await mkdir(pasta, { recursive: true, mode: 0o700 });
  await varrer(pasta, agora.getTime());
  const guardado = `${agora.getTime()}-${randomUUID()}.${formato.ext}`;
  await writeFile(join(pasta, guardado), arquivo.conteudo, { flag: 'wx', mode: 0o600 });
  const selado: Selado = { a: guardado, n: arquivo.nome, s: dono.sid, u: dono.usuarioid };
  return { referencia: cofre.selar(selado, agora.getTime() + VALIDADE_PENDENTE_MS), nome: arquivo.nome };
}

/** What a reference points to, when it is sealed by us, unexpired and this login's; else null. */
function abrir(cofre: Cofre, referencia: unknown, dono: Dono, agora: Date): Selado | null {
  if (typeof referencia !== 'string' || referencia === '' || referencia.length > 2000) return null;
  const v = cofre.abrir(referencia, agora.getTime()) as Partial<Selado> | undefined;
  if (v === undefined || v === null || typeof v !== 'object') return null;
  if (typeof v.a !== 'string' || !NOME_GUARDADO.test(v.a) || typeof v.n !== 'string') return null;
  if (v.s !== dono.sid || v.u !== dono.usuarioid) return null;
  return { a: v.a, n: v.n, s: v.s, u: v.u };
}

/**
 * The pending receipt a reference names, read back (its bytes, and the name the person gave it),
 * or null when the reference is not this login's, was tampered with, has expired or its file is gone.
 */
export async function lerPendente(
  cofre: Cofre,
  dirArquivos: string,
  referencia: unknown,
  dono: Dono,
  agora: Date,
): Promise<(ArquivoRecebido & { readonly referencia: string }) | null> {
  const aberto = abrir(cofre, referencia, dono, agora);
  if (aberto === null) return null;
  const conteudo = await readFile(join(dirArquivos, PASTA, aberto.a)).catch(() => null);
  if (conteudo === null) return null;
  return { nome: aberto.n, conteudo, referencia: referencia as string };
}

/** Removes the pending file of a reference (used, or replaced by a new file); a bad reference removes nothing. */
export async function descartarPendente(
  cofre: Cofre,
  dirArquivos: string,
  referencia: unknown,
  dono: Dono,
  agora: Date,
): Promise<void> {
  const aberto = abrir(cofre, referencia, dono, agora);
  if (aberto !== null) await rm(join(dirArquivos, PASTA, aberto.a), { force: true });
}
