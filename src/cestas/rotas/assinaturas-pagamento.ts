import { Type } from '@sinclair/typebox';
import type { AppTipada } from '../../http/app-tipada.ts';
import { comoEntrada, Campos } from '../../http/campos.ts';
import { registrarPagamentoDaTemporada, type PagamentoDaTemporada } from '../../domain/assinaturas.ts';
import { diaLocal } from '../../domain/tempo.ts';
import { dinheiroJson } from '../apresentadores/numeros.ts';
import { atorDe } from '../autenticacao.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { enviarJson } from '../resposta.ts';
import { ParamsId, escrita } from '../esquemas.ts';

/** A season's advance payment as the JSON API shows it (reais). */
const PagamentoDaTemporadaJson = Type.Object({
  movimentacaoId: Type.Integer(), assinaturaId: Type.Integer(), usuarioid: Type.Integer(),
  valor: Type.Number({ description: 'Reais' }), data: Type.String({ description: 'AAAA-MM-DD' }), descricao: Type.String(),
}, { description: 'O crédito lançado para o assinante, que os fechamentos dos ciclos consomem' });

const CorpoPagamento = Type.Object({
  valor: Type.Optional(Type.Union([Type.Number(), Type.String()], { description: 'O valor pago pela temporada, em reais (até 2 casas)' })),
  descricao: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'Uma observação (forma de pagamento, por exemplo)' })),
});

const pagamentoJson = (p: PagamentoDaTemporada) => {
  const { valorCentavos, ...resto } = p;
  return { ...resto, valor: dinheiroJson(valorCentavos) };
};

/**
 * The coordination records a season paid in advance for a subscription (JSON): a credit for the
 * subscriber that the cycles' charges draw down (src/domain/assinaturas.ts registrarPagamentoDaTemporada).
 */
export function rotasPagamentoDeAssinaturas(app: AppTipada, ctx: ContextoCestas): void {
  app.post('/assinaturas/:id/pagamento', { config: { acesso: 'financeiroEscrever' }, schema: { params: ParamsId, body: CorpoPagamento, response: escrita(PagamentoDaTemporadaJson, { cria: true }) } }, async (req, reply) => {
    const c = new Campos(comoEntrada(req.body));
    const valorCentavos = c.decimal('valor', 2, { obrigatorio: true, min: 0.01 });
    const descricao = c.texto('descricao', { max: 200 });
    c.concluir();
    const agora = ctx.relogio.agora();
    const p = await registrarPagamentoDaTemporada(ctx.banco, atorDe(req), req.params.id, valorCentavos, { agora, hoje: diaLocal(agora, ctx.config.tz), descricao });
    return enviarJson(reply, pagamentoJson(p), 'Pagamento da temporada registrado', 201);
  });
}
