import { Type } from '@sinclair/typebox';
import type { AppTipada } from '../../http/app-tipada.ts';
import { comoEntrada } from '../../http/campos.ts';
import { RegistrarPagamentoDaTemporada } from '../../comandos/assinaturas.ts';
import { registrarPagamentoDaTemporada, type PagamentoDaTemporada } from '../../domain/assinaturas/temporada.ts';
import { diaLocal } from '../../domain/tempo.ts';
import { dinheiroJson } from '../apresentadores/numeros.ts';
import { atorDe } from '../autenticacao.ts';
import { corpoRecebido, guardarRecebido } from '../comandos.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { enviarJson, querJson, redirecionarComAviso } from '../resposta.ts';
import { ParamsId, escrita } from '../esquemas/comum.ts';
import { idDaRota, mostrarTodas } from './assinaturas.ts';
import { reais } from '../../formatos.ts';

/** A season's advance payment as the JSON API shows it (reais). */
const PagamentoDaTemporadaJson = Type.Object(
  {
    movimentacaoId: Type.Integer(),
    assinaturaId: Type.Integer(),
    usuarioid: Type.Integer(),
    valor: Type.Number({ description: 'Reais' }),
    data: Type.String({ description: 'AAAA-MM-DD' }),
    descricao: Type.String(),
    repetido: Type.Boolean({ description: 'true quando este envio já tinha sido registrado: nada novo foi lançado' }),
  },
  { description: 'O crédito lançado para o assinante, que os fechamentos dos ciclos consomem' },
);

const pagamentoJson = (p: PagamentoDaTemporada) => {
  const { valorCentavos, ...resto } = p;
  return { ...resto, valor: dinheiroJson(valorCentavos) };
};

/**
 * The coordination records a season paid in advance for a subscription: a credit for the
 * subscriber that the cycles' charges draw down (src/domain/assinaturas/temporada.ts
 * registrarPagamentoDaTemporada). JSON, or the form of /assinaturas/todas (a value typed as people
 * type it, "1.234,56"), which goes back to that page with the message, or with the refusal on the
 * subscription's form.
 */
export function rotasPagamentoDeAssinaturas(app: AppTipada, ctx: ContextoCestas): void {
  app.post(
    '/assinaturas/:id/pagamento',
    {
      config: {
        acesso: 'financeiroEscrever',
        redesenhar: (req, reply, recusa) =>
          mostrarTodas(ctx, req, reply, null, {
            status: recusa.status,
            form: `pg${idDaRota(req.params) ?? 0}`,
            erro: recusa.mensagem,
            detalhes: recusa.detalhes,
            valores: comoEntrada(corpoRecebido(req)),
          }),
      },
      preValidation: guardarRecebido,
      schema: {
        params: ParamsId,
        body: RegistrarPagamentoDaTemporada.corpo,
        response: escrita(PagamentoDaTemporadaJson, { cria: true }),
      },
    },
    async (req, reply) => {
      const { valorCentavos, descricao, envio } = req.body;
      const agora = ctx.relogio.agora();
      const p = await registrarPagamentoDaTemporada(ctx.banco, atorDe(req), req.params.id, valorCentavos, {
        agora,
        hoje: diaLocal(agora, ctx.config.tz),
        descricao,
        envio,
      });
      if (querJson(req))
        return enviarJson(
          reply,
          pagamentoJson(p),
          p.repetido ? 'Este pagamento já estava registrado' : 'Pagamento da temporada registrado',
          p.repetido ? 200 : 201,
        );
      const pessoa = await ctx.banco
        .selectFrom('usuario')
        .select('nome')
        .where('id', '=', p.usuarioid)
        .executeTakeFirstOrThrow();
      return redirecionarComAviso(
        reply,
        `/assinaturas/todas#pagamento-${p.assinaturaId}`,
        p.repetido
          ? `Este pagamento de ${reais(p.valorCentavos)} para ${pessoa.nome} já estava registrado: nada foi lançado de novo.`
          : `Pagamento de ${reais(p.valorCentavos)} registrado para ${pessoa.nome}: é crédito que os próximos ciclos consomem.`,
      );
    },
  );
}
