import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Ator } from '../../src/domain/acesso.ts';
import type { OpcoesAssinatura } from '../../src/domain/assinaturas/modelo.ts';
import { gerarPedidosDoCiclo } from '../../src/domain/assinaturas/geracao.ts';
import { salvarAssinatura } from '../../src/domain/assinaturas/escrita.ts';
import { saldoDe } from '../../src/domain/financeiro.ts';
import { somarDias } from '../../src/domain/tempo.ts';
import { tokenCsrf } from '../helpers/navegador.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto } from '../helpers/fabricas.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

/**
 * A season paid in advance (issue 23): the coordination records the payment for a subscription
 * (POST /assinaturas/:id/pagamento, a credit naming it), and each cycle's closing draws it down
 * by what the subscription's order costs, to the centavo, until nothing is left.
 */
describe('temporada paga adiantado', () => {
  let amb: AmbienteDeTeste;
  let relogio: RelogioDeTeste;
  let admin: Pessoa;
  let consumidor: Pessoa;
  before(async () => {
    relogio = new RelogioDeTeste('2026-03-02T15:00:00Z');
    // A fixed fee per order (R$ 1,00), so the fee is drawn down too.
    amb = await iniciarAmbiente({ relogio, env: { TAXA_PEDIDO_PERCENTUAL: '0', TAXA_PEDIDO_FIXA: '1' } });
    admin = await entrarComo(amb, ['admin']);
    consumidor = await entrarComo(amb, ['consumidor'], 'Ana Adiantada');
  });
  after(() => amb.fechar());

  test('o crédito da temporada é consumido ciclo a ciclo, centavo a centavo', async () => {
    // Three weekly cycles offering a basket of R$ 33,33.
    const cesta = await criarCesta(amb.banco, { valorCentavos: 3333 });
    const semanas = [0, 1, 2];
    const ciclos: number[] = [];
    for (const s of semanas) {
      const d = s * 7;
      const datas = {
        dataOfertaInicio: somarDias(DATAS_PADRAO.dataOfertaInicio, d),
        dataOfertaFim: somarDias(DATAS_PADRAO.dataOfertaFim, d),
        dataPedidoInicio: somarDias(DATAS_PADRAO.dataPedidoInicio, d),
        dataPedidoFim: somarDias(DATAS_PADRAO.dataPedidoFim, d),
        dataRetiradaInicio: somarDias(DATAS_PADRAO.dataRetiradaInicio, d),
        dataRetiradaFim: somarDias(DATAS_PADRAO.dataRetiradaFim, d),
      };
      ciclos.push(
        (await criarCiclo(amb.banco, { datas, cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }], compor: true }))
          .id,
      );
    }
    const ponto = (await criarPonto(amb.banco)).id;
    const ana: Ator = {
      email: consumidor.email,
      nome: 'Ana Adiantada',
      usuarioid: consumidor.id,
      perfil: ['consumidor'],
      ativo: true,
    };
    const opcoes = (hoje: string): OpcoesAssinatura => ({
      agora: new Date(`${hoje}T15:00:00Z`),
      hoje,
      taxa: amb.config.taxa,
      tz: amb.config.tz,
    });
    const assinatura = await salvarAssinatura(
      amb.banco,
      ana,
      {
        id: null,
        usuarioid: null,
        cestaId: cesta.id,
        quantidade: 1,
        pontoEntregaId: ponto,
        frequencia: 'cada_ciclo',
        inicio: '2026-03-01',
        fim: '2026-03-31',
        mercadoId: null,
        ativa: true,
      },
      opcoes('2026-03-02'),
    );
    const rota = `${amb.url}/assinaturas/${assinatura.id}/pagamento`;

    // Only the coordination records it; the value must be a positive amount.
    const doConsumidor = await consumidor.nav.postJson(rota, { valor: 102.99 });
    assert.equal(doConsumidor.status, 403, doConsumidor.texto);
    const semValor = await admin.nav.postJson(rota, { valor: 0 });
    assert.equal(semValor.status, 400, semValor.texto);
    assert.equal(typeof semValor.json<{ details: Record<string, string> }>().details.valor, 'string');
    const alheia = await admin.nav.postJson(`${amb.url}/assinaturas/999999/pagamento`, { valor: 10 });
    assert.equal(alheia.status, 404, alheia.texto);
    assert.equal(await saldoDe(amb.banco, consumidor.id ?? 0), null, 'nada lançado pelas recusas');

    // Three cycles of (33,33 + 1,00 fee) = 102,99, paid in advance.
    const pago = await admin.nav.postJson(rota, { valor: '102.99', descricao: 'Pix de 01/03' });
    assert.equal(pago.status, 201, pago.texto);
    const dados = pago.json<{ data: { assinaturaId: number; usuarioid: number; valor: number; descricao: string } }>()
      .data;
    assert.deepEqual([dados.assinaturaId, dados.usuarioid, dados.valor], [assinatura.id, consumidor.id, 102.99]);
    assert.equal(
      dados.descricao,
      `Pagamento antecipado da temporada da assinatura ${assinatura.id} (${cesta.nome}, 01/03/2026 a 31/03/2026): Pix de 01/03`,
    );
    const mov = await amb.banco
      .selectFrom('movimentacao')
      .select(['sentido', 'valorCentavos', 'chave'])
      .where('usuarioid', '=', consumidor.id ?? 0)
      .execute();
    assert.deepEqual(
      mov.map((m) => [m.sentido, m.valorCentavos]),
      [['credito', 10299]],
    );
    assert.match(mov[0]?.chave ?? '', new RegExp(`^assinatura:${assinatura.id}:pagamento:`));
    assert.equal((await saldoDe(amb.banco, consumidor.id ?? 0))?.saldoCentavos, 10299);

    // Each cycle: the order window opens (generation), then after it closes the coordination closes the cycle.
    const saldos: number[] = [];
    for (const [i, cicloid] of ciclos.entries()) {
      const d = i * 7;
      const resumo = await gerarPedidosDoCiclo(amb.banco, cicloid, opcoes(somarDias(DATAS_PADRAO.dataPedidoInicio, d)));
      assert.equal(resumo.gerados, 1);
      relogio.definir(`${somarDias(DATAS_PADRAO.dataPedidoFim, d + 1)}T15:00:00Z`);
      // A week later the morning's session has expired: the coordination logs in again.
      const coordenacao = await entrarComo(amb, ['admin']);
      const fechar = await coordenacao.nav.postJson(`${amb.url}/fecharciclo/${cicloid}`, {});
      assert.equal(fechar.status, 200, fechar.texto);
      saldos.push((await saldoDe(amb.banco, consumidor.id ?? 0))?.saldoCentavos ?? NaN);
    }
    assert.deepEqual(saldos, [6866, 3433, 0]);
  });

  test('pelo formulário de /assinaturas/todas: valor com vírgula, recusas em português na página, o total pago por assinatura', async () => {
    relogio.definir('2026-04-01T15:00:00Z');
    const tesouraria = await entrarComo(amb, ['admin'], 'Olga Tesouraria');
    const bia = await entrarComo(amb, ['consumidor'], 'Bia Formulário');
    const cesta = await criarCesta(amb.banco, { valorCentavos: 4000 });
    const ponto = (await criarPonto(amb.banco)).id;
    const criada = await bia.nav.postJson(`${amb.url}/assinaturas`, {
      cestaId: cesta.id,
      quantidade: 1,
      pontoEntregaId: ponto,
      frequencia: 'cada_ciclo',
      inicio: '2026-04-01',
      fim: '2026-06-30',
    });
    assert.equal(criada.status, 201, criada.texto);
    const id = criada.json<{ data: { id: number } }>().data.id;
    const rota = `${amb.url}/assinaturas/${id}/pagamento`;
    const movimentos = () =>
      amb.banco
        .selectFrom('movimentacao')
        .select(['sentido', 'valorCentavos', 'descricao'])
        .where('usuarioid', '=', bia.id ?? 0)
        .orderBy('id')
        .execute();
    const linhaDaBia = (html: string) => {
      const i = html.indexOf(`action="${'/assinaturas/'}${id}/pagamento"`);
      assert.ok(i > 0, 'a linha da assinatura tem o formulário do pagamento');
      return html.slice(html.lastIndexOf('<tr>', i), html.indexOf('</tr>', i));
    };

    // The page: a "Pago adiantado" column, nothing yet, and the form of each subscription.
    const pagina = await tesouraria.nav.get(`${amb.url}/assinaturas/todas`);
    assert.equal(pagina.status, 200);
    assert.match(pagina.texto, /<th scope="col">Pago adiantado<\/th>/);
    assert.match(
      linhaDaBia(pagina.texto),
      /data-rotulo="Pago adiantado">nada<details id="pagamento-\d+"\s*><summary>Registrar pagamento<\/summary>/,
    );
    assert.match(
      linhaDaBia(pagina.texto),
      /<label for="pg\d+-valor">Valor pago \(R\$\)<\/label><input id="pg\d+-valor" name="valor" type="text"/,
    );
    const csrf = tokenCsrf(pagina.texto);

    // A consumer cannot record it, not even for their own subscription.
    const csrfDaBia = tokenCsrf((await bia.nav.get(`${amb.url}/assinaturas`)).texto);
    const recusado = await bia.nav.post(rota, { form: { _csrf: csrfDaBia, valor: '480,00' } });
    assert.equal(recusado.status, 403, recusado.texto);
    // A value that is not money: 400, the page again with the message on the form, what was typed kept, nothing written.
    const ruim = await tesouraria.nav.post(rota, { form: { _csrf: csrf, valor: 'abc', descricao: 'Pix' } });
    assert.equal(ruim.status, 400, ruim.texto);
    assert.match(ruim.texto, /Verifique os campos destacados/);
    assert.match(linhaDaBia(ruim.texto), /<details id="pagamento-\d+" open>/);
    assert.match(
      linhaDaBia(ruim.texto),
      /class="campo com-erro"><label for="pg\d+-valor">[\s\S]*value="abc"[\s\S]*Digite um número, como 1,5 ou 1\.234,56/,
    );
    const zero = await tesouraria.nav.post(rota, { form: { _csrf: csrf, valor: '0,00' } });
    assert.equal(zero.status, 400, zero.texto);
    assert.match(linhaDaBia(zero.texto), /Deve ser maior que zero/);
    assert.deepEqual(await movimentos(), [], 'nada gravado pelas recusas');

    // "480,00": recorded, back to the list with the message; then "1.234,56".
    const pago = await tesouraria.nav.post(
      rota,
      { form: { _csrf: csrf, valor: '480,00', descricao: 'Pix de 01/04' } },
      { seguir: false },
    );
    assert.equal(pago.status, 303, pago.texto);
    assert.equal(pago.headers.get('location'), `/assinaturas/todas#pagamento-${id}`);
    const depois = await tesouraria.nav.get(`${amb.url}/assinaturas/todas`);
    assert.match(
      depois.texto,
      /Pagamento de R\$\s480,00 registrado para Bia Formulário: é crédito que os próximos ciclos consomem\./,
    );
    assert.match(linhaDaBia(depois.texto), /data-rotulo="Pago adiantado">R\$\s480,00<details/);
    const mais = await tesouraria.nav.post(rota, { form: { _csrf: csrf, valor: '1.234,56', descricao: '' } });
    assert.equal(mais.status, 200, mais.texto);
    assert.deepEqual(
      (await movimentos()).map((m) => [m.sentido, m.valorCentavos, m.descricao]),
      [
        [
          'credito',
          48000,
          `Pagamento antecipado da temporada da assinatura ${id} (${cesta.nome}, 01/04/2026 a 30/06/2026): Pix de 01/04`,
        ],
        [
          'credito',
          123456,
          `Pagamento antecipado da temporada da assinatura ${id} (${cesta.nome}, 01/04/2026 a 30/06/2026)`,
        ],
      ],
    );
    assert.equal((await saldoDe(amb.banco, bia.id ?? 0))?.saldoCentavos, 171456);
    // The list's JSON says the same, in reais.
    const todas = (await tesouraria.nav.getJson(`${amb.url}/assinaturas/todas`)).json<{
      data: { itens: Array<{ id: number; pagoAdiantado: number }> };
    }>().data;
    assert.equal(todas.itens.find((x) => x.id === id)?.pagoAdiantado, 1714.56);
  });

  test('o mesmo envio duas vezes (duplo clique, formulário reenviado) lança um crédito só', async () => {
    relogio.definir('2026-04-02T15:00:00Z');
    const tesouraria = await entrarComo(amb, ['admin'], 'Rui Tesouraria');
    const caio = await entrarComo(amb, ['consumidor'], 'Caio Duplo');
    const cesta = await criarCesta(amb.banco, { valorCentavos: 4000 });
    const ponto = (await criarPonto(amb.banco)).id;
    const criada = await caio.nav.postJson(`${amb.url}/assinaturas`, {
      cestaId: cesta.id,
      quantidade: 1,
      pontoEntregaId: ponto,
      frequencia: 'cada_ciclo',
      inicio: '2026-04-01',
      fim: '2026-06-30',
    });
    const id = criada.json<{ data: { id: number } }>().data.id;
    const rota = `${amb.url}/assinaturas/${id}/pagamento`;
    const creditos = async () =>
      (
        await amb.banco
          .selectFrom('movimentacao')
          .select('valorCentavos')
          .where('usuarioid', '=', caio.id ?? 0)
          .execute()
      ).map((m) => m.valorCentavos);

    // The form carries a token of its own sending, new each time the page is drawn.
    const pagina = (await tesouraria.nav.get(`${amb.url}/assinaturas/todas`)).texto;
    const tokens = [...pagina.matchAll(/<input type="hidden" name="envio" value="([0-9a-f-]{36})">/g)].map(
      (m) => m[1] ?? '',
    );
    assert.ok(tokens.length >= 1, 'cada formulário de pagamento tem o seu envio');
    assert.equal(new Set(tokens).size, tokens.length, 'um envio por formulário');
    const envio =
      /action="\/assinaturas\/\d+\/pagamento"[^>]*>[\s\S]*?name="envio" value="([0-9a-f-]{36})"/.exec(
        pagina.slice(pagina.indexOf(`action="/assinaturas/${id}/pagamento"`) - 200),
      )?.[1] ?? '';
    assert.notEqual(envio, '');
    const csrf = tokenCsrf(pagina);
    const primeiro = await tesouraria.nav.post(
      rota,
      { form: { _csrf: csrf, valor: '300,00', envio } },
      { seguir: false },
    );
    assert.equal(primeiro.status, 303, primeiro.texto);
    const segundo = await tesouraria.nav.post(
      rota,
      { form: { _csrf: csrf, valor: '300,00', envio } },
      { seguir: false },
    );
    assert.equal(segundo.status, 303, segundo.texto);
    assert.match(
      (await tesouraria.nav.get(`${amb.url}/assinaturas/todas`)).texto,
      /Este pagamento de R\$\s300,00 para Caio Duplo já estava registrado: nada foi lançado de novo\./,
    );
    assert.deepEqual(await creditos(), [30000]);

    // JSON: 201 the first time, 200 with repetido the second, the same movement; a new sending is a new credit.
    const a = await tesouraria.nav.postJson(rota, { valor: '50.00', envio: 'parcela-2-caio' });
    const b = await tesouraria.nav.postJson(rota, { valor: '50.00', envio: 'parcela-2-caio' });
    assert.deepEqual([a.status, b.status], [201, 200], b.texto);
    type Pago = { data: { movimentacaoId: number; repetido: boolean; valor: number } };
    assert.deepEqual([a.json<Pago>().data.repetido, b.json<Pago>().data.repetido], [false, true]);
    assert.equal(b.json<Pago>().data.movimentacaoId, a.json<Pago>().data.movimentacaoId);
    assert.equal((await tesouraria.nav.postJson(rota, { valor: '50.00', envio: 'parcela-3-caio' })).status, 201);
    assert.deepEqual(await creditos(), [30000, 5000, 5000]);
    // A malformed sending: 400 in Portuguese, nothing written.
    const ruim = await tesouraria.nav.postJson(rota, { valor: '50.00', envio: 'curto' });
    assert.equal(ruim.status, 400, ruim.texto);
    assert.match(ruim.texto, /Envio inválido: recarregue a página e registre de novo/);
    assert.deepEqual(await creditos(), [30000, 5000, 5000]);
  });
});
