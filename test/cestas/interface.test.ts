import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DATAS_PADRAO,
  criarCiclo,
  criarCicloAberto,
  criarOfertaFinalizada,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

/** An order as every route answers it: the contract's `pedido.*` fields, `produtos[]`, and `pedidoId`. */
interface Pedido {
  pedidoId: number;
  pedido: {
    id: number;
    cicloid: number;
    usuarioid: number;
    usuario: { id: number; nome: string };
    pontoEntregaId: number;
    finalizado: boolean;
    dataConfirmacao: string | null;
  };
  produtos: Array<{ cicloCestaId: number | null; quantidade: number; valor: number }>;
}

/** Rows of the interface contract that a running instance must answer to the letter. */
describe('o contrato da interface, ao pé da letra', () => {
  let amb: AmbienteDeTeste;
  let consumidora: Pessoa;
  let admin: Pessoa;
  let cicloid = 0;
  let cicloCestaId = 0;
  let ponto = 0;
  before(async () => {
    amb = await iniciarAmbiente();
    consumidora = await entrarComo(amb, ['consumidor'], 'Consumidora');
    admin = await entrarComo(amb, ['admin']);
    ({ cicloid, cicloCestaId, ponto } = await criarCicloAberto(amb.banco, 10));
    await criarOfertaFinalizada(amb.banco, cicloid, [
      { produtoId: (await criarProduto(amb.banco)).id, quantidadeMilesimos: 5000, valorCentavos: 700 },
    ]);
  });
  after(() => amb.fechar());

  const url = (p: string) => `${amb.url}${p}`;

  test('um corpo JSON recebe JSON, mesmo com Accept que prefere HTML', async () => {
    const r = await consumidora.nav.postJson(
      url('/pedidoconsumidores'),
      { cicloid, pontoEntregaId: ponto, produtos: [{ cicloCestaId, quantidade: 1 }] },
      { accept: 'text/html,application/json' },
    );
    assert.equal(r.status, 201, r.texto);
    assert.match(r.headers.get('content-type') ?? '', /^application\/json/);
    const pedido = r.json<{ data: Pedido }>().data;
    assert.ok(pedido.pedidoId > 0);
    const recusa = await consumidora.nav.postJson(
      url('/pedidoconsumidores'),
      { cicloid, pontoEntregaId: ponto, produtos: [] },
      { accept: 'text/html' },
    );
    assert.equal(recusa.status, 400);
    assert.deepEqual(recusa.json<{ details: Record<string, string> }>().details, {
      produtos: 'Escolha pelo menos uma cesta ou um extra',
    });
  });

  test('todo pedido traz usuarioid, o nome do campo no contrato', async () => {
    const salvo = await consumidora.nav.postJson(url('/pedidoconsumidores'), {
      cicloid,
      pontoEntregaId: ponto,
      produtos: [{ cicloCestaId, quantidade: 2 }],
    });
    const pedido = salvo.json<{ data: Pedido }>().data;
    assert.equal(pedido.pedido.usuarioid, consumidora.id);
    assert.deepEqual(pedido.pedido.usuario, { id: consumidora.id, nome: 'Consumidora' });
    const confirmacao = await consumidora.nav.getJson(url(`/pedidoconsumidoresconfirmacao/${pedido.pedidoId}`));
    assert.equal(confirmacao.json<{ data: Pedido }>().data.pedido.usuarioid, consumidora.id);
    const pagina = await consumidora.nav.getJson(url(`/pedidoconsumidores/${cicloid}`));
    assert.equal(pagina.json<{ data: Pedido }>().data.pedido.usuarioid, consumidora.id);
    const todos = await admin.nav.getJson(url(`/pedidosconsumidorestodos/${cicloid}`));
    assert.deepEqual(
      todos.json<{ data: { itens: Pedido[] } }>().data.itens.map((p) => p.pedido.usuarioid),
      [consumidora.id],
    );
  });

  test('os três relatórios de vários ciclos aceitam um só ciclo como cicloid', async () => {
    for (const caminho of ['/pedidosfornecedoresciclos', '/pedidosconsumidoresciclos', '/relatorioprodutosciclos']) {
      const porLista = await admin.nav.postJson(url(caminho), { ciclos: [cicloid] });
      const porId = await admin.nav.postJson(url(caminho), { cicloid });
      assert.equal(porId.status, 200, `${caminho}: ${porId.texto}`);
      assert.deepEqual(porId.json(), porLista.json(), caminho);
      const errado = await admin.nav.postJson(url(caminho), { cicloid: 'abc' });
      assert.equal(errado.status, 400, caminho);
      assert.deepEqual(errado.json<{ details: Record<string, string> }>().details, {
        ciclos: 'Escolha de 1 a 20 ciclos válidos',
      });
    }
  });

  test('telefone: a recusa diz a regra que vale (pelo menos 8 dígitos), não "use só dígitos"', async () => {
    const curto = await admin.nav.postJson(url('/pontoentrega'), { nome: 'Ponto do telefone', telefone: '1299999' });
    assert.equal(curto.status, 400);
    assert.deepEqual(curto.json<{ details: Record<string, string> }>().details, {
      telefone: 'Telefone inválido: informe pelo menos 8 dígitos, com o DDD',
    });
    const bom = await admin.nav.postJson(url('/pontoentrega'), {
      nome: 'Ponto do telefone',
      telefone: '(12) 9999-9999',
    });
    assert.equal(bom.status, 201, bom.texto);
  });

  test('criar responde 201, alterar 200: o primeiro pedido e a primeira oferta de cada pessoa', async () => {
    const outra = await entrarComo(amb, ['consumidor'], 'Outra');
    const pedir = () =>
      outra.nav.postJson(url('/pedidoconsumidores'), {
        cicloid,
        pontoEntregaId: ponto,
        produtos: [{ cicloCestaId, quantidade: 1 }],
      });
    assert.equal((await pedir()).status, 201);
    assert.equal((await pedir()).status, 200);
    const fornecedor = await criarUsuario(amb.banco, { perfil: ['fornecedor'] });
    const ofertar = (caminho: string) =>
      admin.nav.postJson(url(caminho), { cicloid, usuarioid: fornecedor.id, produtos: [] });
    const rascunho = await ofertar('/oferta');
    assert.equal(rascunho.status, 201, rascunho.texto);
    assert.equal((await ofertar('/ofertasave')).status, 200);
    assert.equal((await ofertar('/oferta')).status, 200);
  });

  test('/movimentacaotodos traz em cada linha os campos da Movimentacao do contrato, como POST /movimentacao responde', async () => {
    const campos = {
      usuarioid: consumidora.id,
      tipoMovimentacaoId: 4,
      valor: '12.50',
      descricao: 'Pix de março',
      cicloid,
    };
    const criada = await admin.nav.postJson(url('/movimentacao'), campos);
    assert.equal(criada.status, 201, criada.texto);
    const mov = criada.json<{ data: Record<string, unknown> }>().data;
    const relatorio = await admin.nav.getJson(url(`/movimentacaotodos?usuarioid=${consumidora.id ?? 0}`));
    assert.equal(relatorio.status, 200, relatorio.texto);
    const linhas = relatorio
      .json<{ data: { grupos: Array<{ linhas: Array<Record<string, unknown>> }> } }>()
      .data.grupos.flatMap((g) => g.linhas);
    const linha = linhas.find((l) => l.id === mov.id);
    assert.ok(linha, 'a movimentação está no relatório');
    const CONTRATO = ['usuarioid', 'tipoMovimentacaoId', 'valor', 'data', 'descricao', 'arquivo', 'cicloid'] as const;
    assert.deepEqual(
      Object.fromEntries(CONTRATO.map((k) => [k, linha[k]])),
      Object.fromEntries(CONTRATO.map((k) => [k, mov[k]])),
    );
    assert.deepEqual(Object.fromEntries(CONTRATO.map((k) => [k, linha[k]])), {
      usuarioid: consumidora.id,
      tipoMovimentacaoId: 4,
      valor: 12.5,
      data: mov.data,
      descricao: 'Pix de março',
      arquivo: null,
      cicloid,
    });
    // The contract's fields are for programs: the table people read keeps its own columns.
    const pagina = await admin.nav.get(url(`/movimentacaotodos?usuarioid=${consumidora.id ?? 0}`));
    assert.match(pagina.texto, /<th scope="col" class="num">Crédito<\/th>/);
    assert.doesNotMatch(pagina.texto, /<th[^>]*>tipoMovimentacaoId<\/th>/);
  });

  test('GET /downloadpedidosfornecedoresciclos sem consulta: os ciclos escolhidos por último na sessão, senão o ciclo atual', async () => {
    const antigo = await criarCiclo(amb.banco, { nome: 'Ciclo de março antigo', datas: DATAS_PADRAO });
    const nomeDe = async (id: number) =>
      (await amb.banco.selectFrom('ciclo').select('nome').where('id', '=', id).executeTakeFirstOrThrow()).nome;
    const arquivo = (nome: string) =>
      `attachment; filename="pedidos-fornecedores-${nome
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .replace(/[^A-Za-z0-9-]+/g, '-')}.csv"`;
    const baixar = async (p: Pessoa) => {
      const r = await p.nav.get(url('/downloadpedidosfornecedoresciclos'));
      assert.equal(r.status, 200, r.texto);
      assert.match(r.headers.get('content-type') ?? '', /^text\/csv/);
      assert.equal(
        r.texto.split('\n')[0],
        'Fornecedor,Produto,Unidade,Quantidade planejada,Quantidade pedida,Valor unitário (R$),Valor (R$)',
      );
      return r.headers.get('content-disposition');
    };
    const nova = await entrarComo(amb, ['admin']);
    assert.equal(
      await baixar(nova),
      arquivo(await nomeDe(cicloid)),
      'nada escolhido: o ciclo atual (o último que já começou)',
    );
    const escolha = await nova.nav.postJson(url('/pedidosfornecedoresciclos'), { ciclos: [antigo.id] });
    assert.equal(escolha.status, 200, escolha.texto);
    assert.equal(
      await baixar(nova),
      arquivo('Ciclo de março antigo'),
      'o ciclo escolhido por último, guardado na sessão',
    );
    assert.equal(
      await baixar(await entrarComo(amb, ['admin'])),
      arquivo(await nomeDe(cicloid)),
      'a escolha é da sessão, não de todos',
    );
    // A bad remembered choice cannot come back: the query still wins, and is still validated.
    assert.equal(
      (
        await nova.nav.get(url('/downloadpedidosfornecedoresciclos?ciclos=abc'), {
          headers: { accept: 'application/json' },
        })
      ).status,
      400,
    );
    assert.equal(
      (await nova.nav.get(url(`/downloadpedidosfornecedoresciclos?cicloid=${cicloid}`))).headers.get(
        'content-disposition',
      ),
      arquivo(await nomeDe(cicloid)),
    );
  });

  test('o corpo na forma do contrato (pedido.*, oferta.*): o dono é conferido em cada usuarioid, e um campo dado duas vezes com valores diferentes é recusado', async () => {
    const outra = await criarUsuario(amb.banco, { perfil: ['consumidor'] });
    const pedir = (corpo: Record<string, unknown>) =>
      consumidora.nav.postJson(url('/pedidoconsumidores'), { produtos: [{ cicloCestaId, quantidade: 1 }], ...corpo });
    for (const corpo of [
      { pedido: { cicloid, pontoEntregaId: ponto, usuarioid: outra.id } },
      { usuarioid: outra.id, pedido: { cicloid, pontoEntregaId: ponto, usuarioid: consumidora.id } },
      // Ownership before anything else: someone else's id is refused as such, even beside bad fields.
      { usuarioid: outra.id, pedido: { cicloid: 'x', usuarioid: consumidora.id } },
    ]) {
      const r = await pedir(corpo);
      assert.equal(r.status, 403, JSON.stringify(corpo));
      assert.equal(r.json<{ error: string }>().error, 'Você só pode fazer os seus próprios pedidos');
    }
    const divergente = await pedir({ cicloid: cicloid + 1000, pedido: { cicloid, pontoEntregaId: ponto } });
    assert.equal(divergente.status, 400);
    assert.deepEqual(divergente.json<{ details: Record<string, string> }>().details, {
      'pedido.cicloid': 'Difere do cicloid informado fora de "pedido"',
    });
    const naoObjeto = await pedir({ cicloid, pontoEntregaId: ponto, pedido: 3 });
    assert.equal(naoObjeto.status, 400);
    assert.deepEqual(naoObjeto.json<{ details: Record<string, string> }>().details, { pedido: 'Deve ser um objeto' });
    // The same value given both ways is not a conflict.
    const igual = await pedir({ cicloid, pontoEntregaId: ponto, pedido: { cicloid, pontoEntregaId: ponto } });
    assert.ok(igual.status === 200 || igual.status === 201, igual.texto);

    const fornecedor = await entrarComo(amb, ['fornecedor']);
    const outroFornecedor = await criarUsuario(amb.banco, { perfil: ['fornecedor'] });
    const ofertar = (corpo: Record<string, unknown>) =>
      fornecedor.nav.postJson(url('/oferta'), { produtos: [], ...corpo });
    assert.equal((await ofertar({ oferta: { cicloid, usuarioid: outroFornecedor.id } })).status, 403);
    // The offer window has closed (the cycle takes orders now): the coordination saves it for them.
    const oferta = await admin.nav.postJson(url('/oferta'), {
      produtos: [],
      oferta: { cicloid, usuarioid: fornecedor.id, finalizada: false },
    });
    assert.ok(oferta.status === 200 || oferta.status === 201, oferta.texto);
    assert.deepEqual(
      oferta.json<{ data: { oferta: { cicloid: number; usuarioid: number } } }>().data.oferta.usuarioid,
      fornecedor.id,
    );
  });

  test('as páginas de oferta e de pedido dizem em acoes o que a pessoa pode fazer, pela mesma regra da escrita', async () => {
    // The cycle takes orders now: the consumer edits and confirms her own order; the offer window has closed.
    const pagina = await consumidora.nav.getJson(url(`/pedidoconsumidores/${cicloid}`));
    assert.deepEqual(pagina.json<{ data: { acoes: unknown } }>().data.acoes, { editar: true, confirmar: true });
    const pedidoId = pagina.json<{ data: { pedidoId: number } }>().data.pedidoId;
    const confirmacao = await consumidora.nav.getJson(url(`/pedidoconsumidoresconfirmacao/${pedidoId}`));
    assert.deepEqual(confirmacao.json<{ data: { acoes: unknown } }>().data.acoes, { confirmar: true });
    const fornecedor = await entrarComo(amb, ['fornecedor']);
    const oferta = await fornecedor.nav.getJson(url(`/oferta/${cicloid}`));
    assert.deepEqual(
      oferta.json<{ data: { acoes: unknown } }>().data.acoes,
      { editar: false },
      'fora do período de ofertas',
    );
    const paraAdmin = await admin.nav.getJson(url(`/oferta/${cicloid}?usuarioid=${fornecedor.id ?? 0}`));
    assert.deepEqual(
      paraAdmin.json<{ data: { acoes: unknown } }>().data.acoes,
      { editar: true },
      'a coordenação a qualquer momento',
    );
  });
});
