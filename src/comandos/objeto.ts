/**
 * A command whose input is one object of fields (no list of rows to read around the domain's
 * rules): its schema, compiled once, then what the command makes of the fields read, where it
 * may refuse more (a period's end before its start). Every refusal goes out at once.
 */
import type { TSchema } from '@sinclair/typebox';
import { comando, type Comando } from './comando.ts';
import { Recusas, compilar, comoObjeto } from './leitor/leitura.ts';

export function comandoDeObjeto<S extends TSchema, T>(
  nome: string,
  esquema: S,
  c: {
    /** The people the input names (none, unless said). */
    readonly donos?: (dados: unknown) => ReadonlyArray<number | null>;
    /** What the input says before it is read, where a field is told apart from how it came (a copy). */
    readonly preparar?: (dados: Readonly<Record<string, unknown>>) => Record<string, unknown>;
    /** The command from the fields read; `recusas` holds what was refused so far, and takes more. */
    readonly montar: (lido: S['static'], recusas: Recusas) => T;
  },
): Comando<T> {
  const esquemaCompilado = compilar<S['static']>(esquema);
  return comando<T>(nome, esquema, {
    raizes: Object.keys((esquema as { properties?: object }).properties ?? {}),
    donos: c.donos ?? (() => []),
    ler(dados, nomear) {
      const recusas = new Recusas();
      const objeto = comoObjeto(dados);
      const lido = c.montar(esquemaCompilado.validar(c.preparar?.(objeto) ?? objeto, recusas), recusas);
      if (!recusas.vazia) recusas.recusar(nomear);
      return lido;
    },
  });
}
