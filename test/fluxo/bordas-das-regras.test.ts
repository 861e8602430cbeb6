import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';
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
  const emails: Record<'consumidor' | 'vizinha' | 'fornecedor' | 'admin', string> = {
    consumidor: '',
    vizinha: '',
    fornecedor: '',
    admin: '',
  };
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
    emails.vizinha = (await criarUsuario(amb.banco, { perfil: ['consumidor'] })).email;
  });
  after(() => amb.fechar());

  async function cicloNovo(): Promise<{ cicloid: number; cicloCestaId: number }> {
    const cesta = await criarCesta(amb.banco);
    const c = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
      compor: true,
    });
    return { cicloid: c.id, cicloCestaId: c.cicloCestas[0] ?? 0 };
  }
  const pedir = (cicloid: number, cicloCestaId: number, quantidade = 1) =>
    como('consumidor').postJson(`${amb.url}/pedidoconsumidores`, {
      cicloid,
      pontoEntregaId: ponto,
      produtos: [{ cicloCestaId, quantidade }],
    });
  const ofertar = (cicloid: number) =>
    como('fornecedor').postJson(`${amb.url}/ofertasave`, {
      cicloid,
      produtos: [{ produtoid, quantidade: 5, valor: 3 }],
    });

  test('o último dia de cada janela ainda vale: oferta em 04/03, pedido em 09/03', async () => {
    const { cicloid, cicloCestaId } = await cicloNovo();
    relogio.definir(dia('04'));
    assert.equal(
      (await ofertar(cicloid)).status,
      201,
      'oferta no último dia do período de ofertas (a primeira: criada)',
    );
    relogio.definir(dia('05'));
    assert.equal((await ofertar(cicloid)).status, 409, 'e no dia seguinte, não');
    relogio.definir(dia('09'));
    const pedido = await pedir(cicloid, cicloCestaId);
    assert.equal(pedido.status, 201, pedido.texto);
    const pedidoId = pedido.json<{ data: { pedidoId: number } }>().data.pedidoId;
    assert.equal(
      (await como('consumidor').postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, { pedidoId })).status,
      200,
      'confirmar no último dia',
    );
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
    await amb.banco
      .updateTable('ciclo')
      .set({ fechadoEm: new Date().toISOString() })
      .where('id', '=', cicloid)
      .execute();
    const fechado = await como('consumidor').postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, { pedidoId });
    assert.equal(fechado.status, 409);
    assert.equal(
      fechado.json<{ error: string }>().error,
      'Este ciclo já foi fechado: nada nele muda, a não ser que um master o reabra',
    );
    // Closed for the coordination too, and its page says so: no form to edit.
    const consumidora = await amb.banco
      .selectFrom('usuario')
      .select('id')
      .where('email', '=', emails.consumidor)
      .executeTakeFirstOrThrow();
    const pelaCoordenacao = await como('admin').postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, { pedidoId });
    assert.equal(pelaCoordenacao.status, 409);
    const pagina = await como('admin').getJson(`${amb.url}/pedidoconsumidores/${cicloid}?usuarioid=${consumidora.id}`);
    assert.deepEqual(pagina.json<{ data: { acoes: unknown } }>().data.acoes, { editar: false, confirmar: false });
    const confirmacao = await como('admin').getJson(`${amb.url}/pedidoconsumidoresconfirmacao/${pedidoId}`);
    assert.deepEqual(
      confirmacao.json<{ data: { acoes: unknown } }>().data.acoes,
      { confirmar: false },
      'nem o botão de confirmar',
    );
    const linha = await amb.banco
      .selectFrom('pedido')
      .select(['finalizado', 'dataConfirmacao'])
      .where('id', '=', pedidoId)
      .executeTakeFirstOrThrow();
    assert.equal(Boolean(linha.finalizado), false);
    assert.equal(linha.dataConfirmacao, null);
  });

  test('compor menos cestas do que as já pedidas dá 409 ABAIXO_DOS_PEDIDOS; exatamente as pedidas, passa', async () => {
    const { cicloid, cicloCestaId } = await cicloNovo();
    const oferta = await criarOfertaFinalizada(amb.banco, cicloid, [
      { produtoId: produtoid, quantidadeMilesimos: 100_000, valorCentavos: 300 },
    ]);
    relogio.definir(dia('07'));
    assert.equal((await pedir(cicloid, cicloCestaId, 3)).status, 201);
    const compor = (quantidadeCestas: number) =>
      como('admin').postJson(`${amb.url}/composicao/${cicloCestaId}`, {
        quantidadeCestas,
        produtos: [{ ofertaProdutoId: oferta.linhas[0], quantidadePorCesta: 1, unidade: 'kg' }],
      });
    const abaixo = await compor(2);
    assert.equal(abaixo.status, 409, abaixo.texto);
    assert.equal(
      abaixo.json<{ error: string }>().error,
      'Já há 3 cestas pedidas: a composição precisa de pelo menos essa quantidade',
    );
    // The basket was composed (10 of it) before it could be ordered: the refusal leaves that as it was.
    assert.deepEqual(
      await amb.banco
        .selectFrom('composicao')
        .select('quantidadeCestas')
        .where('cicloCestaId', '=', cicloCestaId)
        .execute(),
      [{ quantidadeCestas: 10 }],
      'nada gravado',
    );
    assert.equal((await compor(3)).status, 200);
  });

  test('com o estoque esgotado pelo próprio pedido, regravá-lo (igual ou só com outro ponto) passa; de outra pessoa, não', async () => {
    relogio.definir(dia('02'));
    const cesta = await criarCesta(amb.banco);
    const c = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 2 }],
      compor: true,
    });
    const cicloCestaId = c.cicloCestas[0] ?? 0;
    const extraProduto = (await criarProduto(amb.banco, { nome: 'Mel', unidade: 'kg' })).id;
    await criarOfertaFinalizada(amb.banco, c.id, [
      { produtoId: extraProduto, quantidadeMilesimos: 5000, valorCentavos: 2000 },
    ]);
    const publicar = (quantidade: number) =>
      como('admin').postJson(`${amb.url}/ciclo/${c.id}`, {
        nome: `Ciclo do mel ${c.id}`,
        ...DATAS_PADRAO,
        cicloProdutos: [{ produtoId: extraProduto, quantidade, valor: '25.00' }],
      });
    assert.equal((await publicar(3)).status, 200);
    const cicloProdutoId = (
      await amb.banco.selectFrom('cicloproduto').select('id').where('cicloid', '=', c.id).executeTakeFirstOrThrow()
    ).id;
    const outroPonto = (await criarPonto(amb.banco)).id;
    const pedido = (quem: 'consumidor' | 'vizinha', pontoEntregaId: number, cestas: number, mel: number) =>
      como(quem).postJson(`${amb.url}/pedidoconsumidores`, {
        cicloid: c.id,
        pontoEntregaId,
        produtos: [{ cicloCestaId, quantidade: cestas }, ...(mel > 0 ? [{ cicloProdutoId, quantidade: mel }] : [])],
      });
    relogio.definir(dia('07'));
    const tudo = await pedido('consumidor', ponto, 2, 3);
    assert.equal(tudo.status, 201, tudo.texto);
    const igual = await pedido('consumidor', ponto, 2, 3);
    assert.equal(igual.status, 200, `o mesmo pedido de novo: ${igual.texto}`);
    const outroLugar = await pedido('consumidor', outroPonto, 2, 3);
    assert.equal(outroLugar.status, 200, `só outro ponto de retirada: ${outroLugar.texto}`);
    const gravado = await amb.banco.selectFrom('pedido').select('pontoEntregaId').where('cicloid', '=', c.id).execute();
    assert.deepEqual(gravado, [{ pontoEntregaId: outroPonto }]);
    // What the order page and the cycle's order list say of it: each line, priced, and the totals.
    interface PedidoLido {
      pedidoId: number;
      pedido: Record<string, unknown>;
      produtos: Array<Record<string, unknown>>;
    }
    const semIds = (p: PedidoLido) => ({ ...p, produtos: p.produtos.map(({ id: _id, ...l }) => l) });
    const esperado = {
      // A cycle without markets: one part, the community's fee (none here).
      pedido: {
        pontoEntregaId: outroPonto,
        finalizado: false,
        total: 175,
        taxa: 0,
        totalComTaxa: 175,
        partes: [{ mercadoId: null, mercado: null, subtotal: 175, taxa: 0 }],
      },
      produtos: [
        {
          tipo: 'cesta',
          cicloCestaId,
          cicloProdutoId: null,
          nome: cesta.nome,
          unidade: 'cesta',
          quantidade: 2,
          valor: 50,
          subtotal: 100,
          mercadoId: null,
          mercado: null,
        },
        {
          tipo: 'extra',
          cicloCestaId: null,
          cicloProdutoId,
          nome: 'Mel',
          unidade: 'kg',
          quantidade: 3,
          valor: 25,
          subtotal: 75,
          mercadoId: null,
          mercado: null,
        },
      ],
    };
    const {
      pedidoId,
      pedido: doPedido,
      produtos,
    } = (await como('consumidor').getJson(`${amb.url}/pedidoconsumidores/${c.id}`)).json<{ data: PedidoLido }>().data;
    const pagina = { pedidoId, pedido: doPedido, produtos };
    const pessoa = await amb.banco
      .selectFrom('usuario')
      .select(['id', 'nome'])
      .where('email', '=', emails.consumidor)
      .executeTakeFirstOrThrow();
    const lugar = await amb.banco
      .selectFrom('pontoentrega')
      .select(['id', 'nome'])
      .where('id', '=', outroPonto)
      .executeTakeFirstOrThrow();
    assert.deepEqual(semIds(pagina), {
      pedidoId,
      produtos: esperado.produtos,
      pedido: {
        ...esperado.pedido,
        id: pedidoId,
        cicloid: c.id,
        usuarioid: pessoa.id,
        usuario: pessoa,
        pontoEntrega: { ...lugar, dataRetirada: null, horaInicio: null, horaFim: null },
        dataConfirmacao: null,
      },
    });
    const lista = (await como('admin').getJson(`${amb.url}/pedidosconsumidorestodos/${c.id}`)).json<{
      data: { itens: PedidoLido[] };
    }>().data.itens;
    assert.deepEqual(lista.map(semIds), [semIds(pagina)], 'a lista da coordenação diz o mesmo');
    assert.equal(pagina.produtos.length, 2);
    const vizinhaCesta = await pedido('vizinha', ponto, 1, 0);
    assert.equal(vizinhaCesta.status, 409, 'a cesta acabou para as outras pessoas');
    assert.match(vizinhaCesta.json<{ error: string }>().error, /disponível: 0 cesta/);
    assert.deepEqual(vizinhaCesta.json<{ details: unknown }>().details, {
      disponivel: [{ nome: cesta.nome, disponivel: 0, pedido: 1, unidade: 'cesta' }],
    });
    const vizinhaMel = await como('vizinha').postJson(`${amb.url}/pedidoconsumidores`, {
      cicloid: c.id,
      pontoEntregaId: ponto,
      produtos: [{ cicloProdutoId, quantidade: 0.5 }],
    });
    assert.equal(vizinhaMel.status, 409, 'e o mel também');
    assert.match(vizinhaMel.json<{ error: string }>().error, /Mel \(disponível: 0 kg\)/);
    assert.deepEqual(vizinhaMel.json<{ details: unknown }>().details, {
      disponivel: [{ nome: 'Mel', disponivel: 0, pedido: 0.5, unidade: 'kg' }],
    });
    // Short of part: what is left is said exactly (1 of the 2 baskets, once this order gives one back).
    assert.equal((await pedido('consumidor', outroPonto, 1, 3)).status, 200);
    const parte = await pedido('vizinha', ponto, 2, 0);
    assert.equal(parte.status, 409);
    assert.deepEqual(parte.json<{ details: unknown }>().details, {
      disponivel: [{ nome: cesta.nome, disponivel: 1, pedido: 2, unidade: 'cesta' }],
    });
  });

  test('um extra publicado não cai abaixo do que os pedidos já têm: 409 QUANTIDADE_ABAIXO_DO_USO; exatamente o pedido, passa', async () => {
    relogio.definir(dia('02'));
    const c = await criarCiclo(amb.banco, { datas: DATAS_PADRAO });
    const extraProduto = (await criarProduto(amb.banco, { nome: 'Queijo', unidade: 'kg' })).id;
    await criarOfertaFinalizada(amb.banco, c.id, [
      { produtoId: extraProduto, quantidadeMilesimos: 10_000, valorCentavos: 3000 },
    ]);
    const publicar = (quantidade: number) =>
      como('admin').postJson(`${amb.url}/ciclo/${c.id}`, {
        nome: `Ciclo do queijo ${c.id}`,
        ...DATAS_PADRAO,
        cicloProdutos: [{ produtoId: extraProduto, quantidade, valor: '40.00' }],
      });
    assert.equal((await publicar(5)).status, 200);
    const cicloProdutoId = (
      await amb.banco.selectFrom('cicloproduto').select('id').where('cicloid', '=', c.id).executeTakeFirstOrThrow()
    ).id;
    relogio.definir(dia('07'));
    const pedido = await como('consumidor').postJson(`${amb.url}/pedidoconsumidores`, {
      cicloid: c.id,
      pontoEntregaId: ponto,
      produtos: [{ cicloProdutoId, quantidade: 2.5 }],
    });
    assert.equal(pedido.status, 201, pedido.texto);
    const abaixo = await publicar(2.499);
    assert.equal(abaixo.status, 409, abaixo.texto);
    assert.equal(
      abaixo.json<{ error: string }>().error,
      'O extra Queijo já tem 2,5 kg pedidos: a quantidade não pode ficar abaixo disso',
    );
    const linha = await amb.banco
      .selectFrom('cicloproduto')
      .select('quantidadeMilesimos')
      .where('id', '=', cicloProdutoId)
      .executeTakeFirstOrThrow();
    assert.equal(linha.quantidadeMilesimos, 5000, 'nada mudou');
    assert.equal((await publicar(2.5)).status, 200, 'exatamente o que foi pedido');
  });

  test('fechar o ciclo de novo num dia posterior não lança nada', async () => {
    const { cicloid, cicloCestaId } = await cicloNovo();
    const oferta = await criarOfertaFinalizada(amb.banco, cicloid, [
      { produtoId: produtoid, quantidadeMilesimos: 10_000, valorCentavos: 300 },
    ]);
    const compor = await como('admin').postJson(`${amb.url}/composicao/${cicloCestaId}`, {
      quantidadeCestas: 2,
      produtos: [{ ofertaProdutoId: oferta.linhas[0], quantidadePorCesta: 1, unidade: 'kg' }],
    });
    assert.equal(compor.status, 200, compor.texto);
    relogio.definir(dia('07'));
    const pedidoId = (await pedir(cicloid, cicloCestaId, 2)).json<{ data: { pedidoId: number } }>().data.pedidoId;
    assert.equal(
      (await como('consumidor').postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, { pedidoId })).status,
      200,
    );
    const movimentos = async () =>
      amb.banco
        .selectFrom('movimentacao')
        .select(['usuarioid', 'sentido', 'valorCentavos', 'data'])
        .where('cicloid', '=', cicloid)
        .orderBy('id')
        .execute();
    relogio.definir(dia('10'));
    const primeiro = await como('admin').postJson(`${amb.url}/fecharciclo/${cicloid}`, {});
    assert.equal(primeiro.status, 200, primeiro.texto);
    const depois = await movimentos();
    assert.deepEqual(
      depois.map((m) => [m.usuarioid === oferta.fornecedorId ? 'fornecedor' : 'consumidora', m.sentido, m.data]),
      [
        ['consumidora', 'debito', '2026-03-10'],
        ['fornecedor', 'credito', '2026-03-10'],
      ],
      'o fechamento debita o pedido e credita as entregas',
    );
    for (const d of ['11', '17']) {
      relogio.definir(dia(d));
      const outra = await como('admin').postJson(`${amb.url}/fecharciclo/${cicloid}`, {});
      assert.equal(outra.status, 200, outra.texto);
      assert.equal(outra.json<{ data: { novas: number } }>().data.novas, 0, `fechar de novo em ${d}/03`);
      assert.deepEqual(await movimentos(), depois, `nada novo em ${d}/03`);
    }
  });
});
