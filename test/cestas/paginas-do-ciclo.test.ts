import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { criarCicloAberto } from '../helpers/fabricas.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

describe('as páginas de um ciclo dizem de que ciclo são', () => {
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  let cicloid = 0;
  let cicloCestaId = 0;
  let nome = '';
  before(async () => {
    amb = await iniciarAmbiente();
    admin = await entrarComo(amb, ['admin']);
    let ponto = 0;
    ({ cicloid, cicloCestaId, ponto } = await criarCicloAberto(amb.banco, 10));
    nome = (await amb.banco.selectFrom('ciclo').select('nome').where('id', '=', cicloid).executeTakeFirstOrThrow())
      .nome;
    const pedir = async (quem: Pessoa, quantidade: number) =>
      (
        await quem.nav.postJson(`${amb.url}/pedidoconsumidores`, {
          cicloid,
          pontoEntregaId: ponto,
          produtos: [{ cicloCestaId, quantidade }],
        })
      ).json<{ data: { pedidoId: number } }>().data.pedidoId;
    const ana = await entrarComo(amb, ['consumidor'], 'Ana');
    const bia = await entrarComo(amb, ['consumidor'], 'Bia');
    const confirmado = await pedir(ana, 2);
    assert.equal(
      (await ana.nav.postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, { pedidoId: confirmado })).status,
      200,
    );
    await pedir(bia, 1);
  });
  after(() => amb.fechar());

  test('a composição nomeia o ciclo e volta a ele', async () => {
    const html = (await admin.nav.get(`${amb.url}/composicao/${cicloCestaId}`)).texto;
    assert.match(html, new RegExp(`<p class="ciclo-da-pagina">Ciclo <a href="/ciclo/${cicloid}">${nome}</a></p>`));
    assert.match(html, new RegExp(`<a href="/ciclo/${cicloid}">Voltar ao ciclo ${nome}</a>`));
    assert.equal(
      (await admin.nav.getJson(`${amb.url}/composicao/${cicloCestaId}`)).json<{
        data: { cicloCesta: { cicloNome: string } };
      }>().data.cicloCesta.cicloNome,
      nome,
    );
  });

  test('os pedidos do ciclo nomeiam o ciclo e somam confirmados, não confirmados e todos', async () => {
    const html = (await admin.nav.get(`${amb.url}/pedidosconsumidorestodos/${cicloid}`)).texto;
    assert.match(html, new RegExp(`<h1>Pedidos do ciclo ${nome}</h1>`));
    // A basket of the fixture costs R$ 50,00; the default fee is none.
    assert.match(html, /Confirmados \(entram na entrega e na cobrança\): 1 pedido<\/th><td>R\$ 100,00<\/td>/);
    assert.match(html, /Não confirmados: 1 pedido<\/th><td>R\$ 50,00<\/td>/);
    assert.match(html, /Todos: 2 pedidos<\/th><td>R\$ 150,00<\/td>/);
    assert.equal(
      (await admin.nav.get(`${amb.url}/pedidosconsumidorestodos/999999`)).status,
      404,
      'um ciclo que não existe',
    );
  });
});
