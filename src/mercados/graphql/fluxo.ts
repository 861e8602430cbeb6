/**
 * The cycle workflow in GraphQL (issue 17, section 3): thin resolvers over the same domain
 * functions, with the same access rules, as the Cestas routes (src/cestas/rotas/pedidos.ts,
 * ofertas.ts, mercados-do-ciclo.ts). The Cestas domain judges an Ator: the Usuario the Mercados
 * account is linked to (one account per person); an unlinked account cannot act on cycles.
 */
import { CAMPOS_DATA } from '../../domain/ciclos/calendario.ts';
import type { IResolvers } from '@graphql-tools/utils';
import DataLoader from 'dataloader';
import type { Db } from '../../db/banco.ts';
import { exigirAgirPor, pode, type Acao, type AcaoDoCiclo, type Ator } from '../../domain/acesso.ts';
import { diasDeEntregaDosCiclos } from '../../domain/ciclos/leitura.ts';
import { passosDosMercados, proximosPassos, type AcaoDosMercados } from '../../domain/proximos-passos.ts';
import {
  entregasComMercados,
  type EntregaComMercados,
  type EntregaDaLinha,
  type PedidoNoMercado,
} from '../../domain/alocacao.ts';
import {
  faseDoCiclo,
  janelasAbertas,
  type DatasCiclo,
  type Fase,
  type Janela,
} from '../../domain/ciclos/calendario.ts';
import { cicloDasJanelas } from '../../domain/ciclos/janelas.ts';
import { Conflito, Invalido, NaoEncontrado, Proibido } from '../../domain/erros.ts';
import { descricaoDaLinha } from '../../formatos.ts';
import { fazerPedido } from '../../domain/pedidos/fazer.ts';
import { mercadoPorId } from '../../domain/mercados.ts';
import { podeTipo, type TipoMercado } from '../../domain/tipos-de-mercado.ts';
import { mercadosDoCiclo, type MercadoDoCiclo } from '../../domain/mercados-do-ciclo/comum.ts';
import { definirMercadosDoCiclo } from '../../domain/mercados-do-ciclo/definir.ts';
import {
  ofertaDe,
  ofertasDoFornecedor,
  produtosParaOfertar,
  salvarOferta,
  type LinhaDaOferta,
  type LinhaParaOfertar,
  type Oferta,
  type ProdutoParaOfertar,
} from '../../domain/ofertas.ts';
import { disponibilidade, type CestaParaPedir, type ExtraParaPedir } from '../../domain/pedidos/disponibilidade.ts';
import { finalizarPedido } from '../../domain/pedidos/finalizar.ts';
import {
  alteradosAposConfirmar,
  carregarPedidosDoCiclo,
  pedidoDe,
  pedidoVisivel,
} from '../../domain/pedidos/leituras.ts';
import { pedidosNoMercado, type LinhaDoPedido, type Pedido } from '../../domain/pedidos/modelo.ts';
import type { ParteDoPedido } from '../../domain/pedidos/taxa.ts';
import { pontosParaPedido } from '../../domain/pontos-do-ciclo.ts';
import { atorDaConta, autorizarNosCiclos } from '../../domain/usuarios.ts';
import { acoesDaConta, autorizarMercados, podeMercados } from '../../domain/politica-mercados.ts';
import { cobrancaDe, pixDaCobranca, type Pix } from '../../domain/pix.ts';
import { diaLocal, somarDias } from '../../domain/tempo.ts';
import { Campos, MAIOR_ID, lerId } from '../../http/campos.ts';
import { lerComando } from '../../comandos/comando.ts';
import { comNomes, nomesDoGraphql } from '../../comandos/leitor/leitura.ts';
import { DefinirMercadosDoCiclo } from '../../comandos/mercados-do-ciclo.ts';
import { SalvarOferta } from '../../comandos/oferta.ts';
import { ConfirmarPedido, FazerPedido } from '../../comandos/pedido.ts';
import { valorDaQuantidade } from '../../decimal.ts';
import { atorDe, esquecerCarregados, type ContextoResolvers } from './contexto-resolvers.ts';
import { emCentesimos, emMilesimos } from './escalares.ts';

type Ctx = ContextoResolvers;

/** A cycle as the Ciclo type resolves it: its dates, phase and open windows; its lists load on demand. */
interface CicloDoGraphql extends DatasCiclo {
  readonly id: number;
  readonly nome: string;
  readonly fase: Fase;
  readonly abertas: readonly Janela[];
}

/** A Pix as the schema's `Pix`: the amount in reais. */
function pixGraphql(pix: Pix | null) {
  return pix === null
    ? null
    : { copiaECola: pix.copiaECola, qrSvg: pix.qrSvg, valor: emCentesimos(pix.valorCentavos), txid: pix.txid };
}

/** Lists of `ciclos`, `meusPedidos` and `pedidosDoMercado`: PAGINA_PADRAO unless `first` says, at most PAGINA_MAXIMA. */
export const PAGINA_PADRAO = 20;
export const PAGINA_MAXIMA = 100;

export const hoje = (ctx: Ctx): string => diaLocal(ctx.agora, ctx.tz);

/** The Cestas Ator of the request, read once per request from the linked Usuario. */
const atores = new WeakMap<Ctx, Promise<Ator>>();
function atorCestas(ctx: Ctx): Promise<Ator> {
  let ator = atores.get(ctx);
  if (ator === undefined) {
    const conta = atorDe(ctx);
    ator = atorDaConta(ctx.banco, conta.usuarioId, { email: conta.email, nome: conta.name });
    atores.set(ctx, ator);
  }
  return ator;
}

/**
 * The Cestas route's access rule (src/cestas/autenticacao.ts exigirAcesso) for the same action:
 * an inactive person, or an account with no Cestas record yet, may do nothing on cycles.
 */
export async function atorAutorizado(ctx: Ctx, acao: Acao): Promise<Ator> {
  const ator = await atorCestas(ctx);
  autorizarNosCiclos(ator, acao);
  return ator;
}

/**
 * Per-request batch of `Pedido.alteradoAposConfirmar`: a list of orders costs one query. A write
 * drops it, so a later field of the same request reads the new state.
 */
const alteracoes = new WeakMap<Ctx, DataLoader<number, boolean>>();
function alteradoAposConfirmar(ctx: Ctx, pedidoId: number): Promise<boolean> {
  let l = alteracoes.get(ctx);
  if (l === undefined) {
    l = new DataLoader(async (ids: readonly number[]) => {
      const alterados = await alteradosAposConfirmar(ctx.banco, ids);
      return ids.map((id) => alterados.has(id));
    });
    alteracoes.set(ctx, l);
  }
  return l.load(pedidoId);
}

/** The caller's own order in a cycle, for Ciclo.meuPedido. */
interface MeuPedidoNoCiclo {
  readonly id: number;
  readonly finalizado: boolean;
}

/**
 * Per-request batch of `Ciclo.meuPedido`: the caller's own orders in a list of cycles cost one
 * query. Someone who does not order (or has no Cestas record) has none.
 */
const meusPedidos = new WeakMap<Ctx, DataLoader<number, MeuPedidoNoCiclo | null>>();
function meuPedidoNoCiclo(ctx: Ctx, cicloid: number): Promise<MeuPedidoNoCiclo | null> {
  let l = meusPedidos.get(ctx);
  if (l === undefined) {
    l = new DataLoader(async (ciclos: readonly number[]) => {
      const ator = await atorCestas(ctx);
      if (ator.usuarioid === null || !pode(ator, 'pedidoProprio')) return ciclos.map(() => null);
      const linhas = await ctx.banco
        .selectFrom('pedido')
        .select(['id', 'cicloid', 'finalizado'])
        .where('usuarioid', '=', ator.usuarioid)
        .where('cicloid', 'in', [...ciclos])
        .execute();
      return ciclos.map((c) => {
        const l = linhas.find((x) => x.cicloid === c);
        return l === undefined ? null : { id: l.id, finalizado: Boolean(l.finalizado) };
      });
    });
    meusPedidos.set(ctx, l);
  }
  return l.load(cicloid);
}

/** A write, after which the request's loaders must read the new state. */
export async function escrita<T>(ctx: Ctx, fazer: () => Promise<T>): Promise<T> {
  const r = await fazer();
  esquecerCarregados(ctx);
  alteracoes.delete(ctx);
  meusPedidos.delete(ctx);
  return r;
}

/**
 * A refusal of an input read with the command's own names (`pontoEntregaId`), with the argument's
 * path: `cicloid` is the `cicloId` argument, any other field one of `input`.
 */
export async function noInput<T>(fazer: () => Promise<T>): Promise<T> {
  try {
    return await fazer();
  } catch (e) {
    if (!(e instanceof Invalido) || e.detalhes === undefined) throw e;
    const detalhes = Object.fromEntries(
      Object.entries(e.detalhes).map(([campo, mensagem]) => [
        campo === 'cicloid' ? 'cicloId' : campo === 'input' ? campo : `input.${campo}`,
        mensagem,
      ]),
    );
    throw new Invalido(e.codigo, e.message, detalhes);
  }
}

/** How the workflow's commands name a field: by the argument's path (`input.produtos[2].quantidade`). */
const NOMES = nomesDoGraphql({ cicloid: 'cicloId' });
const NOMES_DOS_MERCADOS = nomesDoGraphql({ cicloMercados: 'input' });

/**
 * A save that leaves less of a line than baskets, lots or published extras take is refused by
 * the capacity rule (409 on the Cestas face). In GraphQL the refusal names the input's quantity
 * of that line, so the client can show it on the field: the supplier's own line (by its id) or,
 * for extras, the line of the product.
 */
async function naQuantidadeDaLinha<T>(
  ctx: Ctx,
  usuarioid: number,
  linhas: readonly LinhaParaOfertar[],
  fazer: () => Promise<T>,
): Promise<T> {
  try {
    return await fazer();
  } catch (e) {
    if (!(e instanceof Conflito) || e.codigo !== 'CAPACIDADE_EXCEDIDA' || e.detalhes === undefined) throw e;
    const { ofertaProdutoId, produtoId } = e.detalhes;
    let produtoid = typeof produtoId === 'number' ? produtoId : null;
    if (typeof ofertaProdutoId === 'number') {
      const linha = await ctx.banco
        .selectFrom('ofertaproduto as op')
        .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
        .select('op.produtoid')
        .where('op.id', '=', ofertaProdutoId)
        .where('o.usuarioid', '=', usuarioid)
        .executeTakeFirst();
      produtoid = linha?.produtoid ?? null;
    }
    const linha = linhas.find((l) => l.produtoid === produtoid);
    if (linha === undefined) throw e;
    // The line's `campo` is already the argument's path (`input.produtos[2]`).
    throw new Invalido(e.codigo, e.message, { [`${linha.campo}.quantidade`]: e.message });
  }
}

/** An optional id argument: null when absent. */
function idOpcional(valor: unknown, campo: string): number | null {
  return valor === undefined || valor === null ? null : lerId(valor, campo);
}

/** An offer of `minhasOfertas`, with its cycle read with the page's (absent: read on demand). */
interface OfertaComCiclo extends Oferta {
  readonly cicloCarregado?: CicloDoGraphql | null;
}

/** `first` and `after` of a list: how many, and the id after which it continues. */
function lerPagina(a: { first?: number | null; after?: string | null }): { first: number; after: number | null } {
  const c = new Campos({ first: a.first, after: a.after });
  const first = c.inteiro('first', { min: 1, max: PAGINA_MAXIMA }) ?? PAGINA_PADRAO;
  const after = c.inteiro('after', { min: 1, max: MAIOR_ID });
  c.concluir();
  return { first, after };
}

function paraGraphql(c: DatasCiclo & { id: number; nome: string }, dia: string): CicloDoGraphql {
  return {
    id: c.id,
    nome: c.nome,
    fase: faseDoCiclo(c, dia),
    abertas: janelasAbertas(c, dia),
    dataOfertaInicio: c.dataOfertaInicio,
    dataOfertaFim: c.dataOfertaFim,
    dataPedidoInicio: c.dataPedidoInicio,
    dataPedidoFim: c.dataPedidoFim,
    dataRetiradaInicio: c.dataRetiradaInicio,
    dataRetiradaFim: c.dataRetiradaFim,
  };
}

/**
 * The per-request memo of the computations several fields (or several aliases) ask for the same
 * cycle: each is done once per request (trabalho.ts), whichever field asks first.
 */
const umaVez = <T>(ctx: Ctx, oque: string, cicloid: number, fazer: () => Promise<T>): Promise<T> =>
  ctx.trabalho.lembrar(`${oque}:${cicloid}`, fazer);
const janelasDoCiclo = (ctx: Ctx, cicloid: number) =>
  umaVez(ctx, 'cicloDasJanelas', cicloid, () => cicloDasJanelas(ctx.banco, cicloid));

/** One cycle, or null when there is none with this id (nor, but for the administration, an inactive one). */
async function cicloOuNulo(ctx: Ctx, id: number): Promise<CicloDoGraphql | null> {
  try {
    const c = await janelasDoCiclo(ctx, id);
    if (!c.ativo && !podeMercados(atorDe(ctx), 'verTodosOsCiclos', null)) return null;
    return paraGraphql(c, hoje(ctx));
  } catch (e) {
    if (e instanceof NaoEncontrado) return null;
    throw e;
  }
}

interface MercadoServido {
  readonly mercadoId: number;
  readonly nome: string;
  readonly tipo: TipoMercado;
  readonly adminId: number;
}

/** Which markets each cycle serves, with their types and admins (one query; none for no cycles). */
async function tiposDosMercados(db: Db, ciclos: readonly number[]): Promise<Map<number, MercadoServido[]>> {
  const por = new Map<number, MercadoServido[]>();
  if (ciclos.length === 0) return por;
  const linhas = await db
    .selectFrom('ciclomercado as cm')
    .innerJoin('mercado as m', 'm.id', 'cm.mercadoId')
    .select(['cm.cicloid', 'cm.mercadoId', 'm.nome', 'm.tipo', 'm.adminId'])
    .where('cm.cicloid', 'in', [...ciclos])
    .orderBy('cm.ordemAtendimento')
    .execute();
  for (const { cicloid, ...m } of linhas) por.set(cicloid, [...(por.get(cicloid) ?? []), m]);
  return por;
}

/** A cycle sells to consumers without markets, or through a market whose kind does (a lote market sells to a named buyer). */
const vendeAConsumidores = (mercados: ReadonlyArray<{ tipo: TipoMercado }>): boolean =>
  mercados.length === 0 || mercados.some((m) => podeTipo(m.tipo, 'vendeAConsumidores'));

/**
 * `ciclos`: the cycles a person can act in now (issue 17): open offer windows for a Fornecedor;
 * open order windows for a Consumidor, in cycles without markets or with a market that sells to
 * consumers (cesta, venda_direta: a lote market sells to a named buyer); for the Administrador,
 * every active cycle that is current, upcoming or ended in the last 30 days (the dashboard's
 * span); for an AdminMercado, those of them that serve a market whose orders they may see
 * (verPedidosDoMercado). Newest first; the windows are the domain's (janelasAbertas).
 */
async function ciclos(
  ctx: Ctx,
  a: { fase?: string | null; mercadoId?: unknown; first?: number | null; after?: string | null },
): Promise<CicloDoGraphql[]> {
  const conta = atorDe(ctx);
  const mercadoId = idOpcional(a.mercadoId, 'mercadoId');
  const p = lerPagina(a);
  const fase = a.fase ?? null;
  const dia = hoje(ctx);
  let q = ctx.banco
    .selectFrom('ciclo')
    .select(['id', 'nome', ...CAMPOS_DATA])
    .where('ativo', '=', true)
    .where('dataRetiradaFim', '>=', somarDias(dia, -30));
  if (p.after !== null) q = q.where('id', '<', p.after);
  const candidatos = (await q.orderBy('id', 'desc').execute()).map((c) => paraGraphql(c, dia));
  const mercados = await tiposDosMercados(
    ctx.banco,
    candidatos.map((c) => c.id),
  );
  const admin = podeMercados(conta, 'verTodosOsCiclos', null);
  const fornecedor = podeMercados(conta, 'ofertar', null);
  const consumidor = podeMercados(conta, 'pedir', null);
  return candidatos
    .filter((c) => {
      const doCiclo = mercados.get(c.id) ?? [];
      if (fase !== null && c.fase !== fase) return false;
      if (mercadoId !== null && !doCiclo.some((m) => m.mercadoId === mercadoId)) return false;
      if (admin) return true;
      if (doCiclo.some((m) => podeMercados(conta, 'verPedidosDoMercado', m))) return true;
      if (fornecedor && c.abertas.includes('oferta')) return true;
      return consumidor && c.abertas.includes('pedido') && vendeAConsumidores(doCiclo);
    })
    .slice(0, p.first);
}

/** A page of a list ordered by the caller: the items after the one whose id is `after`. */
function pagina<T extends { pedidoId: number }>(itens: readonly T[], p: { first: number; after: number | null }): T[] {
  const inicio = p.after === null ? 0 : itens.findIndex((i) => i.pedidoId === p.after) + 1;
  return itens.slice(inicio, inicio + p.first);
}

/** A cycle's order catalogue, for the `cestas` and `itens` of one cycle. */
function catalogo(ctx: Ctx, cicloid: number): Promise<{ cestas: CestaParaPedir[]; extras: ExtraParaPedir[] }> {
  return umaVez(ctx, 'disponibilidade', cicloid, () => disponibilidade(ctx.banco, cicloid, hoje(ctx)));
}

/** A step of `meusProximosPassos`, as the schema's PassoDoCiclo. */
interface PassoDoGraphql {
  readonly acao: AcaoDoCiclo | AcaoDosMercados;
  readonly texto: string;
  readonly feito: boolean;
  readonly temPagina: boolean;
  readonly pedidoId: number | null;
  readonly mercadoId: number | null;
  readonly prazo: string | null;
}

/**
 * `meusProximosPassos`: the Cestas dashboard's steps (proximosPassos, from the person's own offer
 * and order) and the Mercados ones (the cycle's markets, one's own market's orders), by cycle.
 * An order step where the cycle sells to no consumer (lote markets only) is not one here, as
 * Ciclo.acoes.pedir says.
 */
async function meusProximosPassos(ctx: Ctx) {
  const conta = atorDe(ctx);
  const ator = await atorCestas(ctx);
  const doPainel = await proximosPassos(ctx.banco, ator, hoje(ctx));
  // What the person owes, as minhaCobranca says it: paying is a step of whoever orders.
  const cobranca =
    ator.usuarioid !== null && pode(ator, 'pedidoProprio')
      ? await cobrancaDe(ctx.banco, ator.usuarioid, ctx.taxa)
      : null;
  const mercados = await tiposDosMercados(
    ctx.banco,
    doPainel.map((c) => c.id),
  );
  const ciclos = doPainel.flatMap((c) => {
    const doCiclo = mercados.get(c.id) ?? [];
    const pedidoId = c.andamento?.pedidoId ?? null;
    const passos: PassoDoGraphql[] = [
      ...c.passos
        .filter((p) => p.acao !== 'pedir' || vendeAConsumidores(doCiclo))
        .map((p) => ({
          acao: p.acao,
          texto: p.texto,
          feito: p.feito,
          temPagina: p.destino !== null,
          pedidoId: p.acao === 'pedir' || p.acao === 'retirar' ? pedidoId : null,
          mercadoId: null,
          prazo: p.prazo,
        })),
      ...passosDosMercados(conta, c, doCiclo).map((p) => ({ ...p, temPagina: true, pedidoId: null })),
    ];
    return passos.length === 0 ? [] : [{ ciclo: paraGraphql(c, hoje(ctx)), passos }];
  });
  const devido = cobranca?.devidoCentavos ?? 0;
  return { ciclos, aPagar: devido > 0 ? emCentesimos(devido) : null };
}

/** The workflow's root fields, merged into Query and Mutation by resolvers.ts. */
export const consultasDoFluxo = {
  ciclos: (
    _: unknown,
    a: { fase?: string | null; mercadoId?: unknown; first?: number | null; after?: string | null },
    ctx: Ctx,
  ) => ciclos(ctx, a),
  // An id no cycle can have finds nothing, like an unused one (as `mercado`).
  ciclo: (_: unknown, a: { id: string }, ctx: Ctx) =>
    /^[1-9]\d{0,9}$/.test(a.id) && Number(a.id) <= MAIOR_ID ? cicloOuNulo(ctx, Number(a.id)) : null,
  minhaOferta: async (_: unknown, a: { cicloId: unknown }, ctx: Ctx) => {
    const ator = await atorAutorizado(ctx, 'ofertasLer');
    const cicloid = lerId(a.cicloId, 'cicloId');
    await janelasDoCiclo(ctx, cicloid);
    if (!pode(ator, 'ofertaPropria')) throw new Proibido('SEM_PERMISSAO', 'Só fornecedores registram ofertas');
    const oferta = await ofertaDe(ctx.banco, cicloid, exigirAgirPor(ator, null, 'oferta'));
    return oferta.id === null ? null : oferta;
  },
  produtosParaOfertar: async (_: unknown, _a: unknown, ctx: Ctx) => {
    const ator = await atorAutorizado(ctx, 'ofertasLer');
    if (!pode(ator, 'ofertaPropria')) throw new Proibido('SEM_PERMISSAO', 'Só fornecedores registram ofertas');
    return produtosParaOfertar(ctx.banco, exigirAgirPor(ator, null, 'oferta'));
  },
  minhasEntregas: async (_: unknown, a: { cicloId: unknown }, ctx: Ctx) => {
    const ator = await atorAutorizado(ctx, 'relatoriosFornecedores');
    const cicloid = lerId(a.cicloId, 'cicloId');
    await janelasDoCiclo(ctx, cicloid);
    if (!pode(ator, 'ofertaPropria')) throw new Proibido('SEM_PERMISSAO', 'Só fornecedores entregam');
    const eu = exigirAgirPor(ator, null, 'oferta');
    const entregas = await umaVez(ctx, 'entregasComMercados', cicloid, () => entregasComMercados(ctx.banco, cicloid));
    return entregas.filter((e) => e.linha.fornecedorId === eu);
  },
  minhasOfertas: async (
    _: unknown,
    a: { first?: number | null; after?: string | null },
    ctx: Ctx,
  ): Promise<OfertaComCiclo[]> => {
    const ator = await atorAutorizado(ctx, 'ofertasLer');
    const p = lerPagina(a);
    if (!pode(ator, 'ofertaPropria')) throw new Proibido('SEM_PERMISSAO', 'Só fornecedores registram ofertas');
    const ofertas = await ofertasDoFornecedor(ctx.banco, exigirAgirPor(ator, null, 'oferta'), {
      first: p.first,
      depoisDoCiclo: p.after,
    });
    // The cycles of the page in one query, not one per offer.
    const ids = ofertas.map((o) => o.cicloid);
    const ciclos =
      ids.length === 0
        ? []
        : await ctx.banco
            .selectFrom('ciclo')
            .select(['id', 'nome', ...CAMPOS_DATA])
            .where('id', 'in', ids)
            .execute();
    const dia = hoje(ctx);
    const porId = new Map(ciclos.map((c) => [c.id, paraGraphql(c, dia)]));
    return ofertas.map((o) => ({ ...o, cicloCarregado: porId.get(o.cicloid) ?? null }));
  },
  meusPedidos: async (_: unknown, a: { cicloId?: unknown; first?: number | null; after?: string | null }, ctx: Ctx) => {
    const ator = await atorAutorizado(ctx, 'pedidosLer');
    const cicloid = idOpcional(a.cicloId, 'cicloId');
    const p = lerPagina(a);
    if (!pode(ator, 'pedidoProprio')) throw new Proibido('SEM_PERMISSAO', 'Só consumidores fazem pedidos');
    const eu = exigirAgirPor(ator, null, 'pedido');
    if (cicloid !== null) {
      await janelasDoCiclo(ctx, cicloid);
      const pedido = await pedidoDe(ctx.banco, cicloid, eu, ctx.taxa);
      return pagina(pedido === null ? [] : [pedido], p);
    }
    // Newest first, by id: the cursor is the last id received.
    let q = ctx.banco.selectFrom('pedido').select('id').where('usuarioid', '=', eu);
    if (p.after !== null) q = q.where('id', '<', p.after);
    const ids = await q.orderBy('id', 'desc').limit(p.first).execute();
    return Promise.all(ids.map((l) => pedidoVisivel(ctx.banco, ator, l.id, ctx.taxa)));
  },
  // What the person owes and the one Pix that pays it all (docs/dominio.md): shown once, above the orders.
  minhaCobranca: async (_: unknown, _a: unknown, ctx: ContextoResolvers) => {
    const ator = await atorAutorizado(ctx, 'pedidosLer');
    if (!pode(ator, 'pedidoProprio')) throw new Proibido('SEM_PERMISSAO', 'Só consumidores fazem pedidos');
    const eu = exigirAgirPor(ator, null, 'pedido');
    const recebedor = ctx.pix;
    const cobranca = await cobrancaDe(ctx.banco, eu, ctx.taxa);
    const pix = await umaVez(ctx, 'pix', eu, () => pixDaCobranca(cobranca, recebedor));
    return {
      devido: emCentesimos(cobranca.devidoCentavos),
      linhas: cobranca.linhas.map((l) => ({
        tipo: l.tipo,
        descricao: descricaoDaLinha(l),
        valor: emCentesimos(l.valorCentavos),
        cicloId: l.cicloid,
        pedidoId: l.pedidoId,
      })),
      pix: pixGraphql(pix),
    };
  },
  // Asked again under another alias, the same answer: computed once per request.
  meusProximosPassos: (_: unknown, _a: unknown, ctx: Ctx) =>
    umaVez(ctx, 'meusProximosPassos', 0, () => meusProximosPassos(ctx)),
  pedidosDoMercado: async (
    _: unknown,
    a: { mercadoId: unknown; cicloId: unknown; first?: number | null; after?: string | null },
    ctx: Ctx,
  ) => {
    // The market's ownership first: someone else's market is refused as such, whatever the rest says.
    const mercadoId = lerId(a.mercadoId, 'mercadoId');
    const mercado = await mercadoPorId(ctx.banco, mercadoId);
    if (mercado === null) throw new NaoEncontrado('MERCADO_NAO_ENCONTRADO', 'Mercado não encontrado');
    autorizarMercados(atorDe(ctx), 'verPedidosDoMercado', mercado);
    const cicloid = lerId(a.cicloId, 'cicloId');
    const p = lerPagina(a);
    await janelasDoCiclo(ctx, cicloid);
    const pedidos = await umaVez(ctx, 'pedidosDoCiclo', cicloid, () =>
      carregarPedidosDoCiclo(ctx.banco, cicloid, null, ctx.taxa),
    );
    return pagina(pedidosNoMercado(pedidos, mercadoId), p);
  },
};

export const mutacoesDoFluxo = {
  salvarOferta: (
    _: unknown,
    a: { cicloId: unknown; input: { usuarioid?: unknown; produtos: unknown }; finalizar?: boolean | null },
    ctx: Ctx,
  ) =>
    escrita(ctx, async () => {
      const ator = await atorAutorizado(ctx, 'ofertasEscrever');
      // The command checks whose offer it is (`input.usuarioid`) before reading anything else.
      const dados = { usuarioid: a.input.usuarioid ?? null, cicloid: a.cicloId, produtos: a.input.produtos };
      const entrada = lerComando(SalvarOferta, dados, NOMES, (u) => exigirAgirPor(ator, u, 'oferta'));
      // The offer's supplier: the one named (the coordination acting for them), or oneself.
      const fornecedor = entrada.usuarioid ?? exigirAgirPor(ator, null, 'oferta');
      const { oferta } = await comNomes(SalvarOferta.raizes, NOMES, () =>
        naQuantidadeDaLinha(ctx, fornecedor, entrada.linhas, () =>
          salvarOferta(ctx.banco, ator, entrada, {
            agora: ctx.agora,
            hoje: hoje(ctx),
            finalizar: a.finalizar === true,
          }),
        ),
      );
      return oferta;
    }),
  fazerPedido: (
    _: unknown,
    a: {
      cicloId: unknown;
      input: {
        usuarioid?: unknown;
        pontoEntregaId: unknown;
        produtos: ReadonlyArray<{ cicloCestaId?: unknown; cicloProdutoId?: unknown; quantidade: string }>;
      };
    },
    ctx: Ctx,
  ) =>
    escrita(ctx, async () => {
      const ator = await atorAutorizado(ctx, 'pedidosEscrever');
      // The Quantidade scalar gives exact text with three places ("2.000"); the command takes the
      // JSON number (exact: at most three places), so a basket's must be whole, as on /pedidoconsumidores.
      const produtos = a.input.produtos.map((l) => ({
        cicloCestaId: l.cicloCestaId ?? null,
        cicloProdutoId: l.cicloProdutoId ?? null,
        quantidade: Number(l.quantidade),
      }));
      const dados = {
        usuarioid: a.input.usuarioid ?? null,
        cicloid: a.cicloId,
        pontoEntregaId: a.input.pontoEntregaId,
        produtos,
      };
      const entrada = lerComando(FazerPedido, dados, NOMES, (u) => exigirAgirPor(ator, u, 'pedido'));
      const { pedido } = await comNomes(FazerPedido.raizes, NOMES, () =>
        fazerPedido(ctx.banco, ator, entrada, {
          agora: ctx.agora,
          hoje: hoje(ctx),
          taxa: ctx.taxa,
          tz: ctx.tz,
          avisos: ctx.avisos,
        }),
      );
      return pedido;
    }),
  confirmarPedido: (_: unknown, a: { pedidoId: unknown }, ctx: Ctx) =>
    escrita(ctx, async () => {
      const ator = await atorAutorizado(ctx, 'pedidosEscrever');
      const pedidoId = lerComando(
        ConfirmarPedido,
        { pedidoId: a.pedidoId },
        nomesDoGraphql({ pedidoId: 'pedidoId' }),
        () => undefined,
      );
      return finalizarPedido(ctx.banco, ator, pedidoId, {
        agora: ctx.agora,
        hoje: hoje(ctx),
        taxa: ctx.taxa,
        tz: ctx.tz,
        avisos: ctx.avisos,
      });
    }),
  definirMercadosDoCiclo: (
    _: unknown,
    a: { cicloId: unknown; input: ReadonlyArray<Record<string, unknown>> },
    ctx: Ctx,
  ) =>
    escrita(ctx, async () => {
      const ator = await atorAutorizado(ctx, 'composicaoEscrever');
      const cicloid = lerId(a.cicloId, 'cicloId');
      const itens = DefinirMercadosDoCiclo.ler(
        {
          cicloMercados: a.input.map((i) => ({
            ...i,
            pontoEntregaIds: i.pontoEntregaIds ?? [],
            cicloCestaIds: i.cicloCestaIds ?? [],
          })),
        },
        NOMES_DOS_MERCADOS,
      );
      await comNomes(DefinirMercadosDoCiclo.raizes, NOMES_DOS_MERCADOS, () =>
        definirMercadosDoCiclo(ctx.banco, ator, cicloid, itens, ctx.agora),
      );
      return paraGraphql(await cicloDasJanelas(ctx.banco, cicloid), hoje(ctx));
    }),
};

/** The workflow's types. */
export const tiposDoFluxo: IResolvers<unknown, Ctx> = {
  Ciclo: {
    janelasAbertas: (c: CicloDoGraphql) => c.abertas,
    mercados: (c: CicloDoGraphql, _a: unknown, ctx: Ctx) =>
      umaVez(ctx, 'mercadosDoCiclo', c.id, () => mercadosDoCiclo(ctx.banco, c.id)),
    cestas: async (c: CicloDoGraphql, _a: unknown, ctx: Ctx) => (await catalogo(ctx, c.id)).cestas,
    itens: async (c: CicloDoGraphql, _a: unknown, ctx: Ctx) => (await catalogo(ctx, c.id)).extras,
    pontosEntrega: (c: CicloDoGraphql, _a: unknown, ctx: Ctx) =>
      umaVez(ctx, 'pontosParaPedido', c.id, () => pontosParaPedido(ctx.banco, c.id)),
    acoes: async (c: CicloDoGraphql, _a: unknown, ctx: Ctx) => {
      const conta = acoesDaConta(atorDe(ctx));
      const mercados =
        (await umaVez(ctx, 'tiposDosMercados', c.id, () => tiposDosMercados(ctx.banco, [c.id]))).get(c.id) ?? [];
      return {
        ofertar: conta.ofertar && c.abertas.includes('oferta'),
        pedir: conta.pedir && c.abertas.includes('pedido') && vendeAConsumidores(mercados),
        definirMercados: conta.definirMercadosDoCiclo,
      };
    },
    meuPedido: (c: CicloDoGraphql, _a: unknown, ctx: Ctx) => meuPedidoNoCiclo(ctx, c.id),
    diasDeEntrega: async (c: CicloDoGraphql, _a: unknown, ctx: Ctx) =>
      (await umaVez(ctx, 'diasDeEntrega', c.id, () => diasDeEntregaDosCiclos(ctx.banco, [c.id]))).get(c.id) ?? [],
  },

  MeuPedidoNoCiclo: {
    alteradoAposConfirmar: (p: MeuPedidoNoCiclo, _a: unknown, ctx: Ctx) =>
      p.finalizado ? false : alteradoAposConfirmar(ctx, p.id),
  },

  MercadoDoCiclo: {
    taxaAdministrativa: (m: MercadoDoCiclo) => emCentesimos(m.taxaAdministrativaCentesimos),
    valorMaximoCesta: (m: MercadoDoCiclo) => emCentesimos(m.valorMaximoCestaCentavos),
    pontosEntrega: (m: MercadoDoCiclo) => m.pontos,
  },

  CestaDoCiclo: {
    valor: (c: CestaParaPedir) => emCentesimos(c.valorCentavos),
  },
  ItemDaCesta: {
    quantidade: (i: { quantidadeMilesimos: number }) => emMilesimos(i.quantidadeMilesimos),
  },
  ItemDoCiclo: {
    valor: (e: ExtraParaPedir) => emCentesimos(e.valorCentavos),
    disponivel: (e: ExtraParaPedir) => emMilesimos(e.disponivelMilesimos),
  },

  Oferta: {
    cicloId: (o: Oferta) => o.cicloid,
    total: (o: Oferta) => emCentesimos(o.totalCentavos),
    ciclo: (o: OfertaComCiclo, _a: unknown, ctx: Ctx) => o.cicloCarregado ?? cicloOuNulo(ctx, o.cicloid),
  },
  ProdutoParaOfertar: {
    valorReferencia: (p: ProdutoParaOfertar) => emCentesimos(p.valorReferenciaCentavos),
  },
  LinhaDaOferta: {
    quantidade: (l: LinhaDaOferta) => emMilesimos(l.quantidadeMilesimos),
    valor: (l: LinhaDaOferta) => emCentesimos(l.valorCentavos),
    alocado: (l: LinhaDaOferta) => emMilesimos(l.alocadoMilesimos),
  },

  Entrega: {
    ofertaProdutoId: (e: EntregaDaLinha) => e.linha.ofertaProdutoId,
    produtoId: (e: EntregaDaLinha) => e.linha.produtoId,
    produto: (e: EntregaDaLinha) => e.linha.produto,
    unidade: (e: EntregaDaLinha) => e.linha.unidade,
    valor: (e: EntregaDaLinha) => emCentesimos(e.linha.valorCentavos),
    ofertado: (e: EntregaDaLinha) => emMilesimos(e.linha.ofertadoMil),
    planejado: (e: EntregaDaLinha) => emMilesimos(e.planejadoMil),
    pedido: (e: EntregaDaLinha) => emMilesimos(e.pedidoMil),
    valorPedido: (e: EntregaDaLinha) => emCentesimos(valorDaQuantidade(e.linha.valorCentavos, e.pedidoMil)),
    mercados: (e: EntregaComMercados) =>
      e.mercados.map((m) => ({ ...m, valorCentavos: valorDaQuantidade(e.linha.valorCentavos, m.pedidoMil) })),
  },
  EntregaNoMercado: {
    pedido: (m: PedidoNoMercado) => emMilesimos(m.pedidoMil),
    valorPedido: (m: { valorCentavos: number }) => emCentesimos(m.valorCentavos),
  },

  Pedido: {
    id: (p: Pedido) => p.pedidoId,
    cursor: (p: Pedido) => String(p.pedidoId),
    cicloId: (p: Pedido) => p.cicloid,
    consumidor: (p: Pedido) => p.usuario.nome,
    total: (p: Pedido) => emCentesimos(p.totalCentavos),
    taxa: (p: Pedido) => emCentesimos(p.taxaCentavos),
    totalComTaxa: (p: Pedido) => emCentesimos(p.totalComTaxaCentavos),
    alteradoAposConfirmar: (p: Pedido, _a: unknown, ctx: Ctx) =>
      p.finalizado ? false : alteradoAposConfirmar(ctx, p.pedidoId),
    // The person's own payment code (issue: "meusPedidos { pix }"): what /saldo shows them.
    pix: async (p: Pedido, _a: unknown, ctx: ContextoResolvers) => {
      if (!p.finalizado || ctx.pix === null || atorDe(ctx).usuarioId !== p.usuario.id) return null;
      const recebedor = ctx.pix;
      // The person's charge and its QR code are the same for each of their orders: made once.
      const pix = await umaVez(ctx, 'pix', p.usuario.id, async () =>
        pixDaCobranca(await cobrancaDe(ctx.banco, p.usuario.id, ctx.taxa), recebedor),
      );
      return pixGraphql(pix);
    },
  },
  LinhaDoPedido: {
    quantidade: (l: LinhaDoPedido) => emMilesimos(l.quantidadeMilesimos),
    valor: (l: LinhaDoPedido) => emCentesimos(l.valorCentavos),
    subtotal: (l: LinhaDoPedido) => emCentesimos(l.subtotalCentavos),
  },
  ParteDoPedido: {
    subtotal: (x: ParteDoPedido) => emCentesimos(x.subtotalCentavos),
    taxaAdministrativa: (x: ParteDoPedido) => emCentesimos(x.taxaCentesimos),
    taxa: (x: ParteDoPedido) => emCentesimos(x.taxaCentavos),
  },
};
