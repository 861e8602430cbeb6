import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { criarAppCestas } from '../../src/cestas/app.ts';
import { COOKIE_FLASH } from '../../src/cestas/resposta.ts';
import { COOKIE_SAIDA, COOKIE_SESSAO, COOKIE_VERIFICACAO } from '../../src/cestas/sessao.ts';
import { carregarConfig } from '../../src/config.ts';
import { abrirBanco, type Banco } from '../../src/db/banco.ts';
import { iniciarProvedorDev, type ProvedorDev } from '../../src/idp/provedor.ts';
import { bancoNovo, urlDoBanco } from '../helpers/banco.ts';
import { criarUsuario } from '../helpers/fabricas.ts';
import { Navegador, ateOCallback, tokenCsrf, type Resposta } from '../helpers/navegador.ts';
import { RelogioDeTeste } from '../helpers/servidor.ts';

/** The configuration of the face Cestas in production, logging in with the given provider. */
async function configDeProducao(idp: ProvedorDev) {
  return carregarConfig({
    NODE_ENV: 'production',
    DATABASE_URL: urlDoBanco(await bancoNovo()),
    VARIANTS: 'cestas',
    CESTAS_PORT: '0',
    OIDC_ISSUER_BASE_URL: idp.issuer,
    OIDC_CLIENT_ID: 'cestas-producao',
    OIDC_CLIENT_SECRET: 'segredo-do-cliente-de-producao',
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    APP_SESSION_SECRET: randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'silent',
  });
}

/** The face Cestas as it runs in production, logging in with an external provider (here a real one of our own). */
describe('face Cestas em produção: todo cookie é Secure', () => {
  let idp: ProvedorDev;
  let banco: Banco;
  let app: FastifyInstance;
  let url = '';

  before(async () => {
    idp = await iniciarProvedorDev('127.0.0.1', 0);
    const config = await configDeProducao(idp);
    assert.ok(config.oidc);
    banco = abrirBanco(config.banco);
    app = await criarAppCestas({ config, banco, relogio: new RelogioDeTeste(), provedor: config.oidc });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://localhost:${(app.server.address() as AddressInfo).port}`;
    idp.ativar(
      [
        {
          clientId: 'cestas-producao',
          clientSecret: 'segredo-do-cliente-de-producao',
          redirectUris: [`${url}/callback`],
          postLogoutRedirectUris: [`${url}/saiu`],
        },
      ],
      [],
    );
  });
  after(async () => {
    await app.close();
    await banco.destroy();
    await idp.fechar();
  });

  test('sem SMTP_URL o e-mail está desligado, e /readyz diz isso', async () => {
    const r = await fetch(`${url}/readyz`);
    assert.equal(r.status, 200);
    assert.deepEqual(await r.json(), {
      status: 'pronto',
      mensagem:
        'Banco de dados acessível e migrações aplicadas. E-mail desligado: sem SMTP_URL, recibos e lembretes não são enviados.',
    });
    assert.equal(app.correio?.ligado, false);
  });

  test('verificação do login, sessão, aviso de uma só vez e a marca de saída saem com Secure e HttpOnly', async () => {
    const u = await criarUsuario(banco, { perfil: ['consumidor'], nome: 'Pessoa em Produção' });
    const nav = new Navegador();
    const gravados = new Map<string, string>();
    const guardar = (r: Resposta) => {
      for (const l of r.headers.getSetCookie()) gravados.set(l.slice(0, l.indexOf('=')), l);
    };
    guardar(await nav.get(`${url}/`, { seguir: false }));
    const callback = await ateOCallback(nav, `${url}/`, `${url}/callback`, u.email);
    guardar(await nav.get(callback, { seguir: false }));
    const perfil = await nav.get(`${url}/profile`);
    assert.equal(perfil.status, 200);
    const salvar = await nav.post(
      `${url}/profile`,
      { form: { _csrf: tokenCsrf(perfil.texto), nome: 'Pessoa em Produção', cientepolitica: 'true' } },
      { seguir: false },
    );
    assert.equal(salvar.status, 303);
    guardar(salvar);
    guardar(await nav.post(`${url}/logout`, { form: { _csrf: tokenCsrf(perfil.texto) } }, { seguir: false }));
    for (const nome of [COOKIE_VERIFICACAO, COOKIE_SESSAO, COOKIE_FLASH, COOKIE_SAIDA]) {
      const linha = gravados.get(nome);
      assert.ok(linha !== undefined, `o cookie ${nome} foi gravado (${[...gravados.keys()].join(', ')})`);
      assert.match(linha, /; Secure/i, nome);
      assert.match(linha, /; HttpOnly/i, nome);
    }
  });
});

describe('face Cestas em produção: a documentação da API fica de fora', () => {
  test('/docs e /docs/openapi.json não existem em produção', async () => {
    const idp = await iniciarProvedorDev('127.0.0.1', 0);
    const config = await configDeProducao(idp);
    assert.ok(config.oidc);
    const banco = abrirBanco(config.banco);
    const app = await criarAppCestas({ config, banco, relogio: new RelogioDeTeste(), provedor: config.oidc });
    try {
      for (const caminho of ['/docs', '/docs/openapi.json']) {
        const r = await app.inject({ method: 'GET', url: caminho, headers: { accept: 'application/json' } });
        assert.equal(r.statusCode, 404, caminho);
      }
    } finally {
      await app.close();
      await banco.destroy();
      await idp.fechar();
    }
  });
});
