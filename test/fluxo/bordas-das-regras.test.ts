import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarOfertaFinalizada, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import type { Navegador } from '../helpers/navegador.ts';
import { navegadorComSessao } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

/**
 * The edges of the rules: the last day of a window, an inactive or closed cycle, a composition
 * at exactly what is ordered. Each test here fails when its rule is moved by one step.
 */
describe('bordas das regras de janela, ciclo e composição', () => {
  // DATAS_PADRAO: offers 01–04/03, orders 06–09/03 (2026). Noon in São Paulo.
  const dia = (d: string) => `2026-03-${d}T15:00:00Z`;
  const relogio = new RelogioDeTeste(dia('02'));
  let amb: AmbienteDeTeste;
  let ponto = 0;
  let produtoid = 0;
  const emails: Record<'consumidor' | 'fornecedor' | 'admin', string> = { consumidor: '', fornecedor: '', admin: '' };
  // A session made at the test clock's current day: the tests move the clock across more than the
  // 7 days a session lasts.
  const como = (perfil: keyof typeof emails): Navegador => navegadorComSessao(amb, emails[perfil]);

  before(async () => {
    amb = await iniciarAmbiente({ relogio });
    ponto = (await criarPonto(amb.banco)).id;
    produtoid = (await criarProduto(amb.banco, { unidade: 'kg' })).id;
    for (const perfil of ['consumidor', 'fornecedor', 'admin'] as const) {
      emails[perfil] = (await criarUsuario(amb.banco, { perfil: [perfil] })).email;
    }
  });
  after(() => amb.fechar());

  async function cicloNovo(): Promise<{ cicloid: number; cicloCestaId: number }> {
    const cesta = await criarCesta(amb.banco);
    const c = await criarCiclo(amb.banco, { datas: DATAS_PADRAO, cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }] });
    return { cicloid: c.id, cicloCestaId: c.cicloCestas[0] ?? 0 };
  }
  const pedir = (cicloid: number, cicloCestaId: number, quantidade = 1) =>
    como('consumidor').postJson(`${amb.url}/pedidoconsumidores`, { cicloid, pontoEntregaId: ponto, produtos: [{ cicloCestaId, quantidade }] });
  const ofertar = (cicloid: number) => como('fornecedor').postJson(`${amb.url}/ofertasave`, { cicloid, produtos: [{ produtoid, quantidade: 5, valor: 3 }] });

  test('o último dia de cada janela ainda vale: oferta em 04/03, pedido em 09/03', async () => {
    const { cicloid, cicloCestaId } = await cicloNovo();
    relogio.definir(dia('04'));
    assert.equal((await ofertar(cicloid)).status, 200, 'oferta no último dia do período de ofertas');
    relogio.definir(dia('05'));
    assert.equal((await ofertar(cicloid)).status, 409, 'e no dia seguinte, não');
    relogio.definir(dia('09'));
    const pedido = await pedir(cicloid, cicloCestaId);
    assert.equal(pedido.status, 200, pedido.texto);
    const pedidoId = pedido.json<{ data: { pedidoId: number } }>().data.pedidoId;
    assert.equal((await como('consumidor').postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, { pedidoId })).status, 200, 'confirmar no último dia');
    relogio.definir(dia('10'));
    assert.equal((await pedir(cicloid, cicloCestaId)).status, 409, 'e no dia seguinte, não');
  });

  test('um ciclo inativo recusa ofertas e pedidos dentro das suas janelas', async () => {
    const { cicloid, cicloCestaId } = await cicloNovo();
    await amb.banco.updateTable('ciclo').set({ ativo: false }).where('id', '=', cicloid).execute();
    relogio.definir(dia('02'));
    const oferta = await ofertar(cicloid);
    assert.equal(oferta.status, 409);
    assert.equal(oferta.json<{ error: string }>().error, 'Este ciclo está desativado');
    relogio.definir(dia('07'));
    const pedido = await pedir(cicloid, cicloCestaId);
    assert.equal(pedido.status, 409);
    assert.equal(pedido.json<{ error: string }>().error, 'Este ciclo está desativado');
  });

  test('depois do período de pedidos, ou com o ciclo fechado, a consumidora não confirma', async () => {
    const { cicloid, cicloCestaId } = await cicloNovo();
    relogio.definir(dia('07'));
    const pedidoId = (await pedir(cicloid, cicloCestaId)).json<{ data: { pedidoId: number } }>().data.pedidoId;
    relogio.definir(dia('10'));
    const tarde = await como('consumidor').postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, { pedidoId });
    assert.equal(tarde.status, 409);
    assert.match(tarde.json<{ error: string }>().error, /terminou em 09\/03\/2026/);
    relogio.definir(dia('08'));
    await amb.banco.updateTable('ciclo').set({ fechadoEm: new Date().toISOString() }).where('id', '=', cicloid).execute();
    const fechado = await como('consumidor').postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, { pedidoId });
    assert.equal(fechado.status, 409);
    assert.equal(fechado.json<{ error: string }>().error, 'Este ciclo já foi fechado');
    const linha = await amb.banco.selectFrom('pedido').select(['finalizado', 'dataConfirmacao']).where('id', '=', pedidoId).executeTakeFirstOrThrow();
    assert.equal(Boolean(linha.finalizado), false);
    assert.equal(linha.dataConfirmacao, null);
  });

  test('compor menos cestas do que as já pedidas dá 409 ABAIXO_DOS_PEDIDOS; exatamente as pedidas, passa', async () => {
    const { cicloid, cicloCestaId } = await cicloNovo();
    const oferta = await criarOfertaFinalizada(amb.banco, cicloid, [{ produtoId: produtoid, quantidadeMilesimos: 100_000, valorCentavos: 300 }]);
    relogio.definir(dia('07'));
    assert.equal((await pedir(cicloid, cicloCestaId, 3)).status, 200);
    const compor = (quantidadeCestas: number) =>
      como('admin').postJson(`${amb.url}/composicao/${cicloCestaId}`, { quantidadeCestas, produtos: [{ ofertaProdutoId: oferta.linhas[0], quantidadePorCesta: 1, unidade: 'kg' }] });
    const abaixo = await compor(2);
    assert.equal(abaixo.status, 409, abaixo.texto);
    assert.equal(abaixo.json<{ error: string }>().error, 'Já há 3 cestas pedidas: a composição precisa de pelo menos essa quantidade');
    assert.equal(await amb.banco.selectFrom('composicao').select('id').where('cicloCestaId', '=', cicloCestaId).executeTakeFirst(), undefined, 'nada gravado');
    assert.equal((await compor(3)).status, 200);
  });
});
