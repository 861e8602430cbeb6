/**
 * Money: a payment or an adjustment with its receipt (POST /movimentacao), reopening a closed
 * cycle (POST /reabrirciclo/:id), and a bank statement: its upload with the CSV's columns
 * (POST /extratos), the credits settled or left open (POST /extratos/conciliar) and a credit
 * dismissed (POST /extratos/:id/descartar).
 */
import { Type } from '@sinclair/typebox';
import { MAXIMO_LANCAMENTO_CENTAVOS } from '../decimal.ts';
import { SEPARADORES, type Decisao, type MapeamentoCsv } from '../domain/extratos.ts';
import { regraDoComprovante, type ArquivoRecebido, type EntradaMovimentacao } from '../domain/financeiro.ts';
import { comando } from './comando.ts';
import { Centavos, Data, Id, Booleano, IdOpcional, Linhas, Objeto, Texto, UmDe } from './leitor/blocos.ts';
import { Recusas, compilar, comoObjeto, linhasDe } from './leitor/leitura.ts';
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
export function arquivoEnviado(v: unknown): ArquivoRecebido | null {
  if (v === null || typeof v !== 'object' || !('nome' in v) || !('conteudo' in v)) return null;
  const { nome, conteudo } = v;
  return typeof nome === 'string' && Buffer.isBuffer(conteudo) && conteudo.length > 0 ? { nome, conteudo } : null;
}

/**
 * A command's schema with the file a multipart form sends in `arquivo` (and any other field read
 * apart from the command's own): what the OpenAPI document shows, beside the fields.
 */
function comArquivo<T extends object>(
  esquema: T,
  descricao: string,
  doArquivo: string,
  outros: Record<string, unknown> = {},
): T {
  return {
    ...esquema,
    description: descricao,
    properties: {
      ...(esquema as { properties?: object }).properties,
      arquivo: Type.Unsafe<unknown>({ type: 'string', format: 'binary', description: doArquivo }),
      ...outros,
    },
  };
}

export const RegistrarMovimentacao = comando<MovimentacaoLida>(
  'RegistrarMovimentacao',
  comArquivo(
    Movimentacao,
    'Um pagamento ou ajuste (formulário multipart, com o comprovante opcional no campo arquivo; ou JSON)',
    'O comprovante (PDF, PNG ou JPEG, até 10 MiB)',
    {
      comprovantePendente: Type.Unsafe<unknown>({
        type: 'string',
        description:
          'A referência selada ao comprovante que um formulário recusado guardou (vem no formulário redesenhado); sem novo arquivo, ele é o comprovante desta movimentação',
      }),
    },
  ),
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

const Importacao = Objeto({
  mapeamentoId: IdOpcional('Um mapeamento de colunas salvo'),
  separador: UmDe('O separador das colunas do CSV (sem ele: ;)', SEPARADORES, {
    mensagem: 'Escolha ; (ponto e vírgula), , (vírgula) ou tab',
  }),
  colunaData: Texto('A coluna da data', { max: 100 }),
  colunaValor: Texto('A coluna do valor', { max: 100 }),
  colunaDescricao: Texto('A coluna da descrição', { max: 100 }),
  colunaPagador: Texto('A coluna do pagador (opcional)', { max: 100 }),
  colunaDocumento: Texto(
    'A coluna do número do documento do banco (opcional): distingue créditos iguais no mesmo dia e reconhece o lançamento já importado por OFX',
    { max: 100 },
  ),
  salvarMapeamento: Booleano('Guardar o mapeamento', false),
  nomeMapeamento: Texto('O nome do mapeamento a guardar (obrigatório para guardá-lo)', { max: 100 }),
});
const importacao = compilar<typeof Importacao.static>(Importacao);

/** A statement to import: the file, and how to read a CSV (a saved mapping, or one typed and maybe saved). */
export interface ImportacaoLida {
  readonly arquivo: ArquivoRecebido;
  readonly mapeamentoId: number | null;
  readonly mapeamento: MapeamentoCsv | null;
  readonly salvar: boolean;
}

const vazio = (v: string | null | undefined): boolean => v === undefined || v === null || v === '';

export const ImportarExtrato = comando<ImportacaoLida>(
  'ImportarExtrato',
  comArquivo(
    Importacao,
    'Um extrato do banco (formulário multipart): OFX, ou CSV com o mapeamento das colunas',
    'O arquivo OFX ou CSV (até 2 MiB; UTF-8 ou ISO-8859-1)',
  ),
  {
    raizes: [...Object.keys((Importacao as unknown as { properties: object }).properties), 'arquivo'],
    donos: () => [],
    ler(dados, nomear) {
      // The file's bytes are not fields: they are judged apart, and never copied.
      const { arquivo: enviado, ...campos } = comoObjeto(dados);
      const recusas: Recusas = new Recusas();
      const c = importacao.validar(campos, recusas);
      const colunas = [
        ['colunaData', c.colunaData],
        ['colunaValor', c.colunaValor],
        ['colunaDescricao', c.colunaDescricao],
      ] as const;
      // Naming one of the three columns is typing a mapping: the other two are then needed too.
      const digitado = colunas.some(([, v]) => !vazio(v));
      if (digitado)
        for (const [campo, v] of colunas)
          if (vazio(v) && recusas.legivel([campo]))
            recusas.juntar([campo], 'Diga o nome desta coluna no cabeçalho do CSV');
      const salvar = c.salvarMapeamento === true;
      if (salvar && vazio(c.nomeMapeamento) && recusas.legivel(['nomeMapeamento']))
        recusas.juntar(['nomeMapeamento'], 'Campo obrigatório');
      const arquivo = arquivoEnviado(enviado);
      if (arquivo === null) recusas.juntar(['arquivo'], 'Escolha o arquivo do extrato (OFX ou CSV)');
      if (!recusas.vazia || arquivo === null) recusas.recusar(nomear);
      const mapeamento: MapeamentoCsv | null = digitado
        ? {
            nome: vazio(c.nomeMapeamento) ? 'Sem nome' : (c.nomeMapeamento ?? 'Sem nome'),
            separador: c.separador ?? ';',
            colunaData: c.colunaData ?? '',
            colunaValor: c.colunaValor ?? '',
            colunaDescricao: c.colunaDescricao ?? '',
            colunaPagador: vazio(c.colunaPagador) ? null : (c.colunaPagador ?? null),
            colunaDocumento: vazio(c.colunaDocumento) ? null : (c.colunaDocumento ?? null),
          }
        : null;
      return { arquivo, mapeamentoId: c.mapeamentoId ?? null, mapeamento, salvar: salvar && mapeamento !== null };
    },
  },
);
