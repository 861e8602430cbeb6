import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { criarUsuario, emailUnico } from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { csrfDe, entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

const HORA = 3600_000;

/** What a JSON client sees of its own session: 200 with the dashboard, or 401. */
async function estado(amb: AmbienteDeTeste, nav: Navegador): Promise<number> {
  return (await nav.getJson(`${amb.url}/`)).status;
}

describe('contas: o e-mail liga o login, e só um master mexe no acesso de um master', () => {
  let amb: AmbienteDeTeste;
  let master: Pessoa;
  let outroMaster: Pessoa;
  let admin: Pessoa;

  before(async () => {
    amb = await iniciarAmbiente({ env: { ADMIN_EMAILS: 'chefia@teste.org' } });
    master = await entrarComo(amb, ['master'], 'Master Original');
    outroMaster = await entrarComo(amb, ['master'], 'Segunda Master');
    admin = await entrarComo(amb, ['admin'], 'Admin Ambicioso');
  });
  after(() => amb.fechar());

  const dadosDoMaster = (email: string, ativo = true) => ({
    nome: 'Master Original',
    email,
    perfil: ['master'],
    ativo,
  });

  test('admin não muda o e-mail nem desativa um master: 403, e nada muda', async () => {
    // The attacker's own identity for the new address, logged in before the change.
    const invasor = new Navegador();
    const emailDoInvasor = emailUnico('invasor');
    await entrarPeloProvedor(invasor, `${amb.url}/`, { email: emailDoInvasor });
    const antes = await amb.banco
      .selectFrom('usuario')
      .selectAll()
      .where('id', '=', master.id ?? 0)
      .executeTakeFirstOrThrow();

    const email = await admin.nav.postJson(`${amb.url}/usuario/${master.id}`, dadosDoMaster(emailDoInvasor));
    assert.equal(email.status, 403, email.texto);
    assert.equal(email.json<{ error: string }>().error, 'Só quem tem o perfil master pode mudar o e-mail de um master');
    const ativo = await admin.nav.postJson(`${amb.url}/usuario/${master.id}`, dadosDoMaster(master.email, false));
    assert.equal(ativo.status, 403, ativo.texto);
    assert.equal(
      ativo.json<{ error: string }>().error,
      'Só quem tem o perfil master pode ativar ou desativar um master',
    );

    assert.deepEqual(
      await amb.banco
        .selectFrom('usuario')
        .selectAll()
        .where('id', '=', master.id ?? 0)
        .executeTakeFirstOrThrow(),
      antes,
    );
    assert.equal(await estado(amb, master.nav), 200);
    assert.equal((await invasor.getJson(`${amb.url}/usuario-index`)).status, 403, 'o invasor segue sem cadastro');
  });

  test('admin ainda edita os outros campos de um master', async () => {
    const r = await admin.nav.postJson(`${amb.url}/usuario/${master.id}`, {
      ...dadosDoMaster(master.email),
      celular: '11 99999-0000',
    });
    assert.equal(r.status, 200, r.texto);
  });

  test('um master muda o e-mail de outro master; as sessões abertas nos dois endereços terminam', async () => {
    const alvo = await entrarComo(amb, ['master'], 'Master Que Troca');
    const novoEmail = emailUnico('novo-endereco');
    const jaAberta = new Navegador();
    await entrarPeloProvedor(jaAberta, `${amb.url}/`, { email: novoEmail });
    assert.equal((await jaAberta.getJson(`${amb.url}/profile`)).status, 200);

    const r = await outroMaster.nav.postJson(`${amb.url}/usuario/${alvo.id}`, {
      nome: 'Master Que Troca',
      email: novoEmail,
      perfil: ['master'],
      ativo: true,
    });
    assert.equal(r.status, 200, r.texto);
    const antigo = await alvo.nav.getJson(`${amb.url}/`);
    assert.equal(antigo.status, 403, 'a sessão do e-mail antigo não abre mais a conta');
    assert.equal(antigo.json<{ error: string }>().error, 'Complete seu cadastro em /usuarionovo antes de continuar');
    assert.equal(await estado(amb, jaAberta), 401, 'a sessão aberta antes da troca com o e-mail novo não vira master');

    amb.relogio.avancar(1);
    const depois = new Navegador();
    await entrarPeloProvedor(depois, `${amb.url}/`, { email: novoEmail });
    assert.equal(await estado(amb, depois), 200, 'um login novo com o e-mail novo entra');
  });

  test('login com e-mail que o provedor não verificou é recusado com uma página clara', async () => {
    const u = await criarUsuario(amb.banco, { perfil: ['consumidor'] });
    const nav = new Navegador();
    const r = await entrarPeloProvedor(nav, `${amb.url}/`, { email: u.email, naoVerificado: true });
    assert.equal(r.status, 403);
    assert.match(r.headers.get('content-type') ?? '', /text\/html/);
    assert.match(r.texto, /não confirmou que este e-mail é seu/);
    assert.equal(await estado(amb, nav), 401, 'nenhuma sessão');
    const logins = await amb.banco.selectFrom('identidade').select('sub').where('usuarioid', '=', u.id).execute();
    assert.deepEqual(logins, [], 'o cadastro não se liga a um login recusado');
  });

  test('o primeiro login liga o cadastro; outro sub com o mesmo e-mail é recusado até um master liberar', async () => {
    const u = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Dona do Cadastro' });
    const dona = new Navegador();
    await entrarPeloProvedor(dona, `${amb.url}/`, { email: u.email, sub: 'sub-da-dona' });
    assert.equal(await estado(amb, dona), 200);

    const outra = new Navegador();
    const recusa = await entrarPeloProvedor(outra, `${amb.url}/`, { email: u.email, sub: 'sub-de-outra' });
    assert.equal(recusa.status, 403);
    assert.match(recusa.texto, /já está ligado a outra conta do provedor de login/);
    assert.equal(await estado(amb, outra), 401);
    assert.equal(await estado(amb, dona), 200, 'a dona segue dentro');

    const porAdmin = await admin.nav.postJson(`${amb.url}/usuario/${u.id}/liberarlogin`, {});
    assert.equal(porAdmin.status, 403, 'só master libera');
    const pagina = await master.nav.get(`${amb.url}/usuario/${u.id}`);
    assert.match(pagina.texto, /action="\/usuario\/\d+\/liberarlogin"/, 'o master vê a ação na página do cadastro');
    const liberar = await master.nav.postJson(`${amb.url}/usuario/${u.id}/liberarlogin`, {});
    assert.equal(liberar.status, 200, liberar.texto);
    assert.equal(liberar.json<{ data: { loginVinculado: boolean } }>().data.loginVinculado, false);
    assert.equal(await estado(amb, dona), 401, 'as sessões do login antigo terminam');

    amb.relogio.avancar(1);
    const nova = new Navegador();
    await entrarPeloProvedor(nova, `${amb.url}/`, { email: u.email, sub: 'sub-de-outra' });
    assert.equal(await estado(amb, nova), 200);
    const trilha = await amb.banco
      .selectFrom('auditoria')
      .select('acao')
      .where('entidade', '=', 'usuario')
      .where('entidadeId', '=', String(u.id))
      .execute();
    assert.ok(trilha.some((t) => t.acao === 'liberar login'));
  });

  test('um e-mail de ADMIN_EMAILS só vira master se verificado (e o não verificado nem entra)', async () => {
    const nav = new Navegador();
    const r = await entrarPeloProvedor(nav, `${amb.url}/`, { email: 'chefia@teste.org', naoVerificado: true });
    assert.equal(r.status, 403);
    const verificado = new Navegador();
    await entrarPeloProvedor(verificado, `${amb.url}/`, { email: 'chefia@teste.org' });
    const cadastro = await verificado.post(`${amb.url}/usuarionovo`, {
      form: { _csrf: await csrfDe(amb, verificado), nome: 'Chefia', perfil: 'consumidor', cientepolitica: 'true' },
    });
    assert.equal(cadastro.status, 200, cadastro.texto.slice(0, 200));
    const linha = await amb.banco
      .selectFrom('usuario')
      .select(['id', 'perfil'])
      .where('emailChave', '=', 'chefia@teste.org')
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(linha.perfil), ['master', 'consumidor']);
    const logins = await amb.banco.selectFrom('identidade').select('sub').where('usuarioid', '=', linha.id).execute();
    assert.equal(logins.length, 1, 'o autocadastro já liga o login');
  });
});

describe('sessões: limite de inatividade e sair de todos os aparelhos', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ env: { SESSAO_OCIOSA_HORAS: '12' } });
  });
  after(() => amb.fechar());

  test('uma sessão usada a cada 11 h segue viva; parada por mais de 12 h termina', async () => {
    const p = await entrarComo(amb, ['consumidor']);
    for (let i = 0; i < 3; i++) {
      amb.relogio.avancar(11 * HORA);
      assert.equal(await estado(amb, p.nav), 200, `uso ${i + 1}, 11 h depois do anterior`);
    }
    amb.relogio.avancar(12 * HORA + 60_000);
    assert.equal(await estado(amb, p.nav), 401);
    const pagina = await p.nav.get(`${amb.url}/`, { seguir: false });
    assert.equal(pagina.status, 302, 'um navegador volta ao login');
  });

  test('sair de todos os aparelhos encerra a sessão deste e a de outro aparelho', async () => {
    const celular = await entrarComo(amb, ['consumidor']);
    const notebook = new Navegador();
    await entrarPeloProvedor(notebook, `${amb.url}/`, { email: celular.email });
    assert.equal(await estado(amb, notebook), 200);
    const perfil = await celular.nav.get(`${amb.url}/profile`);
    assert.match(perfil.texto, /Sair de todos os aparelhos/);

    const r = await celular.nav.post(
      `${amb.url}/profile/sairdetodos`,
      { form: { _csrf: await csrfDe(amb, celular.nav) } },
      { seguir: false },
    );
    assert.equal(r.status, 303);
    assert.equal(await estado(amb, celular.nav), 401);
    assert.equal(await estado(amb, notebook), 401, 'o outro aparelho também saiu');

    amb.relogio.avancar(1);
    const denovo = new Navegador();
    await entrarPeloProvedor(denovo, `${amb.url}/`, { email: celular.email });
    assert.equal(await estado(amb, denovo), 200, 'um login novo funciona');
  });

  test('sair de todos não é feito por outro site: a escrita de outra origem é recusada e a sessão fica', async () => {
    const p = await entrarComo(amb, ['consumidor']);
    for (const headers of [{ 'sec-fetch-site': 'cross-site' }, { origin: 'https://ataque.example' }] as Record<
      string,
      string
    >[]) {
      const r = await p.nav.post(`${amb.url}/profile/sairdetodos`, { form: {} }, { headers, seguir: false });
      assert.equal(r.status, 403);
    }
    assert.equal(await estado(amb, p.nav), 200);
  });
});
