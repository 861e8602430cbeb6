/**
 * No role check at the edges: the faces' routes, views, resources and resolvers (everything under
 * src/cestas and src/mercados) ask the policy for a named action (`pode`, `podeNoRegistro`,
 * `podeSerDono`, `podeMercados`, `acoes…`), never a person's roles. The role predicates
 * (`ehMaster`, `ehGestor`, `veTudo`…) and membership tests on `perfil`/`profiles` belong to the
 * policy modules (src/domain/acesso.ts, src/domain/politica-mercados.ts) and to domain rules.
 *
 * MECANISMOS names the two edge files that implement the contract's profile checks themselves:
 * the hasProfile/hasAnyProfile middleware and GraphQL context (spec, section 5), and the @auth
 * directive, whose lists the schema checks against the policy table when it is built.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const SRC = resolve(import.meta.dirname, '../../src');
const BORDAS = ['cestas', 'mercados'];
const MECANISMOS = new Set(['mercados/acesso.ts', 'mercados/graphql/acesso.ts']);

/** What deciding by a role looks like in code. */
const CHECAGENS_DE_PAPEL: ReadonlyArray<readonly [nome: string, padrao: RegExp]> = [
  [
    'predicado de papel',
    /\b(ehMaster|ehGestor|ehAdmin|ehAdministrador|ehConsumidor|ehFornecedor|ehInfo|veTudo|temPerfil)\b/,
  ],
  ['perfis do contrato', /\b(hasProfile|hasAnyProfile)\s*\(/],
  [
    'teste de pertença nos papéis',
    /\b(perfil|profiles|papeis)\s*\??\.\s*(includes|some|every|indexOf|find|findIndex|has)\s*\(/,
  ],
];

function arquivosTs(pasta: string): string[] {
  return readdirSync(pasta).flatMap((n) => {
    const p = join(pasta, n);
    if (statSync(p).isDirectory()) return arquivosTs(p);
    return p.endsWith('.ts') ? [p] : [];
  });
}

/** The code without its comments (line by line; a comment may name a predicate to explain it). */
function semComentarios(texto: string): string[] {
  return texto
    .replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '))
    .split('\n')
    .map((linha) => linha.replace(/(^|[^:'"`])\/\/.*$/, '$1'));
}

/** Every role check in the faces' files, as "file:line: kind: code". */
function checagensNasBordas(raiz = SRC): string[] {
  const achadas: string[] = [];
  for (const pasta of BORDAS) {
    for (const arquivo of arquivosTs(join(raiz, pasta))) {
      const nome = relative(raiz, arquivo);
      if (MECANISMOS.has(nome)) continue;
      semComentarios(readFileSync(arquivo, 'utf8')).forEach((linha, i) => {
        for (const [tipo, padrao] of CHECAGENS_DE_PAPEL) {
          if (padrao.test(linha)) achadas.push(`${nome}:${i + 1}: ${tipo}: ${linha.trim()}`);
        }
      });
    }
  }
  return achadas;
}

test('rotas, páginas, recursos e resolvers das duas faces não decidem por papel: pedem uma ação da política', () => {
  assert.deepEqual(
    checagensNasBordas(),
    [],
    'troque cada uma por uma ação nomeada em src/domain/acesso.ts ou src/domain/politica-mercados.ts',
  );
});

test('o leitor de bordas reconhece cada forma de decidir por papel, e ignora comentários', () => {
  const casos: ReadonlyArray<readonly [string, boolean]> = [
    ['podeReabrir: ehMaster(ator),', true],
    ["import { ehGestor, pode } from '../../domain/acesso.ts';", true],
    ['if (veTudo(ator)) q = q.where(x);', true],
    ["if (!c.ativo && !atorDe(ctx).profiles.includes('Administrador')) return null;", true],
    ["const admin = conta.profiles.some((p) => p === 'Administrador');", true],
    ["ator.perfil?.includes('consumidor')", true],
    ["config: { guarda: hasAnyProfile(['Administrador']) }", true],
    ["podeReabrir: pode(ator, 'cicloReabrir'),", false],
    ["desabilitada: p === 'master' && !pode(ator, 'masterConceder')", false],
    ['// ehGestor(ator) decided this before', false],
    ['/* veTudo */ const x = 1;', false],
    ["const perfis = ator.perfil.map((p) => NOMES_PERFIS[p]).join(', ');", false],
  ];
  for (const [codigo, esperado] of casos) {
    const linha = semComentarios(codigo)[0] ?? '';
    assert.equal(
      CHECAGENS_DE_PAPEL.some(([, p]) => p.test(linha)),
      esperado,
      codigo,
    );
  }
});
