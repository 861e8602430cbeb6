import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DATAS_PADRAO } from '../helpers/fabricas.ts';
import { tokenCsrf } from '../helpers/navegador.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Envelope {
  data: { id: number; ativo: boolean } & Record<string, unknown>;
}

/**
 * `ativo` left out of a save: a new record is active, and an edit keeps what the record was, so
 * saving a deactivated record never reactivates it. A form always says (hidden "false" and the box).
 */
describe('salvar sem o campo ativo', () => {
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  before(async () => {
    amb = await iniciarAmbiente();
    admin = await entrarComo(amb, ['admin']);
  });
  after(() => amb.fechar());

  const url = (p: string) => `${amb.url}${p}`;
  let n = 0;
  const corpos: Record<string, () => Record<string, unknown>> = {
    categoria: () => ({ nome: `Categoria ${++n}` }),
    cesta: () => ({ nome: `Cesta ${++n}`, valorReferencia: '50.00' }),
    produto: () => ({ nome: `Produto ${++n}`, unidade: 'kg', valorReferencia: '5.00' }),
    pontoentrega: () => ({ nome: `Ponto ${++n}` }),
    usuario: () => ({ nome: `Pessoa ${++n}`, email: `pessoa.ativo.${++n}@teste.org`, perfil: ['consumidor'] }),
    ciclo: () => ({ nome: `Ciclo ${++n}`, ...DATAS_PADRAO }),
  };

  async function salvar(caminho: string, corpo: Record<string, unknown>, status: number): Promise<Envelope['data']> {
    const r = await admin.nav.postJson(url(caminho), corpo);
    assert.equal(r.status, status, `${caminho}: ${r.texto}`);
    return r.json<Envelope>().data;
  }

  for (const [entidade, corpo] of Object.entries(corpos)) {
    test(`${entidade}: nasce ativo; alterado sem o campo, fica como estava`, async () => {
      const dados = corpo();
      const criado = await salvar(`/${entidade}`, dados, 201);
      assert.equal(criado.ativo, true);
      assert.equal((await salvar(`/${entidade}/${criado.id}`, { ...dados, ativo: false }, 200)).ativo, false);
      assert.equal(
        (await salvar(`/${entidade}/${criado.id}`, dados, 200)).ativo,
        false,
        'sem o campo, continua desativado',
      );
      assert.equal((await salvar(`/${entidade}/${criado.id}`, { ...dados, ativo: true }, 200)).ativo, true);
      assert.equal((await salvar(`/${entidade}/${criado.id}`, dados, 200)).ativo, true, 'sem o campo, continua ativo');
      const novoDesativado = await salvar(`/${entidade}`, { ...corpo(), ativo: false }, 201);
      assert.equal(novoDesativado.ativo, false);
    });
  }

  test('o formulário sempre diz: só o "false" oculto desativa; com a caixa marcada, ativa', async () => {
    const criado = await salvar('/categoria', corpos.categoria?.() ?? {}, 201);
    const csrf = tokenCsrf((await admin.nav.get(url(`/categoria/${criado.id}`))).texto);
    const enviar = async (ativo: string[]) => {
      const r = await admin.nav.post(url(`/categoria/${criado.id}`), {
        form: { _csrf: csrf, nome: `Categoria ${criado.id}`, ativo },
      });
      assert.equal(r.status, 200, r.texto);
      assert.match(r.texto, /Categoria atualizad/);
      return (await admin.nav.getJson(url(`/categoria/${criado.id}`))).json<{
        data: { registro: { ativo: boolean } };
      }>().data.registro.ativo;
    };
    assert.equal(await enviar(['false']), false);
    assert.equal(await enviar(['false', 'true']), true);
  });
});
