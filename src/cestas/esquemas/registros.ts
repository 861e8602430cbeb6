import { type TSchema, Type } from '@sinclair/typebox';
import { Acoes, Data, Hora, Id, Instante, Livre, Nulo, Perfil, Quantidade, Reais } from './comum.ts';

/** The Cestas face's schemas: records of the spec's standard routes. */

const Carimbos = { createdAt: Instante, updatedAt: Instante };

const Categoria = Type.Object({
  id: Id,
  nome: Type.String(),
  descricao: Nulo(Type.String()),
  ativo: Type.Boolean(),
  ...Carimbos,
});
const Cesta = Type.Object({
  id: Id,
  nome: Type.String(),
  descricao: Nulo(Type.String()),
  valorReferencia: Reais,
  pesoAproximado: Nulo(Type.Number()),
  ativo: Type.Boolean(),
  ...Carimbos,
});
const Produto = Type.Object({
  id: Id,
  nome: Type.String(),
  unidade: Type.String(),
  pesoGramas: Nulo(Type.Number()),
  valorReferencia: Reais,
  descritivo: Nulo(Type.String()),
  categoriaid: Nulo(Id),
  categoria: Nulo(Type.Object({ id: Id, nome: Type.String() })),
  ativo: Type.Boolean(),
  ...Carimbos,
});
const PontoEntrega = Type.Object({
  id: Id,
  nome: Type.String(),
  endereco: Nulo(Type.String()),
  cidade: Nulo(Type.String()),
  referencia: Nulo(Type.String()),
  responsavel: Nulo(Type.String()),
  telefone: Nulo(Type.String()),
  ativo: Type.Boolean(),
  ...Carimbos,
});
export const UsuarioJson = Type.Object({
  id: Id,
  nome: Type.String(),
  email: Type.String(),
  perfil: Type.Array(Perfil),
  nomeoficial: Nulo(Type.String()),
  celular: Nulo(Type.String()),
  descritivo: Nulo(Type.String()),
  cientepolitica: Type.Boolean(),
  ativo: Type.Boolean(),
  loginVinculado: Type.Boolean({ description: 'Se um login já está ligado ao cadastro' }),
  ...Carimbos,
});
const Datas = {
  dataOfertaInicio: Data,
  dataOfertaFim: Data,
  dataPedidoInicio: Data,
  dataPedidoFim: Data,
  dataRetiradaInicio: Data,
  dataRetiradaFim: Data,
};
export const Fase = Type.String({ description: 'planejado, oferta, composicao, pedido, retirada ou encerrado' });
export const CicloResumo = Type.Object({ id: Id, nome: Type.String(), ...Datas, fase: Fase });
const Ciclo = Type.Object({
  id: Id,
  nome: Type.String(),
  ...Datas,
  fase: Fase,
  ativo: Type.Boolean(),
  fechadoEm: Nulo(Instante),
  cicloEntregas: Type.Array(Type.Object({ id: Id, dataEntrega: Data, observacao: Nulo(Type.String()) })),
  cicloPontos: Type.Array(
    Type.Object({
      id: Id,
      pontoEntregaId: Id,
      nome: Type.String(),
      endereco: Nulo(Type.String()),
      cidade: Nulo(Type.String()),
      dataRetirada: Nulo(Data),
      horaInicio: Nulo(Hora),
      horaFim: Nulo(Hora),
      pedidos: Type.Integer({ description: 'Pedidos do ciclo com retirada neste ponto' }),
      voluntarios: Type.Array(Type.Object({ usuarioid: Id, nome: Type.String(), email: Type.String() }), {
        description:
          'Quem a coordenação nomeou para a retirada neste ponto, neste ciclo (para mudar, envie voluntarios com os e-mails)',
      }),
    }),
    { description: 'Os pontos de retirada do ciclo, com dia e horário; vazio: todos os pontos ativos' },
  ),
  cicloCestas: Type.Array(
    Type.Object({
      id: Id,
      cestaId: Id,
      nome: Type.String(),
      quantidadeCestas: Type.Integer(),
      quantidadePedida: Type.Integer(),
      composta: Type.Boolean({ description: 'Algo composto nela: só então pode ser pedida' }),
    }),
  ),
  cicloProdutos: Type.Array(
    Type.Object({
      id: Id,
      produtoId: Id,
      nome: Type.String(),
      unidade: Type.String(),
      quantidade: Quantidade,
      valor: Reais,
    }),
  ),
  sobras: Type.Array(Type.Object({ produtoId: Id, nome: Type.String(), unidade: Type.String(), sobra: Quantidade }), {
    description: 'O que as ofertas finalizadas deixam de cada produto depois das cestas: o teto dos extras',
  }),
  ...Carimbos,
});

/** A cycle in the index: its dates, phase and whether it is active, without its lists. */
export const CicloNoIndice = Type.Object({ id: Id, nome: Type.String(), ativo: Type.Boolean(), ...Datas, fase: Fase });

export const Paginacao = {
  total: Type.Integer(),
  pagina: Type.Integer(),
  porPagina: Type.Integer(),
  paginas: Type.Integer(),
  ordem: Type.String(),
  direcao: Type.Union([Type.Literal('asc'), Type.Literal('desc')]),
  busca: Nulo(Type.String()),
};

/** An index of records: one page of them, each with what the actor may do to it. */
export const indice = (registro: TSchema) =>
  Type.Object({
    itens: Type.Array(Type.Intersect([registro, Type.Object({ acoes: Acoes })])),
    ...Paginacao,
    acoes: Acoes,
  });

/** A record's form: the record (null for a new one), the form's choices, and the actions. */
export const formulario = (registro: TSchema) =>
  Type.Object({ registro: Nulo(registro), opcoes: Livre('As escolhas do formulário'), acoes: Acoes });

/** Each record type of the standard routes: its JSON shape (what its save reads is the record's `corpo`). */
export const REGISTROS: Readonly<Record<string, { registro: TSchema }>> = {
  categoria: { registro: Categoria },
  cesta: { registro: Cesta },
  produto: { registro: Produto },
  pontoentrega: { registro: PontoEntrega },
  usuario: { registro: UsuarioJson },
  ciclo: { registro: Ciclo },
};

/** What a delete answers: the id that is gone. */
export const Apagado = Type.Object({ id: Id });
