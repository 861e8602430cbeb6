import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { abrirBanco, type Banco } from '../../src/db/banco.ts';
import type { Ator } from '../../src/domain/acesso.ts';
import { fecharCiclo, reabrirCiclo } from '../../src/domain/financeiro.ts';
import { Conflito } from '../../src/domain/erros.ts';
import { salvarPedido } from '../../src/domain/pedidos/salvar.ts';
import type { Taxa } from '../../src/domain/pedidos/taxa.ts';
import { sincronizarRetirada, type AcaoRecebida, type ResultadoDaAcao } from '../../src/domain/retirada/acoes.ts';
import { lancarFaltas, valoresDasFaltas } from '../../src/domain/retirada/dinheiro.ts';
import { bancoNovo } from '../helpers/banco.ts';
import { criarUsuario } from '../helpers/fabricas.ts';
import { cenarioDaRetirada, type CenarioDaRetirada } from './cenario.ts';

/**
 * The money of the shorts at pickup, in the domain (docs/dominio.md, "A retirada"): the amounts
 * valoresDasFaltas gives (by hand, from the scenario's prices), and that the closing, a reopening
 * and an adjustment write exactly those, once.
 */

const TZ = 'America/Sao_Paulo';
/** 10 % and R$ 1,00 per order: the fixed part is the order's, never a short's. */
const TAXA: Taxa = { percentualCentesimos: 1000, fixaCentavos: 100 };
const porChave = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

describe('o dinheiro das faltas', () => {
  let banco: Banco;
  let master: Ator;
  const agora = new Date();
  before(async () => {
    banco = abrirBanco(await bancoNovo());
    const m = await criarUsuario(banco, { perfil: ['master'], nome: 'Mestra da Retirada' });
    master = { email: m.email, nome: m.nome, usuarioid: m.id, perfil: ['master'], ativo: true };
  });
  after(() => banco.destroy());

  const falta = (
    pedidoId: number,
    pedidoProdutoId: number,
    quantidadeMilesimos: number,
    produtoId: number | null = null,
  ): AcaoRecebida => ({
    chave: randomUUID(),
    tipo: 'falta',
    pedidoId,
    pedidoProdutoId,
    produtoId,
    quantidadeMilesimos,
    substituto: null,
    valorCentavos: null,
    forma: null,
    texto: null,
    feitoEm: agora,
  });

  const enviar = (c: CenarioDaRetirada, acoes: AcaoRecebida[]): Promise<ResultadoDaAcao[]> =>
    sincronizarRetirada(
      banco,
      { ator: master, perfis: master.perfil },
      { cicloid: c.cicloid, pontoEntregaId: c.sede.id, dispositivo: 'aparelho-de-teste', acoes },
      { agora, tz: TZ, taxa: TAXA },
    );

  /** The movements of the cycle's shorts, by key (sorted here: the dialects collate differently). */
  async function movimentosDasFaltas(cicloid: number) {
    const linhas = await banco
      .selectFrom('movimentacao as m')
      .innerJoin('tipomovimentacao as t', 't.id', 'm.tipoMovimentacaoId')
      .select(['m.chave', 'm.usuarioid', 'm.sentido', 'm.valorCentavos', 'm.descricao', 't.nome as tipo'])
      .where('m.cicloid', '=', cicloid)
      .where('m.chave', 'like', 'retirada:%')
      .execute();
    return linhas.sort((a, b) => porChave(a.chave ?? '', b.chave ?? ''));
  }

  test('extra: o fornecedor é a última linha que a alocação usou, para trás; item da cesta: o preço da oferta da composição; a taxa é a percentual, sem a fixa', async () => {
    const c = await cenarioDaRetirada(banco, { agora });
    const acoes = [
      // Sérgio's 2 kg of the extra: Ana delivered the last 3 kg of the 23 confirmed.
      falta(c.sergio.pedidoId, c.sergio.linhaExtra, 2000),
      // Rita's 2 kg: 1 kg left of Ana's, then Beto's.
      falta(c.rita.pedidoId, c.rita.linhaExtra, 2000),
      // Rita's basket, 1 maço of lettuce: Carla's line at R$ 2,50.
      falta(c.rita.pedidoId, c.rita.linhaCesta, 1000, c.alface.id),
      // Sérgio's 2 baskets, 3 kg of tomatoes of the 4: Ana's line at R$ 4,00.
      falta(c.sergio.pedidoId, c.sergio.linhaCesta, 3000, c.tomate.id),
    ];
    const r = await enviar(c, acoes);
    assert.deepEqual(
      r.map((x) => x.estado),
      ['aplicada', 'aplicada', 'aplicada', 'aplicada'],
      JSON.stringify(r),
    );
    const valores = await valoresDasFaltas(banco, c.cicloid, TAXA);
    assert.deepEqual(
      valores.map((v) => ({
        chave: v.chave,
        pedidoId: v.pedidoId,
        consumidorId: v.consumidorId,
        produto: v.produto,
        valor: v.valorCentavos,
        taxa: v.taxaCentavos,
        consumidor: v.consumidorCentavos,
        fornecedores: v.fornecedores,
      })),
      [
        {
          chave: acoes[0]?.chave,
          pedidoId: c.sergio.pedidoId,
          consumidorId: c.sergio.usuarioid,
          produto: c.tomate.nome,
          valor: 1200,
          taxa: 120,
          consumidor: 1320,
          fornecedores: [{ usuarioid: c.ana.id, centavos: 800 }],
        },
        {
          chave: acoes[1]?.chave,
          pedidoId: c.rita.pedidoId,
          consumidorId: c.rita.usuarioid,
          produto: c.tomate.nome,
          valor: 1200,
          taxa: 120,
          consumidor: 1320,
          fornecedores: [
            { usuarioid: c.ana.id, centavos: 400 },
            { usuarioid: c.beto.id, centavos: 300 },
          ],
        },
        {
          chave: acoes[2]?.chave,
          pedidoId: c.rita.pedidoId,
          consumidorId: c.rita.usuarioid,
          produto: c.alface.nome,
          valor: 250,
          taxa: 25,
          consumidor: 275,
          fornecedores: [{ usuarioid: c.carla.id, centavos: 250 }],
        },
        {
          chave: acoes[3]?.chave,
          pedidoId: c.sergio.pedidoId,
          consumidorId: c.sergio.usuarioid,
          produto: c.tomate.nome,
          valor: 1200,
          taxa: 120,
          consumidor: 1320,
          fornecedores: [{ usuarioid: c.ana.id, centavos: 1200 }],
        },
      ],
    );
    // Nothing is in the ledger while the cycle is open: the closing writes it.
    assert.deepEqual(await movimentosDasFaltas(c.cicloid), []);
  });

  test('um extra comprado num mercado: a taxa da falta é a do mercado na linha, arredondada sozinha', async () => {
    const c = await cenarioDaRetirada(banco, { agora });
    const iso = new Date().toISOString();
    const conta = await banco
      .insertInto('appuser')
      .values({
        providerId: `teste-${randomUUID()}`,
        email: `${randomUUID()}@teste.org`,
        emailChave: `${randomUUID()}@teste.org`,
        name: 'Admin do Mercado',
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const mercado = await banco
      .insertInto('mercado')
      .values({
        nome: `Feira ${c.cicloid}`,
        tipo: 'venda_direta',
        taxaAdministrativaCentesimos: 750,
        ativo: true,
        adminId: conta.id,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    // Sérgio's tomatoes were bought in a market with a 7,5 % fee.
    await banco
      .updateTable('pedidoproduto')
      .set({ mercadoId: mercado.id, taxaCentesimos: 750 })
      .where('id', '=', c.sergio.linhaExtra)
      .execute();
    const [r] = await enviar(c, [falta(c.sergio.pedidoId, c.sergio.linhaExtra, 1500)]);
    assert.equal(r?.estado, 'aplicada', JSON.stringify(r));
    const [v] = await valoresDasFaltas(banco, c.cicloid, TAXA);
    // 1,5 kg × R$ 6,00 = R$ 9,00; 7,5 % of it = 67,5 centavos, rounded half up to 68.
    assert.deepEqual([v?.valorCentavos, v?.taxaCentavos, v?.consumidorCentavos], [900, 68, 968]);
    assert.deepEqual(v?.fornecedores, [{ usuarioid: c.ana.id, centavos: 600 }]);
  });

  test('o fechamento lança as faltas registradas antes dele; reabrir e fechar de novo não as lança de novo', async () => {
    const c = await cenarioDaRetirada(banco, { agora });
    const acoes = [
      falta(c.sergio.pedidoId, c.sergio.linhaExtra, 2000),
      falta(c.rita.pedidoId, c.rita.linhaCesta, 1000, c.alface.id),
    ];
    await enviar(c, acoes);
    const opcoes = { agora, hoje: c.hoje, taxa: TAXA };
    await fecharCiclo(banco, master, c.cicloid, opcoes);
    const valores = await valoresDasFaltas(banco, c.cicloid, TAXA);
    const esperado = valores
      .flatMap((v) => [
        {
          chave: `retirada:${v.chave}:consumidor`,
          usuarioid: v.consumidorId,
          sentido: 'credito',
          valor: v.consumidorCentavos,
        },
        ...v.fornecedores.map((f) => ({
          chave: `retirada:${v.chave}:fornecedor:${f.usuarioid}`,
          usuarioid: f.usuarioid,
          sentido: 'debito',
          valor: f.centavos,
        })),
      ])
      .sort((a, b) => porChave(a.chave, b.chave));
    const lancados = await movimentosDasFaltas(c.cicloid);
    assert.deepEqual(
      lancados.map((m) => ({ chave: m.chave, usuarioid: m.usuarioid, sentido: m.sentido, valor: m.valorCentavos })),
      esperado,
    );
    assert.ok(lancados.every((m) => m.tipo === 'Falta na retirada'));
    const [primeira] = await banco
      .selectFrom('acaoretirada')
      .select('id')
      .where('chave', '=', acoes[0]?.chave ?? '')
      .execute();
    assert.ok(
      lancados.some((m) => m.descricao === `Falta na retirada (registro #${primeira?.id}): ${c.tomate.nome}, 2 kg`),
      JSON.stringify(lancados.map((m) => m.descricao)),
    );

    await reabrirCiclo(banco, master, c.cicloid, 'Conferir a entrega', agora);
    const segundo = await fecharCiclo(banco, master, c.cicloid, opcoes);
    assert.equal(segundo.novas, 0, 'nada mudou: nada novo no livro');
    assert.equal((await movimentosDasFaltas(c.cicloid)).length, lancados.length);
    // And asked directly, the shorts already written are not written again.
    assert.equal(await lancarFaltas(banco, master, c.cicloid, opcoes), 0);
  });

  test('depois do fechamento, a falta entra no livro na hora, como ajuste, com os mesmos valores', async () => {
    const c = await cenarioDaRetirada(banco, { agora });
    await fecharCiclo(banco, master, c.cicloid, { agora, hoje: c.hoje, taxa: TAXA });
    assert.deepEqual(await movimentosDasFaltas(c.cicloid), []);
    const acao = falta(c.rita.pedidoId, c.rita.linhaExtra, 2500);
    const [r] = await enviar(c, [acao]);
    assert.equal(r?.estado, 'aplicada', JSON.stringify(r));
    const [v] = await valoresDasFaltas(banco, c.cicloid, TAXA);
    // 2,5 kg × R$ 6,00 = R$ 15,00 and 10 %; Ana delivered the last 3 kg: 2,5 × R$ 4,00.
    assert.deepEqual([v?.consumidorCentavos, v?.fornecedores], [1650, [{ usuarioid: c.ana.id, centavos: 1000 }]]);
    assert.deepEqual(
      (await movimentosDasFaltas(c.cicloid)).map((m) => [m.chave, m.usuarioid, m.sentido, m.valorCentavos]),
      [
        [`retirada:${acao.chave}:consumidor`, c.rita.usuarioid, 'credito', 1650],
        [`retirada:${acao.chave}:fornecedor:${c.ana.id}`, c.ana.id, 'debito', 1000],
      ],
    );
  });

  test('um pedido com registro da retirada não muda mais: salvar dá 409 e as linhas ficam como estavam', async () => {
    const c = await cenarioDaRetirada(banco, { agora });
    const [r] = await enviar(c, [falta(c.rita.pedidoId, c.rita.linhaExtra, 1000)]);
    assert.equal(r?.estado, 'aplicada');
    const linhas = () =>
      banco
        .selectFrom('pedidoproduto')
        .select(['id', 'quantidadeMilesimos'])
        .where('pedidoid', '=', c.rita.pedidoId)
        .orderBy('id')
        .execute();
    const antes = await linhas();
    await assert.rejects(
      salvarPedido(
        banco,
        master,
        {
          usuarioid: c.rita.usuarioid,
          cicloid: c.cicloid,
          pontoEntregaId: c.sede.id,
          linhas: [
            { cicloCestaId: c.cicloCestaId, cicloProdutoId: null, quantidadeMilesimos: 1000, campo: 'produtos[0]' },
          ],
        },
        { agora, hoje: c.hoje, taxa: TAXA },
      ),
      (e: unknown) =>
        e instanceof Conflito && e.codigo === 'RETIRADA_REGISTRADA' && /registros da retirada/.test(e.message),
    );
    assert.deepEqual(await linhas(), antes);
  });
});
