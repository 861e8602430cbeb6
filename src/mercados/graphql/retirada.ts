/**
 * The pickup day in GraphQL (issue 38): thin resolvers over src/domain/retirada/. The arguments
 * are read here into typed values in integer units (ids, centavos, thousandths, instants); the
 * domain judges who works at the point (before anything else), each action's ownership and rules,
 * and writes. Who acts is the person behind the account: their Cestas record (which the records
 * name) and the perfis of both faces (the coordination is master or admin there, Administrador
 * here).
 */
import type { IResolvers } from '@graphql-tools/utils';
import { lerDecimal } from '../../decimal.ts';
import { sincronizarRetirada, type AcaoRecebida } from '../../domain/retirada/acoes.ts';
import type { QuemTrabalha } from '../../domain/retirada/acesso.ts';
import {
  meusPontosDeRetirada,
  retiradaDoPonto,
  type AcaoRegistrada,
  type ConteudoDaCesta,
  type ItemNaRetirada,
  type PedidoNaRetirada,
  type PontoParaTrabalhar,
  type RetiradaDoPonto,
} from '../../domain/retirada/leitura.ts';
import { atorDaConta } from '../../domain/usuarios.ts';
import { MAIOR_ID, lerId } from '../../http/campos.ts';
import { atorDe, type ContextoResolvers } from './contexto-resolvers.ts';
import { emCentesimos, emMilesimos } from './escalares.ts';
import { escrita, hoje } from './fluxo.ts';
import { naFatia, vez } from './trabalho.ts';

type Ctx = ContextoResolvers;

/** The person behind the account, read once per request. */
const pessoas = new WeakMap<Ctx, Promise<QuemTrabalha>>();
function quemTrabalha(ctx: Ctx): Promise<QuemTrabalha> {
  let quem = pessoas.get(ctx);
  if (quem === undefined) {
    const conta = atorDe(ctx);
    quem = atorDaConta(ctx.banco, conta.usuarioId ?? null, { email: conta.email, nome: conta.name }).then((ator) => ({
      ator,
      perfis: [...ator.perfil, ...conta.profiles],
    }));
    pessoas.set(ctx, quem);
  }
  return quem;
}

/** The key that signs the receipts' tokens; the service always sets it (rota.ts). */
function chaveDoToken(ctx: Ctx): Buffer {
  if (ctx.chaveDaRetirada === undefined) throw new Error('o contexto do GraphQL não tem a chave da retirada');
  return ctx.chaveDaRetirada;
}

/**
 * An id inside a batch: what is not an id becomes 0, which no row has, so it is refused like a
 * foreign id (one answer for both), and the rest of the batch goes on.
 */
function idNoLote(valor: unknown): number {
  const texto = typeof valor === 'number' ? String(valor) : typeof valor === 'string' ? valor.trim() : '';
  return /^[1-9]\d{0,15}$/.test(texto) && Number(texto) <= MAIOR_ID ? Number(texto) : 0;
}

const idOpcional = (valor: unknown): number | null => (valor === undefined || valor === null ? null : idNoLote(valor));

/** A Decimal or Quantidade scalar's canonical text ("12.50", "-3.00", "1.500") in integer units. */
function emInteiros(texto: unknown, escala: number): number | null {
  if (typeof texto !== 'string') return null;
  const negativo = texto.startsWith('-');
  const r = lerDecimal(negativo ? texto.slice(1) : texto, escala);
  return r.ok ? (negativo ? -r.valor : r.valor) : null;
}

const textoOuNulo = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** AcaoDeRetiradaInput as GraphQL delivers it: the scalars already checked by the schema. */
interface AcaoGql {
  readonly chave: string;
  readonly tipo: string;
  readonly pedidoId: unknown;
  readonly pedidoProdutoId?: unknown;
  readonly produtoId?: unknown;
  readonly quantidade?: string | null;
  readonly substituto?: string | null;
  readonly valor?: string | null;
  readonly forma?: string | null;
  readonly texto?: string | null;
  readonly feitoEm: Date;
}

function acaoRecebida(a: AcaoGql): AcaoRecebida {
  return {
    chave: String(a.chave),
    tipo: a.tipo,
    pedidoId: idNoLote(a.pedidoId),
    pedidoProdutoId: idOpcional(a.pedidoProdutoId),
    produtoId: idOpcional(a.produtoId),
    quantidadeMilesimos: emInteiros(a.quantidade, 3),
    substituto: textoOuNulo(a.substituto),
    valorCentavos: emInteiros(a.valor, 2),
    forma: textoOuNulo(a.forma),
    texto: textoOuNulo(a.texto),
    feitoEm: a.feitoEm,
  };
}

export const consultasDaRetirada = {
  meusPontosDeRetirada: async (_: unknown, _a: unknown, ctx: Ctx) =>
    meusPontosDeRetirada(ctx.banco, await quemTrabalha(ctx), hoje(ctx)),
  retiradaDoPonto: async (_: unknown, a: { cicloId: unknown; pontoId: unknown }, ctx: Ctx) => {
    const cicloid = lerId(a.cicloId, 'cicloId');
    const pontoId = lerId(a.pontoId, 'pontoId');
    return retiradaDoPonto(ctx.banco, await quemTrabalha(ctx), cicloid, pontoId, {
      agora: ctx.agora,
      hoje: hoje(ctx),
      taxa: ctx.taxa,
      pix: ctx.pix,
      chaveDoToken: chaveDoToken(ctx),
    });
  },
};

export const mutacoesDaRetirada = {
  sincronizarRetirada: (
    _: unknown,
    a: { cicloId: unknown; pontoId: unknown; dispositivo: unknown; acoes: readonly AcaoGql[] },
    ctx: Ctx,
  ) =>
    escrita(ctx, async () => {
      const cicloid = lerId(a.cicloId, 'cicloId');
      const pontoEntregaId = lerId(a.pontoId, 'pontoId');
      return sincronizarRetirada(
        ctx.banco,
        await quemTrabalha(ctx),
        { cicloid, pontoEntregaId, dispositivo: String(a.dispositivo), acoes: a.acoes.map(acaoRecebida) },
        {
          agora: ctx.agora,
          tz: ctx.tz,
          taxa: ctx.taxa,
          // A batch is up to 100 transactions in a row: other requests get their turns in between.
          entreAcoes: async () => {
            if (!naFatia()) await vez();
          },
        },
      );
    }),
};

export const tiposDaRetirada: IResolvers<unknown, Ctx> = {
  PontoParaTrabalhar: {
    cicloId: (p: PontoParaTrabalhar) => p.cicloid,
    pontoId: (p: PontoParaTrabalhar) => p.pontoEntregaId,
  },
  RetiradaDoPonto: {
    cicloId: (r: RetiradaDoPonto) => r.cicloid,
    pontoId: (r: RetiradaDoPonto) => r.pontoEntregaId,
  },
  PedidoNaRetirada: {
    id: (p: PedidoNaRetirada) => p.pedidoId,
    total: (p: PedidoNaRetirada) => emCentesimos(p.totalCentavos),
    devido: (p: PedidoNaRetirada) => emCentesimos(p.devidoCentavos),
    pago: (p: PedidoNaRetirada) => emCentesimos(p.pagoCentavos),
  },
  ItemNaRetirada: {
    quantidade: (i: ItemNaRetirada) => emMilesimos(i.quantidadeMilesimos),
  },
  ItemDoConteudo: {
    quantidadePorCesta: (i: ConteudoDaCesta['itens'][number]) => emMilesimos(i.quantidadePorCestaMilesimos),
  },
  AcaoDeRetirada: {
    quantidade: (a: AcaoRegistrada) => (a.quantidadeMilesimos === null ? null : emMilesimos(a.quantidadeMilesimos)),
    valor: (a: AcaoRegistrada) => emCentesimos(a.valorCentavos),
  },
};
