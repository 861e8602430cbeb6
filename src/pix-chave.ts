/**
 * The community's Pix receiver and the rules its configuration must follow: what a Pix key is
 * (DICT's five kinds) and what fits in a BR Code's name and city fields. Pure, with no library,
 * so the configuration can check them at start: it sits beside config.ts, below the domain, and
 * imports nothing of the application but the e-mail pattern.
 */
import { EMAIL } from './email.ts';

export const TIPOS_DE_CHAVE = ['cpf', 'cnpj', 'email', 'telefone', 'aleatoria'] as const;
export type TipoDeChave = (typeof TIPOS_DE_CHAVE)[number];

export interface RecebedorPix {
  /** The key as DICT stores it: digits for CPF and CNPJ, +55… for a phone, lower case otherwise. */
  readonly chave: string;
  readonly tipo: TipoDeChave;
  readonly nome: string;
  readonly cidade: string;
}

/** The BR Code's limits (Manual de Padrões para Iniciação do Pix, EMV fields 59, 60 and 26-01). */
export const LIMITES_DO_BR_CODE = { nome: 25, cidade: 15, chave: 77 } as const;

function digitoVerificador(digitos: string, pesos: readonly number[]): number {
  const soma = pesos.reduce((t, p, i) => t + p * Number(digitos[i]), 0);
  const resto = soma % 11;
  return resto < 2 ? 0 : 11 - resto;
}

/** A CPF's two check digits are right, and it is not one digit repeated. */
export function cpfValido(cpf: string): boolean {
  if (!/^\d{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  const d1 = digitoVerificador(cpf, [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = digitoVerificador(cpf, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d1 === Number(cpf[9]) && d2 === Number(cpf[10]);
}

/** A CNPJ's two check digits are right, and it is not one digit repeated. */
export function cnpjValido(cnpj: string): boolean {
  if (!/^\d{14}$/.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return false;
  const d1 = digitoVerificador(cnpj, [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  const d2 = digitoVerificador(cnpj, [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d1 === Number(cnpj[12]) && d2 === Number(cnpj[13]);
}

const ALEATORIA = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * A Pix key as written by a person, in its DICT form, or null when it is none of the five kinds.
 * A phone must carry +55 (eleven bare digits are a CPF, as DICT reads them).
 */
export function lerChavePix(bruta: string): { chave: string; tipo: TipoDeChave } | null {
  const texto = bruta.trim();
  if (/^\+55\d{10,11}$/.test(texto.replace(/[\s()-]/g, '')))
    return { chave: texto.replace(/[\s()-]/g, ''), tipo: 'telefone' };
  if (/^[\d.\-/\s]+$/.test(texto)) {
    const digitos = texto.replace(/\D/g, '');
    if (cpfValido(digitos)) return { chave: digitos, tipo: 'cpf' };
    if (cnpjValido(digitos)) return { chave: digitos, tipo: 'cnpj' };
    return null;
  }
  const minusculo = texto.toLowerCase();
  if (ALEATORIA.test(minusculo)) return { chave: minusculo, tipo: 'aleatoria' };
  if (EMAIL.test(minusculo) && minusculo.length <= LIMITES_DO_BR_CODE.chave) return { chave: minusculo, tipo: 'email' };
  return null;
}

/** How a name or city is written in the BR Code: no accents, upper case (what banks show). */
export function textoDoBrCode(texto: string): string {
  return texto
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .trim();
}

/** Why the receiver's name or city cannot go in a BR Code, or null when both fit. */
export function regraDoRecebedor(nome: string, cidade: string): string | null {
  for (const [variavel, texto, maximo] of [
    ['PIX_NOME', nome, LIMITES_DO_BR_CODE.nome],
    ['PIX_CIDADE', cidade, LIMITES_DO_BR_CODE.cidade],
  ] as const) {
    const escrito = textoDoBrCode(texto);
    if (escrito.length > maximo)
      return `${variavel} deve ter no máximo ${maximo} caracteres, como o Pix exige (recebido "${texto}", ${escrito.length})`;
    if (!/^[\x20-\x7e]+$/.test(escrito))
      return `${variavel} deve ter só letras, números e pontuação comum (recebido "${texto}")`;
  }
  return null;
}
