import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarProduto,
  criarUsoDaCesta,
} from '../helpers/fabricas.ts';
import { tokenCsrf } from '../helpers/navegador.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: string;
  details?: Record<string, string>;
}

interface CicloJson {
  id: number;
  nome: string;
  fase: string;
  cicloEntregas: Array<{ id: number; dataEntrega: string; observacao: string | null }>;
  cicloCestas: Array<{ id: number; cestaId: number; quantidadeCestas: number; quantidadePedida: number }>;
  cicloProdutos: Array<{ id: number; produtoId: number; quantidade: number; valor: number }>;
}

describe('ciclos e as suas três listas', () => {
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  before(async () => {
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste('2026-03-07T15:00:00Z') });
    admin = await entrarComo(amb, ['admin']);
  });
  after(() => amb.fechar());
  const url = (p: string) => `${amb.url}${p}`;

  test('salvar por formulário com chaves entre colchetes cria o ciclo e as listas', async () => {
    const cesta = await criarCesta(amb.banco);
    const produto = await criarProduto(amb.banco, { unidade: 'dúzia' });
    const pagina = await admin.nav.get(url('/ciclo'));
    assert.equal(pagina.status, 200);
    const form: Record<string, string> = {
      _csrf: tokenCsrf(pagina.texto),
      _listas: 'cicloEntregas,cicloCestas,cicloProdutos',
      nome: 'Ciclo de março',
      ...DATAS_PADRAO,
      ativo: 'true',
      'cicloCestas[0][cestaId]': String(cesta.id),
      'cicloCestas[0][quantidadeCestas]': '40',
      'cicloCestas[1][cestaId]': '',
      'cicloCestas[1][quantidadeCestas]': '',
      'cicloProdutos[0][produtoId]': String(produto.id),
      'cicloProdutos[0][quantidade]': '12.5',
      'cicloProdutos[0][valor]': '9.90',
      'cicloEntregas[0][dataEntrega]': '2026-03-10',
      'cicloEntregas[0][observacao]': 'Na sede',
    };
    // Extras come from the surplus of finalised offers: none yet, so publishing them is refused.
    const semOferta = await admin.nav.post(url('/ciclo'), { form });
    assert.equal(semOferta.status, 409);
    // The form comes back with what was typed and the refusal by the extra's own field.
    assert.match(semOferta.texto, /Passa da sobra das ofertas finalizadas: 0 dúzia/);
    assert.match(semOferta.texto, /name="cicloProdutos\[0\]\[quantidade\]" value="12.5"/);
    assert.equal(
      await amb.banco.selectFrom('ciclo').select('id').where('nome', '=', 'Ciclo de março').executeTakeFirst(),
      undefined,
    );
    const { _listas: _ignorado, ...semExtras } = form;
    const semLista = Object.fromEntries(Object.entries(semExtras).filter(([k]) => !k.startsWith('cicloProdutos')));
    const criado = await admin.nav.post(url('/ciclo'), { form: { ...semLista, _listas: 'cicloEntregas,cicloCestas' } });
    assert.equal(criado.status, 200, criado.texto.slice(0, 500));
    const novo = await amb.banco
      .selectFrom('ciclo')
      .select('id')
      .where('nome', '=', 'Ciclo de março')
      .executeTakeFirstOrThrow();
    await criarOfertaFinalizada(amb.banco, novo.id, [
      { produtoId: produto.id, quantidadeMilesimos: 20_000, valorCentavos: 700 },
    ]);
    const r = await admin.nav.post(url(`/ciclo/${novo.id}`), { form });
    assert.equal(r.status, 200, r.texto.slice(0, 500));
    // Saving lands on the cycle's own page, which links to all of its work.
    assert.equal(new URL(r.url).pathname, `/ciclo/${novo.id}`);
    for (const destino of [
      '#lista-cicloProdutos',
      `/oferta-index?cicloid=${novo.id}`,
      `/pedidosconsumidorestodos/${novo.id}`,
      `/pedidosfornecedorestodos/${novo.id}`,
      `/entregaCicloPDF/${novo.id}`,
    ]) {
      assert.ok(r.texto.includes(`href="${destino}"`), destino);
    }
    assert.match(r.texto, /Compor [^<]*\(em composição\)/, 'a cesta sem composição avisa');
    assert.match(r.texto, /Ciclo de março/);
    const ciclo = await amb.banco
      .selectFrom('ciclo')
      .select('id')
      .where('nome', '=', 'Ciclo de março')
      .executeTakeFirstOrThrow();
    const json = (await admin.nav.getJson(url(`/ciclo/${ciclo.id}`))).json<Envelope<{ registro: CicloJson }>>().data
      .registro;
    assert.equal(json.fase, 'pedido', 'em 07/03 os pedidos estão abertos');
    assert.deepEqual(
      json.cicloCestas.map((c) => [c.cestaId, c.quantidadeCestas]),
      [[cesta.id, 40]],
    );
    assert.deepEqual(
      json.cicloProdutos.map((p) => [p.produtoId, p.quantidade, p.valor]),
      [[produto.id, 12.5, 9.9]],
    );
    assert.deepEqual(
      json.cicloEntregas.map((e) => [e.dataEntrega, e.observacao]),
      [['2026-03-10', 'Na sede']],
    );
    const editar = await admin.nav.get(url(`/ciclo/${ciclo.id}`));
    assert.match(editar.texto, /name="cicloCestas\[0\]\[quantidadeCestas\]" value="40"/);
  });

  test('as seis datas são obrigatórias e em ordem, com mensagem por campo', async () => {
    const r = await admin.nav.postJson(url('/ciclo'), {
      nome: 'Datas ruins',
      ...DATAS_PADRAO,
      dataOfertaFim: '2026-02-28',
      dataPedidoFim: '2026-02-30',
      dataRetiradaFim: '',
      cicloEntregas: [{ dataEntrega: '2027-01-01' }],
    });
    assert.equal(r.status, 400);
    const d = r.json<Envelope>().details ?? {};
    assert.match(d.dataOfertaFim ?? '', /posterior ao início das ofertas/);
    assert.match(d.dataPedidoFim ?? '', /Data inválida/);
    assert.equal(d.dataRetiradaFim, 'Campo obrigatório');
    const dentro = await admin.nav.postJson(url('/ciclo'), {
      nome: 'Entrega fora',
      ...DATAS_PADRAO,
      cicloEntregas: [{ dataEntrega: '2027-01-01' }],
    });
    assert.equal(dentro.status, 400);
    assert.match(dentro.json<Envelope>().details?.['cicloEntregas.0.dataEntrega'] ?? '', /dentro das datas/);
    const html = await admin.nav.post(url('/ciclo'), {
      form: {
        _csrf: tokenCsrf((await admin.nav.get(url('/ciclo'))).texto),
        nome: 'Mantido',
        dataOfertaInicio: '2026-05-02',
        dataOfertaFim: '2026-05-01',
      },
    });
    assert.equal(html.status, 400);
    assert.match(html.texto, /value="Mantido"/);
    assert.match(html.texto, /posterior ao início das ofertas/);
  });

  test('cestas repetidas ou inexistentes são recusadas', async () => {
    const cesta = await criarCesta(amb.banco);
    const rep = await admin.nav.postJson(url('/ciclo'), {
      nome: 'Repetida',
      ...DATAS_PADRAO,
      cicloCestas: [
        { cestaId: cesta.id, quantidadeCestas: 1 },
        { cestaId: cesta.id, quantidadeCestas: 2 },
      ],
    });
    assert.equal(rep.status, 400);
    assert.equal(rep.json<Envelope>().details?.['cicloCestas.1.cestaId'], 'Item repetido na lista');
    const inexistente = await admin.nav.postJson(url('/ciclo'), {
      nome: 'Fantasma',
      ...DATAS_PADRAO,
      cicloCestas: [{ cestaId: 99999, quantidadeCestas: 1 }],
    });
    assert.equal(inexistente.status, 400);
    assert.equal(inexistente.json<Envelope>().details?.['cicloCestas.0.cestaId'], 'Cesta não encontrada');
  });

  test('editar um ciclo com composição e pedidos mantém tudo intacto', async () => {
    const cestaA = await criarCesta(amb.banco);
    const cestaB = await criarCesta(amb.banco);
    const ciclo = await criarCiclo(amb.banco, {
      cestas: [
        { cestaId: cestaA.id, quantidadeCestas: 30 },
        { cestaId: cestaB.id, quantidadeCestas: 10 },
      ],
    });
    const [ccA = 0, ccB = 0] = ciclo.cicloCestas;
    const uso = await criarUsoDaCesta(amb.banco, ciclo.id, ccA, { pedidas: 4, compostas: 20 });
    const r = await admin.nav.postJson(url(`/ciclo/${ciclo.id}`), {
      nome: 'Renomeado',
      ...DATAS_PADRAO,
      dataRetiradaFim: '2026-03-14',
      // Matched by cestaId (no id), quantity raised; B matched by id.
      cicloCestas: [
        { cestaId: cestaA.id, quantidadeCestas: 35 },
        { id: ccB, cestaId: cestaB.id, quantidadeCestas: 12 },
      ],
    });
    assert.equal(r.status, 200, r.texto);
    const d = r.json<Envelope<CicloJson>>().data;
    assert.deepEqual(
      d.cicloCestas.map((c) => [c.id, c.quantidadeCestas, c.quantidadePedida]),
      [
        [ccA, 35, 4],
        [ccB, 12, 0],
      ],
    );
    const composicao = await amb.banco
      .selectFrom('composicao')
      .selectAll()
      .where('id', '=', uso.composicaoId)
      .executeTakeFirstOrThrow();
    assert.equal(composicao.cicloCestaId, ccA);
    const linhas = await amb.banco
      .selectFrom('pedidoproduto')
      .selectAll()
      .where('pedidoid', '=', uso.pedidoId)
      .execute();
    assert.deepEqual(
      linhas.map((l) => [l.cicloCestaId, l.quantidadeMilesimos]),
      [[ccA, 4000]],
    );
  });

  test('tirar do ciclo uma cesta com pedidos, ou baixar abaixo do que já foi pedido ou composto, dá 409 e nada muda', async () => {
    const cestaA = await criarCesta(amb.banco);
    const cestaB = await criarCesta(amb.banco);
    const ciclo = await criarCiclo(amb.banco, {
      nome: 'Protegido',
      cestas: [
        { cestaId: cestaA.id, quantidadeCestas: 30 },
        { cestaId: cestaB.id, quantidadeCestas: 10 },
      ],
    });
    const [ccA = 0, ccB = 0] = ciclo.cicloCestas;
    await criarUsoDaCesta(amb.banco, ciclo.id, ccA, { pedidas: 4, compostas: 20 });
    const remover = await admin.nav.postJson(url(`/ciclo/${ciclo.id}`), {
      nome: 'Protegido',
      ...DATAS_PADRAO,
      cicloCestas: [{ id: ccB, cestaId: cestaB.id, quantidadeCestas: 10 }],
    });
    assert.equal(remover.status, 409);
    assert.match(remover.json<Envelope>().error, new RegExp(`${cestaA.nome} não pode sair do ciclo`));
    const baixar = await admin.nav.postJson(url(`/ciclo/${ciclo.id}`), {
      nome: 'Protegido',
      ...DATAS_PADRAO,
      cicloCestas: [{ id: ccA, cestaId: cestaA.id, quantidadeCestas: 19 }],
    });
    assert.equal(baixar.status, 409);
    assert.match(baixar.json<Envelope>().error, /não pode ficar abaixo de 20/);
    const sem = await admin.nav.postJson(url(`/ciclo/${ciclo.id}`), {
      nome: 'Outro nome',
      ...DATAS_PADRAO,
      cicloCestas: [],
    });
    assert.equal(sem.status, 409);
    const linhas = await amb.banco
      .selectFrom('ciclocesta')
      .select(['id', 'quantidadeCestas'])
      .where('cicloid', '=', ciclo.id)
      .orderBy('id')
      .execute();
    assert.deepEqual(linhas, [
      { id: ccA, quantidadeCestas: 30 },
      { id: ccB, quantidadeCestas: 10 },
    ]);
    const nome = await amb.banco
      .selectFrom('ciclo')
      .select('nome')
      .where('id', '=', ciclo.id)
      .executeTakeFirstOrThrow();
    assert.equal(nome.nome, 'Protegido', 'a transação inteira foi desfeita');
    // A basket without use can go; omitting a list keeps it as it is.
    const ok = await admin.nav.postJson(url(`/ciclo/${ciclo.id}`), {
      nome: 'Protegido',
      ...DATAS_PADRAO,
      cicloCestas: [{ id: ccA, cestaId: cestaA.id, quantidadeCestas: 20 }],
    });
    assert.equal(ok.status, 200);
    assert.deepEqual(
      ok.json<Envelope<CicloJson>>().data.cicloCestas.map((c) => c.id),
      [ccA],
    );
    const semLista = await admin.nav.postJson(url(`/ciclo/${ciclo.id}`), { nome: 'Só o nome', ...DATAS_PADRAO });
    assert.deepEqual(
      semLista.json<Envelope<CicloJson>>().data.cicloCestas.map((c) => c.id),
      [ccA],
    );
  });

  test('uma linha de outro ciclo não pode ser alterada por id', async () => {
    const cesta = await criarCesta(amb.banco);
    const alheio = await criarCiclo(amb.banco, { cestas: [{ cestaId: cesta.id, quantidadeCestas: 5 }] });
    const meu = await criarCiclo(amb.banco);
    const r = await admin.nav.postJson(url(`/ciclo/${meu.id}`), {
      nome: 'Meu',
      ...DATAS_PADRAO,
      cicloCestas: [{ id: alheio.cicloCestas[0], cestaId: cesta.id, quantidadeCestas: 99 }],
    });
    assert.equal(r.status, 400);
    assert.match(r.json<Envelope>().details?.['cicloCestas.0.cestaId'] ?? '', /não pertence a este ciclo/);
    const intacto = await amb.banco
      .selectFrom('ciclocesta')
      .select('quantidadeCestas')
      .where('id', '=', alheio.cicloCestas[0] ?? 0)
      .executeTakeFirstOrThrow();
    assert.equal(intacto.quantidadeCestas, 5);
  });

  test('apagar: um ciclo sem uso sai com as listas; com pedidos dá 409', async () => {
    const cesta = await criarCesta(amb.banco);
    const livre = await criarCiclo(amb.banco, { cestas: [{ cestaId: cesta.id, quantidadeCestas: 3 }] });
    assert.equal((await admin.nav.postJson(url(`/ciclo/delete/${livre.id}`), {})).status, 200);
    assert.equal(
      await amb.banco.selectFrom('ciclocesta').select('id').where('cicloid', '=', livre.id).executeTakeFirst(),
      undefined,
    );
    const usado = await criarCiclo(amb.banco, { cestas: [{ cestaId: cesta.id, quantidadeCestas: 3 }] });
    await criarUsoDaCesta(amb.banco, usado.id, usado.cicloCestas[0] ?? 0, { pedidas: 1, compostas: 1 });
    const r = await admin.nav.postJson(url(`/ciclo/delete/${usado.id}`), {});
    assert.equal(r.status, 409);
    assert.match(r.json<Envelope>().error, /1 ofertas, 1 pedidos/);
  });

  test('o índice mostra a fase de cada ciclo, do mais novo ao mais antigo', async () => {
    await criarCiclo(amb.banco, {
      nome: 'Índice antigo',
      datas: {
        ...DATAS_PADRAO,
        dataOfertaInicio: '2026-01-01',
        dataOfertaFim: '2026-01-02',
        dataPedidoInicio: '2026-01-03',
        dataPedidoFim: '2026-01-04',
        dataRetiradaInicio: '2026-01-05',
        dataRetiradaFim: '2026-01-06',
      },
    });
    await criarCiclo(amb.banco, {
      nome: 'Índice futuro',
      datas: {
        dataOfertaInicio: '2026-04-01',
        dataOfertaFim: '2026-04-02',
        dataPedidoInicio: '2026-04-03',
        dataPedidoFim: '2026-04-04',
        dataRetiradaInicio: '2026-04-05',
        dataRetiradaFim: '2026-04-06',
      },
    });
    const r = await admin.nav.getJson(url('/ciclo-index?busca=%C3%8Dndice'));
    const itens = r.json<Envelope<{ itens: Array<{ nome: string; fase: string }> }>>().data.itens;
    assert.deepEqual(
      itens.map((i) => [i.nome, i.fase]),
      [
        ['Índice futuro', 'planejado'],
        ['Índice antigo', 'encerrado'],
      ],
    );
    const html = await admin.nav.get(url('/ciclo-index'));
    assert.match(html.texto, /class="fase fase-planejado">Planejado/);
  });
});
