import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { conexaoParaProgramas } from '../../src/db/copias.ts';
import { DIALETO } from '../helpers/banco.ts';
import { criarUsuario } from '../helpers/fabricas.ts';
import { csrfDe, entrarComo } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

const modo = (caminho: string) => statSync(caminho).mode & 0o777;

describe('o que o serviço grava em disco só a conta dele lê', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente();
  });
  after(() => amb.fechar());

  test('a pasta de comprovantes é 0700 e um comprovante enviado é 0600', async () => {
    assert.equal(modo(amb.config.dirArquivos), 0o700);
    const admin = await entrarComo(amb, ['admin']);
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'] });
    const f = new FormData();
    for (const [k, v] of Object.entries({
      usuarioid: String(pessoa.id),
      tipoMovimentacaoId: '4',
      valor: '12.50',
      descricao: 'Pix',
      _csrf: await csrfDe(amb, admin.nav),
    }))
      f.append(k, v);
    f.append('arquivo', new Blob([new Uint8Array(Buffer.from('%PDF-1.4 comprovante'))]), 'comprovante.pdf');
    const r = await fetch(`${amb.url}/movimentacao`, {
      method: 'POST',
      body: f,
      headers: { cookie: `appSession=${admin.nav.cookie(amb.url, 'appSession') ?? ''}`, accept: 'application/json' },
    });
    assert.equal(r.status, 201, await r.text());
    const [arquivo] = readdirSync(amb.config.dirArquivos);
    assert.ok(arquivo !== undefined);
    assert.equal(modo(join(amb.config.dirArquivos, arquivo)), 0o600);
  });

  test(
    'o arquivo do SQLite e os seus -wal e -shm são 0600',
    { skip: DIALETO !== 'sqlite' ? 'só no SQLite' : false },
    async () => {
      if (amb.bancoConfig.tipo !== 'sqlite') return;
      await criarUsuario(amb.banco, { perfil: ['consumidor'] });
      const caminho = amb.bancoConfig.caminho;
      for (const c of [caminho, `${caminho}-wal`, `${caminho}-shm`]) assert.equal(modo(c), 0o600, c);
    },
  );
});

test('pg_dump e pg_restore recebem a senha pelo ambiente, nunca nos argumentos', () => {
  const c = conexaoParaProgramas('postgres://cestaria:s%40nha%20forte@banco.interno:5432/cestaria?sslmode=require');
  assert.equal(c.url, 'postgres://cestaria@banco.interno:5432/cestaria?sslmode=require');
  assert.ok(!c.url.includes('nha'));
  assert.deepEqual(c.env, { PGPASSWORD: 's@nha forte' });
  assert.deepEqual(conexaoParaProgramas('postgres://postgres@127.0.0.1:5432/teste'), {
    url: 'postgres://postgres@127.0.0.1:5432/teste',
    env: {},
  });
});
