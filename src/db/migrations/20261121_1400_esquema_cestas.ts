import { sql } from 'kysely';
import { comDatas, comId, naoNulo, type ContextoMigracao, type Db, type FabricaMigracao } from './dialeto.ts';

const UNIDADES = `('kg', 'unidade', 'litro', 'dúzia', 'maço')`;

export const esquemaCestas: FabricaMigracao = (ctx: ContextoMigracao) => ({
  async up(db: Db) {
    const verdadeiro = sql`true`;
    const falso = sql`false`;

    await comDatas(
      comId(ctx, db.schema.createTable('categoria'))
        .addColumn('nome', 'text', naoNulo)
        .addColumn('nomeChave', 'text', (c) => c.notNull().unique())
        .addColumn('descricao', 'text')
        .addColumn('ativo', 'boolean', (c) => c.notNull().defaultTo(verdadeiro)),
    ).execute();

    await comDatas(
      comId(ctx, db.schema.createTable('cesta'))
        .addColumn('nome', 'text', naoNulo)
        .addColumn('nomeChave', 'text', (c) => c.notNull().unique())
        .addColumn('descricao', 'text')
        .addColumn('valorReferenciaCentavos', 'integer', naoNulo)
        .addColumn('pesoAproximado', 'integer')
        .addColumn('ativo', 'boolean', (c) => c.notNull().defaultTo(verdadeiro))
        .addCheckConstraint('cesta_valor_ck', sql`"valorReferenciaCentavos" >= 0`)
        .addCheckConstraint('cesta_peso_ck', sql`"pesoAproximado" is null or "pesoAproximado" >= 0`),
    ).execute();

    await comDatas(
      comId(ctx, db.schema.createTable('produto'))
        .addColumn('nome', 'text', naoNulo)
        .addColumn('nomeChave', 'text', naoNulo)
        .addColumn('unidade', 'text', naoNulo)
        .addColumn('pesoGramas', 'integer')
        .addColumn('valorReferenciaCentavos', 'integer', naoNulo)
        .addColumn('descritivo', 'text')
        .addColumn('categoriaid', 'integer', (c) => c.references('categoria.id'))
        .addColumn('ativo', 'boolean', (c) => c.notNull().defaultTo(verdadeiro))
        .addUniqueConstraint('produto_nome_unidade_uq', ['nomeChave', 'unidade'])
        .addCheckConstraint('produto_unidade_ck', sql.raw(`unidade in ${UNIDADES}`))
        .addCheckConstraint('produto_valor_ck', sql`"valorReferenciaCentavos" >= 0`)
        .addCheckConstraint('produto_peso_ck', sql`"pesoGramas" is null or "pesoGramas" >= 0`),
    ).execute();
    await db.schema.createIndex('produto_categoria_ix').on('produto').column('categoriaid').execute();

    await comDatas(
      comId(ctx, db.schema.createTable('pontoentrega'))
        .addColumn('nome', 'text', naoNulo)
        .addColumn('nomeChave', 'text', (c) => c.notNull().unique())
        .addColumn('endereco', 'text')
        .addColumn('cidade', 'text')
        .addColumn('referencia', 'text')
        .addColumn('responsavel', 'text')
        .addColumn('telefone', 'text')
        .addColumn('ativo', 'boolean', (c) => c.notNull().defaultTo(verdadeiro)),
    ).execute();

    await comDatas(
      comId(ctx, db.schema.createTable('usuario'))
        .addColumn('nome', 'text', naoNulo)
        .addColumn('email', 'text', naoNulo)
        .addColumn('emailChave', 'text', (c) => c.notNull().unique())
        // JSON array of perfil values; never empty.
        .addColumn('perfil', 'text', naoNulo)
        .addColumn('nomeoficial', 'text')
        .addColumn('celular', 'text')
        .addColumn('descritivo', 'text')
        .addColumn('cientepolitica', 'boolean', (c) => c.notNull().defaultTo(falso))
        .addColumn('ativo', 'boolean', (c) => c.notNull().defaultTo(verdadeiro))
        .addCheckConstraint('usuario_perfil_ck', sql`perfil <> '[]'`),
    ).execute();

    await comDatas(
      comId(ctx, db.schema.createTable('ciclo'))
        .addColumn('nome', 'text', naoNulo)
        .addColumn('dataOfertaInicio', 'text', naoNulo)
        .addColumn('dataOfertaFim', 'text', naoNulo)
        .addColumn('dataPedidoInicio', 'text', naoNulo)
        .addColumn('dataPedidoFim', 'text', naoNulo)
        .addColumn('dataRetiradaInicio', 'text', naoNulo)
        .addColumn('dataRetiradaFim', 'text', naoNulo)
        .addColumn('ativo', 'boolean', (c) => c.notNull().defaultTo(verdadeiro))
        .addColumn('fechadoEm', 'text')
        .addCheckConstraint(
          'ciclo_datas_ck',
          sql`"dataOfertaInicio" <= "dataOfertaFim" and "dataOfertaFim" <= "dataPedidoInicio"
            and "dataPedidoInicio" <= "dataPedidoFim" and "dataPedidoFim" <= "dataRetiradaInicio"
            and "dataRetiradaInicio" <= "dataRetiradaFim"`,
        ),
    ).execute();

    await comDatas(
      comId(ctx, db.schema.createTable('cicloentrega'))
        .addColumn('cicloid', 'integer', (c) => c.notNull().references('ciclo.id'))
        .addColumn('dataEntrega', 'text', naoNulo)
        .addColumn('observacao', 'text'),
    ).execute();
    await db.schema.createIndex('cicloentrega_ciclo_ix').on('cicloentrega').column('cicloid').execute();

    await comDatas(
      comId(ctx, db.schema.createTable('ciclocesta'))
        .addColumn('cicloid', 'integer', (c) => c.notNull().references('ciclo.id'))
        .addColumn('cestaId', 'integer', (c) => c.notNull().references('cesta.id'))
        .addColumn('quantidadeCestas', 'integer', naoNulo)
        .addUniqueConstraint('ciclocesta_uq', ['cicloid', 'cestaId'])
        .addCheckConstraint('ciclocesta_qtd_ck', sql`"quantidadeCestas" >= 0`),
    ).execute();
    await db.schema.createIndex('ciclocesta_cesta_ix').on('ciclocesta').column('cestaId').execute();

    await comDatas(
      comId(ctx, db.schema.createTable('cicloproduto'))
        .addColumn('cicloid', 'integer', (c) => c.notNull().references('ciclo.id'))
        .addColumn('produtoId', 'integer', (c) => c.notNull().references('produto.id'))
        .addColumn('quantidadeMilesimos', 'integer', naoNulo)
        .addColumn('valorCentavos', 'integer', naoNulo)
        .addUniqueConstraint('cicloproduto_uq', ['cicloid', 'produtoId'])
        .addCheckConstraint('cicloproduto_qtd_ck', sql`"quantidadeMilesimos" >= 0`)
        .addCheckConstraint('cicloproduto_valor_ck', sql`"valorCentavos" >= 0`),
    ).execute();
    await db.schema.createIndex('cicloproduto_produto_ix').on('cicloproduto').column('produtoId').execute();

    await comDatas(
      comId(ctx, db.schema.createTable('oferta'))
        .addColumn('cicloid', 'integer', (c) => c.notNull().references('ciclo.id'))
        .addColumn('usuarioid', 'integer', (c) => c.notNull().references('usuario.id'))
        .addColumn('finalizada', 'boolean', (c) => c.notNull().defaultTo(falso))
        .addColumn('finalizadaEm', 'text')
        .addUniqueConstraint('oferta_uq', ['cicloid', 'usuarioid']),
    ).execute();
    await db.schema.createIndex('oferta_usuario_ix').on('oferta').column('usuarioid').execute();

    await comDatas(
      comId(ctx, db.schema.createTable('ofertaproduto'))
        .addColumn('ofertaid', 'integer', (c) => c.notNull().references('oferta.id'))
        .addColumn('produtoid', 'integer', (c) => c.notNull().references('produto.id'))
        .addColumn('quantidadeMilesimos', 'integer', naoNulo)
        .addColumn('valorCentavos', 'integer', naoNulo)
        .addUniqueConstraint('ofertaproduto_uq', ['ofertaid', 'produtoid'])
        .addCheckConstraint('ofertaproduto_qtd_ck', sql`"quantidadeMilesimos" > 0`)
        .addCheckConstraint('ofertaproduto_valor_ck', sql`"valorCentavos" >= 0`),
    ).execute();
    await db.schema.createIndex('ofertaproduto_produto_ix').on('ofertaproduto').column('produtoid').execute();

    await comDatas(
      comId(ctx, db.schema.createTable('composicao'))
        .addColumn('cicloCestaId', 'integer', (c) => c.notNull().unique().references('ciclocesta.id'))
        .addColumn('quantidadeCestas', 'integer', naoNulo)
        .addCheckConstraint('composicao_qtd_ck', sql`"quantidadeCestas" >= 0`),
    ).execute();

    await comDatas(
      comId(ctx, db.schema.createTable('composicaoproduto'))
        .addColumn('composicaoid', 'integer', (c) => c.notNull().references('composicao.id'))
        .addColumn('ofertaProdutoId', 'integer', (c) => c.notNull().references('ofertaproduto.id'))
        .addColumn('quantidadePorCestaMilesimos', 'integer', naoNulo)
        .addColumn('unidade', 'text', naoNulo)
        .addUniqueConstraint('composicaoproduto_uq', ['composicaoid', 'ofertaProdutoId'])
        .addCheckConstraint('composicaoproduto_qtd_ck', sql`"quantidadePorCestaMilesimos" > 0`),
    ).execute();
    await db.schema
      .createIndex('composicaoproduto_oferta_ix')
      .on('composicaoproduto')
      .column('ofertaProdutoId')
      .execute();

    await comDatas(
      comId(ctx, db.schema.createTable('pedido'))
        .addColumn('cicloid', 'integer', (c) => c.notNull().references('ciclo.id'))
        .addColumn('usuarioid', 'integer', (c) => c.notNull().references('usuario.id'))
        .addColumn('pontoEntregaId', 'integer', (c) => c.notNull().references('pontoentrega.id'))
        .addColumn('finalizado', 'boolean', (c) => c.notNull().defaultTo(falso))
        .addColumn('dataConfirmacao', 'text')
        .addUniqueConstraint('pedido_uq', ['cicloid', 'usuarioid']),
    ).execute();
    await db.schema.createIndex('pedido_usuario_ix').on('pedido').column('usuarioid').execute();
    await db.schema.createIndex('pedido_ponto_ix').on('pedido').column('pontoEntregaId').execute();

    await comDatas(
      comId(ctx, db.schema.createTable('pedidoproduto'))
        .addColumn('pedidoid', 'integer', (c) => c.notNull().references('pedido.id'))
        .addColumn('cicloCestaId', 'integer', (c) => c.references('ciclocesta.id'))
        .addColumn('cicloProdutoId', 'integer', (c) => c.references('cicloproduto.id'))
        .addColumn('quantidadeMilesimos', 'integer', naoNulo)
        .addColumn('valorCentavos', 'integer', naoNulo)
        .addUniqueConstraint('pedidoproduto_cesta_uq', ['pedidoid', 'cicloCestaId'])
        .addUniqueConstraint('pedidoproduto_extra_uq', ['pedidoid', 'cicloProdutoId'])
        .addCheckConstraint('pedidoproduto_alvo_ck', sql`("cicloCestaId" is null) <> ("cicloProdutoId" is null)`)
        .addCheckConstraint('pedidoproduto_qtd_ck', sql`"quantidadeMilesimos" > 0`)
        .addCheckConstraint('pedidoproduto_valor_ck', sql`"valorCentavos" >= 0`),
    ).execute();
    await db.schema.createIndex('pedidoproduto_cesta_ix').on('pedidoproduto').column('cicloCestaId').execute();
    await db.schema.createIndex('pedidoproduto_extra_ix').on('pedidoproduto').column('cicloProdutoId').execute();

    await comDatas(
      comId(ctx, db.schema.createTable('tipomovimentacao'))
        .addColumn('nome', 'text', (c) => c.notNull().unique())
        .addColumn('sentido', 'text', naoNulo)
        .addCheckConstraint('tipomovimentacao_sentido_ck', sql`sentido in ('credito', 'debito', 'ambos')`),
    ).execute();

    await comDatas(
      comId(ctx, db.schema.createTable('movimentacao'))
        .addColumn('usuarioid', 'integer', (c) => c.notNull().references('usuario.id'))
        .addColumn('tipoMovimentacaoId', 'integer', (c) => c.notNull().references('tipomovimentacao.id'))
        .addColumn('sentido', 'text', naoNulo)
        .addColumn('valorCentavos', 'integer', naoNulo)
        .addColumn('data', 'text', naoNulo)
        .addColumn('descricao', 'text', naoNulo)
        .addColumn('arquivo', 'text')
        .addColumn('cicloid', 'integer', (c) => c.references('ciclo.id'))
        // Idempotency key for generated movements (closing a cycle twice writes nothing new).
        .addColumn('chave', 'text', (c) => c.unique())
        .addColumn('criadoPor', 'integer', (c) => c.references('usuario.id'))
        .addCheckConstraint('movimentacao_sentido_ck', sql`sentido in ('credito', 'debito')`)
        .addCheckConstraint('movimentacao_valor_ck', sql`"valorCentavos" > 0`),
    ).execute();
    await db.schema.createIndex('movimentacao_usuario_ix').on('movimentacao').columns(['usuarioid', 'data']).execute();
    await db.schema.createIndex('movimentacao_ciclo_ix').on('movimentacao').column('cicloid').execute();

    await comId(ctx, db.schema.createTable('auditoria'))
      .addColumn('usuarioid', 'integer')
      .addColumn('ator', 'text', naoNulo)
      .addColumn('acao', 'text', naoNulo)
      .addColumn('entidade', 'text', naoNulo)
      .addColumn('entidadeId', 'text')
      .addColumn('antes', 'text')
      .addColumn('depois', 'text')
      .addColumn('em', 'text', naoNulo)
      .execute();
    await db.schema.createIndex('auditoria_entidade_ix').on('auditoria').columns(['entidade', 'entidadeId']).execute();
    await db.schema.createIndex('auditoria_usuario_ix').on('auditoria').column('usuarioid').execute();

    const iso = new Date().toISOString();
    await db
      .insertInto('tipomovimentacao')
      .values(
        [
          ['Pedido de consumidor', 'debito'],
          ['Entrega de fornecedor', 'credito'],
          ['Taxa administrativa', 'debito'],
          ['Pagamento recebido', 'credito'],
          ['Pagamento efetuado', 'debito'],
          ['Ajuste', 'ambos'],
        ].map(([nome, sentido]) => ({ nome, sentido, createdAt: iso, updatedAt: iso })),
      )
      .execute();

    await db.schema
      .createTable('limitetentativa')
      .addColumn('chave', 'text', (c) => c.primaryKey())
      .addColumn('janelaInicio', 'bigint', naoNulo)
      .addColumn('contagem', 'integer', naoNulo)
      .execute();
  },

  async down(db: Db) {
    for (const t of [
      'limitetentativa', 'auditoria', 'movimentacao', 'tipomovimentacao', 'pedidoproduto', 'pedido',
      'composicaoproduto', 'composicao', 'ofertaproduto', 'oferta', 'cicloproduto', 'ciclocesta',
      'cicloentrega', 'ciclo', 'usuario', 'pontoentrega', 'produto', 'cesta', 'categoria',
    ]) {
      await db.schema.dropTable(t).ifExists().execute();
    }
  },
});
