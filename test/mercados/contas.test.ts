import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { abrirBanco, type Banco } from '../../src/db/banco.ts';
import {
  contaDaSessao,
  encerrarSessao,
  entrarComProvedor,
  purgarSessoesExpiradas,
  DURACAO_SESSAO_MS,
  type ContextoLogin,
} from '../../src/domain/contas.ts';
import { Invalido } from '../../src/domain/erros.ts';
import { DIALETO, bancoNovo } from '../helpers/banco.ts';
import { emailUnico } from '../helpers/fabricas.ts';

const AGORA = new Date('2026-11-21T12:00:00.000Z');
const CTX: ContextoLogin = { agora: AGORA, adminEmails: new Set(['admin@teste.org']), sessaoAnterior: null };

describe(`contas da face Mercados (${DIALETO})`, () => {
  let banco: Banco;
  before(async () => {
    banco = abrirBanco(await bancoNovo());
  });
  after(() => banco.destroy());

  async function contar(tabela: 'appuser' | 'appsession' | 'appuserprofile'): Promise<number> {
    const r = await banco
      .selectFrom(tabela)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(r.n);
  }

  test('os quatro perfis vêm semeados, e nenhum outro nome é aceito', async () => {
    const perfis = await banco.selectFrom('profile').select('name').orderBy('id').execute();
    assert.deepEqual(
      perfis.map((p) => p.name),
      ['Administrador', 'AdminMercado', 'Fornecedor', 'Consumidor'],
    );
    const iso = AGORA.toISOString();
    await assert.rejects(
      banco
        .insertInto('profile')
        .values({ name: 'Gerente', description: null, createdAt: iso, updatedAt: iso })
        .execute(),
    );
  });

  test('um perfil do provedor inválido não cria nada: e-mail inválido, sem e-mail, sem nome, sem sub', async () => {
    const antes = [await contar('appuser'), await contar('appsession'), await contar('appuserprofile')];
    const casos = [
      { emissor: 'teste', providerId: 'p1', email: 'nao-e-email', name: 'X', avatar: undefined, emailVerificado: true },
      { emissor: 'teste', providerId: 'p2', email: undefined, name: 'X', avatar: undefined, emailVerificado: true },
      {
        emissor: 'teste',
        providerId: 'p3',
        email: emailUnico(),
        name: undefined,
        avatar: undefined,
        emailVerificado: true,
      },
      { emissor: 'teste', providerId: '', email: emailUnico(), name: 'X', avatar: undefined, emailVerificado: true },
    ];
    for (const perfil of casos) await assert.rejects(entrarComProvedor(banco, perfil, CTX), Invalido);
    assert.deepEqual([await contar('appuser'), await contar('appsession'), await contar('appuserprofile')], antes);
  });

  test('um endereço de foto que não é http(s) não impede o login: a foto só não é guardada', async () => {
    const { conta } = await entrarComProvedor(
      banco,
      {
        emissor: 'teste',
        providerId: 'foto-ruim',
        email: emailUnico(),
        name: 'Foto',
        avatar: 'javascript:alert(1)',
        emailVerificado: true,
      },
      CTX,
    );
    assert.equal(conta.avatar, null);
  });

  test('dois primeiros logins simultâneos da mesma pessoa dão uma só conta', async () => {
    const perfil = {
      emissor: 'teste',
      providerId: 'simultaneo',
      email: emailUnico('simultaneo'),
      name: 'Duas Abas',
      avatar: undefined,
      emailVerificado: true,
    };
    const [a, b] = await Promise.all([entrarComProvedor(banco, perfil, CTX), entrarComProvedor(banco, perfil, CTX)]);
    assert.equal(a.conta.id, b.conta.id);
    assert.notEqual(a.sessao, b.sessao);
    const linhas = await banco.selectFrom('appuser').select('id').where('providerId', '=', 'simultaneo').execute();
    assert.equal(linhas.length, 1);
    assert.deepEqual(b.conta.profiles, ['Consumidor']);
  });

  test('a tabela guarda só um hash do token: o token em si não abre nada lido do banco', async () => {
    const { sessao, conta } = await entrarComProvedor(
      banco,
      {
        emissor: 'teste',
        providerId: 'hash',
        email: emailUnico(),
        name: 'H',
        avatar: undefined,
        emailVerificado: true,
      },
      CTX,
    );
    const linha = await banco
      .selectFrom('appsession')
      .selectAll()
      .where('userId', '=', conta.id)
      .executeTakeFirstOrThrow();
    assert.notEqual(linha.id, sessao);
    assert.equal(await contaDaSessao(banco, linha.id, AGORA), null);
    assert.equal((await contaDaSessao(banco, sessao, AGORA))?.id, conta.id);
  });

  test('sessão: vale até 24 h, encerrar apaga, e a limpeza apaga só as expiradas', async () => {
    const p = { emissor: 'teste', email: emailUnico(), name: 'S', avatar: undefined, emailVerificado: true };
    const velha = await entrarComProvedor(banco, { ...p, providerId: 'sessao-velha' }, CTX);
    const nova = await entrarComProvedor(
      banco,
      { ...p, email: emailUnico(), providerId: 'sessao-nova' },
      { ...CTX, agora: new Date(AGORA.getTime() + 60_000) },
    );
    const fim = new Date(AGORA.getTime() + DURACAO_SESSAO_MS);
    assert.equal((await contaDaSessao(banco, velha.sessao, new Date(fim.getTime() - 1)))?.id, velha.conta.id);
    assert.equal(await contaDaSessao(banco, velha.sessao, fim), null);
    const removidas = await purgarSessoesExpiradas(banco, fim);
    assert.ok(removidas >= 1);
    assert.equal((await contaDaSessao(banco, nova.sessao, fim))?.id, nova.conta.id, 'a mais nova continua');
    assert.equal(await encerrarSessao(banco, nova.sessao), true);
    assert.equal(await encerrarSessao(banco, nova.sessao), false);
    assert.equal(await contaDaSessao(banco, nova.sessao, AGORA), null);
  });
});
