/**
 * The reports' choice (POST /pedidosfornecedoresciclos, /pedidosconsumidoresciclos,
 * /relatorioprodutosciclos, and the `ciclos` of a download's query): the cycles, 1 to 20, and
 * optionally one market of theirs. A read, not a write, but read as every command is: one schema,
 * every refusal at once.
 */
import { IdOpcional, Ids, Objeto } from './leitor/blocos.ts';
import { comandoDeObjeto } from './objeto.ts';

/** At most as many cycles as a report takes (the session keeps as many). */
export const MAXIMO_DE_CICLOS = 20;
const ESCOLHA_RECUSADA = `Escolha de 1 a ${MAXIMO_DE_CICLOS} ciclos válidos`;

export interface EscolhaDoRelatorio {
  /** Each cycle once, in the order chosen. */
  readonly ciclos: readonly number[];
  readonly mercadoId: number | null;
}

export const EscolherCiclos = comandoDeObjeto(
  'EscolherCiclos',
  Objeto({
    ciclos: Ids(
      `De 1 a ${MAXIMO_DE_CICLOS} ciclos: lista, campo repetido (ciclos=1&ciclos=2) ou "1,2"`,
      ESCOLHA_RECUSADA,
    ),
    cicloid: IdOpcional('Um ciclo só (o nome que o resto da interface usa); sem `ciclos`'),
    mercadoId: IdOpcional(
      'Só este mercado dos ciclos escolhidos (o que foi comprado ou entregue nele); um mercado que não atende os ciclos dá 400',
    ),
  }),
  {
    // One cycle may come as `cicloid`; it is then the choice, and its refusal is the choice's.
    preparar: ({ ciclos, cicloid, ...resto }) =>
      ciclos === undefined && cicloid !== undefined ? { ...resto, ciclos: cicloid } : { ...resto, ciclos },
    montar: (c, recusas): EscolhaDoRelatorio => {
      const ciclos = [...new Set(Array.isArray(c.ciclos) ? c.ciclos : [])];
      if (recusas.legivel(['ciclos']) && (ciclos.length === 0 || ciclos.length > MAXIMO_DE_CICLOS))
        recusas.juntar(['ciclos'], ESCOLHA_RECUSADA);
      return { ciclos, mercadoId: c.mercadoId ?? null };
    },
  },
);
