/**
 * REDIS_URL: login attempts counted in a real Redis, shared by every process that points at it,
 * and a fall-back to the database when Redis is down. CI starts Redis and sets TEST_REDIS_URL;
 * elsewhere these tests skip when it is not set.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { createClient } from '@redis/client';
import { limitadorNoRedis } from '../../src/db/redis.ts';
import { abrirBanco, migrar, type Banco } from '../../src/db/banco.ts';
import { limitadorNoBanco, type Limitador } from '../../src/db/limites.ts';
import { DIALETO, bancoNovo } from '../helpers/banco.ts';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente } from '../helpers/servidor.ts';

const URL_REDIS = process.env.TEST_REDIS_URL;
if (process.env.CI === 'true' && (URL_REDIS === undefined || URL_REDIS === ''))
  throw new Error('CI=true exige TEST_REDIS_URL');
const pular =
  URL_REDIS === undefined || URL_REDIS === '' ? 'defina TEST_REDIS_URL para rodar os testes com Redis' : false;

describe('tentativas de login contadas no Redis', { skip: pular }, () => {
  let banco: Banco;
  const abertos: Limitador[] = [];
  const avisos: string[] = [];
  const novo = async (url = URL_REDIS ?? '') => {
    const l = await limitadorNoRedis(url, limitadorNoBanco(banco), (m) => avisos.push(m));
    abertos.push(l);
    return l;
  };

  before(async () => {
    banco = abrirBanco(await bancoNovo());
    await migrar(banco, DIALETO);
  });
  after(async () => {
    for (const l of abertos) await l.fechar();
    await banco.destroy();
  });

  test('conta atomicamente por chave, numa janela fixa, somando processos diferentes', async () => {
    const a = await novo();
    const b = await novo();
    const chave = `teste:${randomBytes(6).toString('hex')}`;
    const agora = new Date();
    // 20 attempts at once, split over two clients (two processes): counts 1..20 each exactly once.
    const r = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? a : b).contar(chave, 5, 60_000, agora)),
    );
    assert.deepEqual(
      r.map((t) => t.contagem).sort((x, y) => x - y),
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    assert.equal(r.filter((t) => t.permitido).length, 5);
    for (const t of r) assert.ok(t.fimDaJanela > agora.getTime() + 55_000 && t.fimDaJanela <= agora.getTime() + 60_000);
    // Another key has its own count.
    assert.equal((await a.contar(`${chave}:outra`, 5, 60_000, agora)).contagem, 1);
    // Nothing went to the database.
    const linhas = await banco.selectFrom('limitetentativa').selectAll().where('chave', 'like', 'teste:%').execute();
    assert.deepEqual(linhas, []);
    const redis = createClient({ url: URL_REDIS ?? '' });
    await redis.connect();
    try {
      assert.equal(await redis.get(`cestaria:tentativas:${chave}`), '20');
      const ttl = await redis.pTTL(`cestaria:tentativas:${chave}`);
      assert.ok(ttl > 55_000 && ttl <= 60_000, `a chave expira com a janela (${ttl} ms)`);
    } finally {
      redis.destroy();
    }
  });

  test('quando a janela acaba, a contagem recomeça', async () => {
    const l = await novo();
    const chave = `teste:${randomBytes(6).toString('hex')}`;
    // A window long enough that a loaded machine cannot let it lapse between the first two calls.
    assert.equal((await l.contar(chave, 1, 1000, new Date())).permitido, true);
    assert.equal((await l.contar(chave, 1, 1000, new Date())).permitido, false);
    await new Promise((r) => setTimeout(r, 1200));
    const depois = await l.contar(chave, 1, 1000, new Date());
    assert.equal(depois.contagem, 1);
    assert.equal(depois.permitido, true);
  });

  test('com o Redis fora do ar, conta no banco e avisa uma vez', async () => {
    avisos.length = 0;
    const l = await novo('redis://127.0.0.1:1');
    const chave = `teste:${randomBytes(6).toString('hex')}`;
    const r = [];
    for (let i = 0; i < 4; i++) r.push(await l.contar(chave, 3, 60_000, new Date()));
    assert.deepEqual(
      r.map((t) => [t.contagem, t.permitido]),
      [
        [1, true],
        [2, true],
        [3, true],
        [4, false],
      ],
    );
    const linha = await banco.selectFrom('limitetentativa').selectAll().where('chave', '=', chave).executeTakeFirst();
    assert.equal(linha?.contagem, 4, 'a contagem ficou no banco');
    assert.equal(avisos.length, 1, avisos.join(' | '));
  });
});

describe('com REDIS_URL, as duas faces contam as tentativas de login no Redis', { skip: pular }, () => {
  test('o limite de /auth/idp vale pelo Redis, e nada vai para o banco', async () => {
    const redis = createClient({ url: URL_REDIS ?? '' });
    await redis.connect();
    // Counts are per client address; clear what an earlier run against this Redis left.
    for (const chave of await redis.keys('cestaria:tentativas:*-login:*')) await redis.del(chave);
    const amb = await iniciarAmbiente({ mercados: true, env: { REDIS_URL: URL_REDIS ?? '' } });
    try {
      const nav = new Navegador();
      const status: number[] = [];
      for (let i = 0; i < 6; i++) status.push((await nav.get(`${amb.urlMercados}/auth/idp`, { seguir: false })).status);
      assert.deepEqual(status, [302, 302, 302, 302, 302, 429]);
      assert.equal(
        (await nav.get(`${amb.url}/`, { seguir: false })).status,
        302,
        'a face Cestas leva ao provedor, sem contar',
      );
      assert.equal(
        (await nav.get(`${amb.url}/callback?code=falso&state=falso`, { seguir: false })).status,
        400,
        'um retorno do provedor conta',
      );
      const chaves = (await redis.keys('cestaria:tentativas:*-login:*')).sort();
      assert.deepEqual(
        chaves.map((c) => c.replace(/login:.*$/, 'login:')),
        ['cestaria:tentativas:cestas-login:', 'cestaria:tentativas:mercados-login:'],
      );
      const valores = await Promise.all(chaves.map((c) => redis.get(c)));
      assert.deepEqual(valores, ['1', '6']);
      const noBanco = await amb.banco.selectFrom('limitetentativa').selectAll().execute();
      assert.deepEqual(noBanco, [], 'nenhuma contagem no banco');
    } finally {
      await amb.fechar();
      redis.destroy();
    }
  });
});
