import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { entrarNoMercados, graphql } from '../mercados/apoio.ts';

/**
 * The pickup can be tried on the demo community, as `npm start` loads it: Ana (the coordination)
 * finds the "Ciclo em retirada" points with their confirmed orders, reads a point and records a
 * pickup there.
 */
describe('a retirada na demonstração', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ mercados: true, env: { DEMO_DATA: 'true' } });
  });
  after(() => amb.fechar());

  test('Ana vê os pontos do ciclo em retirada, lê a Sede sem rede e registra uma retirada', async () => {
    const nav = new Navegador();
    await entrarNoMercados(amb, nav, { email: 'ana@exemplo.org' });
    const pontos = await graphql(
      amb.urlMercados,
      nav,
      '{ meusPontosDeRetirada { cicloId cicloNome pontoId pontoNome pedidos } }',
    );
    assert.equal(pontos.corpo.errors, undefined, JSON.stringify(pontos.corpo.errors));
    const lista = pontos.corpo.data?.meusPontosDeRetirada as Array<{
      cicloId: string;
      cicloNome: string;
      pontoId: string;
      pontoNome: string;
      pedidos: number;
    }>;
    const doCiclo = lista.filter((p) => p.cicloNome === 'Ciclo em retirada');
    assert.ok(
      doCiclo.some((p) => p.pontoNome === 'Sede da Associação' && p.pedidos >= 1),
      JSON.stringify(lista),
    );
    const sede = doCiclo.find((p) => p.pontoNome === 'Sede da Associação');
    assert.ok(sede);
    const r = await graphql(
      amb.urlMercados,
      nav,
      'query($c: ID!, $p: ID!) { retiradaDoPonto(cicloId: $c, pontoId: $p) { pedidos { id pessoa itens { nome } } } }',
      { c: sede.cicloId, p: sede.pontoId },
    );
    assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
    const pedidos = (r.corpo.data?.retiradaDoPonto as { pedidos: Array<{ id: string; itens: unknown[] }> }).pedidos;
    assert.equal(pedidos.length, sede.pedidos);
    const [primeiro] = pedidos;
    assert.ok(primeiro !== undefined && primeiro.itens.length > 0);
    const envio = await graphql(
      amb.urlMercados,
      nav,
      `mutation($c: ID!, $p: ID!, $a: [AcaoDeRetiradaInput!]!) {
        sincronizarRetirada(cicloId: $c, pontoId: $p, dispositivo: "aparelho-da-ana", acoes: $a) { estado mensagem } }`,
      {
        c: sede.cicloId,
        p: sede.pontoId,
        a: [
          { chave: randomUUID(), tipo: 'retirada', pedidoId: primeiro.id, feitoEm: amb.relogio.agora().toISOString() },
        ],
      },
    );
    assert.deepEqual(envio.corpo, { data: { sincronizarRetirada: [{ estado: 'aplicada', mensagem: null }] } });
  });

  test('Gabriel, voluntário da Sede no ciclo em retirada, vê só esse ponto e é recusado nos outros', async () => {
    const nav = new Navegador();
    await entrarNoMercados(amb, nav, { email: 'gabriel@exemplo.org' });
    const pontos = await graphql(
      amb.urlMercados,
      nav,
      '{ meusPontosDeRetirada { cicloId cicloNome pontoId pontoNome } }',
    );
    assert.equal(pontos.corpo.errors, undefined, JSON.stringify(pontos.corpo.errors));
    const lista = pontos.corpo.data?.meusPontosDeRetirada as Array<{
      cicloId: string;
      cicloNome: string;
      pontoId: string;
      pontoNome: string;
    }>;
    assert.deepEqual(
      lista.map((p) => [p.cicloNome, p.pontoNome]),
      [['Ciclo em retirada', 'Sede da Associação']],
    );
    const outro = await amb.banco
      .selectFrom('pontoentrega')
      .select('id')
      .where('nome', '!=', 'Sede da Associação')
      .executeTakeFirstOrThrow();
    const r = await graphql(
      amb.urlMercados,
      nav,
      'query($c: ID!, $p: ID!) { retiradaDoPonto(cicloId: $c, pontoId: $p) { pedidos { id } } }',
      { c: lista[0]?.cicloId, p: String(outro.id) },
    );
    assert.equal(r.corpo.errors?.[0]?.extensions?.code, 'FORBIDDEN');
  });
});
