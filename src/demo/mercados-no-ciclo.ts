/**
 * The demo's platform: the cycle with open orders serves one market of each type, set through the
 * domain's own rules, so a newcomer sees baskets sold in a cesta market under its ceiling, items
 * released to a venda_direta market at its price, and a lot for the school. Runs after the
 * Cestas and Mercados demo data (src/servicos.ts).
 */
import type { Banco } from '../db/banco.ts';
import type { Ator } from '../domain/acesso.ts';
import { linhasOfertadas } from '../domain/alocacao.ts';
import { salvarComposicao } from '../domain/composicao.ts';
import { definirMercadosDoCiclo } from '../domain/mercados-do-ciclo/definir.ts';
import { salvarLote } from '../domain/mercados-do-ciclo/lote.ts';
import { liberarParaMercado } from '../domain/mercados-do-ciclo/venda-direta.ts';

export const CICLO_COM_MERCADOS = 'Ciclo com pedidos abertos';

export async function carregarDemoDosMercadosNoCiclo(banco: Banco, agora: Date): Promise<void> {
  const ciclo = await banco.selectFrom('ciclo').select('id').where('nome', '=', CICLO_COM_MERCADOS).executeTakeFirst();
  if (ciclo === undefined) return;
  const cicloid = ciclo.id;
  const ana = await banco
    .selectFrom('usuario')
    .select(['id', 'nome', 'email'])
    .where('email', '=', 'ana@exemplo.org')
    .executeTakeFirstOrThrow();
  const ator: Ator = { email: ana.email, nome: ana.nome, usuarioid: ana.id, perfil: ['master'], ativo: true };
  const id = async (tabela: 'mercado' | 'pontoentrega' | 'produto', nome: string) =>
    (await banco.selectFrom(tabela).select('id').where('nome', '=', nome).executeTakeFirstOrThrow()).id;
  const [cestas, direta, lote] = [
    await id('mercado', 'Cesta Solidária'),
    await id('mercado', 'Feira da Associação'),
    await id('mercado', 'Lote da merenda escolar'),
  ];
  const [sede, escola, feira] = [
    await id('pontoentrega', 'Sede da Associação'),
    await id('pontoentrega', 'Escola Estadual Centro'),
    await id('pontoentrega', 'Feira do Produtor'),
  ];
  const grande = await banco
    .selectFrom('ciclocesta as cc')
    .innerJoin('cesta', 'cesta.id', 'cc.cestaId')
    .select(['cc.id', 'cc.quantidadeCestas'])
    .where('cc.cicloid', '=', cicloid)
    .where('cesta.nome', '=', 'Cesta Grande')
    .executeTakeFirstOrThrow();
  const linhas = await linhasOfertadas(banco, cicloid);
  const linha = (produto: string, fornecedor: string) =>
    linhas.find((l) => l.produto === produto && l.fornecedor.startsWith(fornecedor))?.ofertaProdutoId ?? 0;
  // The large basket, composed within the cesta market's ceiling (R$ 19,00 of R$ 120,00).
  await salvarComposicao(
    banco,
    ator,
    {
      cicloCestaId: grande.id,
      quantidadeCestas: grande.quantidadeCestas,
      itens: [
        {
          ofertaProdutoId: linha('Couve manteiga', 'Dora'),
          quantidadeMilesimos: 2000,
          unidade: 'maço',
          campo: 'produtos.0',
        },
        {
          ofertaProdutoId: linha('Banana prata', 'Elias'),
          quantidadeMilesimos: 1000,
          unidade: 'dúzia',
          campo: 'produtos.1',
        },
        { ofertaProdutoId: linha('Mandioca', 'Elias'), quantidadeMilesimos: 1000, unidade: 'kg', campo: 'produtos.2' },
      ],
    },
    agora,
  );
  await definirMercadosDoCiclo(
    banco,
    ator,
    cicloid,
    [
      {
        mercadoId: cestas,
        ordemAtendimento: 1,
        pontoEntregaIds: [sede, escola],
        cicloCestaIds: [grande.id],
        campo: 'cicloMercados.0',
      },
      {
        mercadoId: direta,
        ordemAtendimento: 2,
        pontoEntregaIds: [sede, feira],
        cicloCestaIds: [],
        campo: 'cicloMercados.1',
      },
      { mercadoId: lote, ordemAtendimento: 3, pontoEntregaIds: [escola], cicloCestaIds: [], campo: 'cicloMercados.2' },
    ],
    agora,
  );
  // Half of the lettuce the baskets leave over goes to the fair, at its price.
  await liberarParaMercado(
    banco,
    ator,
    cicloid,
    direta,
    [{ produtoId: await id('produto', 'Alface crespa'), quantidadeMilesimos: 10_000, campo: 'itens.0' }],
    agora,
  );
  await salvarLote(
    banco,
    ator,
    cicloid,
    null,
    {
      mercadoId: lote,
      comprador: 'Escola Estadual Centro (merenda)',
      compradorUsuarioId: null,
      pontoEntregaId: escola,
      valorAlvoCentavos: 6000,
      linhas: [{ ofertaProdutoId: linha('Mandioca', 'Elias'), quantidadeMilesimos: 10_000, campo: 'linhas.0' }],
    },
    agora,
  );
}
