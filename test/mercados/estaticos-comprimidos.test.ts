/**
 * Static files over real HTTP, on both faces: the Mercados client's hashed assets (with the .br and
 * .gz copies its build writes) and the Cestas face's /static/ files go out brotli or gzip as the
 * request's Accept-Encoding allows, with Vary, their type, length and cache, ETag and 304, HEAD,
 * and nothing reachable outside the files they were read from.
 *
 * node:http, not fetch: fetch asks for compression on its own and hides the bytes that came.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { after, before, describe, test } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { codificacoesAceitas } from '../../src/http/estaticos.ts';
import { CACHE_IMUTAVEL, PASTA_CLIENTE, carregarCliente, rotasCliente } from '../../src/mercados/cliente.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface RespostaBruta {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly corpo: Buffer;
}

/** One request with exactly these headers, the path sent as written (no normalising of `..`). */
function pedir(
  base: string,
  caminho: string,
  headers: Record<string, string> = {},
  metodo = 'GET',
): Promise<RespostaBruta> {
  const { hostname, port } = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ hostname, port, path: caminho, method: metodo, headers }, (res) => {
      const partes: Buffer[] = [];
      res.on('data', (p: Buffer) => partes.push(p));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, corpo: Buffer.concat(partes) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

function cabecalho(r: RespostaBruta, nome: string): string | undefined {
  const v = r.headers[nome];
  return Array.isArray(v) ? v.join(', ') : v;
}

/** The checks every answer with a body shares: its encoding, the bytes decoding to the file, the length, Vary. */
function conferirCorpo(r: RespostaBruta, original: Buffer, codificacao: 'br' | 'gzip' | null, onde: string): void {
  assert.equal(r.status, 200, onde);
  assert.equal(cabecalho(r, 'content-encoding'), codificacao ?? undefined, `${onde}: content-encoding`);
  assert.equal(cabecalho(r, 'vary'), 'Accept-Encoding', `${onde}: vary`);
  assert.equal(Number(cabecalho(r, 'content-length')), r.corpo.length, `${onde}: content-length`);
  const decodificado =
    codificacao === 'br' ? brotliDecompressSync(r.corpo) : codificacao === 'gzip' ? gunzipSync(r.corpo) : r.corpo;
  assert.ok(decodificado.equals(original), `${onde}: o conteúdo do arquivo`);
  if (codificacao !== null)
    assert.ok(r.corpo.length < original.length * 0.6, `${onde}: ${r.corpo.length} de ${original.length} bytes`);
}

describe('arquivos estáticos pré-comprimidos, pelas duas faces', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
  });
  after(() => amb.fechar());

  test('a construção do cliente deixa um .br e um .gz ao lado de cada script e folha de estilo, e o servidor os envia como estão', async () => {
    const cliente = carregarCliente();
    const nomes = [...cliente.assets.keys()].filter((n) => /\.(js|css)$/.test(n));
    assert.ok(
      nomes.some((n) => n.endsWith('.css')) && nomes.filter((n) => n.endsWith('.js')).length >= 2,
      nomes.join(', '),
    );
    for (const nome of nomes) {
      const caminho = join(PASTA_CLIENTE, 'assets', nome);
      assert.ok(existsSync(`${caminho}.br`) && existsSync(`${caminho}.gz`), `${nome}: .br e .gz`);
      const original = readFileSync(caminho);
      const br = await pedir(amb.urlMercados, `/assets/${nome}`, { 'accept-encoding': 'gzip, deflate, br, zstd' });
      conferirCorpo(br, original, 'br', `${nome} (br)`);
      assert.ok(br.corpo.equals(readFileSync(`${caminho}.br`)), `${nome}: o .br da construção`);
      assert.equal(cabecalho(br, 'content-type'), cliente.assets.get(nome)?.tipo);
      assert.equal(cabecalho(br, 'cache-control'), CACHE_IMUTAVEL);
    }
  });

  test('cada codificação conforme o Accept-Encoding: brotli antes de gzip, q=0 recusa, sem cabeçalho o arquivo como está', async () => {
    const cliente = carregarCliente();
    const nome = [...cliente.assets.keys()].find((n) => n.startsWith('index-') && n.endsWith('.js')) ?? '';
    const original = cliente.assets.get(nome)?.conteudo ?? Buffer.alloc(0);
    const casos: Array<[Record<string, string>, 'br' | 'gzip' | null]> = [
      [{ 'accept-encoding': 'br' }, 'br'],
      [{ 'accept-encoding': 'gzip, br' }, 'br'],
      [{ 'accept-encoding': 'gzip' }, 'gzip'],
      [{ 'accept-encoding': 'br;q=0, gzip;q=0.5' }, 'gzip'],
      [{ 'accept-encoding': '*' }, 'br'],
      [{ 'accept-encoding': 'identity' }, null],
      [{ 'accept-encoding': 'deflate, br;q=0, gzip;q=0' }, null],
      [{}, null],
    ];
    for (const [headers, esperada] of casos) {
      const r = await pedir(amb.urlMercados, `/assets/${nome}`, headers);
      conferirCorpo(r, original, esperada, JSON.stringify(headers));
      assert.equal(cabecalho(r, 'content-type'), 'text/javascript; charset=utf-8');
      assert.equal(cabecalho(r, 'cache-control'), 'public, max-age=31536000, immutable');
    }
  });

  test('HEAD dá os cabeçalhos da variante sem o corpo; If-None-Match com o ETag da variante é 304', async () => {
    const cliente = carregarCliente();
    const nome = [...cliente.assets.keys()].find((n) => n.endsWith('.css')) ?? '';
    const caminho = `/assets/${nome}`;
    const get = await pedir(amb.urlMercados, caminho, { 'accept-encoding': 'br' });
    const head = await pedir(amb.urlMercados, caminho, { 'accept-encoding': 'br' }, 'HEAD');
    assert.equal(head.status, 200);
    assert.equal(head.corpo.length, 0);
    for (const h of ['content-encoding', 'content-length', 'content-type', 'vary', 'cache-control', 'etag'])
      assert.equal(cabecalho(head, h), cabecalho(get, h), h);

    const etagBr = cabecalho(get, 'etag') ?? '';
    const etagGzip = cabecalho(await pedir(amb.urlMercados, caminho, { 'accept-encoding': 'gzip' }), 'etag') ?? '';
    const etagBruto = cabecalho(await pedir(amb.urlMercados, caminho), 'etag') ?? '';
    assert.match(etagBr, /^"[\w-]+"$/);
    assert.equal(new Set([etagBr, etagGzip, etagBruto]).size, 3, 'um ETag forte por variante');

    const igual = await pedir(amb.urlMercados, caminho, {
      'accept-encoding': 'br',
      'if-none-match': `"outro", ${etagBr}`,
    });
    assert.equal(igual.status, 304);
    assert.equal(igual.corpo.length, 0);
    assert.equal(cabecalho(igual, 'etag'), etagBr);
    assert.equal(cabecalho(igual, 'vary'), 'Accept-Encoding');
    assert.equal(cabecalho(igual, 'cache-control'), CACHE_IMUTAVEL);
    // The brotli copy's ETag does not stand for the gzip bytes.
    conferirCorpo(
      await pedir(amb.urlMercados, caminho, { 'accept-encoding': 'gzip', 'if-none-match': etagBr }),
      cliente.assets.get(nome)?.conteudo ?? Buffer.alloc(0),
      'gzip',
      'gzip com o ETag do br',
    );
  });

  test('um arquivo que não existe é 404, e nenhum caminho sai da pasta, nem as cópias .br/.gz são arquivos à parte', async () => {
    const cliente = carregarCliente();
    const nome = [...cliente.assets.keys()].find((n) => n.endsWith('.js')) ?? '';
    const tentativas = [
      '/assets/nao-existe-12345678.js',
      `/assets/${nome}.br`,
      `/assets/${nome}.gz`,
      '/assets/..%2F..%2Fpackage.json',
      '/assets/%2e%2e%2f%2e%2e%2fpackage.json',
      '/assets/../../package.json',
      '/assets/..%5C..%5Cpackage.json',
      '/assets/%2e%2e/index.html',
      '/assets/',
      '/static/..%2F..%2F..%2Fpackage.json',
    ];
    for (const caminho of tentativas) {
      const r = await pedir(amb.urlMercados, caminho, { 'accept-encoding': 'br, gzip', accept: 'application/json' });
      assert.ok(r.status === 404 || r.status === 400, `${caminho}: ${r.status}`);
      assert.doesNotMatch(r.corpo.toString('latin1'), /"name": "cestaria"|<div id="raiz">/, caminho);
    }
    for (const caminho of [
      '/static/..%2F..%2F..%2Fpackage.json',
      '/static/%2e%2e%2fapp.ts',
      '/static/nao-existe.css',
    ]) {
      const r = await pedir(amb.url, caminho, { 'accept-encoding': 'br, gzip', accept: 'application/json' });
      assert.equal(r.status, 404, caminho);
    }
  });

  test('a face Cestas e as folhas de estilo do servidor saem do mesmo jeito, com cache de uma hora (os nomes não mudam com o conteúdo)', async () => {
    const arquivos: Array<[string, string, string]> = [
      [amb.url, '/static/estilo.css', 'text/css; charset=utf-8'],
      [amb.url, '/static/formularios.js', 'text/javascript; charset=utf-8'],
      [amb.url, '/static/ciclo.js', 'text/javascript; charset=utf-8'],
      [amb.url, '/static/pix.js', 'text/javascript; charset=utf-8'],
      [amb.urlMercados, '/static/estilo.css', 'text/css; charset=utf-8'],
    ];
    for (const [base, caminho, tipo] of arquivos) {
      const original = (await pedir(base, caminho)).corpo;
      assert.ok(original.length > 1000, `${caminho}: ${original.length} bytes`);
      for (const [aceita, esperada] of [
        ['br, gzip', 'br'],
        ['gzip', 'gzip'],
        ['', null],
      ] as const) {
        const r = await pedir(base, caminho, aceita === '' ? {} : { 'accept-encoding': aceita });
        conferirCorpo(r, original, esperada, `${base}${caminho} ${aceita}`);
        assert.equal(cabecalho(r, 'content-type'), tipo);
        assert.equal(cabecalho(r, 'cache-control'), 'public, max-age=3600');
      }
    }
    const icone = await pedir(amb.url, '/favicon.ico', { 'accept-encoding': 'br' });
    assert.equal(icone.status, 200);
    assert.equal(cabecalho(icone, 'content-type'), 'image/svg+xml');
    assert.equal(cabecalho(icone, 'vary'), 'Accept-Encoding');
  });

  test('uma construção sem as cópias (feita antes delas) ainda sai comprimida: a variante é feita no primeiro pedido', async () => {
    const pasta = mkdtempSync(join(tmpdir(), 'cestaria-cliente-sem-copias-'));
    mkdirSync(join(pasta, 'assets'));
    writeFileSync(join(pasta, 'index.html'), '<!doctype html><html lang="pt-BR"><title>x</title></html>');
    const script = Buffer.from(`export const texto = ${JSON.stringify('Cestaria Mercados. '.repeat(200))};\n`);
    writeFileSync(join(pasta, 'assets', 'sem-copias-a1b2c3d4.js'), script);
    const app = Fastify();
    rotasCliente(app, carregarCliente(pasta), { producao: false, log: app.log });
    for (const [aceita, esperada] of [
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['identity', undefined],
    ] as const) {
      const r = await app.inject({
        method: 'GET',
        url: '/assets/sem-copias-a1b2c3d4.js',
        headers: { 'accept-encoding': aceita },
      });
      assert.equal(r.statusCode, 200);
      assert.equal(r.headers['content-encoding'], esperada, aceita);
      const corpo = r.rawPayload;
      const decodificado =
        esperada === 'br' ? brotliDecompressSync(corpo) : esperada === 'gzip' ? gunzipSync(corpo) : corpo;
      assert.ok(decodificado.equals(script), aceita);
      if (esperada !== undefined) assert.ok(corpo.length < script.length / 10, `${aceita}: ${corpo.length} bytes`);
    }
    await app.close();
  });

  test('a leitura do Accept-Encoding: pesos, curinga, maiúsculas e x-gzip', () => {
    const ler = (c: string | undefined) => [...codificacoesAceitas(c)].sort();
    assert.deepEqual(ler(undefined), []);
    assert.deepEqual(ler(''), []);
    assert.deepEqual(ler('GZIP, BR'), ['br', 'gzip']);
    assert.deepEqual(ler('x-gzip'), ['gzip']);
    assert.deepEqual(ler('*;q=0.1, br;q=0'), ['gzip']);
    assert.deepEqual(ler('br;q=0.001'), ['br']);
    assert.deepEqual(ler('br;q=abc, gzip ; q=1.0'), ['gzip']);
    assert.deepEqual(ler('identity;q=1, *;q=0'), []);
  });
});
