import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { criarCicloAberto } from '../helpers/fabricas.ts';
import { tokenCsrf } from '../helpers/navegador.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Salvo {
  message: string;
  data: { pedidoId: number; pedido: { finalizado: boolean; dataConfirmacao: string | null } };
}

interface Painel {
  data: {
    ciclos: Array<{
      id: number;
      andamento: { pedido: string } | null;
      pendencias: { naoConfirmados: Array<{ nome: string }> } | null;
    }>;
  };
}

/** docs/dominio.md: a confirmed order that changes must be confirmed again, and everyone is told. */
describe('um pedido confirmado que muda pede nova confirmação, em voz alta', () => {
  let amb: AmbienteDeTeste;
  let consumidora: Pessoa;
  let admin: Pessoa;
  let cicloid = 0;
  let cicloCestaId = 0;
  let ponto = 0;
  before(async () => {
    amb = await iniciarAmbiente();
    consumidora = await entrarComo(amb, ['consumidor'], 'Consumidora Que Muda');
    admin = await entrarComo(amb, ['admin']);
    ({ cicloid, cicloCestaId, ponto } = await criarCicloAberto(amb.banco, 10));
  });
  after(() => amb.fechar());

  const url = (p: string) => `${amb.url}${p}`;
  const salvar = async (quantidade: number) =>
    (
      await consumidora.nav.postJson(url('/pedidoconsumidores'), {
        cicloid,
        pontoEntregaId: ponto,
        produtos: [{ cicloCestaId, quantidade }],
      })
    ).json<Salvo>();
  const confirmar = async (pedidoId: number) =>
    assert.equal((await consumidora.nav.postJson(url('/pedidoconsumidoresconfirmacao'), { pedidoId })).status, 200);
  const doCiclo = async (quem: Pessoa) =>
    (await quem.nav.getJson(url('/'))).json<Painel>().data.ciclos.find((c) => c.id === cicloid);

  test('pela API: a mensagem diz que falta confirmar de novo, o pedido volta a não confirmado, o painel e a coordenação sabem', async () => {
    const primeiro = await salvar(1);
    assert.equal(primeiro.message, 'Pedido salvo', 'o primeiro não foi confirmado: nada a dizer');
    await confirmar(primeiro.data.pedidoId);
    assert.equal((await doCiclo(consumidora))?.andamento?.pedido, 'confirmado');

    const alterado = await salvar(2);
    assert.equal(alterado.message, 'Pedido alterado: falta confirmar de novo');
    assert.deepEqual([alterado.data.pedido.finalizado, alterado.data.pedido.dataConfirmacao], [false, null]);
    assert.equal((await doCiclo(consumidora))?.andamento?.pedido, 'salvo');
    assert.match((await consumidora.nav.get(url('/'))).texto, /Pedido salvo, falta confirmar/);
    assert.deepEqual(
      (await doCiclo(admin))?.pendencias?.naoConfirmados.map((p) => p.nome),
      ['Consumidora Que Muda'],
    );

    const deNovo = await salvar(2);
    assert.equal(deNovo.message, 'Pedido salvo', 'salvar o que não estava confirmado não reabre nada');
    await confirmar(deNovo.data.pedidoId);
    assert.deepEqual((await doCiclo(admin))?.pendencias?.naoConfirmados, []);
  });

  test('pelo formulário: o aviso depois de salvar diz que precisa confirmar de novo, e a confirmação mostra o que falta', async () => {
    const pagina = await consumidora.nav.get(url(`/pedidoconsumidores/${cicloid}`));
    const csrf = tokenCsrf(pagina.texto);
    const r = await consumidora.nav.post(url('/pedidoconsumidores'), {
      form: {
        _csrf: csrf,
        cicloid: String(cicloid),
        pontoEntregaId: String(ponto),
        'produtos[0][cicloCestaId]': String(cicloCestaId),
        'produtos[0][quantidade]': '3',
      },
    });
    assert.equal(r.status, 200);
    assert.match(r.texto, /Pedido alterado: ele precisa ser confirmado de novo para entrar na entrega e na cobrança\./);
    assert.match(
      r.texto,
      /<strong>Falta confirmar\.<\/strong> Sem confirmação, o pedido não entra na entrega nem na cobrança\./,
    );
    assert.match(r.texto, /<button type="submit" class="botao">Confirmar pedido<\/button>/);
  });
});
