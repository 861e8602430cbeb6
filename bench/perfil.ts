/**
 * Reads the V8 CPU profiles the server wrote with `--cpu-prof` and sums self time by function and
 * by package or source file, so the summary can show where the time went.
 * `node bench/perfil.ts DIR` prints the summary of the profiles in DIR.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface No {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface PerfilV8 {
  readonly nodes: readonly No[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

export interface Parte {
  readonly nome: string;
  readonly ms: number;
  readonly porcento: number;
}

export interface ResumoDoPerfil {
  readonly totalMs: number;
  readonly funcoes: Parte[];
  readonly areas: Parte[];
  /**
   * Every sample given to the innermost function of ours on its stack, outside src/db (the
   * drivers' wrappers): what each of our functions costs with the library and database work it
   * asks for (Kysely building a query, a statement running), a partition of the whole.
   */
  readonly chamadores: Parte[];
}

/** Where a frame lives: an npm package, a file of ours, or V8's own bucket ("(garbage collector)"). */
function area(url: string, nome: string): string {
  if (url === '') return nome.startsWith('(') ? nome : '(nativo)';
  const pacote = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pacote?.[1] !== undefined) return pacote[1];
  const nosso = /\/((?:src|bench)\/.+)$/.exec(url);
  if (nosso?.[1] !== undefined) return nosso[1];
  if (url.startsWith('node:')) return url;
  return url.split('/').slice(-2).join('/');
}

function ordenar(m: Map<string, number>, total: number, n: number): Parte[] {
  return [...m.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, n)
    .map(([nome, us]) => ({ nome, ms: Math.round(us / 1000), porcento: Math.round((us / total) * 1000) / 10 }));
}

/** Sums the self time of every profile in `pasta`, leaving the idle time out. */
export function resumirPerfis(pasta: string, n = 15): ResumoDoPerfil | null {
  const arquivos = readdirSync(pasta).filter((a) => a.endsWith('.cpuprofile'));
  if (arquivos.length === 0) return null;
  const porFuncao = new Map<string, number>();
  const porArea = new Map<string, number>();
  const porChamador = new Map<string, number>();
  let total = 0;
  for (const arquivo of arquivos) {
    const p = JSON.parse(readFileSync(join(pasta, arquivo), 'utf8')) as PerfilV8;
    const nos = new Map(p.nodes.map((no) => [no.id, no]));
    const pai = new Map<number, number>();
    for (const no of p.nodes) for (const filho of no.children ?? []) pai.set(filho, no.id);
    const chamador = new Map<number, string>();
    const nossoChamador = (id: number): string => {
      const visto = chamador.get(id);
      if (visto !== undefined) return visto;
      const no = nos.get(id);
      const f = no?.callFrame;
      const nosso = f === undefined ? null : /\/(src\/.+)$/.exec(f.url)?.[1];
      const pid = pai.get(id);
      const r =
        f !== undefined && nosso !== undefined && nosso !== null && !nosso.startsWith('src/db/')
          ? `${f.functionName || '(anônima)'} ${nosso}:${f.lineNumber + 1}`
          : pid === undefined
            ? '(fora do nosso código)'
            : nossoChamador(pid);
      chamador.set(id, r);
      return r;
    };
    p.samples.forEach((id, i) => {
      const no = nos.get(id);
      const us = p.timeDeltas[i] ?? 0;
      if (no === undefined || no.callFrame.functionName === '(idle)') return;
      const { functionName, url, lineNumber } = no.callFrame;
      const onde = area(url, functionName);
      const nome = `${functionName || '(anônima)'} ${onde}${url === '' ? '' : `:${lineNumber + 1}`}`;
      porFuncao.set(nome, (porFuncao.get(nome) ?? 0) + us);
      porArea.set(onde, (porArea.get(onde) ?? 0) + us);
      const quem = nossoChamador(id);
      porChamador.set(quem, (porChamador.get(quem) ?? 0) + us);
      total += us;
    });
  }
  return {
    totalMs: Math.round(total / 1000),
    funcoes: ordenar(porFuncao, total, n),
    areas: ordenar(porArea, total, n),
    chamadores: ordenar(porChamador, total, n),
  };
}

if (import.meta.main) {
  const pasta = process.argv[2];
  if (pasta === undefined) throw new Error('uso: node bench/perfil.ts PASTA');
  const r = resumirPerfis(pasta, 25);
  if (r === null) throw new Error(`nenhum .cpuprofile em ${pasta}`);
  console.log(`Tempo de CPU fora do ocioso: ${r.totalMs} ms`);
  console.table(r.areas);
  console.table(r.funcoes);
  console.table(r.chamadores);
}
