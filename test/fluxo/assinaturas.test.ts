import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { abrirBanco, type Banco } from '../../src/db/banco.ts';
import type { BancoConfig } from '../../src/config.ts';
import type { Ator } from '../../src/domain/acesso.ts';
import type { EntradaAssinatura, OpcoesAssinatura } from '../../src/domain/assinaturas/modelo.ts';
import { ciclosAplicaveis, type CicloCandidato } from '../../src/domain/assinaturas/regras.ts';
import { assinaturasDe } from '../../src/domain/assinaturas/leitura.ts';
import { assinaturasParaAdmin, faltasDoCiclo } from '../../src/domain/assinaturas/painel.ts';
import { gerarPedidosDoCiclo } from '../../src/domain/assinaturas/geracao.ts';
import { pausar, removerPausa, salvarAssinatura } from '../../src/domain/assinaturas/escrita.ts';
import { alterarNoCiclo, pularCiclo } from '../../src/domain/assinaturas/no-ciclo.ts';
import { fazerPedido } from '../../src/domain/pedidos/fazer.ts';
import { pedidoDe } from '../../src/domain/pedidos/leituras.ts';
import type { Taxa } from '../../src/domain/pedidos/taxa.ts';
import { somarDias } from '../../src/domain/tempo.ts';
import { DIALETO, bancoNovo } from '../helpers/banco.ts';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarExtra,
  criarPonto,
  criarUsuario,
  type DatasDoCiclo,
} from '../helpers/fabricas.ts';
import { recusa } from '../helpers/recusa.ts';

/** Subscriptions (DOMAIN.md, "Subscriptions (assinaturas)"), through the domain's own functions. */

const TAXA: Taxa = { percentualCentesimos: 0, fixaCentavos: 0 };
const TZ = 'America/Sao_Paulo';
/** Before the default cycle's order window, inside it, and after it. */
const ANTES: OpcoesAssinatura = { agora: new Date('2026-03-02T15:00:00Z'), hoje: '2026-03-02', taxa: TAXA, tz: TZ };
const NO_PEDIDO: OpcoesAssinatura = { agora: new Date('2026-03-07T15:00:00Z'), hoje: '2026-03-07', taxa: TAXA, tz: TZ };
const DEPOIS: OpcoesAssinatura = { agora: new Date('2026-03-10T15:00:00Z'), hoje: '2026-03-10', taxa: TAXA, tz: TZ };

/** The default cycle's dates moved by `semanas` weeks. */
function datasDaSemana(semanas: number): DatasDoCiclo {
  const d = semanas * 7;
  return {
    dataOfertaInicio: somarDias(DATAS_PADRAO.dataOfertaInicio, d),
    dataOfertaFim: somarDias(DATAS_PADRAO.dataOfertaFim, d),
    dataPedidoInicio: somarDias(DATAS_PADRAO.dataPedidoInicio, d),
    dataPedidoFim: somarDias(DATAS_PADRAO.dataPedidoFim, d),
    dataRetiradaInicio: somarDias(DATAS_PADRAO.dataRetiradaInicio, d),
    dataRetiradaFim: somarDias(DATAS_PADRAO.dataRetiradaFim, d),
  };
}

/** Inside the order window of the cycle `semanas` weeks after the default one. */
function noPedidoDaSemana(semanas: number): OpcoesAssinatura {
  const hoje = somarDias(NO_PEDIDO.hoje, semanas * 7);
  return { ...NO_PEDIDO, hoje, agora: new Date(`${hoje}T15:00:00Z`) };
}

describe('assinaturas', () => {
  let cfg: BancoConfig;
  let banco: Banco;
  let admin: Ator;
  let ponto: number;

  const consumidor = async (nome: string): Promise<Ator> => {
    const u = await criarUsuario(banco, { perfil: ['consumidor'], nome });
    return { email: u.email, nome, usuarioid: u.id, perfil: ['consumidor'], ativo: true };
  };
  const entrada = (cestaId: number, dados: Partial<EntradaAssinatura> = {}): EntradaAssinatura => ({
    id: null,
    usuarioid: null,
    cestaId,
    quantidade: 1,
    pontoEntregaId: ponto,
    frequencia: 'cada_ciclo',
    inicio: '2026-01-01',
    fim: '2026-12-31',
    mercadoId: null,
    ativa: true,
    ...dados,
  });
  /** What the triggers counted for a cycle basket, against a recount of the order lines. */
  const contadores = async (cicloCestaId: number) => {
    const cc = await banco
      .selectFrom('ciclocesta')
      .select('reservadoMilesimos')
      .where('id', '=', cicloCestaId)
      .executeTakeFirstOrThrow();
    const soma = await banco
      .selectFrom('pedidoproduto')
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('quantidadeMilesimos'), eb.lit(0)).as('s'))
      .where('cicloCestaId', '=', cicloCestaId)
      .executeTakeFirstOrThrow();
    return { contado: Number(cc.reservadoMilesimos), recontado: Number(soma.s) };
  };
  const linhasDeAssinatura = (assinaturaId: number) =>
    banco
      .selectFrom('pedidoproduto')
      .select(['pedidoid', 'quantidadeMilesimos', 'valorCentavos'])
      .where('assinaturaId', '=', assinaturaId)
      .execute();

  before(async () => {
    cfg = await bancoNovo();
    banco = abrirBanco(cfg);
    const a = await criarUsuario(banco, { perfil: ['admin'], nome: 'Admin' });
    admin = { email: a.email, nome: 'Admin', usuarioid: a.id, perfil: ['admin'], ativo: true };
    ponto = (await criarPonto(banco)).id;
  });
  after(() => banco.destroy());

  test('ciclosAplicaveis: a temporada, o ciclo sim ciclo não e a pausa (que conta para a alternância)', () => {
    const ciclos: CicloCandidato[] = [0, 1, 2, 3, 4, 5]
      .map((s) => ({ cicloid: 10 + s, ...datasDaSemana(s) }))
      .reverse();
    const regra = { frequencia: 'cada_ciclo' as const, inicio: '2026-03-01', fim: '2026-12-31', pausas: [] };
    assert.deepEqual(
      ciclosAplicaveis(regra, ciclos).map((c) => c.cicloid),
      [10, 11, 12, 13, 14, 15],
      'em ordem das janelas de pedido',
    );
    // The first cycle's pickup (11–12 March) starts before the season: it does not apply.
    assert.deepEqual(
      ciclosAplicaveis({ ...regra, inicio: '2026-03-12', fim: '2026-03-31' }, ciclos).map((c) => c.cicloid),
      [11, 12],
    );
    assert.deepEqual(
      ciclosAplicaveis({ ...regra, frequencia: 'ciclo_sim_ciclo_nao' }, ciclos).map((c) => c.cicloid),
      [10, 12, 14],
    );
    assert.deepEqual(
      ciclosAplicaveis({ ...regra, frequencia: 'ciclo_sim_ciclo_nao', inicio: '2026-03-12' }, ciclos).map(
        (c) => c.cicloid,
      ),
      [11, 13, 15],
      'conta a partir do primeiro ciclo da temporada',
    );
    const pausa = { inicio: datasDaSemana(1).dataPedidoInicio, fim: datasDaSemana(3).dataPedidoInicio };
    assert.deepEqual(
      ciclosAplicaveis({ ...regra, pausas: [pausa] }, ciclos).map((c) => c.situacao),
      ['servir', 'pausado', 'pausado', 'pausado', 'servir', 'servir'],
    );
    assert.deepEqual(ciclosAplicaveis({ ...regra, frequencia: 'ciclo_sim_ciclo_nao', pausas: [pausa] }, ciclos), [
      { cicloid: 10, situacao: 'servir' },
      { cicloid: 12, situacao: 'pausado' },
      { cicloid: 14, situacao: 'servir' },
    ]);
  });

  test('validações: quantidade, datas, uma ativa por tipo de cesta, o limite e a assinatura de outra pessoa', async () => {
    const cesta = await criarCesta(banco, { valorCentavos: 4000 });
    const ana = await consumidor('Ana');
    const bia = await consumidor('Bia');
    const r1 = await recusa(
      salvarAssinatura(
        banco,
        ana,
        entrada(cesta.id, { quantidade: 0, inicio: '2026-05-01', fim: '2026-04-01' }),
        ANTES,
      ),
    );
    assert.equal(r1.tipo, 'Invalido');
    assert.ok(typeof r1.detalhes.quantidade === 'string' && typeof r1.detalhes.fim === 'string');
    const a = await salvarAssinatura(banco, ana, entrada(cesta.id), ANTES);
    assert.equal(a.usuarioid, ana.usuarioid);
    const r2 = await recusa(salvarAssinatura(banco, ana, entrada(cesta.id, { quantidade: 2 }), ANTES));
    assert.deepEqual([r2.tipo, r2.codigo], ['Conflito', 'ASSINATURA_REPETIDA']);
    await banco.updateTable('cesta').set({ limiteAssinaturas: 1 }).where('id', '=', cesta.id).execute();
    const r3 = await recusa(salvarAssinatura(banco, bia, entrada(cesta.id), ANTES));
    assert.deepEqual([r3.tipo, r3.codigo], ['Conflito', 'LIMITE_DE_ASSINATURAS']);
    assert.match(r3.mensagem, new RegExp(`${cesta.nome} aceita no máximo 1 assinaturas`));
    // Ending one frees its place.
    await salvarAssinatura(banco, ana, entrada(cesta.id, { id: a.id, ativa: false }), ANTES);
    const b = await salvarAssinatura(banco, bia, entrada(cesta.id), ANTES);
    assert.equal(b.ativa, true);
    const r4 = await recusa(salvarAssinatura(banco, ana, entrada(cesta.id, { id: b.id, quantidade: 3 }), ANTES));
    assert.deepEqual([r4.tipo, r4.codigo], ['NaoEncontrado', 'ASSINATURA_NAO_ENCONTRADA']);
    const r5 = await recusa(salvarAssinatura(banco, ana, entrada(cesta.id, { usuarioid: bia.usuarioid }), ANTES));
    assert.equal(r5.tipo, 'Proibido');
    // Admins change anyone's, and it is audited.
    const c = await salvarAssinatura(
      banco,
      admin,
      entrada(cesta.id, { id: b.id, usuarioid: bia.usuarioid, quantidade: 3 }),
      ANTES,
    );
    assert.equal(c.quantidade, 3);
    const auditoria = await banco
      .selectFrom('auditoria')
      .select(['acao', 'ator'])
      .where('entidade', '=', 'assinatura')
      .where('entidadeId', '=', String(b.id))
      .orderBy('id')
      .execute();
    assert.deepEqual(
      auditoria.map((l) => l.acao),
      ['criar', 'salvar'],
    );
    assert.equal(auditoria[1]?.ator, admin.email);
  });

  test('gerar duas vezes, e duas gerações ao mesmo tempo por dois acessos ao banco, gera uma vez só; preço e contadores certos', async () => {
    const cesta = await criarCesta(banco, { valorCentavos: 4750 });
    const ciclo = await criarCiclo(banco, { cestas: [{ cestaId: cesta.id, quantidadeCestas: 20 }], compor: true });
    const cc = ciclo.cicloCestas[0] ?? 0;
    const pessoas = await Promise.all(['Caio', 'Davi', 'Edu'].map(consumidor));
    const assinaturas = [];
    for (const [i, p] of pessoas.entries())
      assinaturas.push(await salvarAssinatura(banco, p, entrada(cesta.id, { quantidade: i + 1 }), ANTES));
    // Before the window opens, nothing is generated.
    assert.equal((await gerarPedidosDoCiclo(banco, ciclo.id, ANTES)).gerados, 0);
    assert.equal((await linhasDeAssinatura(assinaturas[0]?.id ?? 0)).length, 0);
    // A second handle on the same database, as a second process has. SQLite's handles wait for
    // the file lock synchronously, so in one process they would block each other: there the race
    // goes through one handle, and test/fluxo/assinaturas-processos.test.ts races two processes.
    const outro = DIALETO === 'postgres' ? abrirBanco(cfg) : banco;
    try {
      const [r1, r2] = await Promise.all([
        gerarPedidosDoCiclo(banco, ciclo.id, NO_PEDIDO),
        gerarPedidosDoCiclo(outro, ciclo.id, NO_PEDIDO),
      ]);
      assert.equal(r1.gerados + r2.gerados, 3, `gerados: ${r1.gerados} + ${r2.gerados}`);
    } finally {
      if (outro !== banco) await outro.destroy();
    }
    assert.equal((await gerarPedidosDoCiclo(banco, ciclo.id, NO_PEDIDO)).gerados, 0, 'a segunda chamada não gera nada');
    for (const [i, a] of assinaturas.entries()) {
      const linhas = await linhasDeAssinatura(a.id);
      assert.equal(linhas.length, 1);
      assert.equal(linhas[0]?.quantidadeMilesimos, (i + 1) * 1000);
      assert.equal(linhas[0]?.valorCentavos, 4750, 'o preço da cesta');
      const pedido = await pedidoDe(banco, ciclo.id, pessoas[i]?.usuarioid ?? 0, TAXA);
      assert.equal(pedido?.finalizado, true);
      assert.equal(pedido?.dataConfirmacao, '2026-03-07T12:00:00');
      assert.equal(pedido?.pontoEntregaId, ponto);
      assert.equal(pedido?.produtos[0]?.assinaturaId, a.id);
      assert.equal(pedido?.totalCentavos, 4750 * (i + 1));
    }
    const contagem = await banco
      .selectFrom('assinaturaciclo')
      .select(['situacao'])
      .where('cicloid', '=', ciclo.id)
      .execute();
    assert.deepEqual(
      contagem.map((c) => c.situacao),
      ['gerado', 'gerado', 'gerado'],
    );
    const { contado, recontado } = await contadores(cc);
    assert.equal(contado, 6000);
    assert.equal(recontado, 6000);
  });

  test('falta: ninguém recebe pedido parcial, e quem assinou antes é servido primeiro; os seguintes ainda podem ser', async () => {
    const cesta = await criarCesta(banco);
    const ciclo = await criarCiclo(banco, { cestas: [{ cestaId: cesta.id, quantidadeCestas: 3 }], compor: true });
    const [fa, gil, hel] = await Promise.all(['Fá', 'Gil', 'Hel'].map(consumidor));
    if (fa === undefined || gil === undefined || hel === undefined) throw new Error('pessoas');
    const a = await salvarAssinatura(banco, fa, entrada(cesta.id, { quantidade: 2 }), ANTES);
    const b = await salvarAssinatura(banco, gil, entrada(cesta.id, { quantidade: 2 }), ANTES);
    const c = await salvarAssinatura(banco, hel, entrada(cesta.id, { quantidade: 1 }), ANTES);
    const r = await gerarPedidosDoCiclo(banco, ciclo.id, NO_PEDIDO);
    assert.equal(r.gerados, 2);
    assert.deepEqual(
      r.faltaram.map((f) => [f.assinaturaId, f.consumidor]),
      [[b.id, 'Gil']],
    );
    assert.match(r.faltaram[0]?.motivo ?? '', /pedidas 2 cestas .*disponíveis 1 cesta$/);
    assert.equal((await linhasDeAssinatura(a.id)).length, 1);
    assert.equal((await linhasDeAssinatura(b.id)).length, 0, 'nenhum pedido parcial');
    assert.equal(await pedidoDe(banco, ciclo.id, gil.usuarioid ?? 0, TAXA), null);
    assert.equal((await linhasDeAssinatura(c.id)).length, 1);
    const faltas = await faltasDoCiclo(banco, ciclo.id);
    assert.deepEqual(
      faltas.map((f) => [f.consumidor, f.quantidade]),
      [['Gil', 2]],
    );
    const { contado, recontado } = await contadores(ciclo.cicloCestas[0] ?? 0);
    assert.deepEqual([contado, recontado], [3000, 3000]);
  });

  test('pular depois da geração libera as cestas, que um pedido avulso então leva; pedidos avulsos só levam o que as assinaturas deixam', async () => {
    const cesta = await criarCesta(banco, { valorCentavos: 3000 });
    const ciclo = await criarCiclo(banco, { cestas: [{ cestaId: cesta.id, quantidadeCestas: 3 }], compor: true });
    const cc = ciclo.cicloCestas[0] ?? 0;
    const [ivo, jo, avulsa] = await Promise.all(['Ivo', 'Jô', 'Avulsa'].map(consumidor));
    if (ivo === undefined || jo === undefined || avulsa === undefined) throw new Error('pessoas');
    const a = await salvarAssinatura(banco, ivo, entrada(cesta.id, { quantidade: 2 }), ANTES);
    await salvarAssinatura(banco, jo, entrada(cesta.id, { quantidade: 1 }), ANTES);
    // A one-off order placed before anyone generated: the subscriptions are served first, so
    // nothing is left for it.
    const r1 = await recusa(
      fazerPedido(
        banco,
        avulsa,
        {
          usuarioid: null,
          cicloid: ciclo.id,
          pontoEntregaId: ponto,
          linhas: [{ cicloCestaId: cc, cicloProdutoId: null, quantidadeMilesimos: 2000, campo: 'produtos.0' }],
        },
        NO_PEDIDO,
      ),
    );
    assert.deepEqual([r1.tipo, r1.codigo], ['Conflito', 'SEM_ESTOQUE']);
    assert.equal((await linhasDeAssinatura(a.id)).length, 1, 'a geração veio antes do pedido avulso');
    // Ivo skips the cycle: his two baskets go back, and the one-off order takes them.
    const pulado = await pularCiclo(banco, ivo, a.id, ciclo.id, NO_PEDIDO);
    assert.equal(pulado.situacao, 'pulado');
    assert.equal(await pedidoDe(banco, ciclo.id, ivo.usuarioid ?? 0, TAXA), null, 'o pedido sem nada mais é apagado');
    const { pedido } = await fazerPedido(
      banco,
      avulsa,
      {
        usuarioid: null,
        cicloid: ciclo.id,
        pontoEntregaId: ponto,
        linhas: [{ cicloCestaId: cc, cicloProdutoId: null, quantidadeMilesimos: 2000, campo: 'produtos.0' }],
      },
      NO_PEDIDO,
    );
    assert.equal(pedido.produtos[0]?.quantidadeMilesimos, 2000);
    assert.equal(pedido.produtos[0]?.assinaturaId, null);
    // Generation again does not serve the skipped subscription.
    assert.equal((await gerarPedidosDoCiclo(banco, ciclo.id, NO_PEDIDO)).gerados, 0);
    const { contado, recontado } = await contadores(cc);
    assert.deepEqual([contado, recontado], [3000, 3000]);
  });

  test('o que se acrescenta ao pedido da assinatura entra nele confirmado; um pedido sem cesta de assinatura volta a pedir confirmação', async () => {
    const cesta = await criarCesta(banco, { valorCentavos: 3000 });
    const ciclo = await criarCiclo(banco, { cestas: [{ cestaId: cesta.id, quantidadeCestas: 5 }], compor: true });
    const cc = ciclo.cicloCestas[0] ?? 0;
    const extra = await criarExtra(banco, ciclo.id, { quantidadeMilesimos: 10_000, valorCentavos: 800 });
    const [ivo, avulsa] = await Promise.all(['Ivo', 'Avulsa'].map(consumidor));
    if (ivo === undefined || avulsa === undefined) throw new Error('pessoas');
    const a = await salvarAssinatura(banco, ivo, entrada(cesta.id, { quantidade: 1 }), ANTES);
    assert.equal((await gerarPedidosDoCiclo(banco, ciclo.id, NO_PEDIDO)).gerados, 1);
    const gerado = await pedidoDe(banco, ciclo.id, ivo.usuarioid ?? 0, TAXA);
    assert.equal(gerado?.finalizado, true, 'a geração confirma o pedido');
    const avisos: string[] = [];
    const comAvisos = {
      ...NO_PEDIDO,
      avisos: { emitir: (_: unknown, e: { tipo: string }) => Promise.resolve(void avisos.push(e.tipo)) },
    };
    const cestaDaAssinatura = {
      cicloCestaId: cc,
      cicloProdutoId: null,
      quantidadeMilesimos: 1000,
      campo: 'produtos.0',
    };
    const doisQuilos = { cicloCestaId: null, cicloProdutoId: extra.id, quantidadeMilesimos: 2000, campo: 'produtos.1' };
    const antesDoPedido = (await assinaturasDe(banco, ivo.usuarioid ?? 0, NO_PEDIDO.hoje))[0]?.proximosCiclos[0];
    const { nome: nomeDoPonto } = await banco
      .selectFrom('pontoentrega')
      .select('nome')
      .where('id', '=', ponto)
      .executeTakeFirstOrThrow();
    assert.deepEqual([antesDoPedido?.pontoEntregaId, antesDoPedido?.pontoEntrega], [ponto, nomeDoPonto]);
    // Ivo adds two kilos of the extra, a day later, and picks up elsewhere: his order stays
    // confirmed, at its first confirmation, and his subscription's cycle shows the order's point.
    const outroPonto = await criarPonto(banco, 'Outro ponto de Ivo');
    const r = await fazerPedido(
      banco,
      ivo,
      { usuarioid: null, cicloid: ciclo.id, pontoEntregaId: outroPonto.id, linhas: [cestaDaAssinatura, doisQuilos] },
      { ...comAvisos, agora: new Date('2026-03-08T15:00:00Z'), hoje: '2026-03-08' },
    );
    assert.equal(r.reaberto, false);
    assert.deepEqual([r.pedido.finalizado, r.pedido.dataConfirmacao], [true, gerado?.dataConfirmacao]);
    const lido = await pedidoDe(banco, ciclo.id, ivo.usuarioid ?? 0, TAXA);
    assert.deepEqual(
      [lido?.finalizado, lido?.dataConfirmacao, lido?.produtos.map((l) => [l.quantidadeMilesimos, l.assinaturaId])],
      [
        true,
        gerado?.dataConfirmacao,
        [
          [1000, a.id],
          [2000, null],
        ],
      ],
    );
    assert.deepEqual(avisos, [], 'nada a confirmar de novo, nenhum aviso de "falta confirmar"');
    const doCiclo = (await assinaturasDe(banco, ivo.usuarioid ?? 0, NO_PEDIDO.hoje))[0]?.proximosCiclos[0];
    assert.deepEqual(
      [doCiclo?.situacao, doCiclo?.pontoEntregaId, doCiclo?.pontoEntrega],
      ['gerado', outroPonto.id, 'Outro ponto de Ivo'],
    );
    // The basket and the two kilos are both held.
    assert.deepEqual(await contadores(cc), { contado: 1000, recontado: 1000 });
    const reservado = await banco
      .selectFrom('cicloproduto')
      .select('reservadoMilesimos')
      .where('id', '=', extra.id)
      .executeTakeFirstOrThrow();
    assert.equal(Number(reservado.reservadoMilesimos), 2000);
    // Taking the subscription's basket out through the order page leaves a one-off order: it asks for confirmation.
    const semCesta = await fazerPedido(
      banco,
      ivo,
      { usuarioid: null, cicloid: ciclo.id, pontoEntregaId: ponto, linhas: [{ ...doisQuilos, campo: 'produtos.0' }] },
      comAvisos,
    );
    assert.deepEqual(
      [semCesta.reaberto, semCesta.pedido.finalizado, semCesta.pedido.dataConfirmacao],
      [true, false, null],
    );
    assert.deepEqual(avisos, ['pedido_alterado']);
    // A one-off order, confirmed and then changed, must be confirmed again.
    const linhaAvulsa = { ...doisQuilos, campo: 'produtos.0' };
    const primeiro = await fazerPedido(
      banco,
      avulsa,
      { usuarioid: null, cicloid: ciclo.id, pontoEntregaId: ponto, linhas: [linhaAvulsa] },
      NO_PEDIDO,
    );
    await banco
      .updateTable('pedido')
      .set({ finalizado: true, dataConfirmacao: '2026-03-07T12:00:00' })
      .where('id', '=', primeiro.pedido.pedidoId)
      .execute();
    const mudado = await fazerPedido(
      banco,
      avulsa,
      {
        usuarioid: null,
        cicloid: ciclo.id,
        pontoEntregaId: ponto,
        linhas: [{ ...linhaAvulsa, quantidadeMilesimos: 3000 }],
      },
      comAvisos,
    );
    assert.deepEqual([mudado.reaberto, mudado.pedido.finalizado], [true, false]);
  });

  test('um pedido avulso antes da janela não faz o processo esquecer uma assinatura salva por outro processo', async () => {
    const cesta = await criarCesta(banco);
    const ciclo = await criarCiclo(banco, { cestas: [{ cestaId: cesta.id, quantidadeCestas: 3 }], compor: true });
    const cc = ciclo.cicloCestas[0] ?? 0;
    const [quem, assinante] = await Promise.all(['Quem', 'Rui'].map(consumidor));
    if (quem === undefined || assinante === undefined) throw new Error('pessoas');
    const linha = (n: number) => ({
      usuarioid: quem.usuarioid,
      cicloid: ciclo.id,
      pontoEntregaId: ponto,
      linhas: [{ cicloCestaId: cc, cicloProdutoId: null, quantidadeMilesimos: n * 1000, campo: 'produtos.0' }],
    });
    // The coordination orders for someone before the window opens: nothing to generate yet.
    await fazerPedido(banco, admin, linha(1), ANTES);
    // Another process (its own handle) takes a subscription, still before the window.
    const outro = abrirBanco(cfg);
    try {
      await salvarAssinatura(outro, assinante, entrada(cesta.id, { quantidade: 2 }), ANTES);
    } finally {
      await outro.destroy();
    }
    // In the window, this process's next one-off order generates the subscription first: the
    // one-off order cannot grow into the subscription's baskets.
    const r = await recusa(fazerPedido(banco, quem, linha(2), NO_PEDIDO));
    assert.equal(r.codigo, 'SEM_ESTOQUE');
    const servido = await pedidoDe(banco, ciclo.id, assinante.usuarioid ?? 0, TAXA);
    assert.equal(servido?.produtos[0]?.quantidadeMilesimos, 2000);
  });

  test('pular antes da geração: o ciclo fica pulado e a geração não o serve', async () => {
    const cesta = await criarCesta(banco);
    const ciclo = await criarCiclo(banco, { cestas: [{ cestaId: cesta.id, quantidadeCestas: 5 }], compor: true });
    const ka = await consumidor('Ká');
    const a = await salvarAssinatura(banco, ka, entrada(cesta.id), ANTES);
    // Skipping happens in the order window; before it only admins may.
    const r = await recusa(pularCiclo(banco, ka, a.id, ciclo.id, ANTES));
    assert.deepEqual([r.tipo, r.codigo], ['Conflito', 'JANELA_FECHADA']);
    await pularCiclo(banco, admin, a.id, ciclo.id, ANTES);
    const g = await gerarPedidosDoCiclo(banco, ciclo.id, NO_PEDIDO);
    assert.deepEqual([g.gerados, g.pulados], [0, 1]);
    assert.equal((await linhasDeAssinatura(a.id)).length, 0);
  });

  test('uma pausa de três ciclos pula os três; ciclo sim ciclo não serve um ciclo sim e outro não', async () => {
    const cesta = await criarCesta(banco);
    const ciclos: Array<{ id: number }> = [];
    for (let s = 0; s < 5; s++)
      ciclos.push(
        await criarCiclo(banco, {
          datas: datasDaSemana(s),
          cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
          compor: true,
        }),
      );
    const [lu, mo] = await Promise.all(['Lu', 'Mô'].map(consumidor));
    if (lu === undefined || mo === undefined) throw new Error('pessoas');
    const a = await salvarAssinatura(banco, lu, entrada(cesta.id), ANTES);
    const b = await salvarAssinatura(banco, mo, entrada(cesta.id, { frequencia: 'ciclo_sim_ciclo_nao' }), ANTES);
    const comPausa = await pausar(
      banco,
      lu,
      a.id,
      { inicio: datasDaSemana(1).dataPedidoInicio, fim: datasDaSemana(3).dataPedidoFim },
      ANTES,
    );
    assert.equal(comPausa.pausas.length, 1);
    const r = await recusa(
      pausar(
        banco,
        lu,
        a.id,
        { inicio: datasDaSemana(3).dataPedidoInicio, fim: datasDaSemana(4).dataPedidoFim },
        ANTES,
      ),
    );
    assert.equal(r.codigo, 'PAUSA_SOBREPOSTA');
    const vistos = await assinaturasDe(banco, lu.usuarioid ?? 0, ANTES.hoje);
    assert.deepEqual(
      vistos[0]?.proximosCiclos.map((c) => c.situacao),
      [null, 'pausado', 'pausado', 'pausado', null],
    );
    for (const [s, c] of ciclos.entries()) await gerarPedidosDoCiclo(banco, c.id, noPedidoDaSemana(s));
    const situacoes = async (assinaturaId: number) => {
      const linhas = await banco
        .selectFrom('assinaturaciclo')
        .select(['cicloid', 'situacao'])
        .where('assinaturaId', '=', assinaturaId)
        .execute();
      return ciclos.map((c) => linhas.find((l) => l.cicloid === c.id)?.situacao ?? null);
    };
    assert.deepEqual(await situacoes(a.id), ['gerado', 'pausado', 'pausado', 'pausado', 'gerado']);
    assert.deepEqual(await situacoes(b.id), ['gerado', null, 'gerado', null, 'gerado']);
    assert.equal((await linhasDeAssinatura(a.id)).length, 2);
    assert.equal((await linhasDeAssinatura(b.id)).length, 3);
    // Removing a pause brings back only what is not generated yet.
    const sem = await removerPausa(banco, lu, a.id, comPausa.pausas[0]?.id ?? 0, noPedidoDaSemana(4));
    assert.equal(sem.pausas.length, 0);
    assert.deepEqual(await situacoes(a.id), ['gerado', 'pausado', 'pausado', 'pausado', 'gerado']);
  });

  test('fora da janela ninguém além dos administradores muda nada, e o que eles mudam fica na auditoria', async () => {
    const cesta = await criarCesta(banco);
    const ciclo = await criarCiclo(banco, { cestas: [{ cestaId: cesta.id, quantidadeCestas: 4 }], compor: true });
    const cc = ciclo.cicloCestas[0] ?? 0;
    const nina = await consumidor('Nina');
    const outraPessoa = await consumidor('Otto');
    const a = await salvarAssinatura(banco, nina, entrada(cesta.id, { quantidade: 1 }), ANTES);
    await gerarPedidosDoCiclo(banco, ciclo.id, NO_PEDIDO);
    // Inside the window the subscriber changes that cycle only, under the reservation rule.
    const curta = await recusa(
      alterarNoCiclo(banco, nina, a.id, ciclo.id, { quantidade: 5, pontoEntregaId: ponto }, NO_PEDIDO),
    );
    assert.deepEqual([curta.tipo, curta.codigo], ['Conflito', 'SEM_ESTOQUE']);
    assert.deepEqual(curta.detalhes.disponivel, [{ nome: cesta.nome, disponivel: 4, pedido: 5, unidade: 'cesta' }]);
    const mudou = await alterarNoCiclo(
      banco,
      nina,
      a.id,
      ciclo.id,
      { quantidade: 3, pontoEntregaId: ponto },
      NO_PEDIDO,
    );
    assert.deepEqual([mudou.situacao, mudou.quantidade], ['gerado', 3]);
    assert.equal((await linhasDeAssinatura(a.id))[0]?.quantidadeMilesimos, 3000);
    const [salva] = await assinaturasDe(banco, nina.usuarioid ?? 0, NO_PEDIDO.hoje);
    assert.equal(salva?.quantidade, 1, 'a assinatura em si não muda');
    // Someone else's subscription is not found.
    const alheia = await recusa(pularCiclo(banco, outraPessoa, a.id, ciclo.id, NO_PEDIDO));
    assert.equal(alheia.codigo, 'ASSINATURA_NAO_ENCONTRADA');
    // After the window: the subscriber can change nothing; an admin can, audited as such.
    for (const tentar of [
      () => pularCiclo(banco, nina, a.id, ciclo.id, DEPOIS),
      () => alterarNoCiclo(banco, nina, a.id, ciclo.id, { quantidade: 2, pontoEntregaId: ponto }, DEPOIS),
    ]) {
      const r = await recusa(tentar());
      assert.deepEqual([r.tipo, r.codigo], ['Conflito', 'JANELA_FECHADA']);
    }
    await alterarNoCiclo(banco, admin, a.id, ciclo.id, { quantidade: 2, pontoEntregaId: ponto }, DEPOIS);
    await pularCiclo(banco, admin, a.id, ciclo.id, DEPOIS);
    const acoes = await banco
      .selectFrom('auditoria')
      .select('acao')
      .where('entidade', '=', 'assinatura')
      .where('entidadeId', '=', String(a.id))
      .where('ator', '=', admin.email)
      .orderBy('id')
      .execute();
    assert.deepEqual(
      acoes.map((x) => x.acao),
      ['alterar no ciclo (fora da janela)', 'pular ciclo (fora da janela)'],
    );
    const { contado, recontado } = await contadores(cc);
    assert.deepEqual([contado, recontado], [0, 0]);
  });

  test('a taxa do mercado de cestas vai na linha como o pedido avulso a grava, e o painel soma por cesta e por ponto', async () => {
    const iso = new Date().toISOString();
    const dono = await banco
      .insertInto('appuser')
      .values({
        providerId: 'idp|assinaturas',
        email: 'dono@assinaturas.org',
        emailChave: 'dono@assinaturas.org',
        name: 'Dono',
        avatar: null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const mercado = await banco
      .insertInto('mercado')
      .values({
        nome: `Cestas ${Math.random()}`,
        tipo: 'cesta',
        taxaAdministrativaCentesimos: 500,
        valorMaximoCestaCentavos: 100_000,
        adminId: dono.id,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const cesta = await criarCesta(banco, { valorCentavos: 6000 });
    const ciclo = await criarCiclo(banco, { cestas: [{ cestaId: cesta.id, quantidadeCestas: 5 }], compor: true });
    await banco
      .updateTable('ciclocesta')
      .set({ mercadoId: mercado.id })
      .where('id', '=', ciclo.cicloCestas[0] ?? 0)
      .execute();
    await banco
      .insertInto('ciclomercado')
      .values({ cicloid: ciclo.id, mercadoId: mercado.id, ordemAtendimento: 1, createdAt: iso, updatedAt: iso })
      .execute();
    const pia = await consumidor('Pia');
    const r = await recusa(salvarAssinatura(banco, pia, entrada(cesta.id, { mercadoId: 999_999 }), ANTES));
    assert.equal(typeof r.detalhes.mercadoId, 'string');
    const a = await salvarAssinatura(banco, pia, entrada(cesta.id, { mercadoId: mercado.id, quantidade: 2 }), ANTES);
    // Created inside the window: served at once.
    await salvarAssinatura(
      banco,
      pia,
      entrada(cesta.id, { id: a.id, mercadoId: mercado.id, quantidade: 2 }),
      NO_PEDIDO,
    );
    const pedido = await pedidoDe(banco, ciclo.id, pia.usuarioid ?? 0, TAXA);
    assert.equal(pedido?.produtos[0]?.mercadoId, mercado.id);
    assert.equal(pedido?.produtos[0]?.taxaCentesimos, 500);
    assert.equal(pedido?.taxaCentavos, 600, '5 % de R$ 120,00');
    const painel = await assinaturasParaAdmin(banco);
    const daCesta = painel.porCesta.find((c) => c.cestaId === cesta.id);
    assert.deepEqual([daCesta?.assinaturas, daCesta?.cestas], [1, 2]);
    assert.ok(painel.porPonto.some((p) => p.pontoEntregaId === ponto && p.cestas >= 2));
  });
});
