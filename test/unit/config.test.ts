import assert from 'node:assert/strict';
import { test } from 'node:test';
import { randomBytes } from 'node:crypto';
import { ErroConfig, PIX_DE_DEMONSTRACAO, carregarConfig } from '../../src/config.ts';
import { lerChavePix, regraDoRecebedor } from '../../src/pix-chave.ts';

const SEGREDO = randomBytes(32).toString('base64url');
const OUTRO_SEGREDO = randomBytes(32).toString('base64url');
/** Everything production requires, with nothing else set. */
const PRODUCAO = {
  NODE_ENV: 'production',
  SESSION_SECRET: SEGREDO,
  APP_SESSION_SECRET: OUTRO_SEGREDO,
  OIDC_ISSUER_BASE_URL: 'https://login.example',
  OIDC_CLIENT_ID: 'c',
  OIDC_CLIENT_SECRET: 's',
  OAUTH_ISSUER_URL: 'https://login.example',
  OAUTH_CLIENT_ID: 'c',
  OAUTH_CLIENT_SECRET: 's',
};

test('padrões de desenvolvimento: SQLite embutido, portas 3000/4000/3002, demo ligada', () => {
  const c = carregarConfig({});
  assert.deepEqual(c.banco, { tipo: 'sqlite', caminho: './data/cestaria.db', sincronia: 'NORMAL' });
  assert.equal(c.cestasPort, 3000);
  assert.equal(c.mercadosPort, 4000);
  assert.equal(c.devIdpPort, 3002);
  assert.equal(c.host, '127.0.0.1');
  assert.equal(c.tz, 'America/Sao_Paulo');
  assert.equal(c.demoData, true);
  assert.equal(c.oidc, null);
  assert.deepEqual(c.variantes, ['cestas', 'mercados']);
  assert.ok(c.appSessionSecret.length >= 32, 'segredo aleatório em desenvolvimento');
});

test('e-mail: SMTP_URL manda; sem ele, a caixa local em desenvolvimento, nada em testes e em produção', () => {
  const dev = carregarConfig({});
  assert.deepEqual(dev.email, {
    smtp: null,
    remetente: 'Cestaria <avisos@cestaria.localhost>',
    devSmtp: true,
    devSmtpPort: 3025,
    devMailPort: 3003,
    intervaloMs: 60_000,
  });
  assert.equal(carregarConfig({ NODE_ENV: 'test' }).email.devSmtp, false);
  assert.equal(carregarConfig({ DEV_SMTP: 'false' }).email.devSmtp, false);
  const real = carregarConfig({
    SMTP_URL: 'smtps://avisos:segredo@mail.exemplo.org:465',
    EMAIL_REMETENTE: 'Horta <avisos@horta.org>',
    AVISOS_INTERVALO_S: '30',
  }).email;
  assert.equal(real.smtp, 'smtps://avisos:segredo@mail.exemplo.org:465');
  assert.equal(real.devSmtp, false, 'com SMTP_URL, nada de caixa local');
  assert.equal(real.remetente, 'Horta <avisos@horta.org>');
  assert.equal(real.intervaloMs, 30_000);
});

test('um valor ruim para o início com uma mensagem de uma linha que nomeia a variável', () => {
  const casos: Array<[Record<string, string>, string]> = [
    [{ CESTAS_PORT: 'abc' }, 'CESTAS_PORT'],
    [{ DEV_IDP_PORT: '70000' }, 'DEV_IDP_PORT'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ TZ: 'Marte/Olympus' }, 'TZ'],
    [{ VARIANTS: 'cestas,feira' }, 'VARIANTS'],
    [{ DEMO_DATA: 'talvez' }, 'DEMO_DATA'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ CESTAS_BASE_URL: 'ftp://x' }, 'CESTAS_BASE_URL'],
    [{ OIDC_CLIENT_ID: 'abc' }, 'OIDC_ISSUER_BASE_URL'],
    [{ OIDC_ISSUER_BASE_URL: 'https://login.example' }, 'OIDC_CLIENT_ID'],
    [{ ADMIN_EMAILS: 'sem-arroba' }, 'ADMIN_EMAILS'],
    [{ SESSION_SECRET: 'curto' }, 'SESSION_SECRET'],
    [{ SESSION_SECRET: 'a'.repeat(64) }, 'SESSION_SECRET'],
    [{ APP_SESSION_SECRET: 'ab'.repeat(32) }, 'APP_SESSION_SECRET'],
    [{ APP_SESSION_SECRET: 'senhasenhasenhasenhasenhasenha123' }, 'APP_SESSION_SECRET'],
    [
      { SESSION_SECRET: SEGREDO, APP_SESSION_SECRET: SEGREDO },
      'SESSION_SECRET e APP_SESSION_SECRET devem ser diferentes',
    ],
    [{ TRUST_PROXY: '10.0.0.1,proxy.interno' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ SESSAO_OCIOSA_HORAS: '0' }, 'SESSAO_OCIOSA_HORAS'],
    [{ SESSAO_OCIOSA_HORAS: '12h' }, 'SESSAO_OCIOSA_HORAS'],
    [{ METRICS_TOKEN: 'curto' }, 'METRICS_TOKEN'],
    [{ METRICS_TOKEN: 'um token com espaços no meio' }, 'METRICS_TOKEN'],
    [{ SMTP_URL: 'mail.exemplo.org' }, 'SMTP_URL'],
    [{ SMTP_URL: 'http://mail.exemplo.org' }, 'SMTP_URL'],
    [{ EMAIL_REMETENTE: 'avisos' }, 'EMAIL_REMETENTE'],
    [{ AVISOS_INTERVALO_S: '0' }, 'AVISOS_INTERVALO_S'],
    [{ DEV_SMTP_PORT: '99999' }, 'DEV_SMTP_PORT'],
    [{ DEV_SMTP: 'talvez' }, 'DEV_SMTP'],
    [{ SQLITE_SYNCHRONOUS: 'OFF' }, 'SQLITE_SYNCHRONOUS'],
  ];
  for (const [env, variavel] of casos) {
    assert.throws(
      () => carregarConfig(env),
      (e: unknown) => {
        assert.ok(e instanceof ErroConfig);
        assert.ok(e.message.includes(variavel), `${e.message} deveria nomear ${variavel}`);
        assert.ok(!e.message.includes('\n'));
        return true;
      },
    );
  }
});

test('em produção, segredos e emissores ausentes impedem o início', () => {
  const completo = PRODUCAO;
  const c = carregarConfig(completo);
  assert.equal(c.producao, true);
  assert.equal(c.demoData, false);
  // Without SMTP_URL, e-mail is off (never the local catcher); with it, the sender must be named.
  assert.equal(c.email.smtp, null);
  assert.equal(c.email.devSmtp, false);
  assert.throws(
    () => carregarConfig({ ...completo, SMTP_URL: 'smtp://mail.exemplo.org' }),
    (e: unknown) => e instanceof ErroConfig && e.message.includes('EMAIL_REMETENTE'),
  );
  assert.equal(
    carregarConfig({ ...completo, SMTP_URL: 'smtp://mail.exemplo.org', EMAIL_REMETENTE: 'avisos@horta.org' }).email
      .smtp,
    'smtp://mail.exemplo.org',
  );
  const semEmissor = (prefixo: string) => (k: string) => !k.startsWith(`${prefixo}_`);
  const casos: Array<[string, (k: string) => boolean]> = [
    ['SESSION_SECRET', (k) => k !== 'SESSION_SECRET'],
    ['APP_SESSION_SECRET', (k) => k !== 'APP_SESSION_SECRET'],
    ['OIDC_ISSUER_BASE_URL', semEmissor('OIDC')],
    ['OAUTH_ISSUER_URL', semEmissor('OAUTH')],
  ];
  for (const [faltando, manter] of casos) {
    const env = Object.fromEntries(Object.entries(completo).filter(([k]) => manter(k)));
    assert.throws(
      () => carregarConfig(env),
      (e: unknown) => e instanceof ErroConfig && e.message.includes(faltando),
      faltando,
    );
  }
});

test('Mercados: OpenID Connect com descoberta por padrão, ou OAuth 2.0 com os três endereços juntos', () => {
  const oidc = carregarConfig({
    OAUTH_ISSUER_URL: 'https://login.example/',
    OAUTH_CLIENT_ID: 'c',
    OAUTH_CLIENT_SECRET: 's',
  }).oauth;
  assert.deepEqual(oidc, { issuer: 'https://login.example', clientId: 'c', clientSecret: 's', callbackUrl: undefined });
  const simples = {
    OAUTH_AUTHORIZATION_URL: 'https://contas.example/oauth/authorize',
    OAUTH_TOKEN_URL: 'https://contas.example/oauth/token',
    OAUTH_USERINFO_URL: 'https://api.example/user',
    OAUTH_CLIENT_ID: 'c',
    OAUTH_CLIENT_SECRET: 's',
  };
  assert.deepEqual(carregarConfig(simples).oauth, {
    issuer: 'https://contas.example',
    clientId: 'c',
    clientSecret: 's',
    callbackUrl: undefined,
    enderecos: {
      autorizacao: 'https://contas.example/oauth/authorize',
      token: 'https://contas.example/oauth/token',
      userinfo: 'https://api.example/user',
    },
  });
  const recusa = (env: Record<string, string>, trecho: string) =>
    assert.throws(
      () => carregarConfig(env),
      (e: unknown) => e instanceof ErroConfig && e.message.includes(trecho),
      trecho,
    );
  const { OAUTH_TOKEN_URL: _token, ...semToken } = simples;
  recusa(semToken, 'precisa das três variáveis juntas');
  recusa({ ...simples, OAUTH_ISSUER_URL: 'https://login.example' }, 'não os dois');
  const { OAUTH_CLIENT_SECRET: _segredo, ...semSegredo } = simples;
  recusa(semSegredo, 'OAUTH_CLIENT_SECRET é obrigatório');
  recusa({ ...simples, OAUTH_USERINFO_URL: 'ftp://api.example/user' }, 'OAUTH_USERINFO_URL');
  // In production the plain provider is enough for Mercados.
  const producao = {
    NODE_ENV: 'production',
    SESSION_SECRET: SEGREDO,
    APP_SESSION_SECRET: OUTRO_SEGREDO,
    VARIANTS: 'mercados',
  };
  assert.equal(
    carregarConfig({ ...producao, ...simples }).oauth?.enderecos?.token,
    'https://contas.example/oauth/token',
  );
  recusa(producao, 'OAUTH_AUTHORIZATION_URL');
});

test('SQLITE_SYNCHRONOUS: NORMAL por padrão, FULL se pedido; outro valor impede o início, mesmo no PostgreSQL', () => {
  const sincronia = (env: Record<string, string>) => {
    const b = carregarConfig(env).banco;
    return b.tipo === 'sqlite' ? b.sincronia : null;
  };
  assert.equal(sincronia({}), 'NORMAL');
  assert.equal(sincronia({ SQLITE_SYNCHRONOUS: 'FULL' }), 'FULL');
  assert.equal(sincronia({ SQLITE_SYNCHRONOUS: ' full ' }), 'FULL', 'sem diferenciar maiúsculas, como o SQLite');
  assert.equal(sincronia({ SQLITE_SYNCHRONOUS: 'normal', DATABASE_URL: 'sqlite:/tmp/x.db' }), 'NORMAL');
  assert.equal(sincronia({ SQLITE_SYNCHRONOUS: '' }), 'NORMAL', 'vazia vale como ausente');
  // OFF and EXTRA are SQLite words too, and the numbers 0 to 3: none of them is offered.
  for (const v of ['OFF', 'EXTRA', '1', '2', 'FULLL', 'sim']) {
    for (const base of [{}, { DATABASE_URL: 'postgres://u@127.0.0.1:5432/c' }]) {
      assert.throws(
        () => carregarConfig({ ...base, SQLITE_SYNCHRONOUS: v }),
        (e: unknown) =>
          e instanceof ErroConfig && e.message === `SQLITE_SYNCHRONOUS deve ser FULL ou NORMAL (recebido "${v}")`,
        v,
      );
    }
  }
});

test('ADMIN_EMAILS é lido sem diferenciar maiúsculas', () => {
  const c = carregarConfig({ ADMIN_EMAILS: ' Ana@Exemplo.org ,bia@exemplo.org' });
  assert.deepEqual([...c.adminEmails], ['ana@exemplo.org', 'bia@exemplo.org']);
});

test('METRICS_TOKEN é opcional: sem ele, /metrics fica só para a própria máquina', () => {
  assert.equal(carregarConfig({}).metricsToken, undefined);
  assert.equal(carregarConfig({ METRICS_TOKEN: 'a'.repeat(16) }).metricsToken, 'a'.repeat(16));
});

test('introspecção GraphQL: ligada fora de produção, desligada em produção a menos que GRAPHQL_INTROSPECTION=true', () => {
  assert.equal(carregarConfig({}).graphqlIntrospeccao, true);
  const producao = PRODUCAO;
  assert.equal(carregarConfig(producao).graphqlIntrospeccao, false);
  assert.equal(carregarConfig({ ...producao, GRAPHQL_INTROSPECTION: 'true' }).graphqlIntrospeccao, true);
  assert.throws(
    () => carregarConfig({ GRAPHQL_INTROSPECTION: 'talvez' }),
    (e: unknown) => e instanceof ErroConfig && e.message.includes('GRAPHQL_INTROSPECTION'),
  );
});

test('TRUST_PROXY aceita endereços, faixas CIDR e os nomes de rede; vazio não confia em ninguém', () => {
  assert.deepEqual(carregarConfig({}).proxiesConfiaveis, []);
  assert.deepEqual(
    carregarConfig({ TRUST_PROXY: ' 10.0.0.1, 192.168.0.0/24,::1,fd00::/8, loopback ' }).proxiesConfiaveis,
    ['10.0.0.1', '192.168.0.0/24', '::1', 'fd00::/8', 'loopback'],
  );
});

test('SESSAO_OCIOSA_HORAS tem 12 horas por padrão', () => {
  assert.equal(carregarConfig({}).sessaoOciosaMs, 12 * 3600_000);
  assert.equal(carregarConfig({ SESSAO_OCIOSA_HORAS: '2' }).sessaoOciosaMs, 2 * 3600_000);
});

test('segredos aleatórios de verdade são aceitos: base64 de 32 bytes e hexadecimal de 32 bytes', () => {
  for (let i = 0; i < 200; i++) {
    const c = carregarConfig({
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      APP_SESSION_SECRET: randomBytes(32).toString('hex'),
    });
    assert.ok(c.sessionSecret.length >= 32);
  }
});

test('Pix: PIX_* manda; sem elas, o recebedor de demonstração só em desenvolvimento com a demo', () => {
  assert.deepEqual(carregarConfig({}).pix, PIX_DE_DEMONSTRACAO);
  // The demo key is one the configuration itself would accept, and fits in a BR Code.
  assert.deepEqual(lerChavePix(PIX_DE_DEMONSTRACAO.chave), { chave: 'pix-demo@cestaria.example', tipo: 'email' });
  assert.equal(regraDoRecebedor(PIX_DE_DEMONSTRACAO.nome, PIX_DE_DEMONSTRACAO.cidade), null);
  assert.equal(carregarConfig({ DEMO_DATA: 'false' }).pix, null, 'sem dados de demonstração, sem Pix de demonstração');
  assert.equal(carregarConfig({ NODE_ENV: 'test' }).pix, null);
  assert.equal(
    carregarConfig({
      ...PRODUCAO,
      DEMO_DATA: 'true',
    }).pix,
    null,
    'em produção, nunca',
  );
  const proprio = carregarConfig({
    PIX_CHAVE: 'financeiro@cestas.org',
    PIX_NOME: 'Associação Raízes',
    PIX_CIDADE: 'São Carlos',
  });
  assert.deepEqual(proprio.pix, {
    chave: 'financeiro@cestas.org',
    tipo: 'email',
    nome: 'Associação Raízes',
    cidade: 'São Carlos',
  });
});
