import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Ator } from '../../src/domain/acesso.ts';
import type { OpcoesAssinatura } from '../../src/domain/assinaturas/modelo.ts';
import { gerarPedidosDoCiclo } from '../../src/domain/assinaturas/geracao.ts';
import { salvarAssinatura } from '../../src/domain/assinaturas/escrita.ts';
import { pularCiclo } from '../../src/domain/assinaturas/no-ciclo.ts';
import type { Correio } from '../../src/mensagens/correio/correio.ts';
import { CaixaDeTeste } from '../helpers/correio.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto } from '../helpers/fabricas.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

/**
 * The subscriber's reminder (issue 23): when a cycle's order window opens, whoever's subscription
 * basket comes in it is told so, with the way to skip it (/assinaturas); not someone who skipped
 * the cycle, nor someone without a subscription, nor someone who turned the reminder off. Read
 * from the e-mails a real SMTP server caught.
 */
describe('avisos de assinatura', () => {
  let caixa: CaixaDeTeste;
  let amb: AmbienteDeTeste;
  let relogio: RelogioDeTeste;
  before(async () => {
    caixa = await CaixaDeTeste.iniciar();
    // 02/03: before the default cycle's order window (06–09/03).
    relogio = new RelogioDeTeste('2026-03-02T15:00:00Z');
    amb = await iniciarAmbiente({ relogio, env: { SMTP_URL: caixa.url, AVISOS_INTERVALO_S: '3600' } });
  });
  after(async () => {
    await amb.fechar();
    await caixa.fechar();
  });
  function correio(): Correio {
    const c = amb.servicos.correio;
    assert.ok(c);
    return c;
  }

  test('ao abrir a janela de pedidos, quem tem cesta de assinatura no ciclo recebe o lembrete para pular', async () => {
    const cesta = await criarCesta(amb.banco);
    const c = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
      compor: true,
    });
    const nome = (await amb.banco.selectFrom('ciclo').select('nome').where('id', '=', c.id).executeTakeFirstOrThrow())
      .nome;
    const ponto = (await criarPonto(amb.banco)).id;
    const admin = await entrarComo(amb, ['admin'], 'Coordenação');
    const vem = await entrarComo(amb, ['consumidor'], 'Ana Assinante');
    const pulou = await entrarComo(amb, ['consumidor'], 'Beto Pulou');
    const semAssinatura = await entrarComo(amb, ['consumidor'], 'Caio Avulso');
    const desligou = await entrarComo(amb, ['consumidor'], 'Dani Desligou');
    // Dani keeps only the opening of orders.
    const r = await desligou.nav.postJson(`${amb.url}/profile/avisos`, { avisos: ['pedido_aberto'] });
    assert.equal(r.status, 200, r.texto);

    const opcoes: OpcoesAssinatura = {
      agora: relogio.agora(),
      hoje: '2026-03-02',
      taxa: amb.config.taxa,
      tz: amb.config.tz,
    };
    const ator = (p: Pessoa, nomeDe: string): Ator => ({
      email: p.email,
      nome: nomeDe,
      usuarioid: p.id,
      perfil: ['consumidor'],
      ativo: true,
    });
    const assinar = (p: Pessoa, n: string) =>
      salvarAssinatura(
        amb.banco,
        ator(p, n),
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
        opcoes,
      );
    await assinar(vem, 'Ana Assinante');
    const doBeto = await assinar(pulou, 'Beto Pulou');
    await assinar(desligou, 'Dani Desligou');
    // Beto skips the cycle ahead of time (through the coordination, before the window opens).
    const coordenacao: Ator = {
      email: admin.email,
      nome: 'Coordenação',
      usuarioid: admin.id,
      perfil: ['admin'],
      ativo: true,
    };
    await pularCiclo(amb.banco, coordenacao, doBeto.id, c.id, opcoes);

    const assunto = `Sua cesta vem no ${nome}`;
    const destinatarios = () =>
      caixa.chegadas
        .filter((m) => m.assunto === assunto)
        .map((m) => m.para)
        .sort();
    // Before the window: nothing.
    await correio().lembrar();
    await correio().enviarPendentes();
    assert.deepEqual(destinatarios(), []);

    // 06/03, the window opens: Ana only, once.
    relogio.definir('2026-03-06T15:00:00Z');
    await correio().lembrar();
    await correio().enviarPendentes();
    await correio().lembrar();
    await correio().enviarPendentes();
    assert.deepEqual(destinatarios(), [vem.email]);
    assert.ok(![pulou.email, semAssinatura.email, desligou.email].some((e) => destinatarios().includes(e)));
    const m = caixa.chegadas.find((x) => x.assunto === assunto);
    assert.ok(m);
    assert.match(m.texto, /Olá, Ana!/);
    assert.match(m.texto, /Sua cesta vem neste ciclo; quer pular\?/);
    assert.match(m.texto, /pule este ciclo até 09\/03\/2026/);
    assert.match(m.texto, new RegExp(`${amb.url.replace(/[.]/g, '\\.')}/assinaturas`));
    // An optional reminder: its e-mail carries the way to turn it off.
    assert.match(m.cabecalhos.get('list-unsubscribe') ?? '', /\/avisos\/sair\/\d+\.assinatura_ciclo\./);
  });

  test('a cesta que falta: quem assina e a coordenação sabem, uma vez, com o motivo', async () => {
    relogio.definir('2026-03-02T15:00:00Z');
    // One basket for two subscribers: the first served, the second short.
    const cesta = await criarCesta(amb.banco);
    const c = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 1 }],
      compor: true,
    });
    const nome = (await amb.banco.selectFrom('ciclo').select('nome').where('id', '=', c.id).executeTakeFirstOrThrow())
      .nome;
    const ponto = (await criarPonto(amb.banco)).id;
    const coordenadora = await entrarComo(amb, ['admin'], 'Olga Coordenadora');
    const primeira = await entrarComo(amb, ['consumidor'], 'Rita Primeira');
    const segunda = await entrarComo(amb, ['consumidor'], 'Sara Segunda');
    const opcoes: OpcoesAssinatura = {
      agora: relogio.agora(),
      hoje: '2026-03-02',
      taxa: amb.config.taxa,
      tz: amb.config.tz,
    };
    for (const [p, n] of [
      [primeira, 'Rita Primeira'],
      [segunda, 'Sara Segunda'],
    ] as const) {
      await salvarAssinatura(
        amb.banco,
        { email: p.email, nome: n, usuarioid: p.id, perfil: ['consumidor'], ativo: true },
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
        opcoes,
      );
    }
    relogio.definir('2026-03-06T15:00:00Z');
    const resumo = await gerarPedidosDoCiclo(amb.banco, c.id, {
      ...opcoes,
      agora: relogio.agora(),
      hoje: '2026-03-06',
    });
    assert.deepEqual([resumo.gerados, resumo.faltaram.map((f) => f.consumidor)], [1, ['Sara Segunda']]);
    await correio().lembrar();
    await correio().enviarPendentes();
    assert.equal(await correio().lembrar(), 0, 'uma vez por ciclo');

    const paraSara = caixa.para(segunda.email).filter((m) => m.assunto === `Sua cesta de assinatura faltou no ${nome}`);
    assert.equal(paraSara.length, 1);
    assert.match(
      paraSara[0]?.texto ?? '',
      new RegExp(`Não foi possível servir 1 × ${cesta.nome} da sua assinatura no ${nome}: `),
    );
    // Not an optional reminder: no way to turn it off.
    assert.equal(paraSara[0]?.cabecalhos.get('list-unsubscribe'), undefined);
    assert.deepEqual(
      caixa.para(primeira.email).filter((m) => m.assunto.includes('faltou')),
      [],
    );
    const paraCoordenacao = caixa
      .para(coordenadora.email)
      .filter((m) => m.assunto === `Assinaturas sem cesta no ${nome}`);
    assert.equal(paraCoordenacao.length, 1);
    assert.match(paraCoordenacao[0]?.texto ?? '', /Uma assinatura não pôde ser servida/);
    assert.match(
      paraCoordenacao[0]?.texto ?? '',
      new RegExp(`- Sara Segunda · 1 × ${cesta.nome} · Não há cestas para todas`),
    );
  });
});

/**
 * The subscriber's receipt when the order window closes (issue 23): each subscriber served in the
 * cycle gets, once, the final order (with what changed in the window), where and when to pick it
 * up, and how it is paid: from the season paid in advance (and what is left of it), or by Pix.
 * A subscriber who skipped the cycle gets none.
 */
describe('recibo da assinatura quando fecham os pedidos', () => {
  let caixa: CaixaDeTeste;
  let amb: AmbienteDeTeste;
  let relogio: RelogioDeTeste;
  before(async () => {
    caixa = await CaixaDeTeste.iniciar();
    relogio = new RelogioDeTeste('2026-03-02T15:00:00Z');
    // A fixed fee of R$ 1,00 per order, and a Pix receiver.
    amb = await iniciarAmbiente({
      relogio,
      env: {
        SMTP_URL: caixa.url,
        AVISOS_INTERVALO_S: '3600',
        TAXA_PEDIDO_PERCENTUAL: '0',
        TAXA_PEDIDO_FIXA: '1',
        PIX_CHAVE: 'financeiro@cestas.org',
        PIX_NOME: 'Associação Raízes',
        PIX_CIDADE: 'São Carlos',
      },
    });
  });
  after(async () => {
    await amb.fechar();
    await caixa.fechar();
  });

  test('uma vez por ciclo e pessoa: o pedido final, a retirada e o pagamento (crédito da temporada ou Pix); quem pulou não recebe', async () => {
    const c = amb.servicos.correio;
    assert.ok(c);
    // 06/03: the order window is open; each subscription is served at once.
    relogio.definir('2026-03-06T15:00:00Z');
    const cesta = await criarCesta(amb.banco, { valorCentavos: 4000 });
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
      compor: true,
    });
    const nome = (
      await amb.banco.selectFrom('ciclo').select('nome').where('id', '=', ciclo.id).executeTakeFirstOrThrow()
    ).nome;
    const pontoNome = `Galpão da Feira ${cesta.id}`;
    const ponto = (await criarPonto(amb.banco, pontoNome)).id;
    await amb.banco
      .updateTable('pontoentrega')
      .set({ endereco: 'Rua das Hortas, 12', cidade: 'São Carlos' })
      .where('id', '=', ponto)
      .execute();
    const pessoas = {
      ana: await entrarComo(amb, ['consumidor'], 'Ana Adiantada'),
      beto: await entrarComo(amb, ['consumidor'], 'Beto Pix'),
      caio: await entrarComo(amb, ['consumidor'], 'Caio Pulou'),
    };
    const assinaturas: Record<string, number> = {};
    for (const [k, p] of Object.entries(pessoas)) {
      const r = await p.nav.postJson(`${amb.url}/assinaturas`, {
        cestaId: cesta.id,
        quantidade: 1,
        pontoEntregaId: ponto,
        frequencia: 'cada_ciclo',
        inicio: '2026-03-01',
        fim: '2026-03-31',
      });
      assert.equal(r.status, 201, r.texto);
      assinaturas[k] = r.json<{ data: { id: number } }>().data.id;
    }
    const gerados = await amb.banco
      .selectFrom('assinaturaciclo')
      .select(['assinaturaId', 'situacao'])
      .where('cicloid', '=', ciclo.id)
      .orderBy('assinaturaId')
      .execute();
    assert.deepEqual(
      gerados,
      Object.values(assinaturas).map((id) => ({ assinaturaId: id, situacao: 'gerado' })),
    );
    // Ana paid the season in advance: R$ 120,00.
    const admin = await entrarComo(amb, ['admin'], 'Coordenação');
    const pago = await admin.nav.postJson(`${amb.url}/assinaturas/${assinaturas.ana}/pagamento`, { valor: '120.00' });
    assert.equal(pago.status, 201, pago.texto);

    // Inside the window: Ana takes two baskets this cycle, Caio skips it.
    const dobro = await pessoas.ana.nav.postJson(`${amb.url}/assinaturas/${assinaturas.ana}/ciclo/${ciclo.id}`, {
      quantidade: 2,
      pontoEntregaId: ponto,
    });
    assert.equal(dobro.status, 200, dobro.texto);
    const pulo = await pessoas.caio.nav.postJson(`${amb.url}/assinaturas/${assinaturas.caio}/pular/${ciclo.id}`, {});
    assert.equal(pulo.status, 200, pulo.texto);

    const assunto = `Recibo da sua assinatura: ${nome}`;
    const recibos = () => caixa.chegadas.filter((m) => m.assunto === assunto);
    // 09/03, the window's last day: not yet.
    relogio.definir('2026-03-09T15:00:00Z');
    await c.lembrar();
    await c.enviarPendentes();
    assert.deepEqual(recibos(), []);

    // 10/03: the window is over. One receipt each for Ana and Beto; a second run writes nothing.
    relogio.definir('2026-03-10T15:00:00Z');
    await c.lembrar();
    await c.enviarPendentes();
    assert.equal(await c.lembrar(), 0, 'uma vez por ciclo e pessoa');
    await c.enviarPendentes();
    assert.deepEqual(
      recibos()
        .map((m) => m.para)
        .sort(),
      [pessoas.ana.email, pessoas.beto.email].sort(),
    );
    const escritas = await amb.banco
      .selectFrom('mensagem')
      .select(['chave', 'usuarioid'])
      .where('tipo', '=', 'assinatura_recibo')
      .where('cicloid', '=', ciclo.id)
      .orderBy('usuarioid')
      .execute();
    assert.deepEqual(
      escritas.map((m) => m.chave),
      [pessoas.ana.id, pessoas.beto.id]
        .sort((x, y) => (x ?? 0) - (y ?? 0))
        .map((u) => `assinatura_recibo:${ciclo.id}:${u}`),
    );

    // Ana: the final order (2 × R$ 40,00 + R$ 1,00 fee = R$ 81,00), paid from her R$ 120,00: R$ 39,00 left.
    const paraAna = recibos().find((m) => m.para === pessoas.ana.email);
    assert.ok(paraAna);
    const url = amb.url.replace(/[.]/g, '\\.');
    assert.match(paraAna.texto, /Olá, Ana!/);
    assert.match(
      paraAna.texto,
      new RegExp(`Os pedidos do ${nome} fecharam em 09/03/2026\\. Este é o recibo do seu pedido final`),
    );
    assert.match(paraAna.texto, new RegExp(`- ${cesta.nome} · 2 × R\\$\\s40,00 · R\\$\\s80,00`));
    assert.match(paraAna.texto, /- Taxa administrativa · R\$\s1,00/);
    assert.match(paraAna.texto, /- Total do pedido · R\$\s81,00/);
    assert.match(paraAna.texto, new RegExp(`Retirada em ${pontoNome} — Rua das Hortas, 12, São Carlos`));
    assert.match(
      paraAna.texto,
      /seu crédito pago adiantado cobre este pedido \(R\$\s81,00\)\. Depois dele, restam R\$\s39,00 de crédito\./,
    );
    assert.doesNotMatch(paraAna.texto, /Pix copia e cola/);
    const pedidoAna = await amb.banco
      .selectFrom('pedido')
      .select('id')
      .where('cicloid', '=', ciclo.id)
      .where('usuarioid', '=', pessoas.ana.id ?? 0)
      .executeTakeFirstOrThrow();
    assert.match(paraAna.texto, new RegExp(`Ver meu pedido: ${url}/pedidoconsumidoresconfirmacao/${pedidoAna.id}`));
    // A receipt: it cannot be turned off.
    assert.equal(paraAna.cabecalhos.get('list-unsubscribe'), undefined);

    // Beto, with no credit: R$ 41,00 by Pix.
    const paraBeto = recibos().find((m) => m.para === pessoas.beto.email);
    assert.ok(paraBeto);
    assert.match(paraBeto.texto, /- Total do pedido · R\$\s41,00/);
    assert.match(paraBeto.texto, /Pagamento: falta pagar R\$\s41,00, por Pix, como abaixo\./);
    assert.match(paraBeto.texto, /Total a pagar: R\$\s41,00/);
    assert.match(paraBeto.texto, /Pix copia e cola[^\n]*\n000201/);

    // Caio skipped: no receipt (nor a message of that kind written for him).
    assert.deepEqual(
      caixa.para(pessoas.caio.email).filter((m) => m.assunto === assunto),
      [],
    );
  });
});
