/**
 * The shape of src/, read from its import statements (type imports included: a type that crosses
 * a boundary ties the two sides as much as a value does):
 * - no import circles;
 * - arrows point inward (docs/decisions.md, "Camadas"): the faces (cestas, mercados) import
 *   neither each other nor anything that imports them back; mensagens imports no face; the domain
 *   imports no face, no HTTP and no wiring; the report files (planilhas) import no face and no HTTP; the commands (src/comandos) import only the domain
 *   and decimal.ts; db imports nothing above it (migrations import nothing of the application at
 *   all); config imports only the root leaves (decimal.ts, email.ts, pix-chave.ts), which import
 *   nothing of the application but each other.
 *
 * PENDENTES lists what is still to be undone. The test fails on anything new, and on a pending
 * entry that no longer exists (so the list only shrinks, and ends empty).
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const RAIZ = resolve(import.meta.dirname, '../../src');

function arquivosTs(pasta: string): string[] {
  return readdirSync(pasta).flatMap((n) => {
    const p = join(pasta, n);
    if (statSync(p).isDirectory()) return arquivosTs(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** Every relative import of every file (static, re-exports and dynamic), as paths relative to src/. */
function grafo(): Map<string, string[]> {
  const arquivos = arquivosTs(RAIZ);
  const conhecidos = new Set(arquivos);
  const g = new Map<string, string[]>();
  for (const a of arquivos) {
    const texto = readFileSync(a, 'utf8');
    const alvos = new Set<string>();
    for (const m of texto.matchAll(/(?:^|\n)\s*(?:import|export)\s+[^'";]*?from\s+'(\.[^']+)'/g))
      alvos.add(resolve(dirname(a), m[1] ?? ''));
    for (const m of texto.matchAll(/import\(\s*'(\.[^']+)'\s*\)/g)) alvos.add(resolve(dirname(a), m[1] ?? ''));
    g.set(
      relative(RAIZ, a),
      [...alvos]
        .filter((x) => conhecidos.has(x))
        .map((x) => relative(RAIZ, x))
        .sort(),
    );
  }
  return g;
}

/** The strongly connected components with more than one file (Tarjan), each sorted, as "a ↔ b ↔ c". */
function circulos(g: Map<string, string[]>): string[] {
  let proximo = 0;
  const indice = new Map<string, number>();
  const baixo = new Map<string, number>();
  const pilha: string[] = [];
  const naPilha = new Set<string>();
  const achados: string[] = [];
  const visitar = (v: string): void => {
    indice.set(v, proximo);
    baixo.set(v, proximo);
    proximo++;
    pilha.push(v);
    naPilha.add(v);
    for (const w of g.get(v) ?? []) {
      if (!indice.has(w)) {
        visitar(w);
        baixo.set(v, Math.min(baixo.get(v) ?? 0, baixo.get(w) ?? 0));
      } else if (naPilha.has(w)) baixo.set(v, Math.min(baixo.get(v) ?? 0, indice.get(w) ?? 0));
    }
    if (baixo.get(v) !== indice.get(v)) return;
    const componente: string[] = [];
    let w: string | undefined;
    do {
      w = pilha.pop();
      if (w !== undefined) {
        naPilha.delete(w);
        componente.push(w);
      }
    } while (w !== undefined && w !== v);
    if (componente.length > 1) achados.push(componente.sort().join(' ↔ '));
  };
  for (const v of [...g.keys()].sort()) if (!indice.has(v)) visitar(v);
  return achados.sort();
}

/** Where a file lives: its first folder under src/, or the file itself at the top. */
const camada = (arquivo: string): string => arquivo.split('/')[0] ?? arquivo;

/** The root modules below the configuration: they import nothing of the application but each other. */
const FOLHAS = ['decimal.ts', 'email.ts', 'pix-chave.ts'];

/** Why an arrow points the wrong way, or null when it may exist. */
function setaProibida(de: string, para: string): string | null {
  const [a, b] = [camada(de), camada(para)];
  const faces = ['cestas', 'mercados'];
  if (faces.includes(a) && faces.includes(b) && a !== b) return 'uma face não lê a outra';
  if (a === 'mensagens' && faces.includes(b)) return 'as mensagens ficam abaixo das faces';
  if (a === 'planilhas' && [...faces, 'mensagens', 'http'].includes(b))
    return 'as planilhas (CSV, XLSX) ficam abaixo das faces: leem o modelo dos relatórios';
  if (
    a === 'domain' &&
    [...faces, 'mensagens', 'http', 'servicos.ts', 'idp', 'demo', 'main.ts', 'cluster.ts'].includes(b)
  )
    return 'o domínio não conhece a borda';
  if (de.startsWith('db/migrations/') && !para.startsWith('db/migrations/'))
    return 'uma migração não importa a aplicação';
  if (
    a === 'db' &&
    !de.startsWith('db/migrations/') &&
    [...faces, 'mensagens', 'http', 'domain', 'servicos.ts'].includes(b)
  )
    return 'o banco fica abaixo do domínio';
  if (a === 'http' && faces.includes(b)) return 'a borda comum não conhece as faces';
  if (a === 'comandos' && !['comandos', 'domain', 'decimal.ts'].includes(b))
    return 'os comandos ficam abaixo das faces: leem só o domínio';
  if (a === 'config.ts' && !FOLHAS.includes(b)) return 'a configuração é lida antes de tudo';
  if (FOLHAS.includes(a) && !FOLHAS.includes(b)) return 'um módulo-folha da raiz não importa a aplicação';
  return null;
}

/** What is still to be undone (issue 35): each entry must still exist, or leave this list. */
const PENDENTES: readonly string[] = [];

test('src/ sem círculos de importação nem setas para fora das camadas (além das pendentes, que só diminuem)', () => {
  const g = grafo();
  assert.ok(g.size > 100, `leu ${g.size} arquivos`);
  const achados = [
    ...circulos(g).map((c) => `circulo: ${c}`),
    ...[...g].flatMap(([de, alvos]) =>
      alvos.filter((para) => setaProibida(de, para) !== null).map((para) => `seta: ${de} → ${para}`),
    ),
  ].sort();
  const novos = achados.filter((a) => !PENDENTES.includes(a));
  assert.deepEqual(
    novos,
    [],
    `círculos ou setas novas: ${novos.map((n) => `${n} (${n.startsWith('seta') ? setaProibida(n.slice(6).split(' → ')[0] ?? '', n.split(' → ')[1] ?? '') : 'um círculo'})`).join('; ')}`,
  );
  const resolvidos = PENDENTES.filter((p) => !achados.includes(p));
  assert.deepEqual(resolvidos, [], 'já resolvidos: tire-os de PENDENTES');
});

test('o detector acha um círculo e uma seta proibida quando eles existem', () => {
  const g = new Map([
    ['domain/a.ts', ['domain/b.ts']],
    ['domain/b.ts', ['domain/a.ts', 'http/x.ts']],
    ['http/x.ts', []],
  ]);
  assert.deepEqual(circulos(g), ['domain/a.ts ↔ domain/b.ts']);
  assert.equal(setaProibida('domain/b.ts', 'http/x.ts'), 'o domínio não conhece a borda');
  assert.equal(setaProibida('mercados/graphql/fluxo.ts', 'cestas/entrada.ts'), 'uma face não lê a outra');
  assert.equal(setaProibida('cestas/rotas/x.ts', 'domain/pedidos.ts'), null);
  assert.equal(
    setaProibida('comandos/pedido.ts', 'http/campos.ts'),
    'os comandos ficam abaixo das faces: leem só o domínio',
  );
  assert.equal(setaProibida('mercados/graphql/fluxo.ts', 'comandos/pedido.ts'), null);
});
