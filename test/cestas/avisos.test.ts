import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Banco } from '../../src/db/banco.ts';
import { urlDoBanco } from '../helpers/banco.ts';
import { RAIZ } from '../helpers/processos.ts';
import { finalizarPedido } from '../../src/domain/pedidos/finalizar.ts';
import type { Correio } from '../../src/mensagens/correio/correio.ts';
import { TENTATIVAS } from '../../src/mensagens/correio/remetente.ts';
import { CaixaDeTeste, type Chegada } from '../helpers/correio.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto, criarUsuario } from '../helpers/fabricas.ts';
import { Navegador, tokenCsrf } from '../helpers/navegador.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: string;
  details?: Record<string, unknown>;
}

interface PedidoJson {
  pedidoId: number;
  totalCentavos?: number;
}

/** Noon in São Paulo on a day of March 2026 (DATAS_PADRAO: offers 1–4, orders 6–9, pickup 11–12). */
const dia = (d: string) => `2026-03-${d}T15:00:00Z`;

describe('avisos por e-mail', () => {
  let caixa: CaixaDeTeste;
  let amb: AmbienteDeTeste;
  let relogio: RelogioDeTeste;
  let admin: Pessoa;
  before(async () => {
    caixa = await CaixaDeTeste.iniciar();
    relogio = new RelogioDeTeste(dia('01'));
    amb = await iniciarAmbiente({
      relogio,
      env: {
        SMTP_URL: caixa.url,
        EMAIL_REMETENTE: 'Comunidade <avisos@comunidade.org>',
        AVISOS_INTERVALO_S: '3600',
        TAXA_PEDIDO_PERCENTUAL: '10',
      },
    });
    admin = await entrarComo(amb, ['admin']);
  });
  after(async () => {
    await amb.fechar();
    await caixa.fechar();
  });
  const url = (p: string) => `${amb.url}${p}`;
  function correio(): Correio {
    const c = amb.servicos.correio;
    assert.ok(c);
    return c;
  }
  /** Writes what is due today and sends the queue; returns how many reminders were written. */
  async function rodada(): Promise<number> {
    const n = await correio().lembrar();
    await correio().enviarPendentes();
    return n;
  }
  const assuntos = (email: string) => caixa.para(email).map((c) => c.assunto);

  /** A cycle with one composed basket (R$ 50,00, 1 kg of the compositor's line at R$ 1,00 per basket) served at one point on 11/03. */
  async function cenario() {
    relogio.definir(dia('01'));
    const cesta = await criarCesta(amb.banco);
    const c = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
      compor: true,
    });
    const ponto = await criarPonto(amb.banco, `Sede ${c.id}`);
    await amb.banco
      .updateTable('pontoentrega')
      .set({ endereco: 'Rua das Flores, 12', cidade: 'Viçosa' })
      .where('id', '=', ponto.id)
      .execute();
    const salvo = await admin.nav.postJson(url(`/ciclo/${c.id}`), {
      nome: `Ciclo ${c.id}`,
      ...DATAS_PADRAO,
      cicloPontos: [{ pontoEntregaId: ponto.id, dataRetirada: '2026-03-11', horaInicio: '08:00', horaFim: '12:00' }],
    });
    assert.equal(salvo.status, 200, salvo.texto);
    const compositor = await amb.banco
      .selectFrom('usuario')
      .select(['id', 'email'])
      .where('id', '=', c.compositor ?? 0)
      .executeTakeFirstOrThrow();
    return {
      cicloid: c.id,
      nome: `Ciclo ${c.id}`,
      cicloCestaId: c.cicloCestas[0] ?? 0,
      cesta: cesta.nome,
      ponto: ponto.id,
      compositor: compositor.email,
    };
  }

  test('cada aviso do calendário chega a quem deve, só a quem deve, uma vez, com os números do ciclo', async () => {
    const c = await cenario();
    const fornSemOferta = await entrarComo(amb, ['fornecedor'], 'Ana Fornecedora');
    const fornRascunho = await entrarComo(amb, ['fornecedor'], 'Bento Rascunho');
    const consSemPedido = await entrarComo(amb, ['consumidor'], 'Carla Sem Pedido');
    const consSalvo = await entrarComo(amb, ['consumidor'], 'Davi Salvou');
    const consConfirmado = await entrarComo(amb, ['consumidor'], 'Elisa Confirmou');
    const info = await entrarComo(amb, ['info'], 'Ivo Info');
    const inativo = await criarUsuario(amb.banco, { perfil: ['fornecedor', 'consumidor'], ativo: false });
    const desligou = await entrarComo(amb, ['consumidor'], 'Fabio Desligou');
    // Fabio keeps only the opening of orders: the last-day reminder, which he would get (no order), does not reach him.
    const r = await desligou.nav.postJson(url('/profile/avisos'), { avisos: ['pedido_aberto'] });
    assert.equal(r.status, 200, r.texto);
    const doCiclo = (chegadas: readonly Chegada[]) => chegadas.filter((m) => m.assunto.includes(c.nome));
    const destinatarios = (assunto: string) =>
      doCiclo(caixa.chegadas)
        .filter((m) => m.assunto === assunto)
        .map((m) => m.para)
        .sort();

    // 01/03, offers open: every active supplier, once, even when the tick runs twice.
    await rodada();
    assert.equal(await correio().lembrar(), 0, 'a segunda rodada do dia não escreve nada');
    await correio().enviarPendentes();
    assert.deepEqual(
      destinatarios(`Ofertas abertas: ${c.nome}`),
      [c.compositor, fornSemOferta.email, fornRascunho.email].sort(),
    );
    const aberta = caixa.para(fornSemOferta.email).find((m) => m.assunto === `Ofertas abertas: ${c.nome}`);
    assert.ok(aberta);
    assert.match(aberta.texto, /^Olá, Ana!/);
    assert.match(aberta.texto, /O período de ofertas do Ciclo \d+ está aberto até 04\/03\/2026\./);
    assert.ok(aberta.texto.includes(`Registrar minha oferta: ${amb.url}/oferta/${c.cicloid}`));
    assert.equal(aberta.de, 'Comunidade <avisos@comunidade.org>');
    assert.match(aberta.html, new RegExp(`href="${amb.url}/oferta/${c.cicloid}"`));

    // Bento saves a draft.
    const produto = await amb.banco.selectFrom('produto').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow();
    const rascunho = await fornRascunho.nav.postJson(url('/oferta'), {
      cicloid: c.cicloid,
      ofertaProdutos: [{ produtoId: produto.id, quantidade: 5, valor: 3 }],
    });
    assert.ok(rascunho.status < 300, rascunho.texto);

    // 04/03, the offers' last day: the supplier with no offer and the one with a draft; not the one who finalised.
    relogio.definir(dia('04'));
    await rodada();
    assert.deepEqual(
      destinatarios(`Último dia para ofertar: ${c.nome}`),
      [fornSemOferta.email, fornRascunho.email].sort(),
    );
    assert.match(
      caixa.para(fornRascunho.email).find((m) => m.assunto.startsWith('Último dia'))?.texto ?? '',
      /Sua oferta no Ciclo \d+ ainda é um rascunho\. As ofertas fecham hoje, 04\/03\/2026/,
    );
    assert.match(
      caixa.para(fornSemOferta.email).find((m) => m.assunto.startsWith('Último dia'))?.texto ?? '',
      /e ainda não há oferta sua\./,
    );

    // 06/03, orders open: every active consumer without an order, except the one who turned it off.
    relogio.definir(dia('06'));
    await rodada();
    assert.deepEqual(
      destinatarios(`Pedidos abertos: ${c.nome}`),
      [consSemPedido.email, consSalvo.email, consConfirmado.email, desligou.email].sort(),
    );
    // Davi saves an order; Elisa saves and confirms (her receipt is the next test's subject).
    for (const p of [consSalvo, consConfirmado]) {
      const salvo = await p.nav.postJson(url('/pedidoconsumidores'), {
        cicloid: c.cicloid,
        pontoEntregaId: c.ponto,
        produtos: [{ cicloCestaId: c.cicloCestaId, quantidade: 2 }],
      });
      assert.equal(salvo.status, 201, salvo.texto);
      if (p === consConfirmado) {
        const { pedidoId } = salvo.json<Envelope<PedidoJson>>().data;
        assert.equal((await p.nav.postJson(url('/pedidoconsumidoresconfirmacao'), { pedidoId })).status, 200);
      }
    }

    // 09/03, the orders' last day: the one with no order and the one not confirmed.
    relogio.definir(dia('09'));
    await rodada();
    assert.deepEqual(destinatarios(`Último dia para pedir: ${c.nome}`), [consSemPedido.email, consSalvo.email].sort());
    const lembrete = caixa.para(consSalvo.email).find((m) => m.assunto.startsWith('Último dia'));
    assert.match(
      lembrete?.texto ?? '',
      /Seu pedido no Ciclo \d+ está salvo, mas não confirmado\. Os pedidos fecham hoje, 09\/03\/2026/,
    );
    assert.match(lembrete?.texto ?? '', /Confirmar meu pedido: http:\/\/[^/]+\/pedidoconsumidoresconfirmacao\/\d+/);

    // 10/03, orders closed, pickup tomorrow at the point: what to deliver to the supplier whose line the
    // two confirmed baskets use (the unconfirmed order counts nothing), and the pickup to Elisa only.
    relogio.definir(dia('10'));
    const iso = new Date().toISOString();
    await amb.banco
      .insertInto('cicloentrega')
      .values({
        cicloid: c.cicloid,
        dataEntrega: '2026-03-10',
        observacao: ' entregar na Sede até 17h ',
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    await rodada();
    assert.deepEqual(destinatarios(`O que entregar: ${c.nome}`), [c.compositor]);
    const entregas = caixa.para(c.compositor).find((m) => m.assunto.startsWith('O que entregar'));
    assert.ok(entregas);
    assert.match(entregas.texto, /Quando e onde entregar: terça-feira, 10\/03\/2026: entregar na Sede até 17h\.\n/);
    assert.match(entregas.texto, /- Produto \d+ [0-9a-f]{4} · 2 kg · R\$\s2,00\n- Total · R\$\s2,00/);
    assert.ok(entregas.texto.includes(`Ver minhas entregas: ${amb.url}/pedidosfornecedorestodos/${c.cicloid}`));
    assert.deepEqual(destinatarios(`Amanhã é dia de retirar sua cesta: ${c.nome}`), [consConfirmado.email]);
    const retirada = caixa.para(consConfirmado.email).find((m) => m.assunto.startsWith('Amanhã'));
    assert.match(
      retirada?.texto ?? '',
      /Retirada em Sede \d+ — Rua das Flores, 12, Viçosa, quarta-feira, 11\/03\/2026, das 08:00 às 12:00\./,
    );

    // Nobody else heard of this cycle, and nobody heard anything twice.
    for (const p of [info.email, inativo.email]) assert.deepEqual(doCiclo(caixa.para(p)), [], p);
    assert.deepEqual(
      assuntos(desligou.email).filter((a) => a.includes(c.nome)),
      [`Pedidos abertos: ${c.nome}`],
    );
    const todas = doCiclo(caixa.chegadas).map((m) => `${m.para} ${m.assunto}`);
    assert.equal(new Set(todas).size, todas.length, 'nenhum e-mail repetido');
    // Optional kinds carry the one-click unsubscribe headers (RFC 8058).
    assert.equal(aberta.cabecalhos.get('list-unsubscribe-post'), 'List-Unsubscribe=One-Click');
    assert.match(
      aberta.cabecalhos.get('list-unsubscribe') ?? '',
      new RegExp(`^<${amb.url}/avisos/sair/${fornSemOferta.id}\\.oferta_aberta\\.[A-Za-z0-9_-]{43}>$`),
    );
  });

  test('o recibo do pedido confirmado tem linhas, preços, taxa, total e onde retirar; alterar depois avisa que falta confirmar', async () => {
    const c = await cenario();
    relogio.definir(dia('07'));
    const consumidora = await entrarComo(amb, ['consumidor'], 'Gabi Recibo');
    const outra = await entrarComo(amb, ['consumidor'], 'Helena Outra');
    const salvo = await consumidora.nav.postJson(url('/pedidoconsumidores'), {
      cicloid: c.cicloid,
      pontoEntregaId: c.ponto,
      produtos: [{ cicloCestaId: c.cicloCestaId, quantidade: 2 }],
    });
    assert.equal(salvo.status, 201, salvo.texto);
    const { pedidoId } = salvo.json<Envelope<PedidoJson>>().data;
    assert.deepEqual(caixa.para(consumidora.email), [], 'salvar sem confirmar não manda recibo');
    assert.equal((await consumidora.nav.postJson(url('/pedidoconsumidoresconfirmacao'), { pedidoId })).status, 200);
    const [recibo] = await esperarPara(consumidora.email, 1);
    assert.ok(recibo);
    assert.equal(recibo.assunto, `Pedido confirmado: ${c.nome}`);
    assert.match(
      recibo.texto,
      /^Olá, Gabi!\n\nSeu pedido no Ciclo \d+ está confirmado \(em 07\/03\/2026 às 12:00\)\. Este é o seu recibo\./,
    );
    assert.ok(recibo.texto.includes(`- ${c.cesta} · 2 × R$ 50,00 · R$ 100,00`), recibo.texto);
    assert.ok(
      recibo.texto.includes('- Total dos itens · R$ 100,00\n- Taxa administrativa · R$ 10,00\n- A pagar · R$ 110,00'),
      recibo.texto,
    );
    assert.match(
      recibo.texto,
      /Retirada em Sede \d+ — Rua das Flores, 12, Viçosa, quarta-feira, 11\/03\/2026, das 08:00 às 12:00\./,
    );
    assert.ok(recibo.texto.includes(`Ver meu pedido: ${amb.url}/pedidoconsumidoresconfirmacao/${pedidoId}`));
    assert.match(
      recibo.html,
      /<td colspan="2"[^>]*>A pagar<\/td>\s*<td style="text-align:right;white-space:nowrap[^>]*>R\$ 110,00<\/td>/,
    );
    assert.equal(recibo.cabecalhos.get('list-unsubscribe'), undefined, 'o recibo não se desliga');
    // Confirming again is a no-op: no second receipt.
    assert.equal((await consumidora.nav.postJson(url('/pedidoconsumidoresconfirmacao'), { pedidoId })).status, 200);
    // Changing it after confirmation: one notice, with the new figures.
    const mudou = await consumidora.nav.postJson(url('/pedidoconsumidores'), {
      cicloid: c.cicloid,
      pontoEntregaId: c.ponto,
      produtos: [{ cicloCestaId: c.cicloCestaId, quantidade: 1 }],
    });
    assert.equal(mudou.status, 200, mudou.texto);
    const [, alterado] = await esperarPara(consumidora.email, 2);
    assert.equal(alterado?.assunto, `Pedido alterado, falta confirmar: ${c.nome}`);
    assert.ok(alterado?.texto.includes('- A pagar · R$ 55,00'), alterado?.texto);
    assert.ok(alterado?.texto.includes(`Confirmar de novo: ${amb.url}/pedidoconsumidoresconfirmacao/${pedidoId}`));
    // Saving the unconfirmed order again says nothing more; confirming it gives a new receipt.
    assert.equal(
      (
        await consumidora.nav.postJson(url('/pedidoconsumidores'), {
          cicloid: c.cicloid,
          pontoEntregaId: c.ponto,
          produtos: [{ cicloCestaId: c.cicloCestaId, quantidade: 1 }],
        })
      ).status,
      200,
    );
    relogio.definir('2026-03-07T16:30:00Z');
    assert.equal((await consumidora.nav.postJson(url('/pedidoconsumidoresconfirmacao'), { pedidoId })).status, 200);
    const [, , segundo] = await esperarPara(consumidora.email, 3);
    assert.match(segundo?.texto ?? '', /confirmado \(em 07\/03\/2026 às 13:30\)/);
    await correio().enviarPendentes();
    assert.equal(caixa.para(consumidora.email).length, 3);
    assert.deepEqual(caixa.para(outra.email), []);
  });

  async function esperarPara(email: string, n: number): Promise<Chegada[]> {
    const fim = Date.now() + 10_000;
    while (caixa.para(email).length < n) {
      if (Date.now() > fim)
        throw new Error(`esperava ${n} e-mails para ${email}, chegaram ${caixa.para(email).length}`);
      await new Promise((r) => setTimeout(r, 20));
    }
    return caixa.para(email);
  }

  test('um pedido desfeito (a transação volta atrás) não deixa mensagem nem manda e-mail', async () => {
    const c = await cenario();
    relogio.definir(dia('07'));
    const consumidora = await entrarComo(amb, ['consumidor'], 'Iara Desfeita');
    const salvo = await consumidora.nav.postJson(url('/pedidoconsumidores'), {
      cicloid: c.cicloid,
      pontoEntregaId: c.ponto,
      produtos: [{ cicloCestaId: c.cicloCestaId, quantidade: 1 }],
    });
    const { pedidoId } = salvo.json<Envelope<PedidoJson>>().data;
    const ator = {
      email: consumidora.email,
      nome: 'Iara',
      usuarioid: consumidora.id,
      perfil: ['consumidor'] as const,
      ativo: true,
    };
    // The receipt is written by the real outbox inside the confirmation; then the transaction fails.
    const falha = new Error('queda depois do recibo');
    const quebrado = {
      emitir: async (trx: Parameters<Correio['emitir']>[0], e: Parameters<Correio['emitir']>[1]) => {
        await correio().emitir(trx, e);
        assert.equal(
          (
            await trx
              .selectFrom('mensagem')
              .select('id')
              .where('usuarioid', '=', consumidora.id ?? 0)
              .execute()
          ).length,
          1,
          'escrito dentro da transação',
        );
        throw falha;
      },
    };
    await assert.rejects(
      finalizarPedido(amb.banco, ator, pedidoId, {
        agora: relogio.agora(),
        hoje: '2026-03-07',
        taxa: amb.config.taxa,
        tz: amb.config.tz,
        avisos: quebrado,
      }),
      falha,
    );
    assert.deepEqual(
      await amb.banco
        .selectFrom('mensagem')
        .select('id')
        .where('usuarioid', '=', consumidora.id ?? 0)
        .execute(),
      [],
    );
    const pedido = await amb.banco
      .selectFrom('pedido')
      .select('finalizado')
      .where('id', '=', pedidoId)
      .executeTakeFirstOrThrow();
    assert.equal(Boolean(pedido.finalizado), false);
    await correio().enviarPendentes();
    await new Promise((r) => setTimeout(r, 150));
    assert.deepEqual(caixa.para(consumidora.email), []);
  });

  test('dois processos remetentes entregam 200 mensagens, cada uma uma vez', async () => {
    const antes = caixa.chegadas.length;
    const pessoas = await Promise.all(
      Array.from({ length: 200 }, (_, i) => criarUsuario(amb.banco, { nome: `Lote ${i}` })),
    );
    // Written straight to the outbox, so that this process's own sender is not woken: the two
    // child processes share the queue, with the test's clock.
    const iso = relogio.agora().toISOString();
    await amb.banco
      .insertInto('mensagem')
      .values(
        pessoas.map((p) => ({
          chave: `teste-lote:${p.id}`,
          tipo: 'coordenacao',
          usuarioid: p.id,
          para: p.email,
          assunto: `Lote ${p.id}`,
          texto: 'oi',
          html: '<p>oi</p>',
          proximaTentativa: iso,
          createdAt: iso,
          updatedAt: iso,
        })),
      )
      .execute();
    const env = {
      NODE_ENV: 'test',
      DATABASE_URL: urlDoBanco(amb.bancoConfig),
      SMTP_URL: caixa.url,
      LOG_LEVEL: 'silent',
      DEMO_DATA: 'false',
      RELOGIO: iso,
    };
    const processo = () =>
      new Promise<number>((ok, falha) => {
        const filho = spawn(
          process.execPath,
          ['--disable-warning=ExperimentalWarning', join(RAIZ, 'test/helpers/remetente.ts')],
          { cwd: RAIZ, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let saida = '';
        let erro = '';
        filho.stdout.on('data', (c: Buffer) => {
          saida += c.toString();
        });
        filho.stderr.on('data', (c: Buffer) => {
          erro += c.toString();
        });
        filho.on('exit', (codigo) =>
          codigo === 0 ? ok(Number(saida.trim())) : falha(new Error(`remetente saiu com ${codigo}: ${erro}`)),
        );
      });
    const [a, b] = await Promise.all([processo(), processo()]);
    const chegadas = caixa.chegadas.slice(antes).filter((m) => m.assunto.startsWith('Lote '));
    assert.equal(chegadas.length, 200);
    assert.equal(new Set(chegadas.map((m) => m.para)).size, 200, 'cada mensagem uma vez');
    assert.equal(a + b, 200);
    const estados = await amb.banco
      .selectFrom('mensagem')
      .select('estado')
      .where('chave', 'like', 'teste-lote:%')
      .execute();
    assert.deepEqual([...new Set(estados.map((m) => m.estado))], ['enviada']);
  });

  test('uma queda do SMTP não perde nada: tenta de novo com espera crescente, desiste só no fim, e o admin reenvia', async () => {
    const pessoa = await criarUsuario(amb.banco, { nome: 'Joana Queda' });
    const persistente = await criarUsuario(amb.banco, { nome: 'Kleber Desiste' });
    relogio.definir('2026-04-01T12:00:00Z');
    caixa.falhar = true;
    try {
      for (const p of [pessoa, persistente]) {
        await correio().enfileirar(amb.banco, {
          chave: `teste-queda:${p.id}`,
          tipo: 'coordenacao',
          usuarioid: p.id,
          cicloid: null,
          para: p.email,
          conteudo: { assunto: `Queda ${p.id}`, texto: 'oi', html: '<p>oi</p>' },
          cancelar: null,
        });
      }
      assert.equal(await correio().enviarPendentes(), 0);
      const estado = (id: number) =>
        amb.banco
          .selectFrom('mensagem')
          .select(['estado', 'tentativas', 'proximaTentativa', 'ultimoErro'])
          .where('chave', '=', `teste-queda:${id}`)
          .executeTakeFirstOrThrow();
      const depois1 = await estado(pessoa.id);
      assert.equal(depois1.estado, 'pendente');
      assert.equal(depois1.tentativas, 1);
      assert.equal(depois1.proximaTentativa, '2026-04-01T12:01:00.000Z');
      assert.match(depois1.ultimoErro ?? '', /451/);
      // Not due yet: nothing is tried.
      assert.equal(await correio().enviarPendentes(), 0);
      assert.equal((await estado(pessoa.id)).tentativas, 1);
      relogio.definir('2026-04-01T12:01:00Z');
      await correio().enviarPendentes();
      assert.equal((await estado(pessoa.id)).proximaTentativa, '2026-04-01T12:03:00.000Z', 'a espera dobra');
      // The server comes back: the next try delivers the first message.
      caixa.falhar = false;
      relogio.definir('2026-04-01T12:03:00Z');
      await correio().enviarPendentes();
      assert.equal(caixa.para(pessoa.email).length, 1);
      assert.equal((await estado(pessoa.id)).estado, 'enviada');
      // A longer outage: after the last try the message is failed and shown to admins.
      caixa.falhar = true;
      assert.equal(
        await correio().reenviar(
          (
            await amb.banco
              .selectFrom('mensagem')
              .select('id')
              .where('chave', '=', `teste-queda:${persistente.id}`)
              .executeTakeFirstOrThrow()
          ).id,
        ),
        true,
      );
      for (let i = 0; i < TENTATIVAS; i++) {
        relogio.definir(new Date(relogio.agora().getTime() + 65 * 60_000).toISOString());
        await correio().enviarPendentes();
      }
      const desistiu = await estado(persistente.id);
      assert.equal(desistiu.estado, 'falhou');
      assert.equal(desistiu.tentativas, TENTATIVAS);
      const pagina = await admin.nav.get(url('/mensagens?estado=falhou'));
      assert.equal(pagina.status, 200);
      assert.ok(pagina.texto.includes(`Queda ${persistente.id}`));
      assert.match(pagina.texto, /Falhou<\/span> · 8 tentativas/);
      const caixaJson = (await admin.nav.getJson(url('/mensagens?estado=falhou'))).json<
        Envelope<{ mensagens: Array<{ id: number; para: string }> }>
      >().data;
      const falhou = caixaJson.mensagens.find((m) => m.para === persistente.email);
      assert.ok(falhou);
      caixa.falhar = false;
      const reenviar = await admin.nav.postJson(url(`/mensagens/${falhou.id}/reenviar`), {});
      assert.equal(reenviar.status, 200, reenviar.texto);
      await correio().enviarPendentes();
      assert.equal(caixa.para(persistente.email).length, 2, 'entregue de novo depois do reenvio');
      assert.equal((await admin.nav.postJson(url('/mensagens/999999/reenviar'), {})).status, 404);
    } finally {
      caixa.falhar = false;
    }
  });

  test('deixar de receber: o link do e-mail funciona sem login, em um clique; um token forjado é recusado', async () => {
    const c = await cenario();
    const forn = await entrarComo(amb, ['fornecedor'], 'Lia Link');
    await rodada();
    const aviso = caixa.para(forn.email).find((m) => m.assunto === `Ofertas abertas: ${c.nome}`);
    assert.ok(aviso);
    const link = /Para não receber mais este tipo de aviso: (\S+)/.exec(aviso.texto)?.[1] ?? '';
    assert.ok(link.startsWith(`${amb.url}/avisos/sair/`), aviso.texto);
    const anonimo = new Navegador();
    const pagina = await anonimo.get(link);
    assert.equal(pagina.status, 200);
    assert.match(pagina.texto, /Deixar de receber por e-mail: <strong>Abertura do período de ofertas<\/strong>\?/);
    // A mail program's one-click: a form POST with no cookie and no CSRF token.
    const clique = await fetch(link, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
      redirect: 'manual',
    });
    assert.equal(clique.status, 200);
    const u = await amb.banco
      .selectFrom('usuario')
      .select('avisosDesligados')
      .where('id', '=', forn.id ?? 0)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(u.avisosDesligados ?? '[]'), ['oferta_aberta']);
    // The profile page shows the box unticked; the next cycle's opening does not reach this person.
    const perfil = await forn.nav.get(url('/profile/avisos'));
    assert.match(perfil.texto, /<input type="checkbox" id="aviso-oferta_aberta" name="avisos" value="oferta_aberta" >/);
    assert.match(perfil.texto, /id="aviso-oferta_lembrete" name="avisos" value="oferta_lembrete" checked>/);
    const outro = await cenario();
    await rodada();
    assert.equal(caixa.para(forn.email).filter((m) => m.assunto === `Ofertas abertas: ${outro.nome}`).length, 0);
    // Forged, altered or mandatory-kind tokens are refused and change nothing.
    const [id, , assinatura] = link.split('/').at(-1)?.split('.') ?? [];
    for (const token of [
      `${Number(id) + 1}.oferta_aberta.${assinatura}`,
      `${id}.oferta_lembrete.${assinatura}`,
      `${id}.recibo.${assinatura}`,
      'qualquer-coisa',
    ]) {
      const r = await fetch(`${amb.url}/avisos/sair/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'List-Unsubscribe=One-Click',
      });
      assert.equal(r.status, 404, token);
      assert.match(await r.text(), /Este link para deixar de receber avisos não é válido/);
    }
    assert.deepEqual(
      JSON.parse(
        (
          await amb.banco
            .selectFrom('usuario')
            .select('avisosDesligados')
            .where('id', '=', forn.id ?? 0)
            .executeTakeFirstOrThrow()
        ).avisosDesligados ?? '[]',
      ),
      ['oferta_aberta'],
    );
  });

  test('a escolha dos avisos no perfil: formulário e JSON; recibos e mensagens da coordenação não se desligam', async () => {
    const p = await entrarComo(amb, ['consumidor'], 'Mara Escolhe');
    const form = await p.nav.get(url('/profile/avisos'));
    assert.equal(form.status, 200);
    const csrf = tokenCsrf(form.texto);
    const salvo = await p.nav.post(
      url('/profile/avisos'),
      { form: { _csrf: csrf, avisos: ['', 'retirada', 'pedido_aberto'] } },
      { seguir: false },
    );
    assert.equal(salvo.status, 303);
    const json = (await p.nav.getJson(url('/profile/avisos'))).json<Envelope<{ recebe: string[]; ligado: boolean }>>()
      .data;
    assert.deepEqual(json, { recebe: ['pedido_aberto', 'retirada'], ligado: true });
    const nenhum = await p.nav.post(url('/profile/avisos'), { form: { _csrf: csrf, avisos: '' } }, { seguir: false });
    assert.equal(nenhum.status, 303);
    assert.deepEqual(
      (await p.nav.getJson(url('/profile/avisos'))).json<Envelope<{ recebe: string[] }>>().data.recebe,
      [],
    );
    // The mandatory kinds are always received: naming them changes nothing; an unknown kind is refused.
    const recibo = await p.nav.postJson(url('/profile/avisos'), { avisos: ['recibo', 'retirada'] });
    assert.equal(recibo.status, 200, recibo.texto);
    assert.deepEqual(recibo.json<Envelope<{ recebe: string[] }>>().data.recebe, ['retirada']);
    const estranho = await p.nav.postJson(url('/profile/avisos'), { avisos: ['propaganda'] });
    assert.equal(estranho.status, 400);
    assert.equal(
      estranho.json<Envelope>().details?.avisos,
      'Valor inválido: use oferta_aberta, oferta_lembrete, pedido_aberto, pedido_lembrete, entregas, retirada, assinatura_ciclo',
    );
    assert.equal((await p.nav.postJson(url('/profile/avisos'), {})).status, 400);
    // The profile links to the choice.
    assert.match((await p.nav.get(url('/profile'))).texto, /href="\/profile\/avisos"/);
  });

  test('a mensagem da coordenação vai a quem ofertou e a quem pediu no ciclo, e a mais ninguém', async () => {
    const c = await cenario();
    relogio.definir(dia('07'));
    const pediu = await entrarComo(amb, ['consumidor'], 'Nina Pediu');
    const naoPediu = await entrarComo(amb, ['consumidor'], 'Otto Nada');
    assert.equal(
      (
        await pediu.nav.postJson(url('/pedidoconsumidores'), {
          cicloid: c.cicloid,
          pontoEntregaId: c.ponto,
          produtos: [{ cicloCestaId: c.cicloCestaId, quantidade: 1 }],
        })
      ).status,
      201,
    );
    const form = await admin.nav.get(url(`/ciclo/${c.cicloid}/mensagem`));
    assert.equal(form.status, 200);
    assert.match(form.texto, /Vai para <strong>2 pessoas<\/strong>/);
    const vazio = await admin.nav.postJson(url(`/ciclo/${c.cicloid}/mensagem`), { assunto: '', texto: '' });
    assert.equal(vazio.status, 400);
    assert.deepEqual(Object.keys(vazio.json<Envelope>().details ?? {}).sort(), ['assunto', 'texto']);
    const r = await admin.nav.postJson(url(`/ciclo/${c.cicloid}/mensagem`), {
      assunto: 'Mudança de horário',
      texto: 'A retirada começa às 9h.\n\nTragam sacolas.',
    });
    assert.equal(r.status, 200, r.texto);
    assert.deepEqual(r.json<Envelope<{ destinatarios: number }>>().data, { destinatarios: 2 });
    await correio().enviarPendentes();
    const assunto = `Mudança de horário · ${c.nome}`;
    assert.deepEqual(
      caixa.chegadas
        .filter((m) => m.assunto === assunto)
        .map((m) => m.para)
        .sort(),
      [c.compositor, pediu.email].sort(),
    );
    const m = caixa.para(pediu.email).find((x) => x.assunto === assunto);
    assert.match(
      m?.texto ?? '',
      /A retirada começa às 9h\.\n\nTragam sacolas\.\n\n— Pessoa admin, pela coordenação do Ciclo \d+/,
    );
    assert.deepEqual(caixa.para(naoPediu.email), []);
    // Not an admin's to send: a consumer is refused and nothing is queued.
    const antes = await amb.banco.selectFrom('mensagem').select('id').execute();
    assert.equal(
      (await pediu.nav.postJson(url(`/ciclo/${c.cicloid}/mensagem`), { assunto: 'x', texto: 'y' })).status,
      403,
    );
    assert.equal((await amb.banco.selectFrom('mensagem').select('id').execute()).length, antes.length);
    assert.equal((await admin.nav.postJson(url('/ciclo/999999/mensagem'), { assunto: 'x', texto: 'y' })).status, 404);
  });

  test('/metrics conta as mensagens por estado', async () => {
    const r = await fetch(url('/metrics'), {
      headers: amb.config.metricsToken === undefined ? {} : { authorization: `Bearer ${amb.config.metricsToken}` },
    });
    assert.equal(r.status, 200);
    const texto = await r.text();
    const enviadas = Number(/cestaria_mensagens\{estado="enviada"\} (\d+)/.exec(texto)?.[1]);
    const noBanco = (await amb.banco.selectFrom('mensagem').select('id').where('estado', '=', 'enviada').execute())
      .length;
    assert.ok(noBanco > 0);
    assert.equal(enviadas, noBanco);
    assert.match(texto, /cestaria_mensagens\{estado="falhou"\} \d+/);
  });
});

describe('e-mail desligado', () => {
  let amb: AmbienteDeTeste;
  before(async () => {
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste(dia('07')) });
  });
  after(() => amb.fechar());

  test('sem SMTP_URL nada vai para a caixa de saída, e a mensagem da coordenação diz por quê', async () => {
    const banco: Banco = amb.banco;
    const admin = await entrarComo(amb, ['admin']);
    const cesta = await criarCesta(banco);
    const c = await criarCiclo(banco, { cestas: [{ cestaId: cesta.id, quantidadeCestas: 5 }], compor: true });
    const ponto = await criarPonto(banco);
    const consumidora = await entrarComo(amb, ['consumidor']);
    const salvo = await consumidora.nav.postJson(`${amb.url}/pedidoconsumidores`, {
      cicloid: c.id,
      pontoEntregaId: ponto.id,
      produtos: [{ cicloCestaId: c.cicloCestas[0], quantidade: 1 }],
    });
    assert.equal(salvo.status, 201, salvo.texto);
    assert.equal(
      (
        await consumidora.nav.postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, {
          pedidoId: salvo.json<Envelope<PedidoJson>>().data.pedidoId,
        })
      ).status,
      200,
    );
    assert.equal(await amb.servicos.correio.lembrar(), 0);
    assert.deepEqual(await banco.selectFrom('mensagem').select('id').execute(), []);
    const r = await admin.nav.postJson(`${amb.url}/ciclo/${c.id}/mensagem`, { assunto: 'Oi', texto: 'Tudo bem?' });
    assert.equal(r.status, 409);
    assert.match(r.json<Envelope>().error, /O envio de e-mails está desligado neste serviço \(sem SMTP_URL\)/);
    assert.match(
      (await admin.nav.get(`${amb.url}/mensagens`)).texto,
      /O envio de e-mails está desligado neste serviço/,
    );
  });
});
