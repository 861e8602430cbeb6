import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { somarDias } from '../../src/domain/tempo.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto, type DatasDoCiclo } from '../helpers/fabricas.ts';
import { csrfDe, entrarComo, navegadorComSessao, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

/** Subscriptions through the Cestas face: real HTTP, real logins, HTML forms and the JSON envelope. */

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: string;
  message: string;
  details?: Record<string, unknown>;
}
interface AssinaturaJson {
  id: number;
  usuarioid: number;
  cestaId: number;
  quantidade: number;
  ativa: boolean;
  pausas: Array<{ id: number; inicio: string; fim: string }>;
}
interface Proximo {
  cicloid: number;
  nome: string;
  situacao: string | null;
  quantidade: number;
  pedidoId: number | null;
  vem: boolean;
  janelaAberta: boolean;
}
interface Pagina {
  consumidor: { id: number; nome: string };
  itens: Array<AssinaturaJson & { cesta: string; proximosCiclos: Proximo[] }>;
}

/** Inside the default cycle's order window (06/03 to 09/03), and after it. */
const NO_PEDIDO = '2026-03-07T15:00:00Z';
const DEPOIS = '2026-03-10T15:00:00Z';

function datasDaSemana(semanas: number): DatasDoCiclo {
  const d = semanas * 7;
  return Object.fromEntries(
    Object.entries(DATAS_PADRAO).map(([k, v]) => [k, somarDias(v, d)]),
  ) as unknown as DatasDoCiclo;
}

describe('assinaturas pela face Cestas', () => {
  const relogio = new RelogioDeTeste(NO_PEDIDO);
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  let ponto = 0;
  before(async () => {
    amb = await iniciarAmbiente({ relogio });
    admin = await entrarComo(amb, ['admin']);
    ponto = (await criarPonto(amb.banco, 'Feira da Praça')).id;
  });
  after(() => amb.fechar());
  const url = (p: string) => `${amb.url}${p}`;

  /** A composed cycle (the default dates, or `semanas` later) offering `n` baskets of a new basket type. */
  async function cicloCom(n: number, semanas = 0, cestaId?: number) {
    const cesta =
      cestaId ?? (await criarCesta(amb.banco, { nome: `Cesta ${Math.random().toString(36).slice(2, 7)}` })).id;
    const ciclo = await criarCiclo(amb.banco, {
      datas: datasDaSemana(semanas),
      cestas: [{ cestaId: cesta, quantidadeCestas: n }],
      compor: true,
    });
    return { cestaId: cesta, cicloid: ciclo.id, cicloCestaId: ciclo.cicloCestas[0] ?? 0 };
  }
  const corpo = (cestaId: number, extra: Record<string, unknown> = {}) => ({
    cestaId,
    quantidade: 1,
    pontoEntregaId: ponto,
    frequencia: 'cada_ciclo',
    inicio: '2026-01-01',
    fim: '2026-12-31',
    ...extra,
  });
  const formulario = async (p: Pessoa, caminho: string, campos: Record<string, string>) =>
    p.nav.post(
      url(caminho),
      { form: { _csrf: await csrfDe(amb, p.nav), ...campos } },
      { headers: { accept: 'text/html' } },
    );
  const pagina = async (p: Pessoa) => (await p.nav.getJson(url('/assinaturas'))).json<Envelope<Pagina>>().data;

  test('assinar pelo formulário (datas dd/mm/aaaa) e pelo JSON; a página mostra a cesta e o ciclo aberto com "vem"', async () => {
    relogio.definir(NO_PEDIDO);
    const { cestaId, cicloid } = await cicloCom(5);
    const ana = await entrarComo(amb, ['consumidor'], 'Ana');
    const r = await formulario(ana, '/assinaturas', {
      cestaId: String(cestaId),
      quantidade: '2',
      pontoEntregaId: String(ponto),
      frequencia: 'cada_ciclo',
      inicio: '01/03/2026',
      fim: '30/06/2026',
    });
    assert.equal(r.status, 200, r.texto.slice(0, 300));
    assert.match(r.url, /\/assinaturas$/);
    assert.match(r.texto, /Assinatura criada/);
    assert.match(r.texto, /2 × Cesta/);
    assert.match(r.texto, /<span class="estado finalizada">vem<\/span>/);
    assert.match(r.texto, /Pular este ciclo/);
    const dados = await pagina(ana);
    assert.equal(dados.itens.length, 1);
    const [a] = dados.itens;
    assert.ok(a);
    assert.deepEqual([a.quantidade, a.ativa], [2, true]);
    assert.equal((a as unknown as { inicio: string }).inicio, '2026-03-01');
    const c = a.proximosCiclos.find((x) => x.cicloid === cicloid);
    assert.ok(c);
    // The window is open: it was served at once, in an order of hers.
    assert.deepEqual([c.situacao, c.vem, c.janelaAberta, c.quantidade], ['gerado', true, true, 2]);
    assert.ok(c.pedidoId !== null);
    // JSON: 201 with the subscription.
    const bia = await entrarComo(amb, ['consumidor'], 'Bia');
    const j = await bia.nav.postJson(url('/assinaturas'), corpo(cestaId));
    assert.equal(j.status, 201, j.texto);
    const criada = j.json<Envelope<AssinaturaJson>>();
    assert.equal(criada.data.usuarioid, bia.id);
    assert.equal(criada.message, 'Assinatura criada');
  });

  test('uma assinatura ativa por tipo de cesta: 409 no JSON, e no formulário a página volta com a mensagem e o que foi digitado', async () => {
    relogio.definir(NO_PEDIDO);
    const { cestaId } = await cicloCom(5);
    const caio = await entrarComo(amb, ['consumidor'], 'Caio');
    assert.equal((await caio.nav.postJson(url('/assinaturas'), corpo(cestaId))).status, 201);
    const j = await caio.nav.postJson(url('/assinaturas'), corpo(cestaId, { quantidade: 3 }));
    assert.equal(j.status, 409);
    assert.match(j.json<Envelope>().error, /Já existe uma assinatura ativa da Cesta .* para esta pessoa/);
    const h = await formulario(caio, '/assinaturas', {
      cestaId: String(cestaId),
      quantidade: '3',
      pontoEntregaId: String(ponto),
      frequencia: 'cada_ciclo',
      inicio: '2026-01-01',
      fim: '2026-12-31',
    });
    assert.equal(h.status, 409);
    assert.match(h.texto, /role="alert"[^>]*><p>Já existe uma assinatura ativa/);
    assert.match(h.texto, /id="nova-quantidade" name="quantidade" type="text" value="3"/);
    // A field error lands on its field, 400.
    const ruim = await formulario(caio, '/assinaturas', {
      cestaId: String(cestaId),
      quantidade: '0',
      pontoEntregaId: String(ponto),
      frequencia: 'cada_ciclo',
      inicio: '31/02/2026',
      fim: '2026-12-31',
    });
    assert.equal(ruim.status, 400);
    assert.match(ruim.texto, /<p class="erro" id="nova-quantidade-erro">Deve ser no mínimo 1<\/p>/);
    assert.match(ruim.texto, /<p class="erro" id="nova-inicio-erro">Data inválida/);
    const rj = await caio.nav.postJson(
      url('/assinaturas'),
      corpo(cestaId, { frequencia: 'sempre', fim: '2025-01-01' }),
    );
    assert.equal(rj.status, 400);
    assert.ok(rj.json<Envelope>().details?.frequencia !== undefined && rj.json<Envelope>().details?.fim !== undefined);
  });

  test('o limite da cesta: o admin define, e a assinatura além dele é recusada com 409', async () => {
    relogio.definir(NO_PEDIDO);
    const { cestaId } = await cicloCom(10);
    const l = await admin.nav.postJson(url('/assinaturas/limite'), { cestaId, limiteAssinaturas: 1 });
    assert.equal(l.status, 200, l.texto);
    assert.equal(l.json<Envelope<{ limiteAssinaturas: number }>>().data.limiteAssinaturas, 1);
    const d1 = await entrarComo(amb, ['consumidor'], 'Dani');
    const d2 = await entrarComo(amb, ['consumidor'], 'Duda');
    assert.equal((await d1.nav.postJson(url('/assinaturas'), corpo(cestaId))).status, 201);
    const r = await d2.nav.postJson(url('/assinaturas'), corpo(cestaId));
    assert.equal(r.status, 409);
    assert.match(r.json<Envelope>().error, /aceita no máximo 1 assinaturas ativas/);
    // The consumer may not set caps; a bad cap is a 400 on its field.
    assert.equal((await d1.nav.postJson(url('/assinaturas/limite'), { cestaId, limiteAssinaturas: 5 })).status, 403);
    const ruim = await admin.nav.postJson(url('/assinaturas/limite'), { cestaId, limiteAssinaturas: -1 });
    assert.equal(ruim.status, 400);
    assert.ok(ruim.json<Envelope>().details?.limiteAssinaturas !== undefined);
    // The admin list shows the cap and the totals.
    const todas = (await admin.nav.getJson(url('/assinaturas/todas'))).json<
      Envelope<{ porCesta: Array<{ cestaId: number; assinaturas: number; cestas: number; limite: number | null }> }>
    >().data;
    const linha = todas.porCesta.find((c) => c.cestaId === cestaId);
    assert.deepEqual([linha?.assinaturas, linha?.cestas, linha?.limite], [1, 1, 1]);
  });

  test('pular o ciclo (formulário com CSRF) libera a cesta, e um pedido avulso a leva por /pedidoconsumidores', async () => {
    relogio.definir(NO_PEDIDO);
    const { cestaId, cicloid, cicloCestaId } = await cicloCom(1);
    const eva = await entrarComo(amb, ['consumidor'], 'Eva');
    const fabio = await entrarComo(amb, ['consumidor'], 'Fábio');
    const a = (await eva.nav.postJson(url('/assinaturas'), corpo(cestaId))).json<Envelope<AssinaturaJson>>().data;
    const pedir = () =>
      fabio.nav.postJson(url('/pedidoconsumidores'), {
        cicloid,
        pontoEntregaId: ponto,
        produtos: [{ cicloCestaId, quantidade: 1 }],
      });
    const antes = await pedir();
    assert.equal(antes.status, 409, 'a única cesta é da assinatura');
    // A form from another site, or with a stale page's token, changes nothing.
    const deFora = await eva.nav.post(
      url(`/assinaturas/${a.id}/pular/${cicloid}`),
      { form: {} },
      { headers: { accept: 'text/html', 'sec-fetch-site': 'cross-site' } },
    );
    assert.equal(deFora.status, 403);
    const tokenVelho = await eva.nav.post(
      url(`/assinaturas/${a.id}/pular/${cicloid}`),
      { form: { _csrf: 'de-outra-sessao' } },
      { headers: { accept: 'text/html' } },
    );
    assert.equal(tokenVelho.status, 403);
    assert.equal((await pagina(eva)).itens[0]?.proximosCiclos.find((x) => x.cicloid === cicloid)?.situacao, 'gerado');
    const r = await formulario(eva, `/assinaturas/${a.id}/pular/${cicloid}`, {});
    assert.equal(r.status, 200, r.texto.slice(0, 300));
    assert.match(r.texto, /a cesta não vem no ciclo/);
    assert.match(r.texto, /<span class="estado rascunho">pulado<\/span>/);
    const depois = await pedir();
    assert.ok(depois.status === 200 || depois.status === 201, depois.texto);
    const c = (await pagina(eva)).itens[0]?.proximosCiclos.find((x) => x.cicloid === cicloid);
    assert.deepEqual([c?.situacao, c?.vem, c?.pedidoId], ['pulado', false, null]);
    // Changing this cycle back asks for a basket there is none of now: 409 saying so.
    const volta = await eva.nav.postJson(url(`/assinaturas/${a.id}/ciclo/${cicloid}`), {
      quantidade: 1,
      pontoEntregaId: ponto,
    });
    assert.equal(volta.status, 409);
    assert.match(volta.json<Envelope>().error, /Não há cestas para todas/);
  });

  test('uma assinatura feita antes da janela vem antes do primeiro pedido avulso por /pedidoconsumidores: o avulso só leva o que ela deixa', async () => {
    // Before the order window (the offers' days): the subscription is saved, nothing is generated yet.
    relogio.definir('2026-03-02T15:00:00Z');
    const { cestaId, cicloid, cicloCestaId } = await cicloCom(3);
    const gil = await entrarComo(amb, ['consumidor'], 'Gil');
    const hana = await entrarComo(amb, ['consumidor'], 'Hana');
    const salva = await gil.nav.postJson(url('/assinaturas'), corpo(cestaId, { quantidade: 2 }));
    assert.equal(salva.status, 201, salva.texto);
    assert.equal((await pagina(gil)).itens[0]?.proximosCiclos.find((x) => x.cicloid === cicloid)?.situacao, null);
    // The window opens; the first one-off order of the cycle asks for two of the three baskets.
    relogio.definir(NO_PEDIDO);
    const pedir = (n: number) =>
      hana.nav.postJson(url('/pedidoconsumidores'), {
        cicloid,
        pontoEntregaId: ponto,
        produtos: [{ cicloCestaId, quantidade: n }],
      });
    const recusado = await pedir(2);
    assert.equal(recusado.status, 409, recusado.texto);
    assert.equal(recusado.json<Envelope>().details?.disponivel !== undefined, true);
    const c = (await pagina(gil)).itens[0]?.proximosCiclos.find((x) => x.cicloid === cicloid);
    assert.deepEqual([c?.situacao, c?.quantidade], ['gerado', 2]);
    const levou = await pedir(1);
    assert.equal(levou.status, 201, levou.texto);
  });

  test('mudar só neste ciclo: outra quantidade, a assinatura fica como era', async () => {
    relogio.definir(NO_PEDIDO);
    const { cestaId, cicloid } = await cicloCom(5);
    const gil = await entrarComo(amb, ['consumidor'], 'Gil');
    const a = (await gil.nav.postJson(url('/assinaturas'), corpo(cestaId))).json<Envelope<AssinaturaJson>>().data;
    const r = await formulario(gil, `/assinaturas/${a.id}/ciclo/${cicloid}`, {
      quantidade: '3',
      pontoEntregaId: String(ponto),
    });
    assert.equal(r.status, 200);
    assert.match(r.texto, /Alterado só neste ciclo/);
    const d = (await pagina(gil)).itens[0];
    assert.deepEqual([d?.quantidade, d?.proximosCiclos.find((x) => x.cicloid === cicloid)?.quantidade], [1, 3]);
    const ruim = await formulario(gil, `/assinaturas/${a.id}/ciclo/${cicloid}`, {
      quantidade: 'três',
      pontoEntregaId: String(ponto),
    });
    assert.equal(ruim.status, 400);
    assert.match(ruim.texto, new RegExp(`id="c${a.id}-${cicloid}-quantidade-erro">Deve ser um número inteiro`));
  });

  test('uma pausa sobre três ciclos deixa os três sem cesta e o quarto vem; sobreposta é 409, invertida 400; removida, sai da assinatura', async () => {
    relogio.definir('2026-03-02T15:00:00Z');
    const { cestaId, cicloid, cicloCestaId: cc0 } = await cicloCom(5, 0);
    const outra = await entrarComo(amb, ['consumidor'], 'Outra');
    const c2 = await cicloCom(5, 1, cestaId);
    const c3 = await cicloCom(5, 2, cestaId);
    const c4 = await cicloCom(5, 3, cestaId);
    let hel = await entrarComo(amb, ['consumidor'], 'Helena');
    // Weeks pass: the session of that day (a session ends after days without use).
    const outroDia = (instante: string) => {
      relogio.definir(instante);
      hel = { ...hel, nav: navegadorComSessao(amb, hel.email, 'Helena') };
    };
    const a = (await hel.nav.postJson(url('/assinaturas'), corpo(cestaId))).json<Envelope<AssinaturaJson>>().data;
    // Order windows open 06/03, 13/03, 20/03 and 27/03: the pause takes the first three.
    const r = await formulario(hel, `/assinaturas/${a.id}/pausas`, { inicio: '05/03/2026', fim: '21/03/2026' });
    assert.equal(r.status, 200, r.texto.slice(0, 300));
    assert.match(r.texto, /Pausa registrada/);
    const situacoes = async () =>
      new Map((await pagina(hel)).itens[0]?.proximosCiclos.map((x) => [x.cicloid, x.situacao]));
    const s = await situacoes();
    assert.deepEqual(
      [s.get(cicloid), s.get(c2.cicloid), s.get(c3.cicloid), s.get(c4.cicloid)],
      ['pausado', 'pausado', 'pausado', null],
    );
    // Generation inside each window honours it: no basket in any of the three.
    // In each window someone else's one-off order runs generation first (subscriptions go first).
    const ciclos = [
      [cicloid, '2026-03-07', cc0],
      [c2.cicloid, '2026-03-14', c2.cicloCestaId],
      [c3.cicloid, '2026-03-21', c3.cicloCestaId],
      [c4.cicloid, '2026-03-28', c4.cicloCestaId],
    ] as const;
    for (const [c, dia, cicloCestaId] of ciclos) {
      outroDia(`${dia}T15:00:00Z`);
      const avulso = await navegadorComSessao(amb, outra.email).postJson(url('/pedidoconsumidores'), {
        cicloid: c,
        pontoEntregaId: ponto,
        produtos: [{ cicloCestaId, quantidade: 1 }],
      });
      assert.equal(avulso.status, 201, avulso.texto);
      if (c === c4.cicloid) continue;
      const p = await hel.nav.getJson(url(`/pedidoconsumidores/${c}`));
      assert.equal(p.status, 200, p.texto.slice(0, 300));
      assert.equal(p.json<Envelope<{ pedidoId: number | null }>>().data.pedidoId, null);
    }
    const linhas = await amb.banco
      .selectFrom('assinaturaciclo')
      .select(['cicloid', 'situacao', 'pedidoId'])
      .where('assinaturaId', '=', a.id)
      .orderBy('cicloid')
      .execute();
    assert.deepEqual(
      linhas.map((l) => [l.cicloid, l.situacao]),
      [
        [cicloid, 'pausado'],
        [c2.cicloid, 'pausado'],
        [c3.cicloid, 'pausado'],
        [c4.cicloid, 'gerado'],
      ],
    );
    assert.equal(
      await amb.banco
        .selectFrom('pedidoproduto')
        .select('id')
        .where('assinaturaId', '=', a.id)
        .execute()
        .then((l) => l.length),
      1,
      'só o quarto ciclo teve a cesta',
    );
    // An overlapping pause is a 409; a reversed one a 400 on `fim`.
    assert.equal(
      (await hel.nav.postJson(url(`/assinaturas/${a.id}/pausas`), { inicio: '2026-03-20', fim: '2026-03-30' })).status,
      409,
    );
    const invertida = await hel.nav.postJson(url(`/assinaturas/${a.id}/pausas`), {
      inicio: '2026-04-10',
      fim: '2026-04-01',
    });
    assert.equal(invertida.status, 400);
    assert.ok(invertida.json<Envelope>().details?.fim !== undefined);
    // From the page's form: the page again, with the message on that subscription's pause form, opened.
    const invertidaNaPagina = await formulario(hel, `/assinaturas/${a.id}/pausas`, {
      inicio: '2026-04-10',
      fim: '2026-04-01',
    });
    assert.equal(invertidaNaPagina.status, 400);
    assert.match(
      invertidaNaPagina.texto,
      new RegExp(
        `<details open><summary>Pausar \\(férias, viagem\\)</summary>\\s*<form method="post" action="/assinaturas/${a.id}/pausas"`,
      ),
    );
    assert.match(invertidaNaPagina.texto, new RegExp(`id="p${a.id}-fim"[^>]*value="2026-04-01"`));
    const pausa = (await pagina(hel)).itens[0]?.pausas[0];
    assert.ok(pausa);
    const rem = await hel.nav.postJson(url(`/assinaturas/${a.id}/pausas/${pausa.id}/remover`), {});
    assert.equal(rem.status, 200);
    assert.deepEqual(rem.json<Envelope<AssinaturaJson>>().data.pausas, []);
  });

  test('fora da janela: 409 para quem assina; o admin pode, e fica na auditoria', async () => {
    relogio.definir(NO_PEDIDO);
    const { cestaId, cicloid } = await cicloCom(5);
    const ivo = await entrarComo(amb, ['consumidor'], 'Ivo');
    const a = (await ivo.nav.postJson(url('/assinaturas'), corpo(cestaId))).json<Envelope<AssinaturaJson>>().data;
    relogio.definir(DEPOIS);
    const html = await ivo.nav.get(url('/assinaturas'));
    assert.match(html.texto, /mudanças neste ciclo passam pela coordenação/);
    assert.doesNotMatch(html.texto, /Pular este ciclo/);
    const r = await ivo.nav.postJson(url(`/assinaturas/${a.id}/pular/${cicloid}`), {});
    assert.equal(r.status, 409);
    assert.match(r.json<Envelope>().error, /pedidos/i);
    const h = await formulario(ivo, `/assinaturas/${a.id}/pular/${cicloid}`, {});
    assert.equal(h.status, 409);
    assert.match(h.texto, /role="alert"/);
    const adm = await admin.nav.postJson(url(`/assinaturas/${a.id}/pular/${cicloid}`), {});
    assert.equal(adm.status, 200, adm.texto);
    assert.equal(adm.json<Envelope<{ situacao: string }>>().data.situacao, 'pulado');
    const auditoria = await amb.banco
      .selectFrom('auditoria')
      .select(['acao', 'usuarioid'])
      .where('entidade', '=', 'assinatura')
      .where('entidadeId', '=', String(a.id))
      .execute();
    assert.ok(
      auditoria.some((x) => x.acao === 'pular ciclo (fora da janela)' && x.usuarioid === admin.id),
      JSON.stringify(auditoria),
    );
  });

  test('a assinatura de outra pessoa não existe para quem não é admin (404), em toda rota; o admin age por ela', async () => {
    relogio.definir(NO_PEDIDO);
    const { cestaId, cicloid } = await cicloCom(5);
    const jo = await entrarComo(amb, ['consumidor'], 'Jô');
    const ze = await entrarComo(amb, ['consumidor'], 'Zé');
    const a = (await jo.nav.postJson(url('/assinaturas'), corpo(cestaId))).json<Envelope<AssinaturaJson>>().data;
    const antes = await amb.banco.selectFrom('assinaturaciclo').selectAll().where('assinaturaId', '=', a.id).execute();
    for (const [caminho, c] of [
      [`/assinaturas/${a.id}/pular/${cicloid}`, {}],
      [`/assinaturas/${a.id}/ciclo/${cicloid}`, { quantidade: 'x' }],
      [`/assinaturas/${a.id}/pausas`, { inicio: 'nada' }],
      [`/assinaturas/${a.id}/pausas/1/remover`, {}],
      ['/assinaturas', { id: a.id, quantidade: 'x' }],
    ] as const) {
      const r = await ze.nav.postJson(url(caminho), c);
      assert.equal(r.status, 404, `${caminho}: ${r.texto}`);
      assert.equal(r.json<Envelope>().error, 'Assinatura não encontrada');
      const h = await formulario(ze, caminho, Object.fromEntries(Object.entries(c).map(([k, v]) => [k, String(v)])));
      assert.equal(h.status, 404, caminho);
      assert.doesNotMatch(h.texto, /Jô/);
    }
    assert.deepEqual(
      await amb.banco.selectFrom('assinaturaciclo').selectAll().where('assinaturaId', '=', a.id).execute(),
      antes,
    );
    // Naming someone else in the page or the body: refused like orders.
    assert.equal((await ze.nav.getJson(url(`/assinaturas?usuarioid=${jo.id}`))).status, 403);
    assert.equal((await ze.nav.postJson(url('/assinaturas'), { ...corpo(cestaId), usuarioid: jo.id })).status, 403);
    // The admin sees and acts for her, naming her.
    const dela = (await admin.nav.getJson(url(`/assinaturas?usuarioid=${jo.id}`))).json<Envelope<Pagina>>().data;
    assert.deepEqual(
      dela.itens.map((x) => x.id),
      [a.id],
    );
    const html = await admin.nav.get(url(`/assinaturas?usuarioid=${jo.id}`));
    assert.match(html.texto, new RegExp(`name="usuarioid" value="${jo.id}"`));
    const mudou = await admin.nav.postJson(url('/assinaturas'), {
      ...corpo(cestaId, { quantidade: 2 }),
      id: a.id,
      usuarioid: jo.id,
    });
    assert.equal(mudou.status, 200, mudou.texto);
    assert.equal(mudou.json<Envelope<AssinaturaJson>>().data.quantidade, 2);
  });

  test('o painel de quem assina: "Sua cesta vem neste ciclo" com o botão de pular; depois de pular, diz que pulou', async () => {
    relogio.definir(NO_PEDIDO);
    const { cestaId, cicloid } = await cicloCom(5);
    const lia = await entrarComo(amb, ['consumidor'], 'Lia');
    const a = (await lia.nav.postJson(url('/assinaturas'), corpo(cestaId, { quantidade: 2 }))).json<
      Envelope<AssinaturaJson>
    >().data;
    const p = await lia.nav.get(url('/'));
    assert.match(
      p.texto,
      /Sua cesta vem neste ciclo: <strong>Cesta \w+ × 2<\/strong>, retirada em <strong>Feira da Praça<\/strong>\. Pular\?/,
    );
    assert.match(
      p.texto,
      new RegExp(
        `<form method="post" action="/assinaturas/${a.id}/pular/${cicloid}\\?de=painel"[^>]*>\\s*<input type="hidden" name="_csrf"`,
      ),
    );
    const j = (await lia.nav.getJson(url('/'))).json<
      Envelope<{ suaCesta: Array<{ assinaturaId: number; situacao: string | null; quantidade: number }> }>
    >().data;
    assert.deepEqual(
      j.suaCesta.map((x) => [x.assinaturaId, x.situacao, x.quantidade]),
      [[a.id, 'gerado', 2]],
    );
    const r = await formulario(lia, `/assinaturas/${a.id}/pular/${cicloid}?de=painel`, {});
    assert.equal(new URL(r.url).pathname, '/');
    assert.match(r.texto, /Você pulou a Cesta \w+ neste ciclo: ela não vem\./);
    assert.doesNotMatch(r.texto, /Sua cesta vem neste ciclo/);
    // Outside the window there is no card.
    relogio.definir(DEPOIS);
    assert.doesNotMatch((await lia.nav.get(url('/'))).texto, /Sua assinatura/);
  });

  test('a lista da coordenação: todas, os totais por cesta e por ponto, e quem faltou num ciclo e por quê', async () => {
    relogio.definir('2026-03-02T15:00:00Z');
    const { cestaId, cicloid, cicloCestaId } = await cicloCom(1);
    const m1 = await entrarComo(amb, ['consumidor'], 'Mara');
    const m2 = await entrarComo(amb, ['consumidor'], 'Nina');
    await m1.nav.postJson(url('/assinaturas'), corpo(cestaId));
    await m2.nav.postJson(url('/assinaturas'), corpo(cestaId, { frequencia: 'ciclo_sim_ciclo_nao' }));
    // The window opens: one basket, two subscribers; the second is short.
    relogio.definir(NO_PEDIDO);
    // The first one-off order of the cycle generates the subscriptions first: none is left for it.
    const m3 = await entrarComo(amb, ['consumidor'], 'Olga');
    const avulso = await m3.nav.postJson(url('/pedidoconsumidores'), {
      cicloid,
      pontoEntregaId: ponto,
      produtos: [{ cicloCestaId, quantidade: 1 }],
    });
    assert.equal(avulso.status, 409, avulso.texto);
    const r = await admin.nav.getJson(url(`/assinaturas/todas?cicloId=${cicloid}`));
    assert.equal(r.status, 200, r.texto);
    const d = r.json<
      Envelope<{
        itens: Array<{ consumidor: string; cestaId: number; frequencia: string }>;
        porPonto: Array<{ pontoEntregaId: number; cestas: number }>;
        faltas: Array<{ consumidor: string; motivo: string }>;
        ciclo: { id: number };
      }>
    >().data;
    assert.deepEqual(
      d.itens.filter((x) => x.cestaId === cestaId).map((x) => [x.consumidor, x.frequencia]),
      [
        ['Mara', 'cada_ciclo'],
        ['Nina', 'ciclo_sim_ciclo_nao'],
      ],
    );
    assert.ok((d.porPonto.find((x) => x.pontoEntregaId === ponto)?.cestas ?? 0) >= 2);
    assert.equal(d.ciclo.id, cicloid);
    assert.deepEqual(
      d.faltas.map((f) => f.consumidor),
      ['Nina'],
    );
    assert.match(d.faltas[0]?.motivo ?? '', /Não há cestas para todas/);
    const html = await admin.nav.get(url(`/assinaturas/todas?cicloId=${cicloid}`));
    assert.match(html.texto, /<strong>Nina<\/strong>: 1 × Cesta \w+ em Feira da Praça — Não há cestas para todas/);
    assert.match(html.texto, /Ciclo sim, ciclo não/);
    // The consumer may not see it; a missing cycle is a 404.
    assert.equal((await m1.nav.getJson(url('/assinaturas/todas'))).status, 403);
    assert.equal((await admin.nav.getJson(url('/assinaturas/todas?cicloId=999999'))).status, 404);
    assert.equal((await admin.nav.getJson(url('/assinaturas/todas?cicloId=abc'))).status, 400);
  });
});
