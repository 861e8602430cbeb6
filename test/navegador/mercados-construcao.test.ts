/**
 * The built Mercados client, without a browser: `npm install` left a shell and hashed assets in
 * dist/mercados, the face serves them (the shell under the strict CSP, the assets with a long
 * cache), and nothing in the shell needs an inline script.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import Fastify from 'fastify';
import { DESCRICOES_PERFIS, PROFILES } from '../../src/domain/politica-mercados.ts';
import { PASTA_CLIENTE, carregarCliente, rotasCliente } from '../../src/mercados/cliente.ts';
import { DESCRICOES_PERFIS as DESCRICOES_DO_CLIENTE, PERFIS as PERFIS_DO_CLIENTE } from '../../web/mercados/perfis.ts';
import { NOMES_FASES as FASES_DO_CLIENTE } from '../../web/mercados/ciclo-comum.ts';
import { NOMES_FASES } from '../../src/domain/ciclos/calendario.ts';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { contaComSessao } from '../mercados/apoio.ts';

const SHELL = join(PASTA_CLIENTE, 'index.html');

/** The value of one CSP directive, e.g. script-src → "'self'". */
function diretiva(csp: string, nome: string): string | undefined {
  return csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${nome} `))
    ?.slice(nome.length + 1);
}

describe('o cliente Mercados construído e servido', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
  });
  after(() => amb.fechar());

  test('a construção existe: o shell em pt-BR, sem script embutido, e cada asset que ele cita, com nome de hash', () => {
    assert.ok(existsSync(SHELL), `${SHELL} não existe: rode npm install`);
    const shell = readFileSync(SHELL, 'utf8');
    assert.match(shell, /<html lang="pt-BR">/);
    assert.doesNotMatch(shell, /<script(?![^>]*\bsrc=)[^>]*>/, 'nenhum script embutido');
    assert.doesNotMatch(shell, /\son[a-z]+=/i, 'nenhum tratador de evento embutido');
    const citados = [...shell.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1] ?? '');
    assert.ok(
      citados.some((c) => c.endsWith('.js')) && citados.some((c) => c.endsWith('.css')),
      `assets citados: ${citados.join(', ')}`,
    );
    for (const c of citados) {
      assert.match(c, /-[\w-]{8}\.(js|css)$/, `${c} leva o hash do conteúdo no nome`);
      assert.ok(existsSync(join(PASTA_CLIENTE, c)), `${c} existe`);
    }
  });

  test('o shell sai com a CSP estrita (scripts só da própria origem) em cada endereço do cliente', async () => {
    const anonimo = new Navegador();
    const logado = new Navegador();
    await contaComSessao(amb, logado, amb.urlMercados, { perfis: ['Consumidor'] });
    const shell = readFileSync(SHELL, 'utf8');
    const enderecos: Array<[Navegador, string]> = [
      [anonimo, '/'],
      [anonimo, '/unauthorized'],
      [anonimo, '/login?error=auth_failed'],
      [logado, '/dashboard'],
      [logado, '/mercados'],
      [logado, '/mercados/novo'],
      [logado, '/mercados/7'],
      [logado, '/mercados/7/editar'],
      [logado, '/mercados/7/precos'],
      [logado, '/usuarios'],
    ];
    for (const [nav, caminho] of enderecos) {
      const r = await nav.get(`${amb.urlMercados}${caminho}`, { seguir: false, headers: { accept: 'text/html' } });
      assert.equal(r.status, 200, caminho);
      assert.equal(r.texto, shell, `${caminho}: o shell construído`);
      assert.match(r.headers.get('content-type') ?? '', /^text\/html; charset=utf-8/);
      assert.equal(r.headers.get('cache-control'), 'no-store');
      const csp = r.headers.get('content-security-policy') ?? '';
      assert.equal(diretiva(csp, 'script-src'), "'self'", `${caminho}: ${csp}`);
      assert.equal(diretiva(csp, 'default-src'), "'self'");
      assert.equal(diretiva(csp, 'script-src-attr'), "'none'");
    }
  });

  test('os assets saem com o tipo certo e cache longo e imutável; um nome desconhecido é 404', async () => {
    const nav = new Navegador();
    const cliente = carregarCliente();
    assert.ok(cliente.assets.size >= 2);
    for (const [nome, arquivo] of cliente.assets) {
      const r = await nav.get(`${amb.urlMercados}/assets/${nome}`);
      assert.equal(r.status, 200, nome);
      assert.equal(r.headers.get('content-type'), arquivo.tipo);
      assert.equal(r.headers.get('cache-control'), 'public, max-age=31536000, immutable');
      assert.equal(Buffer.byteLength(r.texto), arquivo.conteudo.length);
    }
    assert.equal((await nav.get(`${amb.urlMercados}/assets/nao-existe-12345678.js`)).status, 404);
    assert.equal((await nav.get(`${amb.urlMercados}/assets/..%2Fpackage.json`)).status, 404);
  });

  test('um id que não é número numa página de mercado é 400, mesmo logado', async () => {
    const nav = new Navegador();
    await contaComSessao(amb, nav, amb.urlMercados);
    const r = await nav.get(`${amb.urlMercados}/mercados/abc/precos`, { headers: { accept: 'text/html' } });
    assert.equal(r.status, 400);
  });

  test('os perfis do cliente são os do domínio, com as mesmas descrições', () => {
    assert.deepEqual([...PERFIS_DO_CLIENTE], [...PROFILES]);
    assert.deepEqual(DESCRICOES_DO_CLIENTE, DESCRICOES_PERFIS);
  });

  test('as fases do ciclo têm no cliente os mesmos nomes que na face Cestas', () => {
    assert.deepEqual(FASES_DO_CLIENTE, NOMES_FASES);
  });

  test('sem construção: fora de produção o shell explica o que rodar (503); em produção a face não sobe', async () => {
    const vazio = carregarCliente(mkdtempSync(join(tmpdir(), 'cestaria-sem-cliente-')));
    assert.equal(vazio.shell, null);
    const app = Fastify();
    rotasCliente(app, vazio, { producao: false, log: app.log });
    const r = await app.inject({ method: 'GET', url: '/' });
    assert.equal(r.statusCode, 503);
    assert.match(r.body, /npm install/);
    await app.close();
    const producao = Fastify();
    assert.throws(() => rotasCliente(producao, vazio, { producao: true, log: producao.log }), /não foi construído/);
    await producao.close();
  });
});
