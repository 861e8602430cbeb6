import { Type } from '@sinclair/typebox';
import { MAIOR_ID } from '../../http/campos.ts';
import { Data, Id, Instante, Nulo } from './comum.ts';

/** The Cestas face's schemas: subscriptions (assinaturas) */

export const ParamsAssinaturaCiclo = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAIOR_ID }),
  cicloId: Type.Integer({ minimum: 1, maximum: MAIOR_ID }),
});
export const ParamsAssinaturaPausa = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAIOR_ID }),
  pausaId: Type.Integer({ minimum: 1, maximum: MAIOR_ID }),
});
const Frequencia = Type.Union([Type.Literal('cada_ciclo'), Type.Literal('ciclo_sim_ciclo_nao')], {
  description: 'cada_ciclo ou ciclo_sim_ciclo_nao',
});
const SituacaoNoCiclo = Type.Union([
  Type.Literal('gerado'),
  Type.Literal('pulado'),
  Type.Literal('pausado'),
  Type.Literal('faltou'),
]);
const PausaJson = Type.Object({ id: Id, inicio: Data, fim: Data });
const CamposDaAssinatura = {
  id: Id,
  usuarioid: Id,
  cestaId: Id,
  quantidade: Type.Integer({ minimum: 1, description: 'Cestas por ciclo' }),
  pontoEntregaId: Id,
  frequencia: Frequencia,
  inicio: Data,
  fim: Data,
  mercadoId: Nulo(Id),
  ativa: Type.Boolean(),
  createdAt: Instante,
  pausas: Type.Array(PausaJson),
};
export const AssinaturaJson = Type.Object(CamposDaAssinatura);
export const SituacaoDoCicloJson = Type.Object({
  assinaturaId: Id,
  cicloid: Id,
  situacao: SituacaoNoCiclo,
  quantidade: Type.Integer(),
  pontoEntregaId: Id,
  pedidoId: Nulo(Id),
  motivo: Nulo(Type.String()),
});
const ProximoCicloJson = Type.Object({
  cicloid: Id,
  nome: Type.String(),
  dataPedidoInicio: Data,
  dataRetiradaInicio: Data,
  situacao: Nulo(SituacaoNoCiclo),
  quantidade: Type.Integer(),
  pontoEntregaId: Id,
  pedidoId: Nulo(Id),
  motivo: Nulo(Type.String()),
  vem: Type.Boolean({ description: 'A cesta vem neste ciclo (gerada, ou ainda a gerar sem pausa)' }),
  janelaAberta: Type.Boolean({
    description: 'Dentro do período de pedidos: a pessoa ainda pode pular ou mudar este ciclo',
  }),
});
const Escolha = Type.Object({ id: Id, nome: Type.String() });
export const PaginaAssinaturas = Type.Object({
  consumidor: Escolha,
  itens: Type.Array(
    Type.Object({
      ...CamposDaAssinatura,
      cesta: Type.String(),
      pontoEntrega: Type.String(),
      mercado: Nulo(Type.String()),
      proximosCiclos: Type.Array(ProximoCicloJson),
    }),
  ),
  cestas: Type.Array(Type.Object({ id: Id, nome: Type.String(), limiteAssinaturas: Nulo(Type.Integer()) })),
  pontosEntrega: Type.Array(Escolha),
  mercados: Type.Array(Escolha, { description: 'Mercados de cestas ativos' }),
});
export const TodasAsAssinaturas = Type.Object({
  itens: Type.Array(
    Type.Object({
      ...CamposDaAssinatura,
      consumidor: Type.String(),
      cesta: Type.String(),
      pontoEntrega: Type.String(),
      mercado: Nulo(Type.String()),
      pagoAdiantado: Type.Number({
        description:
          'Reais: a soma dos pagamentos antecipados da temporada registrados para a assinatura (POST /assinaturas/:id/pagamento)',
      }),
    }),
  ),
  porCesta: Type.Array(
    Type.Object({
      cestaId: Id,
      nome: Type.String(),
      assinaturas: Type.Integer(),
      cestas: Type.Integer({ description: 'Cestas por ciclo' }),
      limite: Nulo(Type.Integer()),
    }),
  ),
  porPonto: Type.Array(
    Type.Object({ pontoEntregaId: Id, nome: Type.String(), assinaturas: Type.Integer(), cestas: Type.Integer() }),
  ),
  ciclo: Nulo(Escolha),
  faltas: Type.Array(
    Type.Object({
      assinaturaId: Id,
      usuarioid: Id,
      consumidor: Type.String(),
      cesta: Type.String(),
      quantidade: Type.Integer(),
      pontoEntregaId: Id,
      motivo: Type.String(),
    }),
    { description: 'No ciclo pedido (?cicloId=): quem ficou sem a cesta e por quê' },
  ),
});
export const LimiteJson = Type.Object({ cestaId: Id, nome: Type.String(), limiteAssinaturas: Nulo(Type.Integer()) });
