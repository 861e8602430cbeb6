/**
 * Subscriptions in GraphQL (issue 23): thin resolvers over the domain functions of
 * src/domain/assinaturas/, with the same access rules as the Cestas face. Whose subscription a
 * write touches is judged by the domain: `input.usuarioid` (only admins act for someone else),
 * `input.id` (one's own, or anyone's for admins), the basket type, point and market (existing and
 * active); a cycle's skip by the subscription's owner; a season paid in advance by the
 * coordination only (financeiroEscrever), as POST /assinaturas/:id/pagamento.
 */
import type { IResolvers } from '@graphql-tools/utils';
import { RegistrarPagamentoDaTemporada, SalvarAssinatura } from '../../comandos/assinaturas.ts';
import { lerComando } from '../../comandos/comando.ts';
import { nomesDoGraphql } from '../../comandos/leitor/leitura.ts';
import { exigirAgirPor, pode } from '../../domain/acesso.ts';
import { salvarAssinatura } from '../../domain/assinaturas/escrita.ts';
import { assinaturasDe, type AssinaturaComCiclos, type ProximoCiclo } from '../../domain/assinaturas/leitura.ts';
import type { Assinatura, Frequencia, OpcoesAssinatura, SituacaoDoCiclo } from '../../domain/assinaturas/modelo.ts';
import { pularCiclo } from '../../domain/assinaturas/no-ciclo.ts';
import { regrasDaAssinatura } from '../../domain/assinaturas/regras.ts';
import { registrarPagamentoDaTemporada, type PagamentoDaTemporada } from '../../domain/assinaturas/temporada.ts';
import { Proibido, recusarInvalidos } from '../../domain/erros.ts';
import { lerId } from '../../http/campos.ts';
import type { ContextoResolvers } from './contexto-resolvers.ts';
import { emCentesimos } from './escalares.ts';
import { atorAutorizado, escrita, hoje, noInput } from './fluxo.ts';

type Ctx = ContextoResolvers;

/** AssinaturaInput as GraphQL delivers it: the enum and Int already checked by the schema. */
interface AssinaturaInputGql {
  readonly id?: unknown;
  readonly usuarioid?: unknown;
  readonly cestaId: unknown;
  readonly quantidade: number;
  readonly pontoEntregaId: unknown;
  readonly frequencia: Frequencia;
  readonly inicio: string;
  readonly fim: string;
  readonly mercadoId?: unknown;
  readonly ativa?: boolean | null;
}

const opcoesDe = (ctx: Ctx): OpcoesAssinatura => ({
  agora: ctx.agora,
  hoje: hoje(ctx),
  taxa: ctx.taxa,
  tz: ctx.tz,
  avisos: ctx.avisos,
});

/** How the subscriptions' commands name a field: `input.cestaId`; the payment's fields are arguments. */
const NOMES = nomesDoGraphql();
const NOMES_DO_PAGAMENTO = nomesDoGraphql({ valor: 'valor', descricao: 'descricao', envio: 'envio' });

/** A saved subscription with its next cycles, as minhasAssinaturas shows it. */
async function comProximos(ctx: Ctx, a: Assinatura): Promise<AssinaturaComCiclos> {
  const lista = await assinaturasDe(ctx.banco, a.usuarioid, hoje(ctx));
  const achada = lista.find((x) => x.id === a.id);
  if (achada === undefined) throw new Error(`assinatura ${a.id} gravada e não lida`);
  return achada;
}

export const consultasDeAssinaturas = {
  minhasAssinaturas: async (_: unknown, _a: unknown, ctx: Ctx) => {
    const ator = await atorAutorizado(ctx, 'pedidosLer');
    if (!pode(ator, 'assinaturaPropria')) throw new Proibido('SEM_PERMISSAO', 'Só consumidores assinam cestas');
    return assinaturasDe(ctx.banco, exigirAgirPor(ator, null, 'pedido'), hoje(ctx));
  },
};

export const mutacoesDeAssinaturas = {
  salvarAssinatura: (_: unknown, a: { input: AssinaturaInputGql }, ctx: Ctx) =>
    escrita(ctx, async () => {
      const ator = await atorAutorizado(ctx, 'pedidosEscrever');
      const dono = (u: number | null) => exigirAgirPor(ator, u, 'pedido');
      // Whose subscription first: acting for someone else is refused as such, whatever the rest says.
      for (const u of SalvarAssinatura.donos(a.input)) dono(u);
      // The schema typed the quantity, frequency and dates: their rules speak in the subscription's words.
      await noInput(async () => recusarInvalidos(regrasDaAssinatura(a.input)));
      const entrada = lerComando(SalvarAssinatura, a.input, NOMES, dono);
      const salva = await noInput(() => salvarAssinatura(ctx.banco, ator, entrada, opcoesDe(ctx)));
      return comProximos(ctx, salva);
    }),
  pularCiclo: (_: unknown, a: { assinaturaId: unknown; cicloId: unknown }, ctx: Ctx) =>
    escrita(ctx, async () => {
      const ator = await atorAutorizado(ctx, 'pedidosEscrever');
      return pularCiclo(
        ctx.banco,
        ator,
        lerId(a.assinaturaId, 'assinaturaId'),
        lerId(a.cicloId, 'cicloId'),
        opcoesDe(ctx),
      );
    }),
  /** The coordination's record of a season paid in advance; `valor` arrives as the Decimal scalar's canonical text ("480.00"). */
  registrarPagamentoDaTemporada: (
    _: unknown,
    a: { assinaturaId: unknown; valor: unknown; descricao?: unknown; envio?: unknown },
    ctx: Ctx,
  ) =>
    escrita(ctx, async () => {
      const ator = await atorAutorizado(ctx, 'financeiroEscrever');
      const assinaturaId = lerId(a.assinaturaId, 'assinaturaId');
      const { valorCentavos, descricao, envio } = lerComando(
        RegistrarPagamentoDaTemporada,
        { valor: a.valor, descricao: a.descricao ?? null, envio: a.envio ?? null },
        NOMES_DO_PAGAMENTO,
        () => undefined,
      );
      return registrarPagamentoDaTemporada(ctx.banco, ator, assinaturaId, valorCentavos, {
        agora: ctx.agora,
        hoje: hoje(ctx),
        descricao,
        envio,
      });
    }),
};

export const tiposDeAssinaturas: IResolvers<unknown, Ctx> = {
  Assinatura: {
    proximosCiclos: (a: AssinaturaComCiclos) => a.proximosCiclos,
  },
  CicloDaAssinatura: {
    cicloId: (c: ProximoCiclo) => c.cicloid,
  },
  SituacaoDaAssinatura: {
    cicloId: (s: SituacaoDoCiclo) => s.cicloid,
  },
  PagamentoDaTemporada: {
    valor: (p: PagamentoDaTemporada) => emCentesimos(p.valorCentavos),
  },
};
