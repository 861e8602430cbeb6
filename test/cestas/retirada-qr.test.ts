/**
 * The receipt's pickup QR code (issue 38): both receipts (a confirmed order's and a subscription's)
 * carry the QR code of their order's signed address, as an image attached to the message (cid:)
 * with one sentence and a link; that address opens, with no login, that order only (first name,
 * items with units, point, day and time, picked up or not); a forged or stale token is a 404 in
 * Portuguese; the page is rate-limited per address. Read from the e-mails a real SMTP server caught.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { qrPngDoEndereco } from '../../src/domain/retirada/recibo.ts';
import { chaveDaRetirada, tokenDoPedido } from '../../src/domain/retirada/token.ts';
import { LIMITE_DO_QR } from '../../src/cestas/rotas/retirada.ts';
import { semSegredos } from '../../src/http/log.ts';
import { CaixaDeTeste, type Chegada } from '../helpers/correio.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarExtra, criarPonto, criarUsuario } from '../helpers/fabricas.ts';
import { Navegador } from '../helpers/navegador.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: string;
}

const NO_PEDIDO = '2026-03-07T15:00:00Z';

describe('o QR code do recibo e a página que ele abre', () => {
  let caixa: CaixaDeTeste;
  let amb: AmbienteDeTeste;
  let relogio: RelogioDeTeste;
  let admin: Pessoa;
  const anonimo = new Navegador();
  before(async () => {
    caixa = await CaixaDeTeste.iniciar();
    relogio = new RelogioDeTeste(NO_PEDIDO);
    amb = await iniciarAmbiente({ relogio, env: { SMTP_URL: caixa.url, AVISOS_INTERVALO_S: '3600' } });
    admin = await entrarComo(amb, ['admin'], 'Coordenação');
  });
  after(async () => {
    await amb.fechar();
    await caixa.fechar();
  });
  const chave = () => chaveDaRetirada(amb.config.sessionSecret);
  const enderecoDe = (pedidoId: number) => `${amb.url}/retirada/pedido/${tokenDoPedido(chave(), pedidoId)}`;

  /**
   * A composed basket cycle (1 kg of a product per basket) with an extra, a point with its day and
   * hours, and one order of two baskets and 1,5 kg of the extra, not confirmed yet.
   */
  async function cenario(nome = 'Rita Maria Recibo') {
    relogio.definir(NO_PEDIDO);
    const cesta = await criarCesta(amb.banco, { nome: `Cesta da Horta ${randomUUID().slice(0, 4)}` });
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
      compor: true,
    });
    const ponto = await criarPonto(amb.banco, `Galpão ${ciclo.id}`);
    await amb.banco
      .updateTable('pontoentrega')
      .set({ endereco: 'Rua das Hortas, 12', cidade: 'São Carlos' })
      .where('id', '=', ponto.id)
      .execute();
    const iso = new Date().toISOString();
    await amb.banco
      .insertInto('ciclopontoentrega')
      .values({
        cicloid: ciclo.id,
        pontoEntregaId: ponto.id,
        dataRetirada: '2026-03-11',
        horaInicio: '08:00',
        horaFim: '12:30',
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    const extra = await criarExtra(amb.banco, ciclo.id, { quantidadeMilesimos: 10_000, valorCentavos: 800 });
    const pessoa = await criarUsuario(amb.banco, { nome, perfil: ['consumidor'] });
    const pedido = await amb.banco
      .insertInto('pedido')
      .values({ cicloid: ciclo.id, usuarioid: pessoa.id, pontoEntregaId: ponto.id, createdAt: iso, updatedAt: iso })
      .returning('id')
      .executeTakeFirstOrThrow();
    await amb.banco
      .insertInto('pedidoproduto')
      .values([
        {
          pedidoid: pedido.id,
          cicloCestaId: ciclo.cicloCestas[0] ?? 0,
          quantidadeMilesimos: 2000,
          valorCentavos: 5000,
          createdAt: iso,
          updatedAt: iso,
        },
        {
          pedidoid: pedido.id,
          cicloProdutoId: extra.id,
          quantidadeMilesimos: 1500,
          valorCentavos: 800,
          createdAt: iso,
          updatedAt: iso,
        },
      ])
      .execute();
    const produto = await amb.banco
      .selectFrom('composicaoproduto as x')
      .innerJoin('ofertaproduto as op', 'op.id', 'x.ofertaProdutoId')
      .innerJoin('produto as p', 'p.id', 'op.produtoid')
      .innerJoin('composicao as c', 'c.id', 'x.composicaoid')
      .select('p.nome')
      .where('c.cicloCestaId', '=', ciclo.cicloCestas[0] ?? 0)
      .executeTakeFirstOrThrow();
    const extraNome = await amb.banco
      .selectFrom('cicloproduto as cp')
      .innerJoin('produto as p', 'p.id', 'cp.produtoId')
      .select('p.nome')
      .where('cp.id', '=', extra.id)
      .executeTakeFirstOrThrow();
    return {
      cicloid: ciclo.id,
      ponto: ponto.id,
      pessoa,
      pedidoId: pedido.id,
      cesta: cesta.nome,
      produto: produto.nome,
      extra: extraNome.nome,
    };
  }

  async function reciboDe(email: string, assunto: RegExp): Promise<Chegada> {
    await amb.servicos.correio.enviarPendentes();
    const m = caixa.para(email).find((x) => assunto.test(x.assunto));
    assert.ok(m, `o e-mail "${String(assunto)}" para ${email}`);
    return m;
  }

  /** The receipt carries the order's QR: one sentence and the address (text), the image attached inline and a link (HTML). */
  async function conferirQr(m: Chegada, pedidoId: number): Promise<void> {
    const endereco = enderecoDe(pedidoId);
    assert.ok(m.texto.includes(`Mostre este código na retirada (o QR code do seu pedido): ${endereco}\n`), m.texto);
    const imagens = m.anexos.filter((a) => a.tipo === 'image/png');
    assert.equal(imagens.length, 1, 'uma imagem só: o QR da retirada');
    const [qr] = imagens;
    assert.ok(qr?.embutido === true && qr.cid !== null, 'a imagem vai anexada ao e-mail e mostrada no corpo (cid:)');
    // It is the QR code of exactly this address (the same image the code makes for it).
    const esperado = Buffer.from(qrPngDoEndereco(endereco).split(',')[1] ?? '', 'base64');
    assert.ok(qr.conteudo.equals(esperado), 'o QR do endereço assinado do pedido');
    assert.ok(
      m.html.includes('<p style="margin:0 0 8px;font-size:16px;font-weight:bold">Mostre este código na retirada</p>'),
    );
    assert.match(
      m.html,
      /<img src="data:image\/png;base64,[^"]+" width="200" height="200" alt="QR code do seu pedido, para mostrar na retirada"/,
    );
    assert.ok(m.html.includes(`<a href="${endereco}" style="color:#1f5c2e">Abra o código no navegador</a>`));
    assert.doesNotMatch(m.html, /<svg/);
  }

  test('o recibo de um pedido confirmado traz o QR do pedido, e ele abre o pedido sem login', async () => {
    const c = await cenario();
    const r = await admin.nav.postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, { pedidoId: c.pedidoId });
    assert.equal(r.status, 200, r.texto);
    const recibo = await reciboDe(c.pessoa.email, /^Pedido confirmado: /);
    await conferirQr(recibo, c.pedidoId);

    const pagina = await anonimo.get(enderecoDe(c.pedidoId), { seguir: false });
    assert.equal(pagina.status, 200, pagina.texto);
    assert.equal(pagina.headers.get('cache-control'), 'no-store');
    assert.equal(pagina.headers.get('x-robots-tag'), 'noindex, nofollow');
    const t = pagina.texto;
    assert.ok(t.includes(`Olá, Rita! Este é o seu pedido nº ${c.pedidoId}`), 'o primeiro nome');
    assert.ok(!t.includes('Recibo'), 'e só ele: nem o sobrenome');
    assert.ok(!t.includes(c.pessoa.email), 'nem o e-mail');
    assert.ok(!t.includes('R$'), 'nem valores');
    assert.ok(t.includes(`<li><strong>2 × ${c.cesta}</strong><ul><li>2 kg de ${c.produto}</li></ul></li>`), t);
    assert.ok(t.includes(`<li><strong>1,5 kg de ${c.extra}</strong></li>`));
    assert.ok(
      t.includes(
        `<strong>Galpão ${c.cicloid}</strong><br>Rua das Hortas, 12, São Carlos<br>quarta-feira, 11/03/2026, das 08:00 às 12:30`,
      ),
    );
    assert.match(t, /<h2 id="t-qr">Mostre este código na retirada<\/h2>/);
    assert.match(
      t,
      new RegExp(`<div role="img" aria-label="QR code do pedido nº ${c.pedidoId}, para a retirada"><svg`),
    );
    assert.doesNotMatch(t, /não está confirmado/);
    assert.doesNotMatch(t, /Retirado em/);
    // The JSON says the same, in the contract's numbers.
    const json = await anonimo.getJson(enderecoDe(c.pedidoId));
    assert.equal(json.status, 200);
    assert.deepEqual(json.json<Envelope<{ itens: unknown }>>().data.itens, [
      {
        tipo: 'cesta',
        nome: c.cesta,
        unidade: 'cesta',
        quantidade: 2,
        conteudo: [{ nome: c.produto, unidade: 'kg', quantidade: 2 }],
      },
      { tipo: 'extra', nome: c.extra, unidade: 'kg', quantidade: 1.5, conteudo: [] },
    ]);
  });

  test('o lembrete da véspera da retirada traz o QR de novo', async () => {
    const c = await cenario('Lia Lembrada');
    const r = await admin.nav.postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, { pedidoId: c.pedidoId });
    assert.equal(r.status, 200, r.texto);
    // 10/03: pickup tomorrow.
    relogio.definir('2026-03-10T15:00:00Z');
    await amb.servicos.correio.lembrar();
    const lembrete = await reciboDe(c.pessoa.email, /^Amanhã é dia de retirar sua cesta: /);
    await conferirQr(lembrete, c.pedidoId);
  });

  test('a página diz quando o pedido foi retirado (o primeiro registro) e quando não está confirmado', async () => {
    const c = await cenario('Sônia Sem Confirmar');
    const semConfirmar = await anonimo.get(enderecoDe(c.pedidoId));
    assert.equal(semConfirmar.status, 200);
    assert.match(
      semConfirmar.texto,
      /<p class="alerta" role="alert"><strong>Este pedido não está confirmado:<\/strong> um pedido sem confirmação não é entregue nem cobrado\./,
    );
    const voluntaria = await criarUsuario(amb.banco, { nome: 'Vera Voluntária' });
    const iso = new Date().toISOString();
    const retirada = (feitoEm: string) => ({
      chave: randomUUID(),
      dispositivo: 'aparelho-de-teste',
      usuarioid: voluntaria.id,
      cicloid: c.cicloid,
      pontoEntregaId: c.ponto,
      pedidoid: c.pedidoId,
      tipo: 'retirada' as const,
      feitoEm,
      recebidoEm: iso,
    });
    // Two phones; the later one arrived first. The page says the earliest, in the community's zone.
    await amb.banco
      .insertInto('acaoretirada')
      .values([retirada('2026-03-11T13:40:00.000Z'), retirada('2026-03-11T11:05:00.000Z')])
      .execute();
    const retirado = await anonimo.get(enderecoDe(c.pedidoId));
    assert.match(retirado.texto, /<p class="aviso" role="status">Retirado em 11\/03\/2026 às 08:05\.<\/p>/);
    assert.ok(!retirado.texto.includes('Vera'), 'sem dizer quem registrou');
    const json = (await anonimo.getJson(enderecoDe(c.pedidoId))).json<
      Envelope<{ retiradoEm: string; finalizado: boolean }>
    >();
    assert.deepEqual([json.data.retiradoEm, json.data.finalizado], ['2026-03-11T11:05:00.000Z', false]);
  });

  test('um token forjado, malformado ou de um pedido que não existe mais: 404 em português, sem dizer qual', async () => {
    const c = await cenario('Fábio Forjado');
    const valido = tokenDoPedido(chave(), c.pedidoId);
    const [, assinatura = ''] = valido.split('.');
    const outro = await cenario('Olga Outra');
    const iso = new Date().toISOString();
    const apagado = await amb.banco
      .insertInto('pedido')
      .values({
        cicloid: outro.cicloid,
        usuarioid: c.pessoa.id,
        pontoEntregaId: outro.ponto,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const tokenApagado = tokenDoPedido(chave(), apagado.id);
    await amb.banco.deleteFrom('pedido').where('id', '=', apagado.id).execute();
    const trocada = assinatura.startsWith('A') ? `B${assinatura.slice(1)}` : `A${assinatura.slice(1)}`;
    const forjados = [
      `${outro.pedidoId}.${assinatura}`,
      `${c.pedidoId}.${trocada}`,
      `${c.pedidoId}`,
      `${c.pedidoId}.${assinatura}x`,
      'qualquer-coisa',
      tokenApagado,
      // Signed with another key (another community's secret).
      tokenDoPedido(chaveDaRetirada('outro segredo qualquer de 32 caracteres!'), c.pedidoId),
    ];
    const mensagem =
      'Este código de retirada não é válido: use o QR code ou o link do recibo do seu pedido, por e-mail';
    for (const token of forjados) {
      const html = await anonimo.get(`${amb.url}/retirada/pedido/${encodeURIComponent(token)}`);
      assert.equal(html.status, 404, token);
      assert.ok(html.texto.includes(mensagem), token);
      assert.ok(!html.texto.includes('Fábio') && !html.texto.includes('Olga'), token);
      const json = await anonimo.getJson(`${amb.url}/retirada/pedido/${encodeURIComponent(token)}`);
      assert.equal(json.status, 404);
      assert.deepEqual(json.json(), { success: false, error: mensagem });
    }
    assert.equal((await anonimo.get(enderecoDe(c.pedidoId))).status, 200, 'o verdadeiro abre');
    // The token opens the order by itself: the request log never keeps it.
    assert.equal(semSegredos(`/retirada/pedido/${valido}?x=1`), '/retirada/pedido/[oculto]?x=1');
  });

  test('o recibo da assinatura, ao fechar os pedidos, também traz o QR do pedido', async () => {
    relogio.definir('2026-03-06T15:00:00Z');
    const cesta = await criarCesta(amb.banco, { valorCentavos: 4000 });
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
      compor: true,
    });
    const ponto = (await criarPonto(amb.banco)).id;
    const assinante = await entrarComo(amb, ['consumidor'], 'Ana Assinante');
    const r = await assinante.nav.postJson(`${amb.url}/assinaturas`, {
      cestaId: cesta.id,
      quantidade: 1,
      pontoEntregaId: ponto,
      frequencia: 'cada_ciclo',
      inicio: '2026-03-01',
      fim: '2026-03-31',
    });
    assert.equal(r.status, 201, r.texto);
    const pedido = await amb.banco
      .selectFrom('pedido')
      .select('id')
      .where('cicloid', '=', ciclo.id)
      .where('usuarioid', '=', assinante.id ?? 0)
      .executeTakeFirstOrThrow();
    relogio.definir('2026-03-10T15:00:00Z');
    await amb.servicos.correio.lembrar();
    const recibo = await reciboDe(assinante.email, /^Recibo da sua assinatura: /);
    await conferirQr(recibo, pedido.id);
    const pagina = await anonimo.get(enderecoDe(pedido.id));
    assert.equal(pagina.status, 200);
    assert.ok(pagina.texto.includes(`Olá, Ana! Este é o seu pedido nº ${pedido.id}`));
  });
});

describe('o limite de consultas da página do QR', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste(NO_PEDIDO) });
  });
  after(() => amb.fechar());

  test(`${LIMITE_DO_QR.consultas} consultas por endereço em 15 minutos, válidas ou não; depois 429 com Retry-After, até a janela passar`, async () => {
    const nav = new Navegador();
    const pedido = await amb.banco
      .insertInto('pedido')
      .values({
        cicloid: (await criarCiclo(amb.banco)).id,
        usuarioid: (await criarUsuario(amb.banco)).id,
        pontoEntregaId: (await criarPonto(amb.banco)).id,
        createdAt: 'x',
        updatedAt: 'x',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const valido = `${amb.url}/retirada/pedido/${tokenDoPedido(chaveDaRetirada(amb.config.sessionSecret), pedido.id)}`;
    for (let i = 0; i < LIMITE_DO_QR.consultas; i++) {
      const r = await nav.get(i % 2 === 0 ? valido : `${amb.url}/retirada/pedido/1.tentativa${i}`);
      assert.equal(r.status, i % 2 === 0 ? 200 : 404, `consulta ${i + 1}`);
    }
    const barrada = await nav.get(valido);
    assert.equal(barrada.status, 429);
    assert.ok(barrada.texto.includes('Muitas consultas deste endereço. Tente de novo em alguns minutos.'));
    const espera = Number(barrada.headers.get('retry-after'));
    assert.ok(espera > 0 && espera <= 15 * 60, String(espera));
    const json = await nav.getJson(valido);
    assert.deepEqual(
      [json.status, json.json()],
      [429, { success: false, error: 'Muitas consultas deste endereço. Tente de novo em alguns minutos.' }],
    );
    amb.relogio.avancar(LIMITE_DO_QR.janelaMs);
    assert.equal((await nav.get(valido)).status, 200, 'passada a janela, volta a abrir');
  });
});
