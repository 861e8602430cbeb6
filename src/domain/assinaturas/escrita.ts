/**
 * Writes of subscriptions: create or change one (the one active per basket type and the basket
 * type's cap checked under its lock), pause it and remove a pause, and set a basket type's cap.
 * Each is audited; saving and removing a pause serve the subscription at once in any cycle whose
 * order window is open (geracao.ts).
 */
import type { Transaction } from 'kysely';
import { emTransacao, ehPostgres, type Banco } from '../../db/banco.ts';
import type { DB } from '../../db/tipos.ts';
import { exigirAgirPor, type Ator } from '../acesso.ts';
import { auditar } from '../auditoria.ts';
import { Conflito, NaoEncontrado, recusarInvalidos } from '../erros.ts';
import { consumidorAlvo } from '../pedidos/regras.ts';
import { podeTipo } from '../tipos-de-mercado.ts';
import { esquecerGeracoes, gerarOndeAberto } from './geracao.ts';
import { assinaturaDoAtor, carregarAssinaturas } from './leitura.ts';
import type { Assinatura, EntradaAssinatura, OpcoesAssinatura } from './modelo.ts';
import { regrasDaAssinatura, regrasDoPeriodo } from './regras.ts';

// ---------------------------------------------------------------------------------------------
// Writes

/** Locks the basket type's row (PostgreSQL) so the cap and the one-active rule are checked against what commits. */
async function travarCesta(trx: Transaction<DB>, cestaId: number): Promise<void> {
  if (ehPostgres(trx)) await trx.selectFrom('cesta').select('id').where('id', '=', cestaId).forUpdate().execute();
}

/**
 * Creates (id null) or changes a subscription: consumers their own, admins anyone's (naming the
 * consumer). Checks the basket type (active), the point (active), the market (an active cesta
 * market), the basket type's cap on active subscriptions (409 naming both) and the one active
 * subscription per basket type (409). Changes apply to cycles not generated yet; a generated
 * cycle changes only through alterarNoCiclo. Audited. When a cycle's order window is open, the
 * subscription is served in it at once (gerarPedidosDoCiclo).
 */
export async function salvarAssinatura(
  banco: Banco,
  ator: Ator,
  entrada: EntradaAssinatura,
  opcoes: OpcoesAssinatura,
): Promise<Assinatura> {
  exigirAgirPor(ator, entrada.usuarioid, 'pedido');
  recusarInvalidos(regrasDaAssinatura(entrada));
  const salva = await emTransacao(banco, async (trx) => {
    const antes = entrada.id === null ? null : await assinaturaDoAtor(trx, ator, entrada.id);
    const consumidor = await consumidorAlvo(trx, ator, antes?.usuarioid ?? entrada.usuarioid);
    await travarCesta(trx, entrada.cestaId);
    const [cesta, ponto, mercado] = await Promise.all([
      trx
        .selectFrom('cesta')
        .select(['id', 'nome', 'ativo', 'limiteAssinaturas'])
        .where('id', '=', entrada.cestaId)
        .executeTakeFirst(),
      trx
        .selectFrom('pontoentrega')
        .select(['id', 'ativo'])
        .where('id', '=', entrada.pontoEntregaId)
        .executeTakeFirst(),
      entrada.mercadoId === null
        ? null
        : trx
            .selectFrom('mercado')
            .select(['id', 'tipo', 'ativo'])
            .where('id', '=', entrada.mercadoId)
            .executeTakeFirst(),
    ]);
    const erros: Record<string, string> = {};
    // A subscription being ended may keep a basket or point deactivated meanwhile.
    const exigeAtivos = entrada.ativa;
    if (cesta === undefined || (exigeAtivos && !cesta.ativo)) erros.cestaId = 'Cesta inexistente ou inativa';
    if (ponto === undefined || (exigeAtivos && !ponto.ativo))
      erros.pontoEntregaId = 'Ponto de entrega inexistente ou inativo';
    if (
      entrada.mercadoId !== null &&
      (mercado === undefined ||
        mercado === null ||
        !podeTipo(mercado.tipo, 'aceitaAssinaturas') ||
        (exigeAtivos && !mercado.ativo))
    ) {
      erros.mercadoId = 'O mercado deve ser um mercado de cestas ativo';
    }
    recusarInvalidos(erros);
    if (cesta === undefined) throw new Error('cesta conferida acima');
    if (entrada.ativa) {
      const outras = await trx
        .selectFrom('assinatura')
        .select(['id', 'usuarioid'])
        .where('cestaId', '=', entrada.cestaId)
        .where('ativa', '=', true)
        .$if(antes !== null, (q) => q.where('id', '!=', antes?.id ?? 0))
        .execute();
      if (outras.some((o) => o.usuarioid === consumidor.id)) {
        throw new Conflito(
          'ASSINATURA_REPETIDA',
          `Já existe uma assinatura ativa da ${cesta.nome} para esta pessoa: altere a que existe`,
          { cestaId: entrada.cestaId },
        );
      }
      if (cesta.limiteAssinaturas !== null && outras.length >= cesta.limiteAssinaturas) {
        throw new Conflito(
          'LIMITE_DE_ASSINATURAS',
          `A ${cesta.nome} aceita no máximo ${cesta.limiteAssinaturas} assinaturas ativas, e todas estão tomadas`,
          { cesta: cesta.nome, limite: cesta.limiteAssinaturas },
        );
      }
    }
    const iso = opcoes.agora.toISOString();
    const valores = {
      usuarioid: consumidor.id,
      cestaId: entrada.cestaId,
      quantidade: entrada.quantidade,
      pontoEntregaId: entrada.pontoEntregaId,
      frequencia: entrada.frequencia,
      inicio: entrada.inicio,
      fim: entrada.fim,
      mercadoId: entrada.mercadoId,
      ativa: entrada.ativa,
      updatedAt: iso,
    };
    let id: number;
    if (antes === null) {
      id = (
        await trx
          .insertInto('assinatura')
          .values({ ...valores, createdAt: iso })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    } else {
      await trx.updateTable('assinatura').set(valores).where('id', '=', antes.id).execute();
      id = antes.id;
    }
    const [depois] = await carregarAssinaturas(trx, { id });
    if (depois === undefined) throw new Error('assinatura gravada e não lida');
    await auditar(trx, ator, opcoes.agora, {
      acao: antes === null ? 'criar' : 'salvar',
      entidade: 'assinatura',
      entidadeId: id,
      antes,
      depois,
    });
    return depois;
  });
  esquecerGeracoes(banco);
  if (salva.ativa) await gerarOndeAberto(banco, [salva.cestaId], opcoes);
  return salva;
}

/** Pauses a subscription over [inicio, fim]: every cycle it takes whose order window opens inside is skipped. Audited. */
export async function pausar(
  banco: Banco,
  ator: Ator,
  assinaturaId: number,
  periodo: { inicio: string; fim: string },
  opcoes: { agora: Date },
): Promise<Assinatura> {
  recusarInvalidos(regrasDoPeriodo(periodo));
  const r = await emTransacao(banco, async (trx) => {
    const antes = await assinaturaDoAtor(trx, ator, assinaturaId);
    const iso = opcoes.agora.toISOString();
    const sobrepostas = antes.pausas.filter((p) => p.inicio <= periodo.fim && periodo.inicio <= p.fim);
    if (sobrepostas.length > 0)
      throw new Conflito('PAUSA_SOBREPOSTA', 'Esta pausa se sobrepõe a outra: altere ou remova a que existe', {
        pausas: sobrepostas,
      });
    await trx
      .insertInto('assinaturapausa')
      .values({ assinaturaId, inicio: periodo.inicio, fim: periodo.fim, createdAt: iso, updatedAt: iso })
      .execute();
    const [depois] = await carregarAssinaturas(trx, { id: assinaturaId });
    await auditar(trx, ator, opcoes.agora, {
      acao: 'pausar',
      entidade: 'assinatura',
      entidadeId: assinaturaId,
      antes,
      depois,
    });
    return depois ?? antes;
  });
  esquecerGeracoes(banco);
  return r;
}

/** Removes a pause; cycles not generated yet are served again. Audited. */
export async function removerPausa(
  banco: Banco,
  ator: Ator,
  assinaturaId: number,
  pausaId: number,
  opcoes: OpcoesAssinatura,
): Promise<Assinatura> {
  const r = await emTransacao(banco, async (trx) => {
    const antes = await assinaturaDoAtor(trx, ator, assinaturaId);
    if (!antes.pausas.some((p) => p.id === pausaId))
      throw new NaoEncontrado('PAUSA_NAO_ENCONTRADA', 'Pausa não encontrada');
    await trx
      .deleteFrom('assinaturapausa')
      .where('id', '=', pausaId)
      .where('assinaturaId', '=', assinaturaId)
      .execute();
    const [depois] = await carregarAssinaturas(trx, { id: assinaturaId });
    await auditar(trx, ator, opcoes.agora, {
      acao: 'remover pausa',
      entidade: 'assinatura',
      entidadeId: assinaturaId,
      antes,
      depois,
    });
    return depois ?? antes;
  });
  esquecerGeracoes(banco);
  if (r.ativa) await gerarOndeAberto(banco, [r.cestaId], opcoes);
  return r;
}

/** Sets a basket type's cap on active subscriptions (null: no cap). Active subscriptions above a lowered cap stay; new ones wait. Audited. */
export async function definirLimiteDeAssinaturas(
  banco: Banco,
  ator: Ator,
  cestaId: number,
  limite: number | null,
  opcoes: { agora: Date },
): Promise<{ cestaId: number; nome: string; limiteAssinaturas: number | null }> {
  if (limite !== null && (!Number.isInteger(limite) || limite < 0))
    recusarInvalidos({
      limiteAssinaturas: 'O limite deve ser um número inteiro de assinaturas (0 ou mais), ou vazio para não limitar',
    });
  return emTransacao(banco, async (trx) => {
    const antes = await trx
      .selectFrom('cesta')
      .select(['id', 'nome', 'limiteAssinaturas'])
      .where('id', '=', cestaId)
      .executeTakeFirst();
    if (antes === undefined) throw new NaoEncontrado('CESTA_NAO_ENCONTRADA', 'Cesta não encontrada');
    await trx
      .updateTable('cesta')
      .set({ limiteAssinaturas: limite, updatedAt: opcoes.agora.toISOString() })
      .where('id', '=', cestaId)
      .execute();
    await auditar(trx, ator, opcoes.agora, {
      acao: 'limite de assinaturas',
      entidade: 'cesta',
      entidadeId: cestaId,
      antes,
      depois: { ...antes, limiteAssinaturas: limite },
    });
    return { cestaId, nome: antes.nome, limiteAssinaturas: limite };
  });
}
