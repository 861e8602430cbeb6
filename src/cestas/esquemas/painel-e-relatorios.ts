import { Type } from '@sinclair/typebox';
import { Acoes, Data, Id, Instante, Livre, Nulo, Perfil, Quantidade, Reais } from './comum.ts';
import { CicloResumo, Fase, Paginacao, UsuarioJson } from './registros.ts';

/** The Cestas face's schemas: composition, money, reports, the dashboard and the account. */

const ProdutoDaComposicao = Type.Object({
  ofertaProdutoId: Id,
  produtoId: Id,
  produto: Type.String(),
  fornecedor: Type.String(),
  quantidadePorCesta: Quantidade,
  unidade: Type.String({ description: 'A unidade do produto, em que quantidadePorCesta é contada' }),
  unidadeEscolhida: Type.String({ description: 'A unidade em que a coordenação compôs (g, unidade…), para mostrar' }),
  quantidadeNaUnidadeEscolhida: Quantidade,
  valor: Reais,
  custo: Reais,
});
export const Composicao = Type.Object({
  cicloCesta: Type.Object({
    id: Id,
    cicloid: Id,
    cicloNome: Type.String({ description: 'O nome do ciclo' }),
    cestaId: Id,
    nome: Type.String(),
    quantidadeCestas: Type.Integer(),
    cestasPedidas: Type.Integer(),
  }),
  composicao: Type.Object({
    cicloCestaId: Type.Integer({ minimum: 1, description: 'A cesta do ciclo (a mesma de `cicloCesta.id`)' }),
    quantidadeCestas: Type.Integer(),
    produtos: Type.Array(ProdutoDaComposicao),
  }),
  ofertas: Type.Array(
    Type.Object({
      ofertaProdutoId: Id,
      produtoId: Id,
      produto: Type.String(),
      unidade: Type.String(),
      fornecedor: Type.Object({ id: Id, nome: Type.String() }),
      valor: Reais,
      quantidadeOfertada: Quantidade,
      quantidadeAlocada: Quantidade,
      quantidadeDisponivel: Quantidade,
    }),
  ),
  extras: Type.Array(
    Type.Object({ produtoId: Id, produto: Type.String(), unidade: Type.String(), quantidade: Quantidade }),
  ),
  fornecedores: Type.Array(Type.Object({ id: Id, nome: Type.String(), valorAcumulado: Reais })),
  custoPorCesta: Reais,
  valorReferencia: Reais,
});
export const PaginaComposicao = Type.Intersect([Composicao, Type.Object({ acoes: Acoes })]);

export const Movimentacao = Type.Object({
  id: Id,
  usuarioid: Id,
  tipoMovimentacaoId: Id,
  sentido: Type.Union([Type.Literal('credito'), Type.Literal('debito')]),
  valor: Reais,
  data: Data,
  descricao: Type.String(),
  arquivo: Nulo(Type.String({ description: 'O comprovante, baixado em /movimentacao/:id/arquivo' })),
  cicloid: Nulo(Id),
});
export const FechamentoDoCiclo = Type.Object({
  cicloid: Id,
  fechadoEm: Instante,
  novas: Type.Integer({ description: 'Movimentações registradas agora; 0 se o ciclo já estava fechado' }),
  debitos: Reais,
  creditos: Reais,
  naoConfirmados: Type.Array(Type.Object({ pedidoId: Id, nome: Type.String(), totalComTaxa: Reais }), {
    description: 'Pedidos que ninguém confirmou até o fim dos pedidos: ficaram de fora, não são entregues nem cobrados',
  }),
});

export const PreviaDoFechamento = Type.Object({
  ciclo: Type.Object({ id: Id, nome: Type.String(), dataPedidoFim: Data, fechadoEm: Nulo(Instante) }),
  possivel: Type.Boolean({ description: 'Fechar é possível hoje: os pedidos terminaram e o ciclo está aberto' }),
  confirmados: Type.Integer(),
  naoConfirmados: Type.Array(Type.Object({ pedidoId: Id, nome: Type.String(), totalComTaxa: Reais }), {
    description: 'Pedidos sem confirmação: não entram na entrega nem na cobrança',
  }),
  debitos: Reais,
  creditos: Reais,
  fornecedores: Type.Integer(),
});
// A cell is a number, a text or null. Written as one schema with three types, not as a union of
// three: the response's serializer checks a type list with typeof, and a union by trying each
// branch, which made a report of 5,000 orders several times slower to write (docs/performance.md).
const Celula = Type.Unsafe<number | string | null>({ type: ['number', 'string', 'null'] });
export const RelatorioJson = Type.Object({
  titulo: Type.String(),
  subtitulo: Nulo(Type.String()),
  colunas: Type.Array(
    Type.Object({
      chave: Type.String(),
      titulo: Type.String({ description: 'O cabeçalho, como as pessoas leem' }),
      tipo: Type.String(),
    }),
  ),
  grupos: Type.Array(
    Type.Object({
      titulo: Type.String(),
      linhas: Type.Array(Type.Record(Type.String(), Celula)),
      subtotais: Type.Record(Type.String(), Celula),
    }),
  ),
  totais: Type.Record(Type.String(), Celula),
});
const CicloParaEscolher = Type.Object({ id: Id, nome: Type.String(), fase: Fase });
export const EscolhaDeCiclos = Type.Object({ ciclos: Type.Array(CicloParaEscolher) });

export const Painel = Type.Object({
  usuario: Type.Object({ id: Nulo(Id), nome: Type.String(), email: Type.String(), perfil: Type.Array(Perfil) }),
  hoje: Data,
  ciclos: Type.Array(
    Type.Intersect([
      CicloResumo,
      Type.Object({
        acoes: Type.Array(Type.String()),
        andamento: Nulo(
          Type.Object(
            {
              oferta: Type.Union([Type.Literal('sem'), Type.Literal('rascunho'), Type.Literal('finalizada')], {
                description: 'A oferta da pessoa no ciclo',
              }),
              pedido: Type.Union([Type.Literal('sem'), Type.Literal('salvo'), Type.Literal('confirmado')], {
                description: 'O pedido da pessoa no ciclo',
              }),
              pedidoId: Nulo(Id),
              pontoEntrega: Nulo(Type.String()),
            },
            { description: 'Onde a pessoa está no ciclo; null sem cadastro' },
          ),
        ),
        pendencias: Nulo(
          Type.Object(
            {
              semOferta: Type.Array(Type.Object({ id: Id, nome: Type.String() }), {
                description: 'Fornecedores ativos sem oferta finalizada',
              }),
              naoConfirmados: Type.Array(Type.Object({ id: Id, nome: Type.String(), pedidoId: Id }), {
                description: 'Pedidos salvos que falta confirmar',
              }),
            },
            { description: 'Só para a coordenação, em ciclos em andamento' },
          ),
        ),
      }),
    ]),
  ),
  saldo: Nulo(
    Type.Object({
      saldo: Type.Number({ description: 'Créditos menos débitos, em reais' }),
      movimentacoes: Type.Integer(),
    }),
  ),
  atalhos: Type.Array(Type.Object({ href: Type.String(), rotulo: Type.String() })),
  suaCesta: Type.Array(
    Type.Object({
      assinaturaId: Id,
      cicloid: Id,
      ciclo: Type.String(),
      cesta: Type.String(),
      quantidade: Type.Integer(),
      pontoEntrega: Type.String(),
      situacao: Type.Union([
        Type.Literal('gerado'),
        Type.Literal('pulado'),
        Type.Literal('pausado'),
        Type.Literal('faltou'),
        Type.Null(),
      ]),
      motivo: Nulo(Type.String()),
    }),
    { description: 'As assinaturas da pessoa nos ciclos com pedidos abertos: o que vem (ou não) e onde' },
  ),
});

const Identidade = Type.Object({
  sub: Type.String(),
  email: Type.String(),
  name: Type.String(),
  picture: Type.Optional(Type.String()),
});
export const Cadastro = Type.Object({ identidade: Identidade, usuario: Nulo(UsuarioJson) });

export const Auditoria = Type.Object({
  itens: Type.Array(
    Type.Object({
      id: Id,
      usuarioid: Nulo(Id),
      em: Instante,
      ator: Type.String(),
      acao: Type.String(),
      entidade: Type.String(),
      entidadeId: Nulo(Type.String()),
      antes: Type.Unknown({ description: 'O registro antes' }),
      depois: Type.Unknown({ description: 'O registro depois' }),
    }),
  ),
  ...Paginacao,
});
export const Texto = Type.Object({ titulo: Type.String(), markdown: Type.String() });
const LinkDeRelatorio = Type.Object({
  titulo: Type.String(),
  href: Type.String(),
  arquivo: Type.Optional(Type.Boolean({ description: 'Um arquivo (CSV ou PDF), que o navegador salva' })),
});
export const Relatorios = Type.Object({
  ciclos: Type.Array(Type.Intersect([CicloParaEscolher, Type.Object({ relatorios: Type.Array(LinkDeRelatorio) })])),
  deVariosCiclos: Type.Array(LinkDeRelatorio),
});
export const PaginaMovimentacao = Livre('As escolhas do formulário: pessoas, tipos, ciclos e saldos');
