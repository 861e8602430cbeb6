/**
 * The pickup day on the Cestas face: what the QR page of a receipt sends (GET
 * /retirada/pedido/:token) and the coordination's view of a cycle's pickup (GET /retirada/:cicloId).
 */
import { Type } from '@sinclair/typebox';
import { MAIOR_ID } from '../../http/campos.ts';
import { Data, Hora, Id, Instante, Nulo, Quantidade, Reais } from './comum.ts';

export const ParamsCicloDaRetirada = Type.Object({ cicloId: Type.Integer({ minimum: 1, maximum: MAIOR_ID }) });
/** Any text: one that is not a valid token is told so (404), not refused as a malformed address. */
export const ParamsTokenDaRetirada = Type.Object({ token: Type.String({ maxLength: 200 }) });

const Conteudo = Type.Object({ nome: Type.String(), unidade: Type.String(), quantidade: Quantidade });

export const PedidoDoQrJson = Type.Object({
  pedidoId: Id,
  primeiroNome: Type.String(),
  finalizado: Type.Boolean({ description: 'Só um pedido confirmado é entregue (e cobrado)' }),
  ciclo: Type.Object({ nome: Type.String(), dataRetiradaInicio: Data, dataRetiradaFim: Data }),
  ponto: Type.Object({
    nome: Type.String(),
    endereco: Nulo(Type.String()),
    cidade: Nulo(Type.String()),
    dataRetirada: Nulo(Data),
    horaInicio: Nulo(Hora),
    horaFim: Nulo(Hora),
  }),
  itens: Type.Array(
    Type.Object({
      tipo: Type.String({ description: 'cesta ou extra' }),
      nome: Type.String(),
      unidade: Type.String(),
      quantidade: Quantidade,
      conteudo: Type.Array(Conteudo, { description: 'Numa cesta: o que vem nelas, por produto' }),
    }),
  ),
  retiradoEm: Nulo(Instante),
});

const Registro = Type.Object(
  {
    acaoId: Id,
    chave: Type.String({ description: 'O id que o aparelho deu ao registro' }),
    quem: Type.String(),
    dispositivo: Type.String(),
    feitoEm: Instante,
    recebidoEm: Instante,
  },
  { description: 'Quem registrou, em que aparelho, quando (no aparelho) e quando chegou' },
);
const Pedido = { pedidoId: Id, pessoa: Type.String() };

const Ponto = Type.Object({
  pontoEntregaId: Id,
  nome: Type.String(),
  endereco: Nulo(Type.String()),
  dataRetirada: Nulo(Data),
  horaInicio: Nulo(Hora),
  horaFim: Nulo(Hora),
  voluntarios: Type.Array(Type.Object({ usuarioid: Id, nome: Type.String(), email: Type.String() })),
  pedidos: Type.Integer({ description: 'Pedidos confirmados com retirada neste ponto' }),
  retirados: Type.Array(
    Type.Object({
      ...Pedido,
      telefone: Nulo(Type.String()),
      primeira: Registro,
      registros: Type.Array(Registro),
    }),
    { description: 'Os retirados; a primeira retirada (pelo momento no aparelho) é a que vale' },
  ),
  faltando: Type.Array(Type.Object({ ...Pedido, telefone: Nulo(Type.String()) }), {
    description: 'Os pedidos confirmados ainda não retirados',
  }),
  faltas: Type.Array(
    Type.Object({
      registro: Registro,
      ...Pedido,
      pedidoProdutoId: Nulo(Id),
      produtoId: Nulo(Id),
      item: Type.String(),
      cesta: Nulo(Type.String()),
      unidade: Type.String(),
      quantidade: Quantidade,
      substituto: Nulo(Type.String()),
      texto: Nulo(Type.String()),
      credito: Reais,
    }),
  ),
  creditoDasFaltas: Reais,
  pagamentos: Type.Array(
    Type.Object({
      registro: Registro,
      ...Pedido,
      forma: Type.String({ description: 'dinheiro ou pix' }),
      valor: Reais,
    }),
  ),
  totais: Type.Object({
    dinheiro: Type.Object({ quantos: Type.Integer(), valor: Reais }),
    pix: Type.Object({ quantos: Type.Integer(), valor: Reais }),
    total: Reais,
  }),
  notas: Type.Array(Type.Object({ registro: Registro, ...Pedido, texto: Type.String() })),
  conflitos: Type.Array(
    Type.Object({
      tipo: Type.String({ description: 'retirada_repetida ou falta_repetida' }),
      ...Pedido,
      descricao: Type.String(),
      registros: Type.Array(Registro),
    }),
  ),
});

export const ResumoDaRetiradaJson = Type.Object({
  cicloid: Id,
  nome: Type.String(),
  fase: Type.String(),
  fechadoEm: Nulo(Instante),
  aberta: Type.Boolean({ description: 'A retirada abriu: o período de pedidos terminou' }),
  versao: Type.String({ description: 'Muda quando algo desta página muda' }),
  geradoEm: Instante,
  pontos: Type.Array(Ponto),
});

/** What naming a point's volunteers answers: the point and its volunteers now, by name. */
export const VoluntariosDoPontoJson = Type.Object({
  pontoEntregaId: Id,
  voluntarios: Type.Array(Type.Object({ usuarioid: Id, nome: Type.String(), email: Type.String() })),
});
