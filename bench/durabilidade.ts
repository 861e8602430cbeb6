/**
 * `npm run bench:durabilidade [-- --transacoes N] [--rodadas R] [--pasta DIR]`
 *
 * What PRAGMA synchronous costs on this machine's disk, without HTTP (issue 39):
 * - the disk alone: N appends of 4 KiB to a file, each followed by fdatasync (what SQLite's unix
 *   VFS calls to sync the WAL) and by fsync, timed one by one;
 * - order-like transactions on a WAL database opened by the service's own opener
 *   (`abrirSqlite`), with FULL and with NORMAL: BEGIN IMMEDIATE, the order row, two lines, the
 *   stock counter, an audit row, COMMIT, one after the other, as the single connection runs them.
 * The two settings take turns, R rounds of N transactions each, each round on a new file; the
 * summary is the median of the rounds. Reported per transaction: wall time (median and p99),
 * transactions per second and this process's CPU (`process.cpuUsage()`): a sync is time waited
 * on the disk, not CPU, and node:sqlite waits for it on the main thread.
 *
 * The files go under --pasta, or the system's temporary folder: it must be on the disk the
 * database will live on (a tmpfs syncs nothing, and the script says so). Writes
 * bench/results/<date>-durabilidade.json.
 */
import {
  closeSync,
  fdatasyncSync,
  fsyncSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statfsSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { SINCRONIAS_SQLITE, type SincroniaSqlite } from '../src/config.ts';
import { abrirSqlite } from '../src/db/sqlite.ts';

const { values } = parseArgs({
  options: {
    transacoes: { type: 'string', default: '2000' },
    rodadas: { type: 'string', default: '3' },
    pasta: { type: 'string' },
  },
});
const TRANSACOES = Number(values.transacoes);
const RODADAS = Number(values.rodadas);
if (!Number.isInteger(TRANSACOES) || TRANSACOES < 10 || !Number.isInteger(RODADAS) || RODADAS < 1)
  throw new Error('uso: bench/durabilidade.ts --transacoes N (10 ou mais) --rodadas R (1 ou mais)');

/** statfs magic numbers of file systems that keep files in memory. */
const EM_MEMORIA: Readonly<Record<number, string>> = { 0x01021994: 'tmpfs', 0x858458f6: 'ramfs' };

const carga = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

function percentil(ordenados: readonly number[], p: number): number {
  return ordenados[Math.min(ordenados.length - 1, Math.floor((ordenados.length * p) / 100))] ?? 0;
}

const redondo = (x: number, casas = 1) => Math.round(x * 10 ** casas) / 10 ** casas;

interface Medida {
  readonly mediaUs: number;
  readonly p50Us: number;
  readonly p99Us: number;
  readonly porSegundo: number;
  readonly cpuUs: number;
}

/** Runs `passo` n times, timing each call; CPU is this process's, user plus system. */
function medir(n: number, passo: (i: number) => void): Medida {
  const tempos: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    passo(i);
    tempos.push((performance.now() - t) * 1000);
  }
  const totalMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  tempos.sort((a, b) => a - b);
  return {
    mediaUs: redondo((totalMs * 1000) / n),
    p50Us: redondo(percentil(tempos, 50)),
    p99Us: redondo(percentil(tempos, 99)),
    porSegundo: Math.round((n / totalMs) * 1000),
    cpuUs: redondo((cpu.user + cpu.system) / n),
  };
}

/** The disk alone: append 4 KiB, then sync, n times. */
function medirDisco(pasta: string, sincronizar: (fd: number) => void): Medida {
  const fd = openSync(join(pasta, 'disco.bin'), 'w');
  const bloco = Buffer.alloc(4096, 7);
  try {
    return medir(TRANSACOES, () => {
      writeSync(fd, bloco);
      sincronizar(fd);
    });
  } finally {
    closeSync(fd);
  }
}

const ESQUEMA = `
  CREATE TABLE estoque (id INTEGER PRIMARY KEY, quantidade INTEGER NOT NULL, reservado INTEGER NOT NULL);
  CREATE TABLE pedido (id INTEGER PRIMARY KEY, consumidor INTEGER NOT NULL, ciclo INTEGER NOT NULL,
    ponto INTEGER NOT NULL, total TEXT NOT NULL, criado TEXT NOT NULL);
  CREATE TABLE linha (id INTEGER PRIMARY KEY, pedido INTEGER NOT NULL REFERENCES pedido (id),
    item INTEGER NOT NULL, quantidade TEXT NOT NULL, valor TEXT NOT NULL);
  CREATE TABLE auditoria (id INTEGER PRIMARY KEY, acao TEXT NOT NULL, dados TEXT NOT NULL, criado TEXT NOT NULL);
  CREATE INDEX linha_pedido ON linha (pedido);
`;

/** One order-like transaction after another on a new WAL file, with the given setting. */
function medirTransacoes(caminho: string, sincronia: SincroniaSqlite): Medida {
  const db = abrirSqlite(caminho, sincronia);
  try {
    for (const comando of ESQUEMA.split(';').filter((c) => c.trim() !== '')) db.prepare(comando).run([]);
    for (let i = 1; i <= 6; i++) db.prepare('INSERT INTO estoque VALUES (?, ?, 0)').run([i, 1_000_000]);
    const comeco = db.prepare('BEGIN IMMEDIATE');
    const fim = db.prepare('COMMIT');
    const pedido = db.prepare(
      'INSERT INTO pedido (consumidor, ciclo, ponto, total, criado) VALUES (?, 1, ?, ?, ?) RETURNING id',
    );
    const linha = db.prepare('INSERT INTO linha (pedido, item, quantidade, valor) VALUES (?, ?, ?, ?)');
    const reserva = db.prepare('UPDATE estoque SET reservado = reservado + 1 WHERE id = ? AND reservado < quantidade');
    const auditoria = db.prepare('INSERT INTO auditoria (acao, dados, criado) VALUES (?, ?, ?)');
    return medir(TRANSACOES, (i) => {
      const agora = new Date().toISOString();
      comeco.run([]);
      const [p] = pedido.all([i % 5000, i % 12, '87.50', agora]) as Array<{ id: number }>;
      const id = p?.id ?? 0;
      linha.run([id, 1 + (i % 6), '1', '80.00']);
      linha.run([id, 100 + (i % 40), `0.${1 + (i % 9)}`, '7.50']);
      reserva.run([1 + (i % 6)]);
      auditoria.run(['pedido.salvar', JSON.stringify({ pedido: id, consumidor: i % 5000 }), agora]);
      fim.run([]);
    });
  } finally {
    db.close();
  }
}

function mediana(xs: readonly number[]): number {
  const o = [...xs].sort((a, b) => a - b);
  return o[Math.floor(o.length / 2)] ?? 0;
}

function resumo(ms: readonly Medida[]): Medida {
  return {
    mediaUs: mediana(ms.map((m) => m.mediaUs)),
    p50Us: mediana(ms.map((m) => m.p50Us)),
    p99Us: mediana(ms.map((m) => m.p99Us)),
    porSegundo: mediana(ms.map((m) => m.porSegundo)),
    cpuUs: mediana(ms.map((m) => m.cpuUs)),
  };
}

const raiz = values.pasta ?? tmpdir();
mkdirSync(raiz, { recursive: true });
const pasta = mkdtempSync(join(raiz, 'cestaria-durabilidade-'));
const tipoFs = statfsSync(pasta).type;
const cargaAntes = carga();
console.log(`Pasta: ${pasta} (statfs 0x${tipoFs.toString(16)}); carga (1, 5, 15 min): ${cargaAntes}`);
if (EM_MEMORIA[tipoFs] !== undefined)
  console.log(`AVISO: ${EM_MEMORIA[tipoFs]} guarda os arquivos na memória; nenhuma sincronia chega a um disco.`);

const rodadas: Array<{ rodada: number; variante: string; carga: string } & Medida> = [];
try {
  for (let r = 1; r <= RODADAS; r++) {
    // The order alternates between rounds, so neither setting always runs first.
    const ordem = r % 2 === 1 ? [...SINCRONIAS_SQLITE] : [...SINCRONIAS_SQLITE].reverse();
    const variantes: Array<[string, () => Medida]> = [
      ['disco: 4 KiB + fdatasync', () => medirDisco(pasta, fdatasyncSync)],
      ['disco: 4 KiB + fsync', () => medirDisco(pasta, fsyncSync)],
      ['disco: 4 KiB sem sincronia', () => medirDisco(pasta, () => undefined)],
      ...ordem.map((s): [string, () => Medida] => [
        `pedido em WAL, synchronous=${s}`,
        () => medirTransacoes(join(pasta, `r${r}-${s}.db`), s),
      ]),
    ];
    for (const [variante, fn] of variantes) {
      const m = fn();
      const linha = { rodada: r, variante, carga: carga(), ...m };
      rodadas.push(linha);
      console.log(
        `rodada ${r}, ${variante}: ${m.porSegundo}/s, média ${m.mediaUs} µs, p50 ${m.p50Us} µs, p99 ${m.p99Us} µs, CPU ${m.cpuUs} µs (carga ${linha.carga})`,
      );
    }
  }
} finally {
  rmSync(pasta, { recursive: true, force: true });
}

const nomes = [...new Set(rodadas.map((l) => l.variante))];
const resumos = nomes.map((variante) => ({ variante, ...resumo(rodadas.filter((l) => l.variante === variante)) }));
console.log(
  `\nMediana de ${RODADAS} rodadas de ${TRANSACOES}:\n\n| Variante | por segundo | média µs | p50 µs | p99 µs | CPU µs |\n|---|---|---|---|---|---|`,
);
for (const r of resumos)
  console.log(`| ${r.variante} | ${r.porSegundo} | ${r.mediaUs} | ${r.p50Us} | ${r.p99Us} | ${r.cpuUs} |`);
const [full, normal] = (['FULL', 'NORMAL'] as const).map((s) =>
  resumos.find((r) => r.variante === `pedido em WAL, synchronous=${s}`),
);
if (full !== undefined && normal !== undefined)
  console.log(
    `\nFULL custa ${redondo(full.mediaUs - normal.mediaUs)} µs a mais por transação (NORMAL faz ${redondo(normal.porSegundo / full.porSegundo, 2)} vezes as transações por segundo de FULL).`,
  );
const cargaDepois = carga();
console.log(`Carga (1, 5, 15 min) no fim: ${cargaDepois}`);

mkdirSync('bench/results', { recursive: true });
writeFileSync(
  join('bench/results', `${new Date().toISOString().slice(0, 10)}-durabilidade.json`),
  `${JSON.stringify({ transacoes: TRANSACOES, statfs: `0x${tipoFs.toString(16)}`, cargaAntes, cargaDepois, resumos, rodadas }, null, 2)}\n`,
);
