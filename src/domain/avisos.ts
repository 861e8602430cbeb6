/**
 * Messages to people (DOMAIN.md, Messages): what causes each kind, who receives it, and who may
 * turn it off. A message is caused by a committed change (the change's transaction emits an
 * event) or by a scheduled reminder (`avisosDevidos`); either way it is written once per key.
 * Rendering and delivery are the edge's (src/mensagens).
 */
import { CAMPOS_DATA } from './ciclos/calendario.ts';
import { emTransacao, type Banco, type Db } from '../db/banco.ts';
import { ehConsumidor, ehFornecedor, ehGestor, type Ator } from './acesso.ts';
import { auditar } from './auditoria.ts';
import { Conflito, Invalido, NaoEncontrado, Proibido } from './erros.ts';
import { entregasDoCiclo } from './alocacao.ts';
import type { EventoDoPedido } from './pedidos/modelo.ts';
import { lerPerfis } from './perfis.ts';
import { somarDias } from './tempo.ts';
import { assinantesComCestaNoCiclo, assinantesServidosNoCiclo } from './assinaturas/leitura.ts';
import { faltasDoCiclo } from './assinaturas/painel.ts';

export const TIPOS_DE_AVISO = {
  oferta_aberta: { nome: 'Abertura do período de ofertas', opcional: true },
  oferta_lembrete: { nome: 'Lembrete: as ofertas fecham hoje e a sua não está finalizada', opcional: true },
  pedido_aberto: { nome: 'Abertura do período de pedidos', opcional: true },
  pedido_lembrete: { nome: 'Lembrete: os pedidos fecham hoje e o seu falta ou não está confirmado', opcional: true },
  entregas: { nome: 'O que entregar, quando fecham os pedidos', opcional: true },
  retirada: { nome: 'Lembrete da retirada, na véspera', opcional: true },
  recibo: { nome: 'Recibo do pedido confirmado', opcional: false },
  pedido_alterado: { nome: 'Pedido alterado: falta confirmar de novo', opcional: false },
  coordenacao: { nome: 'Mensagens da coordenação', opcional: false },
  assinatura_ciclo: { nome: 'Assinatura: sua cesta vem no ciclo (para pular, se quiser)', opcional: true },
  assinatura_falta: { nome: 'Assinatura: a cesta faltou no ciclo (a quem assina e à coordenação)', opcional: false },
  assinatura_recibo: { nome: 'Assinatura: recibo do ciclo, quando fecham os pedidos', opcional: false },
} as const satisfies Record<string, { nome: string; opcional: boolean }>;

export type TipoDeAviso = keyof typeof TIPOS_DE_AVISO;
export const TIPOS: readonly TipoDeAviso[] = Object.keys(TIPOS_DE_AVISO) as TipoDeAviso[];
export const TIPOS_OPCIONAIS: readonly TipoDeAviso[] = TIPOS.filter((t) => TIPOS_DE_AVISO[t].opcional);

export function ehTipoDeAviso(t: string): t is TipoDeAviso {
  return Object.hasOwn(TIPOS_DE_AVISO, t);
}

/** A change that tells someone something, emitted inside the change's own transaction. */
export type Evento =
  | EventoDoPedido
  | {
      readonly tipo: 'coordenacao';
      readonly cicloid: number;
      readonly usuarioids: readonly number[];
      readonly assunto: string;
      readonly texto: string;
      readonly remetente: string;
      readonly momento: string;
    };

/** Where the domain's events go (src/mensagens writes them to the outbox in the same transaction). */
export interface Avisos {
  emitir(trx: Db, evento: Evento): Promise<void>;
}

/** The optional kinds a person turned off (a JSON list; anything unreadable counts as none). */
export function lerAvisosDesligados(texto: string | null): TipoDeAviso[] {
  if (texto === null) return [];
  try {
    const v: unknown = JSON.parse(texto);
    return Array.isArray(v) ? TIPOS_OPCIONAIS.filter((t) => v.includes(t)) : [];
  } catch {
    return [];
  }
}

/** A reminder that is due today and was not written yet. */
export interface AvisoDevido {
  readonly tipo: Exclude<TipoDeAviso, 'recibo' | 'pedido_alterado' | 'coordenacao'>;
  readonly cicloid: number;
  readonly usuarioid: number;
}

/** The key that makes a reminder unique: one per (kind, cycle, person), whoever writes it. */
export function chaveDoAviso(a: AvisoDevido): string {
  return `${a.tipo}:${a.cicloid}:${a.usuarioid}`;
}

interface Pessoa {
  readonly id: number;
  readonly fornecedor: boolean;
  readonly consumidor: boolean;
  /** Admins and masters: the coordination, told of a cycle's subscription shortages. */
  readonly coordena: boolean;
  readonly desligados: readonly TipoDeAviso[];
}

/**
 * The reminders due today (the community's day) that were not written yet, in every active open
 * cycle whose calendar reaches today:
 * - oferta_aberta: each supplier, while the offer window is open;
 * - oferta_lembrete: on the window's last day, each supplier without a finalised offer;
 * - pedido_aberto: each consumer without an order, while the order window is open;
 * - pedido_lembrete: on the window's last day, each consumer whose order is missing or unconfirmed;
 * - entregas: once the order window is over, each supplier with something to deliver;
 * - retirada: the day before their pickup day, each consumer with a confirmed order;
 * - assinatura_ciclo: while the order window is open, each subscriber whose basket comes in the
 *   cycle (to skip it, if they wish);
 * - assinatura_falta: from the order window on, each subscriber whose basket could not be served
 *   (faltou), and the coordination (admins, masters), when the cycle has any;
 * - assinatura_recibo: once the order window is over, each subscriber whose basket was served in
 *   the cycle (generated into an order that is confirmed): the final order and how it is paid.
 * People who turned a kind off, and inactive accounts, get nothing.
 */
export async function avisosDevidos(db: Db, hoje: string): Promise<AvisoDevido[]> {
  const ciclos = await db
    .selectFrom('ciclo')
    .select(['id', ...CAMPOS_DATA])
    .where('ativo', '=', true)
    .where('fechadoEm', 'is', null)
    .where('dataOfertaInicio', '<=', hoje)
    .where('dataRetiradaFim', '>=', hoje)
    .execute();
  if (ciclos.length === 0) return [];
  const pessoas = (
    await db
      .selectFrom('usuario')
      .select(['id', 'perfil', 'avisosDesligados'])
      .where('ativo', '=', true)
      // Profiles are JSON text: the LIKE narrows, lerPerfis decides.
      .where((eb) =>
        eb.or([
          eb('perfil', 'like', '%fornecedor%'),
          eb('perfil', 'like', '%consumidor%'),
          eb('perfil', 'like', '%admin%'),
          eb('perfil', 'like', '%master%'),
        ]),
      )
      .execute()
  ).map((u): Pessoa => {
    const perfil = lerPerfis(u.perfil);
    return {
      id: u.id,
      fornecedor: ehFornecedor({ perfil }),
      consumidor: ehConsumidor({ perfil }),
      coordena: ehGestor({ perfil }),
      desligados: lerAvisosDesligados(u.avisosDesligados),
    };
  });
  const devidos: AvisoDevido[] = [];
  for (const c of ciclos) {
    const [escritas, ofertas, pedidos] = await Promise.all([
      db.selectFrom('mensagem').select('chave').where('cicloid', '=', c.id).execute(),
      db.selectFrom('oferta').select(['usuarioid', 'finalizada']).where('cicloid', '=', c.id).execute(),
      db
        .selectFrom('pedido as p')
        .leftJoin('ciclopontoentrega as cpe', (j) =>
          j.onRef('cpe.cicloid', '=', 'p.cicloid').onRef('cpe.pontoEntregaId', '=', 'p.pontoEntregaId'),
        )
        .select(['p.usuarioid', 'p.finalizado', 'cpe.dataRetirada'])
        .where('p.cicloid', '=', c.id)
        .execute(),
    ]);
    const jaEscritas = new Set(escritas.map((e) => e.chave));
    const finalizadas = new Set(ofertas.filter((o) => o.finalizada).map((o) => o.usuarioid));
    const pedidoDe = new Map(pedidos.map((p) => [p.usuarioid, p]));
    const fornecedoresComEntrega =
      hoje > c.dataPedidoFim ? await fornecedoresComAlgoAEntregar(db, c.id) : new Set<number>();
    const devido = (tipo: AvisoDevido['tipo'], quem: (p: Pessoa) => boolean) => {
      for (const p of pessoas) {
        const aviso = { tipo, cicloid: c.id, usuarioid: p.id };
        if (quem(p) && !p.desligados.includes(tipo) && !jaEscritas.has(chaveDoAviso(aviso))) devidos.push(aviso);
      }
    };
    if (hoje <= c.dataOfertaFim) {
      devido('oferta_aberta', (p) => p.fornecedor);
      if (hoje === c.dataOfertaFim) devido('oferta_lembrete', (p) => p.fornecedor && !finalizadas.has(p.id));
    }
    if (hoje >= c.dataPedidoInicio && hoje <= c.dataPedidoFim) {
      devido('pedido_aberto', (p) => p.consumidor && !pedidoDe.has(p.id));
      if (hoje === c.dataPedidoFim)
        devido('pedido_lembrete', (p) => p.consumidor && pedidoDe.get(p.id)?.finalizado !== true);
      const assinantes = new Set(await assinantesComCestaNoCiclo(db, c.id, hoje));
      devido('assinatura_ciclo', (p) => p.consumidor && assinantes.has(p.id));
    }
    // A subscription not served (faltou): its subscriber, and the coordination, once per cycle.
    if (hoje >= c.dataPedidoInicio) {
      const faltaram = new Set((await faltasDoCiclo(db, c.id)).map((f) => f.usuarioid));
      if (faltaram.size > 0) devido('assinatura_falta', (p) => faltaram.has(p.id) || p.coordena);
    }
    if (hoje > c.dataPedidoFim) {
      devido('entregas', (p) => fornecedoresComEntrega.has(p.id));
      const servidos = new Set(await assinantesServidosNoCiclo(db, c.id));
      if (servidos.size > 0) devido('assinatura_recibo', (p) => servidos.has(p.id));
    }
    // Orders often close the day before pickup: the eve of pickup may still be an order day.
    const amanha = somarDias(hoje, 1);
    devido('retirada', (p) => {
      const pedido = pedidoDe.get(p.id);
      return pedido?.finalizado === true && (pedido.dataRetirada ?? c.dataRetiradaInicio) === amanha;
    });
  }
  return devidos;
}

/** Suppliers with a finalised offer line that baskets or extras use in the cycle. */
async function fornecedoresComAlgoAEntregar(db: Db, cicloid: number): Promise<Set<number>> {
  return new Set((await entregasDoCiclo(db, cicloid)).filter((e) => e.pedidoMil > 0).map((e) => e.linha.fornecedorId));
}

// ---------------------------------------------------------------------------------------------
// Each person's choice of optional kinds.

/** The optional kinds a person receives (all but those turned off). */
export async function avisosQueRecebe(db: Db, usuarioid: number): Promise<TipoDeAviso[]> {
  const u = await db.selectFrom('usuario').select('avisosDesligados').where('id', '=', usuarioid).executeTakeFirst();
  if (u === undefined) throw new NaoEncontrado('USUARIO_NAO_ENCONTRADO', 'Cadastro não encontrado');
  const desligados = lerAvisosDesligados(u.avisosDesligados);
  return TIPOS_OPCIONAIS.filter((t) => !desligados.includes(t));
}

/** A person's own choice: the optional kinds to receive; the others are turned off. Audited. */
export async function definirAvisos(
  banco: Banco,
  ator: Ator,
  recebe: readonly TipoDeAviso[],
  agora: Date,
): Promise<TipoDeAviso[]> {
  const usuarioid = ator.usuarioid;
  if (usuarioid === null) throw new Proibido('SEM_CADASTRO', 'Complete seu cadastro antes de escolher seus avisos');
  return emTransacao(banco, async (trx) => {
    const antes = await avisosQueRecebe(trx, usuarioid);
    const desligados = TIPOS_OPCIONAIS.filter((t) => !recebe.includes(t));
    await trx
      .updateTable('usuario')
      .set({ avisosDesligados: JSON.stringify(desligados), updatedAt: agora.toISOString() })
      .where('id', '=', usuarioid)
      .execute();
    const depois = TIPOS_OPCIONAIS.filter((t) => !desligados.includes(t));
    await auditar(trx, ator, agora, {
      acao: 'escolher avisos',
      entidade: 'usuario',
      entidadeId: usuarioid,
      antes: { avisos: antes },
      depois: { avisos: depois },
    });
    return depois;
  });
}

/**
 * "Deixar de receber" from an e-mail's link (no login: the caller checked the link's signature).
 * Turning off what is already off changes nothing. Returns the person's name for the page.
 */
export async function deixarDeReceber(
  banco: Banco,
  usuarioid: number,
  tipo: TipoDeAviso,
  agora: Date,
): Promise<string> {
  if (!TIPOS_DE_AVISO[tipo].opcional)
    throw new Invalido('VALIDACAO', 'Este aviso não pode ser desligado', {
      tipo: 'Recibos e mensagens da coordenação são sempre enviados',
    });
  return emTransacao(banco, async (trx) => {
    const u = await trx
      .selectFrom('usuario')
      .select(['nome', 'email', 'avisosDesligados'])
      .where('id', '=', usuarioid)
      .executeTakeFirst();
    if (u === undefined)
      throw new NaoEncontrado('USUARIO_NAO_ENCONTRADO', 'Este link não vale mais: o cadastro não existe');
    const desligados = lerAvisosDesligados(u.avisosDesligados);
    if (desligados.includes(tipo)) return u.nome;
    const depois = [...desligados, tipo];
    await trx
      .updateTable('usuario')
      .set({ avisosDesligados: JSON.stringify(depois), updatedAt: agora.toISOString() })
      .where('id', '=', usuarioid)
      .execute();
    const ator: Ator = { email: u.email, nome: u.nome, usuarioid, perfil: [], ativo: true };
    await auditar(trx, ator, agora, {
      acao: 'deixar de receber (link do e-mail)',
      entidade: 'usuario',
      entidadeId: usuarioid,
      antes: { desligados },
      depois: { desligados: depois },
    });
    return u.nome;
  });
}

// ---------------------------------------------------------------------------------------------
// The outbox, as admins see it.

export const ESTADOS_DA_MENSAGEM = ['pendente', 'enviando', 'enviada', 'falhou'] as const;
export type EstadoDaMensagem = (typeof ESTADOS_DA_MENSAGEM)[number];

export interface MensagemNaCaixa {
  readonly id: number;
  readonly tipo: string;
  readonly para: string;
  readonly assunto: string;
  readonly estado: EstadoDaMensagem;
  readonly tentativas: number;
  readonly ultimoErro: string | null;
  readonly criadaEm: string;
  readonly enviadaEm: string | null;
  readonly proximaTentativa: string;
}

/** The latest messages (newest first), optionally of one state, with the count of each state. */
export async function caixaDeSaida(
  db: Db,
  estado: EstadoDaMensagem | null,
  limite = 200,
): Promise<{ mensagens: MensagemNaCaixa[]; porEstado: Record<EstadoDaMensagem, number> }> {
  let q = db
    .selectFrom('mensagem')
    .select([
      'id',
      'tipo',
      'para',
      'assunto',
      'estado',
      'tentativas',
      'ultimoErro',
      'createdAt as criadaEm',
      'enviadaEm',
      'proximaTentativa',
    ])
    .orderBy('id', 'desc')
    .limit(limite);
  if (estado !== null) q = q.where('estado', '=', estado);
  const [mensagens, contagem] = await Promise.all([
    q.execute(),
    db
      .selectFrom('mensagem')
      .select(['estado'])
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .groupBy('estado')
      .execute(),
  ]);
  const porEstado = Object.fromEntries(
    ESTADOS_DA_MENSAGEM.map((e) => [e, Number(contagem.find((c) => c.estado === e)?.n ?? 0)]),
  ) as Record<EstadoDaMensagem, number>;
  return { mensagens, porEstado };
}

// ---------------------------------------------------------------------------------------------
// The coordination's own message.

/**
 * Everyone in a cycle: its active suppliers with an offer and its active consumers with an order;
 * with a market, that market's buyers only (orders with a line bought in it, and the buyers of
 * its lots who have an account).
 */
export async function pessoasDoCiclo(db: Db, cicloid: number, mercadoId: number | null = null): Promise<number[]> {
  const linhas = await db
    .selectFrom('usuario as u')
    .select('u.id')
    .where('u.ativo', '=', true)
    .where((eb) =>
      mercadoId === null
        ? eb.or([
            eb.exists(
              eb
                .selectFrom('pedido as p')
                .select('p.id')
                .whereRef('p.usuarioid', '=', 'u.id')
                .where('p.cicloid', '=', cicloid),
            ),
            eb.exists(
              eb
                .selectFrom('oferta as o')
                .select('o.id')
                .whereRef('o.usuarioid', '=', 'u.id')
                .where('o.cicloid', '=', cicloid),
            ),
          ])
        : eb.or([
            eb.exists(
              eb
                .selectFrom('pedido as p')
                .innerJoin('pedidoproduto as pp', 'pp.pedidoid', 'p.id')
                .select('p.id')
                .whereRef('p.usuarioid', '=', 'u.id')
                .where('p.cicloid', '=', cicloid)
                .where('pp.mercadoId', '=', mercadoId),
            ),
            eb.exists(
              eb
                .selectFrom('lote as l')
                .select('l.id')
                .whereRef('l.compradorUsuarioId', '=', 'u.id')
                .where('l.cicloid', '=', cicloid)
                .where('l.mercadoId', '=', mercadoId),
            ),
          ]),
    )
    .orderBy('u.id')
    .execute();
  return linhas.map((l) => l.id);
}

/**
 * A coordinator's message to everyone in a cycle, written to the outbox in one transaction with
 * its audit line. Returns how many people it goes to.
 */
export async function mensagemDaCoordenacao(
  banco: Banco,
  ator: Ator,
  cicloid: number,
  m: { assunto: string; texto: string; mercadoId: number | null },
  avisos: Avisos,
  agora: Date,
): Promise<number> {
  return emTransacao(banco, async (trx) => {
    const ciclo = await trx.selectFrom('ciclo').select(['id', 'nome']).where('id', '=', cicloid).executeTakeFirst();
    if (ciclo === undefined) throw new NaoEncontrado('CICLO_NAO_ENCONTRADO', `Não encontramos o ciclo ${cicloid}`);
    const mercado =
      m.mercadoId === null
        ? null
        : await trx
            .selectFrom('ciclomercado as cm')
            .innerJoin('mercado as mm', 'mm.id', 'cm.mercadoId')
            .select('mm.nome')
            .where('cm.cicloid', '=', cicloid)
            .where('cm.mercadoId', '=', m.mercadoId)
            .executeTakeFirst();
    if (mercado === undefined)
      throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
        mercadoId: 'Este mercado não está no ciclo',
      });
    const usuarioids = await pessoasDoCiclo(trx, cicloid, m.mercadoId);
    if (usuarioids.length === 0) {
      throw new Conflito(
        'SEM_DESTINATARIOS',
        mercado === null
          ? `Ninguém ofertou nem pediu no ${ciclo.nome} ainda: não há a quem enviar`
          : `Ninguém comprou em ${mercado.nome} no ${ciclo.nome} ainda: não há a quem enviar`,
      );
    }
    await avisos.emitir(trx, {
      tipo: 'coordenacao',
      cicloid,
      usuarioids,
      assunto: m.assunto,
      texto: m.texto,
      remetente: ator.nome,
      momento: agora.toISOString(),
    });
    await auditar(trx, ator, agora, {
      acao: 'mensagem da coordenação',
      entidade: 'ciclo',
      entidadeId: cicloid,
      depois: { assunto: m.assunto, mercadoId: m.mercadoId, destinatarios: usuarioids.length },
    });
    return usuarioids.length;
  });
}
