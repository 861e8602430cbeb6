import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { criarUsuario, emailUnico } from '../helpers/fabricas.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: string;
  details?: Record<string, string>;
}

describe('administração de usuários', () => {
  let amb: AmbienteDeTeste;
  let master: Pessoa;
  let admin: Pessoa;
  before(async () => {
    amb = await iniciarAmbiente();
    master = await entrarComo(amb, ['master'], 'Mestra');
    admin = await entrarComo(amb, ['admin'], 'Administradora');
  });
  after(() => amb.fechar());
  const url = (p: string) => `${amb.url}${p}`;
  const perfilDe = async (id: number) =>
    JSON.parse(
      (await amb.banco.selectFrom('usuario').select('perfil').where('id', '=', id).executeTakeFirstOrThrow()).perfil,
    ) as string[];

  test('admin cria, edita e lista usuários; e-mail duplicado dá 409', async () => {
    const email = emailUnico('novo');
    const r = await admin.nav.postJson(url('/usuario'), {
      nome: 'Nova Fornecedora',
      email,
      perfil: ['fornecedor'],
      celular: '(11) 98888-7777',
    });
    assert.equal(r.status, 201);
    const id = r.json<Envelope<{ id: number }>>().data.id;
    const dup = await admin.nav.postJson(url('/usuario'), {
      nome: 'Outra',
      email: email.toUpperCase(),
      perfil: ['consumidor'],
    });
    assert.equal(dup.status, 409);
    assert.equal(dup.json<Envelope>().details?.email, 'Já existe um cadastro com este e-mail');
    const ed = await admin.nav.postJson(url(`/usuario/${id}`), {
      nome: 'Nova Fornecedora',
      email,
      perfil: ['fornecedor', 'consumidor'],
      ativo: false,
    });
    assert.equal(ed.status, 200);
    assert.deepEqual(await perfilDe(id), ['fornecedor', 'consumidor']);
    const lista = await admin.nav.getJson(url(`/usuario-index?busca=${encodeURIComponent('nova forn')}`));
    assert.deepEqual(
      lista.json<Envelope<{ itens: Array<{ id: number }> }>>().data.itens.map((i) => i.id),
      [id],
    );
    const semPerfil = await admin.nav.postJson(url('/usuario'), {
      nome: 'Sem perfil',
      email: emailUnico(),
      perfil: [],
    });
    assert.equal(semPerfil.status, 400);
    assert.equal(semPerfil.json<Envelope>().details?.perfil, 'Escolha pelo menos um perfil');
  });

  test('admin não concede nem retira master; master pode', async () => {
    const alvo = await criarUsuario(amb.banco, { perfil: ['consumidor'] });
    const conceder = await admin.nav.postJson(url(`/usuario/${alvo.id}`), {
      nome: alvo.nome,
      email: alvo.email,
      perfil: ['consumidor', 'master'],
    });
    assert.equal(conceder.status, 403);
    assert.deepEqual(await perfilDe(alvo.id), ['consumidor']);
    const criarMaster = await admin.nav.postJson(url('/usuario'), {
      nome: 'X',
      email: emailUnico(),
      perfil: ['master'],
    });
    assert.equal(criarMaster.status, 403);
    assert.equal(
      (
        await master.nav.postJson(url(`/usuario/${alvo.id}`), {
          nome: alvo.nome,
          email: alvo.email,
          perfil: ['consumidor', 'master'],
        })
      ).status,
      200,
    );
    assert.deepEqual(await perfilDe(alvo.id), ['master', 'consumidor']);
    const retirar = await admin.nav.postJson(url(`/usuario/${alvo.id}`), {
      nome: alvo.nome,
      email: alvo.email,
      perfil: ['consumidor'],
    });
    assert.equal(retirar.status, 403);
    assert.equal(
      (await admin.nav.postJson(url(`/usuario/delete/${alvo.id}`), {})).status,
      403,
      'apagar um master também é retirar master',
    );
    assert.deepEqual(await perfilDe(alvo.id), ['master', 'consumidor']);
    // Editing a master's other fields, keeping master, is fine for an admin.
    assert.equal(
      (
        await admin.nav.postJson(url(`/usuario/${alvo.id}`), {
          nome: 'Renomeado',
          email: alvo.email,
          perfil: ['master', 'consumidor'],
        })
      ).status,
      200,
    );
  });

  test('ninguém retira o próprio admin ou master nem se desativa', async () => {
    const eu = await entrarComo(amb, ['admin', 'consumidor']);
    const euId = eu.id ?? 0;
    const r = await eu.nav.postJson(url(`/usuario/${euId}`), { nome: 'Eu', email: eu.email, perfil: ['consumidor'] });
    assert.equal(r.status, 403);
    assert.match(r.json<Envelope>().error, /próprio perfil admin/);
    const desativar = await eu.nav.postJson(url(`/usuario/${euId}`), {
      nome: 'Eu',
      email: eu.email,
      perfil: ['admin', 'consumidor'],
      ativo: false,
    });
    assert.equal(desativar.status, 403);
    assert.equal((await eu.nav.postJson(url(`/usuario/delete/${euId}`), {})).status, 403);
    assert.deepEqual(await perfilDe(euId), ['admin', 'consumidor']);
  });

  test('o último master ativo fica', async () => {
    const isolado = await iniciarAmbiente();
    try {
      const unico = await entrarComo(isolado, ['master']);
      const outro = await criarUsuario(isolado.banco, { perfil: ['admin'] });
      const r = await unico.nav.postJson(`${isolado.url}/usuario/${unico.id}`, {
        nome: 'Único',
        email: unico.email,
        perfil: ['master'],
        ativo: true,
      });
      assert.equal(r.status, 200);
      // A second master makes it possible to step down, through the other master.
      const segundo = await entrarComo(isolado, ['master']);
      assert.equal(
        (
          await segundo.nav.postJson(`${isolado.url}/usuario/${unico.id}`, {
            nome: 'Único',
            email: unico.email,
            perfil: ['admin'],
          })
        ).status,
        200,
      );
      const ultimo = await unico.nav.postJson(`${isolado.url}/usuario/${segundo.id}`, {
        nome: 'Segundo',
        email: segundo.email,
        perfil: ['admin'],
      });
      assert.equal(ultimo.status, 403, 'quem deixou de ser master não retira master');
      const desativarUltimo = await segundo.nav.postJson(`${isolado.url}/usuario/${outro.id}`, {
        nome: outro.nome,
        email: outro.email,
        perfil: ['admin'],
      });
      assert.equal(desativarUltimo.status, 200);
      const mastersAtivos = await isolado.banco
        .selectFrom('usuario')
        .select('id')
        .where('perfil', 'like', '%"master"%')
        .where('ativo', '=', true)
        .execute();
      assert.deepEqual(
        mastersAtivos.map((m) => m.id),
        [segundo.id],
      );
    } finally {
      await isolado.fechar();
    }
  });

  test('apagar um usuário com pedidos ou ofertas dá 409; sem histórico, apaga', async () => {
    const livre = await criarUsuario(amb.banco);
    assert.equal((await admin.nav.postJson(url(`/usuario/delete/${livre.id}`), {})).status, 200);
    const comHistorico = await criarUsuario(amb.banco, { perfil: ['fornecedor'] });
    const iso = new Date().toISOString();
    const c = await amb.banco
      .insertInto('ciclo')
      .values({
        nome: 'H',
        nomeChave: 'h',
        dataOfertaInicio: '2026-01-01',
        dataOfertaFim: '2026-01-01',
        dataPedidoInicio: '2026-01-01',
        dataPedidoFim: '2026-01-01',
        dataRetiradaInicio: '2026-01-01',
        dataRetiradaFim: '2026-01-01',
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await amb.banco
      .insertInto('oferta')
      .values({ cicloid: c.id, usuarioid: comHistorico.id, createdAt: iso, updatedAt: iso })
      .execute();
    const r = await admin.nav.postJson(url(`/usuario/delete/${comHistorico.id}`), {});
    assert.equal(r.status, 409);
    assert.match(r.json<Envelope>().error, /1 ofertas/);
  });

  test('o formulário de usuário desabilita master para quem não é master', async () => {
    const pagina = await admin.nav.get(url('/usuario'));
    assert.match(pagina.texto, /id="campo-perfil-master" name="perfil" value="master"\s+disabled/);
    const paraMaster = await master.nav.get(url('/usuario'));
    assert.doesNotMatch(paraMaster.texto, /id="campo-perfil-master" name="perfil" value="master"\s+disabled/);
  });
});
