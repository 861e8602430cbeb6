import {
  GraphQLError,
  Kind,
  ValuesOfCorrectTypeRule,
  getNamedType,
  getOperationAST,
  isInterfaceType,
  isListType,
  isNonNullType,
  isObjectType,
  specifiedRules,
  type ASTVisitor,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type DocumentNode,
  type FieldNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { RegraDeValoresEscritos, errosDasVariaveis } from './entrada.ts';
import { PAGINA_MAXIMA, PAGINA_PADRAO } from './fluxo.ts';
import type { TamanhosDasListas } from './tamanhos.ts';
import { erroDePrazo, type TrabalhoDaRequisicao } from './trabalho.ts';

/**
 * What a single request may ask for, and what one account may spend.
 * - Depth: refused at validation when it nests deeper than PROFUNDIDADE_MAXIMA levels.
 * - Cost: an upper bound of the work the operation will do, measured before it runs with the
 *   real length of each list (tamanhos.ts). Every field costs 1, the unit being about the CPU time
 *   of one answer field (~3 µs); a field whose resolver reads the database or computes over a
 *   whole cycle costs what that work weighs in the same unit (PESOS), however small its answer;
 *   and a list multiplies what is asked inside it by how long it is (the real length, `first` for
 *   a page, FATOR_DE_LISTA for a list whose length is not tracked). Above CUSTO_MAXIMO the
 *   operation is refused.
 * - Width: after the cost, more than MAXIMO_DE_CAMPOS_NA_RAIZ fields (aliases included) at the
 *   root of one operation are refused.
 * - Budget: each account spends the cost of what it runs, ORCAMENTO_POR_MINUTO per minute in each
 *   process; answers served from the read cache cost nothing.
 * - Time: trabalho.ts (a deadline, and turns for everyone else while it runs).
 * Introspection (__schema, __type) is free and can be switched off (production).
 */
export const PROFUNDIDADE_MAXIMA = 8;
export const CUSTO_MAXIMO = 50_000;
export const FATOR_DE_LISTA = 10;
export const ORCAMENTO_POR_MINUTO = 600_000;
export const MAXIMO_DE_CAMPOS_NA_RAIZ = 50;
/** One database statement: about the CPU time of 100 answer fields (~0.3 ms on SQLite). */
export const PESO_CONSULTA = 100;
/**
 * A computation over a whole cycle: every offer line, composition, lot and order of the cycle
 * (~10 statements) and the allocation over them. Measured: one `minhasEntregas` took ~17 ms.
 */
export const PESO_CICLO_INTEIRO = 5_000;
/** A write: a transaction of several statements (every root field of Mutation). */
export const PESO_ESCRITA = 500;
/**
 * What one resolution of a field weighs beyond 1, by `Tipo.campo`. A long text costs as much as the
 * short fields that many bytes hold. Fields read through the request's batch loaders (a market's
 * admin and prices, a price's product, a user's markets, an order's `alteradoAposConfirmar`) cost
 * one statement per request whatever the rows, so only their answer counts. `mercados` and
 * `produtos` are one statement each, kept by the read cache, and their cost already grows with
 * the data. The same computation asked twice in a request is done once (trabalho.ts), but the
 * cost counts each time it is asked: it stays an upper bound.
 */
export const PESOS: Readonly<Record<string, number>> = {
  'Mercado.descricao': 20,
  'Query.mercado': PESO_CONSULTA,
  'Query.usuarios': PESO_CONSULTA,
  'Query.meusAvisos': PESO_CONSULTA,
  'Query.ciclos': 2 * PESO_CONSULTA,
  'Query.ciclo': PESO_CONSULTA,
  'Query.minhaOferta': 3 * PESO_CONSULTA,
  'Query.produtosParaOfertar': 2 * PESO_CONSULTA,
  'Query.minhasEntregas': PESO_CICLO_INTEIRO,
  'Query.meusPedidos': PESO_CONSULTA,
  'Query.pedidosDoMercado': PESO_CICLO_INTEIRO,
  'Query.minhasOfertas': 3 * PESO_CONSULTA,
  // Every subscription with the cycles of its season ahead.
  'Query.minhasAssinaturas': 10 * PESO_CONSULTA,
  // The dashboard's statement, the person's ledger, the cycles' markets and delivery days.
  'Query.meusProximosPassos': 10 * PESO_CONSULTA,
  'Ciclo.diasDeEntrega': PESO_CONSULTA,
  'Ciclo.mercados': 3 * PESO_CONSULTA,
  // The catalogue and the reservations of the whole cycle (shared by `cestas` and `itens`).
  'Ciclo.cestas': 10 * PESO_CONSULTA,
  'Ciclo.itens': 10 * PESO_CONSULTA,
  'Ciclo.pontosEntrega': PESO_CONSULTA,
  'Ciclo.acoes': PESO_CONSULTA,
  'Oferta.ciclo': PESO_CONSULTA,
  // The person's whole ledger and a QR code.
  'Pedido.pix': 5 * PESO_CONSULTA,
  'Query.minhaCobranca': 5 * PESO_CONSULTA,
  // The pickup (issue 38): the points one may run (four statements); a point's whole snapshot
  // (about ten statements, the charges of everyone and a Pix per order).
  'Query.meusPontosDeRetirada': 4 * PESO_CONSULTA,
  'Query.retiradaDoPonto': 20 * PESO_CONSULTA,
  // Up to 100 actions, each a transaction of a few statements: just over half the limit, so one
  // operation carries one batch (a second one under an alias is refused before anything runs).
  'Mutation.sincronizarRetirada': CUSTO_MAXIMO / 2 + PESO_ESCRITA,
};
/** What each item of a list weighs beyond its fields, by `Tipo.campo`: `meusPedidos` reads each order on its own. */
export const PESOS_POR_ITEM: Readonly<Record<string, number>> = { 'Query.meusPedidos': 3 * PESO_CONSULTA };
const MINUTO_MS = 60_000;

function ehIntrospeccao(nome: string): boolean {
  return nome === '__schema' || nome === '__type';
}

function devolveLista(tipo: GraphQLOutputType): boolean {
  return isListType(isNonNullType(tipo) ? tipo.ofType : tipo);
}

/** How many items a page (a list with `first`) returns: the `first` asked, within its bounds, or the default page. */
function tamanhoDaPagina(no: FieldNode, variaveis: Readonly<Record<string, unknown>>): number {
  const arg = no.arguments?.find((a) => a.name.value === 'first');
  const valor =
    arg === undefined
      ? undefined
      : arg.value.kind === Kind.INT
        ? Number(arg.value.value)
        : arg.value.kind === Kind.VARIABLE
          ? variaveis[arg.value.name.value]
          : undefined;
  return typeof valor === 'number' && Number.isInteger(valor)
    ? Math.min(Math.max(valor, 1), PAGINA_MAXIMA)
    : PAGINA_PADRAO;
}

/**
 * Depth and cost of each operation. Fragments are measured once each and remembered, so a
 * document built to make the measuring itself explode (fragments spreading fragments twice, over
 * and over) costs linear time; a fragment cycle (refused by NoFragmentCyclesRule) counts as 0.
 */
class Medidor {
  readonly #schema: GraphQLSchema;
  readonly #fragmentos: Map<string, FragmentDefinitionNode>;
  readonly #profundidades = new Map<string, number>();
  readonly #custos = new Map<string, number>();
  readonly #emCurso = new Set<string>();

  readonly #tamanhos: TamanhosDasListas;
  readonly #variaveis: Readonly<Record<string, unknown>>;
  readonly #mutacao: GraphQLNamedType | undefined;

  constructor(
    schema: GraphQLSchema,
    fragmentos: readonly FragmentDefinitionNode[],
    tamanhos: TamanhosDasListas = {},
    variaveis: Readonly<Record<string, unknown>> = {},
  ) {
    this.#schema = schema;
    this.#fragmentos = new Map(fragmentos.map((f) => [f.name.value, f]));
    this.#tamanhos = tamanhos;
    this.#variaveis = variaveis;
    this.#mutacao = schema.getMutationType() ?? undefined;
  }

  /** A fragment's measure, computed once; `tipo` keeps depth and cost apart in the cycle guard. */
  #fragmento(tipo: 'profundidade' | 'custo', nome: string, medir: (f: FragmentDefinitionNode) => number): number {
    const memo = tipo === 'profundidade' ? this.#profundidades : this.#custos;
    const pronto = memo.get(nome);
    if (pronto !== undefined) return pronto;
    const f = this.#fragmentos.get(nome);
    const chave = `${tipo}:${nome}`;
    if (f === undefined || this.#emCurso.has(chave)) return 0;
    this.#emCurso.add(chave);
    const v = medir(f);
    this.#emCurso.delete(chave);
    memo.set(nome, v);
    return v;
  }

  profundidade(selecao: SelectionSetNode | undefined): number {
    let maxima = 0;
    for (const s of selecao?.selections ?? []) {
      const d =
        s.kind === Kind.FIELD
          ? ehIntrospeccao(s.name.value)
            ? 0
            : 1 + this.profundidade(s.selectionSet)
          : s.kind === Kind.INLINE_FRAGMENT
            ? this.profundidade(s.selectionSet)
            : this.#fragmento('profundidade', s.name.value, (f) => this.profundidade(f.selectionSet));
      maxima = Math.max(maxima, d);
    }
    return maxima;
  }

  custo(selecao: SelectionSetNode | undefined, pai: GraphQLNamedType | undefined): number {
    let total = 0;
    for (const s of selecao?.selections ?? []) {
      if (s.kind === Kind.FIELD) {
        const nome = s.name.value;
        if (ehIntrospeccao(nome) || nome === '__typename') continue;
        const def = isObjectType(pai) || isInterfaceType(pai) ? pai.getFields()[nome] : undefined;
        const coordenada = `${pai?.name ?? ''}.${nome}`;
        const fator =
          def === undefined || !devolveLista(def.type)
            ? 1
            : def.args.some((a) => a.name === 'first')
              ? tamanhoDaPagina(s, this.#variaveis)
              : Math.max(1, this.#tamanhos[coordenada] ?? FATOR_DE_LISTA);
        const peso = PESOS[coordenada] ?? (pai !== undefined && pai === this.#mutacao ? PESO_ESCRITA : 1);
        total +=
          peso +
          fator *
            ((PESOS_POR_ITEM[coordenada] ?? 0) +
              this.custo(s.selectionSet, def === undefined ? undefined : getNamedType(def.type)));
      } else if (s.kind === Kind.INLINE_FRAGMENT) {
        total += this.custo(
          s.selectionSet,
          s.typeCondition === undefined ? pai : (this.#schema.getType(s.typeCondition.name.value) ?? undefined),
        );
      } else {
        total += this.#fragmento('custo', s.name.value, (f) =>
          this.custo(f.selectionSet, this.#schema.getType(f.typeCondition.name.value) ?? undefined),
        );
      }
    }
    return total;
  }
}

function tipoRaiz(schema: GraphQLSchema, op: OperationDefinitionNode): GraphQLNamedType | undefined {
  const tipo =
    op.operation === 'query'
      ? schema.getQueryType()
      : op.operation === 'mutation'
        ? schema.getMutationType()
        : schema.getSubscriptionType();
  return tipo ?? undefined;
}

function regraDaProfundidade(context: ValidationContext): ASTVisitor {
  return {
    Document: {
      leave(doc) {
        const fragmentos = doc.definitions.filter(
          (d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION,
        );
        const medidor = new Medidor(context.getSchema(), fragmentos);
        for (const op of doc.definitions) {
          if (op.kind !== Kind.OPERATION_DEFINITION) continue;
          const profundidade = medidor.profundidade(op.selectionSet);
          if (profundidade > PROFUNDIDADE_MAXIMA) {
            context.reportError(
              new GraphQLError(
                `Consulta profunda demais: ${profundidade} níveis, o máximo é ${PROFUNDIDADE_MAXIMA}. Peça menos níveis aninhados.`,
                {
                  nodes: [op],
                  extensions: {
                    code: 'CONSULTA_PROFUNDA_DEMAIS',
                    limite: PROFUNDIDADE_MAXIMA,
                    encontrado: profundidade,
                  },
                },
              ),
            );
          }
        }
      },
    },
  };
}

/** The depth limit, as a validation rule: refused queries never run. */
export const RegraDosLimites: ValidationRule = regraDaProfundidade;

/** The cost of the operation a request runs, with the lists' real lengths and the pages its variables ask for. */
export function custoDaOperacao(
  schema: GraphQLSchema,
  doc: DocumentNode,
  nomeDaOperacao: string | null | undefined,
  tamanhos: TamanhosDasListas,
  variaveis: Readonly<Record<string, unknown>> = {},
): number {
  const op = getOperationAST(doc, nomeDaOperacao);
  if (op === null || op === undefined) return 0;
  const fragmentos = doc.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION);
  return new Medidor(schema, fragmentos, tamanhos, variaveis).custo(op.selectionSet, tipoRaiz(schema, op));
}

/**
 * How many fields the root of the operation runs: its distinct answer keys (an alias is a key of
 * its own; the same key twice is one field), through fragments, each fragment read once.
 */
export function camposNaRaiz(doc: DocumentNode, nomeDaOperacao: string | null | undefined): number {
  const op = getOperationAST(doc, nomeDaOperacao);
  if (op === null || op === undefined) return 0;
  const fragmentos = new Map(
    doc.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((f) => [f.name.value, f]),
  );
  const chaves = new Set<string>();
  const lidos = new Set<string>();
  const ler = (selecao: SelectionSetNode | undefined): void => {
    for (const s of selecao?.selections ?? []) {
      if (s.kind === Kind.FIELD) {
        if (!ehIntrospeccao(s.name.value) && s.name.value !== '__typename') chaves.add(s.alias?.value ?? s.name.value);
      } else if (s.kind === Kind.INLINE_FRAGMENT) ler(s.selectionSet);
      else if (!lidos.has(s.name.value)) {
        lidos.add(s.name.value);
        ler(fragmentos.get(s.name.value)?.selectionSet);
      }
    }
  };
  ler(op.selectionSet);
  return chaves.size;
}

/** The refusal of an operation with more than MAXIMO_DE_CAMPOS_NA_RAIZ root fields, before anything of it runs. */
export function erroDeCamposNaRaiz(campos: number): GraphQLError {
  return new GraphQLError(
    `Consulta larga demais: ${campos} campos na raiz (apelidos contam cada um), o máximo é ${MAXIMO_DE_CAMPOS_NA_RAIZ}. Divida a consulta em partes.`,
    { extensions: { code: 'CAMPOS_DEMAIS_NA_RAIZ', limite: MAXIMO_DE_CAMPOS_NA_RAIZ, encontrado: campos } },
  );
}

/** The refusal of an operation above CUSTO_MAXIMO, before anything of it runs. */
export function erroDeCusto(custo: number): GraphQLError {
  const estimado = Number.isFinite(custo) && custo < Number.MAX_SAFE_INTEGER ? custo : Number.MAX_SAFE_INTEGER;
  return new GraphQLError(
    `Consulta custosa demais: custo estimado ${estimado}, o máximo é ${CUSTO_MAXIMO}. Peça menos campos ou divida a consulta em partes.`,
    { extensions: { code: 'CONSULTA_CUSTOSA_DEMAIS', limite: CUSTO_MAXIMO, encontrado: estimado } },
  );
}

/**
 * What each account has spent in the current minute, in this process. NOTE: in memory on
 * purpose: counting in the database would add a write to every read, and one account's reads
 * are what this protects the process from.
 */
export class OrcamentoPorConta {
  readonly #gastos = new Map<number, { inicio: number; gasto: number }>();

  /** Spends `custo` for the account; false when that would go over its budget for the minute. */
  gastar(conta: number, custo: number, agoraMs: number): { readonly permitido: boolean; readonly esperarS: number } {
    let g = this.#gastos.get(conta);
    if (g === undefined || agoraMs - g.inicio >= MINUTO_MS) {
      if (this.#gastos.size > 10_000) this.#esquecerVencidos(agoraMs);
      g = { inicio: agoraMs, gasto: 0 };
      this.#gastos.set(conta, g);
    }
    const esperarS = Math.max(1, Math.ceil((g.inicio + MINUTO_MS - agoraMs) / 1000));
    if (g.gasto + custo > ORCAMENTO_POR_MINUTO) return { permitido: false, esperarS };
    g.gasto += custo;
    return { permitido: true, esperarS };
  }

  #esquecerVencidos(agoraMs: number): void {
    for (const [conta, g] of this.#gastos) if (agoraMs - g.inicio >= MINUTO_MS) this.#gastos.delete(conta);
  }
}

function erroDeOrcamento(esperarS: number): GraphQLError {
  return new GraphQLError(`Consultas demais desta conta no último minuto. Tente novamente em ${esperarS} segundos.`, {
    extensions: { code: 'MUITAS_CONSULTAS', http: { status: 429, headers: { 'Retry-After': String(esperarS) } } },
  });
}

/** Production hides the schema: __schema and __type are refused, __typename stays. */
export const RegraSemIntrospeccao: ValidationRule = (context) => ({
  Field(no) {
    if (ehIntrospeccao(no.name.value)) {
      context.reportError(
        new GraphQLError('A introspecção do esquema está desativada neste servidor', {
          nodes: [no],
          extensions: { code: 'INTROSPECCAO_DESATIVADA' },
        }),
      );
    }
  },
});

/** Spec of GraphQL over HTTP: GET carries queries only, since a GET must never change anything. */
function mutacaoPorGet(): GraphQLError {
  return new GraphQLError('Mutações só podem ser enviadas por POST', {
    extensions: { code: 'BAD_REQUEST', http: { status: 405, headers: { Allow: 'POST' } } },
  });
}

/**
 * The checks every request passes before it runs: the HTTP method of a mutation, written values
 * with named paths (in place of ValuesOfCorrectTypeRule), limits, introspection when it is off,
 * and the variables' values.
 */
export function conferenciasDaRequisicao(opcoes: {
  readonly introspeccao: boolean;
  readonly orcamento: OrcamentoPorConta;
}): Plugin<{ request?: Request; params?: { operationName?: string } }> {
  return {
    onParse({ context }) {
      return ({ result }) => {
        if (result instanceof Error || result === null || context.request?.method !== 'GET') return;
        if (getOperationAST(result, context.params?.operationName)?.operation === 'mutation') throw mutacaoPorGet();
      };
    },
    onValidate({ addValidationRule, setValidationFn, validateFn }) {
      setValidationFn((schema, doc, regras, typeInfo, opcoesValidacao) =>
        validateFn(
          schema,
          doc,
          (regras ?? specifiedRules).map((r: ValidationRule) =>
            r === ValuesOfCorrectTypeRule ? RegraDeValoresEscritos : r,
          ),
          typeInfo,
          opcoesValidacao,
        ),
      );
      addValidationRule(RegraDosLimites);
      if (!opcoes.introspeccao) addValidationRule(RegraSemIntrospeccao);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const erro = errosDasVariaveis(args.schema, args.document, args.operationName, args.variableValues);
      if (erro !== null) {
        setResultAndStopExecution({ errors: [erro] });
        return;
      }
      const ctx = args.contextValue as {
        tamanhos?: TamanhosDasListas;
        user?: { id: number } | null;
        agora?: Date;
        trabalho?: TrabalhoDaRequisicao;
      };
      const custo = custoDaOperacao(
        args.schema,
        args.document,
        args.operationName,
        ctx.tamanhos ?? {},
        args.variableValues ?? {},
      );
      if (custo > CUSTO_MAXIMO) {
        setResultAndStopExecution({ errors: [erroDeCusto(custo)] });
        return;
      }
      const campos = camposNaRaiz(args.document, args.operationName);
      if (campos > MAXIMO_DE_CAMPOS_NA_RAIZ) {
        setResultAndStopExecution({ errors: [erroDeCamposNaRaiz(campos)] });
        return;
      }
      if (ctx.user !== null && ctx.user !== undefined) {
        const gasto = opcoes.orcamento.gastar(ctx.user.id, custo, (ctx.agora ?? new Date()).getTime());
        if (!gasto.permitido) {
          setResultAndStopExecution({ errors: [erroDeOrcamento(gasto.esperarS)] });
          return;
        }
      }
      // Past the deadline, whatever was already answered is dropped: the answer is the one error.
      return {
        onExecuteDone({ setResult }) {
          if (ctx.trabalho?.esgotado === true) setResult({ errors: [erroDePrazo()] });
        },
      };
    },
  };
}
