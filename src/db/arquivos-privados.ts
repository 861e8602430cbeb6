import { chmodSync, closeSync, lstatSync, mkdirSync, openSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Everything the service keeps on disk is private to the account that runs it: the database,
 * receipts, backups and exports hold people's names, orders and money. Files are 0600 and
 * folders 0700, set at creation where we create them and enforced after a library or a copy
 * created them (SQLite's VACUUM INTO, pg_dump, cpSync keep the creator's or source's mode).
 */
export const MODO_ARQUIVO = 0o600;
export const MODO_PASTA = 0o700;

/** mkdir -p with private modes for every folder it creates. */
export function criarPastaPrivada(caminho: string): void {
  mkdirSync(caminho, { recursive: true, mode: MODO_PASTA });
}

/** Creates an empty file with the private mode unless it exists; an existing one is made private. */
export function garantirArquivoPrivado(caminho: string): void {
  try {
    closeSync(openSync(caminho, 'wx', MODO_ARQUIVO));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    chmodSync(caminho, MODO_ARQUIVO);
  }
}

/** Makes a file, or a folder and everything below it, private (links are left alone). */
export function tornarPrivado(caminho: string): void {
  const info = lstatSync(caminho);
  if (info.isSymbolicLink()) return;
  if (info.isDirectory()) {
    chmodSync(caminho, MODO_PASTA);
    for (const nome of readdirSync(caminho)) tornarPrivado(join(caminho, nome));
  } else {
    chmodSync(caminho, MODO_ARQUIVO);
  }
}
