/**
 * The Cestas edge for the cycle's writes, the list pages' queries and the reports' choices: a
 * JSON body and a form body (qs bracket keys, blank spare rows, checkboxes) become the same typed
 * values in integer units here, before the domain sees them. Each reader collects every bad field
 * at once and throws one Invalido. (The writes converted to commands are read in src/comandos,
 * ownership first.)
 */
import { Invalido } from '../domain/erros.ts';
import { Campos, MAIOR_ID, comoEntrada, type Entrada } from '../http/campos.ts';

// The form parsers mark a body typed by people; the commands and the readers here read its decimals so.
export { digitadoPorPessoas } from '../comandos/leitor.ts';

/**
 * The contract writes a resource's own fields nested (`oferta.cicloid`, `pedido.pontoEntregaId`)
 * beside its `produtos[]`; a program may send that shape or the flat one, and both read the same
 * here (the command refuses a field given both ways with different values).
 */
function corpoDoRecurso(corpo: unknown, recurso: 'oferta' | 'pedido'): Campos {
  const { [recurso]: dentro, ...fora } = comoEntrada(corpo);
  if (dentro === undefined) return new Campos(fora);
  if (dentro === null || typeof dentro !== 'object' || Array.isArray(dentro)) {
    const c = new Campos(fora);
    c.erro(recurso, 'Deve ser um objeto');
    return c;
  }
  return new Campos({ ...fora, ...(dentro as Entrada) });
}

/**
 * The cycle and the person a refused offer or order form was for (either body shape), to draw its
 * page again; null when the body names no valid cycle or person, and so has no page.
 */
export function alvoDoCorpo(
  corpo: unknown,
  recurso: 'oferta' | 'pedido',
): { readonly cicloid: number; readonly usuarioid: number | null } | null {
  const c = corpoDoRecurso(corpo, recurso);
  const cicloid = c.inteiro('cicloid', { min: 1, max: MAIOR_ID });
  const usuarioid = c.inteiro('usuarioid', { min: 1, max: MAIOR_ID });
  return cicloid === null || Object.keys(c.erros).length > 0 ? null : { cicloid, usuarioid };
}

/** The cycles of a report: `ciclos` from a form (repeated or bracketed), a JSON array, or "1,2" text; 1 to 20 ids. */
export function lerCiclos(entrada: Entrada, chave = 'ciclos'): number[] {
  const bruto = new Campos(entrada).bruto(chave);
  const itens = Array.isArray(bruto)
    ? bruto
    : typeof bruto === 'string'
      ? bruto.split(',')
      : typeof bruto === 'number'
        ? [bruto]
        : bruto !== null && typeof bruto === 'object'
          ? Object.values(bruto)
          : [];
  const ids = [
    ...new Set(
      itens.map((v) =>
        typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,9}$/.test(v.trim()) ? Number(v) : NaN,
      ),
    ),
  ];
  if (ids.length === 0 || ids.length > 20 || ids.some((i) => !Number.isSafeInteger(i) || i < 1 || i > MAIOR_ID)) {
    throw new Invalido('VALIDACAO', 'Escolha de 1 a 20 ciclos', { [chave]: 'Escolha de 1 a 20 ciclos válidos' });
  }
  return ids;
}

/** A report's optional market (`mercadoId`): only what was bought in it. */
export function lerMercadoDoRelatorio(entrada: Entrada): number | null {
  const c = new Campos(entrada);
  const mercadoId = c.inteiro('mercadoId', { min: 1, max: MAIOR_ID });
  c.concluir();
  return mercadoId;
}
