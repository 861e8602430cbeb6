import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { criarCicloAberto, criarUsuario, dividaAnterior } from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { entrarNoMercados, graphql } from './apoio.ts';

interface PixGql {
  copiaECola: string;
  qrSvg: string;
  valor: string;
  txid: string;
}

/** meusPedidos { pix }: the same payment code the person's /saldo page shows, in the Mercados face. */
describe('Pix nos pedidos do GraphQL', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({
      mercados: true,
      env: { PIX_CHAVE: 'financeiro@cestas.org', PIX_NOME: 'Associação Raízes', PIX_CIDADE: 'São Carlos' },
    });
  });
  after(() => amb.fechar());

  test('o pedido confirmado traz o Pix do que a pessoa deve, igual ao de /saldo; antes de confirmar, e para os outros, null', async () => {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Lia Paga' });
    const naCestas = new Navegador();
    await entrarPeloProvedor(naCestas, `${amb.url}/`, { email: pessoa.email });
    const noMercados = new Navegador();
    await entrarNoMercados(amb, noMercados, { email: pessoa.email, nome: 'Lia Paga' });
    const { cicloid, cicloCestaId, ponto } = await criarCicloAberto(amb.banco, 5);
    const salvo = await naCestas.postJson(`${amb.url}/pedidoconsumidores`, {
      cicloid,
      pontoEntregaId: ponto,
      produtos: [{ cicloCestaId, quantidade: 2 }],
    });
    assert.equal(salvo.status, 201, salvo.texto);
    const consulta =
      'query($c: ID) { meusPedidos(cicloId: $c) { id finalizado totalComTaxa pix { copiaECola qrSvg valor txid } } }';
    const antes = await graphql(amb.urlMercados, noMercados, consulta, { c: cicloid });
    assert.equal(antes.corpo.errors, undefined, JSON.stringify(antes.corpo.errors));
    assert.deepEqual(
      (antes.corpo.data?.meusPedidos as Array<{ pix: PixGql | null }>).map((p) => p.pix),
      [null],
      'sem confirmação, nada a pagar ainda',
    );
    const pedidoId = salvo.json<{ data: { pedidoId: number } }>().data.pedidoId;
    assert.equal((await naCestas.postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, { pedidoId })).status, 200);
    const depois = await graphql(amb.urlMercados, noMercados, consulta, { c: cicloid });
    const [pedido] = depois.corpo.data?.meusPedidos as Array<{ totalComTaxa: string; pix: PixGql | null }>;
    assert.ok(pedido?.pix);
    const saldo = (await naCestas.getJson(`${amb.url}/saldo`)).json<{
      data: { devido: number; txid: string; pix: { copiaECola: string } | null };
    }>().data;
    assert.equal(pedido.pix.copiaECola, saldo.pix?.copiaECola);
    assert.equal(pedido.pix.txid, saldo.txid);
    assert.equal(pedido.pix.valor, saldo.devido.toFixed(2));
    assert.equal(pedido.pix.valor, pedido.totalComTaxa);
    assert.match(pedido.pix.copiaECola, /^000201.*br\.gov\.bcb\.pix.*6304[0-9A-F]{4}$/);
    assert.match(pedido.pix.qrSvg, /^<svg[\s\S]*<\/svg>\s*$/);
  });

  test('minhaCobranca: o que a pessoa deve linha a linha e um Pix só, o de /saldo; sem nada devido, sem Pix', async () => {
    const pessoa = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome: 'Rui Deve' });
    const naCestas = new Navegador();
    await entrarPeloProvedor(naCestas, `${amb.url}/`, { email: pessoa.email });
    const noMercados = new Navegador();
    await entrarNoMercados(amb, noMercados, { email: pessoa.email, nome: 'Rui Deve' });
    const consulta =
      '{ minhaCobranca { devido linhas { tipo descricao valor cicloId pedidoId } pix { copiaECola valor txid } } }';
    const vazio = await graphql(amb.urlMercados, noMercados, consulta);
    assert.equal(vazio.corpo.errors, undefined, JSON.stringify(vazio.corpo.errors));
    assert.deepEqual(vazio.corpo.data, { minhaCobranca: { devido: '0.00', linhas: [], pix: null } });

    // A debt carried from before (R$ 12,50) and this cycle's confirmed order.
    await dividaAnterior(amb.banco, pessoa.id, 1250, { data: '2026-02-20', descricao: 'Ciclo de fevereiro' });
    const { cicloid, cicloCestaId, ponto } = await criarCicloAberto(amb.banco, 5);
    const salvo = await naCestas.postJson(`${amb.url}/pedidoconsumidores`, {
      cicloid,
      pontoEntregaId: ponto,
      produtos: [{ cicloCestaId, quantidade: 2 }],
    });
    assert.equal(salvo.status, 201, salvo.texto);
    const pedidoId = salvo.json<{ data: { pedidoId: number } }>().data.pedidoId;
    assert.equal((await naCestas.postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, { pedidoId })).status, 200);
    const r = await graphql(amb.urlMercados, noMercados, consulta);
    assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
    const c = (r.corpo.data as { minhaCobranca: { devido: string; linhas: unknown[]; pix: PixGql | null } })
      .minhaCobranca;
    const saldo = (await naCestas.getJson(`${amb.url}/saldo`)).json<{
      data: {
        devido: number;
        txid: string;
        linhas: Array<{ descricao: string; valor: number }>;
        pix: { copiaECola: string } | null;
      };
    }>().data;
    const nomeDoCiclo = (
      await amb.banco.selectFrom('ciclo').select('nome').where('id', '=', cicloid).executeTakeFirstOrThrow()
    ).nome;
    const doPedido = saldo.linhas[1]?.valor ?? 0;
    assert.equal(c.devido, (12.5 + doPedido).toFixed(2));
    assert.deepEqual(c.linhas, [
      {
        tipo: 'saldo',
        descricao: 'Saldo devedor que vem das movimentações anteriores (ciclos fechados, pagamentos e ajustes)',
        valor: '12.50',
        cicloId: null,
        pedidoId: null,
      },
      {
        tipo: 'pedido',
        descricao: `Pedido confirmado no ${nomeDoCiclo} (com a taxa; entra nas movimentações quando o ciclo fecha)`,
        valor: doPedido.toFixed(2),
        cicloId: String(cicloid),
        pedidoId: String(pedidoId),
      },
    ]);
    assert.ok(doPedido > 0);
    assert.deepEqual(c.pix, { copiaECola: saldo.pix?.copiaECola, valor: c.devido, txid: saldo.txid });
  });
});
