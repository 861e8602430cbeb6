import { arquivoEnviado } from '../comandos/financeiro.ts';
import type { ArquivoRecebido } from '../domain/financeiro.ts';
import { comoEntrada, type Entrada } from '../http/campos.ts';

/**
 * A multipart form as the Cestas routes receive it (`attachFieldsToBody: 'keyValues'`, with an
 * `onFile` that reads the file into `{ nome, conteudo }` under its field, `arquivo`): the file,
 * checked rather than cast, apart from the form's other fields.
 */
export interface FormularioComArquivo {
  /** The file sent; null when none was (an empty file input sends zero bytes). */
  readonly arquivo: ArquivoRecebido | null;
  readonly campos: Entrada;
}

export function formularioComArquivo(corpo: unknown): FormularioComArquivo {
  const { arquivo, ...campos } = comoEntrada(corpo);
  return { arquivo: arquivoEnviado(arquivo), campos };
}
