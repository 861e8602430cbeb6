/**
 * What a refused offer or order form was for, to draw its page again. (Every write, and the
 * reports' choice, is a command read in src/comandos, ownership first.)
 */
import { Campos, MAIOR_ID, comoEntrada, type Entrada } from '../http/campos.ts';

// The form parsers mark a body typed by people; the commands and the readers here read its decimals so.
export { digitadoPorPessoas } from '../comandos/leitor/comum.ts';

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
