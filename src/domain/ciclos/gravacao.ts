/** Writing a cycle: creating or updating it with its lists (salvarCiclo), and deleting an unused one. */
import { emTransacao, travar, type Banco, type Db } from '../../db/banco.ts';
import { formatarQuantidadeComUnidade } from '../../decimal.ts';
import { autorizar, type Ator } from '../acesso.ts';
import { conferirCapacidade, extrasPublicados, linhasOfertadas } from '../alocacao.ts';
import { auditar } from '../auditoria.ts';
import { Conflito, Invalido } from '../erros.ts';
import { gravarVoluntarios, pessoasDosVoluntarios } from '../retirada/voluntarios.ts';
import { exigirSemReferencias, type Referencia } from '../registros.ts';
import { chaveDeNome } from '../textos.ts';
import { exigirAberto } from './janelas.ts';
import { obterCiclo } from './leitura.ts';
import { reconciliarCestas, reconciliarEntregas, reconciliarPontos, reconciliarProdutos } from './listas.ts';
import type { Ciclo, CicloLido } from './modelo.ts';
import { regrasDoCiclo, sobrasPorProduto } from './regras.ts';

async function conferirExistentes(
  db: Db,
  tabela: 'cesta' | 'produto' | 'pontoentrega',
  itens: ReadonlyArray<{ id: number; campo: string }>,
  mensagem: string,
): Promise<void> {
  // Stryker disable next-line ConditionalExpression: an empty IN list is valid on SQLite, where the mutation run goes; PostgreSQL refuses it
  if (itens.length === 0) return;
  const achados = new Set(
    (
      await db
        .selectFrom(tabela)
        .select('id')
        .where(
          'id',
          'in',
          itens.map((i) => i.id),
        )
        .execute()
    ).map((r) => r.id),
  );
  const faltando = itens.filter((i) => !achados.has(i.id));
  if (faltando.length > 0) {
    throw new Invalido(
      'VALIDACAO',
      'Verifique os campos destacados',
      Object.fromEntries(faltando.map((f) => [f.campo, mensagem])),
    );
  }
}

/**
 * Creates (id null) or updates a cycle with its lists. Child rows are matched and updated in
 * place; what would orphan compositions or orders is refused with 409, never cascaded.
 */
export async function salvarCiclo(
  banco: Banco,
  ator: Ator,
  id: number | null,
  lido: CicloLido,
  agora: Date,
  hoje: string,
): Promise<Ciclo> {
  const erros = regrasDoCiclo(lido);
  if (Object.keys(erros).length > 0) throw new Invalido('VALIDACAO', 'Verifique os campos destacados', erros);
  // The points' volunteers (docs/dominio.md, "A retirada"): the rows that send them replace them.
  const comVoluntarios = (lido.cicloPontos ?? []).flatMap((p) =>
    p.voluntarios === undefined
      ? []
      : [
          {
            pontoEntregaId: p.pontoEntregaId,
            emails: p.voluntarios,
            campo: p.campo.replace(/\.[^.]+$/, '.voluntarios'),
          },
        ],
  );
  if (comVoluntarios.length > 0) autorizar(ator, 'voluntariosNomear');
  return emTransacao(banco, async (trx) => {
    await conferirExistentes(
      trx,
      'cesta',
      (lido.cicloCestas ?? []).map((c) => ({ id: c.cestaId, campo: c.campo })),
      'Cesta não encontrada',
    );
    await conferirExistentes(
      trx,
      'produto',
      (lido.cicloProdutos ?? []).map((p) => ({ id: p.produtoId, campo: p.campo })),
      'Produto não encontrado',
    );
    await conferirExistentes(
      trx,
      'pontoentrega',
      (lido.cicloPontos ?? []).map((p) => ({ id: p.pontoEntregaId, campo: p.campo })),
      'Ponto de entrega não encontrado',
    );
    const voluntarios = await pessoasDosVoluntarios(trx, comVoluntarios);
    if ('erros' in voluntarios) throw new Invalido('VALIDACAO', 'Verifique os campos destacados', voluntarios.erros);
    const iso = agora.toISOString();
    let cicloid: number;
    let antes: Ciclo | undefined;
    if (id === null) {
      const dados = { ...lido.dados, ativo: lido.dados.ativo ?? true };
      cicloid = (
        await trx
          .insertInto('ciclo')
          .values({ ...dados, nomeChave: chaveDeNome(dados.nome), createdAt: iso, updatedAt: iso })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    } else {
      // Stryker disable next-line ArrayDeclaration: row locks exist only on PostgreSQL (test/fluxo/travas.test.ts fails without them)
      await travar(trx, 'ciclo', [id]);
      antes = await obterCiclo(trx, id, hoje);
      // A closed cycle is locked: its movements were computed from it (a master reopens it first).
      exigirAberto(antes);
      cicloid = id;
      const dados = { ...lido.dados, ativo: lido.dados.ativo ?? antes.ativo };
      await trx
        .updateTable('ciclo')
        .set({ ...dados, nomeChave: chaveDeNome(dados.nome), updatedAt: iso })
        .where('id', '=', id)
        .execute();
    }
    if (lido.cicloEntregas !== null) await reconciliarEntregas(trx, cicloid, lido.cicloEntregas, iso);
    if (lido.cicloPontos !== null) await reconciliarPontos(trx, cicloid, lido.cicloPontos, iso);
    for (const [pontoEntregaId, ids] of voluntarios.ids)
      await gravarVoluntarios(trx, cicloid, pontoEntregaId, ids, iso);
    if (lido.cicloCestas !== null) await reconciliarCestas(trx, cicloid, lido.cicloCestas, iso);
    if (lido.cicloProdutos !== null) {
      await reconciliarProdutos(trx, cicloid, lido.cicloProdutos, iso);
      // Extras come from what baskets leave over of the finalised offers (DOMAIN.md, Extras):
      // each row over it is refused by its field, with what there is.
      const [linhas, extras] = [await linhasOfertadas(trx, cicloid), await extrasPublicados(trx, cicloid)];
      const sobras = new Map(sobrasPorProduto(linhas).map((x) => [x.produtoId, x.sobraMilesimos]));
      const unidades = new Map(extras.map((e) => [e.produtoId, e.unidade]));
      // No product of these rows is released to a venda_direta market (reconciliarProdutos refuses
      // it, and a product has one row per cycle), so all its surplus is theirs.
      const acima = Object.fromEntries(
        lido.cicloProdutos.flatMap((p) => {
          const sobra = sobras.get(p.produtoId) ?? 0;
          // `campo` names the row's product field; the refusal sits by its quantity.
          return p.quantidadeMilesimos > sobra
            ? [
                [
                  // Stryker disable next-line Regex: every row's campo is "<list>.<i>.produtoId", with its only ".produtoId" at the end
                  p.campo.replace(/\.produtoId$/, '.quantidade'),
                  `Passa da sobra das ofertas finalizadas: ${formatarQuantidadeComUnidade(sobra, unidades.get(p.produtoId) ?? '')}`,
                ],
              ]
            : [];
        }),
      );
      if (Object.keys(acima).length > 0)
        throw new Conflito('CAPACIDADE_EXCEDIDA', 'Os extras passam do que sobra das ofertas finalizadas', acima);
      conferirCapacidade(linhas, extras);
    }
    const depois = await obterCiclo(trx, cicloid, hoje);
    await auditar(trx, ator, agora, {
      acao: id === null ? 'criar' : 'atualizar',
      entidade: 'ciclo',
      entidadeId: cicloid,
      antes,
      depois,
    });
    return depois;
  });
}

const REFERENCIAS_CICLO: readonly Referencia[] = [
  { tabela: 'oferta', coluna: 'cicloid', descricao: 'ofertas' },
  { tabela: 'pedido', coluna: 'cicloid', descricao: 'pedidos' },
  { tabela: 'movimentacao', coluna: 'cicloid', descricao: 'movimentações' },
];

/** Deletes a cycle that nothing uses, with its own lists; one in use gives 409. */
export async function apagarCiclo(banco: Banco, ator: Ator, id: number, agora: Date, hoje: string): Promise<void> {
  await emTransacao(banco, async (trx) => {
    const antes = await obterCiclo(trx, id, hoje);
    exigirAberto(antes);
    await exigirSemReferencias(trx, REFERENCIAS_CICLO, id, 'o ciclo');
    const composicoes = await trx
      .selectFrom('composicao')
      .innerJoin('ciclocesta', 'ciclocesta.id', 'composicao.cicloCestaId')
      .select('composicao.id')
      .where('ciclocesta.cicloid', '=', id)
      .execute();
    if (composicoes.length > 0) {
      throw new Conflito(
        'EM_USO',
        `Não é possível apagar o ciclo: em uso por ${composicoes.length} composições. Desative em vez de apagar.`,
        {
          referencias: { composições: composicoes.length },
        },
      );
    }
    await trx
      .deleteFrom('ciclomercadoponto')
      .where('cicloMercadoId', 'in', trx.selectFrom('ciclomercado').select('id').where('cicloid', '=', id))
      .execute();
    for (const tabela of [
      'cicloentrega',
      'voluntario',
      'ciclopontoentrega',
      'ciclomercado',
      'ciclocesta',
      'cicloproduto',
    ] as const)
      await trx.deleteFrom(tabela).where('cicloid', '=', id).execute();
    await trx.deleteFrom('ciclo').where('id', '=', id).execute();
    await auditar(trx, ator, agora, { acao: 'apagar', entidade: 'ciclo', entidadeId: id, antes });
  });
}
