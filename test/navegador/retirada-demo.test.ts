/**
 * Issue 38's "Done when": a whole pickup of the demo's "Ciclo em retirada" done offline on a
 * 360 px phone (every order of its three points ticked, two items short, three cash payments),
 * then reconnected. After that the server holds each action once, and the ledger, the cycle's
 * closing, each person's amount due and the coordination's view agree to the centavo.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { fecharCiclo } from '../../src/domain/financeiro.ts';
import { TIPO_FALTA, valoresDasFaltas } from '../../src/domain/retirada/dinheiro.ts';
import { diaLocal } from '../../src/domain/tempo.ts';
import { conferirPagina, semChromium } from '../helpers/chromium.ts';
import { Navegador } from '../helpers/navegador.ts';
import { navegadorComSessao } from '../helpers/sessoes.ts';
import { entrarNoMercados, graphql } from '../mercados/apoio.ts';
import { pessoaDemo } from './demo-apoio.ts';
import {
  acoesNoServidor,
  esperarServiceWorker,
  lerLoja,
  montarRetirada,
  pedidosDoPonto,
  type AcaoNaFila,
  type PalcoDaRetirada,
  type PontoDaDemo,
} from './retirada-apoio.ts';

const pular = semChromium();
const ANA = pessoaDemo('ana@exemplo.org');

interface Devido {
  readonly id: string;
  readonly pessoa: string;
  readonly devido: string;
}

const centavos = (decimal: string) => Math.round(Number(decimal) * 100);

describe('a retirada inteira da demonstração, sem rede, num celular', { skip: pular }, () => {
  let palco: PalcoDaRetirada;
  let pontos: PontoDaDemo[];

  before(async () => {
    palco = await montarRetirada();
    pontos = await Promise.all(
      ['Sede da Associação', 'Escola Estadual Centro', 'Feira do Produtor'].map((n) => palco.ponto(n)),
    );
  });
  after(() => palco.fechar());

  /** What each confirmed order of the cycle owes now, as the API says (the amount its one Pix asks). */
  async function devidos(): Promise<Map<string, Devido>> {
    const nav = new Navegador();
    await entrarNoMercados(palco.amb, nav, ANA);
    const todos = new Map<string, Devido>();
    for (const p of pontos) {
      const r = await graphql(
        palco.amb.urlMercados,
        nav,
        'query($c: ID!, $p: ID!) { retiradaDoPonto(cicloId: $c, pontoId: $p) { pedidos { id pessoa devido } } }',
        { c: String(p.cicloId), p: String(p.pontoId) },
      );
      assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
      for (const x of (r.corpo.data?.retiradaDoPonto as { pedidos: Devido[] }).pedidos) todos.set(x.id, x);
    }
    return todos;
  }

  async function abrirPedido(pagina: Page, nome: RegExp): Promise<void> {
    await pagina.locator('.lista-pedidos a').filter({ hasText: nome }).click();
    await pagina.getByRole('heading', { name: nome, level: 1 }).waitFor();
  }

  async function entregar(pagina: Page): Promise<void> {
    await pagina.getByRole('button', { name: 'Entregue' }).click();
    await pagina.getByText(/Retirado às \d\d:\d\d, por Ana Coordenadora \(esperando envio\)/).waitFor();
  }

  async function pagar(pagina: Page, valor: string): Promise<void> {
    await pagina.getByLabel('Valor recebido (R$)').fill(valor);
    await pagina.getByLabel('Dinheiro').check();
    await pagina.getByRole('button', { name: 'Registrar pagamento' }).click();
    await pagina.getByText(`Pagamento de R$ ${valor} em dinheiro registrado.`, { exact: false }).waitFor();
  }

  async function faltou(pagina: Page, item: string, quanto: string): Promise<void> {
    await pagina.getByRole('button', { name: `Faltou ${item}` }).click();
    await pagina.getByLabel(new RegExp(`^Quanto faltou de ${item.slice(0, 20)}`)).fill(quanto);
    await pagina.getByRole('button', { name: 'Registrar falta' }).click();
    await pagina.getByText(/Falta de .* registrada\./).waitFor();
  }

  async function voltarALista(pagina: Page): Promise<void> {
    await pagina.getByRole('link', { name: /Voltar à lista/ }).click();
    await pagina.locator('.lista-pedidos').waitFor();
  }

  async function irAoPonto(pagina: Page, p: PontoDaDemo): Promise<void> {
    await pagina.getByRole('link', { name: 'Cestaria · Retirada' }).click();
    await pagina.getByRole('heading', { name: 'Pontos de retirada' }).waitFor();
    await pagina.getByRole('link', { name: new RegExp(p.nome) }).click();
    await pagina.getByRole('heading', { name: p.nome, level: 1 }).waitFor();
  }

  test('cada pedido entregue, duas faltas e três pagamentos em dinheiro sem rede; de volta à rede, tudo confere', async () => {
    const antes = await devidos();
    const pedidos = (await Promise.all(pontos.map((p) => pedidosDoPonto(palco.amb, p)))).flat();
    assert.equal(pedidos.length, 4, JSON.stringify(pedidos));

    // One online visit to each point: the phone keeps what it needs.
    const [sede, escola, feira] = pontos as [PontoDaDemo, PontoDaDemo, PontoDaDemo];
    const { ctx, pagina } = await palco.entrar(ANA, sede.caminho);
    await pagina.getByText(/Tudo enviado · atualizado às/).waitFor();
    await esperarServiceWorker(pagina);
    for (const p of [escola, feira]) {
      await irAoPonto(pagina, p);
      await pagina.getByText(/Tudo enviado · atualizado às/).waitFor();
    }

    await ctx.contexto.setOffline(true);
    await irAoPonto(pagina, sede);
    await pagina.getByText('Sem internet.').waitFor();
    await abrirPedido(pagina, /Fabiana/);
    await entregar(pagina);
    await faltou(pagina, 'Tomate', '0,5');
    await pagar(pagina, '50,00');
    await voltarALista(pagina);
    await abrirPedido(pagina, /Maria Aparecida/);
    await entregar(pagina);
    await faltou(pagina, 'Farinha de mandioca torrada artesanal do Quilombo Ivaporunduva (Vale do Ribeira)', '1');
    await pagar(pagina, '30,00');
    await voltarALista(pagina);
    await pagina.getByText('2 de 2').waitFor();
    await pagina.getByText('6 ações esperando envio').waitFor();

    await irAoPonto(pagina, escola);
    const [daEscola] = await pedidosDoPonto(palco.amb, escola);
    await abrirPedido(pagina, new RegExp(daEscola?.nome.split(' ')[0] ?? '?'));
    await entregar(pagina);
    await pagar(pagina, '20,00');
    await voltarALista(pagina);
    await pagina.getByText('1 de 1').waitFor();

    await irAoPonto(pagina, feira);
    const [daFeira] = await pedidosDoPonto(palco.amb, feira);
    await abrirPedido(pagina, new RegExp(daFeira?.nome.split(' ')[0] ?? '?'));
    await entregar(pagina);
    await voltarALista(pagina);
    await pagina.getByText('1 de 1').waitFor();

    // The list of points says what waits where; nothing reached the server.
    await pagina.getByRole('link', { name: 'Cestaria · Retirada' }).click();
    await pagina.getByText('6 ações esperando envio').waitFor();
    await pagina.getByText('2 ações esperando envio').waitFor();
    await pagina.getByText('1 ação esperando envio').waitFor();
    await conferirPagina(pagina, ctx, 'retirada-demo-pontos-sem-rede');
    const fila: AcaoNaFila[] = (await lerLoja(pagina, 'fila')).map((a) => a.acao);
    assert.equal(fila.length, 9);
    for (const p of pontos) assert.deepEqual(await acoesNoServidor(palco.amb, p), []);

    // Back online: the list sends every point's queue.
    await ctx.contexto.setOffline(false);
    await pagina
      .getByText(/esperando envio/)
      .first()
      .waitFor({ state: 'detached' });
    assert.deepEqual(await lerLoja(pagina, 'fila'), []);
    const noServidor = (await Promise.all(pontos.map((p) => acoesNoServidor(palco.amb, p)))).flat();
    assert.deepEqual(noServidor.map((a) => a.chave).sort(), fila.map((a) => a.chave).sort(), 'cada ação uma vez');
    assert.deepEqual(
      [...new Set(noServidor.filter((a) => a.tipo === 'retirada').map((a) => a.pedidoid))].sort(),
      pedidos.map((p) => p.id).sort(),
      'todos os pedidos retirados',
    );
    await conferirPagina(pagina, ctx, 'retirada-demo-pontos-enviado');
    await ctx.fechar();

    // The ledger: each payment once, as a payment received, named by its record.
    const pagamentos = noServidor.filter((a) => a.tipo === 'pagamento');
    assert.deepEqual(pagamentos.map((a) => a.valorCentavos).sort(), [2000, 3000, 5000]);
    const movPagamentos = await palco.amb.banco
      .selectFrom('movimentacao')
      .select(['chave', 'sentido', 'valorCentavos', 'usuarioid'])
      .where(
        'chave',
        'in',
        pagamentos.map((a) => `retirada:${a.chave}`),
      )
      .execute();
    assert.equal(movPagamentos.length, 3);
    for (const m of movPagamentos) assert.equal(m.sentido, 'credito');

    // The coordination's view (Cestas, JSON) says the same, with each short's value.
    const coordenacao = navegadorComSessao(palco.amb, ANA.email, ANA.nome);
    const r = await coordenacao.getJson(`${palco.amb.url}/retirada/${palco.cicloId}`);
    assert.equal(r.status, 200, r.texto);
    const resumo = r.json<{
      data: {
        pontos: Array<{
          nome: string;
          pedidos: number;
          retirados: unknown[];
          faltando: unknown[];
          faltas: Array<{ registro: { chave: string }; credito: number }>;
          totais: { dinheiro: { quantos: number; valor: number }; pix: { quantos: number } };
          conflitos: unknown[];
        }>;
      };
    }>().data;
    const porNome = new Map(resumo.pontos.map((p) => [p.nome, p]));
    for (const [p, n] of [
      [sede, 2],
      [escola, 1],
      [feira, 1],
    ] as const) {
      const v = porNome.get(p.nome);
      assert.ok(v !== undefined, p.nome);
      assert.deepEqual([v.pedidos, v.retirados.length, v.faltando.length, v.conflitos.length], [n, n, 0, 0], p.nome);
    }
    const faltasNaVisao = resumo.pontos.flatMap((p) => p.faltas);
    assert.equal(faltasNaVisao.length, 2);
    assert.equal(
      resumo.pontos.reduce((s, p) => s + Math.round(p.totais.dinheiro.valor * 100), 0),
      10_000,
    );
    const valores = await valoresDasFaltas(palco.amb.banco, palco.cicloId, palco.amb.config.taxa);
    assert.deepEqual(
      valores.map((v) => [v.chave, v.consumidorCentavos]).sort(),
      faltasNaVisao.map((f) => [f.registro.chave, Math.round(f.credito * 100)]).sort(),
      'a visão da coordenação e o cálculo das faltas',
    );
    for (const v of valores) assert.ok(v.consumidorCentavos > 0 && v.fornecedores.length > 0, JSON.stringify(v));

    // The closing writes each short's money once: the consumer credited, the suppliers debited.
    const agora = palco.amb.relogio.agora();
    const ana = await palco.amb.banco
      .selectFrom('usuario')
      .select(['id', 'nome', 'email'])
      .where('email', '=', ANA.email)
      .executeTakeFirstOrThrow();
    await fecharCiclo(
      palco.amb.banco,
      { email: ana.email, nome: ana.nome, usuarioid: ana.id, perfil: ['master'], ativo: true },
      palco.cicloId,
      { agora, hoje: diaLocal(agora, palco.amb.config.tz), taxa: palco.amb.config.taxa },
    );
    const movFaltas = await palco.amb.banco
      .selectFrom('movimentacao as m')
      .innerJoin('tipomovimentacao as t', 't.id', 'm.tipoMovimentacaoId')
      .select(['m.chave', 'm.sentido', 'm.valorCentavos', 'm.usuarioid', 'm.descricao'])
      .where('t.nome', '=', TIPO_FALTA)
      .where('m.cicloid', '=', palco.cicloId)
      .execute();
    const esperadas = valores.flatMap((v) => [
      [`retirada:${v.chave}:consumidor`, 'credito', v.consumidorCentavos, v.consumidorId],
      ...v.fornecedores.map((f) => [
        `retirada:${v.chave}:fornecedor:${f.usuarioid}`,
        'debito',
        f.centavos,
        f.usuarioid,
      ]),
    ]);
    assert.deepEqual(movFaltas.map((m) => [m.chave, m.sentido, m.valorCentavos, m.usuarioid]).sort(), esperadas.sort());
    for (const m of movFaltas) assert.match(m.descricao, /^Falta na retirada \(registro #\d+\)/);

    // Each consumer's amount due: what it was, less what they paid at the pickup and what was
    // short. (Someone who also supplied the cycle is paid for it at the closing too: not here.)
    const depois = await devidos();
    const faltaDe = new Map<number, number>();
    for (const v of valores) faltaDe.set(v.pedidoId, (faltaDe.get(v.pedidoId) ?? 0) + v.consumidorCentavos);
    const fornecedores = new Set(
      (
        await palco.amb.banco.selectFrom('oferta').select('usuarioid').where('cicloid', '=', palco.cicloId).execute()
      ).map((o) => o.usuarioid),
    );
    const soConsumidores = pedidos.filter((p) => !fornecedores.has(p.usuarioid));
    assert.ok(
      [...faltaDe.keys()].every((id) => soConsumidores.some((p) => p.id === id)),
      'as duas faltas são de quem só consome',
    );
    for (const p of soConsumidores) {
      const pago = pagamentos.filter((a) => a.pedidoid === p.id).reduce((s, a) => s + (a.valorCentavos ?? 0), 0);
      const era = centavos(antes.get(String(p.id))?.devido ?? '0');
      assert.equal(
        centavos(depois.get(String(p.id))?.devido ?? '0'),
        Math.max(0, era - pago - (faltaDe.get(p.id) ?? 0)),
        `o devido de ${p.nome}`,
      );
    }
  });
});
