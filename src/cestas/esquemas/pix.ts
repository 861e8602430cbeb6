import { Type } from '@sinclair/typebox';
import { Acoes, Data, Id, Nulo, Reais } from './comum.ts';
import { PedidoJson } from './ofertas-e-pedidos.ts';

/** The Cestas face's schemas: pix: charges, their BR Code, and bank statements. */

export const PixJson = Type.Object(
  {
    copiaECola: Type.String({ description: 'O BR Code (Pix copia e cola), com valor e txid' }),
    qrSvg: Type.String({ description: 'O QR code do mesmo texto, em SVG' }),
    valor: Reais,
    txid: Type.String({ description: 'Identifica a pessoa e o ciclo: CST<pessoa>C<ciclo>, até 25 caracteres' }),
  },
  { description: 'O Pix estático que paga o valor devido' },
);

export const CobrancaJson = Type.Object(
  {
    usuarioid: Id,
    nome: Type.String(),
    devido: Type.Number({ description: 'O que a pessoa deve (zero ou menos: nada a pagar)' }),
    txid: Type.String(),
    cicloid: Nulo(Id),
    linhas: Type.Array(
      Type.Object({
        tipo: Type.String({
          description: 'saldo (as movimentações) ou pedido (confirmado, de um ciclo ainda não fechado)',
        }),
        descricao: Type.String(),
        valor: Type.Number({ description: 'O que a linha soma ao devido (um crédito subtrai)' }),
        cicloid: Nulo(Id),
        pedidoId: Nulo(Id),
      }),
    ),
    pix: Nulo(PixJson),
  },
  { description: 'O valor devido, linha a linha, e o Pix que o paga' },
);

export const ListaDeCobrancas = Type.Object({
  itens: Type.Array(CobrancaJson),
  total: Reais,
  pixConfigurado: Type.Boolean(),
});

const LinhaDoExtratoJson = Type.Object({
  id: Id,
  idBanco: Type.String({
    description: 'O identificador da linha: ofx:<banco>:<conta>:<FITID>, ou csv:<data>:<centavos>:<n> para um CSV',
  }),
  data: Data,
  valor: Reais,
  descricao: Type.String(),
  pagador: Nulo(Type.String()),
  txid: Nulo(Type.String()),
  arquivo: Type.String(),
  estado: Type.String({ description: 'pendente, conciliada ou descartada' }),
  proposta: Nulo(Type.String({ description: 'txid, nome ou ambigua' })),
  usuario: Nulo(Type.Object({ id: Id, nome: Type.String() })),
  candidatos: Type.Array(Type.Object({ id: Id, nome: Type.String() })),
  movimentacaoid: Nulo(Id),
  motivo: Nulo(Type.String()),
});

export const PaginaExtratos = Type.Object({
  pendentes: Type.Array(LinhaDoExtratoJson),
  resolvidas: Type.Array(LinhaDoExtratoJson),
  pessoas: Type.Array(Type.Object({ id: Id, nome: Type.String() })),
  mapeamentos: Type.Array(
    Type.Object({
      id: Id,
      nome: Type.String(),
      separador: Type.String(),
      colunaData: Type.String(),
      colunaValor: Type.String(),
      colunaDescricao: Type.String(),
      colunaPagador: Nulo(Type.String()),
      colunaDocumento: Nulo(Type.String()),
    }),
  ),
});

export const ResumoDaImportacao = Type.Object({
  creditos: Type.Integer(),
  novas: Type.Integer(),
  repetidas: Type.Integer(),
  ignoradas: Type.Integer(),
  porTxid: Type.Integer(),
  porNome: Type.Integer(),
  ambiguas: Type.Integer(),
});

export const ResultadoDaConciliacao = Type.Object({ conciliadas: Type.Integer(), rejeitadas: Type.Integer() });

export const ConfirmacaoPedido = Type.Intersect([
  PedidoJson,
  Type.Object({ acoes: Acoes, cobranca: Nulo(CobrancaJson) }),
]);
