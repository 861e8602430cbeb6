import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  DATAS_PADRAO,
  comporCestas,
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
} from '../helpers/fabricas.ts';
import { tokenCsrf } from '../helpers/navegador.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: string;
  details?: Record<string, unknown>;
}

const dia = (d: string) => `2026-03-${d}T15:00:00Z`;

describe('um ciclo mais seguro: cesta sem composição, formulário do ciclo, fechamento e reabertura', () => {
  let amb: AmbienteDeTeste;
  let relogio: RelogioDeTeste;
  let admin: Pessoa;
  let master: Pessoa;
  let consumidora: Pessoa;
  before(async () => {
    relogio = new RelogioDeTeste(dia('07'));
    amb = await iniciarAmbiente({ relogio });
    admin = await entrarComo(amb, ['admin']);
    master = await entrarComo(amb, ['master']);
    consumidora = await entrarComo(amb, ['consumidor']);
  });
  after(() => amb.fechar());
  const url = (p: string) => `${amb.url}${p}`;

  test('uma cesta sem composição não se vende: a página diz "em composição", salvar dá 409, o ciclo avisa', async () => {
    relogio.definir(dia('07'));
    const cesta = await criarCesta(amb.banco, { nome: 'Cesta da horta' });
    const c = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 5 }],
    });
    const cicloCestaId = c.cicloCestas[0] ?? 0;
    const ponto = (await criarPonto(amb.banco)).id;
    const pagina = await consumidora.nav.get(url(`/pedidoconsumidores/${c.id}`));
    assert.match(pagina.texto, /em composição/);
    assert.doesNotMatch(pagina.texto, /id="cesta-0"|name="produtos\[0\]\[cicloCestaId\]"/, 'sem campo para pedir');
    const json = (await consumidora.nav.getJson(url(`/pedidoconsumidores/${c.id}`))).json<
      Envelope<{ cestas: Array<{ emComposicao: boolean }> }>
    >();
    assert.deepEqual(
      json.data.cestas.map((x) => x.emComposicao),
      [true],
    );
    const pedir = () =>
      consumidora.nav.postJson(url('/pedidoconsumidores'), {
        cicloid: c.id,
        pontoEntregaId: ponto,
        produtos: [{ cicloCestaId, quantidade: 1 }],
      });
    const recusa = await pedir();
    assert.equal(recusa.status, 409);
    assert.deepEqual(recusa.json<Envelope>().error, 'Ainda em composição, não pode ser pedida: Cesta da horta');
    assert.equal(
      await amb.banco.selectFrom('pedido').select('id').where('cicloid', '=', c.id).executeTakeFirst(),
      undefined,
      'nada gravado',
    );
    const doCiclo = await admin.nav.get(url(`/ciclo/${c.id}`));
    assert.match(doCiclo.texto, /Sem composição:<\/strong> Cesta da horta/);
    await comporCestas(amb.banco, c.id, [cicloCestaId]);
    assert.equal((await pedir()).status, 201);
    assert.doesNotMatch((await admin.nav.get(url(`/ciclo/${c.id}`))).texto, /Sem composição/);
    // An ordered basket may not be emptied: it would deliver and charge an empty box.
    const esvaziar = await admin.nav.postJson(url(`/composicao/${cicloCestaId}`), {
      quantidadeCestas: 5,
      produtos: [],
    });
    assert.equal(esvaziar.status, 409);
    assert.equal(esvaziar.json<Envelope>().error, 'Já há 1 cestas pedidas: a composição precisa de pelo menos um item');
  });

  test('o formulário recusado volta com os valores, um resumo que leva a cada campo e sem linhas em branco a mais', async () => {
    relogio.definir(dia('02'));
    const produto = await criarProduto(amb.banco, { nome: 'Alface crespa', unidade: 'maço' });
    const c = await criarCiclo(amb.banco, { datas: DATAS_PADRAO });
    await criarOfertaFinalizada(amb.banco, c.id, [
      { produtoId: produto.id, quantidadeMilesimos: 8000, valorCentavos: 300 },
    ]);
    const form = await admin.nav.get(url(`/ciclo/${c.id}`));
    assert.match(form.texto, /Sobra das ofertas ainda sem extra: Alface crespa 8 maços/);
    const enviar = (quantidade: string, dataEntrega: string) =>
      admin.nav.post(url(`/ciclo/${c.id}`), {
        form: {
          _csrf: tokenCsrf(form.texto),
          _listas: 'cicloEntregas,cicloCestas,cicloProdutos',
          nome: 'Ciclo da alface',
          ...DATAS_PADRAO,
          ativo: 'true',
          'cicloCestas[0][cestaId]': '',
          'cicloCestas[0][quantidadeCestas]': '',
          'cicloCestas[1][cestaId]': '',
          'cicloCestas[1][quantidadeCestas]': '',
          'cicloProdutos[0][produtoId]': String(produto.id),
          'cicloProdutos[0][quantidade]': quantidade,
          'cicloProdutos[0][valor]': '3,50',
          'cicloProdutos[1][produtoId]': '',
          'cicloProdutos[1][quantidade]': '',
          'cicloProdutos[1][valor]': '',
          'cicloProdutos[2][produtoId]': '',
          'cicloProdutos[2][quantidade]': '',
          'cicloProdutos[2][valor]': '',
          'cicloEntregas[0][dataEntrega]': dataEntrega,
          'cicloEntregas[0][observacao]': '',
        },
      });
    const recusado = await enviar('9,5', '2026-03-10');
    assert.equal(recusado.status, 409);
    // The banner names the field and links to the control, which keeps what was typed and shows the cap beside it.
    assert.match(recusado.texto, /Há 1 campo a corrigir:/);
    assert.match(
      recusado.texto,
      /<a href="#campo-cicloProdutos-0-quantidade">Extras \(produtos avulsos\), linha 1: Quantidade disponível<\/a>: Passa da sobra das ofertas finalizadas: 8 maços/,
    );
    assert.match(
      recusado.texto,
      /id="campo-cicloProdutos-0-quantidade" name="cicloProdutos\[0\]\[quantidade\]" value="9,5"/,
    );
    assert.match(recusado.texto, /Sobra das ofertas: 8 maços/);
    // One filled row and two spare ones in each list, not the blank rows sent plus two more.
    assert.equal((recusado.texto.match(/name="cicloProdutos\[\d+\]\[produtoId\]"/g) ?? []).length, 3);
    assert.equal((recusado.texto.match(/name="cicloCestas\[\d+\]\[cestaId\]"/g) ?? []).length, 2);
    const dataFora = await enviar('8', '2026-03-20');
    assert.equal(dataFora.status, 400);
    assert.match(
      dataFora.texto,
      /<a href="#campo-cicloEntregas-0-dataEntrega">Dias de entrega dos fornecedores, linha 1: Data<\/a>: Deve estar dentro das datas do ciclo/,
    );
    assert.match(dataFora.texto, /id="campo-cicloEntregas-0-dataEntrega"/);
    assert.equal(
      await amb.banco.selectFrom('cicloproduto').select('id').where('cicloid', '=', c.id).executeTakeFirst(),
      undefined,
      'nada gravado',
    );
  });

  test('fechar: o botão só aparece quando é possível, e pede confirmação com o resumo e os pedidos sem confirmação', async () => {
    relogio.definir(dia('07'));
    const cesta = await criarCesta(amb.banco, { valorCentavos: 5000 });
    const c = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 5 }],
      compor: true,
    });
    const ponto = (await criarPonto(amb.banco)).id;
    const outra = await entrarComo(amb, ['consumidor'], 'Dona Sem Confirmar');
    const pedir = (quem: Pessoa) =>
      quem.nav.postJson(url('/pedidoconsumidores'), {
        cicloid: c.id,
        pontoEntregaId: ponto,
        produtos: [{ cicloCestaId: c.cicloCestas[0], quantidade: 1 }],
      });
    const salvo = (await pedir(consumidora)).json<Envelope<{ pedidoId: number }>>().data;
    assert.equal(
      (await consumidora.nav.postJson(url('/pedidoconsumidoresconfirmacao'), { pedidoId: salvo.pedidoId })).status,
      200,
    );
    assert.equal((await pedir(outra)).status, 201);
    const durante = await admin.nav.get(url(`/ciclo/${c.id}`));
    assert.doesNotMatch(durante.texto, /href="\/fecharciclo\//, 'durante os pedidos não há botão');
    assert.match(durante.texto, /poderá ser fechado depois do fim dos pedidos \(09\/03\/2026\)/);
    relogio.definir(dia('10'));
    const depois = await admin.nav.get(url(`/ciclo/${c.id}`));
    assert.match(depois.texto, new RegExp(`href="/fecharciclo/${c.id}"`));
    const previa = await admin.nav.get(url(`/fecharciclo/${c.id}`));
    assert.equal(previa.status, 200);
    assert.match(previa.texto, /<dt>Pedidos confirmados<\/dt><dd>1<\/dd>/);
    assert.match(previa.texto, /Débitos aos consumidores \(pedidos e taxas\)<\/dt><dd>R\$\s50,00/);
    assert.match(previa.texto, /Créditos a 1 fornecedor<\/dt><dd>R\$\s1,00/);
    assert.match(previa.texto, /Sem confirmação: ficam de fora da entrega e da cobrança[\s\S]*Dona Sem Confirmar/);
    const json = (await admin.nav.getJson(url(`/fecharciclo/${c.id}`))).json<
      Envelope<{ possivel: boolean; confirmados: number; naoConfirmados: Array<{ nome: string }>; debitos: number }>
    >().data;
    assert.deepEqual(
      [json.possivel, json.confirmados, json.naoConfirmados.map((n) => n.nome), json.debitos],
      [true, 1, ['Dona Sem Confirmar'], 50],
    );
    assert.equal(
      await amb.banco.selectFrom('movimentacao').select('id').where('cicloid', '=', c.id).executeTakeFirst(),
      undefined,
      'ver o resumo não fecha',
    );
    const fechar = await admin.nav.post(url(`/fecharciclo/${c.id}`), { form: { _csrf: tokenCsrf(previa.texto) } });
    assert.equal(new URL(fechar.url).pathname, `/ciclo/${c.id}`);
    assert.match(fechar.texto, /Ciclo fechado em 10\/03\/2026/);
    assert.doesNotMatch(
      fechar.texto,
      /<button type="submit" class="botao">Salvar<\/button>/,
      'fechado, o formulário é só consulta',
    );
    assert.doesNotMatch(fechar.texto, /Reabrir o ciclo/, 'só um master reabre');
  });

  test('um ciclo fechado não muda; um master o reabre com motivo, auditado, e fechar de novo lança só a diferença', async () => {
    relogio.definir(dia('07'));
    const cesta = await criarCesta(amb.banco, { valorCentavos: 4000 });
    const c = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 5 }],
      compor: true,
    });
    const ponto = (await criarPonto(amb.banco)).id;
    const pedido = (
      await consumidora.nav.postJson(url('/pedidoconsumidores'), {
        cicloid: c.id,
        pontoEntregaId: ponto,
        produtos: [{ cicloCestaId: c.cicloCestas[0], quantidade: 1 }],
      })
    ).json<Envelope<{ pedidoId: number }>>().data.pedidoId;
    await consumidora.nav.postJson(url('/pedidoconsumidoresconfirmacao'), { pedidoId: pedido });
    relogio.definir(dia('10'));
    assert.equal((await admin.nav.postJson(url(`/fecharciclo/${c.id}`), {})).status, 200);
    const editar = await admin.nav.postJson(url(`/ciclo/${c.id}`), {
      nome: 'Outro nome',
      ...DATAS_PADRAO,
      dataRetiradaFim: '2026-03-13',
    });
    assert.equal(editar.status, 409);
    assert.equal(
      editar.json<Envelope>().error,
      'Este ciclo já foi fechado: nada nele muda, a não ser que um master o reabra',
    );
    const porAdmin = await admin.nav.postJson(url(`/pedidoconsumidores`), {
      cicloid: c.id,
      usuarioid: consumidora.id,
      pontoEntregaId: ponto,
      produtos: [{ cicloCestaId: c.cicloCestas[0], quantidade: 2 }],
    });
    assert.equal(porAdmin.status, 409, 'nem quem coordena muda um pedido de ciclo fechado');
    assert.equal((await admin.nav.postJson(url(`/reabrirciclo/${c.id}`), { motivo: 'corrigir' })).status, 403);
    const semMotivo = await master.nav.postJson(url(`/reabrirciclo/${c.id}`), { motivo: '  ' });
    assert.equal(semMotivo.status, 400);
    assert.deepEqual(semMotivo.json<Envelope>().details, { motivo: 'Diga por que o ciclo precisa ser reaberto' });
    const pagina = await master.nav.get(url(`/ciclo/${c.id}`));
    assert.match(pagina.texto, /Reabrir o ciclo/);
    const reaberto = await master.nav.post(url(`/reabrirciclo/${c.id}`), {
      form: { _csrf: tokenCsrf(pagina.texto), motivo: 'A consumidora pediu 2 cestas por telefone' },
    });
    assert.equal(new URL(reaberto.url).pathname, `/ciclo/${c.id}`);
    const auditoria = await amb.banco
      .selectFrom('auditoria')
      .select(['acao', 'depois'])
      .where('entidade', '=', 'ciclo')
      .where('entidadeId', '=', String(c.id))
      .where('acao', '=', 'reabrir ciclo')
      .execute();
    assert.equal(auditoria.length, 1);
    assert.match(String(auditoria[0]?.depois), /A consumidora pediu 2 cestas por telefone/);
    // The admin corrects the order (outside the window, as admins may), confirms it and closes again.
    assert.equal(
      (
        await admin.nav.postJson(url(`/pedidoconsumidores`), {
          cicloid: c.id,
          usuarioid: consumidora.id,
          pontoEntregaId: ponto,
          produtos: [{ cicloCestaId: c.cicloCestas[0], quantidade: 2 }],
        })
      ).status,
      200,
    );
    assert.equal((await admin.nav.postJson(url('/pedidoconsumidoresconfirmacao'), { pedidoId: pedido })).status, 200);
    relogio.definir(dia('11'));
    const outraVez = (await admin.nav.postJson(url(`/fecharciclo/${c.id}`), {})).json<
      Envelope<{ novas: number; debitos: number; creditos: number }>
    >().data;
    assert.deepEqual(outraVez, { ...outraVez, novas: 2, debitos: 80, creditos: 2 });
    const movs = await amb.banco
      .selectFrom('movimentacao')
      .select(['usuarioid', 'sentido', 'valorCentavos', 'descricao'])
      .where('cicloid', '=', c.id)
      .orderBy('id')
      .execute();
    const daConsumidora = movs.filter((m) => m.usuarioid === consumidora.id);
    assert.deepEqual(
      daConsumidora.map((m) => [m.sentido, m.valorCentavos]),
      [
        ['debito', 4000],
        ['debito', 4000],
      ],
      'a primeira cesta, depois só a segunda',
    );
    assert.match(daConsumidora[1]?.descricao ?? '', /^Correção após reabertura: pedido do ciclo /);
    assert.equal(
      (await admin.nav.postJson(url(`/fecharciclo/${c.id}`), {})).json<Envelope<{ novas: number }>>().data.novas,
      0,
      'fechar de novo não lança nada',
    );
  });
});
