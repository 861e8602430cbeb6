/**
 * Rules about the text the domain keeps, on values already typed: how a text is stored and how
 * long it may be, what an e-mail address is, and the key that makes a name unique. The edge's
 * readers apply them to what arrives (src/http/campos.ts); the domain applies them to what it is
 * handed from elsewhere, such as a login provider's profile.
 */

export { EMAIL } from '../email.ts';

/** Key used for case- and space-insensitive uniqueness of names. */
export function chaveDeNome(nome: string): string {
  return nome.normalize('NFC').trim().replace(/\s+/g, ' ').toLocaleLowerCase('pt-BR');
}

/**
 * A text as it is stored (NFC, trimmed), and what is wrong with it, if anything: more than `max`
 * characters, fewer than `min`, or control characters.
 */
export function conferirTexto(
  v: string,
  limites: { readonly max: number; readonly min?: number | undefined },
): { readonly texto: string; readonly problema: string | null } {
  const { max, min } = limites;
  // NOTE: lengths before any other work or pattern, so an oversized value costs nothing more.
  // (A code point takes at most two UTF-16 units, so past 2×max it is too long for sure.)
  if (v.length > 2 * max) return { texto: '', problema: `Deve ter no máximo ${max} caracteres` };
  const texto = v.normalize('NFC').trim();
  const tamanho = [...texto].length;
  if (tamanho > max) return { texto, problema: `Deve ter no máximo ${max} caracteres` };
  if (min !== undefined && tamanho < min) return { texto, problema: `Deve ter pelo menos ${min} caracteres` };
  // NOTE: control characters have no place in names or addresses and break CSV and PDF output.
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(texto))
    return { texto, problema: 'Contém caracteres de controle' };
  return { texto, problema: null };
}
