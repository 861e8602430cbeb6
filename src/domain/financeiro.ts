import { randomUUID } from 'node:crypto';
import { access, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sql } from 'kysely';
import { emTransacao, type Banco, type Db } from '../db/banco.ts';
import { consultaPreparada } from '../db/preparadas.ts';
import { ehMaster, podeNoRegistro, type Ator } from './acesso.ts';
import { entregasDoCiclo } from './alocacao.ts';
import { auditar } from './auditoria.ts';
import { cicloDasJanelas } from './ciclos/janelas.ts';
import { MAXIMO_DA_COLUNA, formatarReais, valorDaQuantidade } from '../decimal.ts';
import { Conflito, Invalido, NaoEncontrado, Proibido } from './erros.ts';
import { carregarPedidosDoCiclo } from './pedidos/leituras.ts';
import { partesDoPedido, type Taxa, type ValorNoMercado } from './pedidos/taxa.ts';
import { lancarFaltas } from './retirada/dinheiro.ts';
import { lancarPorChave, type Lancamento } from './lancamentos.ts';

export interface Saldo {
  /** Credits minus debits; positive means the community owes the person. */
  readonly saldoCentavos: number;
  readonly movimentacoes: number;
}

/** A balance over movements: credits minus debits, in centavos (0 without any). */
export const SOMA_DO_SALDO = sql<number>`coalesce(sum(case when sentido = 'credito' then "valorCentavos" else -"valorCentavos" end), 0)`;

/** The sum and count of a person's movements (one aggregate row), for a statement of its own or inside another. */
export function somaDoSaldo(db: Db, usuarioid: number) {
  return db
    .selectFrom('movimentacao')
    .select([SOMA_DO_SALDO.as('centavos'), (eb) => eb.fn.countAll<number>().as('n')])
    .where('usuarioid', '=', usuarioid);
}

/** The balance from somaDoSaldo's row (the drivers give numbers or numeric strings); null without movements. */
export function saldoDaSoma(r: { readonly centavos: unknown; readonly n: unknown } | undefined): Saldo | null {
  // Stryker disable next-line OptionalChaining: an aggregate without GROUP BY always returns its one row
  const n = Number(r?.n ?? 0);
  // Stryker disable next-line OptionalChaining: see above
  return n === 0 ? null : { saldoCentavos: Number(r?.centavos ?? 0), movimentacoes: n };
}

const saldoPorPessoa = consultaPreparada(somaDoSaldo, 1);

/** A person's balance over the whole ledger, in one query; null when they have no movements. */
export async function saldoDe(db: Db, usuarioid: number): Promise<Saldo | null> {
  const [r] = await saldoPorPessoa(db, usuarioid);
  return saldoDaSoma(r);
}

// ---------------------------------------------------------------------------------------------
// Closing a cycle and recording payments.

export const TIPOS = {
  pedido: 'Pedido de consumidor',
  entrega: 'Entrega de fornecedor',
  taxa: 'Taxa administrativa',
} as const;

async function idDoTipo(db: Db, nome: string): Promise<number> {
  const t = await db.selectFrom('tipomovimentacao').select('id').where('nome', '=', nome).executeTakeFirst();
  // Stryker disable next-line ConditionalExpression: the migrations seed every type; this guards a broken database
  if (t === undefined) throw new Error(`tipo de movimentação "${nome}" não semeado`);
  return t.id;
}

/** An order nobody confirmed by the end of the order window: neither delivered nor charged. */
export interface PedidoNaoConfirmado {
  readonly pedidoId: number;
  readonly nome: string;
  readonly totalComTaxaCentavos: number;
}

export interface Fechamento {
  readonly cicloid: number;
  readonly fechadoEm: string;
  /** Movements written by this call; 0 when the cycle had already been closed. */
  readonly novas: number;
  readonly debitosCentavos: number;
  readonly creditosCentavos: number;
  /** Orders left out because nobody confirmed them (DOMAIN.md, "Order"), by name. */
  readonly naoConfirmados: readonly PedidoNaoConfirmado[];
}

/**
 * What each consumer owes and each supplier is owed for a cycle, from finalised orders only; and
 * the orders left out because nobody confirmed them (read in the same query, by name).
 */
export async function contasDoCiclo(
  db: Db,
  cicloid: number,
  taxa: Taxa,
): Promise<{
  consumidores: Map<number, { total: number; taxa: number }>;
  fornecedores: Map<number, number>;
  naoConfirmados: PedidoNaoConfirmado[];
}> {
  const pedidos = await db
    .selectFrom('pedido as p')
    .innerJoin('pedidoproduto as pp', 'pp.pedidoid', 'p.id')
    .innerJoin('usuario as u', 'u.id', 'p.usuarioid')
    .select([
      'p.id as pedidoId',
      'p.usuarioid',
      'p.finalizado',
      'u.nome',
      'pp.quantidadeMilesimos',
      'pp.valorCentavos',
      'pp.mercadoId',
      'pp.taxaCentesimos',
    ])
    .where('p.cicloid', '=', cicloid)
    .execute();
  const linhasPorPessoa = new Map<number, ValorNoMercado[]>();
  const deFora = new Map<number, { nome: string; linhas: ValorNoMercado[] }>();
  for (const l of pedidos) {
    const valor = {
      subtotalCentavos: valorDaQuantidade(l.valorCentavos, l.quantidadeMilesimos),
      mercadoId: l.mercadoId,
      taxaCentesimos: l.taxaCentesimos,
    };
    if (!l.finalizado) {
      const pedido = deFora.get(l.pedidoId) ?? { nome: l.nome, linhas: [] };
      pedido.linhas.push(valor);
      deFora.set(l.pedidoId, pedido);
      continue;
    }
    const doConsumidor = linhasPorPessoa.get(l.usuarioid) ?? [];
    doConsumidor.push(valor);
    linhasPorPessoa.set(l.usuarioid, doConsumidor);
  }
  const naoConfirmados = [...deFora]
    .map(([pedidoId, p]) => ({
      pedidoId,
      nome: p.nome,
      totalComTaxaCentavos: partesDoPedido(p.linhas, taxa).reduce((s, x) => s + x.subtotalCentavos + x.taxaCentavos, 0),
    }))
    .sort(porNomeEPedido);
  // The same fee as the order shows: each market's on what was bought in it (pedidos.ts).
  const consumidores = new Map<number, { total: number; taxa: number }>();
  for (const [usuarioid, linhas] of linhasPorPessoa) {
    const partes = partesDoPedido(linhas, taxa);
    consumidores.set(usuarioid, {
      total: partes.reduce((s, x) => s + x.subtotalCentavos, 0),
      taxa: partes.reduce((s, x) => s + x.taxaCentavos, 0),
    });
  }

  const fornecedores = new Map<number, number>();
  for (const e of await entregasDoCiclo(db, cicloid)) {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: a line nobody ordered would credit 0, and movements of 0 are not written
    if (e.pedidoMil > 0)
      fornecedores.set(
        e.linha.fornecedorId,
        (fornecedores.get(e.linha.fornecedorId) ?? 0) + valorDaQuantidade(e.linha.valorCentavos, e.pedidoMil),
      );
  }
  return { consumidores, fornecedores, naoConfirmados };
}

/** What the closings of a cycle already wrote, signed (credits positive), per person and kind. */
async function jaLancado(db: Db, cicloid: number): Promise<Map<string, number>> {
  const prefixo = `fechamento:${cicloid}:`;
  const linhas = await db
    .selectFrom('movimentacao')
    .select(['chave', 'sentido', 'valorCentavos'])
    .where('cicloid', '=', cicloid)
    .where('chave', 'like', `${prefixo}%`)
    .execute();
  const somas = new Map<string, number>();
  for (const l of linhas) {
    // fechamento:<ciclo>:<tipo>:<pessoa>, with :<instante> on a closing after a reopening.
    const [tipo, pessoa] = (l.chave ?? '').slice(prefixo.length).split(':');
    const chave = `${tipo}:${pessoa}`;
    somas.set(chave, (somas.get(chave) ?? 0) + (l.sentido === 'credito' ? l.valorCentavos : -l.valorCentavos));
  }
  return somas;
}

/**
 * Closes a cycle once its order window has ended: consumers are debited their order and fee,
 * suppliers credited their deliveries. Each movement has an idempotency key, so closing twice
 * (or twice at once) writes nothing new. A cycle reopened by a master and closed again gets only
 * the difference: what the first closing wrote stays, and a new movement (debit or credit)
 * corrects each amount that changed meanwhile.
 */
export async function fecharCiclo(
  banco: Banco,
  ator: Ator,
  cicloid: number,
  opcoes: { agora: Date; hoje: string; taxa: Taxa },
): Promise<Fechamento> {
  return emTransacao(banco, async (trx) => {
    const ciclo = await cicloDasJanelas(trx, cicloid, 'escrita');
    if (opcoes.hoje <= ciclo.dataPedidoFim) {
      const [a, m, d] = ciclo.dataPedidoFim.split('-');
      throw new Conflito('PEDIDOS_ABERTOS', `Só é possível fechar o ciclo depois do fim dos pedidos (${d}/${m}/${a})`);
    }
    const { consumidores, fornecedores, naoConfirmados } = await contasDoCiclo(trx, cicloid, opcoes.taxa);
    const [tPedido, tTaxa, tEntrega] = [
      await idDoTipo(trx, TIPOS.pedido),
      await idDoTipo(trx, TIPOS.taxa),
      await idDoTipo(trx, TIPOS.entrega),
    ];
    const iso = opcoes.agora.toISOString();
    // What each (kind, person) should add up to, signed: debits negative.
    const devidos = new Map<string, number>();
    for (const [usuarioid, c] of consumidores) {
      devidos.set(`pedido:${usuarioid}`, -c.total);
      devidos.set(`taxa:${usuarioid}`, -c.taxa);
    }
    for (const [usuarioid, centavos] of fornecedores) devidos.set(`entrega:${usuarioid}`, centavos);
    const lancados = await jaLancado(trx, cicloid);
    const tipos = {
      pedido: { id: tPedido, nome: 'Pedido' },
      taxa: { id: tTaxa, nome: 'Taxa administrativa' },
      entrega: { id: tEntrega, nome: 'Entregas' },
    } as const;
    // Stryker disable next-line ArrayDeclaration: a bogus entry has no amount and is filtered out with the zeros
    const lancamentos: Lancamento[] = [];
    for (const chave of new Set([...devidos.keys(), ...lancados.keys()])) {
      const [tipo = 'pedido', pessoa = '0'] = chave.split(':');
      const t = tipos[tipo as keyof typeof tipos];
      // Stryker disable next-line ConditionalExpression: only keys this function writes exist
      if (t === undefined) continue;
      const diferenca = (devidos.get(chave) ?? 0) - (lancados.get(chave) ?? 0);
      const correcao = lancados.has(chave);
      lancamentos.push({
        usuarioid: Number(pessoa),
        tipo: t.id,
        // Stryker disable next-line EqualityOperator: a difference of 0 is never written (filtered out below), so its direction is never seen
        sentido: diferenca >= 0 ? 'credito' : 'debito',
        centavos: Math.abs(diferenca),
        descricao: `${correcao ? 'Correção após reabertura: ' : ''}${correcao ? t.nome.toLowerCase() : t.nome} do ciclo ${ciclo.nome}`,
        chave: `fechamento:${cicloid}:${chave}${correcao ? `:${iso}` : ''}`,
      });
    }
    const validos = lancamentos.filter((l) => l.centavos > 0);
    // A movement's amount is a 32-bit column: a total past it is refused before anything is written.
    const grande = validos.find((l) => l.centavos > MAXIMO_DA_COLUNA);
    if (grande !== undefined) {
      const pessoa = await trx
        .selectFrom('usuario')
        .select('nome')
        .where('id', '=', grande.usuarioid)
        .executeTakeFirst();
      throw new Conflito(
        'VALOR_GRANDE_DEMAIS',
        // Stryker disable next-line OptionalChaining: every key's person is a row the orders, offers or movements reference by foreign key, so the lookup always finds them
        `${grande.descricao} de ${pessoa?.nome ?? `#${grande.usuarioid}`} daria ${formatarReais(grande.centavos)}, acima do máximo de um lançamento (${formatarReais(MAXIMO_DA_COLUNA)}): revise as ofertas, as composições e os pedidos do ciclo`,
        { usuarioid: grande.usuarioid, centavos: grande.centavos },
      );
    }
    let novas = await lancarPorChave(trx, validos, {
      cicloid,
      data: opcoes.hoje,
      criadoPor: ator.usuarioid,
      agora: opcoes.agora,
    });
    // The shorts recorded at pickup before this closing (docs/dominio.md, "A retirada"): each is
    // written once, by its key, so closing again after a reopening does not write it twice.
    novas += await lancarFaltas(trx, ator, cicloid, opcoes);
    const fechadoEm = ciclo.fechadoEm ?? iso;
    // The cycle's totals, whichever closing wrote them.
    const valores = [...devidos.values()];
    const resumo: Fechamento = {
      cicloid,
      fechadoEm,
      novas,
      // Stryker disable next-line EqualityOperator: a value of 0 let into either sum adds nothing to it
      debitosCentavos: valores.filter((v) => v < 0).reduce((t, v) => t - v, 0),
      // Stryker disable next-line EqualityOperator: see above
      creditosCentavos: valores.filter((v) => v > 0).reduce((t, v) => t + v, 0),
      naoConfirmados,
    };
    // Closing again finds every movement already written (nothing can change in a closed cycle):
    // only the first closing is a change to record.
    if (ciclo.fechadoEm === null) {
      await trx.updateTable('ciclo').set({ fechadoEm, updatedAt: iso }).where('id', '=', cicloid).execute();
      await auditar(trx, ator, opcoes.agora, {
        acao: 'fechar ciclo',
        entidade: 'ciclo',
        entidadeId: cicloid,
        depois: resumo,
      });
    }
    return resumo;
  });
}

/** What closing a cycle would do, for the coordinator to confirm: orders, totals, who has not confirmed. */
export interface PreviaDoFechamento {
  readonly ciclo: {
    readonly id: number;
    readonly nome: string;
    readonly dataPedidoFim: string;
    readonly fechadoEm: string | null;
  };
  /** Closing is possible today (the order window is over and the cycle is open). */
  readonly possivel: boolean;
  readonly confirmados: number;
  /** Orders nobody confirmed: they are neither delivered nor charged. */
  readonly naoConfirmados: ReadonlyArray<{
    readonly pedidoId: number;
    readonly nome: string;
    readonly totalComTaxaCentavos: number;
  }>;
  /** Debited to consumers: confirmed orders and their fees. */
  readonly debitosCentavos: number;
  /** Credited to suppliers for what was ordered of their lines. */
  readonly creditosCentavos: number;
  readonly fornecedores: number;
}

/** The orders left out of a closing, as the preview and the closing list them: by name in pt-BR, then by order. */
function porNomeEPedido(a: { nome: string; pedidoId: number }, b: { nome: string; pedidoId: number }): number {
  return a.nome.localeCompare(b.nome, 'pt-BR') || a.pedidoId - b.pedidoId;
}

export async function previaDoFechamento(
  db: Db,
  cicloid: number,
  opcoes: { hoje: string; taxa: Taxa },
): Promise<PreviaDoFechamento> {
  const ciclo = await cicloDasJanelas(db, cicloid);
  const [{ consumidores, fornecedores }, pedidos] = await Promise.all([
    contasDoCiclo(db, cicloid, opcoes.taxa),
    carregarPedidosDoCiclo(db, cicloid, null, opcoes.taxa),
  ]);
  return {
    ciclo: { id: ciclo.id, nome: ciclo.nome, dataPedidoFim: ciclo.dataPedidoFim, fechadoEm: ciclo.fechadoEm },
    possivel: ciclo.fechadoEm === null && opcoes.hoje > ciclo.dataPedidoFim,
    confirmados: pedidos.filter((p) => p.finalizado).length,
    naoConfirmados: pedidos
      .filter((p) => !p.finalizado)
      .map((p) => ({ pedidoId: p.pedidoId, nome: p.usuario.nome, totalComTaxaCentavos: p.totalComTaxaCentavos }))
      .sort(porNomeEPedido),
    debitosCentavos: [...consumidores.values()].reduce((t, c) => t + c.total + c.taxa, 0),
    creditosCentavos: [...fornecedores.values()].reduce((t, v) => t + v, 0),
    fornecedores: fornecedores.size,
  };
}

/**
 * Reopens a closed cycle: only a master, with a reason, recorded in the audit log. Its offers,
 * compositions, orders and dates can change again (admins act outside the windows); closing it
 * again writes only the differences (see fecharCiclo).
 */
export async function reabrirCiclo(
  banco: Banco,
  ator: Ator,
  cicloid: number,
  motivo: string,
  agora: Date,
): Promise<void> {
  if (!ehMaster(ator)) throw new Proibido('SEM_PERMISSAO', 'Só quem tem o perfil master reabre um ciclo fechado');
  if (motivo.trim() === '')
    throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
      motivo: 'Diga por que o ciclo precisa ser reaberto',
    });
  await emTransacao(banco, async (trx) => {
    const ciclo = await cicloDasJanelas(trx, cicloid, 'escrita');
    if (ciclo.fechadoEm === null) throw new Conflito('CICLO_ABERTO', 'Este ciclo não está fechado');
    const iso = agora.toISOString();
    await trx.updateTable('ciclo').set({ fechadoEm: null, updatedAt: iso }).where('id', '=', cicloid).execute();
    await auditar(trx, ator, agora, {
      acao: 'reabrir ciclo',
      entidade: 'ciclo',
      entidadeId: cicloid,
      antes: { fechadoEm: ciclo.fechadoEm },
      depois: { fechadoEm: null, motivo: motivo.trim() },
    });
  });
}

/** A receipt as received: the bytes are checked, never the name or the declared type. */
export interface ArquivoRecebido {
  readonly nome: string;
  readonly conteudo: Buffer;
}

const FORMATOS: ReadonlyArray<{ ext: string; tipo: string; assinatura: readonly number[] }> = [
  { ext: 'pdf', tipo: 'application/pdf', assinatura: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { ext: 'png', tipo: 'image/png', assinatura: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { ext: 'jpg', tipo: 'image/jpeg', assinatura: [0xff, 0xd8, 0xff] },
];

export const TAMANHO_MAXIMO_ARQUIVO = 10 * 1024 * 1024;

export function formatoDoArquivo(conteudo: Buffer): (typeof FORMATOS)[number] | undefined {
  return FORMATOS.find((f) => f.assinatura.every((b, i) => conteudo[i] === b));
}

/** Why a receipt cannot be kept (not PDF, PNG or JPEG, or over 10 MiB), or null when it can. */
export function regraDoComprovante(arquivo: ArquivoRecebido | null): string | null {
  if (arquivo === null) return null;
  if (formatoDoArquivo(arquivo.conteudo) === undefined) return 'O comprovante deve ser PDF, PNG ou JPEG';
  if (arquivo.conteudo.length > TAMANHO_MAXIMO_ARQUIVO) return 'O comprovante deve ter no máximo 10 MiB';
  return null;
}

/** A payment or an adjustment as the edge reads it (money in centavos; no date: today). */
export interface EntradaMovimentacao {
  readonly usuarioid: number;
  readonly tipoMovimentacaoId: number;
  readonly valorCentavos: number;
  readonly data: string | null;
  readonly descricao: string;
  readonly cicloid: number | null;
  /** Only for a type that goes both ways (an adjustment); null there means a credit. */
  readonly sentido: 'credito' | 'debito' | null;
}

export interface Movimentacao {
  readonly id: number;
  readonly usuarioid: number;
  readonly tipoMovimentacaoId: number;
  readonly sentido: 'credito' | 'debito';
  readonly valorCentavos: number;
  readonly data: string;
  readonly descricao: string;
  readonly arquivo: string | null;
  readonly cicloid: number | null;
}

/**
 * An admin records a payment or an adjustment, with an optional receipt (PDF, PNG or JPEG, at
 * most 10 MiB) kept outside anything served statically. Corrections are new movements.
 */
export async function registrarMovimentacao(
  banco: Banco,
  ator: Ator,
  entrada: EntradaMovimentacao,
  arquivo: ArquivoRecebido | null,
  opcoes: { agora: Date; hoje: string; dirArquivos: string },
): Promise<Movimentacao> {
  const { usuarioid, tipoMovimentacaoId, valorCentavos, descricao, cicloid } = entrada;
  const data = entrada.data ?? opcoes.hoje;
  const recusa = regraDoComprovante(arquivo);
  if (recusa !== null) throw new Invalido('VALIDACAO', 'Verifique os campos destacados', { arquivo: recusa });
  const formato = arquivo === null ? undefined : formatoDoArquivo(arquivo.conteudo);
  const tipo = await banco
    .selectFrom('tipomovimentacao')
    .select(['id', 'sentido'])
    .where('id', '=', tipoMovimentacaoId)
    .executeTakeFirst();
  const erros: Record<string, string> = {};
  if (tipo === undefined) erros.tipoMovimentacaoId = 'Tipo de movimentação inexistente';
  else if (tipo.sentido === 'ambos' && entrada.sentido === null)
    erros.sentido = 'Escolha crédito ou débito para um ajuste';
  if ((await banco.selectFrom('usuario').select('id').where('id', '=', usuarioid).executeTakeFirst()) === undefined)
    erros.usuarioid = 'Pessoa inexistente';
  if (
    cicloid !== null &&
    (await banco.selectFrom('ciclo').select('id').where('id', '=', cicloid).executeTakeFirst()) === undefined
  )
    erros.cicloid = 'Ciclo inexistente';
  // Stryker disable next-line ConditionalExpression: an unknown type is already an error above; the second test only narrows the type
  if (Object.keys(erros).length > 0 || tipo === undefined)
    throw new Invalido('VALIDACAO', 'Verifique os campos destacados', erros);
  const sentido = tipo.sentido === 'ambos' ? (entrada.sentido ?? 'credito') : tipo.sentido;
  // NOTE: the file is written before the row, under a random name: if the transaction fails the
  // file is removed, so no row ever points to a missing file.
  let guardado: string | null = null;
  // Stryker disable next-line ConditionalExpression,LogicalOperator: a file without a known format was refused above, so the two tests agree
  if (arquivo !== null && formato !== undefined) {
    // Receipts are people's payment details: readable by the service's account only.
    await mkdir(opcoes.dirArquivos, { recursive: true, mode: 0o700 });
    guardado = `${randomUUID()}.${formato.ext}`;
    await writeFile(join(opcoes.dirArquivos, guardado), arquivo.conteudo, { flag: 'wx', mode: 0o600 });
  }
  try {
    return await emTransacao(banco, async (trx) => {
      const iso = opcoes.agora.toISOString();
      const linha = await trx
        .insertInto('movimentacao')
        .values({
          usuarioid,
          tipoMovimentacaoId,
          sentido,
          valorCentavos,
          data,
          descricao,
          arquivo: guardado,
          cicloid,
          criadoPor: ator.usuarioid,
          createdAt: iso,
          updatedAt: iso,
        })
        .returningAll()
        .executeTakeFirstOrThrow();
      const mov: Movimentacao = {
        id: linha.id,
        usuarioid,
        tipoMovimentacaoId,
        sentido,
        valorCentavos,
        data,
        descricao,
        arquivo: guardado,
        cicloid,
      };
      await auditar(trx, ator, opcoes.agora, {
        acao: 'registrar',
        entidade: 'movimentacao',
        entidadeId: linha.id,
        depois: mov,
      });
      return mov;
    });
  } catch (e) {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: the file was just written, so removing it needs no force
    if (guardado !== null) await rm(join(opcoes.dirArquivos, guardado), { force: true });
    throw e;
  }
}

/** The receipt of a movement, for admins and for the person the movement belongs to. */
export async function arquivoDaMovimentacao(
  db: Db,
  ator: Ator,
  id: number,
  dirArquivos: string,
): Promise<{ caminho: string; tipo: string; nome: string }> {
  const m = await db
    .selectFrom('movimentacao')
    .select(['usuarioid', 'arquivo'])
    .where('id', '=', id)
    .executeTakeFirst();
  // A receipt goes to those who act on the person's record: the person and the coordination.
  if (m === undefined || m.arquivo === null || !podeNoRegistro(ator, 'agirPor', { usuarioid: m.usuarioid })) {
    throw new NaoEncontrado('ARQUIVO_NAO_ENCONTRADO', 'Comprovante não encontrado');
  }
  const ext = m.arquivo.split('.').pop() ?? '';
  const formato = FORMATOS.find((f) => f.ext === ext);
  // Only names this module generated are ever opened.
  // Stryker disable next-line ConditionalExpression: the pattern admits only the three known extensions, so the format is always known past it
  if (formato === undefined || !/^[0-9a-f-]{36}\.(pdf|png|jpg)$/.test(m.arquivo))
    throw new NaoEncontrado('ARQUIVO_NAO_ENCONTRADO', 'Comprovante não encontrado');
  const caminho = join(dirArquivos, m.arquivo);
  await access(caminho).catch(() => {
    throw new NaoEncontrado('ARQUIVO_NAO_ENCONTRADO', 'O arquivo do comprovante não está mais disponível');
  });
  return { caminho, tipo: formato.tipo, nome: `comprovante-${id}.${ext}` };
}

export interface SaldoDePessoa {
  readonly usuarioid: number;
  readonly nome: string;
  readonly saldoCentavos: number;
}

/** Everyone's balance, for admins: one query. */
export async function saldos(db: Db): Promise<SaldoDePessoa[]> {
  const linhas = await db
    .selectFrom('movimentacao as m')
    .innerJoin('usuario as u', 'u.id', 'm.usuarioid')
    .select(['u.id as usuarioid', 'u.nome'])
    .select(
      sql<number>`sum(case when m.sentido = 'credito' then m."valorCentavos" else -m."valorCentavos" end)`.as(
        'centavos',
      ),
    )
    .groupBy(['u.id', 'u.nome'])
    .orderBy('u.nome')
    .execute();
  return linhas.map((l) => ({ usuarioid: l.usuarioid, nome: l.nome, saldoCentavos: Number(l.centavos) }));
}

export async function tiposDeMovimentacao(db: Db): Promise<Array<{ id: number; nome: string; sentido: string }>> {
  return db.selectFrom('tipomovimentacao').select(['id', 'nome', 'sentido']).orderBy('id').execute();
}
