/**
 * Bank statements settle the balances. The edge reads an OFX or CSV file into typed lines
 * (`LinhaDoExtrato`); here each bank transaction is kept once, whatever the format and the
 * description it came with (`planejarImportacao`: the identity rule), a person is proposed for it
 * (by the txid in its text, else by the exact amount due and the payer's name), and the
 * coordinator confirms, changes or rejects each proposal. A confirmed line becomes a "Pagamento
 * recebido" movement whose idempotency key is the line's id, so it settles once.
 */
import { sql } from 'kysely';
import { ehPostgres, emTransacao, type Banco, type Db } from '../db/banco.ts';
import { violouUnicidade } from '../db/erros.ts';
import type { Ator } from './acesso.ts';
import { auditar } from './auditoria.ts';
import { Conflito, Invalido, NaoEncontrado, recusarInvalidos } from './erros.ts';
import { devidosPorPessoa, txidNoTexto } from './pix.ts';
import type { Taxa } from './pedidos/taxa.ts';
import { chaveDeNome, conferirTexto } from './textos.ts';
import {
  chavesProcuradas,
  planejarImportacao,
  type LinhaDoExtrato,
  type LinhaGuardada,
} from './transacoes-do-banco.ts';

export interface ResumoDaImportacao {
  readonly creditos: number;
  readonly novas: number;
  /** Credits already imported before (the same bank transaction, in any format): nothing new was written for them. */
  readonly repetidas: number;
  /** Debits and zero lines: a statement's payments out are not matched. */
  readonly ignoradas: number;
  readonly porTxid: number;
  readonly porNome: number;
  readonly ambiguas: number;
}

/** Case-, accent- and punctuation-insensitive words, for matching a payer's name. */
export function palavrasDoNome(texto: string): string {
  return ` ${chaveDeNome(texto)
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;
}

interface Pessoa {
  readonly id: number;
  readonly nomes: readonly string[];
}

/** Whether a person's `nome` or `nomeoficial` appears, as whole words, in the line's payer text. */
function nomeConfere(pessoa: Pessoa, textoDoPagador: string): boolean {
  return pessoa.nomes.some((n) => n.trim() !== '' && textoDoPagador.includes(n));
}

interface Proposta {
  readonly proposta: 'txid' | 'nome' | 'ambigua' | null;
  readonly usuarioid: number | null;
  readonly cicloid: number | null;
  readonly candidatos: readonly number[];
  readonly txid: string | null;
}

function propor(
  l: LinhaDoExtrato,
  pessoas: ReadonlyMap<number, Pessoa>,
  devidos: ReadonlyMap<number, number>,
): Proposta {
  const achado = txidNoTexto(`${l.descricao} ${l.pagador ?? ''}`);
  if (achado !== null && pessoas.has(achado.usuarioid)) {
    return {
      proposta: 'txid',
      usuarioid: achado.usuarioid,
      cicloid: achado.cicloid === 0 ? null : achado.cicloid,
      candidatos: [],
      txid: achado.txid,
    };
  }
  const candidatos = [...devidos].filter(([, devido]) => devido === l.valorCentavos).map(([id]) => id);
  const texto = palavrasDoNome(`${l.pagador ?? ''} ${l.descricao}`);
  const porNome = candidatos.filter((id) => {
    const p = pessoas.get(id);
    return p !== undefined && nomeConfere(p, texto);
  });
  const txid = achado?.txid ?? null;
  if (porNome.length === 1) return { proposta: 'nome', usuarioid: porNome[0] ?? null, cicloid: null, candidatos, txid };
  // Several people owe this amount and none (or more than one) is named: the coordinator decides.
  if (candidatos.length > 0)
    return {
      proposta: 'ambigua',
      usuarioid: null,
      cicloid: null,
      candidatos: porNome.length > 1 ? porNome : candidatos,
      txid,
    };
  return { proposta: null, usuarioid: null, cicloid: null, candidatos: [], txid };
}

async function pessoasParaConferir(db: Db): Promise<Map<number, Pessoa>> {
  const linhas = await db.selectFrom('usuario').select(['id', 'nome', 'nomeoficial']).execute();
  return new Map(
    linhas.map((u) => [
      u.id,
      { id: u.id, nomes: [u.nome, u.nomeoficial ?? ''].map(palavrasDoNome).filter((n) => n.trim() !== '') },
    ]),
  );
}

/** Rows per statement when reading or writing many keys: far below both databases' parameter limits. */
const LOTE = 500;

function emLotes<T>(itens: readonly T[], tamanho = LOTE): T[][] {
  const lotes: T[][] = [];
  for (let i = 0; i < itens.length; i += tamanho) lotes.push(itens.slice(i, i + tamanho));
  return lotes;
}

/** The stored lines an import must know: those of the credits' days and those holding one of their keys. */
async function linhasGuardadas(trx: Db, creditos: readonly LinhaDoExtrato[]): Promise<LinhaGuardada[]> {
  const base = () =>
    trx
      .selectFrom('extratolinha as e')
      .innerJoin('extratochave as k', 'k.extratolinhaid', 'e.id')
      .select(['e.id', 'e.data', 'e.valorCentavos', 'k.chave']);
  const dias = [...new Set(creditos.map((l) => l.data))];
  const chaves = chavesProcuradas(creditos);
  const lidas = [
    ...(await Promise.all(emLotes(dias).map((lote) => base().where('e.data', 'in', lote).execute()))).flat(),
    ...(
      await Promise.all(
        emLotes(chaves).map((lote) =>
          base()
            .where('e.id', 'in', trx.selectFrom('extratochave').select('extratolinhaid').where('chave', 'in', lote))
            .execute(),
        ),
      )
    ).flat(),
  ];
  const porId = new Map<number, { id: number; data: string; valorCentavos: number; chaves: Set<string> }>();
  for (const r of lidas) {
    const l = porId.get(r.id) ?? { id: r.id, data: r.data, valorCentavos: r.valorCentavos, chaves: new Set<string>() };
    l.chaves.add(r.chave);
    porId.set(r.id, l);
  }
  return [...porId.values()].sort((a, b) => a.id - b.id).map((l) => ({ ...l, chaves: [...l.chaves] }));
}

/**
 * Imports a statement's credits in one transaction: each new bank transaction is kept with a
 * proposed person; one imported before, from any statement in any format, is left as it was
 * (`planejarImportacao` says which is which). A file the edge could not read never gets here, so
 * a malformed statement writes nothing. Two imports at once: every key is unique, so the later
 * one fails on the first key the other wrote, and runs once more over what it committed.
 */
/** The key of the transaction-level advisory lock that makes statement imports take turns on PostgreSQL. */
const TRAVA_DAS_IMPORTACOES = 0x43657374_0002;

export async function importarExtrato(
  banco: Banco,
  ator: Ator,
  extrato: { readonly arquivo: string; readonly linhas: readonly LinhaDoExtrato[] },
  opcoes: { readonly agora: Date; readonly taxa: Taxa },
): Promise<ResumoDaImportacao> {
  const creditos = extrato.linhas.filter((l) => l.valorCentavos > 0);
  if (creditos.length === 0)
    throw new Invalido('EXTRATO_SEM_CREDITOS', 'O extrato não tem nenhum crédito (entrada de dinheiro) para conciliar');
  for (let tentativa = 1; ; tentativa++) {
    try {
      return await importarUmaVez(banco, ator, extrato.arquivo, extrato.linhas.length, creditos, opcoes);
    } catch (e) {
      if (!violouUnicidade(e)) throw e;
      if (tentativa >= 2)
        throw new Conflito(
          'EXTRATO_CONCORRENTE',
          'Outro extrato com as mesmas transações foi importado ao mesmo tempo: importe este de novo (o que já entrou não se repete)',
        );
    }
  }
}

async function importarUmaVez(
  banco: Banco,
  ator: Ator,
  arquivo: string,
  totalDeLinhas: number,
  creditos: readonly LinhaDoExtrato[],
  opcoes: { readonly agora: Date; readonly taxa: Taxa },
): Promise<ResumoDaImportacao> {
  return emTransacao(banco, async (trx) => {
    // Imports are rare and short: on PostgreSQL they take turns (SQLite already serialises
    // writers), so the second reads the keys the first committed instead of colliding with them.
    if (ehPostgres(trx)) await sql`select pg_advisory_xact_lock(${sql.lit(TRAVA_DAS_IMPORTACOES)})`.execute(trx);
    const iso = opcoes.agora.toISOString();
    const [pessoas, devidos, guardadas] = await Promise.all([
      pessoasParaConferir(trx),
      devidosPorPessoa(trx, opcoes.taxa),
      linhasGuardadas(trx, creditos),
    ]);
    const passos = planejarImportacao(creditos, guardadas);
    const chaves: Array<{ chave: string; extratolinhaid: number; createdAt: string; updatedAt: string }> = [];
    let novas = 0;
    let porTxid = 0;
    let porNome = 0;
    let ambiguas = 0;
    for (const [i, passo] of passos.entries()) {
      const l = creditos[i];
      // Stryker disable next-line ConditionalExpression: one step per credit
      if (l === undefined) continue;
      if (passo.tipo === 'repetida') {
        for (const chave of passo.chavesNovas)
          chaves.push({ chave, extratolinhaid: passo.linhaId, createdAt: iso, updatedAt: iso });
        continue;
      }
      const p = propor(l, pessoas, devidos);
      const r = await trx
        .insertInto('extratolinha')
        .values({
          idBanco: passo.idBanco,
          data: l.data,
          valorCentavos: l.valorCentavos,
          descricao: l.descricao,
          pagador: l.pagador,
          txid: p.txid,
          arquivo,
          proposta: p.proposta,
          usuarioid: p.usuarioid,
          candidatos: p.candidatos.length === 0 ? null : JSON.stringify(p.candidatos),
          cicloid: p.cicloid,
          importadoPor: ator.usuarioid,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      for (const chave of passo.chaves) chaves.push({ chave, extratolinhaid: r.id, createdAt: iso, updatedAt: iso });
      novas++;
      if (p.proposta === 'txid') porTxid++;
      else if (p.proposta === 'nome') porNome++;
      else if (p.proposta === 'ambigua') ambiguas++;
    }
    // NOTE: plain inserts, no ON CONFLICT: a key another import wrote meanwhile must fail this
    // transaction (importarExtrato runs it again), never be skipped into a second credit.
    for (const lote of emLotes(chaves, 200)) await trx.insertInto('extratochave').values(lote).execute();
    const resumo: ResumoDaImportacao = {
      creditos: creditos.length,
      novas,
      repetidas: creditos.length - novas,
      ignoradas: totalDeLinhas - creditos.length,
      porTxid,
      porNome,
      ambiguas,
    };
    await auditar(trx, ator, opcoes.agora, {
      acao: 'importar extrato',
      entidade: 'extratolinha',
      entidadeId: null,
      depois: { arquivo, ...resumo },
    });
    return resumo;
  });
}

/** A statement line on the review page, with the names of its proposed person and candidates. */
export interface LinhaParaRevisar {
  readonly id: number;
  readonly idBanco: string;
  readonly data: string;
  readonly valorCentavos: number;
  readonly descricao: string;
  readonly pagador: string | null;
  readonly txid: string | null;
  readonly arquivo: string;
  readonly estado: 'pendente' | 'conciliada' | 'descartada';
  readonly proposta: 'txid' | 'nome' | 'ambigua' | null;
  readonly usuario: { readonly id: number; readonly nome: string } | null;
  readonly candidatos: ReadonlyArray<{ readonly id: number; readonly nome: string }>;
  readonly movimentacaoid: number | null;
  readonly motivo: string | null;
}

export interface RevisaoDoExtrato {
  /** Credits waiting for the coordinator: proposed, ambiguous or unmatched. */
  readonly pendentes: readonly LinhaParaRevisar[];
  /** The latest settled or dismissed lines, newest first. */
  readonly resolvidas: readonly LinhaParaRevisar[];
  /** Everyone who may be credited, for changing a proposal by hand. */
  readonly pessoas: ReadonlyArray<{ readonly id: number; readonly nome: string }>;
}

/** The review page: every pending credit and the 50 latest resolved ones. */
export async function revisaoDoExtrato(db: Db): Promise<RevisaoDoExtrato> {
  const colunas = [
    'e.id',
    'e.idBanco',
    'e.data',
    'e.valorCentavos',
    'e.descricao',
    'e.pagador',
    'e.txid',
    'e.arquivo',
    'e.estado',
    'e.proposta',
    'e.usuarioid',
    'u.nome as usuarioNome',
    'e.candidatos',
    'e.movimentacaoid',
    'e.motivo',
  ] as const;
  const base = () => db.selectFrom('extratolinha as e').leftJoin('usuario as u', 'u.id', 'e.usuarioid').select(colunas);
  const [pendentes, resolvidas, pessoas] = await Promise.all([
    base().where('e.estado', '=', 'pendente').orderBy('e.data').orderBy('e.id').execute(),
    base()
      .where('e.estado', '!=', 'pendente')
      .orderBy('e.updatedAt', 'desc')
      .orderBy('e.id', 'desc')
      .limit(50)
      .execute(),
    db
      .selectFrom('usuario')
      .select(['id', 'nome'])
      .where('ativo', '=', true)
      .orderBy('nomeChave')
      .orderBy('id')
      .execute(),
  ]);
  const nomes = new Map(pessoas.map((p) => [p.id, p.nome]));
  const montar = (l: (typeof pendentes)[number]): LinhaParaRevisar => ({
    id: l.id,
    idBanco: l.idBanco,
    data: l.data,
    valorCentavos: l.valorCentavos,
    descricao: l.descricao,
    pagador: l.pagador,
    txid: l.txid,
    arquivo: l.arquivo,
    estado: l.estado,
    proposta: l.proposta,
    usuario: l.usuarioid === null ? null : { id: l.usuarioid, nome: l.usuarioNome ?? '' },
    candidatos: (JSON.parse(l.candidatos ?? '[]') as number[]).map((id) => ({ id, nome: nomes.get(id) ?? `#${id}` })),
    movimentacaoid: l.movimentacaoid,
    motivo: l.motivo,
  });
  return { pendentes: pendentes.map(montar), resolvidas: resolvidas.map(montar), pessoas };
}

/** The coordinator's decision on one pending line: the person to credit, or null to leave it unmatched. */
export interface Decisao {
  readonly linhaId: number;
  readonly usuarioid: number | null;
}

export interface ResultadoDaConciliacao {
  readonly conciliadas: number;
  /** Proposals rejected: the lines stay pending, with nobody proposed. */
  readonly rejeitadas: number;
}

/**
 * Confirms the review in one transaction: each line given a person becomes a "Pagamento
 * recebido" movement (its receipt reference is the statement line; its key, the bank's
 * transaction id, so it can never be recorded twice); each line given nobody stays pending.
 * A line already settled or dismissed (by another coordinator meanwhile) refuses the whole review.
 */
export async function conciliar(
  banco: Banco,
  ator: Ator,
  decisoes: readonly Decisao[],
  agora: Date,
): Promise<ResultadoDaConciliacao> {
  if (decisoes.length === 0)
    throw new Invalido('VALIDACAO', 'Nenhuma linha do extrato foi enviada para conciliar', {
      linhas: 'Escolha ao menos uma linha',
    });
  const ids = decisoes.map((d) => d.linhaId);
  if (new Set(ids).size !== ids.length)
    throw new Invalido('VALIDACAO', 'Uma linha do extrato veio repetida', { linhas: 'Cada linha uma vez só' });
  return emTransacao(banco, async (trx) => {
    const iso = agora.toISOString();
    // NOTE: locked on PostgreSQL, so two coordinators confirming at once wait for each other; SQLite serialises writers.
    const linhas = await trx
      .selectFrom('extratolinha')
      .selectAll()
      .where('id', 'in', ids)
      .orderBy('id')
      .$if(ehPostgres(trx), (q) => q.forUpdate())
      .execute();
    const porId = new Map(linhas.map((l) => [l.id, l]));
    const pessoas = [...new Set(decisoes.flatMap((d) => (d.usuarioid === null ? [] : [d.usuarioid])))];
    const existentes = new Set(
      pessoas.length === 0
        ? []
        : (await trx.selectFrom('usuario').select('id').where('id', 'in', pessoas).execute()).map((u) => u.id),
    );
    const erros: Record<string, string> = {};
    decisoes.forEach((d, i) => {
      if (!porId.has(d.linhaId)) erros[`linhas.${i}.id`] = 'Linha do extrato inexistente';
      else if (d.usuarioid !== null && !existentes.has(d.usuarioid))
        erros[`linhas.${i}.usuarioid`] = 'Pessoa inexistente';
    });
    recusarInvalidos(erros);
    const resolvida = linhas.find((l) => l.estado !== 'pendente');
    if (resolvida !== undefined)
      throw new Conflito(
        'LINHA_RESOLVIDA',
        `A linha de ${resolvida.data} (${resolvida.descricao}) já foi ${resolvida.estado === 'conciliada' ? 'conciliada' : 'descartada'}: recarregue a página`,
      );
    const tipo = await trx
      .selectFrom('tipomovimentacao')
      .select('id')
      .where('nome', '=', 'Pagamento recebido')
      .executeTakeFirstOrThrow();
    let conciliadas = 0;
    let rejeitadas = 0;
    for (const d of decisoes) {
      const l = porId.get(d.linhaId);
      // Stryker disable next-line ConditionalExpression: every id was checked above
      if (l === undefined) continue;
      if (d.usuarioid === null) {
        await trx
          .updateTable('extratolinha')
          .set({ proposta: null, usuarioid: null, updatedAt: iso })
          .where('id', '=', l.id)
          .execute();
        rejeitadas++;
        continue;
      }
      // The txid's cycle only when the credit goes to the person the txid names.
      const achado = l.txid === null ? null : txidNoTexto(l.txid);
      const cicloid =
        achado !== null && achado.usuarioid === d.usuarioid && achado.cicloid !== 0 ? achado.cicloid : null;
      const cicloExiste =
        cicloid === null
          ? null
          : ((await trx.selectFrom('ciclo').select('id').where('id', '=', cicloid).executeTakeFirst())?.id ?? null);
      const descricao = `Pix recebido (extrato ${l.arquivo}, ${l.data}): ${l.descricao}`.slice(0, 500);
      let mov: { id: number } | undefined;
      try {
        mov = await trx
          .insertInto('movimentacao')
          .values({
            usuarioid: d.usuarioid,
            tipoMovimentacaoId: tipo.id,
            sentido: 'credito',
            valorCentavos: l.valorCentavos,
            data: l.data,
            descricao,
            cicloid: cicloExiste,
            chave: `extrato:${l.idBanco}`,
            criadoPor: ator.usuarioid,
            createdAt: iso,
            updatedAt: iso,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
      } catch (e) {
        if (violouUnicidade(e))
          throw new Conflito('PAGAMENTO_JA_REGISTRADO', `O pagamento da transação ${l.idBanco} já foi registrado`);
        throw e;
      }
      await trx
        .updateTable('extratolinha')
        .set({ estado: 'conciliada', usuarioid: d.usuarioid, movimentacaoid: mov.id, updatedAt: iso })
        .where('id', '=', l.id)
        .execute();
      await auditar(trx, ator, agora, {
        acao: 'conciliar',
        entidade: 'extratolinha',
        entidadeId: l.id,
        antes: { proposta: l.proposta, usuarioid: l.usuarioid },
        depois: { usuarioid: d.usuarioid, movimentacaoid: mov.id, valorCentavos: l.valorCentavos },
      });
      conciliadas++;
    }
    return { conciliadas, rejeitadas };
  });
}

/** Dismisses a pending credit that is no payment of a charge (a transfer, a refund), with the reason. */
export async function descartarLinha(
  banco: Banco,
  ator: Ator,
  linhaId: number,
  motivoBruto: string,
  agora: Date,
): Promise<void> {
  const { texto: motivo, problema } = conferirTexto(motivoBruto, { max: 500, min: 1 });
  if (problema !== null || motivo === '')
    throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
      motivo: problema ?? 'Diga por que este crédito não é um pagamento',
    });
  await emTransacao(banco, async (trx) => {
    const l = await trx
      .selectFrom('extratolinha')
      .select(['id', 'estado'])
      .where('id', '=', linhaId)
      .$if(ehPostgres(trx), (q) => q.forUpdate())
      .executeTakeFirst();
    if (l === undefined) throw new NaoEncontrado('LINHA_NAO_ENCONTRADA', 'Linha do extrato não encontrada');
    if (l.estado !== 'pendente') throw new Conflito('LINHA_RESOLVIDA', `Esta linha já foi ${l.estado}`);
    const iso = agora.toISOString();
    await trx
      .updateTable('extratolinha')
      .set({ estado: 'descartada', motivo, proposta: null, usuarioid: null, updatedAt: iso })
      .where('id', '=', linhaId)
      .execute();
    await auditar(trx, ator, agora, {
      acao: 'descartar',
      entidade: 'extratolinha',
      entidadeId: linhaId,
      depois: { motivo },
    });
  });
}

// ---------------------------------------------------------------------------------------------
// CSV column mappings, saved by name.

export const SEPARADORES = [';', ',', 'tab'] as const;
export type Separador = (typeof SEPARADORES)[number];

export interface MapeamentoCsv {
  readonly nome: string;
  readonly separador: Separador;
  readonly colunaData: string;
  readonly colunaValor: string;
  readonly colunaDescricao: string;
  readonly colunaPagador: string | null;
  /** The column with the bank's document number, which tells apart equal credits of one day. */
  readonly colunaDocumento: string | null;
}

export async function mapeamentosSalvos(db: Db): Promise<Array<MapeamentoCsv & { id: number }>> {
  return db
    .selectFrom('mapeamentoextrato')
    .select([
      'id',
      'nome',
      'separador',
      'colunaData',
      'colunaValor',
      'colunaDescricao',
      'colunaPagador',
      'colunaDocumento',
    ])
    .orderBy('nomeChave')
    .execute();
}

export async function mapeamentoSalvo(db: Db, id: number): Promise<MapeamentoCsv> {
  const m = await db
    .selectFrom('mapeamentoextrato')
    .select(['nome', 'separador', 'colunaData', 'colunaValor', 'colunaDescricao', 'colunaPagador', 'colunaDocumento'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (m === undefined)
    throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
      mapeamentoId: 'Mapeamento de colunas inexistente',
    });
  return m;
}

/** Saves a mapping under its name; a mapping with the same name (any case) is replaced. */
export async function salvarMapeamento(banco: Banco, ator: Ator, m: MapeamentoCsv, agora: Date): Promise<void> {
  const iso = agora.toISOString();
  const nomeChave = chaveDeNome(m.nome);
  await emTransacao(banco, async (trx) => {
    await trx
      .insertInto('mapeamentoextrato')
      .values({ ...m, nomeChave, createdAt: iso, updatedAt: iso })
      .onConflict((oc) =>
        oc.column('nomeChave').doUpdateSet({
          nome: m.nome,
          separador: m.separador,
          colunaData: m.colunaData,
          colunaValor: m.colunaValor,
          colunaDescricao: m.colunaDescricao,
          colunaPagador: m.colunaPagador,
          colunaDocumento: m.colunaDocumento,
          updatedAt: iso,
        }),
      )
      .execute();
    await auditar(trx, ator, agora, {
      acao: 'salvar mapeamento',
      entidade: 'mapeamentoextrato',
      entidadeId: null,
      depois: m,
    });
  });
}

/** How many credits wait for the coordinator: the dashboard's reminder. */
export async function creditosPendentes(db: Db): Promise<number> {
  const r = await db
    .selectFrom('extratolinha')
    .select(sql<number>`count(*)`.as('n'))
    .where('estado', '=', 'pendente')
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}
