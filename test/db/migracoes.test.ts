import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { abrirBanco, emTransacao, migrar, ErroForaDaTransacao, type Banco } from '../../src/db/banco.ts';
import { formatarDecimal } from '../../src/decimal.ts';
import { contarTentativa } from '../../src/db/limites.ts';
import { VERSAO_DOS_CICLOS, VERSAO_DOS_MERCADOS, versaoDosDados } from '../../src/db/versoes.ts';
import { reservasDoCiclo } from '../../src/domain/pedidos/disponibilidade.ts';
import { DIALETO, bancoNovo, bancoVazio } from '../helpers/banco.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';

const ISO = '2026-11-21T12:00:00.000Z';
const DATAS = { createdAt: ISO, updatedAt: ISO };

describe(`banco (${DIALETO})`, () => {
  let banco: Banco;
  before(async () => {
    banco = abrirBanco(await bancoNovo());
  });
  after(() => banco.destroy());

  test('as migrações já aplicadas rodam de novo sem efeito', async () => {
    assert.deepEqual(await migrar(banco, DIALETO), []);
    assert.deepEqual(await migrar(banco, DIALETO), []);
  });

  test('o esquema inteiro da face Cestas existe', async () => {
    const tabelas = (await banco.introspection.getTables()).map((t) => t.name);
    for (const t of [
      'categoria',
      'cesta',
      'produto',
      'pontoentrega',
      'usuario',
      'ciclo',
      'cicloentrega',
      'ciclopontoentrega',
      'ciclocesta',
      'cicloproduto',
      'oferta',
      'ofertaproduto',
      'composicao',
      'composicaoproduto',
      'pedido',
      'pedidoproduto',
      'tipomovimentacao',
      'movimentacao',
      'auditoria',
      'mensagem',
      'ciclomercado',
      'ciclomercadoponto',
      'lote',
      'loteproduto',
      'extratolinha',
      'extratochave',
      'mapeamentoextrato',
      'assinatura',
      'assinaturapausa',
      'assinaturaciclo',
      'voluntario',
      'acaoretirada',
    ]) {
      assert.ok(tabelas.includes(t), `tabela ${t}`);
    }
  });

  test('os tipos de movimentação vêm semeados', async () => {
    const tipos = await banco.selectFrom('tipomovimentacao').select(['nome', 'sentido']).orderBy('id').execute();
    assert.deepEqual(
      tipos,
      [
        { nome: 'Pedido de consumidor', sentido: 'debito' },
        { nome: 'Entrega de fornecedor', sentido: 'credito' },
        { nome: 'Taxa administrativa', sentido: 'debito' },
        { nome: 'Pagamento recebido', sentido: 'credito' },
        { nome: 'Pagamento efetuado', sentido: 'debito' },
        { nome: 'Ajuste', sentido: 'ambos' },
        { nome: 'Falta na retirada', sentido: 'ambos' },
      ].map((t) => ({ ...t })),
    );
  });

  test('restrições: nome único, unidade válida, datas em ordem, valor positivo', async () => {
    await banco
      .insertInto('categoria')
      .values({ nome: 'Frutas', nomeChave: 'frutas', ...DATAS })
      .execute();
    await assert.rejects(
      banco
        .insertInto('categoria')
        .values({ nome: 'FRUTAS ', nomeChave: 'frutas', ...DATAS })
        .execute(),
    );
    await assert.rejects(
      banco
        .insertInto('produto')
        .values({ nome: 'X', nomeChave: 'x', unidade: 'caixa', valorReferenciaCentavos: 1, ...DATAS })
        .execute(),
    );
    await assert.rejects(
      banco
        .insertInto('ciclo')
        .values({
          nome: 'Fora de ordem',
          nomeChave: 'fora de ordem',
          dataOfertaInicio: '2026-01-05',
          dataOfertaFim: '2026-01-01',
          dataPedidoInicio: '2026-01-06',
          dataPedidoFim: '2026-01-07',
          dataRetiradaInicio: '2026-01-08',
          dataRetiradaFim: '2026-01-09',
          ...DATAS,
        })
        .execute(),
    );
    const u = await banco
      .insertInto('usuario')
      .values({
        nome: 'U',
        nomeChave: 'u',
        email: 'u@t.org',
        emailChave: 'u@t.org',
        perfil: '["consumidor"]',
        ...DATAS,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await assert.rejects(
      banco
        .insertInto('movimentacao')
        .values({
          usuarioid: u.id,
          tipoMovimentacaoId: 1,
          sentido: 'debito',
          valorCentavos: 0,
          data: '2026-01-01',
          descricao: 'x',
          ...DATAS,
        })
        .execute(),
    );
    await assert.rejects(
      banco
        .insertInto('usuario')
        .values({ nome: 'V', nomeChave: 'v', email: 'v@t.org', emailChave: 'v@t.org', perfil: '[]', ...DATAS })
        .execute(),
    );
  });

  test('excluir um registro referenciado falha: nada em cascata', async () => {
    const c = await banco
      .insertInto('categoria')
      .values({ nome: 'Grãos', nomeChave: 'grãos', ...DATAS })
      .returning('id')
      .executeTakeFirstOrThrow();
    await banco
      .insertInto('produto')
      .values({
        nome: 'Feijão',
        nomeChave: 'feijão',
        unidade: 'kg',
        valorReferenciaCentavos: 900,
        categoriaid: c.id,
        ...DATAS,
      })
      .execute();
    await assert.rejects(banco.deleteFrom('categoria').where('id', '=', c.id).execute());
    assert.ok(await banco.selectFrom('produto').select('id').where('categoriaid', '=', c.id).executeTakeFirst());
  });

  test('dinheiro é exato no banco: 0.10 + 0.20 somados pelo SQL dão 0.30', async () => {
    const u = await banco
      .insertInto('usuario')
      .values({
        nome: 'W',
        nomeChave: 'w',
        email: 'w@t.org',
        emailChave: 'w@t.org',
        perfil: '["consumidor"]',
        ...DATAS,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const valorCentavos of [10, 20]) {
      await banco
        .insertInto('movimentacao')
        .values({
          usuarioid: u.id,
          tipoMovimentacaoId: 4,
          sentido: 'credito',
          valorCentavos,
          data: '2026-01-01',
          descricao: 'x',
          ...DATAS,
        })
        .execute();
    }
    const r = await banco
      .selectFrom('movimentacao')
      .select((eb) => eb.fn.sum<number>('valorCentavos').as('total'))
      .where('usuarioid', '=', u.id)
      .executeTakeFirstOrThrow();
    assert.equal(formatarDecimal(Number(r.total), 2), '0.30');
  });

  test('booleanos voltam como true/false nos dois dialetos', async () => {
    const l = await banco
      .selectFrom('categoria')
      .select(['ativo'])
      .where('nomeChave', '=', 'frutas')
      .executeTakeFirstOrThrow();
    assert.equal(l.ativo, true);
  });

  test('consultar pelo banco externo dentro de uma transação falha alto, e a transação é desfeita', async () => {
    await assert.rejects(
      emTransacao(banco, async (trx) => {
        await trx
          .insertInto('categoria')
          .values({ nome: 'Dentro', nomeChave: 'dentro', ...DATAS })
          .execute();
        await banco.selectFrom('categoria').selectAll().execute();
      }),
      ErroForaDaTransacao,
    );
    assert.equal(
      await banco.selectFrom('categoria').select('id').where('nomeChave', '=', 'dentro').executeTakeFirst(),
      undefined,
    );
  });

  test('o limite de tentativas conta de forma atômica e reabre após a janela', async () => {
    const inicio = new Date('2026-01-01T00:00:00Z');
    const resultados = await Promise.all(
      Array.from({ length: 8 }, () => contarTentativa(banco, 'teste', 5, 60_000, inicio)),
    );
    assert.deepEqual(
      resultados.map((r) => r.contagem).sort((a, b) => a - b),
      [1, 2, 3, 4, 5, 6, 7, 8],
    );
    assert.equal(resultados.filter((r) => r.permitido).length, 5);
    const depois = await contarTentativa(banco, 'teste', 5, 60_000, new Date(inicio.getTime() + 60_001));
    assert.equal(depois.contagem, 1);
    assert.equal(depois.permitido, true);
  });

  test('o SQL é o do dialeto certo', async () => {
    const r = await sql<{
      v: string;
    }>`select ${DIALETO === 'sqlite' ? sql`sqlite_version()` : sql`version()`} as v`.execute(banco);
    assert.ok(r.rows[0]?.v);
  });
});

test(`a migração das chaves de busca preenche as linhas que já existiam (${DIALETO})`, async () => {
  const banco = abrirBanco(await bancoVazio());
  try {
    await migrar(banco, DIALETO, '20261121_1600_mercados');
    await sql`insert into ciclo (nome, "dataOfertaInicio", "dataOfertaFim", "dataPedidoInicio", "dataPedidoFim", "dataRetiradaInicio", "dataRetiradaFim", "createdAt", "updatedAt")
      values ('  Ciclo  de ÍNDIO ', '2026-01-01', '2026-01-01', '2026-01-01', '2026-01-01', '2026-01-01', '2026-01-01', ${ISO}, ${ISO})`.execute(
      banco,
    );
    await sql`insert into usuario (nome, email, "emailChave", perfil, "createdAt", "updatedAt")
      values ('Álvaro Émerson', 'a@t.org', 'a@t.org', '["consumidor"]', ${ISO}, ${ISO})`.execute(banco);
    await migrar(banco, DIALETO);
    assert.equal(
      (await banco.selectFrom('ciclo').select('nomeChave').executeTakeFirstOrThrow()).nomeChave,
      'ciclo de índio',
    );
    assert.equal(
      (await banco.selectFrom('usuario').select('nomeChave').executeTakeFirstOrThrow()).nomeChave,
      'álvaro émerson',
    );
  } finally {
    await banco.destroy();
  }
});

test(`contadores de reserva: a migração soma os pedidos já gravados, e os gatilhos os mantêm em qualquer escrita (${DIALETO})`, async () => {
  const b = abrirBanco(await bancoVazio());
  try {
    await migrar(b, DIALETO, '20261121_2200_versao_dos_ciclos');
    const cesta = await criarCesta(b);
    const produto = await criarProduto(b, { unidade: 'kg' });
    const ciclo = await criarCiclo(b, { datas: DATAS_PADRAO, cestas: [{ cestaId: cesta.id, quantidadeCestas: 50 }] });
    const cc = ciclo.cicloCestas[0] ?? 0;
    const extra = await b
      .insertInto('cicloproduto')
      .values({ cicloid: ciclo.id, produtoId: produto.id, quantidadeMilesimos: 90_000, valorCentavos: 500, ...DATAS })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ponto = await criarPonto(b);
    const pedidos: number[] = [];
    for (let i = 0; i < 3; i++) {
      const u = await criarUsuario(b, { perfil: ['consumidor'] });
      const p = await b
        .insertInto('pedido')
        .values({
          cicloid: ciclo.id,
          usuarioid: u.id,
          pontoEntregaId: ponto.id,
          finalizado: false,
          dataConfirmacao: null,
          ...DATAS,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      pedidos.push(p.id);
      await b
        .insertInto('pedidoproduto')
        .values([
          {
            pedidoid: p.id,
            cicloCestaId: cc,
            cicloProdutoId: null,
            quantidadeMilesimos: (i + 1) * 1000,
            valorCentavos: 5000,
            ...DATAS,
          },
          {
            pedidoid: p.id,
            cicloCestaId: null,
            cicloProdutoId: extra.id,
            quantidadeMilesimos: 1500,
            valorCentavos: 750,
            ...DATAS,
          },
        ])
        .execute();
    }
    // Orders written before the counters existed are counted when the migration runs.
    await migrar(b, DIALETO);
    const contadores = async () => {
      const r = await reservasDoCiclo(b, ciclo.id, DATAS_PADRAO.dataPedidoInicio);
      return [r.cestas.get(cc), r.extras.get(extra.id)];
    };
    assert.deepEqual(await contadores(), [6000, 4500]);
    const versao = () => versaoDosDados(b, VERSAO_DOS_CICLOS);
    const antes = await versao();
    // Every kind of write to the order lines moves them, and none moves the catalogue's version.
    await b
      .updateTable('pedidoproduto')
      .set({ quantidadeMilesimos: 4000 })
      .where('cicloCestaId', '=', cc)
      .where('pedidoid', '=', pedidos[0] ?? 0)
      .execute();
    assert.deepEqual(await contadores(), [9000, 4500]);
    await b
      .deleteFrom('pedidoproduto')
      .where('cicloProdutoId', '=', extra.id)
      .where('pedidoid', '=', pedidos[1] ?? 0)
      .execute();
    assert.deepEqual(await contadores(), [9000, 3000]);
    await b
      .updateTable('pedidoproduto')
      .set({ cicloCestaId: null, cicloProdutoId: extra.id })
      .where('cicloCestaId', '=', cc)
      .where('pedidoid', '=', pedidos[1] ?? 0)
      .execute();
    assert.deepEqual(
      await contadores(),
      [7000, 5000],
      'uma linha que muda de cesta para extra sai de um contador e entra no outro',
    );
    await emTransacao(b, async (trx) => {
      await trx.deleteFrom('pedidoproduto').where('pedidoid', 'in', pedidos).execute();
    });
    assert.deepEqual(await contadores(), [0, 0]);
    assert.equal(await versao(), antes, 'pedidos não mudam a vitrine');
    await b.updateTable('ciclocesta').set({ quantidadeCestas: 40 }).where('id', '=', cc).execute();
    assert.equal(await versao(), antes + 1, 'mudar a quantidade de cestas muda a vitrine');
  } finally {
    await b.destroy();
  }
});

test(`uma conta por pessoa: a migração liga as contas de mesmo e-mail, com a união dos papéis, e registra cada união (${DIALETO})`, async () => {
  const b = abrirBanco(await bancoVazio());
  try {
    await migrar(b, DIALETO, '20261126_1200_mercados_nos_ciclos');
    const perfis = new Map(
      (await sql<{ id: number; name: string }>`select id, name from profile`.execute(b)).rows.map((p) => [
        p.name,
        p.id,
      ]),
    );
    const usuario = async (email: string, perfil: readonly string[]) =>
      (
        await sql<{
          id: number;
        }>`insert into usuario (nome, "nomeChave", email, "emailChave", perfil, "createdAt", "updatedAt")
        values (${email}, ${email}, ${email}, ${email.toLowerCase()}, ${JSON.stringify(perfil)}, ${ISO}, ${ISO}) returning id`.execute(
          b,
        )
      ).rows[0]?.id ?? 0;
    const conta = async (email: string, nomes: readonly string[]) => {
      const id =
        (
          await sql<{
            id: number;
          }>`insert into appuser ("providerId", email, "emailChave", name, "createdAt", "updatedAt")
        values (${`sub-${email}`}, ${email}, ${email.toLowerCase()}, ${email}, ${ISO}, ${ISO}) returning id`.execute(b)
        ).rows[0]?.id ?? 0;
      for (const n of nomes)
        await sql`insert into appuserprofile ("userId", "profileId", "createdAt", "updatedAt") values (${id}, ${perfis.get(n) ?? 0}, ${ISO}, ${ISO})`.execute(
          b,
        );
      return id;
    };
    // The two records of one person disagree: info in Cestas, AdminMercado and Consumidor in Mercados.
    const clara = await usuario('Clara@T.org', ['info']);
    const contaClara = await conta('clara@t.org', ['AdminMercado', 'Consumidor']);
    // A master is already Administrador: the union adds no admin.
    const ana = await usuario('ana@t.org', ['master']);
    const contaAna = await conta('ana@t.org', ['Administrador']);
    // An Administrador of Mercados who is a supplier in Cestas becomes admin there.
    const bia = await usuario('bia@t.org', ['fornecedor']);
    await conta('bia@t.org', ['Administrador', 'Fornecedor']);
    // Only in one face: nothing to merge.
    const so = await usuario('so-cestas@t.org', ['consumidor']);
    const soMercados = await conta('so-mercados@t.org', ['Fornecedor']);

    await migrar(b, DIALETO);

    const perfilDe = async (id: number) =>
      JSON.parse(
        (await b.selectFrom('usuario').select('perfil').where('id', '=', id).executeTakeFirstOrThrow()).perfil,
      ) as string[];
    assert.deepEqual(await perfilDe(clara), ['info', 'consumidor', 'adminMercado']);
    assert.deepEqual(await perfilDe(ana), ['master']);
    assert.deepEqual(await perfilDe(bia), ['admin', 'fornecedor']);
    assert.deepEqual(await perfilDe(so), ['consumidor']);
    const ligacoes = await b.selectFrom('appuser').select(['emailChave', 'usuarioId']).orderBy('id').execute();
    assert.deepEqual(ligacoes, [
      { emailChave: 'clara@t.org', usuarioId: clara },
      { emailChave: 'ana@t.org', usuarioId: ana },
      { emailChave: 'bia@t.org', usuarioId: bia },
      { emailChave: 'so-mercados@t.org', usuarioId: null },
    ]);
    const linhasDePerfil = await b.selectFrom('appuserprofile').select('userId').execute();
    assert.deepEqual(
      linhasDePerfil.map((l) => l.userId),
      [soMercados],
      'as contas ligadas não guardam perfis próprios',
    );

    const registro = await b
      .selectFrom('auditoria')
      .select(['usuarioid', 'acao', 'entidadeId', 'antes', 'depois'])
      .where('acao', '=', 'unir contas')
      .orderBy('id')
      .execute();
    assert.equal(registro.length, 3);
    assert.deepEqual(registro[0], {
      usuarioid: clara,
      acao: 'unir contas',
      entidadeId: String(clara),
      antes: JSON.stringify({
        perfil: ['info'],
        conta: { id: contaClara, providerId: 'sub-clara@t.org', profiles: ['AdminMercado', 'Consumidor'] },
      }),
      depois: JSON.stringify({ perfil: ['info', 'consumidor', 'adminMercado'], contaId: contaClara }),
    });
    assert.equal(JSON.parse(registro[1]?.antes ?? '{}').conta.id, contaAna);

    // Roles now change in usuario: that moves the version the GraphQL answers are kept by.
    const versao = () => versaoDosDados(b, VERSAO_DOS_MERCADOS);
    const antes = await versao();
    await b.updateTable('usuario').set({ nome: 'Só o nome' }).where('id', '=', so).execute();
    assert.equal(await versao(), antes, 'o nome da Cestas não aparece no Mercados');
    await b.updateTable('usuario').set({ perfil: '["consumidor","fornecedor"]' }).where('id', '=', so).execute();
    assert.equal(await versao(), antes + 1);
    await b.updateTable('usuario').set({ ativo: false }).where('id', '=', so).execute();
    assert.equal(await versao(), antes + 2);

    // The link is unique: one Mercados account per person.
    await assert.rejects(b.updateTable('appuser').set({ usuarioId: clara }).where('id', '=', soMercados).execute());
  } finally {
    await b.destroy();
  }
});

test(`transação do banco: a migração dá a cada linha de extrato já importada as suas chaves (${DIALETO})`, async () => {
  const b = abrirBanco(await bancoVazio());
  try {
    await migrar(b, DIALETO, '20261127_1000_assinaturas');
    const linha = async (idBanco: string, data: string, valorCentavos: number) =>
      (
        await sql<{
          id: number;
        }>`insert into extratolinha ("idBanco", data, "valorCentavos", descricao, arquivo, "createdAt", "updatedAt")
        values (${idBanco}, ${data}, ${valorCentavos}, 'PIX', 'x', ${ISO}, ${ISO}) returning id`.execute(b)
      ).rows[0]?.id ?? 0;
    // The same credit imported as OFX and twice as CSV (the old bug): three lines, each keeps its own place.
    const ofx = await linha('ofx:0001:99887:000-77', '2026-03-01', 2730);
    const csv1 = await linha('csv:0123456789abcdef0123456789abcdef01234567', '2026-03-01', 2730);
    const csv2 = await linha('csv:fedcba9876543210fedcba9876543210fedcba98', '2026-03-01', 2730);
    const outra = await linha('ofx:matriz:1', '2026-03-02', 100);

    await migrar(b, DIALETO);

    const chaves = await b.selectFrom('extratochave').select(['chave', 'extratolinhaid']).orderBy('id').execute();
    assert.deepEqual(chaves, [
      { chave: 'ofx:0001:99887:000-77', extratolinhaid: ofx },
      { chave: 'doc:2026-03-01:2730:77', extratolinhaid: ofx },
      { chave: 'seq:2026-03-01:2730:1', extratolinhaid: ofx },
      { chave: 'seq:2026-03-01:2730:2', extratolinhaid: csv1 },
      { chave: 'seq:2026-03-01:2730:3', extratolinhaid: csv2 },
      { chave: 'ofx:matriz:1', extratolinhaid: outra },
      { chave: 'seq:2026-03-02:100:1', extratolinhaid: outra },
    ]);
    await assert.rejects(
      b
        .insertInto('extratochave')
        .values({ chave: 'seq:2026-03-01:2730:1', extratolinhaid: csv1, ...DATAS })
        .execute(),
      'cada chave é única',
    );
    const mapa = await b
      .insertInto('mapeamentoextrato')
      .values({
        nome: 'Banco',
        nomeChave: 'banco',
        separador: ';',
        colunaData: 'Data',
        colunaValor: 'Valor',
        colunaDescricao: 'Hist',
        colunaPagador: null,
        colunaDocumento: 'Documento',
        ...DATAS,
      })
      .returning('colunaDocumento')
      .executeTakeFirstOrThrow();
    assert.equal(mapa.colunaDocumento, 'Documento');
  } finally {
    await b.destroy();
  }
});
