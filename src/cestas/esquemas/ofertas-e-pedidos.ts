import { Type } from '@sinclair/typebox';
import { Acoes, Data, Hora, Id, Instante, Nulo, Quantidade, Reais } from './comum.ts';
import { Fase } from './registros.ts';

/** The Cestas face's schemas: offers and orders (one shape each, as the contract writes them). */

const LinhaDaOferta = Type.Object({
  ofertaProdutoId: Id,
  produtoid: Id,
  nome: Type.String(),
  unidade: Type.String(),
  quantidade: Quantidade,
  valor: Reais,
  alocado: Type.Number({ description: 'Quanto as composições já usam da linha' }),
});
export const OfertaJson = Type.Object({
  oferta: Type.Object({
    id: Nulo(Id),
    cicloid: Id,
    usuarioid: Id,
    finalizada: Type.Boolean(),
    finalizadaEm: Nulo(Instante),
    total: Reais,
  }),
  produtos: Type.Array(LinhaDaOferta),
});
export const PaginaOferta = Type.Intersect([
  OfertaJson,
  Type.Object({
    ciclo: Type.Object({ id: Id, nome: Type.String(), fase: Fase, dataOfertaInicio: Data, dataOfertaFim: Data }),
    produtosDisponiveis: Type.Array(
      Type.Object({
        produtoid: Id,
        nome: Type.String(),
        unidade: Type.String(),
        valorReferencia: Reais,
        categoria: Nulo(Type.String()),
        ofertadoAntes: Type.Boolean({ description: 'Se o fornecedor já o ofertou (os de costume vêm primeiro)' }),
      }),
    ),
    acoes: Acoes,
    fornecedor: Type.Object({ id: Id, nome: Type.String() }),
  }),
]);

const LinhaDoPedido = Type.Object({
  id: Id,
  tipo: Type.Union([Type.Literal('cesta'), Type.Literal('extra')]),
  cicloCestaId: Nulo(Id),
  cicloProdutoId: Nulo(Id),
  nome: Type.String(),
  unidade: Type.String(),
  quantidade: Quantidade,
  valor: Reais,
  subtotal: Reais,
  mercadoId: Nulo(Id),
  mercado: Nulo(Type.String({ description: 'O mercado em que o item é comprado; null num ciclo sem mercados' })),
});
const Pedido = Type.Object({
  id: Id,
  cicloid: Id,
  usuarioid: Id,
  usuario: Type.Object({ id: Id, nome: Type.String() }),
  pontoEntrega: Type.Object(
    { id: Id, nome: Type.String(), dataRetirada: Nulo(Data), horaInicio: Nulo(Hora), horaFim: Nulo(Hora) },
    { description: 'O ponto, com o dia e o horário de retirada quando o ciclo os define' },
  ),
  pontoEntregaId: Id,
  finalizado: Type.Boolean(),
  dataConfirmacao: Nulo(Instante),
  total: Reais,
  taxa: Reais,
  totalComTaxa: Reais,
  partes: Type.Array(Type.Object({ mercadoId: Nulo(Id), mercado: Nulo(Type.String()), subtotal: Reais, taxa: Reais }), {
    description:
      'O que o pedido compra em cada mercado e a taxa de cada um (a taxaAdministrativa do mercado; fora de mercados, a taxa da comunidade)',
  }),
});
export const PedidoJson = Type.Object({ pedidoId: Id, pedido: Pedido, produtos: Type.Array(LinhaDoPedido) });
const PedidoOuNada = Type.Object({ pedidoId: Nulo(Id), pedido: Nulo(Pedido), produtos: Type.Array(LinhaDoPedido) });
export const PaginaPedido = Type.Intersect([
  PedidoOuNada,
  Type.Object({
    ciclo: Type.Object({ id: Id, nome: Type.String(), fase: Fase, dataPedidoInicio: Data, dataPedidoFim: Data }),
    cestas: Type.Array(
      Type.Object({
        cicloCestaId: Id,
        cestaId: Id,
        nome: Type.String(),
        descricao: Nulo(Type.String()),
        valor: Reais,
        disponivel: Type.Number(),
        emComposicao: Type.Boolean({ description: 'Nada composto nela ainda: não pode ser pedida' }),
        mercado: Nulo(Type.String({ description: 'O mercado de cestas que a vende; null num ciclo sem mercados' })),
        composicao: Type.Array(Type.Object({ produto: Type.String(), quantidade: Quantidade, unidade: Type.String() })),
      }),
    ),
    extras: Type.Array(
      Type.Object({
        cicloProdutoId: Id,
        produtoId: Id,
        nome: Type.String(),
        unidade: Type.String(),
        valor: Reais,
        disponivel: Quantidade,
        mercado: Nulo(
          Type.String({ description: 'O mercado de venda direta que o vende; null para um extra do ciclo' }),
        ),
      }),
    ),
    pontosEntrega: Type.Array(
      Type.Object({
        id: Id,
        nome: Type.String(),
        endereco: Nulo(Type.String()),
        cidade: Nulo(Type.String()),
        dataRetirada: Nulo(Data),
        horaInicio: Nulo(Hora),
        horaFim: Nulo(Hora),
      }),
      {
        description:
          'Onde retirar: os pontos do ciclo com dia e horário, ou todos os pontos ativos se o ciclo não lista os seus',
      },
    ),
    taxa: Type.Object({
      percentual: Type.Number({ description: 'Percentual sobre o pedido' }),
      fixa: Type.Number({ description: 'Reais por pedido' }),
    }),
    acoes: Acoes,
    consumidor: Type.Object({ id: Id, nome: Type.String() }),
  }),
]);
export const ListaDeOfertas = Type.Object({
  itens: Type.Array(
    Type.Object({
      id: Id,
      ciclo: Type.Object({ id: Id, nome: Type.String(), fase: Fase }),
      fornecedor: Type.Object({ id: Id, nome: Type.String() }),
      cicloid: Type.Integer({
        minimum: 1,
        description: 'O ciclo da oferta (o mesmo de `ciclo.id`), como o contrato o nomeia',
      }),
      usuarioid: Type.Integer({
        minimum: 1,
        description: 'O fornecedor da oferta (o mesmo de `fornecedor.id`), como o contrato o nomeia',
      }),
      finalizada: Type.Boolean(),
      itens: Type.Integer(),
      total: Reais,
    }),
  ),
});
export const ListaDePedidos = Type.Object({ itens: Type.Array(PedidoJson) });
