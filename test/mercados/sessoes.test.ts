import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { carregarConfig } from '../../src/config.ts';
import { abrirBanco } from '../../src/db/banco.ts';
import { DURACAO_SESSAO_MS } from '../../src/domain/contas.ts';
import { iniciarProvedorDev } from '../../src/idp/provedor.ts';
import { criarAppMercados } from '../../src/mercados/app.ts';
import { INTERVALO_LIMPEZA_MS } from '../../src/mercados/limpeza.ts';
import { COOKIE_SAIDA } from '../../src/mercados/sessao.ts';
import { DIALETO, bancoNovo, urlDoBanco } from '../helpers/banco.ts';
import { emailUnico } from '../helpers/fabricas.ts';
import { Navegador, type Resposta } from '../helpers/navegador.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { ateOCallback, contaComSessao, contaPorEmail, entrarNoMercados, sessoesDe, setCookie } from './apoio.ts';

const COOKIE = 'mercadosSession';

function enderecoDe(app: { server: { address(): unknown } }): string {
  const a = app.server.address() as { port: number } | null;
  return `http://localhost:${a?.port ?? 0}`;
}

async function status(nav: Navegador, url: string): Promise<unknown> {
  return (await nav.getJson(`${url}/auth/status`)).json();
}

describe('sessões da face Mercados', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
  });
  after(() => amb.fechar());

  test('/auth/status antes e depois do login, e visitantes anônimos não ganham sessão', async () => {
    const contarSessoes = async () =>
      Number(
        (
          await amb.banco
            .selectFrom('appsession')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const sessoesAntes = await contarSessoes();
    const nav = new Navegador();
    const antes = await nav.getJson(`${amb.urlMercados}/auth/status`);
    assert.equal(antes.status, 200);
    assert.equal(antes.texto, '{"authenticated":false}');
    for (const caminho of ['/', '/auth/status', '/login?error=auth_failed', '/unauthorized', '/nada', '/dashboard']) {
      const r = await nav.get(`${amb.urlMercados}${caminho}`, { seguir: false });
      assert.equal(setCookie(r, COOKIE), undefined, `sem cookie de sessão em ${caminho}`);
    }
    assert.equal(await contarSessoes(), sessoesAntes, 'nenhum registro de sessão para anônimos');

    const email = emailUnico('status');
    await entrarNoMercados(amb, nav, { email, nome: 'Sol Status' });
    const conta = await contaPorEmail(amb.banco, email);
    assert.ok(conta);
    assert.deepEqual(await status(nav, amb.urlMercados), {
      authenticated: true,
      // The Cestas face runs beside this one: its address comes with the session, for the client's link.
      cestas: amb.url,
      // The community's time zone (TZ), in which the client shows instants.
      fuso: amb.config.tz,
      user: {
        id: conta.id,
        name: 'Sol Status',
        email,
        profiles: ['Consumidor'],
        acoes: {
          criarMercado: false,
          gerirMercados: false,
          gerirAlgumMercado: false,
          listarUsuarios: false,
          atribuirPerfis: false,
          ofertar: false,
          pedir: true,
          definirMercadosDoCiclo: false,
        },
      },
    });
  });

  test('a cada requisição a conta é recarregada com os perfis numa só consulta; anônimos não consultam o banco', async () => {
    const nav = new Navegador();
    const { conta } = await contaComSessao(amb, nav, amb.urlMercados);
    amb.consultas = 0;
    assert.equal((await new Navegador().getJson(`${amb.urlMercados}/auth/status`)).status, 200);
    assert.equal(amb.consultas, 0);
    amb.consultas = 0;
    await status(nav, amb.urlMercados);
    assert.equal(amb.consultas, 1);

    // A profile granted meanwhile shows up at the next request: nothing about the user is cached.
    const admin = await amb.banco
      .selectFrom('profile')
      .select('id')
      .where('name', '=', 'AdminMercado')
      .executeTakeFirstOrThrow();
    const iso = new Date().toISOString();
    await amb.banco
      .insertInto('appuserprofile')
      .values({ userId: conta.id, profileId: admin.id, createdAt: iso, updatedAt: iso })
      .execute();
    const depois = (await status(nav, amb.urlMercados)) as { user: { profiles: string[] } };
    assert.deepEqual(depois.user.profiles, ['AdminMercado', 'Consumidor']);
  });

  test('uma sessão sem mudanças não é regravada: nenhum Set-Cookie e o registro intocado', async () => {
    const nav = new Navegador();
    const { conta } = await contaComSessao(amb, nav, amb.urlMercados);
    const antes = await amb.banco
      .selectFrom('appsession')
      .selectAll()
      .where('userId', '=', conta.id)
      .executeTakeFirstOrThrow();
    amb.relogio.avancar(60_000);
    try {
      for (const caminho of ['/dashboard', '/auth/status', '/', '/auth/csrf']) {
        const r = await nav.get(`${amb.urlMercados}${caminho}`);
        assert.equal(r.status, 200, caminho);
        assert.equal(setCookie(r, COOKIE), undefined, `sem Set-Cookie em ${caminho}`);
      }
    } finally {
      amb.relogio.avancar(-60_000);
    }
    const depois = await amb.banco
      .selectFrom('appsession')
      .selectAll()
      .where('userId', '=', conta.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(depois, antes);
  });

  test('o cookie de sessão é HttpOnly, SameSite=Lax, dura 24 h, é assinado e, fora de produção, não é Secure', async () => {
    const nav = new Navegador();
    const callback = await ateOCallback(nav, amb.urlMercados, { email: emailUnico('cookie') });
    const r = await nav.get(callback, { seguir: false });
    assert.equal(r.headers.get('location'), '/dashboard');
    const linha = setCookie(r, COOKIE);
    assert.ok(linha);
    assert.match(linha, /; HttpOnly/i);
    assert.match(linha, /; SameSite=Lax/i);
    assert.match(linha, /; Max-Age=86400(;|$)/);
    assert.match(linha, /; Path=\/(;|$)/);
    assert.doesNotMatch(linha, /Secure/i);

    const valor = nav.cookie(amb.urlMercados, COOKIE) ?? '';
    assert.ok(((await status(nav, amb.urlMercados)) as { authenticated: boolean }).authenticated);
    // Changing one character of the token breaks the signature: the cookie is refused and cleared.
    const token = decodeURIComponent(valor);
    const adulterado = (token[0] === 'A' ? 'B' : 'A') + token.slice(1);
    const outro = new Navegador();
    outro.definirCookie(amb.urlMercados, COOKIE, encodeURIComponent(adulterado));
    const recusado = await outro.getJson(`${amb.urlMercados}/auth/status`);
    assert.deepEqual(recusado.json(), { authenticated: false });
    assert.match(setCookie(recusado, COOKIE) ?? '', /^mercadosSession=;/);
  });

  test('logout encerra a sessão no servidor: o cookie antigo deixa de valer e o registro some', async () => {
    for (const caminho of ['/logout', '/auth/logout']) {
      const nav = new Navegador();
      const email = emailUnico('sair');
      await entrarNoMercados(amb, nav, { email });
      const conta = await contaPorEmail(amb.banco, email);
      assert.ok(conta);
      const antigo = nav.cookie(amb.urlMercados, COOKIE) ?? '';
      assert.equal(await sessoesDe(amb.banco, conta.id), 1);

      const r = await nav.get(`${amb.urlMercados}${caminho}`, { seguir: false });
      assert.equal(r.status, 302, caminho);
      assert.equal(r.headers.get('location'), '/');
      assert.match(setCookie(r, COOKIE) ?? '', /^mercadosSession=;/);
      assert.equal(await sessoesDe(amb.banco, conta.id), 0, `registro apagado por ${caminho}`);

      const reapresentado = new Navegador();
      reapresentado.definirCookie(amb.urlMercados, COOKIE, antigo);
      assert.deepEqual(await status(reapresentado, amb.urlMercados), { authenticated: false });
      const painel = await reapresentado.get(`${amb.urlMercados}/dashboard`, { seguir: false });
      assert.equal(painel.status, 302);
      assert.equal(painel.headers.get('location'), '/login');
    }
  });

  test('se encerrar a sessão falha, o logout responde 500 com {error} e a sessão continua', async () => {
    const nav = new Navegador();
    await contaComSessao(amb, nav, amb.urlMercados);
    // A trigger makes the delete fail inside the database, as a broken connection would.
    if (DIALETO === 'sqlite') {
      await sql`create trigger appsession_sem_apagar before delete on appsession begin select raise(abort, 'apagar proibido'); end`.execute(
        amb.banco,
      );
    } else {
      await sql`create function appsession_sem_apagar() returns trigger language plpgsql as $$ begin raise exception 'apagar proibido'; end $$`.execute(
        amb.banco,
      );
      await sql`create trigger appsession_sem_apagar before delete on appsession for each row execute function appsession_sem_apagar()`.execute(
        amb.banco,
      );
    }
    try {
      const r = await nav.get(`${amb.urlMercados}/logout`, { seguir: false });
      assert.equal(r.status, 500);
      assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
      assert.deepEqual(r.json(), { error: 'Não foi possível encerrar a sessão. Tente novamente.' });
      assert.equal(setCookie(r, COOKIE), undefined);
      assert.equal(((await status(nav, amb.urlMercados)) as { authenticated: boolean }).authenticated, true);
    } finally {
      await sql`drop trigger appsession_sem_apagar ${sql.raw(DIALETO === 'postgres' ? 'on appsession' : '')}`.execute(
        amb.banco,
      );
      if (DIALETO === 'postgres') await sql`drop function appsession_sem_apagar()`.execute(amb.banco);
    }
  });

  test('o registro expira em 24 h (relógio injetado) e a limpeza o remove; limpar de novo não faz nada', async () => {
    const nav = new Navegador();
    const { conta } = await contaComSessao(amb, nav, amb.urlMercados);
    const limpeza = amb.servicos.mercados?.limpezaDeSessoes;
    assert.ok(limpeza);
    const registro = await amb.banco
      .selectFrom('appsession')
      .selectAll()
      .where('userId', '=', conta.id)
      .executeTakeFirstOrThrow();
    assert.equal(new Date(registro.expiresAt).getTime() - new Date(registro.createdAt).getTime(), DURACAO_SESSAO_MS);
    try {
      amb.relogio.avancar(DURACAO_SESSAO_MS - 1);
      assert.equal(
        ((await status(nav, amb.urlMercados)) as { authenticated: boolean }).authenticated,
        true,
        'vale até o fim das 24 h',
      );
      assert.equal(await limpeza.executar(), 0, 'nada expirou ainda');

      amb.relogio.avancar(1);
      const expirada = await nav.getJson(`${amb.urlMercados}/auth/status`);
      assert.deepEqual(expirada.json(), { authenticated: false });
      assert.match(setCookie(expirada, COOKIE) ?? '', /^mercadosSession=;/, 'o navegador é mandado esquecer o cookie');
      assert.equal(await sessoesDe(amb.banco, conta.id), 1, 'o registro espera pela limpeza');

      assert.ok((await limpeza.executar()) >= 1);
      assert.equal(await sessoesDe(amb.banco, conta.id), 0);
      assert.equal(await limpeza.executar(), 0);
    } finally {
      amb.relogio.avancar(-DURACAO_SESSAO_MS);
    }
  });

  test('a limpeza roda sozinha a cada 15 minutos, num timer que não segura o processo', async () => {
    const limpeza = amb.servicos.mercados?.limpezaDeSessoes;
    assert.ok(limpeza?.timer, 'o timer foi iniciado com o servidor');
    assert.equal(limpeza.timer.hasRef(), false);
    assert.equal(INTERVALO_LIMPEZA_MS, 15 * 60 * 1000);

    // A second app on the same database, with a short interval, purges without being asked.
    const relogio = new RelogioDeTeste(amb.relogio.agora());
    const app = await criarAppMercados({
      config: amb.config,
      banco: amb.banco,
      relogio,
      provedor: { issuer: amb.idp, clientId: 'x', clientSecret: 'y' },
      intervaloLimpezaMs: 10,
    });
    const nav = new Navegador();
    const { conta } = await contaComSessao(amb, nav, amb.urlMercados);
    try {
      await app.ready();
      relogio.avancar(DURACAO_SESSAO_MS);
      for (let i = 0; i < 500 && (await sessoesDe(amb.banco, conta.id)) > 0; i++)
        await new Promise((r) => setTimeout(r, 10));
      assert.equal(await sessoesDe(amb.banco, conta.id), 0);
    } finally {
      await app.close();
    }
    assert.equal(app.limpezaDeSessoes?.timer, null, 'fechar o app para o timer');
  });

  test('dois processos compartilham o mesmo armazenamento de sessões', async () => {
    // The second instance opens its own connection(s), as another process would.
    const banco2 = abrirBanco(amb.bancoConfig);
    const app2 = await criarAppMercados({
      config: amb.config,
      banco: banco2,
      relogio: amb.relogio,
      provedor: { issuer: amb.idp, clientId: 'x', clientSecret: 'y' },
    });
    await app2.listen({ host: '127.0.0.1', port: 0 });
    try {
      const url2 = enderecoDe(app2);
      const nav = new Navegador();
      const email = emailUnico('dois');
      await entrarNoMercados(amb, nav, { email });
      const cookie = nav.cookie(amb.urlMercados, COOKIE) ?? '';
      nav.definirCookie(url2, COOKIE, cookie);
      const noSegundo = (await status(nav, url2)) as { authenticated: boolean; user: { email: string } };
      assert.equal(noSegundo.authenticated, true);
      assert.equal(noSegundo.user.email, email);

      const saiu = await nav.get(`${url2}/logout`, { seguir: false });
      assert.equal(saiu.status, 302);
      nav.definirCookie(amb.urlMercados, COOKIE, cookie);
      assert.deepEqual(
        await status(nav, amb.urlMercados),
        { authenticated: false },
        'o logout num processo vale no outro',
      );
    } finally {
      await app2.close();
      await banco2.destroy();
    }
  });
});

describe('sessões da face Mercados em produção', () => {
  test('o cookie de sessão é Secure, HttpOnly, SameSite=Lax e dura 24 h; a marca de saída também é Secure e HttpOnly', async () => {
    const idp = await iniciarProvedorDev('127.0.0.1', 0);
    const bancoConfig = await bancoNovo();
    const config = carregarConfig({
      NODE_ENV: 'production',
      DATABASE_URL: urlDoBanco(bancoConfig),
      VARIANTS: 'mercados',
      MERCADOS_PORT: '0',
      OAUTH_ISSUER_URL: idp.issuer,
      OAUTH_CLIENT_ID: 'mercados-producao',
      OAUTH_CLIENT_SECRET: 'segredo-do-cliente-de-producao',
      SESSION_SECRET: 'um-segredo-de-sessao-com-mais-de-32-caracteres',
      APP_SESSION_SECRET: 'outro-segredo-de-sessao-com-mais-de-32-caracteres',
      LOG_LEVEL: 'silent',
    });
    assert.equal(config.producao, true);
    assert.ok(config.oauth);
    const banco = abrirBanco(config.banco);
    const app = await criarAppMercados({ config, banco, relogio: new RelogioDeTeste(), provedor: config.oauth });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const url = enderecoDe(app);
      idp.ativar(
        [
          {
            clientId: 'mercados-producao',
            clientSecret: 'segredo-do-cliente-de-producao',
            redirectUris: [`${url}/auth/idp/callback`],
            postLogoutRedirectUris: [],
          },
        ],
        [],
      );
      const nav = new Navegador();
      const inicio: Resposta = await nav.get(`${url}/auth/idp`, { seguir: false });
      assert.match(setCookie(inicio, 'mercados_auth') ?? '', /; Secure/i);
      const callback = await ateOCallback(nav, url, { email: emailUnico('producao') });
      const r = await nav.get(callback, { seguir: false });
      assert.equal(r.headers.get('location'), '/dashboard');
      const linha = setCookie(r, COOKIE);
      assert.ok(linha);
      assert.match(linha, /; Secure/i);
      assert.match(linha, /; HttpOnly/i);
      assert.match(linha, /; SameSite=Lax/i);
      assert.match(linha, /; Max-Age=86400(;|$)/);
      assert.match(r.headers.get('strict-transport-security') ?? '', /max-age=/);
      const saida = setCookie(await nav.get(`${url}/logout`, { seguir: false }), COOKIE_SAIDA);
      assert.ok(saida, 'sair deixa a marca');
      assert.match(saida, /; Secure/i);
      assert.match(saida, /; HttpOnly/i);
      assert.match(saida, /; SameSite=Lax/i);
    } finally {
      await app.close();
      await banco.destroy();
      await idp.fechar();
    }
  });
});
