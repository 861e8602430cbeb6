import { Kind, parse, type DocumentNode, type OperationDefinitionNode } from 'graphql';

/**
 * Finished answers of the read queries, kept per person and per version of the data.
 *
 * NOTE: the markets list with its prices is the heaviest answer of the API (200 markets × 20
 * prices: 144 KiB, ~13,000 fields, ~28 ms of CPU and ~5 MB of garbage each time), and it changes
 * only when someone writes. Every write to the tables behind it moves `versaodados.versao`
 * (database triggers, so no writer can forget, in any process or machine); a request reads that
 * one row and, when nothing moved since, sends the answer it already built for the same person,
 * operation and variables. The person is part of the key because answers depend on who asks
 * (`acoes`, the fields @auth hides). Only queries whose every root field is listed in
 * CAMPOS_CACHEAVEIS are kept: none of them depends on the clock.
 */
const CAMPOS_CACHEAVEIS: ReadonlySet<string> = new Set(['mercados', 'mercado', 'produtos', 'tiposDeMercado']);

/** At most this many answers, and this many bytes, per process; the least recently used go first. */
const MAXIMO_DE_RESPOSTAS = 500;
const MAXIMO_DE_BYTES = 64 * 1024 * 1024;
/** Parsed operation texts kept to decide cacheability without parsing again. */
const MAXIMO_DE_DOCUMENTOS = 200;

export interface RespostaGuardada {
  readonly versao: number;
  readonly tipo: string;
  readonly texto: string;
}

function operacaoEscolhida(doc: DocumentNode, nome: string | undefined): OperationDefinitionNode | null {
  const operacoes = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (nome === undefined) return operacoes.length === 1 ? (operacoes[0] ?? null) : null;
  return operacoes.find((o) => o.name?.value === nome) ?? null;
}

/** Whether an operation text (with its operation name) is a read whose answer may be kept. */
function decidir(consulta: string, nome: string | undefined): boolean {
  let doc: DocumentNode;
  try {
    doc = parse(consulta, { noLocation: true });
  } catch {
    return false;
  }
  const op = operacaoEscolhida(doc, nome);
  if (op?.operation !== 'query' || op.selectionSet.selections.length === 0) return false;
  return op.selectionSet.selections.every(
    (s) => s.kind === Kind.FIELD && CAMPOS_CACHEAVEIS.has(s.name.value) && (s.directives ?? []).length === 0,
  );
}

export class CacheDeRespostas {
  readonly #respostas = new Map<string, RespostaGuardada>();
  readonly #cacheaveis = new Map<string, boolean>();
  #bytes = 0;

  /** The key of a request's answer, or null when it must always run. */
  chave(pessoa: number, consulta: string, nome: string | undefined, variaveis: unknown, aceita: string): string | null {
    const id = `${nome ?? ''}\u0000${consulta}`;
    let pode = this.#cacheaveis.get(id);
    if (pode === undefined) {
      pode = decidir(consulta, nome);
      if (this.#cacheaveis.size >= MAXIMO_DE_DOCUMENTOS) this.#cacheaveis.clear();
      this.#cacheaveis.set(id, pode);
    }
    if (!pode) return null;
    return `${pessoa}\u0000${aceita}\u0000${id}\u0000${JSON.stringify(variaveis ?? null)}`;
  }

  /** The kept answer for the key, if it was built at this version of the data. */
  ler(chave: string, versao: number): RespostaGuardada | undefined {
    const r = this.#respostas.get(chave);
    if (r === undefined) return undefined;
    this.#respostas.delete(chave);
    if (r.versao !== versao) {
      this.#bytes -= r.texto.length;
      return undefined;
    }
    this.#respostas.set(chave, r); // most recently used last
    return r;
  }

  guardar(chave: string, resposta: RespostaGuardada): void {
    const antiga = this.#respostas.get(chave);
    if (antiga !== undefined) {
      this.#respostas.delete(chave);
      this.#bytes -= antiga.texto.length;
    }
    if (resposta.texto.length > MAXIMO_DE_BYTES / 4) return;
    this.#respostas.set(chave, resposta);
    this.#bytes += resposta.texto.length;
    for (const [k, r] of this.#respostas) {
      if (this.#respostas.size <= MAXIMO_DE_RESPOSTAS && this.#bytes <= MAXIMO_DE_BYTES) break;
      this.#respostas.delete(k);
      this.#bytes -= r.texto.length;
    }
  }
}
