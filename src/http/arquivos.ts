import type { FastifyReply } from 'fastify';
import type { Relatorio } from '../domain/relatorios/modelo.ts';
import { relatorioParaCsv } from '../planilhas/csv.ts';
import { TIPO_XLSX, relatorioParaXlsx } from '../planilhas/xlsx.ts';

/**
 * A report sent as a file, the same way by both faces: the spreadsheet people open (XLSX) or the
 * contract's CSV, as an attachment with a name safe for Content-Disposition.
 */

/** The files a report can be downloaded as. */
export const FORMATOS_DE_ARQUIVO = ['xlsx', 'csv'] as const;
export type FormatoDeArquivo = (typeof FORMATOS_DE_ARQUIVO)[number];

/** A file name safe for Content-Disposition: the base, then the parts without accents or symbols. */
export function nomeDeArquivo(base: string, partes: readonly string[]): string {
  const limpo = partes
    .join('-')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
  return `${base}${limpo === '' ? '' : `-${limpo}`}`;
}

/** The report as an attachment: the spreadsheet people open, or the contract's CSV. */
export async function enviarRelatorio(
  reply: FastifyReply,
  r: Relatorio,
  formato: FormatoDeArquivo,
  nome: string,
): Promise<FastifyReply> {
  if (formato === 'csv')
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${nome}.csv"`)
      .send(relatorioParaCsv(r));
  return reply
    .type(TIPO_XLSX)
    .header('content-disposition', `attachment; filename="${nome}.xlsx"`)
    .send(Buffer.from(await relatorioParaXlsx(r)));
}
