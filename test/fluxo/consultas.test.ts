import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarCicloComPedidos,
  criarPonto,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';
import { navegadorComSessao } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import type { Navegador } from '../helpers/navegador.ts';

describe('consultas por relatório não crescem com os dados', () => {
  let amb: AmbienteDeTeste;
  let admin: Navegador;
  let pequeno = 0;
  let grande = 0;
  before(async () => {
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste('2026-03-11T15:00:00Z') });
    const ponto = (await criarPonto(amb.banco)).id;
    pequeno = await criarCicloComPedidos(amb.banco, 10, ponto);
    grande = await criarCicloComPedidos(amb.banco, 1000, ponto);
    admin = navegadorComSessao(amb, (await criarUsuario(amb.banco, { perfil: ['admin'] })).email);
  });
  after(() => amb.fechar());

  async function contar(pedir: () => Promise<{ status: number }>): Promise<number> {
    amb.consultas = 0;
    const r = await pedir();
    assert.equal(r.status, 200);
    return amb.consultas;
  }

  const rotas: Array<[string, (ciclo: number) => Promise<{ status: number }>]> = [
    ['sobra', (c) => admin.getJson(`${amb.url}/pedidosfornecedoressobra/${c}`)],
    ['fornecedores', (c) => admin.getJson(`${amb.url}/pedidosfornecedorestodos/${c}`)],
    ['fornecedores por ciclos', (c) => admin.postJson(`${amb.url}/pedidosfornecedoresciclos`, { ciclos: [c] })],
    ['consumidores por ciclos', (c) => admin.postJson(`${amb.url}/pedidosconsumidoresciclos`, { ciclos: [c] })],
    ['produtos por ciclos', (c) => admin.postJson(`${amb.url}/relatorioprodutosciclos`, { ciclos: [c] })],
    ['CSV', (c) => admin.get(`${amb.url}/downloadpedidosfornecedoresciclos?ciclos=${c}`)],
    ['PDF', (c) => admin.get(`${amb.url}/entregaCicloPDF/${c}`)],
    ['pedidos do ciclo', (c) => admin.getJson(`${amb.url}/pedidosconsumidorestodos/${c}`)],
  ];

  for (const [nome, pedir] of rotas) {
    test(`${nome}: mesmo número de consultas com 10 e com 1.000 pedidos`, async () => {
      const dez = await contar(() => pedir(pequeno));
      const mil = await contar(() => pedir(grande));
      assert.equal(mil, dez, `${nome}: ${dez} consultas com 10 pedidos, ${mil} com 1.000`);
    });
  }
});

/**
 * The hot routes of the bench (dashboard, order page, order save, offer save) cost a fixed number
 * of queries per request, whatever the size of the order, the offer or the cycle; and the session
 * check and the actor come from one query, not two.
 */
describe('rotas quentes: consultas fixas por requisição', () => {
  let amb: AmbienteDeTeste;
  let cicloPedido: { id: number; cicloCestas: number[] };
  let cicloOferta = 0;
  let extras: number[] = [];
  let produtos: number[] = [];
  let ponto = 0;
  const DATAS_OFERTA = {
    dataOfertaInicio: '2026-03-06',
    dataOfertaFim: '2026-03-08',
    dataPedidoInicio: '2026-03-10',
    dataPedidoFim: '2026-03-12',
    dataRetiradaInicio: '2026-03-14',
    dataRetiradaFim: '2026-03-15',
  };

  before(async () => {
    // 7 March: the order window of DATAS_PADRAO and the offer window of DATAS_OFERTA are open.
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste('2026-03-07T15:00:00Z') });
    const iso = new Date().toISOString();
    ponto = (await criarPonto(amb.banco)).id;
    const cestas = [await criarCesta(amb.banco), await criarCesta(amb.banco)];
    produtos = [];
    for (let i = 0; i < 6; i++) produtos.push((await criarProduto(amb.banco)).id);
    cicloPedido = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: cestas.map((c) => ({ cestaId: c.id, quantidadeCestas: 500 })),
      compor: true,
    });
    extras = (
      await amb.banco
        .insertInto('cicloproduto')
        .values(
          produtos.slice(0, 3).map((produtoId) => ({
            cicloid: cicloPedido.id,
            produtoId,
            quantidadeMilesimos: 500_000,
            valorCentavos: 800,
            createdAt: iso,
            updatedAt: iso,
          })),
        )
        .returning('id')
        .execute()
    ).map((e) => e.id);
    cicloOferta = (await criarCiclo(amb.banco, { datas: DATAS_OFERTA })).id;
  });
  after(() => amb.fechar());

  async function contar(pedir: () => Promise<{ status: number; texto: string }>, status = 200): Promise<number> {
    amb.consultas = 0;
    const r = await pedir();
    assert.equal(r.status, status, r.texto);
    return amb.consultas;
  }

  async function consumidor(): Promise<Navegador> {
    return navegadorComSessao(amb, (await criarUsuario(amb.banco, { perfil: ['consumidor'] })).email);
  }

  async function pedir(nav: Navegador, linhas: number, ultimaMuda = false): Promise<{ status: number; texto: string }> {
    // Baskets and extras alternate, so any two lines or more hold both kinds.
    const [c1 = 0, c2 = 0] = cicloPedido.cicloCestas;
    const [e1 = 0, e2 = 0, e3 = 0] = extras;
    const itens = [
      { cicloCestaId: c1, quantidade: 1 },
      { cicloProdutoId: e1, quantidade: '0.5' },
      { cicloCestaId: c2, quantidade: 2 },
      { cicloProdutoId: e2, quantidade: '1' },
      { cicloProdutoId: e3, quantidade: ultimaMuda ? '1.25' : '1.5' },
    ].slice(0, linhas);
    return nav.postJson(`${amb.url}/pedidoconsumidores`, {
      cicloid: cicloPedido.id,
      pontoEntregaId: ponto,
      produtos: itens,
    });
  }

  test('painel: 2 consultas (sessão e ator numa só; o pedido, a oferta, o saldo e a versão dos ciclos da pessoa numa só), com 1 ou com 8 ciclos', async () => {
    const nav = await consumidor();
    await nav.getJson(`${amb.url}/`);
    const antes = await contar(() => nav.getJson(`${amb.url}/`));
    for (let i = 0; i < 6; i++) await criarCiclo(amb.banco, { datas: DATAS_PADRAO });
    // The cycles changed: the first dashboard reads their list again, and the next ones keep it.
    const frio = await contar(() => nav.getJson(`${amb.url}/`));
    const depois = await contar(() => nav.getJson(`${amb.url}/`));
    assert.equal(depois, antes, `${antes} consultas antes, ${depois} com mais ciclos`);
    assert.equal(antes, 2, `o painel fez ${antes} consultas; a sessão custa uma e o painel da pessoa outra`);
    assert.equal(frio, 3, `o primeiro painel depois de mudar os ciclos fez ${frio} consultas`);
  });

  test('painel: a lista guardada dos ciclos acompanha qualquer escrita nos ciclos e a virada do dia', async () => {
    const nav = await consumidor();
    type Painel = { data: { ciclos: Array<{ id: number; nome: string }> } };
    const ler = async () => (await nav.getJson(`${amb.url}/`)).json<Painel>().data.ciclos;
    const { nome } = await amb.banco
      .selectFrom('ciclo')
      .select('nome')
      .where('id', '=', cicloPedido.id)
      .executeTakeFirstOrThrow();
    assert.ok((await ler()).some((c) => c.id === cicloPedido.id));
    // Writes straight to the database (no route code involved) show at the next visit.
    await amb.banco.updateTable('ciclo').set({ nome: 'Ciclo renomeado' }).where('id', '=', cicloPedido.id).execute();
    assert.equal((await ler()).find((c) => c.id === cicloPedido.id)?.nome, 'Ciclo renomeado');
    await amb.banco.updateTable('ciclo').set({ ativo: false }).where('id', '=', cicloPedido.id).execute();
    assert.ok(!(await ler()).some((c) => c.id === cicloPedido.id), 'um ciclo desativado some');
    await amb.banco.updateTable('ciclo').set({ ativo: true, nome }).where('id', '=', cicloPedido.id).execute();
    assert.equal((await ler()).find((c) => c.id === cicloPedido.id)?.nome, nome);
    // The day turns, with nothing written: a cycle whose pickup ended over 30 days ago leaves.
    // (Its pickup ended on 12 March; a session of that later day.)
    const agora = amb.relogio.agora();
    amb.relogio.definir('2026-04-12T15:00:00Z');
    try {
      const depois = (await (await consumidor()).getJson(`${amb.url}/`)).json<Painel>().data.ciclos;
      assert.ok(!depois.some((c) => c.id === cicloPedido.id), 'um ciclo de mais de 30 dias sai');
      assert.ok(depois.length > 0, 'os outros continuam');
    } finally {
      amb.relogio.definir(agora);
    }
    assert.ok((await ler()).some((c) => c.id === cicloPedido.id));
  });

  test('página do pedido: o mesmo número de consultas com 1 linha e com 5 linhas, e com 300 pedidos a mais', async () => {
    const nav = await consumidor();
    const caminho = `${amb.url}/pedidoconsumidores/${cicloPedido.id}`;
    const frio = await contar(() => nav.getJson(caminho));
    const vazio = await contar(() => nav.getJson(caminho));
    assert.equal((await pedir(nav, 1)).status, 201);
    const uma = await contar(() => nav.getJson(caminho));
    assert.equal((await pedir(nav, 5)).status, 200);
    const cinco = await contar(() => nav.getJson(caminho));
    for (let i = 0; i < 300; i++)
      await pedir(navegadorComSessao(amb, (await criarUsuario(amb.banco, { perfil: ['consumidor'] })).email), 2);
    const cheio = await contar(() => nav.getJson(caminho));
    assert.deepEqual([cinco, cheio], [uma, uma], `1 linha ${uma}, 5 linhas ${cinco}, com 300 pedidos a mais ${cheio}`);
    // Sessão e ator; pedido com as linhas (uma consulta); reservas com a versão dos ciclos (uma consulta).
    assert.equal(uma, 3, `a página do pedido fez ${uma} consultas`);
    assert.equal(vazio, 3, `a página sem pedido fez ${vazio} consultas`);
    // A primeira visita depois de mudar o ciclo monta a vitrine: ciclo, cestas, extras, composições, pontos.
    assert.equal(frio, 8, `a primeira visita fez ${frio} consultas`);
  });

  test('página do pedido: a vitrine guardada acompanha qualquer escrita no ciclo, e as reservas vêm sempre frescas', async () => {
    const nav = await consumidor();
    const caminho = `${amb.url}/pedidoconsumidores/${cicloPedido.id}`;
    type Pagina = {
      data: {
        cestas: Array<{ cicloCestaId: number; nome: string; disponivel: number }>;
        extras: Array<{ cicloProdutoId: number; disponivel: number }>;
        pontosEntrega: Array<{ id: number; nome: string }>;
      };
    };
    const ler = async () => (await nav.getJson(caminho)).json<Pagina>().data;
    const [c1 = 0] = cicloPedido.cicloCestas;
    const antes = await ler();
    const livre = antes.cestas.find((c) => c.cicloCestaId === c1)?.disponivel ?? 0;
    // An order by someone else shows at once, though nothing in the catalogue moved.
    assert.equal((await pedir(await consumidor(), 1)).status, 201);
    assert.equal((await ler()).cestas.find((c) => c.cicloCestaId === c1)?.disponivel, livre - 1);
    // Writes straight to the database (no route code involved) show at the next visit.
    const cestaId = (
      await amb.banco.selectFrom('ciclocesta').select('cestaId').where('id', '=', c1).executeTakeFirstOrThrow()
    ).cestaId;
    await amb.banco.updateTable('cesta').set({ nome: 'Cesta renomeada' }).where('id', '=', cestaId).execute();
    assert.equal((await ler()).cestas.find((c) => c.cicloCestaId === c1)?.nome, 'Cesta renomeada');
    // What may be sold is the composition's number (DOMAIN.md): the cycle's ceiling and the composition both go up.
    await amb.banco.updateTable('ciclocesta').set({ quantidadeCestas: 600 }).where('id', '=', c1).execute();
    await amb.banco.updateTable('composicao').set({ quantidadeCestas: 600 }).where('cicloCestaId', '=', c1).execute();
    assert.equal((await ler()).cestas.find((c) => c.cicloCestaId === c1)?.disponivel, livre - 1 + 100);
    const novo = await criarPonto(amb.banco);
    assert.ok(
      (await ler()).pontosEntrega.some((p) => p.id === novo.id),
      'um ponto novo aparece',
    );
    await amb.banco.updateTable('pontoentrega').set({ ativo: false }).where('id', '=', novo.id).execute();
    assert.ok(!(await ler()).pontosEntrega.some((p) => p.id === novo.id), 'um ponto desativado some');
    const iso = new Date().toISOString();
    const extra = await amb.banco
      .insertInto('cicloproduto')
      .values({
        cicloid: cicloPedido.id,
        produtoId: produtos[5] ?? 0,
        quantidadeMilesimos: 2000,
        valorCentavos: 300,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    assert.deepEqual(
      (await ler()).extras.find((e) => e.cicloProdutoId === extra.id)?.disponivel,
      2,
      'um extra novo aparece',
    );
    await amb.banco.deleteFrom('cicloproduto').where('id', '=', extra.id).execute();
    assert.ok(!(await ler()).extras.some((e) => e.cicloProdutoId === extra.id), 'um extra tirado do ciclo some');
  });

  test('salvar pedido: o mesmo número de consultas com 2 linhas e com 5 linhas, e ao salvar de novo', async () => {
    // The people are made before counting: only the request's own queries count.
    const [primeira, segunda] = [await consumidor(), await consumidor()];
    const um = await contar(() => pedir(primeira, 2), 201);
    const cinco = await contar(() => pedir(segunda, 5), 201);
    assert.equal(cinco, um, `2 linhas: ${um} consultas; 5 linhas: ${cinco}`);
    const nav = await consumidor();
    await pedir(nav, 5);
    const deNovo = await contar(() => pedir(nav, 5));
    const mudando = await contar(() => pedir(nav, 5, true));
    // Sessão e ator; na transação: início, ciclo, ponto, cestas, extras, pedido anterior com as
    // linhas e os registros da retirada, o pedido (gravado ou atualizado), as linhas, auditoria,
    // fim. As linhas: no primeiro pedido, gravadas num comando; de novo, iguais, nenhum; com a
    // última mudada, apagada e gravada de novo, dois. O pedido salvo sai do que foi gravado, sem ser
    // lido de novo. No PostgreSQL as cestas e os extras são travados (FOR UPDATE) pelas próprias
    // consultas que os leem (no SQLite a transação já é exclusiva), e as cinco leituras da
    // transação vão juntas, num comando do registro (juntas.ts): quatro a menos.
    assert.deepEqual(
      [um, deNovo, mudando],
      amb.bancoConfig.tipo === 'postgres' ? [7, 6, 8] : [11, 10, 12],
      `salvar pedido: ${um} consultas no primeiro, ${deNovo} de novo igual, ${mudando} com uma linha mudada (${amb.bancoConfig.tipo})`,
    );
  });

  test('oferta final: o mesmo número de consultas com 1 produto e com 6, e ao salvar de novo', async () => {
    const ofertar = (nav: Navegador, n: number) =>
      nav.postJson(`${amb.url}/ofertasave`, {
        cicloid: cicloOferta,
        produtos: produtos.slice(0, n).map((produtoid) => ({ produtoid, quantidade: '10', valor: '3.50' })),
      });
    const fornecedor = async () =>
      navegadorComSessao(amb, (await criarUsuario(amb.banco, { perfil: ['fornecedor'] })).email);
    const [primeira, segunda] = [await fornecedor(), await fornecedor()];
    const um = await contar(() => ofertar(primeira, 1), 201);
    const seis = await contar(() => ofertar(segunda, 6), 201);
    assert.equal(seis, um, `1 produto: ${um} consultas; 6 produtos: ${seis}`);
    const nav = await fornecedor();
    await ofertar(nav, 6);
    const deNovo = await contar(() => ofertar(nav, 6));
    assert.ok(deNovo <= um, `salvar de novo, atualizando cada linha, fez ${deNovo} consultas (a primeira vez, ${um})`);
    // Sessão e ator; na transação: início, produtos, ciclo (travado no PostgreSQL), a oferta com as
    // linhas (uma consulta), a oferta gravada já no seu estado (nova, com o id de volta; ou
    // atualizada), as linhas, a conferência de capacidade (linhas ofertadas, extras publicados), a
    // oferta salva, auditoria, fim: 12 no SQLite. No PostgreSQL, mais a trava da oferta (antes de
    // lê-la) e a dos seus produtos (depois), e os comandos vão em lotes (juntas.ts): os produtos, o
    // ciclo, a trava da oferta e a oferta num; a atualização da oferta, as linhas, a conferência e a
    // oferta salva noutro. A oferta nova tem o seu id de volta antes do segundo lote.
    assert.deepEqual(
      [um, deNovo],
      amb.bancoConfig.tipo === 'postgres' ? [8, 7] : [12, 12],
      `oferta final: ${um} consultas na primeira, ${deNovo} de novo (${amb.bancoConfig.tipo})`,
    );
  });
});
