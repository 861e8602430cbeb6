/**
 * The coordination's view of a cycle's pickup (issue 38), GET /retirada/:cicloId, HTML and JSON:
 * per point, picked up n of N confirmed orders, who is still missing, the shorts with the value
 * they give back (the same function as the ledger's), the payments by form with totals, the notes,
 * and the conflicts two phones leave (an order picked up twice: the earliest counts, whatever the
 * arrival order; two shorts on one item), each record with who, device and when. The records are
 * written here as the sync stores them (rows of `acaoretirada`).
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { TipoDeAcaoDeRetirada } from '../../src/db/tipos.ts';
import { valoresDasFaltas } from '../../src/domain/retirada/dinheiro.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarExtra, criarPonto, criarUsuario } from '../helpers/fabricas.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: string;
}

interface Registro {
  acaoId: number;
  chave: string;
  quem: string;
  dispositivo: string;
  feitoEm: string;
}

interface PontoJson {
  pontoEntregaId: number;
  nome: string;
  voluntarios: Array<{ nome: string }>;
  pedidos: number;
  retirados: Array<{ pedidoId: number; pessoa: string; primeira: Registro; registros: Registro[] }>;
  faltando: Array<{ pedidoId: number; pessoa: string; telefone: string | null }>;
  faltas: Array<{
    pedidoId: number;
    item: string;
    cesta: string | null;
    quantidade: number;
    substituto: string | null;
    texto: string | null;
    credito: number;
    registro: Registro;
  }>;
  creditoDasFaltas: number;
  pagamentos: Array<{ pedidoId: number; forma: string; valor: number; registro: Registro }>;
  totais: { dinheiro: { quantos: number; valor: number }; pix: { quantos: number; valor: number }; total: number };
  notas: Array<{ pedidoId: number; texto: string; registro: Registro }>;
  conflitos: Array<{ tipo: string; pedidoId: number; pessoa: string; descricao: string; registros: Registro[] }>;
}

interface Resumo {
  cicloid: number;
  aberta: boolean;
  versao: string;
  geradoEm: string;
  pontos: PontoJson[];
}

/** The devices' ids, as the pickup app makes them (crypto.randomUUID). */
const VERA = '3f9c2a71-5b8e-4d0a-9c1e-7a2b3c4d5e6f';
const VITOR = 'a04d77e2-1c3b-4e5f-8a9b-0c1d2e3f4a5b';

/** 11/03, the first pickup day of DATAS_PADRAO (orders closed on 09/03). */
const NA_RETIRADA = '2026-03-11T15:00:00Z';

describe('a visão da coordenação da retirada', () => {
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  before(async () => {
    // A 10 % fee, so the value of a short carries its fee.
    amb = await iniciarAmbiente({
      relogio: new RelogioDeTeste(NA_RETIRADA),
      env: { TAXA_PEDIDO_PERCENTUAL: '10' },
    });
    admin = await entrarComo(amb, ['admin'], 'Coordenação');
  });
  after(() => amb.fechar());
  const url = (p: string) => `${amb.url}${p}`;

  /**
   * A cycle with a composed basket (1 kg of a product at R$ 1,00 per kg of the offer) and an extra
   * at R$ 8,00 per kg; two points: the Sede, with volunteers, three confirmed orders and one not
   * confirmed, and the Escola with one confirmed order.
   */
  async function cenario() {
    const cesta = await criarCesta(amb.banco, { nome: `Cesta Grande ${randomUUID().slice(0, 4)}` });
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
      compor: true,
    });
    const cicloCestaId = ciclo.cicloCestas[0] ?? 0;
    const item = await amb.banco
      .selectFrom('composicaoproduto as x')
      .innerJoin('composicao as c', 'c.id', 'x.composicaoid')
      .innerJoin('ofertaproduto as op', 'op.id', 'x.ofertaProdutoId')
      .innerJoin('produto as p', 'p.id', 'op.produtoid')
      .select(['p.id', 'p.nome'])
      .where('c.cicloCestaId', '=', cicloCestaId)
      .executeTakeFirstOrThrow();
    const extra = await criarExtra(amb.banco, ciclo.id, { quantidadeMilesimos: 10_000, valorCentavos: 800 });
    const extraNome = (
      await amb.banco
        .selectFrom('cicloproduto as cp')
        .innerJoin('produto as p', 'p.id', 'cp.produtoId')
        .select('p.nome')
        .where('cp.id', '=', extra.id)
        .executeTakeFirstOrThrow()
    ).nome;
    const sede = (await criarPonto(amb.banco, `Sede ${ciclo.id}`)).id;
    const escola = (await criarPonto(amb.banco, `Escola ${ciclo.id}`)).id;
    const iso = new Date().toISOString();
    await amb.banco
      .insertInto('ciclopontoentrega')
      .values([
        {
          cicloid: ciclo.id,
          pontoEntregaId: sede,
          dataRetirada: '2026-03-11',
          horaInicio: '08:00',
          horaFim: '12:00',
          createdAt: iso,
          updatedAt: iso,
        },
        {
          cicloid: ciclo.id,
          pontoEntregaId: escola,
          dataRetirada: '2026-03-12',
          horaInicio: null,
          horaFim: null,
          createdAt: iso,
          updatedAt: iso,
        },
      ])
      .execute();
    const vera = await criarUsuario(amb.banco, { nome: 'Vera Voluntária' });
    const vitor = await criarUsuario(amb.banco, { nome: 'Vítor Voluntário' });
    await amb.banco
      .insertInto('voluntario')
      .values([vera, vitor].map((v) => ({ cicloid: ciclo.id, pontoEntregaId: sede, usuarioid: v.id, createdAt: iso })))
      .execute();
    const pedido = async (nome: string, ponto: number, finalizado: boolean, celular: string | null = null) => {
      const u = await criarUsuario(amb.banco, { nome });
      if (celular !== null) await amb.banco.updateTable('usuario').set({ celular }).where('id', '=', u.id).execute();
      const p = await amb.banco
        .insertInto('pedido')
        .values({
          cicloid: ciclo.id,
          usuarioid: u.id,
          pontoEntregaId: ponto,
          finalizado,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const cestaLinha = await amb.banco
        .insertInto('pedidoproduto')
        .values({
          pedidoid: p.id,
          cicloCestaId,
          quantidadeMilesimos: 2000,
          valorCentavos: 5000,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const extraLinha = await amb.banco
        .insertInto('pedidoproduto')
        .values({
          pedidoid: p.id,
          cicloProdutoId: extra.id,
          quantidadeMilesimos: 1500,
          valorCentavos: 800,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { id: p.id, usuarioid: u.id, nome, cesta: cestaLinha.id, extra: extraLinha.id };
    };
    const ana = await pedido('Ana Alves', sede, true, '(16) 99999-0001');
    const bia = await pedido('Bia Borges', sede, true);
    const caio = await pedido('Caio Costa', sede, true, '(16) 99999-0003');
    const davi = await pedido('Davi Sem Confirmar', sede, false);
    const elis = await pedido('Elis Escola', escola, true);
    return {
      cicloid: ciclo.id,
      sede,
      escola,
      vera,
      vitor,
      ana,
      bia,
      caio,
      davi,
      elis,
      item,
      extraNome,
      cesta: cesta.nome,
    };
  }

  type Cenario = Awaited<ReturnType<typeof cenario>>;

  /** A record as the sync stores it. */
  function registrar(
    c: Cenario,
    quem: { id: number },
    ponto: number,
    pedidoid: number,
    tipo: TipoDeAcaoDeRetirada,
    feitoEm: string,
    campos: Partial<{
      pedidoProdutoId: number;
      produtoId: number;
      quantidadeMilesimos: number;
      substituto: string;
      valorCentavos: number;
      forma: 'dinheiro' | 'pix';
      texto: string;
    }> = {},
    dispositivo = VERA,
  ) {
    return amb.banco
      .insertInto('acaoretirada')
      .values({
        chave: randomUUID(),
        dispositivo,
        usuarioid: quem.id,
        cicloid: c.cicloid,
        pontoEntregaId: ponto,
        pedidoid,
        tipo,
        feitoEm,
        recebidoEm: new Date().toISOString(),
        ...campos,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  }

  async function resumo(cicloid: number): Promise<Resumo> {
    const r = await admin.nav.getJson(url(`/retirada/${cicloid}`));
    assert.equal(r.status, 200, r.texto);
    assert.equal(r.headers.get('cache-control'), 'no-store');
    return r.json<Envelope<Resumo>>().data;
  }

  test('por ponto: retirados, quem falta, faltas com o crédito, pagamentos por forma, notas e conflitos', async () => {
    const c = await cenario();
    // Ana was ticked on two phones; the later tick arrived first. The earliest (09:02 local) counts.
    await registrar(c, c.vitor, c.sede, c.ana.id, 'retirada', '2026-03-11T12:30:00.000Z', {}, VITOR);
    const primeira = await registrar(c, c.vera, c.sede, c.ana.id, 'retirada', '2026-03-11T12:02:00.000Z');
    await registrar(c, c.vera, c.sede, c.bia.id, 'retirada', '2026-03-11T12:10:00.000Z');
    // Ana: 0,5 kg of the extra short, with a substitute and a note. Bia: two shorts of the basket item.
    const faltaAna = await registrar(c, c.vera, c.sede, c.ana.id, 'falta', '2026-03-11T12:03:00.000Z', {
      pedidoProdutoId: c.ana.extra,
      quantidadeMilesimos: 500,
      substituto: 'Meio maço de couve',
      texto: 'Acabou na banca',
    });
    const faltaBia1 = await registrar(c, c.vera, c.sede, c.bia.id, 'falta', '2026-03-11T12:11:00.000Z', {
      pedidoProdutoId: c.bia.cesta,
      produtoId: c.item.id,
      quantidadeMilesimos: 500,
    });
    const faltaBia2 = await registrar(
      c,
      c.vitor,
      c.sede,
      c.bia.id,
      'falta',
      '2026-03-11T12:12:00.000Z',
      { pedidoProdutoId: c.bia.cesta, produtoId: c.item.id, quantidadeMilesimos: 1000 },
      VITOR,
    );
    await registrar(c, c.vera, c.sede, c.ana.id, 'pagamento', '2026-03-11T12:04:00.000Z', {
      valorCentavos: 2450,
      forma: 'dinheiro',
    });
    await registrar(c, c.vera, c.sede, c.bia.id, 'pagamento', '2026-03-11T12:13:00.000Z', {
      valorCentavos: 1000,
      forma: 'pix',
    });
    await registrar(c, c.vera, c.sede, c.bia.id, 'pagamento', '2026-03-11T12:14:00.000Z', {
      valorCentavos: 500,
      forma: 'dinheiro',
    });
    await registrar(c, c.vera, c.sede, c.caio.id, 'nota', '2026-03-11T12:20:00.000Z', { texto: 'Vem às 11h, avisou' });

    const r = await resumo(c.cicloid);
    assert.equal(r.aberta, true);
    assert.deepEqual(
      r.pontos.map((p) => [p.nome, p.pedidos, p.retirados.length]),
      [
        [`Sede ${c.cicloid}`, 3, 2],
        [`Escola ${c.cicloid}`, 1, 0],
      ],
      'os pontos do ciclo, pelo dia; só os pedidos confirmados contam',
    );
    const [sede, escola] = r.pontos;
    assert.ok(sede && escola);
    assert.deepEqual(
      sede.voluntarios.map((v) => v.nome),
      ['Vera Voluntária', 'Vítor Voluntário'],
    );
    assert.deepEqual(
      sede.retirados.map((x) => [x.pessoa, x.primeira.acaoId, x.primeira.quem, x.registros.length]),
      [
        ['Ana Alves', primeira.id, 'Vera Voluntária', 2],
        ['Bia Borges', sede.retirados[1]?.primeira.acaoId, 'Vera Voluntária', 1],
      ],
    );
    assert.deepEqual(sede.faltando, [{ pedidoId: c.caio.id, pessoa: 'Caio Costa', telefone: '(16) 99999-0003' }]);
    assert.deepEqual(
      escola.faltando.map((x) => x.pessoa),
      ['Elis Escola'],
    );
    // The value each short gives back: the item's value plus its 10 % fee, from the ledger's function.
    const valores = new Map(
      (await valoresDasFaltas(amb.banco, c.cicloid, amb.config.taxa)).map((v) => [v.acaoId, v.consumidorCentavos]),
    );
    // Extra: 0,5 kg × R$ 8,00 = R$ 4,00 + R$ 0,40. Basket item: its offer price R$ 1,00/kg × 0,5 kg = R$ 0,50 + R$ 0,05; × 1 kg = R$ 1,10.
    assert.deepEqual([valores.get(faltaAna.id), valores.get(faltaBia1.id), valores.get(faltaBia2.id)], [440, 55, 110]);
    assert.deepEqual(
      sede.faltas.map((f) => [f.pedidoId, f.item, f.cesta, f.quantidade, f.substituto, f.texto, f.credito]),
      [
        [c.ana.id, c.extraNome, null, 0.5, 'Meio maço de couve', 'Acabou na banca', 4.4],
        [c.bia.id, c.item.nome, c.cesta, 0.5, null, null, 0.55],
        [c.bia.id, c.item.nome, c.cesta, 1, null, null, 1.1],
      ],
    );
    assert.equal(sede.creditoDasFaltas, 6.05);
    assert.deepEqual(sede.totais, {
      dinheiro: { quantos: 2, valor: 29.5 },
      pix: { quantos: 1, valor: 10 },
      total: 39.5,
    });
    assert.deepEqual(
      sede.pagamentos.map((p) => [p.pedidoId, p.forma, p.valor]),
      [
        [c.ana.id, 'dinheiro', 24.5],
        [c.bia.id, 'pix', 10],
        [c.bia.id, 'dinheiro', 5],
      ],
    );
    assert.deepEqual(
      sede.notas.map((n) => [n.pedidoId, n.texto, n.registro.quem, n.registro.dispositivo]),
      [[c.caio.id, 'Vem às 11h, avisou', 'Vera Voluntária', VERA]],
    );
    assert.deepEqual(
      sede.conflitos.map((x) => [x.tipo, x.pessoa, x.descricao, x.registros.map((y) => y.quem)]),
      [
        ['retirada_repetida', 'Ana Alves', 'Retirada registrada 2 vezes', ['Vera Voluntária', 'Vítor Voluntário']],
        [
          'falta_repetida',
          'Bia Borges',
          `2 faltas registradas em ${c.item.nome} (${c.cesta})`,
          ['Vera Voluntária', 'Vítor Voluntário'],
        ],
      ],
    );
    assert.deepEqual(
      [escola.faltas, escola.pagamentos, escola.notas, escola.conflitos, escola.totais.total],
      [[], [], [], [], 0],
    );

    // The page says the same, in the community's time zone.
    const html = await admin.nav.get(url(`/retirada/${c.cicloid}`));
    assert.equal(html.status, 200);
    const t = html.texto;
    assert.ok(t.includes('<p><strong>2 de 4 pedidos confirmados retirados</strong> em 2 pontos.</p>'), t);
    assert.ok(t.includes('<p class="contagem"><strong>2 de 3 retirados</strong> · 1 ainda não</p>'));
    assert.ok(
      t.includes('quarta-feira, 11/03/2026, das 08:00 às 12:00 · Voluntários: Vera Voluntária, Vítor Voluntário.'),
    );
    assert.ok(t.includes('<li>Caio Costa · <a href="tel:16999990003">(16) 99999-0003</a></li>'));
    assert.ok(!t.includes('Davi Sem Confirmar'), 'um pedido não confirmado não é entregue');
    assert.ok(t.includes('<h3>2 conflitos para conferir</h3>'));
    assert.ok(t.includes('<strong>Ana Alves</strong>: Retirada registrada 2 vezes (vale a primeira)'));
    // Each record: when (on the device, in the community's zone), who, and which device (its id's start, the whole in its title).
    assert.ok(
      t.includes(
        `<td data-rotulo="Retirado"><span class="registro">11/03/2026 às 09:02 · Vera Voluntária · <span title="${VERA}">aparelho 3f9c2a71</span></span></td>`,
      ),
      t,
    );
    assert.ok(t.includes('<h3>Faltas (3) · R$ 6,05 de crédito</h3>'), t);
    assert.ok(t.includes('<td data-rotulo="Faltou">0,5 kg</td><td data-rotulo="No lugar">Meio maço de couve</td>'));
    assert.ok(t.includes('<td data-rotulo="Crédito">R$ 4,40</td>'));
    assert.match(
      t,
      /<dt>Dinheiro \(2 pagamentos\)<\/dt><dd>R\$\s29,50<\/dd><dt>Pix \(1 pagamento\)<\/dt><dd>R\$\s10,00<\/dd><dt>Total recebido<\/dt><dd>R\$\s39,50<\/dd>/,
    );
    assert.ok(t.includes('<strong>Caio Costa</strong>: Vem às 11h, avisou'));
    assert.ok(
      t.includes(`Nenhum voluntário nomeado (<a href="#voluntarios-${c.escola}">nomear</a>).`),
      'a Escola, com o caminho para nomear',
    );
    assert.ok(t.includes('<script src="/static/retirada.js" defer></script>'));

    // Closing the cycle writes each short to the ledger: the consumer's credit is the page's, to the centavo.
    const fechado = await admin.nav.postJson(url(`/fecharciclo/${c.cicloid}`), {});
    assert.equal(fechado.status, 200, fechado.texto);
    const creditos = await amb.banco
      .selectFrom('movimentacao as m')
      .innerJoin('tipomovimentacao as t', 't.id', 'm.tipoMovimentacaoId')
      .select(['m.usuarioid', 'm.valorCentavos', 'm.sentido'])
      .where('t.nome', '=', 'Falta na retirada')
      .where('m.cicloid', '=', c.cicloid)
      .where('m.usuarioid', 'in', [c.ana.usuarioid, c.bia.usuarioid])
      .orderBy('m.usuarioid')
      .orderBy('m.valorCentavos')
      .execute();
    assert.deepEqual(
      creditos.map((m) => [m.usuarioid, m.sentido, m.valorCentavos]),
      [
        [c.ana.usuarioid, 'credito', 440],
        [c.bia.usuarioid, 'credito', 55],
        [c.bia.usuarioid, 'credito', 110],
      ].sort((a, b) => Number(a[0]) - Number(b[0]) || Number(a[2]) - Number(b[2])),
    );
    const depois = await resumo(c.cicloid);
    assert.equal(depois.pontos[0]?.creditoDasFaltas, 6.05, 'a página, depois do fechamento, diz o mesmo');
    assert.notEqual(depois.versao, r.versao, 'o ciclo fechado muda a versão');
  });

  test('a versão muda quando chega um registro, e só então', async () => {
    const c = await cenario();
    const antes = await resumo(c.cicloid);
    const deNovo = await resumo(c.cicloid);
    assert.equal(deNovo.versao, antes.versao, 'nada mudou, a mesma versão');
    assert.notEqual(deNovo.geradoEm, undefined);
    // The page's script asks with the version it shows: unchanged, a 304 with no body.
    const perguntar = (versao: string) =>
      admin.nav.get(url(`/retirada/${c.cicloid}`), {
        headers: { accept: 'application/json', 'if-none-match': `"${versao}"` },
      });
    const igual = await perguntar(antes.versao);
    assert.deepEqual([igual.status, igual.texto, igual.headers.get('etag')], [304, '', `"${antes.versao}"`]);
    await registrar(c, c.vera, c.sede, c.caio.id, 'retirada', '2026-03-11T13:00:00.000Z');
    const mudou = await perguntar(antes.versao);
    assert.equal(mudou.status, 200);
    const depois = await resumo(c.cicloid);
    assert.equal(mudou.headers.get('etag'), `"${depois.versao}"`);
    assert.notEqual(depois.versao, antes.versao);
    assert.equal(depois.pontos[0]?.retirados.length, 1);
    const html = await admin.nav.get(url(`/retirada/${c.cicloid}`));
    assert.ok(html.texto.includes(`<div id="retirada-pontos" data-versao="${depois.versao}">`));
  });

  test('antes do fim dos pedidos a página avisa que a retirada não abriu; um ciclo que não existe é 404', async () => {
    const c = await criarCiclo(amb.banco, {
      datas: { ...DATAS_PADRAO, dataPedidoFim: '2026-03-11', dataRetiradaInicio: '2026-03-11' },
    });
    const r = await resumo(c.id);
    assert.equal(r.aberta, false);
    assert.deepEqual(r.pontos, []);
    const html = await admin.nav.get(url(`/retirada/${c.id}`));
    assert.ok(
      html.texto.includes(
        'A retirada abre depois do fim dos pedidos (11/03/2026): até lá os aparelhos não registram nada.',
      ),
    );
    const nenhum = await admin.nav.getJson(url('/retirada/99999999'));
    assert.equal(nenhum.status, 404);
    assert.deepEqual(nenhum.json(), { success: false, error: 'Não encontramos o ciclo 99999999' });
  });

  test('só a coordenação: um voluntário do ponto, o info e o consumidor são recusados', async () => {
    const c = await cenario();
    const voluntario = await entrarComo(amb, ['consumidor'], 'Vânia Voluntária');
    await amb.banco
      .insertInto('voluntario')
      .values({ cicloid: c.cicloid, pontoEntregaId: c.sede, usuarioid: voluntario.id ?? 0, createdAt: 'x' })
      .execute();
    for (const p of [voluntario, await entrarComo(amb, ['info']), await entrarComo(amb, ['fornecedor'])]) {
      const r = await p.nav.getJson(url(`/retirada/${c.cicloid}`));
      assert.equal(r.status, 403, r.texto);
      assert.deepEqual(r.json(), { success: false, error: 'Você não tem permissão para esta ação' });
    }
    const master = await entrarComo(amb, ['master']);
    assert.equal((await master.nav.getJson(url(`/retirada/${c.cicloid}`))).status, 200);
  });
});
