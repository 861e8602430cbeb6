import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { abrirBanco, type Banco } from '../../src/db/banco.ts';
import type { Ator } from '../../src/domain/acesso.ts';
import type { Unidade } from '../../src/domain/catalogo.ts';
import { ErroDominio } from '../../src/domain/erros.ts';
import {
  apagarProdutoDaOferta,
  ofertaDe,
  ofertasDoFornecedor,
  salvarOferta,
  type AlvoNaOferta,
  type Oferta,
} from '../../src/domain/ofertas.ts';
import { falhaDe } from '../../src/http/erros.ts';
import { bancoNovo } from '../helpers/banco.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { criarMercadoNoBanco } from '../mercados/apoio.ts';

/**
 * What holds a supplier's offer line (DOMAIN.md, Offer), called as the edges call the use cases:
 * baskets, lots and the extras attributed to it (classic, or released to a venda_direta market).
 * A line that backs extras cannot drop below them, leave the offer or go back to draft while other
 * lines would take its extras over; the refusals name what holds the line, word for word; the
 * checks cost queries only for the lines a save lowers, reprices, takes out or sends to draft.
 * Every refusal is tried later than the setup (so a write would show in `updatedAt`) and leaves
 * the offers exactly as they were.
 */

// The offer window of DATAS_PADRAO (1–4 March): the setup writes on the 2nd, the attempts on the 3rd.
const NA_OFERTA = { agora: new Date('2026-03-02T15:00:00Z'), hoje: '2026-03-02' };
const MAIS_TARDE = { agora: new Date('2026-03-03T15:00:00Z'), hoje: '2026-03-03' };
/** amarrasDasLinhas: the compositions, the lots, the product's offered lines and its published extras. */
const CONSULTAS_DAS_AMARRAS = 4;
/** ...and one more for the names of the markets extras were released to, when there are any. */
const CONSULTA_DOS_MERCADOS = 1;

interface Recusa {
  readonly status: number;
  readonly codigo: string;
  readonly mensagem: string;
  readonly detalhes: Readonly<Record<string, unknown>> | undefined;
}

/** The refusal as the edges answer it (status, code, message, details). */
async function recusa(p: Promise<unknown>): Promise<Recusa> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ErroDominio, `esperava um erro de domínio, veio ${String(e)}`);
    const f = falhaDe(e);
    return { status: f.status, codigo: f.codigo, mensagem: f.mensagem, detalhes: f.detalhes };
  }
  assert.fail('esperava uma recusa');
}

type Fornecedor = Ator & { readonly usuarioid: number };
/** [produtoid, quantity in thousandths, centavos], optionally with the unit the person wrote. */
type Item = readonly [number, number, number, Unidade?];

describe('o que segura uma linha da oferta', () => {
  let banco: Banco;
  let consultas = 0;
  let donoDosMercados = 0;
  let ponto = 0;
  let cenarios = 0;

  before(async () => {
    banco = abrirBanco(await bancoNovo(), {
      aoConsultar: () => {
        consultas++;
      },
    });
    ponto = (await criarPonto(banco)).id;
    const iso = NA_OFERTA.agora.toISOString();
    donoDosMercados = (
      await banco
        .insertInto('appuser')
        .values({
          providerId: 'idp|dono-dos-mercados',
          email: 'dono@mercados.org',
          emailChave: 'dono@mercados.org',
          name: 'Dono',
          avatar: null,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  after(() => banco.destroy());

  const iso = NA_OFERTA.agora.toISOString();
  /** A tag that keeps each scenario's names apart (products, people and markets share the database). */
  const novoCenario = () => `c${++cenarios}`;
  const fornecedor = async (nome: string): Promise<Fornecedor> => {
    const u = await criarUsuario(banco, { perfil: ['fornecedor'], nome });
    return { email: u.email, nome, usuarioid: u.id, perfil: ['fornecedor'], ativo: true };
  };
  const kg = (nome: string) => criarProduto(banco, { nome, unidade: 'kg' });
  const linhas = (itens: readonly Item[]) =>
    itens.map(([produtoid, quantidadeMilesimos, valorCentavos, unidadeEscrita], i) => ({
      produtoid,
      quantidadeMilesimos,
      valorCentavos,
      ...(unidadeEscrita === undefined ? {} : { unidadeEscrita }),
      campo: `produtos.${i}`,
    }));
  const ofertar = async (
    quem: Fornecedor,
    cicloid: number,
    itens: readonly Item[],
    finalizar = true,
    quando = NA_OFERTA,
  ): Promise<Oferta> =>
    (await salvarOferta(banco, quem, { usuarioid: null, cicloid, linhas: linhas(itens) }, { ...quando, finalizar }))
      .oferta;
  const apagar = (quem: Fornecedor, alvo: AlvoNaOferta) => apagarProdutoDaOferta(banco, quem, alvo, MAIS_TARDE);
  const linhaDe = (o: Oferta, produtoid: number): number => {
    const l = o.produtos.find((p) => p.produtoid === produtoid);
    assert.ok(l !== undefined, `a oferta não tem o produto ${produtoid}`);
    return l.ofertaProdutoId;
  };
  /** Extras of a product published in the cycle: classic (mercadoId null) or released to a market. */
  const publicar = (cicloid: number, produtoId: number, quantidadeMilesimos: number, mercadoId: number | null = null) =>
    banco
      .insertInto('cicloproduto')
      .values({
        cicloid,
        produtoId,
        quantidadeMilesimos,
        valorCentavos: 900,
        mercadoId,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
  /** A composition of `quantidadeCestas` baskets: [ofertaProdutoId, thousandths per basket]. */
  const compor = async (
    cicloCestaId: number,
    quantidadeCestas: number,
    itens: ReadonlyArray<readonly [number, number]>,
  ) => {
    const c = await banco
      .insertInto('composicao')
      .values({ cicloCestaId, quantidadeCestas, createdAt: iso, updatedAt: iso })
      .returning('id')
      .executeTakeFirstOrThrow();
    await banco
      .insertInto('composicaoproduto')
      .values(
        itens.map(([ofertaProdutoId, mil]) => ({
          composicaoid: c.id,
          ofertaProdutoId,
          quantidadePorCestaMilesimos: mil,
          unidade: 'kg',
          createdAt: iso,
          updatedAt: iso,
        })),
      )
      .execute();
  };
  /** A lot of a lote market for a named buyer: [ofertaProdutoId, thousandths]. */
  const lote = async (
    cicloid: number,
    mercadoId: number,
    comprador: string,
    itens: ReadonlyArray<readonly [number, number]>,
  ) => {
    const l = await banco
      .insertInto('lote')
      .values({
        cicloid,
        mercadoId,
        comprador,
        compradorUsuarioId: null,
        pontoEntregaId: ponto,
        valorAlvoCentavos: 10_000,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await banco
      .insertInto('loteproduto')
      .values(
        itens.map(([ofertaProdutoId, quantidadeMilesimos]) => ({
          loteid: l.id,
          ofertaProdutoId,
          quantidadeMilesimos,
          createdAt: iso,
          updatedAt: iso,
        })),
      )
      .execute();
  };
  /** Every offer of the cycle with its lines, as stored (updatedAt included). */
  const gravado = async (cicloid: number) =>
    (
      await banco
        .selectFrom('oferta as o')
        .leftJoin('ofertaproduto as op', 'op.ofertaid', 'o.id')
        .select([
          'o.id',
          'o.usuarioid',
          'o.finalizada',
          'o.finalizadaEm',
          'o.updatedAt',
          'op.id as linha',
          'op.produtoid',
          'op.quantidadeMilesimos',
          'op.valorCentavos',
          'op.updatedAt as linhaAtualizada',
        ])
        .where('o.cicloid', '=', cicloid)
        .orderBy('o.id')
        .orderBy('op.id')
        .execute()
    ).map((r) => ({ ...r, finalizada: Boolean(r.finalizada) }));
  /** A refused attempt: its refusal, once it is checked that nothing of the cycle's offers changed. */
  const semGravar = async (cicloid: number, tentativa: () => Promise<unknown>): Promise<Recusa> => {
    const antes = await gravado(cicloid);
    const r = await recusa(tentativa());
    assert.deepEqual(await gravado(cicloid), antes, 'nada foi gravado');
    return r;
  };
  /** The queries one call makes. */
  const contar = async (f: () => Promise<unknown>): Promise<number> => {
    const antes = consultas;
    await f();
    return consultas - antes;
  };
  /** What a supplier's offer holds, product by product: [produtoid, thousandths, centavos], and whether final. */
  const resumo = async (cicloid: number, quem: Fornecedor) => {
    const o = await ofertaDe(banco, cicloid, quem.usuarioid);
    return {
      finalizada: o.finalizada,
      linhas: o.produtos
        .map((p) => [p.produtoid, p.quantidadeMilesimos, p.valorCentavos])
        .sort((a, b) => Number(a[0]) - Number(b[0])),
    };
  };
  const ordenadas = (...ls: Array<[number, number, number]>) => ls.sort((a, b) => a[0] - b[0]);

  test('extras do ciclo: a linha que os sustenta não baixa deles, não sai, não volta ao rascunho nem é apagada; no limite, vale', async () => {
    const s = novoCenario();
    const cicloid = (await criarCiclo(banco, { datas: DATAS_PADRAO })).id;
    const tomate = await kg(`Tomate ${s}`);
    const cebola = await kg(`Cebola ${s}`);
    const xique = await fornecedor(`Sítio Xique ${s}`);
    const ype = await fornecedor(`Chácara Ypê ${s}`);
    // 12,5 kg of classic extras: the cheapest line (Xique's, R$ 3,00, 20 kg) takes them all, and
    // Ypê's dearer 30 kg could cover them too, so the capacity rule alone would let Xique go.
    const dela = await ofertar(xique, cicloid, [
      [tomate.id, 20_000, 300],
      [cebola.id, 5_000, 200],
    ]);
    await ofertar(ype, cicloid, [[tomate.id, 30_000, 500]]);
    await publicar(cicloid, tomate.id, 12_500);
    const linhaTomate = linhaDe(dela, tomate.id);
    const linhaCebola = linhaDe(dela, cebola.id);
    const sustenta = (ficaria: string): Recusa => ({
      status: 409,
      codigo: 'LINHA_ALOCADA',
      mensagem: `${tomate.nome} de ${xique.nome} sustenta 12,5 kg nos extras do ciclo: a oferta não pode ficar com menos disso (ficaria com ${ficaria}); ajuste os extras antes`,
      detalhes: { ofertaProdutoId: linhaTomate, cestas: [], extras: ['nos extras do ciclo'], extrasMil: 12_500 },
    });
    const tentar = (itens: readonly Item[], finalizar = true) =>
      semGravar(cicloid, () => ofertar(xique, cicloid, itens, finalizar, MAIS_TARDE));

    assert.deepEqual(
      await tentar([
        [tomate.id, 12_499, 300],
        [cebola.id, 5_000, 200],
      ]),
      sustenta('12,499 kg'),
      'um milésimo abaixo dos extras',
    );
    assert.deepEqual(await tentar([[cebola.id, 5_000, 200]]), sustenta('0 kg'), 'fora da oferta');
    assert.deepEqual(
      await tentar(
        [
          [tomate.id, 20_000, 300],
          [cebola.id, 5_000, 200],
        ],
        false,
      ),
      sustenta('0 kg'),
      'de volta ao rascunho',
    );
    for (const alvo of [{ cicloid, produtoid: tomate.id, usuarioid: null }, { ofertaProdutoId: linhaTomate }])
      assert.deepEqual(await semGravar(cicloid, () => apagar(xique, alvo)), sustenta('0 kg'), JSON.stringify(alvo));
    // Removing the free line sends the offer back to draft, which leaves the extras without the tomato line.
    assert.deepEqual(
      await semGravar(cicloid, () => apagar(xique, { ofertaProdutoId: linhaCebola })),
      sustenta('0 kg'),
      'apagar a outra linha',
    );
    assert.deepEqual(
      await tentar([
        [tomate.id, 20_000, 310],
        [cebola.id, 5_000, 200],
      ]),
      {
        status: 409,
        codigo: 'PRECO_FIXO',
        mensagem: `O preço de ${tomate.nome} está fixo em R$ 3,00: a linha já está nos extras do ciclo, custeados e vendidos por este preço`,
        detalhes: { ofertaProdutoId: linhaTomate, cestas: [], extras: ['nos extras do ciclo'], valor: 3 },
      },
    );

    // Down to 15 kg it still carries the 12,5 kg: accepted, and checking it costs the four queries
    // of what holds the line (no market was released any extra, so no market is looked up).
    const igual = await contar(() =>
      ofertar(xique, cicloid, [
        [tomate.id, 20_000, 300],
        [cebola.id, 5_000, 200],
      ]),
    );
    const baixa = await contar(() =>
      ofertar(xique, cicloid, [
        [tomate.id, 15_000, 300],
        [cebola.id, 5_000, 200],
      ]),
    );
    assert.equal(baixa - igual, CONSULTAS_DAS_AMARRAS, `igual: ${igual} consultas; baixando: ${baixa}`);
    // Exactly the extras is enough.
    await ofertar(xique, cicloid, [
      [tomate.id, 12_500, 300],
      [cebola.id, 5_000, 200],
    ]);
    assert.deepEqual(await resumo(cicloid, xique), {
      finalizada: true,
      linhas: ordenadas([tomate.id, 12_500, 300], [cebola.id, 5_000, 200]),
    });
    // Ypê's line backs none of them: it leaves freely, Xique's covers the extras.
    await ofertar(ype, cicloid, []);
    assert.deepEqual(await resumo(cicloid, ype), { finalizada: true, linhas: [] });
  });

  test('venda direta: a recusa diz o mercado de cada produto liberado; o clássico diz extras do ciclo', async () => {
    const s = novoCenario();
    const cicloid = (await criarCiclo(banco, { datas: DATAS_PADRAO })).id;
    // The market with the lower id gets the potatoes, the other one the lettuce.
    const praca = await criarMercadoNoBanco(banco, { adminId: donoDosMercados, nome: `Feira da Praça ${s}` });
    const porto = await criarMercadoNoBanco(banco, { adminId: donoDosMercados, nome: `Feira do Porto ${s}` });
    assert.ok(praca.id < porto.id);
    const alface = await kg(`Alface ${s}`);
    const batata = await kg(`Batata ${s}`);
    const couve = await kg(`Couve ${s}`);
    const xique = await fornecedor(`Sítio Xique ${s}`);
    const ype = await fornecedor(`Chácara Ypê ${s}`);
    const dela = await ofertar(xique, cicloid, [
      [alface.id, 10_000, 200],
      [batata.id, 10_000, 300],
      [couve.id, 8_000, 150],
    ]);
    await ofertar(ype, cicloid, [
      [alface.id, 10_000, 400],
      [batata.id, 10_000, 400],
      [couve.id, 10_000, 400],
    ]);
    await publicar(cicloid, alface.id, 4_000, porto.id);
    await publicar(cicloid, batata.id, 6_000, praca.id);
    await publicar(cicloid, couve.id, 2_000);
    const sustenta = (
      produto: { id: number; nome: string },
      mil: number,
      quantos: string,
      onde: string,
      ficaria: string,
    ): Recusa => ({
      status: 409,
      codigo: 'LINHA_ALOCADA',
      mensagem: `${produto.nome} de ${xique.nome} sustenta ${quantos} ${onde}: a oferta não pode ficar com menos disso (ficaria com ${ficaria}); ajuste os extras antes`,
      detalhes: { ofertaProdutoId: linhaDe(dela, produto.id), cestas: [], extras: [onde], extrasMil: mil },
    });
    const tudo: readonly Item[] = [
      [alface.id, 10_000, 200],
      [batata.id, 10_000, 300],
      [couve.id, 8_000, 150],
    ];
    const tentar = (itens: readonly Item[], finalizar = true) =>
      semGravar(cicloid, () => ofertar(xique, cicloid, itens, finalizar, MAIS_TARDE));

    // Back to draft, every line stops backing its extras: the first by name is refused.
    assert.deepEqual(
      await tentar(tudo, false),
      sustenta(alface, 4_000, '4 kg', `na venda direta de ${porto.nome}`, '0 kg'),
    );
    assert.deepEqual(
      await tentar([
        [alface.id, 10_000, 200],
        [batata.id, 5_999, 300],
        [couve.id, 8_000, 150],
      ]),
      sustenta(batata, 6_000, '6 kg', `na venda direta de ${praca.nome}`, '5,999 kg'),
    );
    assert.deepEqual(
      await tentar([
        [alface.id, 10_000, 200],
        [batata.id, 10_000, 300],
        [couve.id, 1_999, 150],
      ]),
      sustenta(couve, 2_000, '2 kg', 'nos extras do ciclo', '1,999 kg'),
    );
    // Taking the potatoes out sends the offer back to draft too: the lettuce is the first refused.
    assert.deepEqual(
      await semGravar(cicloid, () => apagar(xique, { cicloid, produtoid: batata.id, usuarioid: null })),
      sustenta(alface, 4_000, '4 kg', `na venda direta de ${porto.nome}`, '0 kg'),
    );
    assert.deepEqual(
      await tentar([
        [alface.id, 10_000, 250],
        [batata.id, 10_000, 300],
        [couve.id, 8_000, 150],
      ]),
      {
        status: 409,
        codigo: 'PRECO_FIXO',
        mensagem: `O preço de ${alface.nome} está fixo em R$ 2,00: a linha já está na venda direta de ${porto.nome}, custeados e vendidos por este preço`,
        detalhes: {
          ofertaProdutoId: linhaDe(dela, alface.id),
          cestas: [],
          extras: [`na venda direta de ${porto.nome}`],
          valor: 2,
        },
      },
    );

    // Lowering a line whose extras were released to a market looks that market's name up (one
    // query more); a classic extra's line needs none.
    const igual = await contar(() => ofertar(xique, cicloid, tudo));
    const alfaceBaixa = await contar(() =>
      ofertar(xique, cicloid, [
        [alface.id, 8_000, 200],
        [batata.id, 10_000, 300],
        [couve.id, 8_000, 150],
      ]),
    );
    const couveBaixa = await contar(() =>
      ofertar(xique, cicloid, [
        [alface.id, 8_000, 200],
        [batata.id, 10_000, 300],
        [couve.id, 5_000, 150],
      ]),
    );
    assert.deepEqual(
      [alfaceBaixa - igual, couveBaixa - igual],
      [CONSULTAS_DAS_AMARRAS + CONSULTA_DOS_MERCADOS, CONSULTAS_DAS_AMARRAS],
      `igual: ${igual}; alface: ${alfaceBaixa}; couve: ${couveBaixa}`,
    );
    // Exactly what each market was released (and the classic extra) is enough, all in one save.
    await ofertar(xique, cicloid, [
      [alface.id, 4_000, 200],
      [batata.id, 6_000, 300],
      [couve.id, 2_000, 150],
    ]);
    assert.deepEqual(await resumo(cicloid, xique), {
      finalizada: true,
      linhas: ordenadas([alface.id, 4_000, 200], [batata.id, 6_000, 300], [couve.id, 2_000, 150]),
    });
  });

  test('cestas, lotes e extras: cada recusa diz o que segura a linha, com as quantidades certas', async () => {
    const s = novoCenario();
    const cestaA = await criarCesta(banco, { nome: `Cesta A ${s}` });
    const cestaB = await criarCesta(banco, { nome: `Cesta B ${s}` });
    const ciclo = await criarCiclo(banco, {
      datas: DATAS_PADRAO,
      cestas: [
        { cestaId: cestaA.id, quantidadeCestas: 10 },
        { cestaId: cestaB.id, quantidadeCestas: 10 },
      ],
    });
    const cicloid = ciclo.id;
    const [cicloCestaA = 0, cicloCestaB = 0] = ciclo.cicloCestas;
    const pnae = await criarMercadoNoBanco(banco, { adminId: donoDosMercados, nome: `PNAE ${s}`, tipo: 'lote' });
    const escola = `Escola Estadual (${pnae.nome})`;
    const tomate = await kg(`Tomate ${s}`);
    const lentilha = await kg(`Lentilha ${s}`);
    const milho = await kg(`Milho ${s}`);
    const xique = await fornecedor(`Sítio Xique ${s}`);
    const ype = await fornecedor(`Chácara Ypê ${s}`);
    const dela = await ofertar(xique, cicloid, [
      [tomate.id, 20_000, 300],
      [lentilha.id, 6_000, 250],
      [milho.id, 10_000, 100],
    ]);
    await ofertar(ype, cicloid, [[tomate.id, 5_000, 500]]);
    const linhaTomate = linhaDe(dela, tomate.id);
    const linhaLentilha = linhaDe(dela, lentilha.id);
    const linhaMilho = linhaDe(dela, milho.id);
    // Tomato: 5 baskets A × 2 kg and 3 baskets B × 0,5 kg (11,5 kg), 5 kg to the school's lot: 16,5 kg
    // used, 3,5 kg left, of which the 3 kg of classic extras (Ypê's 5 kg, dearer, back none).
    // Lentils: only in the lot (2,5 kg). Corn: only in basket A (5 × 1 kg).
    await compor(cicloCestaA, 5, [
      [linhaTomate, 2_000],
      [linhaMilho, 1_000],
    ]);
    await compor(cicloCestaB, 3, [[linhaTomate, 500]]);
    await lote(cicloid, pnae.id, 'Escola Estadual', [
      [linhaTomate, 5_000],
      [linhaLentilha, 2_500],
    ]);
    await publicar(cicloid, tomate.id, 3_000);
    const tentar = (itens: readonly Item[], finalizar = true) =>
      semGravar(cicloid, () => ofertar(xique, cicloid, itens, finalizar, MAIS_TARDE));
    const com = (t: number, pt: number, l: number, pl: number, m: number, pm: number): Item[] => [
      [tomate.id, t, pt],
      [lentilha.id, l, pl],
      [milho.id, m, pm],
    ];
    const tomateSegurado = { cestas: [cestaA.nome, cestaB.nome], lotes: [escola], extras: ['nos extras do ciclo'] };

    assert.deepEqual(await tentar(com(20_000, 350, 6_000, 250, 10_000, 100)), {
      status: 409,
      codigo: 'PRECO_FIXO',
      mensagem: `O preço de ${tomate.nome} está fixo em R$ 3,00: a linha já está nas cestas ${cestaA.nome}, ${cestaB.nome}, no lote de ${escola} e nos extras do ciclo, custeados e vendidos por este preço`,
      detalhes: { ofertaProdutoId: linhaTomate, ...tomateSegurado, valor: 3 },
    });
    assert.deepEqual(await tentar(com(20_000, 300, 6_000, 250, 10_000, 120)), {
      status: 409,
      codigo: 'PRECO_FIXO',
      mensagem: `O preço de ${milho.nome} está fixo em R$ 1,00: a linha já está na cesta ${cestaA.nome}, custeados e vendidos por este preço`,
      detalhes: { ofertaProdutoId: linhaMilho, cestas: [cestaA.nome], valor: 1 },
    });
    // 15 kg against 16,5 kg used: 1,5 kg short.
    assert.deepEqual(await tentar(com(15_000, 300, 6_000, 250, 10_000, 100)), {
      status: 409,
      codigo: 'CAPACIDADE_EXCEDIDA',
      mensagem: `Falta 1,5 kg de ${tomate.nome} de ${xique.nome}: ofertado 15 kg (a linha está nas cestas ${cestaA.nome}, ${cestaB.nome}, no lote de ${escola} e nos extras do ciclo), nas cestas 11,5 kg, nos lotes 5 kg`,
      detalhes: {
        ofertaProdutoId: linhaTomate,
        ...tomateSegurado,
        produto: tomate.nome,
        fornecedor: xique.nome,
        faltando: 1.5,
      },
    });
    // 2 kg of lentils against the lot's 2,5 kg.
    assert.deepEqual(await tentar(com(20_000, 300, 2_000, 250, 10_000, 100)), {
      status: 409,
      codigo: 'CAPACIDADE_EXCEDIDA',
      mensagem: `Falta 0,5 kg de ${lentilha.nome} de ${xique.nome}: ofertado 2 kg (a linha está no lote de ${escola}), nos lotes 2,5 kg`,
      detalhes: {
        ofertaProdutoId: linhaLentilha,
        cestas: [],
        lotes: [escola],
        produto: lentilha.nome,
        fornecedor: xique.nome,
        faltando: 0.5,
      },
    });
    // What baskets and lots use is covered, but not the extras on top of it: Ypê could cover them,
    // yet the line that backs them cannot hand them over.
    const sustenta = (ficaria: string): Recusa => ({
      status: 409,
      codigo: 'LINHA_ALOCADA',
      mensagem: `${tomate.nome} de ${xique.nome} sustenta 3 kg nos extras do ciclo: a oferta não pode ficar com menos disso (ficaria com ${ficaria}); ajuste os extras antes`,
      detalhes: { ofertaProdutoId: linhaTomate, ...tomateSegurado, extrasMil: 3_000 },
    });
    assert.deepEqual(await tentar(com(16_500, 300, 6_000, 250, 10_000, 100)), sustenta('0 kg'));
    assert.deepEqual(await tentar(com(19_499, 300, 6_000, 250, 10_000, 100)), sustenta('2,999 kg'));
    assert.deepEqual(await tentar(com(20_000, 300, 6_000, 250, 10_000, 100), false), sustenta('0 kg'));
    // Taking a line out names the baskets and the lot (the extras are the write's own check).
    assert.deepEqual(
      await tentar([
        [lentilha.id, 6_000, 250],
        [milho.id, 10_000, 100],
      ]),
      {
        status: 409,
        codigo: 'LINHA_ALOCADA',
        mensagem: `${tomate.nome} já está nas cestas ${cestaA.nome}, ${cestaB.nome} e no lote de ${escola}: ajuste-os antes de tirá-lo da oferta`,
        detalhes: { ofertaProdutoId: linhaTomate, cestas: [cestaA.nome, cestaB.nome], lotes: [escola] },
      },
    );
    assert.deepEqual(await semGravar(cicloid, () => apagar(xique, { ofertaProdutoId: linhaLentilha })), {
      status: 409,
      codigo: 'LINHA_ALOCADA',
      mensagem: `${lentilha.nome} já está no lote de ${escola}: ajuste-os antes de tirá-lo da oferta`,
      detalhes: { ofertaProdutoId: linhaLentilha, cestas: [], lotes: [escola] },
    });
    assert.deepEqual(await semGravar(cicloid, () => apagar(xique, { cicloid, produtoid: milho.id, usuarioid: null })), {
      status: 409,
      codigo: 'LINHA_ALOCADA',
      mensagem: `${milho.nome} já está em cestas (${cestaA.nome}): ajuste a composição antes de tirá-lo da oferta`,
      detalhes: { ofertaProdutoId: linhaMilho, cestas: [cestaA.nome] },
    });

    // At the limits: 16,5 kg used plus the 3 kg of extras, and the lot's 2,5 kg of lentils.
    await ofertar(xique, cicloid, com(19_500, 300, 2_500, 250, 5_000, 100));
    assert.deepEqual(await resumo(cicloid, xique), {
      finalizada: true,
      linhas: ordenadas([tomate.id, 19_500, 300], [lentilha.id, 2_500, 250], [milho.id, 5_000, 100]),
    });
  });

  test('tirar ou baixar a linha de que os extras dependem: a regra de capacidade confere também o produto que saiu', async () => {
    const s = novoCenario();
    const cicloid = (await criarCiclo(banco, { datas: DATAS_PADRAO })).id;
    const pimenta = await kg(`Pimenta ${s}`);
    const quiabo = await kg(`Quiabo ${s}`);
    const xique = await fornecedor(`Sítio Xique ${s}`);
    // The only pepper offered, all of it published as extras.
    await ofertar(xique, cicloid, [
      [pimenta.id, 10_000, 300],
      [quiabo.id, 3_000, 200],
    ]);
    await publicar(cicloid, pimenta.id, 10_000);
    const faltam = (quanto: string, faltando: number, fornecedores: string, sobra: string): Recusa => ({
      status: 409,
      codigo: 'CAPACIDADE_EXCEDIDA',
      mensagem: `${faltando < 2 ? 'Falta' : 'Faltam'} ${quanto} de ${pimenta.nome} (${fornecedores}): os extras publicados passam da sobra de ${sobra}`,
      detalhes: { produtoId: pimenta.id, produto: pimenta.nome, fornecedor: fornecedores, faltando },
    });
    // The save keeps only the okra: the pepper it removed must still be checked.
    assert.deepEqual(
      await semGravar(cicloid, () => ofertar(xique, cicloid, [[quiabo.id, 3_000, 200]], true, MAIS_TARDE)),
      faltam('10 kg', 10, 'nenhum fornecedor', '0 kg'),
    );
    assert.deepEqual(
      await semGravar(cicloid, () => apagar(xique, { cicloid, produtoid: pimenta.id, usuarioid: null })),
      faltam('10 kg', 10, 'nenhum fornecedor', '0 kg'),
    );
    assert.deepEqual(
      await semGravar(cicloid, () =>
        ofertar(
          xique,
          cicloid,
          [
            [pimenta.id, 9_500, 300],
            [quiabo.id, 3_000, 200],
          ],
          true,
          MAIS_TARDE,
        ),
      ),
      faltam('0,5 kg', 0.5, xique.nome, '9,5 kg'),
    );
    assert.deepEqual(
      await semGravar(cicloid, () =>
        ofertar(
          xique,
          cicloid,
          [
            [pimenta.id, 10_000, 300],
            [quiabo.id, 3_000, 200],
          ],
          false,
          MAIS_TARDE,
        ),
      ),
      faltam('10 kg', 10, 'nenhum fornecedor', '0 kg'),
    );
    // The okra, which nothing holds, leaves.
    await ofertar(xique, cicloid, [[pimenta.id, 10_000, 300]]);
    assert.deepEqual(await resumo(cicloid, xique), { finalizada: true, linhas: [[pimenta.id, 10_000, 300]] });
  });

  test('o que nada segura: só baixar, tirar ou voltar ao rascunho custa as consultas das amarras; salvar igual ou subir, nenhuma', async () => {
    const s = novoCenario();
    const cicloid = (await criarCiclo(banco, { datas: DATAS_PADRAO })).id;
    const pepino = await kg(`Pepino ${s}`);
    const rucula = await kg(`Rúcula ${s}`);
    const xique = await fornecedor(`Sítio Xique ${s}`);
    const duas = (pepinoMil: number): Item[] => [
      [pepino.id, pepinoMil, 300],
      [rucula.id, 5_000, 200],
    ];
    await ofertar(xique, cicloid, duas(10_000));
    const igual = await contar(() => ofertar(xique, cicloid, duas(10_000)));
    const sobe = await contar(() => ofertar(xique, cicloid, duas(11_000)));
    const umMilesimoAbaixo = await contar(() => ofertar(xique, cicloid, duas(10_999)));
    const paraRascunho = await contar(() => ofertar(xique, cicloid, duas(10_999), false));
    assert.deepEqual(await resumo(cicloid, xique), {
      finalizada: false,
      linhas: ordenadas([pepino.id, 10_999, 300], [rucula.id, 5_000, 200]),
    });
    const rascunhoDeNovo = await contar(() => ofertar(xique, cicloid, duas(10_999), false));
    const final = await contar(() => ofertar(xique, cicloid, duas(10_999)));
    assert.deepEqual(
      { sobe, umMilesimoAbaixo, paraRascunho, rascunhoDeNovo, final },
      {
        sobe: igual,
        umMilesimoAbaixo: igual + CONSULTAS_DAS_AMARRAS,
        paraRascunho: igual + CONSULTAS_DAS_AMARRAS,
        rascunhoDeNovo: igual,
        final: igual,
      },
      `salvar igual: ${igual} consultas`,
    );
    // A line nothing holds leaves the offer (and the database).
    const so = await ofertar(xique, cicloid, [[pepino.id, 10_999, 300]]);
    assert.deepEqual(
      so.produtos.map((p) => p.produtoid),
      [pepino.id],
    );
    assert.deepEqual(
      (await gravado(cicloid)).map((r) => r.produtoid),
      [pepino.id],
    );
    assert.deepEqual(await resumo(cicloid, xique), { finalizada: true, linhas: [[pepino.id, 10_999, 300]] });
  });

  test('ofertasDoFornecedor: do ciclo mais novo ao mais velho, `first` de cada vez depois de `depoisDoCiclo`, cada uma com as suas linhas', async () => {
    const s = novoCenario();
    const [c1, c2, c3] = [
      (await criarCiclo(banco, { datas: DATAS_PADRAO })).id,
      (await criarCiclo(banco, { datas: DATAS_PADRAO })).id,
      (await criarCiclo(banco, { datas: DATAS_PADRAO })).id,
    ];
    assert.ok(c1 < c2 && c2 < c3);
    const abobora = await kg(`Abóbora ${s}`);
    const beterraba = await kg(`Beterraba ${s}`);
    const xique = await fornecedor(`Sítio Xique ${s}`);
    const ype = await fornecedor(`Chácara Ypê ${s}`);
    // Sent beet first: the lines come by the product's name.
    const o1 = await ofertar(xique, c1, [
      [beterraba.id, 3_000, 200],
      [abobora.id, 2_000, 100],
    ]);
    const o2 = await ofertar(xique, c2, [], false);
    const o3 = await ofertar(xique, c3, [[abobora.id, 1_500, 150]]);
    await ofertar(ype, c2, [[abobora.id, 9_000, 900]]);
    const linha = (o: Oferta, p: { id: number; nome: string }, quantidadeMilesimos: number, valorCentavos: number) => ({
      ofertaProdutoId: linhaDe(o, p.id),
      produtoid: p.id,
      nome: p.nome,
      unidade: 'kg',
      quantidadeMilesimos,
      valorCentavos,
      alocadoMilesimos: 0,
    });
    const final = NA_OFERTA.agora.toISOString();
    const esperadas = {
      [c1]: {
        id: o1.id,
        cicloid: c1,
        usuarioid: xique.usuarioid,
        finalizada: true,
        finalizadaEm: final,
        produtos: [linha(o1, abobora, 2_000, 100), linha(o1, beterraba, 3_000, 200)],
        totalCentavos: 2 * 100 + 3 * 200,
      },
      [c2]: {
        id: o2.id,
        cicloid: c2,
        usuarioid: xique.usuarioid,
        finalizada: false,
        finalizadaEm: null,
        produtos: [],
        totalCentavos: 0,
      },
      [c3]: {
        id: o3.id,
        cicloid: c3,
        usuarioid: xique.usuarioid,
        finalizada: true,
        finalizadaEm: final,
        produtos: [linha(o3, abobora, 1_500, 150)],
        totalCentavos: Math.round(1.5 * 150),
      },
    };
    const pagina = async (first: number, depoisDoCiclo: number | null) =>
      ofertasDoFornecedor(banco, xique.usuarioid, { first, depoisDoCiclo });
    assert.deepEqual(await pagina(2, null), [esperadas[c3], esperadas[c2]]);
    assert.deepEqual(await pagina(2, c2), [esperadas[c1]]);
    assert.deepEqual(await pagina(1, c3), [esperadas[c2]]);
    assert.deepEqual(await pagina(5, c1), []);
    // ofertaDe reads each the same way.
    for (const c of [c1, c2, c3]) assert.deepEqual(await ofertaDe(banco, c, xique.usuarioid), esperadas[c]);
  });

  test('linhas recusadas pelo campo: unidade que não é a do produto, produto inativo ou inexistente; nada é gravado', async () => {
    const s = novoCenario();
    const cicloid = (await criarCiclo(banco, { datas: DATAS_PADRAO })).id;
    const tomate = await kg(`Tomate ${s}`);
    const salsa = await criarProduto(banco, { nome: `Salsa ${s}`, unidade: 'maço' });
    const inativo = await kg(`Inativo ${s}`);
    await banco.updateTable('produto').set({ ativo: false }).where('id', '=', inativo.id).execute();
    const xique = await fornecedor(`Sítio Xique ${s}`);
    const invalido = (detalhes: Record<string, string>): Recusa => ({
      status: 400,
      codigo: 'VALIDACAO',
      mensagem: 'Verifique os campos destacados',
      detalhes,
    });
    assert.deepEqual(
      await semGravar(cicloid, () =>
        ofertar(xique, cicloid, [
          [tomate.id, 2_500, 300, 'kg'],
          [salsa.id, 3_000, 200, 'kg'],
        ]),
      ),
      invalido({
        'produtos.1.quantidade': 'Este produto é medido em maço, não em kg: escreva a quantidade em maço',
      }),
    );
    assert.deepEqual(
      await semGravar(cicloid, () =>
        ofertar(xique, cicloid, [
          [inativo.id, 1_000, 100],
          [tomate.id, 2_500, 300],
          [999_999, 1_000, 100],
        ]),
      ),
      invalido({
        'produtos.0.produtoid': 'Produto inexistente ou inativo',
        'produtos.2.produtoid': 'Produto inexistente ou inativo',
      }),
    );
    assert.equal((await ofertaDe(banco, cicloid, xique.usuarioid)).id, null, 'nenhuma oferta');
    // Each in its own unit (or none written), the offer is saved.
    await ofertar(xique, cicloid, [
      [tomate.id, 2_500, 300, 'kg'],
      [salsa.id, 3_000, 200, 'maço'],
    ]);
    assert.deepEqual(await resumo(cicloid, xique), {
      finalizada: true,
      linhas: ordenadas([tomate.id, 2_500, 300], [salsa.id, 3_000, 200]),
    });
  });
});
