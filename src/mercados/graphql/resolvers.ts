import type { IResolvers } from '@graphql-tools/utils';
import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import { MAIOR_ID, lerId } from '../../http/campos.ts';
import { atribuirPerfis, listarContas, type Conta } from '../../domain/contas.ts';
import type { Ator } from '../../domain/acesso.ts';
import { TIPOS, TIPOS_DE_AVISO, avisosQueRecebe, definirAvisos, type TipoDeAviso } from '../../domain/avisos.ts';
import { Conflito } from '../../domain/erros.ts';
import {
  atualizarMercado,
  atualizarPrecoMercado,
  buscarProdutos,
  criarMercado,
  desativarMercado,
  exigirMercadoAlteravel,
  listarMercados,
  mercadoPorId,
  type DadosMercado,
  type Mercado,
  type PrecoMercado,
  type ProdutoDoCatalogo,
} from '../../domain/mercados.ts';
import { acoesDoMercado, autorizarMercados, podeMercados } from '../../domain/politica-mercados.ts';
import { listaDeTipos } from '../../domain/tipos-de-mercado.ts';
import { AtribuirPerfis, AtualizarPrecos, BuscaDeProdutos, SalvarMercado } from '../../comandos/mercados.ts';
import { EscolherAvisos } from '../../comandos/avisos.ts';
import { comNomes, nomesDoGraphql } from '../../comandos/leitor/leitura.ts';
import { atorDe, esquecerCarregados, type ContextoResolvers } from './contexto-resolvers.ts';
import { DateTime, Decimal, Quantidade, emCentesimos } from './escalares.ts';
import { consultasDoFluxo, mutacoesDoFluxo, tiposDoFluxo } from './fluxo.ts';
import { consultasDeAssinaturas, mutacoesDeAssinaturas, tiposDeAssinaturas } from './assinaturas.ts';
import { consultasDaRetirada, mutacoesDaRetirada, tiposDaRetirada } from './retirada.ts';

/**
 * Thin resolvers: the arguments are read into typed values (the commands, src/comandos), after the check of
 * who may act where the domain needs the target first; the domain judges its rules, authorises
 * and writes; nested fields go through the request's loaders.
 */

type Ctx = ContextoResolvers;

/** The commands' fields by their GraphQL names: `input.precos[2].preco`, or an argument of its own (`userId`). */
const NO_INPUT = nomesDoGraphql();
const NOS_ARGUMENTOS = nomesDoGraphql({
  userId: 'userId',
  perfis: 'perfis',
  busca: 'busca',
  ativo: 'ativo',
});
/** `definirMeusAvisos(recebe)` reads the command /profile/avisos reads, whose list is `avisos`. */
const NO_RECEBE = nomesDoGraphql({ avisos: 'recebe' });

/** A market's write, its input read first and the domain's refusals named as MercadoInput's fields (`input.adminId`). */
const escreverMercado = <T>(input: unknown, escrever: (dados: DadosMercado) => Promise<T>): Promise<T> => {
  const dados = SalvarMercado.ler(input, NO_INPUT);
  return comNomes(SalvarMercado.raizes, NO_INPUT, () => escrever(dados));
};

/** A write, after which the request's loaders must read the new state. */
async function escrita<T>(ctx: Ctx, fazer: () => Promise<T>): Promise<T> {
  const r = await fazer();
  esquecerCarregados(ctx);
  return r;
}

/** Whether the field being resolved selects the sub-field `campo` (directly or through fragments). */
function pedeSubcampo(info: GraphQLResolveInfo, campo: string): boolean {
  const pede = (conjunto: SelectionSetNode | undefined): boolean =>
    (conjunto?.selections ?? []).some((s) =>
      s.kind === Kind.FIELD
        ? s.name.value === campo
        : s.kind === Kind.INLINE_FRAGMENT
          ? pede(s.selectionSet)
          : pede(info.fragments[s.name.value]?.selectionSet),
    );
  return info.fieldNodes.some((n) => pede(n.selectionSet));
}

/**
 * A market's prices; when their products are asked for too, those are loaded here in one batch
 * (all markets of the request together) so that each price's `produto` resolves synchronously.
 */
async function precosDoMercado(m: Mercado, ctx: Ctx, info: GraphQLResolveInfo): Promise<PrecoMercado[]> {
  const precos = await ctx.carregadores.precosDoMercado.load(m.id);
  if (precos.length === 0 || !pedeSubcampo(info, 'produto')) return precos;
  const ids = precos.map((p) => p.produtoId);
  const produtos = await ctx.carregadores.produtos.loadMany(ids);
  produtos.forEach((produto, i) => {
    if (!(produto instanceof Error)) ctx.carregadores.produtosProntos.set(ids[i] ?? 0, produto);
  });
  return precos;
}

/** A price's product: the foreign key makes a missing one impossible; if it happens, it is a bug worth a 500 and a log line. */
function produtoDoPreco(p: PrecoMercado, produto: ProdutoDoCatalogo | null): ProdutoDoCatalogo {
  if (produto === null) throw new Error(`o preço ${p.id} aponta para o produto ${p.produtoId}, que não existe`);
  return produto;
}

/** MeusAvisos: what a person receives (null: no Cestas record, so nothing) and every kind. */
function avisosJson(recebe: readonly TipoDeAviso[] | null, ligado: boolean) {
  return {
    recebe: recebe ?? [],
    ligado,
    cadastro: recebe !== null,
    tipos: TIPOS.map((tipo) => ({ tipo, nome: TIPOS_DE_AVISO[tipo].nome, opcional: TIPOS_DE_AVISO[tipo].opcional })),
  };
}

export const resolvers: IResolvers<unknown, Ctx> = {
  Decimal,
  DateTime,
  Quantidade,
  ...tiposDoFluxo,
  ...tiposDeAssinaturas,
  ...tiposDaRetirada,

  Query: {
    ...consultasDoFluxo,
    ...consultasDeAssinaturas,
    ...consultasDaRetirada,
    mercados: (_: unknown, a: { ativo?: boolean | null }, ctx: Ctx) =>
      listarMercados(ctx.banco, { ativo: a.ativo ?? undefined }),
    // An id no market can have ("abc", "0", past the largest id) finds nothing, like an unused one.
    mercado: (_: unknown, a: { id: string }, ctx: Ctx) =>
      /^[1-9]\d{0,9}$/.test(a.id) && Number(a.id) <= MAIOR_ID ? mercadoPorId(ctx.banco, Number(a.id)) : null,
    me: (_: unknown, _a: unknown, ctx: Ctx) => ctx.user,
    produtos: (_: unknown, a: { busca?: string | null; ativo?: boolean | null }, ctx: Ctx) =>
      buscarProdutos(ctx.banco, BuscaDeProdutos.ler(a, NOS_ARGUMENTOS)),
    usuarios: (_: unknown, _a: unknown, ctx: Ctx) => {
      autorizarMercados(atorDe(ctx), 'listarUsuarios', null);
      return listarContas(ctx.banco);
    },
    meusAvisos: async (_: unknown, _a: unknown, ctx: Ctx) => {
      const usuarioId = atorDe(ctx).usuarioId;
      return avisosJson(usuarioId === null ? null : await avisosQueRecebe(ctx.banco, usuarioId), ctx.emailLigado);
    },
    tiposDeMercado: () => listaDeTipos(),
  },

  Mutation: {
    ...mutacoesDoFluxo,
    ...mutacoesDeAssinaturas,
    ...mutacoesDaRetirada,
    criarMercado: (_: unknown, a: { input: unknown }, ctx: Ctx) =>
      escrita(ctx, () => {
        autorizarMercados(atorDe(ctx), 'criarMercado', null);
        return escreverMercado(a.input, (dados) => criarMercado(ctx.banco, atorDe(ctx), dados, ctx.agora));
      }),
    // A market's ownership comes before its input is judged: someone else's market is refused as such.
    atualizarMercado: (_: unknown, a: { id: string; input: unknown }, ctx: Ctx) =>
      escrita(ctx, async () => {
        const id = lerId(a.id, 'id');
        await exigirMercadoAlteravel(ctx.banco, atorDe(ctx), 'atualizarMercado', id);
        return escreverMercado(a.input, (dados) => atualizarMercado(ctx.banco, atorDe(ctx), id, dados, ctx.agora));
      }),
    desativarMercado: (_: unknown, a: { id: string }, ctx: Ctx) =>
      escrita(ctx, () => {
        autorizarMercados(atorDe(ctx), 'desativarMercado', null);
        return desativarMercado(ctx.banco, atorDe(ctx), lerId(a.id, 'id'), ctx.agora);
      }),
    atualizarPrecoMercado: (_: unknown, a: { id: string; input: unknown }, ctx: Ctx) =>
      escrita(ctx, async () => {
        const id = lerId(a.id, 'id');
        await exigirMercadoAlteravel(ctx.banco, atorDe(ctx), 'atualizarPrecos', id);
        return atualizarPrecoMercado(ctx.banco, atorDe(ctx), id, AtualizarPrecos.ler(a.input, NO_INPUT), ctx.agora);
      }),
    atribuirPerfis: (_: unknown, a: { userId: string; perfis: string[] }, ctx: Ctx) =>
      escrita(ctx, () => {
        autorizarMercados(atorDe(ctx), 'atribuirPerfis', null);
        return atribuirPerfis(ctx.banco, atorDe(ctx), AtribuirPerfis.ler(a, NOS_ARGUMENTOS), ctx.agora);
      }),
    // The person's own choice, as on /profile/avisos of the Cestas face (the same domain function).
    definirMeusAvisos: async (_: unknown, a: { recebe: string[] }, ctx: Ctx) => {
      const conta = atorDe(ctx);
      if (conta.usuarioId === null) {
        throw new Conflito(
          'SEM_CADASTRO',
          'Sua conta ainda não tem cadastro na face Cestas: os avisos por e-mail são de quem oferta ou pede lá. Complete o cadastro para escolhê-los',
        );
      }
      const recebe = EscolherAvisos.ler({ avisos: a.recebe }, NO_RECEBE);
      const ator: Ator = { email: conta.email, nome: conta.name, usuarioid: conta.usuarioId, perfil: [], ativo: true };
      return avisosJson(await definirAvisos(ctx.banco, ator, recebe, ctx.agora), ctx.emailLigado);
    },
  },

  Mercado: {
    taxaAdministrativa: (m: Mercado) => emCentesimos(m.taxaAdministrativaCentesimos),
    valorMaximoCesta: (m: Mercado) => emCentesimos(m.valorMaximoCestaCentavos),
    admin: (m: Mercado, _a: unknown, ctx: Ctx) => ctx.carregadores.contas.load(m.adminId),
    precos: (m: Mercado, _a: unknown, ctx: Ctx, info: GraphQLResolveInfo) => precosDoMercado(m, ctx, info),
    acoes: (m: Mercado, _a: unknown, ctx: Ctx) => acoesDoMercado(atorDe(ctx), m),
  },

  PrecoMercado: {
    preco: (p: PrecoMercado) => emCentesimos(p.precoCentavos),
    produto: (p: PrecoMercado, _a: unknown, ctx: Ctx) => {
      const pronto = ctx.carregadores.produtosProntos.get(p.produtoId);
      if (pronto !== undefined) return produtoDoPreco(p, pronto);
      return ctx.carregadores.produtos.load(p.produtoId).then((produto) => produtoDoPreco(p, produto));
    },
  },

  Produto: {
    valorReferencia: (p: ProdutoDoCatalogo) => emCentesimos(p.valorReferenciaCentavos),
  },

  User: {
    // Deny by default: the e-mail shows only when the table says so; anyone else reads null.
    email: (u: Conta, _a: unknown, ctx: Ctx) => (podeMercados(atorDe(ctx), 'verEmail', u) ? u.email : null),
    emailVerificado: (u: Conta, _a: unknown, ctx: Ctx) =>
      podeMercados(atorDe(ctx), 'verEmail', u) ? u.emailVerificado : null,
    profiles: (u: Conta, _a: unknown, ctx: Ctx) => (podeMercados(atorDe(ctx), 'verConta', u) ? u.profiles : null),
    // NOTE: also what keeps `mercados { admin { mercados … } } }` from fanning out for anyone else.
    mercados: (u: Conta, _a: unknown, ctx: Ctx) =>
      podeMercados(atorDe(ctx), 'verConta', u) ? ctx.carregadores.mercadosDoAdmin.load(u.id) : null,
    usuarioId: (u: Conta, _a: unknown, ctx: Ctx) => (podeMercados(atorDe(ctx), 'verConta', u) ? u.usuarioId : null),
  },
};
