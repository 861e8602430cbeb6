import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto } from '../helpers/fabricas.ts';
import { tokenCsrf } from '../helpers/navegador.ts';
import { textoDoPdf } from '../helpers/pdf.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: string;
  details?: Record<string, unknown>;
}

interface PontoDoCiclo {
  id: number;
  pontoEntregaId: number;
  nome: string;
  dataRetirada: string | null;
  horaInicio: string | null;
  horaFim: string | null;
  pedidos: number;
}

const dia = (d: string) => `2026-03-${d}T15:00:00Z`;

describe('pontos de retirada e horários por ciclo', () => {
  let amb: AmbienteDeTeste;
  let relogio: RelogioDeTeste;
  let admin: Pessoa;
  let consumidora: Pessoa;
  before(async () => {
    relogio = new RelogioDeTeste(dia('07'));
    amb = await iniciarAmbiente({ relogio });
    admin = await entrarComo(amb, ['admin']);
    consumidora = await entrarComo(amb, ['consumidor']);
  });
  after(() => amb.fechar());
  const url = (p: string) => `${amb.url}${p}`;

  /** A cycle in its order window with one composed basket, and three points of which it serves the first two. */
  async function cenario() {
    relogio.definir(dia('07'));
    const cesta = await criarCesta(amb.banco);
    const c = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
      compor: true,
    });
    const [sede, escola, feira] = [
      await criarPonto(amb.banco, `Sede ${c.id}`),
      await criarPonto(amb.banco, `Escola ${c.id}`),
      await criarPonto(amb.banco, `Feira ${c.id}`),
    ];
    const salvo = await admin.nav.postJson(url(`/ciclo/${c.id}`), {
      nome: `Ciclo ${c.id}`,
      ...DATAS_PADRAO,
      cicloPontos: [
        { pontoEntregaId: escola.id, dataRetirada: '2026-03-12', horaInicio: '14h', horaFim: '18:00' },
        { pontoEntregaId: sede.id, dataRetirada: '2026-03-11', horaInicio: '8:00', horaFim: '12h30' },
      ],
    });
    assert.equal(salvo.status, 200, salvo.texto);
    return { cicloid: c.id, cicloCestaId: c.cicloCestas[0] ?? 0, sede: sede.id, escola: escola.id, feira: feira.id };
  }

  test('o ciclo guarda seus pontos com dia e horário, em HH:MM, pela ordem da retirada', async () => {
    const { cicloid, sede, escola } = await cenario();
    const ciclo = (await admin.nav.getJson(url(`/ciclo/${cicloid}`))).json<
      Envelope<{ registro: { cicloPontos: PontoDoCiclo[] } }>
    >().data.registro;
    assert.deepEqual(
      ciclo.cicloPontos.map((p) => [p.pontoEntregaId, p.dataRetirada, p.horaInicio, p.horaFim, p.pedidos]),
      [
        [sede, '2026-03-11', '08:00', '12:30', 0],
        [escola, '2026-03-12', '14:00', '18:00', 0],
      ],
    );
    // The form shows them as rows to edit, and the note on an empty list.
    const form = await admin.nav.get(url(`/ciclo/${cicloid}`));
    assert.match(form.texto, /<legend>Pontos de retirada<\/legend>/);
    assert.match(form.texto, /id="campo-cicloPontos-0-horaInicio" name="cicloPontos\[0\]\[horaInicio\]" value="08:00"/);
    assert.match(form.texto, /name="_listas" value="cicloCestas,cicloProdutos,cicloPontos,cicloEntregas"/);
  });

  test('regras dos pontos: dia dentro da retirada, fim depois do início, horário legível, sem repetir, ponto ativo e existente', async () => {
    const c = await criarCiclo(amb.banco, { datas: DATAS_PADRAO });
    const p = await criarPonto(amb.banco);
    const inativo = await criarPonto(amb.banco);
    await amb.banco.updateTable('pontoentrega').set({ ativo: false }).where('id', '=', inativo.id).execute();
    const salvar = (cicloPontos: unknown[]) =>
      admin.nav.postJson(url(`/ciclo/${c.id}`), { nome: 'Regras', ...DATAS_PADRAO, cicloPontos });
    const detalhes = async (cicloPontos: unknown[]) => {
      const r = await salvar(cicloPontos);
      assert.equal(r.status, 400, r.texto);
      return r.json<Envelope>().details;
    };
    assert.deepEqual(await detalhes([{ pontoEntregaId: p.id, dataRetirada: '2026-03-13' }]), {
      'cicloPontos.0.dataRetirada': 'Deve estar dentro do período de retirada do ciclo',
    });
    assert.deepEqual(await detalhes([{ pontoEntregaId: p.id, horaInicio: '12:00', horaFim: '12:00' }]), {
      'cicloPontos.0.horaFim': 'Deve ser depois do horário de início',
    });
    assert.deepEqual(await detalhes([{ pontoEntregaId: p.id, horaInicio: '25:00' }]), {
      'cicloPontos.0.horaInicio': 'Horário inválido: use HH:MM, por exemplo 08:30',
    });
    assert.deepEqual(await detalhes([{ pontoEntregaId: p.id, horaFim: 'meio-dia' }]), {
      'cicloPontos.0.horaFim': 'Horário inválido: use HH:MM, por exemplo 08:30',
    });
    assert.deepEqual(await detalhes([{ pontoEntregaId: p.id }, { pontoEntregaId: p.id }]), {
      'cicloPontos.1.pontoEntregaId': 'Item repetido na lista',
    });
    assert.deepEqual(await detalhes([{ pontoEntregaId: 999_999 }]), {
      'cicloPontos.0.pontoEntregaId': 'Ponto de entrega não encontrado',
    });
    assert.deepEqual(await detalhes([{ pontoEntregaId: inativo.id }]), {
      'cicloPontos.0.pontoEntregaId': 'Ponto de entrega inativo: ative-o antes de incluí-lo no ciclo',
    });
    assert.equal(
      await amb.banco.selectFrom('ciclopontoentrega').select('id').where('cicloid', '=', c.id).executeTakeFirst(),
      undefined,
      'nada gravado',
    );
    // A point with only a day, or only hours, is fine.
    assert.equal((await salvar([{ pontoEntregaId: p.id, horaInicio: '7h' }])).status, 200);
  });

  test('o pedido só escolhe entre os pontos do ciclo, e a confirmação e o painel dizem quando retirar', async () => {
    const { cicloid, cicloCestaId, sede, escola, feira } = await cenario();
    const pagina = (await consumidora.nav.getJson(url(`/pedidoconsumidores/${cicloid}`))).json<
      Envelope<{ pontosEntrega: Array<{ id: number; horaInicio: string | null }> }>
    >().data;
    assert.deepEqual(
      pagina.pontosEntrega.map((p) => [p.id, p.horaInicio]),
      [
        [sede, '08:00'],
        [escola, '14:00'],
      ],
    );
    const html = await consumidora.nav.get(url(`/pedidoconsumidores/${cicloid}`));
    assert.match(html.texto, /<option value="\d+" >Sede \d+<\/option>|<option value="\d+">Sede \d+<\/option>/);
    assert.match(html.texto, /<li><strong>Sede \d+<\/strong> — quarta-feira, 11\/03\/2026, das 08:00 às 12:30<\/li>/);
    assert.doesNotMatch(html.texto, /Feira \d+/);

    const pedir = (pontoEntregaId: number) =>
      consumidora.nav.postJson(url('/pedidoconsumidores'), {
        cicloid,
        pontoEntregaId,
        produtos: [{ cicloCestaId, quantidade: 1 }],
      });
    const fora = await pedir(feira);
    assert.equal(fora.status, 400);
    assert.match(
      String(fora.json<Envelope>().details?.pontoEntregaId),
      /^Este ciclo não entrega em Feira \d+\. Escolha um dos pontos do ciclo: Sede \d+, Escola \d+$/,
    );
    assert.equal(
      await amb.banco.selectFrom('pedido').select('id').where('cicloid', '=', cicloid).executeTakeFirst(),
      undefined,
      'nada gravado',
    );

    const feito = await pedir(sede);
    assert.equal(feito.status, 201, feito.texto);
    const pedido = feito.json<
      Envelope<{
        pedidoId: number;
        pedido: { pontoEntrega: { dataRetirada: string; horaInicio: string; horaFim: string } };
      }>
    >().data;
    assert.deepEqual(pedido.pedido.pontoEntrega, {
      id: sede,
      nome: `Sede ${cicloid}`,
      dataRetirada: '2026-03-11',
      horaInicio: '08:00',
      horaFim: '12:30',
    });
    const confirmacao = await consumidora.nav.get(url(`/pedidoconsumidoresconfirmacao/${pedido.pedidoId}`));
    assert.match(
      confirmacao.texto,
      /retirada em <strong>Sede \d+<\/strong> — quarta-feira, 11\/03\/2026, das 08:00 às 12:30/,
    );
    assert.equal(
      (await consumidora.nav.postJson(url('/pedidoconsumidoresconfirmacao'), { pedidoId: pedido.pedidoId })).status,
      200,
    );
    relogio.definir(dia('11'));
    const painel = await consumidora.nav.get(url('/'));
    assert.match(painel.texto, /Retirar sua cesta em Sede \d+ \(quarta-feira, 11\/03\/2026, das 08:00 às 12:30\)/);

    // The delivery PDF gives each point its page with the day and hours.
    const pdf = await fetch(url(`/entregaCicloPDF/${cicloid}`), {
      headers: { cookie: `appSession=${admin.nav.cookie(amb.url, 'appSession') ?? ''}` },
    });
    assert.equal(pdf.status, 200);
    const { texto } = await textoDoPdf(new Uint8Array(await pdf.arrayBuffer()));
    assert.match(texto.replace(/\s+/g, ' '), /quarta-feira, 11\/03\/2026, das 08:00 às 12:30/);
  });

  test('um ponto com pedidos não sai do ciclo, e uma lista nova precisa incluir os pontos já pedidos', async () => {
    const { cicloid, cicloCestaId, sede, escola, feira } = await cenario();
    relogio.definir(dia('07'));
    assert.equal(
      (
        await consumidora.nav.postJson(url('/pedidoconsumidores'), {
          cicloid,
          pontoEntregaId: sede,
          produtos: [{ cicloCestaId, quantidade: 1 }],
        })
      ).status,
      201,
    );
    const salvar = (cicloPontos: unknown[]) =>
      admin.nav.postJson(url(`/ciclo/${cicloid}`), { nome: `Ciclo ${cicloid}`, ...DATAS_PADRAO, cicloPontos });
    const sem = await salvar([{ pontoEntregaId: escola }]);
    assert.equal(sem.status, 409);
    assert.match(sem.json<Envelope>().error, /^O ponto Sede \d+ não pode sair do ciclo: 1 pedido\(s\) retiram nele$/);
    const antes = (await admin.nav.getJson(url(`/ciclo/${cicloid}`))).json<
      Envelope<{ registro: { cicloPontos: PontoDoCiclo[] } }>
    >().data.registro.cicloPontos;
    assert.deepEqual(
      antes.map((p) => [p.pontoEntregaId, p.pedidos]),
      [
        [sede, 1],
        [escola, 0],
      ],
      'nada mudou',
    );
    // Leaving the other point and adding the fair is fine; changing the hours keeps the row.
    const mudou = await salvar([
      { id: antes[0]?.id, pontoEntregaId: sede, horaInicio: '09:00', horaFim: '11:00' },
      { pontoEntregaId: feira },
    ]);
    assert.equal(mudou.status, 200, mudou.texto);
    const depois = mudou.json<Envelope<{ cicloPontos: PontoDoCiclo[] }>>().data.cicloPontos;
    assert.deepEqual(
      depois.map((p) => [p.pontoEntregaId, p.horaInicio, p.id === antes[0]?.id]),
      [
        [sede, '09:00', true],
        [feira, null, false],
      ],
    );
    // An empty list serves every active point again, so nothing is orphaned.
    const vazia = await salvar([]);
    assert.equal(vazia.status, 200, vazia.texto);
    assert.deepEqual(vazia.json<Envelope<{ cicloPontos: PontoDoCiclo[] }>>().data.cicloPontos, []);

    // A cycle that served every point, with an order at one, cannot start listing others only.
    const outro = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: (await criarCesta(amb.banco)).id, quantidadeCestas: 3 }],
      compor: true,
    });
    const livre = await consumidora.nav.postJson(url('/pedidoconsumidores'), {
      cicloid: outro.id,
      pontoEntregaId: feira,
      produtos: [{ cicloCestaId: outro.cicloCestas[0], quantidade: 1 }],
    });
    assert.equal(livre.status, 201, livre.texto);
    const restringir = await admin.nav.postJson(url(`/ciclo/${outro.id}`), {
      nome: 'Outro',
      ...DATAS_PADRAO,
      cicloPontos: [{ pontoEntregaId: sede }],
    });
    assert.equal(restringir.status, 409);
    assert.match(
      restringir.json<Envelope>().error,
      /^Há pedidos deste ciclo com retirada em Feira \d+ \(1\): inclua esse\(s\) ponto\(s\) no ciclo ou mude os pedidos antes$/,
    );
  });

  test('o formulário do ciclo edita os pontos e, recusado, volta com os horários digitados e o erro ligado ao campo', async () => {
    const c = await criarCiclo(amb.banco, { datas: DATAS_PADRAO });
    const p = await criarPonto(amb.banco, `Quiosque ${c.id}`);
    const form = await admin.nav.get(url(`/ciclo/${c.id}`));
    const enviar = (horaFim: string) =>
      admin.nav.post(
        url(`/ciclo/${c.id}`),
        {
          form: {
            _csrf: tokenCsrf(form.texto),
            _listas: 'cicloEntregas,cicloPontos,cicloCestas,cicloProdutos',
            nome: 'Ciclo do quiosque',
            ...DATAS_PADRAO,
            ativo: 'true',
            'cicloPontos[0][pontoEntregaId]': String(p.id),
            'cicloPontos[0][dataRetirada]': '2026-03-12',
            'cicloPontos[0][horaInicio]': '15:00',
            'cicloPontos[0][horaFim]': horaFim,
            'cicloPontos[1][pontoEntregaId]': '',
            'cicloPontos[1][dataRetirada]': '',
            'cicloPontos[1][horaInicio]': '',
            'cicloPontos[1][horaFim]': '',
          },
        },
        { seguir: false },
      );
    const recusado = await enviar('14:00');
    assert.equal(recusado.status, 400);
    assert.match(
      recusado.texto,
      /<a href="#campo-cicloPontos-0-horaFim">Pontos de retirada, linha 1: Até<\/a>: Deve ser depois do horário de início/,
    );
    assert.match(
      recusado.texto,
      /id="campo-cicloPontos-0-horaInicio" name="cicloPontos\[0\]\[horaInicio\]" value="15:00"/,
    );
    assert.equal(
      (recusado.texto.match(/name="cicloPontos\[\d+\]\[pontoEntregaId\]"/g) ?? []).length,
      3,
      'a linha digitada e duas em branco',
    );
    const aceito = await enviar('17:30');
    assert.equal(aceito.status, 303);
    assert.equal(aceito.headers.get('location'), `/ciclo/${c.id}`);
    const linha = await amb.banco
      .selectFrom('ciclopontoentrega')
      .select(['pontoEntregaId', 'dataRetirada', 'horaInicio', 'horaFim'])
      .where('cicloid', '=', c.id)
      .execute();
    assert.deepEqual(linha, [
      { pontoEntregaId: p.id, dataRetirada: '2026-03-12', horaInicio: '15:00', horaFim: '17:30' },
    ]);
  });
});
