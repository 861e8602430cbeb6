/**
 * Money: a payment or an adjustment with its receipt (POST /movimentacao), reopening a closed
 * cycle (POST /reabrirciclo/:id), and the review of a bank statement: the credits settled or left
 * open (POST /extratos/conciliar) and a credit dismissed (POST /extratos/:id/descartar).
 */
import { Type } from '@sinclair/typebox';
import { MAXIMO_LANCAMENTO_CENTAVOS } from '../decimal.ts';
import type { Decisao } from '../domain/extratos.ts';
import { regraDoComprovante, type ArquivoRecebido, type EntradaMovimentacao } from '../domain/financeiro.ts';
import { comando } from './comando.ts';
import {
  Centavos,
  Data,
  Id,
  IdOpcional,
  Linhas,
  Objeto,
  Recusas,
  Texto,
  UmDe,
  compilar,
  comoObjeto,
  linhasDe,
} from './leitor.ts';
import { comandoDeObjeto } from './objeto.ts';

const Movimentacao = Objeto(
  {
    usuarioid: Id('A pessoa'),
    tipoMovimentacaoId: Id('O tipo'),
    valor: Centavos('O valor', { obrigatorio: true, min: 1, max: MAXIMO_LANCAMENTO_CENTAVOS }),
    data: Data('A data (sem ela: hoje)', {}),
    descricao: Texto('Descrição', { obrigatorio: true, max: 500 }),
    cicloid: IdOpcional('O ciclo'),
    sentido: UmDe('Num ajuste: crédito ou débito (sem ele: crédito)', ['credito', 'debito'] as const, {}),
  },
  ['usuarioid', 'tipoMovimentacaoId', 'valor', 'descricao'],
);
const movimentacao = compilar<typeof Movimentacao.static>(Movimentacao);

/** A payment or an adjustment, the receipt sent with it, and the one a refused form kept. */
export interface MovimentacaoLida {
  readonly entrada: EntradaMovimentacao;
  readonly arquivo: ArquivoRecebido | null;
  /** The sealed reference to the receipt a refused form kept (the face opens it). */
  readonly comprovantePendente: string | null;
}

/** The file a form sent in `arquivo` (`{ nome, conteudo }`), or null when it sent none. */
function arquivoEnviado(v: unknown): ArquivoRecebido | null {
  if (v === null || typeof v !== 'object' || !('nome' in v) || !('conteudo' in v)) return null;
  const { nome, conteudo } = v;
  return typeof nome === 'string' && Buffer.isBuffer(conteudo) && conteudo.length > 0 ? { nome, conteudo } : null;
}

export const RegistrarMovimentacao = comando<MovimentacaoLida>(
  'RegistrarMovimentacao',
  {
    ...Movimentacao,
    description: 'Um pagamento ou ajuste (formulário multipart, com o comprovante opcional no campo arquivo; ou JSON)',
    properties: {
      ...(Movimentacao as unknown as { properties: object }).properties,
      arquivo: Type.Unsafe<unknown>({
        type: 'string',
        format: 'binary',
        description: 'O comprovante (PDF, PNG ou JPEG, até 10 MiB)',
      }),
      comprovantePendente: Type.Unsafe<unknown>({
        type: 'string',
        description:
          'A referência selada ao comprovante que um formulário recusado guardou (vem no formulário redesenhado); sem novo arquivo, ele é o comprovante desta movimentação',
      }),
    },
  },
  {
    raizes: ['usuarioid', 'tipoMovimentacaoId', 'valor', 'data', 'descricao', 'cicloid', 'sentido', 'arquivo'],
    donos: () => [],
    ler(dados, nomear) {
      // The file's bytes are not fields: they are judged apart, and never copied.
      const { arquivo: enviado, comprovantePendente, ...campos } = comoObjeto(dados);
      const recusas = new Recusas();
      const c = movimentacao.validar(campos, recusas);
      const arquivo = arquivoEnviado(enviado);
      const recusa = regraDoComprovante(arquivo);
      if (recusa !== null) recusas.juntar(['arquivo'], recusa);
      if (!recusas.vazia) recusas.recusar(nomear);
      return {
        entrada: {
          usuarioid: c.usuarioid,
          tipoMovimentacaoId: c.tipoMovimentacaoId,
          valorCentavos: c.valor,
          data: c.data ?? null,
          descricao: c.descricao,
          cicloid: c.cicloid ?? null,
          sentido: c.sentido ?? null,
        },
        arquivo,
        comprovantePendente:
          typeof comprovantePendente === 'string' && comprovantePendente !== '' ? comprovantePendente : null,
      };
    },
  },
);

export const ReabrirCiclo = comandoDeObjeto(
  'ReabrirCiclo',
  Objeto(
    {
      motivo: Texto('Por que o ciclo precisa ser reaberto (fica na auditoria)', {
        obrigatorio: true,
        max: 500,
        falta: 'Diga por que o ciclo precisa ser reaberto',
      }),
    },
    ['motivo'],
  ),
  { montar: (c) => c.motivo },
);

const LinhaDaDecisao = Objeto(
  {
    id: Id('A linha do extrato'),
    usuarioid: IdOpcional('A pessoa a creditar (vazio: ninguém, a proposta recusada)'),
  },
  ['id'],
);

export const ConciliarExtrato = comandoDeObjeto(
  'ConciliarExtrato',
  Objeto({
    linhas: Linhas(LinhaDaDecisao, 'As decisões: cada linha do extrato e a pessoa', {
      maximo: 1000,
      excesso: 'No máximo 1000 linhas por vez',
      pular: 'nenhuma',
    }),
  }),
  {
    montar: (c): Decisao[] =>
      linhasDe<typeof LinhaDaDecisao.static>(c.linhas).map(({ linha }) => ({
        linhaId: linha.id,
        usuarioid: linha.usuarioid ?? null,
      })),
  },
);

export const DescartarCredito = comandoDeObjeto(
  'DescartarCredito',
  Objeto({ motivo: Texto('Por que o crédito não é pagamento', { obrigatorio: true, max: 500 }) }, ['motivo']),
  { montar: (c) => c.motivo },
);
