/**
 * Reads a bank statement file (OFX, or a bank's CSV export with a column mapping) into typed
 * lines for the domain (`LinhaDoExtrato`): dates as YYYY-MM-DD, amounts in signed centavos, the
 * bank's transaction id. The whole file is read before anything is written, so a malformed line
 * refuses the file (400, naming the line) and nothing is half-imported.
 */
import { parse as lerCsvBruto } from 'csv-parse/sync';
import { lerDecimalDigitado } from '../decimal.ts';
import { Invalido } from '../domain/erros.ts';
import { palavrasDoNome, type MapeamentoCsv } from '../domain/extratos.ts';
import type { LinhaDoExtrato } from '../domain/transacoes-do-banco.ts';
import { filhoOfx, filhosOfx, lerDocumentoOfx, OfxMalformado, valorOfx, type DocumentoOfx } from './ofx.ts';
import { ErroHttp } from '../http/erros.ts';

/** A statement is text: 2 MiB hold tens of thousands of lines. */
export const TAMANHO_MAXIMO_EXTRATO = 2 * 1024 * 1024;
const MAXIMO_DE_LINHAS = 20_000;

function recusar(mensagem: string): never {
  throw new Invalido('EXTRATO_INVALIDO', mensagem, { arquivo: mensagem });
}

/**
 * The file's text. Brazilian banks often export ISO-8859-1 (or Windows-1252, its superset); an
 * OFX header may say so (`CHARSET:1252`, `encoding="ISO-8859-1"`). Without a declaration, valid
 * UTF-8 is read as UTF-8 and anything else as Windows-1252.
 */
export function textoDoExtrato(conteudo: Buffer): string {
  if (conteudo.includes(0))
    throw new ErroHttp(
      415,
      'EXTRATO_FORMATO',
      'O extrato deve ser um arquivo de texto OFX ou CSV (este parece ser outro tipo de arquivo)',
    );
  const inicio = conteudo.subarray(0, 1024).toString('latin1');
  const declarado = /CHARSET:\s*(1252|ISO-?8859-1|WINDOWS-1252)|encoding="(?:ISO-8859-1|windows-1252)"/i.test(inicio);
  if (!declarado) {
    try {
      return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(conteudo);
    } catch {
      // Not UTF-8: read below as Windows-1252.
    }
  }
  return new TextDecoder('windows-1252').decode(conteudo);
}

export function ehOfx(texto: string): boolean {
  return /<OFX>/i.test(texto);
}

/** A statement amount, signed, in centavos: `-1.234,56`, `1234.56`, `R$ 50,00`, `50,00 D`. */
export function lerValorDoExtrato(bruto: string): number | null {
  let texto = bruto.replace(/[\s\u00a0]+/g, '');
  let sinal = 1;
  const sufixo = /^(.*?)([CD])$/i.exec(texto);
  if (sufixo !== null) {
    texto = sufixo[1] ?? '';
    if ((sufixo[2] ?? '').toUpperCase() === 'D') sinal = -1;
  }
  texto = texto.replace(/^R\$/i, '');
  if (texto.startsWith('-')) {
    sinal = -sinal;
    texto = texto.slice(1);
  } else if (texto.startsWith('+')) texto = texto.slice(1);
  texto = texto.replace(/^R\$/i, '');
  if (!/^[\d.,]+$/.test(texto)) return null;
  const r = lerDecimalDigitado(texto, 2);
  return r.ok ? sinal * r.valor : null;
}

function dataValida(a: string, m: string, d: string): string | null {
  const iso = `${a}-${m}-${d}`;
  const t = new Date(`${iso}T00:00:00Z`);
  return Number.isNaN(t.getTime()) || t.toISOString().slice(0, 10) !== iso ? null : iso;
}

/** dd/mm/aaaa, dd-mm-aaaa, aaaa-mm-dd or an OFX date (AAAAMMDD…). */
export function lerDataDoExtrato(bruta: string): string | null {
  const t = bruta.trim();
  const br = /^(\d{2})[/.-](\d{2})[/.-](\d{4})$/.exec(t);
  if (br !== null) return dataValida(br[3] ?? '', br[2] ?? '', br[1] ?? '');
  const iso = /^(\d{4})-(\d{2})-(\d{2})/.exec(t);
  if (iso !== null) return dataValida(iso[1] ?? '', iso[2] ?? '', iso[3] ?? '');
  const ofx = /^(\d{4})(\d{2})(\d{2})/.exec(t);
  if (ofx !== null) return dataValida(ofx[1] ?? '', ofx[2] ?? '', ofx[3] ?? '');
  return null;
}

/**
 * An OFX statement's transactions (bank or credit card), read by the linear reader in `ofx.ts`.
 * Each keeps what the bank gives to tell it apart: the account and FITID, and the document
 * numbers (CHECKNUM, REFNUM) that the same bank's CSV export may show.
 */
export function lerOfx(conteudo: string): LinhaDoExtrato[] {
  let documento: DocumentoOfx;
  try {
    documento = lerDocumentoOfx(conteudo);
  } catch (e) {
    if (!(e instanceof OfxMalformado)) throw e;
    recusar(`O arquivo OFX está malformado e não pôde ser lido (${e.message}): exporte o extrato de novo do banco`);
  }
  const { raiz } = documento;
  const respostas = [
    ...filhosOfx(filhoOfx(raiz, 'BANKMSGSRSV1'), 'STMTTRNRS').map((r) => filhoOfx(r, 'STMTRS')),
    ...filhosOfx(filhoOfx(raiz, 'CREDITCARDMSGSRSV1'), 'CCSTMTTRNRS').map((r) => filhoOfx(r, 'CCSTMTRS')),
  ];
  const linhas: LinhaDoExtrato[] = [];
  for (const extrato of respostas) {
    const contaOfx = filhoOfx(extrato, 'BANKACCTFROM') ?? filhoOfx(extrato, 'CCACCTFROM');
    const conta = `${valorOfx(contaOfx, 'BANKID')}:${valorOfx(contaOfx, 'ACCTID')}`;
    for (const x of filhosOfx(filhoOfx(extrato, 'BANKTRANLIST'), 'STMTTRN')) {
      const n = linhas.length + 1;
      if (n > MAXIMO_DE_LINHAS)
        recusar(`O extrato tem mais de ${MAXIMO_DE_LINHAS} transações: exporte um período menor`);
      const data = lerDataDoExtrato(valorOfx(x, 'DTPOSTED'));
      const valor = lerValorDoExtrato(valorOfx(x, 'TRNAMT'));
      const fitid = valorOfx(x, 'FITID');
      if (data === null) recusar(`Transação ${n}: data "${valorOfx(x, 'DTPOSTED').slice(0, 40)}" ilegível (DTPOSTED)`);
      if (valor === null) recusar(`Transação ${n}: valor "${valorOfx(x, 'TRNAMT').slice(0, 40)}" ilegível (TRNAMT)`);
      if (fitid === '' || fitid.length > 255) recusar(`Transação ${n}: sem identificador do banco (FITID)`);
      const nome = valorOfx(x, 'NAME');
      const descricao = [nome, valorOfx(x, 'MEMO')].filter((s) => s !== '').join(' · ') || valorOfx(x, 'TRNTYPE');
      const documentos = [valorOfx(x, 'CHECKNUM'), valorOfx(x, 'REFNUM')].filter((d) => d !== '' && d.length <= 255);
      linhas.push({
        data,
        valorCentavos: valor,
        descricao: descricao.slice(0, 500),
        pagador: nome === '' ? null : nome.slice(0, 200),
        conta,
        fitid,
        documentos,
      });
    }
  }
  if (linhas.length === 0) recusar('O arquivo OFX não tem transações (STMTTRN)');
  return linhas;
}

const DELIMITADORES: Readonly<Record<MapeamentoCsv['separador'], string>> = { ';': ';', ',': ',', tab: '\t' };

/**
 * A CSV export read with a column mapping: the columns are found by their header, without
 * regard to case or accents. A bank's CSV has no FITID; the mapping may name the column with the
 * bank's document number, which tells apart two credits of the same amount on the same day (and
 * matches the CHECKNUM, REFNUM or FITID of the same bank's OFX). The description never counts.
 */
export function lerCsv(conteudo: string, m: MapeamentoCsv): LinhaDoExtrato[] {
  let linhas: string[][];
  try {
    linhas = lerCsvBruto(conteudo, {
      delimiter: DELIMITADORES[m.separador],
      bom: true,
      relax_column_count: true,
      skip_empty_lines: true,
      trim: true,
    });
  } catch (e) {
    const linha = (e as { lines?: number }).lines;
    recusar(
      `O CSV está malformado${linha === undefined ? '' : ` perto da linha ${linha}`}: confira o separador e as aspas`,
    );
  }
  const [cabecalho = [], ...corpo] = linhas;
  const nomes = cabecalho.map((c) => palavrasDoNome(c).trim());
  const coluna = (rotulo: string, nome: string | null): number | null => {
    if (nome === null || nome.trim() === '') return null;
    const i = nomes.indexOf(palavrasDoNome(nome).trim());
    if (i < 0)
      recusar(`A coluna "${nome}" (${rotulo}) não está no cabeçalho do CSV; as colunas são: ${cabecalho.join(', ')}`);
    return i;
  };
  const iData = coluna('data', m.colunaData) ?? 0;
  const iValor = coluna('valor', m.colunaValor) ?? 0;
  const iDescricao = coluna('descrição', m.colunaDescricao) ?? 0;
  const iPagador = coluna('pagador', m.colunaPagador);
  const iDocumento = coluna('documento', m.colunaDocumento);
  if (corpo.length > MAXIMO_DE_LINHAS)
    recusar(`O extrato tem mais de ${MAXIMO_DE_LINHAS} linhas: exporte um período menor`);
  const saida: LinhaDoExtrato[] = [];
  corpo.forEach((celulas, i) => {
    const n = i + 2;
    const valorBruto = celulas[iValor] ?? '';
    // A line without an amount is a heading or a note of the bank's, not a transaction.
    if (valorBruto.trim() === '') return;
    const data = lerDataDoExtrato(celulas[iData] ?? '');
    const valor = lerValorDoExtrato(valorBruto);
    if (data === null) recusar(`Linha ${n}: data "${celulas[iData] ?? ''}" ilegível (use dd/mm/aaaa)`);
    if (valor === null) recusar(`Linha ${n}: valor "${valorBruto}" ilegível (use 1.234,56 ou 1234.56)`);
    const descricao = (celulas[iDescricao] ?? '').slice(0, 500);
    const pagador = iPagador === null ? '' : (celulas[iPagador] ?? '').trim();
    const documento = iDocumento === null ? '' : (celulas[iDocumento] ?? '').trim();
    if (documento.length > 255) recusar(`Linha ${n}: o número do documento tem mais de 255 caracteres`);
    saida.push({
      data,
      valorCentavos: valor,
      descricao,
      pagador: pagador === '' ? null : pagador.slice(0, 200),
      conta: null,
      fitid: null,
      documentos: documento === '' ? [] : [documento],
    });
  });
  if (saida.length === 0) recusar('O CSV não tem nenhuma linha com valor');
  return saida;
}

/** The statement's lines: OFX when the file says so, else CSV with the mapping. */
export function lerExtrato(conteudo: Buffer, mapeamento: MapeamentoCsv | null): LinhaDoExtrato[] {
  const t = textoDoExtrato(conteudo);
  if (ehOfx(t)) return lerOfx(t);
  if (mapeamento === null) {
    throw new Invalido(
      'VALIDACAO',
      'Para um CSV, diga quais colunas têm a data, o valor e a descrição (ou escolha um mapeamento salvo)',
      { colunaData: 'Obrigatório para CSV' },
    );
  }
  return lerCsv(t, mapeamento);
}

// ---------------------------------------------------------------------------------------------
// The upload form's mapping (the review's decisions and a dismissal are commands: src/comandos/financeiro.ts).
