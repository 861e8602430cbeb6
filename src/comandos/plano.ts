/**
 * A command of one flat object: a record's fields, with no rows and nobody named (no ownership to
 * check first). Its schema is read; when reading fails, the domain's rules on the fields that could
 * be read are said beside the refusals, so a form shows every problem at once (when reading
 * succeeds, the use case applies the same rules once).
 */
import type { TSchema } from '@sinclair/typebox';
import { comando, type Comando } from './comando.ts';
import { Objeto } from './leitor/blocos.ts';
import { Recusas, compilar, comoObjeto } from './leitor/leitura.ts';

type Lido<P extends Record<string, TSchema>> = { [K in keyof P]: P[K]['static'] };

/** Declares a flat command: its fields (those in `obrigatorios` must be sent), its rules, and the domain's input. */
export function comandoPlano<P extends Record<string, TSchema>, T>(
  nome: string,
  campos: P,
  obrigatorios: ReadonlyArray<keyof P & string>,
  c: {
    /** The domain's rules on what was read, by field; `legivel` says whether a field could be read. */
    readonly regras?: (
      lido: Lido<P>,
      legivel: (campo: keyof P & string) => boolean,
    ) => Readonly<Record<string, string>>;
    readonly paraDominio: (lido: Lido<P>) => T;
  },
): Comando<T> {
  const esquema = Objeto(campos, obrigatorios);
  const lido = compilar<Lido<P>>(esquema);
  return comando<T>(nome, esquema, {
    raizes: Object.keys(campos),
    donos: () => [],
    ler(dados, nomear) {
      const recusas = new Recusas();
      const campos = lido.validar(comoObjeto(dados), recusas);
      if (!recusas.vazia) {
        const regras = c.regras?.(campos, (campo) => recusas.legivel([campo])) ?? {};
        for (const [campo, mensagem] of Object.entries(regras)) recusas.juntar([campo], mensagem);
        recusas.recusar(nomear);
      }
      return c.paraDominio(campos);
    },
  });
}
