/**
 * A season paid in advance: the coordination records it as a credit movement for the subscriber,
 * under a key that names the subscription (its format and checks are in regras.ts), and the
 * cycles' closings draw it down like any credit (docs/decisions.md, "Assinaturas: o que mora onde").
 */
import { randomUUID } from 'node:crypto';
import { emTransacao, type Banco } from '../../db/banco.ts';
import { autorizar, type Ator } from '../acesso.ts';
import { auditar } from '../auditoria.ts';
import { recusarInvalidos } from '../erros.ts';
import { assinaturaDoAtor } from './leitura.ts';
import { ENVIO_VALIDO, MAIOR_PAGAMENTO_CENTAVOS, PREFIXO_DO_PAGAMENTO } from './regras.ts';

function chaveDoPagamento(assinaturaId: number, iso: string, envio: string | null): string {
  return envio === null
    ? `${PREFIXO_DO_PAGAMENTO}${assinaturaId}:pagamento:${iso}:${randomUUID()}`
    : `${PREFIXO_DO_PAGAMENTO}${assinaturaId}:pagamento:envio:${envio}`;
}

export interface PagamentoDaTemporada {
  readonly movimentacaoId: number;
  readonly assinaturaId: number;
  readonly usuarioid: number;
  readonly valorCentavos: number;
  readonly data: string;
  readonly descricao: string;
  /** True when this sending had already been recorded: nothing new was written. */
  readonly repetido: boolean;
}

/**
 * The coordination records a season paid in advance for a subscription: a credit movement
 * ("Pagamento recebido") for the subscriber, naming the subscription in its description and key.
 * Nothing else changes: each cycle's closing debits the subscription's orders like any confirmed
 * order (fecharCiclo), so the credit is drawn down cycle by cycle, to the centavo, and /saldo shows
 * what is left. Admins only; audited. `envio` names the sending: the same sending again records
 * nothing and answers the payment it recorded (repetido).
 */
export async function registrarPagamentoDaTemporada(
  banco: Banco,
  ator: Ator,
  assinaturaId: number,
  valorCentavos: number,
  opcoes: { agora: Date; hoje: string; descricao?: string | null; envio?: string | null },
): Promise<PagamentoDaTemporada> {
  autorizar(ator, 'financeiroEscrever');
  if (!Number.isInteger(valorCentavos) || valorCentavos < 1 || valorCentavos > MAIOR_PAGAMENTO_CENTAVOS) {
    recusarInvalidos({ valor: 'Informe o valor pago, maior que zero (até R$ 1.000.000,00)' });
  }
  const envio = opcoes.envio ?? null;
  if (envio !== null && !ENVIO_VALIDO.test(envio))
    recusarInvalidos({ envio: 'Envio inválido: recarregue a página e registre de novo' });
  return emTransacao(banco, async (trx) => {
    const a = await assinaturaDoAtor(trx, ator, assinaturaId);
    const info = await trx.selectFrom('cesta').select('nome').where('id', '=', a.cestaId).executeTakeFirstOrThrow();
    const tipo = await trx
      .selectFrom('tipomovimentacao')
      .select('id')
      .where('nome', '=', 'Pagamento recebido')
      .executeTakeFirst();
    if (tipo === undefined) throw new Error('tipo de movimentação "Pagamento recebido" não semeado');
    const [ai, mi, di] = a.inicio.split('-');
    const [af, mf, df] = a.fim.split('-');
    const extra = opcoes.descricao?.trim() ?? '';
    const descricao = `Pagamento antecipado da temporada da assinatura ${a.id} (${info.nome}, ${di}/${mi}/${ai} a ${df}/${mf}/${af})${extra === '' ? '' : `: ${extra}`}`;
    const iso = opcoes.agora.toISOString();
    const chave = chaveDoPagamento(a.id, iso, envio);
    const linha = await trx
      .insertInto('movimentacao')
      .values({
        usuarioid: a.usuarioid,
        tipoMovimentacaoId: tipo.id,
        sentido: 'credito',
        valorCentavos,
        data: opcoes.hoje,
        descricao,
        arquivo: null,
        cicloid: null,
        chave,
        criadoPor: ator.usuarioid,
        createdAt: iso,
        updatedAt: iso,
      })
      .onConflict((oc) => oc.column('chave').doNothing())
      .returning('id')
      .executeTakeFirst();
    if (linha === undefined) {
      // This sending was recorded before: answer what it recorded.
      const ja = await trx
        .selectFrom('movimentacao')
        .select(['id', 'usuarioid', 'valorCentavos', 'data', 'descricao'])
        .where('chave', '=', chave)
        .executeTakeFirstOrThrow();
      return {
        movimentacaoId: ja.id,
        assinaturaId: a.id,
        usuarioid: ja.usuarioid,
        valorCentavos: ja.valorCentavos,
        data: ja.data,
        descricao: ja.descricao,
        repetido: true,
      };
    }
    const pagamento: PagamentoDaTemporada = {
      movimentacaoId: linha.id,
      assinaturaId: a.id,
      usuarioid: a.usuarioid,
      valorCentavos,
      data: opcoes.hoje,
      descricao,
      repetido: false,
    };
    await auditar(trx, ator, opcoes.agora, {
      acao: 'registrar pagamento da temporada',
      entidade: 'assinatura',
      entidadeId: a.id,
      depois: pagamento,
    });
    return pagamento;
  });
}
