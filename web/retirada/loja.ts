/**
 * The device's store (IndexedDB through `idb`): what the pickup needs with no network.
 * - `retiradas`: the last snapshot of each point (retiradaDoPonto), by "ciclo/ponto";
 * - `fila`: the actions made here and not yet accepted by the server, in the order they were made;
 * - `enviadas`: actions the server accepted, kept until a snapshot lists them (so a sync whose
 *   refetch failed still shows them);
 * - `recusadas`: actions the server refused, with its reason ("Não aceitas");
 * - `ajustes`: this device's id (made once), the person's name, the list of points.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';
import type { AcaoLocal, AcaoRecusada, PontoDeRetirada, RetiradaDoPonto } from './tipos.ts';

interface RetiradaGuardada {
  readonly ponto: string;
  readonly dados: RetiradaDoPonto;
  /** When this device received it (ISO). */
  readonly recebidaEm: string;
}

interface Esquema extends DBSchema {
  retiradas: { key: string; value: RetiradaGuardada };
  fila: { key: string; value: AcaoLocal; indexes: { ponto: string } };
  enviadas: { key: string; value: AcaoLocal; indexes: { ponto: string } };
  recusadas: { key: string; value: AcaoRecusada; indexes: { ponto: string } };
  ajustes: { key: string; value: unknown };
}

const NOME = 'cestaria-retirada';

let aberta: Promise<IDBPDatabase<Esquema>> | null = null;

function banco(): Promise<IDBPDatabase<Esquema>> {
  aberta ??= openDB<Esquema>(NOME, 1, {
    upgrade(db) {
      db.createObjectStore('retiradas', { keyPath: 'ponto' });
      for (const nome of ['fila', 'enviadas', 'recusadas'] as const) {
        // The key is the action's own id (its chave): the same action is never kept twice.
        const loja = db.createObjectStore(nome, { keyPath: 'acao.chave' });
        loja.createIndex('ponto', 'ponto');
      }
      db.createObjectStore('ajustes');
    },
  });
  return aberta;
}

const porOrdem = <T extends AcaoLocal>(lista: T[]): T[] => lista.sort((a, b) => a.ordem - b.ordem);

export async function retiradaGuardada(ponto: string): Promise<RetiradaGuardada | undefined> {
  return (await banco()).get('retiradas', ponto);
}

export async function retiradasGuardadas(): Promise<RetiradaGuardada[]> {
  return (await banco()).getAll('retiradas');
}

/**
 * Keeps a new snapshot and forgets the accepted actions it now lists, in one transaction: what
 * the screen shows never loses an action between the two.
 */
export async function guardarRetirada(ponto: string, dados: RetiradaDoPonto, agora: Date): Promise<void> {
  const db = await banco();
  const tx = db.transaction(['retiradas', 'enviadas'], 'readwrite');
  const listadas = new Set(dados.acoes.map((a) => a.chave));
  await tx.objectStore('retiradas').put({ ponto, dados, recebidaEm: agora.toISOString() });
  const enviadas = tx.objectStore('enviadas');
  const apagar = (await enviadas.index('ponto').getAll(ponto)).filter((a) => listadas.has(a.acao.chave));
  await Promise.all([...apagar.map((a) => enviadas.delete(a.acao.chave)), tx.done]);
}

export interface AcoesDoPonto {
  readonly fila: AcaoLocal[];
  readonly enviadas: AcaoLocal[];
  readonly recusadas: AcaoRecusada[];
}

export async function acoesDoPonto(ponto: string): Promise<AcoesDoPonto> {
  const db = await banco();
  const tx = db.transaction(['fila', 'enviadas', 'recusadas'], 'readonly');
  const [fila, enviadas, recusadas] = await Promise.all([
    tx.objectStore('fila').index('ponto').getAll(ponto),
    tx.objectStore('enviadas').index('ponto').getAll(ponto),
    tx.objectStore('recusadas').index('ponto').getAll(ponto),
  ]);
  await tx.done;
  return { fila: porOrdem(fila), enviadas: porOrdem(enviadas), recusadas: porOrdem(recusadas) };
}

/** How many actions wait to be sent, per point. */
export async function filaPorPonto(): Promise<Map<string, number>> {
  const contagem = new Map<string, number>();
  for (const a of await (await banco()).getAll('fila')) contagem.set(a.ponto, (contagem.get(a.ponto) ?? 0) + 1);
  return contagem;
}

export async function enfileirar(acao: AcaoLocal): Promise<void> {
  await (await banco()).put('fila', acao);
}

/** Takes an action that was not sent yet out of the queue (a tap undone); false when it was sent meanwhile. */
export async function desfazer(chave: string): Promise<boolean> {
  const db = await banco();
  const tx = db.transaction('fila', 'readwrite');
  const existia = (await tx.store.get(chave)) !== undefined;
  if (existia) await tx.store.delete(chave);
  await tx.done;
  return existia;
}

/** Moves the server's answers out of the queue: accepted ones to `enviadas`, refused ones to `recusadas`. */
export async function registrarResultados(
  aceitas: readonly string[],
  recusadas: ReadonlyArray<{ chave: string; mensagem: string }>,
  agora: Date,
): Promise<void> {
  const db = await banco();
  const tx = db.transaction(['fila', 'enviadas', 'recusadas'], 'readwrite');
  const fila = tx.objectStore('fila');
  // All the reads asked at once, then all the writes, in the one transaction: a request awaited
  // one at a time cost a round of the page's event loop each (300 a batch of 100).
  const [daFila, recusadasDaFila] = await Promise.all([
    Promise.all(aceitas.map((chave) => fila.get(chave))),
    Promise.all(recusadas.map((r) => fila.get(r.chave))),
  ]);
  const escritas: Array<Promise<unknown>> = [];
  aceitas.forEach((chave, i) => {
    const a = daFila[i];
    if (a === undefined) return;
    escritas.push(tx.objectStore('enviadas').put(a), fila.delete(chave));
  });
  recusadas.forEach((r, i) => {
    const a = recusadasDaFila[i];
    if (a === undefined) return;
    escritas.push(
      tx.objectStore('recusadas').put({ ...a, mensagem: r.mensagem, recusadaEm: agora.toISOString() }),
      fila.delete(r.chave),
    );
  });
  await Promise.all([...escritas, tx.done]);
}

/** Forgets the refused actions of a point once the person has read them. */
export async function esquecerRecusadas(ponto: string): Promise<void> {
  const db = await banco();
  const tx = db.transaction('recusadas', 'readwrite');
  for (const chave of await tx.store.index('ponto').getAllKeys(ponto)) await tx.store.delete(chave);
  await tx.done;
}

async function ajuste<T>(nome: string): Promise<T | undefined> {
  return (await (await banco()).get('ajustes', nome)) as T | undefined;
}

async function guardarAjuste(nome: string, valor: unknown): Promise<void> {
  await (await banco()).put('ajustes', valor, nome);
}

/** This device's id: made once (crypto.randomUUID), then always the same. */
export async function dispositivo(): Promise<string> {
  const db = await banco();
  const tx = db.transaction('ajustes', 'readwrite');
  let id = (await tx.store.get('dispositivo')) as string | undefined;
  if (id === undefined) {
    id = crypto.randomUUID();
    await tx.store.put(id, 'dispositivo');
  }
  await tx.done;
  return id;
}

export interface Conta {
  readonly id: number;
  readonly nome: string;
}

/** The account this device last saw logged in, whose name goes on the actions made here. */
export const contaGuardada = () => ajuste<Conta>('conta');

/**
 * Records the account now logged in. When it is not the one before (another person on this phone),
 * what the previous one read is forgotten: the points' snapshots, the list of points and the
 * accepted and refused actions. Their queue stays, sent only when they log in again (AcaoLocal.conta).
 * Returns whether the account changed.
 */
export async function trocarDeConta(conta: Conta): Promise<boolean> {
  const db = await banco();
  const tx = db.transaction(['ajustes', 'retiradas', 'enviadas', 'recusadas'], 'readwrite');
  const antes = (await tx.objectStore('ajustes').get('conta')) as Conta | undefined;
  const outra = antes !== undefined && antes.id !== conta.id;
  if (outra) {
    await tx.objectStore('retiradas').clear();
    await tx.objectStore('enviadas').clear();
    await tx.objectStore('recusadas').clear();
    await tx.objectStore('ajustes').delete('pontos');
  }
  await tx.objectStore('ajustes').put(conta, 'conta');
  await tx.done;
  return outra;
}
export const pontosGuardados = () => ajuste<PontoDeRetirada[]>('pontos');
export const guardarPontos = (pontos: readonly PontoDeRetirada[]) => guardarAjuste('pontos', pontos);
