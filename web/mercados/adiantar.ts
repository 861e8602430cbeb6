/**
 * A page's first query, started before the page is drawn: when its route matches (App.tsx
 * adiantarPagina), beside the session check and the page's code, instead of after both. The page
 * reads the answer already on its way; another visit, other arguments or a second read (a retry,
 * the next page of a list) ask the server again.
 */
import { ciclosDoMercado, lerMercadosDoCiclo } from './fluxo-mercado.ts';
import { lerEntregas, lerParaOfertar, listarMinhasOfertas } from './fluxo-fornecedor.ts';
import { listarCiclos } from './fluxo-consumidor.ts';
import { lerMercado, lerMeusAvisos, listarContas, listarMercados } from './consultas.ts';
import { lerProximosPassos } from './proximos-passos.ts';
import { visitaAtual } from './navegacao.tsx';

export interface Adiantavel<A extends readonly unknown[], T> {
  /** Starts the query for this visit (once per visit and arguments). */
  readonly adiantar: (...args: A) => void;
  /** The query started for this visit with these arguments, or a new one. */
  readonly ler: (...args: A) => Promise<T>;
}

export function adiantavel<A extends readonly unknown[], T>(consulta: (...args: A) => Promise<T>): Adiantavel<A, T> {
  // The last query started early; `lida` once the page took it (a later `adiantar` in the same visit does not ask again).
  let adiantada: {
    readonly chave: string;
    readonly visita: number;
    readonly resposta: Promise<T>;
    lida: boolean;
  } | null = null;
  const desta = (args: A) =>
    adiantada !== null && adiantada.chave === JSON.stringify(args) && adiantada.visita === visitaAtual()
      ? adiantada
      : null;
  return {
    adiantar: (...args) => {
      if (desta(args) !== null) return;
      const resposta = consulta(...args);
      // The page shows a failure when it reads it; one it never reads (the guard sent the person away) is no error of the page.
      resposta.catch(() => undefined);
      adiantada = { chave: JSON.stringify(args), visita: visitaAtual(), resposta, lida: false };
    },
    ler: (...args) => {
      const a = desta(args);
      if (a === null || a.lida) return consulta(...args);
      a.lida = true;
      return a.resposta;
    },
  };
}

/** The first query of each page whose data comes in one call (the routes start them, the pages read them). */
export const PRIMEIRAS = {
  mercados: adiantavel(listarMercados),
  passos: adiantavel(lerProximosPassos),
  mercado: adiantavel(lerMercado),
  ciclosDoMercado: adiantavel(ciclosDoMercado),
  contas: adiantavel(listarContas),
  avisos: adiantavel(lerMeusAvisos),
  ciclos: adiantavel(listarCiclos),
  ofertar: adiantavel(lerParaOfertar),
  entregas: adiantavel(lerEntregas),
  minhasOfertas: adiantavel(listarMinhasOfertas),
  mercadosDoCiclo: adiantavel(lerMercadosDoCiclo),
} as const;
