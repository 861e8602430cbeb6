import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto } from '../helpers/fabricas.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Painel {
  data: {
    hoje: string;
    ciclos: Array<{
      nome: string;
      fase: string;
      acoes: string[];
      andamento: { oferta: string; pedido: string; pedidoId: number | null; pontoEntrega: string | null } | null;
      pendencias: {
        semOferta: Array<{ id: number; nome: string }>;
        naoConfirmados: Array<{ id: number; nome: string; pedidoId: number }>;
      } | null;
    }>;
    saldo: { saldo: number; movimentacoes: number } | null;
    atalhos: Array<{ href: string }>;
  };
}

describe('painel por perfil', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    // 02/03 (São Paulo): the default cycle is in its offer window.
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste('2026-03-02T13:00:00Z') });
    await criarCiclo(amb.banco, { nome: 'Ciclo em oferta' });
    await criarCiclo(amb.banco, {
      nome: 'Ciclo em pedido',
      datas: {
        ...DATAS_PADRAO,
        dataOfertaInicio: '2026-02-20',
        dataOfertaFim: '2026-02-22',
        dataPedidoInicio: '2026-02-25',
        dataPedidoFim: '2026-03-03',
      },
    });
  });
  after(() => amb.fechar());

  test('fornecedor vê a etapa de oferta; consumidor a de pedido; ninguém vê a etapa dos outros', async () => {
    const fornecedor = await entrarComo(amb, ['fornecedor']);
    const f = (await fornecedor.nav.getJson(`${amb.url}/`)).json<Painel>().data;
    assert.equal(f.hoje, '2026-03-02');
    assert.deepEqual(
      f.ciclos.map((c) => [c.nome, c.fase, c.acoes]),
      [
        ['Ciclo em pedido', 'pedido', []],
        ['Ciclo em oferta', 'oferta', ['ofertar']],
      ],
    );
    const consumidor = await entrarComo(amb, ['consumidor']);
    const c = (await consumidor.nav.getJson(`${amb.url}/`)).json<Painel>().data;
    assert.deepEqual(
      c.ciclos.map((x) => x.acoes),
      [['pedir'], []],
    );
    assert.deepEqual(c.atalhos, [], 'sem atalhos de administração');
    const html = await consumidor.nav.get(`${amb.url}/`);
    assert.match(html.texto, /<li class="proxima"><a href="\/pedidoconsumidores\/\d+">Fazer seu pedido<\/a><\/li>/);
    assert.doesNotMatch(html.texto, /href="\/ciclo-index"/);
  });

  test('admin vê os atalhos que a tabela de acesso permite; info vê os de leitura, sem auditoria', async () => {
    const admin = await entrarComo(amb, ['admin']);
    const a = (await admin.nav.getJson(`${amb.url}/`)).json<Painel>().data;
    assert.deepEqual(
      a.atalhos.map((x) => x.href),
      [
        '/ciclo-index',
        '/produto-index',
        '/cesta-index',
        '/categoria-index',
        '/pontoentrega-index',
        '/usuario-index',
        '/auditoria',
        '/mensagens',
        '/movimentacao',
        '/cobrancas',
        '/extratos',
        '/assinaturas/todas',
      ],
    );
    const info = await entrarComo(amb, ['info']);
    const i = (await info.nav.getJson(`${amb.url}/`)).json<Painel>().data;
    assert.ok(!i.atalhos.some((x) => x.href === '/auditoria'));
    assert.ok(i.atalhos.some((x) => x.href === '/usuario-index'));
  });

  test('o saldo aparece quando há movimentações: créditos menos débitos, exato', async () => {
    const consumidor = await entrarComo(amb, ['consumidor']);
    assert.equal((await consumidor.nav.getJson(`${amb.url}/`)).json<Painel>().data.saldo, null);
    const iso = new Date().toISOString();
    for (const [tipo, sentido, valorCentavos] of [
      [1, 'debito', 5010],
      [4, 'credito', 2000],
      [6, 'debito', 1],
    ] as const) {
      await amb.banco
        .insertInto('movimentacao')
        .values({
          usuarioid: consumidor.id ?? 0,
          tipoMovimentacaoId: tipo,
          sentido,
          valorCentavos,
          data: '2026-03-01',
          descricao: 'teste',
          createdAt: iso,
          updatedAt: iso,
        })
        .execute();
    }
    const saldo = (await consumidor.nav.getJson(`${amb.url}/`)).json<Painel>().data.saldo;
    assert.deepEqual(saldo, { saldo: -30.11, movimentacoes: 3 });
    const html = await consumidor.nav.get(`${amb.url}/`);
    assert.match(html.texto, /Seu saldo: <strong>−R\$ 30,11<\/strong>/);
  });
});

describe('janelas de oferta e de pedido que dividem um dia', () => {
  let amb: AmbienteDeTeste;
  let cicloid = 0;
  let cicloCestaId = 0;
  let ponto = 0;
  before(async () => {
    // 02/03 (São Paulo): the last day of offers and the first of orders.
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste('2026-03-02T13:00:00Z') });
    const cesta = await criarCesta(amb.banco);
    const ciclo = await criarCiclo(amb.banco, {
      nome: 'Ciclo de janelas juntas',
      datas: {
        ...DATAS_PADRAO,
        dataOfertaInicio: '2026-02-27',
        dataOfertaFim: '2026-03-02',
        dataPedidoInicio: '2026-03-02',
        dataPedidoFim: '2026-03-05',
      },
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 5 }],
      compor: true,
    });
    cicloid = ciclo.id;
    cicloCestaId = ciclo.cicloCestas[0] ?? 0;
    ponto = (await criarPonto(amb.banco)).id;
  });
  after(() => amb.fechar());

  test('o painel mostra as duas etapas; a página de pedido está aberta, como a regra que grava', async () => {
    const pessoa = await entrarComo(amb, ['fornecedor', 'consumidor']);
    const painel = (await pessoa.nav.getJson(`${amb.url}/`)).json<Painel>().data;
    assert.deepEqual(
      painel.ciclos.map((c) => [c.nome, c.fase, c.acoes]),
      [['Ciclo de janelas juntas', 'oferta', ['ofertar', 'pedir']]],
    );
    assert.match((await pessoa.nav.get(`${amb.url}/`)).texto, /Ofertas e pedidos abertos/);

    const pagina = await pessoa.nav.get(`${amb.url}/pedidoconsumidores/${cicloid}`);
    assert.equal(pagina.status, 200);
    assert.doesNotMatch(pagina.texto, /Fora do período de pedidos/);
    assert.match(pagina.texto, /Ofertas e pedidos abertos/);
    assert.deepEqual(
      (await pessoa.nav.getJson(`${amb.url}/pedidoconsumidores/${cicloid}`)).json<{ data: { acoes: unknown } }>().data
        .acoes,
      { editar: true, confirmar: true },
    );
    const salvo = await pessoa.nav.postJson(`${amb.url}/pedidoconsumidores`, {
      cicloid,
      pontoEntregaId: ponto,
      produtos: [{ cicloCestaId, quantidade: 1 }],
    });
    assert.equal(salvo.status, 201);

    const oferta = await pessoa.nav.getJson(`${amb.url}/oferta/${cicloid}`);
    assert.deepEqual(oferta.json<{ data: { acoes: unknown } }>().data.acoes, { editar: true });
  });

  test('datas e horas para pessoas: dd/mm/aaaa e HH:mm no fuso da comunidade (auditoria e confirmação)', async () => {
    const pessoa = await entrarComo(amb, ['consumidor']);
    const salvo = await pessoa.nav.postJson(`${amb.url}/pedidoconsumidores`, {
      cicloid,
      pontoEntregaId: ponto,
      produtos: [{ cicloCestaId, quantidade: 1 }],
    });
    const pedidoId = salvo.json<{ data: { pedidoId: number } }>().data.pedidoId;
    assert.equal((await pessoa.nav.postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, { pedidoId })).status, 200);
    // 13:00 UTC is 10:00 in São Paulo.
    assert.match(
      (await pessoa.nav.get(`${amb.url}/pedidoconsumidoresconfirmacao/${pedidoId}`)).texto,
      /Pedido confirmado em 02\/03\/2026 às 10:00\./,
    );
    const admin = await entrarComo(amb, ['admin']);
    const auditoria = (await admin.nav.get(`${amb.url}/auditoria?entidade=pedido`)).texto;
    assert.match(auditoria, /02\/03\/2026 às 10:00/);
    assert.doesNotMatch(auditoria, /2026-03-02 13:00/, 'nada em UTC sem dizer');
  });
});

describe('o painel diz onde cada um está, e a coordenação vê o que falta', () => {
  let amb: AmbienteDeTeste;
  let emOferta = 0;
  let emPedido = 0;
  let emRetirada = 0;
  let ponto = 0;
  const iso = '2026-03-01T12:00:00.000Z';
  const texto = async (quem: Pessoa) => (await quem.nav.get(`${amb.url}/`)).texto;
  /** One cycle's card: from its title to the next card (or the end of the list). */
  const cartao = (html: string, nome: string) => {
    const inicio = html.indexOf(`${nome}</`);
    assert.ok(inicio >= 0, `o cartão de ${nome}`);
    const proximo = html.indexOf('<li class="cartao">', inicio);
    return html.slice(inicio, proximo === -1 ? html.indexOf('</section>', inicio) : proximo);
  };
  before(async () => {
    // 02/03 (São Paulo).
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste('2026-03-02T13:00:00Z') });
    emOferta = (await criarCiclo(amb.banco, { nome: 'Ciclo A oferta' })).id;
    emPedido = (
      await criarCiclo(amb.banco, {
        nome: 'Ciclo B pedido',
        datas: {
          ...DATAS_PADRAO,
          dataOfertaInicio: '2026-02-20',
          dataOfertaFim: '2026-02-22',
          dataPedidoInicio: '2026-02-25',
          dataPedidoFim: '2026-03-03',
        },
      })
    ).id;
    emRetirada = (
      await criarCiclo(amb.banco, {
        nome: 'Ciclo C retirada',
        datas: {
          dataOfertaInicio: '2026-02-10',
          dataOfertaFim: '2026-02-12',
          dataPedidoInicio: '2026-02-14',
          dataPedidoFim: '2026-02-20',
          dataRetiradaInicio: '2026-03-02',
          dataRetiradaFim: '2026-03-03',
        },
      })
    ).id;
    ponto = (await criarPonto(amb.banco, 'Feira da Praça')).id;
  });
  after(() => amb.fechar());

  test('oferta em rascunho, depois finalizada; pedido salvo, depois confirmado; nada a retirar sem pedido', async () => {
    const fornecedora = await entrarComo(amb, ['fornecedor'], 'Fornecedora Rascunho');
    const consumidora = await entrarComo(amb, ['consumidor'], 'Consumidora Salva');
    const recemChegada = await entrarComo(amb, ['consumidor'], 'Recém Chegada');
    const admin = await entrarComo(amb, ['admin']);
    const situacao = async (quem: Pessoa) =>
      (await quem.nav.getJson(`${amb.url}/`)).json<Painel>().data.ciclos.map((c) => [c.nome, c.acoes, c.andamento]);

    // Nothing yet: the plain steps.
    assert.match(
      cartao(await texto(fornecedora), 'Ciclo A oferta'),
      /<li class="proxima"><a href="\/oferta\/\d+">Registrar sua oferta de produtos<\/a>/,
    );
    const semOferta = (await admin.nav.getJson(`${amb.url}/`))
      .json<Painel>()
      .data.ciclos.find((c) => c.nome === 'Ciclo A oferta')
      ?.pendencias?.semOferta.map((f) => f.nome);
    assert.ok(semOferta?.includes('Fornecedora Rascunho'), 'a coordenação vê quem não ofertou');
    assert.match(await texto(admin), /Sem oferta finalizada \(\d+\)<\/a>: [^<]*Fornecedora Rascunho/);

    const oferta = await amb.banco
      .insertInto('oferta')
      .values({
        cicloid: emOferta,
        usuarioid: fornecedora.id ?? 0,
        finalizada: false,
        finalizadaEm: null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    assert.match(
      cartao(await texto(fornecedora), 'Ciclo A oferta'),
      /<li class="proxima"><a href="\/oferta\/\d+">Sua oferta é um rascunho: finalize-a<\/a>/,
    );
    await amb.banco
      .updateTable('oferta')
      .set({ finalizada: true, finalizadaEm: iso })
      .where('id', '=', oferta.id)
      .execute();
    assert.match(
      cartao(await texto(fornecedora), 'Ciclo A oferta'),
      /<li class="feito"><a href="\/oferta\/\d+">Oferta finalizada \(ainda pode alterar\)<\/a>/,
    );
    assert.deepEqual(
      (await situacao(fornecedora)).find((c) => c[0] === 'Ciclo A oferta'),
      ['Ciclo A oferta', ['ofertar'], { oferta: 'finalizada', pedido: 'sem', pedidoId: null, pontoEntrega: null }],
    );
    const depois = (await admin.nav.getJson(`${amb.url}/`))
      .json<Painel>()
      .data.ciclos.find((c) => c.nome === 'Ciclo A oferta')
      ?.pendencias?.semOferta.map((f) => f.nome);
    assert.ok(!(depois ?? []).includes('Fornecedora Rascunho'), 'quem finalizou sai da lista');

    const pedido = await amb.banco
      .insertInto('pedido')
      .values({
        cicloid: emPedido,
        usuarioid: consumidora.id ?? 0,
        pontoEntregaId: ponto,
        finalizado: false,
        dataConfirmacao: null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    assert.match(
      cartao(await texto(consumidora), 'Ciclo B pedido'),
      new RegExp(
        `<li class="proxima"><a href="/pedidoconsumidoresconfirmacao/${pedido.id}">Pedido salvo, falta confirmar</a>`,
      ),
    );
    const pendentes = (await admin.nav.getJson(`${amb.url}/`))
      .json<Painel>()
      .data.ciclos.find((c) => c.nome === 'Ciclo B pedido')?.pendencias?.naoConfirmados;
    assert.deepEqual(pendentes, [{ id: consumidora.id, nome: 'Consumidora Salva', pedidoId: pedido.id }]);
    assert.match(await texto(admin), /Pedidos sem confirmação \(1\)<\/a>: Consumidora Salva/);
    await amb.banco
      .updateTable('pedido')
      .set({ finalizado: true, dataConfirmacao: iso })
      .where('id', '=', pedido.id)
      .execute();
    assert.match(
      cartao(await texto(consumidora), 'Ciclo B pedido'),
      /<li class="feito"><a href="\/pedidoconsumidores\/\d+">Pedido confirmado \(ainda pode alterar\)<\/a>/,
    );
    assert.deepEqual(
      (await admin.nav.getJson(`${amb.url}/`)).json<Painel>().data.ciclos.find((c) => c.nome === 'Ciclo B pedido')
        ?.pendencias?.naoConfirmados,
      [],
    );

    // Pickup: only with a confirmed order, and where.
    await amb.banco
      .insertInto('pedido')
      .values({
        cicloid: emRetirada,
        usuarioid: consumidora.id ?? 0,
        pontoEntregaId: ponto,
        finalizado: true,
        dataConfirmacao: iso,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    assert.match(
      cartao(await texto(consumidora), 'Ciclo C retirada'),
      /<li class="proxima"><a href="\/pedidoconsumidoresconfirmacao\/\d+">Retirar sua cesta em Feira da Praça<\/a>/,
    );
    const nada = cartao(await texto(recemChegada), 'Ciclo C retirada');
    assert.match(nada, /<li class="feito">Nada a retirar neste ciclo<\/li>/);
    assert.doesNotMatch(nada, /Retirar sua cesta/);
    // The pending lists are the coordination's only.
    assert.ok(
      (await consumidora.nav.getJson(`${amb.url}/`)).json<Painel>().data.ciclos.every((c) => c.pendencias === null),
    );
  });

  test('quem oferta e pede vê a sua oferta e o seu pedido no mesmo ciclo, nunca os de outra pessoa; cada perfil só o seu lado', async () => {
    const ambos = await entrarComo(amb, ['fornecedor', 'consumidor'], 'Dupla Função');
    const vizinha = await entrarComo(amb, ['fornecedor', 'consumidor'], 'Vizinha');
    const soConsumidora = await entrarComo(amb, ['consumidor'], 'Só Consome');
    const andamento = async (quem: Pessoa, ciclo: string) =>
      (await quem.nav.getJson(`${amb.url}/`)).json<Painel>().data.ciclos.find((c) => c.nome === ciclo)?.andamento;
    // The neighbour's offer and order in the same cycle.
    await amb.banco
      .insertInto('oferta')
      .values({
        cicloid: emPedido,
        usuarioid: vizinha.id ?? 0,
        finalizada: true,
        finalizadaEm: iso,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    const daVizinha = await amb.banco
      .insertInto('pedido')
      .values({
        cicloid: emPedido,
        usuarioid: vizinha.id ?? 0,
        pontoEntregaId: ponto,
        finalizado: true,
        dataConfirmacao: iso,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    assert.deepEqual(await andamento(ambos, 'Ciclo B pedido'), {
      oferta: 'sem',
      pedido: 'sem',
      pedidoId: null,
      pontoEntrega: null,
    });

    await amb.banco
      .insertInto('oferta')
      .values({
        cicloid: emPedido,
        usuarioid: ambos.id ?? 0,
        finalizada: false,
        finalizadaEm: null,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    const meu = await amb.banco
      .insertInto('pedido')
      .values({
        cicloid: emPedido,
        usuarioid: ambos.id ?? 0,
        pontoEntregaId: ponto,
        finalizado: false,
        dataConfirmacao: null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    assert.deepEqual(await andamento(ambos, 'Ciclo B pedido'), {
      oferta: 'rascunho',
      pedido: 'salvo',
      pedidoId: meu.id,
      pontoEntrega: 'Feira da Praça',
    });
    assert.deepEqual(await andamento(vizinha, 'Ciclo B pedido'), {
      oferta: 'finalizada',
      pedido: 'confirmado',
      pedidoId: daVizinha.id,
      pontoEntrega: 'Feira da Praça',
    });
    // Every cycle of the dashboard is listed once, whoever has rows in it.
    assert.deepEqual(
      (await ambos.nav.getJson(`${amb.url}/`)).json<Painel>().data.ciclos.map((c) => c.nome),
      ['Ciclo C retirada', 'Ciclo B pedido', 'Ciclo A oferta'],
    );

    // A profile taken away: the offer (or order) stays in the database, the dashboard shows only the side the profile has.
    await amb.banco
      .updateTable('usuario')
      .set({ perfil: JSON.stringify(['consumidor']) })
      .where('id', '=', ambos.id ?? 0)
      .execute();
    assert.deepEqual(await andamento(ambos, 'Ciclo B pedido'), {
      oferta: 'sem',
      pedido: 'salvo',
      pedidoId: meu.id,
      pontoEntrega: 'Feira da Praça',
    });
    await amb.banco
      .updateTable('usuario')
      .set({ perfil: JSON.stringify(['fornecedor']) })
      .where('id', '=', ambos.id ?? 0)
      .execute();
    assert.deepEqual(await andamento(ambos, 'Ciclo B pedido'), {
      oferta: 'rascunho',
      pedido: 'sem',
      pedidoId: null,
      pontoEntrega: null,
    });
    assert.deepEqual(await andamento(soConsumidora, 'Ciclo B pedido'), {
      oferta: 'sem',
      pedido: 'sem',
      pedidoId: null,
      pontoEntrega: null,
    });
  });
});

describe('painel sem nenhum ciclo', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste('2026-03-02T13:00:00Z') });
  });
  after(() => amb.fechar());

  test('a lista de ciclos vem vazia e o saldo aparece assim mesmo', async () => {
    const consumidor = await entrarComo(amb, ['consumidor']);
    const vazio = (await consumidor.nav.getJson(`${amb.url}/`)).json<Painel>().data;
    assert.deepEqual([vazio.ciclos, vazio.saldo], [[], null]);
    const iso = new Date().toISOString();
    await amb.banco
      .insertInto('movimentacao')
      .values({
        usuarioid: consumidor.id ?? 0,
        tipoMovimentacaoId: 4,
        sentido: 'credito',
        valorCentavos: 12345,
        data: '2026-03-01',
        descricao: 'teste',
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    const depois = (await consumidor.nav.getJson(`${amb.url}/`)).json<Painel>().data;
    assert.deepEqual([depois.ciclos, depois.saldo], [[], { saldo: 123.45, movimentacoes: 1 }]);
  });
});
