import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { criarCiclo, criarUsuario } from '../helpers/fabricas.ts';
import { csrfDe, entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

type Json = Record<string, unknown>;

/**
 * A JSON save of a record that exists keeps what it does not send; `null` clears what may be
 * empty; creation still asks for what the record needs; a form is read as it came.
 */
describe('salvar em JSON só o que mudou', () => {
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  before(async () => {
    amb = await iniciarAmbiente();
    admin = await entrarComo(amb, ['admin', 'master']);
  });
  after(() => amb.fechar());

  const url = (p: string) => `${amb.url}${p}`;
  const salvar = async (nav: Pessoa, caminho: string, corpo: Json, status = 200): Promise<Json> => {
    const r = await nav.nav.postJson(url(caminho), corpo);
    assert.equal(r.status, status, `${caminho} ${JSON.stringify(corpo)}: ${r.texto}`);
    return r.json<{ data: Json }>().data;
  };
  const ler = async (caminho: string): Promise<Json> => {
    const r = await admin.nav.getJson(url(caminho));
    assert.equal(r.status, 200, r.texto);
    return r.json<{ data: { registro: Json } }>().data.registro;
  };

  test('categoria: o que não veio fica; null apaga a descrição; criar ainda pede o nome', async () => {
    const criada = await salvar(admin, '/categoria', { nome: 'Folhas', descricao: 'Alfaces e couves' }, 201);
    const id = Number(criada.id);
    await salvar(admin, `/categoria/${id}`, { nome: 'Folhosas', ativo: false });
    assert.deepEqual(((r) => [r.nome, r.descricao, r.ativo])(await ler(`/categoria/${id}`)), [
      'Folhosas',
      'Alfaces e couves',
      false,
    ]);
    // Only `ativo`: the name it already has is not "missing".
    await salvar(admin, `/categoria/${id}`, { ativo: true });
    assert.deepEqual(((r) => [r.nome, r.ativo])(await ler(`/categoria/${id}`)), ['Folhosas', true]);
    await salvar(admin, `/categoria/${id}`, { descricao: null });
    assert.deepEqual(((r) => [r.nome, r.descricao])(await ler(`/categoria/${id}`)), ['Folhosas', null]);
    // A field that may not be empty is refused when sent empty, and nothing changes.
    const vazio = await admin.nav.postJson(url(`/categoria/${id}`), { nome: null });
    assert.equal(vazio.status, 400, vazio.texto);
    assert.deepEqual(vazio.json<{ details: Json }>().details, { nome: 'Campo obrigatório' });
    assert.equal((await ler(`/categoria/${id}`)).nome, 'Folhosas');
    const semNome = await admin.nav.postJson(url('/categoria'), { descricao: 'sem nome' });
    assert.equal(semNome.status, 400, semNome.texto);
    assert.deepEqual(semNome.json<{ details: Json }>().details, { nome: 'Campo obrigatório' });
    // A record that does not exist is 404 before its body is read.
    const outro = await admin.nav.postJson(url('/categoria/999999'), { nome: 123 });
    assert.equal(outro.status, 404, outro.texto);
  });

  test('cesta, produto e ponto de entrega: valores, unidade, categoria e telefone ficam', async () => {
    const cesta = await salvar(
      admin,
      '/cesta',
      { nome: 'Cesta média', descricao: 'Para duas pessoas', valorReferencia: 80.5, pesoAproximado: 4000 },
      201,
    );
    await salvar(admin, `/cesta/${String(cesta.id)}`, { descricao: 'Para duas ou três pessoas' });
    assert.deepEqual(
      ((r) => [r.nome, r.descricao, r.valorReferencia, r.pesoAproximado])(await ler(`/cesta/${String(cesta.id)}`)),
      ['Cesta média', 'Para duas ou três pessoas', 80.5, 4000],
    );

    const categoria = await salvar(admin, '/categoria', { nome: 'Raízes' }, 201);
    const produto = await salvar(
      admin,
      '/produto',
      { nome: 'Mandioca', unidade: 'kg', valorReferencia: 6.4, categoriaid: categoria.id, pesoGramas: 1000 },
      201,
    );
    await salvar(admin, `/produto/${String(produto.id)}`, { valorReferencia: 7 });
    assert.deepEqual(
      ((r) => [r.nome, r.unidade, r.valorReferencia, r.categoriaid, r.pesoGramas])(
        await ler(`/produto/${String(produto.id)}`),
      ),
      ['Mandioca', 'kg', 7, categoria.id, 1000],
    );
    await salvar(admin, `/produto/${String(produto.id)}`, { categoriaid: null });
    assert.equal((await ler(`/produto/${String(produto.id)}`)).categoriaid, null);

    const ponto = await salvar(
      admin,
      '/pontoentrega',
      { nome: 'Feira da praça', cidade: 'Lavras', telefone: '(35) 99999-1234', responsavel: 'Dona Rita' },
      201,
    );
    await salvar(admin, `/pontoentrega/${String(ponto.id)}`, { endereco: 'Praça central, 10' });
    const lido = await ler(`/pontoentrega/${String(ponto.id)}`);
    assert.deepEqual(
      [lido.nome, lido.cidade, lido.endereco, lido.responsavel, lido.telefone],
      ['Feira da praça', 'Lavras', 'Praça central, 10', 'Dona Rita', ponto.telefone],
    );
  });

  test('usuário e ciclo: perfis, e-mail e datas ficam', async () => {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor', 'fornecedor'], nome: 'Tereza' });
    await salvar(admin, `/usuario/${pessoa.id}`, { celular: '(35) 98888-7777' });
    const u = await ler(`/usuario/${pessoa.id}`);
    assert.deepEqual(
      [u.nome, u.email, [...(u.perfil as string[])].sort(), u.celular],
      ['Tereza', pessoa.email, ['consumidor', 'fornecedor'], '(35) 98888-7777'],
    );

    const { id } = await criarCiclo(amb.banco, { nome: 'Ciclo de março' });
    const antes = await ler(`/ciclo/${id}`);
    await salvar(admin, `/ciclo/${id}`, { nome: 'Ciclo de março (feira)' });
    const depois = await ler(`/ciclo/${id}`);
    assert.equal(depois.nome, 'Ciclo de março (feira)');
    for (const campo of ['dataOfertaInicio', 'dataOfertaFim', 'dataPedidoInicio', 'dataPedidoFim'])
      assert.equal(depois[campo], antes[campo], campo);
  });

  test('/profile e /usuarionovo/:id: só o celular muda; a política aceita continua aceita', async () => {
    const eu = await entrarComo(amb, ['consumidor'], 'Joana');
    const id = eu.id ?? 0;
    await salvar(eu, '/profile', { nome: 'Joana', cientepolitica: true, descritivo: 'Planto ervas' });
    await salvar(eu, '/profile', { celular: '(35) 97777-6666' });
    const perfil = (await eu.nav.getJson(url('/profile'))).json<{ data: { usuario: Json } }>().data.usuario;
    assert.deepEqual(
      [perfil.nome, perfil.celular, perfil.cientepolitica, perfil.descritivo],
      ['Joana', '(35) 97777-6666', true, 'Planto ervas'],
    );
    await salvar(eu, `/usuarionovo/${id}`, { nomeoficial: 'Joana Silva' });
    const cadastro = (await eu.nav.getJson(url('/profile'))).json<{ data: { usuario: Json } }>().data.usuario;
    assert.deepEqual(
      [cadastro.nome, cadastro.nomeoficial, cadastro.perfil, cadastro.cientepolitica],
      ['Joana', 'Joana Silva', ['consumidor'], true],
    );
  });

  test('um formulário é lido como veio: o campo em branco apaga, a caixa desmarcada desliga', async () => {
    const criada = await salvar(admin, '/categoria', { nome: 'Frutas', descricao: 'Da estação' }, 201);
    const id = Number(criada.id);
    const csrf = await csrfDe(amb, admin.nav);
    const r = await admin.nav.post(
      url(`/categoria/${id}`),
      { form: { _csrf: csrf, nome: 'Frutas', descricao: '', ativo: 'false' } },
      { seguir: false },
    );
    assert.equal(r.status, 303, r.texto);
    assert.deepEqual(((x) => [x.nome, x.descricao, x.ativo])(await ler(`/categoria/${id}`)), ['Frutas', null, false]);
  });
});
