import {
  Kind,
  getOperationAST,
  isEnumType,
  isInputObjectType,
  isInputType,
  isListType,
  isNonNullType,
  typeFromAST,
  type DocumentNode,
  type GraphQLError,
  type GraphQLInputType,
  type GraphQLScalarType,
  type GraphQLSchema,
  type ValidationRule,
  type ValueNode,
} from 'graphql';
import { entradaInvalida } from './erros.ts';
import { ErroDeEscalar } from './escalares.ts';

/**
 * Input values, checked before anything runs: the arguments written in the query (a validation
 * rule that takes the place of graphql-js's ValuesOfCorrectTypeRule) and the variables (at the
 * start of execution). Every bad value becomes one BAD_USER_INPUT error naming its path
 * (`input.tipo`, `input.precos[2].preco`) with a Portuguese message, as the domain's own
 * validation does, so a client handles both the same way.
 */

type Erros = Map<string, string>;

const MENSAGENS_ESCALARES: Readonly<Record<string, string>> = {
  String: 'Deve ser um texto',
  Int: 'Deve ser um número inteiro',
  Float: 'Deve ser um número',
  Boolean: 'Deve ser verdadeiro ou falso',
  ID: 'Deve ser um identificador (texto ou número inteiro)',
};

function anotar(erros: Erros, caminho: string, mensagem: string): void {
  if (!erros.has(caminho)) erros.set(caminho, mensagem);
}

function conferirEscalar(tipo: GraphQLScalarType, ler: () => unknown, caminho: string, erros: Erros): void {
  const padrao = MENSAGENS_ESCALARES[tipo.name] ?? `Valor inválido para ${tipo.name}`;
  try {
    if (ler() === undefined) anotar(erros, caminho, padrao);
  } catch (e) {
    anotar(erros, caminho, e instanceof ErroDeEscalar ? e.message : padrao);
  }
}

function valoresDoEnum(tipo: { getValues(): ReadonlyArray<{ name: string }> }): string {
  return `Valor inválido: use ${tipo
    .getValues()
    .map((v) => v.name)
    .join(', ')}`;
}

/** A JSON value (a variable) against its input type. */
function conferirValor(valor: unknown, tipo: GraphQLInputType, caminho: string, erros: Erros): void {
  if (isNonNullType(tipo)) {
    if (valor === null || valor === undefined) anotar(erros, caminho, 'Campo obrigatório');
    else conferirValor(valor, tipo.ofType, caminho, erros);
    return;
  }
  if (valor === null || valor === undefined) return;
  if (isListType(tipo)) {
    // GraphQL reads a single value where a list is expected as a list of one.
    if (Array.isArray(valor))
      valor.forEach((item: unknown, i) => conferirValor(item, tipo.ofType, `${caminho}[${i}]`, erros));
    else conferirValor(valor, tipo.ofType, caminho, erros);
    return;
  }
  if (isInputObjectType(tipo)) {
    if (typeof valor !== 'object' || Array.isArray(valor)) {
      anotar(erros, caminho, 'Deve ser um objeto');
      return;
    }
    const campos = tipo.getFields();
    const dado = valor as Record<string, unknown>;
    for (const nome of Object.keys(dado))
      if (!Object.hasOwn(campos, nome)) anotar(erros, `${caminho}.${nome}`, 'Campo desconhecido');
    for (const campo of Object.values(campos)) {
      const v = Object.hasOwn(dado, campo.name) ? dado[campo.name] : undefined;
      if (v === undefined && campo.defaultValue !== undefined) continue;
      conferirValor(v, campo.type, `${caminho}.${campo.name}`, erros);
    }
    return;
  }
  if (isEnumType(tipo)) {
    if (typeof valor !== 'string' || tipo.getValue(valor) === undefined) anotar(erros, caminho, valoresDoEnum(tipo));
    return;
  }
  conferirEscalar(tipo, () => tipo.parseValue(valor), caminho, erros);
}

/** A value written in the query against its input type; variables inside it are checked apart. */
function conferirLiteral(no: ValueNode, tipo: GraphQLInputType, caminho: string, erros: Erros): void {
  if (no.kind === Kind.VARIABLE) return;
  if (isNonNullType(tipo)) {
    if (no.kind === Kind.NULL) anotar(erros, caminho, 'Campo obrigatório');
    else conferirLiteral(no, tipo.ofType, caminho, erros);
    return;
  }
  if (no.kind === Kind.NULL) return;
  if (isListType(tipo)) {
    if (no.kind === Kind.LIST)
      no.values.forEach((item, i) => conferirLiteral(item, tipo.ofType, `${caminho}[${i}]`, erros));
    else conferirLiteral(no, tipo.ofType, caminho, erros);
    return;
  }
  if (isInputObjectType(tipo)) {
    if (no.kind !== Kind.OBJECT) {
      anotar(erros, caminho, 'Deve ser um objeto');
      return;
    }
    const campos = tipo.getFields();
    const dados = new Map(no.fields.map((f) => [f.name.value, f.value]));
    for (const nome of dados.keys())
      if (!Object.hasOwn(campos, nome)) anotar(erros, `${caminho}.${nome}`, 'Campo desconhecido');
    for (const campo of Object.values(campos)) {
      const v = dados.get(campo.name);
      if (v !== undefined) conferirLiteral(v, campo.type, `${caminho}.${campo.name}`, erros);
      else if (isNonNullType(campo.type) && campo.defaultValue === undefined)
        anotar(erros, `${caminho}.${campo.name}`, 'Campo obrigatório');
    }
    return;
  }
  if (isEnumType(tipo)) {
    if (no.kind !== Kind.ENUM || tipo.getValue(no.value) === undefined) anotar(erros, caminho, valoresDoEnum(tipo));
    return;
  }
  conferirEscalar(tipo, () => tipo.parseLiteral(no, undefined), caminho, erros);
}

/** Replaces ValuesOfCorrectTypeRule: the same check of written values, with named paths. */
export const RegraDeValoresEscritos: ValidationRule = (context) => ({
  Argument(no) {
    const argumento = context.getArgument();
    // An unknown argument is KnownArgumentNamesRule's to report.
    if (argumento === null || argumento === undefined) return false;
    const erros: Erros = new Map();
    conferirLiteral(no.value, argumento.type, no.name.value, erros);
    if (erros.size > 0) context.reportError(entradaInvalida(Object.fromEntries(erros), 'VALIDACAO', [no]));
    return false;
  },
  VariableDefinition(no) {
    const tipo = typeFromAST(context.getSchema(), no.type);
    if (no.defaultValue === undefined || tipo === undefined || !isInputType(tipo)) return false;
    const erros: Erros = new Map();
    conferirLiteral(no.defaultValue, tipo, no.variable.name.value, erros);
    if (erros.size > 0) context.reportError(entradaInvalida(Object.fromEntries(erros), 'VALIDACAO', [no]));
    return false;
  },
});

/**
 * The variables of the operation about to run, each against its declared type; null when all
 * are valid. Paths start at the variable's name (`input.nome` for `$input`).
 */
export function errosDasVariaveis(
  schema: GraphQLSchema,
  documento: DocumentNode,
  operacao: string | null | undefined,
  variaveis: Readonly<Record<string, unknown>> | null | undefined,
): GraphQLError | null {
  const op = getOperationAST(documento, operacao);
  if (op === null || op === undefined) return null;
  const valores = variaveis ?? {};
  const erros: Erros = new Map();
  for (const def of op.variableDefinitions ?? []) {
    const tipo = typeFromAST(schema, def.type);
    if (tipo === undefined || !isInputType(tipo)) continue;
    const nome = def.variable.name.value;
    const valor = Object.hasOwn(valores, nome) ? valores[nome] : undefined;
    if (valor === undefined && def.defaultValue !== undefined) continue;
    conferirValor(valor, tipo, nome, erros);
  }
  return erros.size === 0 ? null : entradaInvalida(Object.fromEntries(erros), 'VALIDACAO', [op]);
}
