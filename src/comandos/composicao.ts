/**
 * Compor uma cesta do ciclo (POST /composicao/:id, /composicaosave): how many baskets to make, and
 * what goes in each, line by line from the cycle's offers. The basket is the route's; on
 * /composicaosave the body names it (`cicloCestaId`).
 */
import { regrasDosItens, type EntradaComposicao, type ItemDaComposicao } from '../domain/composicao.ts';
import { Invalido } from '../domain/erros.ts';
import { comando } from './comando.ts';
import { IdOpcional, Id, Inteiro, Linhas, Milesimos, Objeto, Texto } from './leitor/blocos.ts';
import { MAIOR_ID } from './leitor/comum.ts';
import { Recusas, compilar, comoObjeto, linhasDe } from './leitor/leitura.ts';
import { idNomeado } from './leitor/palavras.ts';

const ItemDaCesta = Objeto(
  {
    ofertaProdutoId: Id('A linha da oferta'),
    quantidadePorCesta: Milesimos('Quantidade por cesta', { obrigatorio: true, min: 1 }),
    unidade: Texto('A unidade em que a quantidade foi escrita', { obrigatorio: true, max: 20 }),
  },
  ['ofertaProdutoId', 'quantidadePorCesta', 'unidade'],
);

const esquema = Objeto(
  {
    cicloCestaId: IdOpcional('A cesta do ciclo (em /composicaosave; no endereço, a do endereço)'),
    quantidadeCestas: Inteiro('Quantas cestas montar', { obrigatorio: true, min: 0, max: 100_000 }),
    produtos: Linhas(ItemDaCesta, 'Os itens de cada cesta (a lista inteira); uma linha sem quantidade fica de fora', {
      maximo: 500,
      excesso: 'No máximo 500 itens por composição',
      pular: { semQuantidade: 'quantidadePorCesta', zeroDoJson: false },
    }),
  },
  ['quantidadeCestas'],
);

const lido = compilar<typeof esquema.static>(esquema);

/** The composition as the body says it; the basket may be left to the route (null). */
export type ComposicaoLida = Omit<EntradaComposicao, 'cicloCestaId'> & { readonly cicloCestaId: number | null };

export const ComporCesta = comando<ComposicaoLida>('ComporCesta', esquema, {
  raizes: ['cicloCestaId', 'quantidadeCestas', 'produtos'],
  donos: () => [],
  ler(dados, nomear) {
    const recusas = new Recusas();
    const c = lido.validar(comoObjeto(dados), recusas);
    const itens = linhasDe<typeof ItemDaCesta.static>(c.produtos).map(
      ({ linha, indice }): ItemDaComposicao & { indice: number } => ({
        ofertaProdutoId: linha.ofertaProdutoId,
        quantidadeMilesimos: linha.quantidadePorCesta,
        unidade: linha.unidade,
        campo: nomear(['produtos', indice]),
        indice,
      }),
    );
    if (!recusas.vazia) {
      // The basket's rule on the rows that could be read, so a form shows every problem at once.
      recusas.juntarNomeados(regrasDosItens(itens.filter((i) => recusas.legivel(['produtos', i.indice]))));
      recusas.recusar(nomear);
    }
    return {
      cicloCestaId: c.cicloCestaId ?? null,
      quantidadeCestas: c.quantidadeCestas,
      itens: itens.map(({ indice: _, ...i }) => i),
    };
  },
});

/** The composition of the route's basket (null: the body's), refused when the body names another. */
export function naCesta(c: ComposicaoLida, idDaRota: number | null): EntradaComposicao {
  const cicloCestaId = idDaRota ?? c.cicloCestaId;
  if (cicloCestaId === null)
    throw new Invalido('VALIDACAO', 'Verifique os campos destacados', { cicloCestaId: 'Campo obrigatório' });
  if (c.cicloCestaId !== null && c.cicloCestaId !== cicloCestaId)
    throw new Invalido('VALIDACAO', 'Verifique os campos destacados', { cicloCestaId: 'Não confere com o endereço' });
  return { ...c, cicloCestaId };
}

/** The basket a body names (`cicloCestaId`), as sent or as read; null when it names none that is an id. */
export function cestaNomeada(corpo: unknown): number | null {
  const id = idNomeado(comoObjetoOuNada(corpo).cicloCestaId);
  return id !== null && id >= 1 && id <= MAIOR_ID ? id : null;
}

const comoObjetoOuNada = (corpo: unknown): Readonly<Record<string, unknown>> =>
  corpo !== null && typeof corpo === 'object' && !Array.isArray(corpo) ? (corpo as Record<string, unknown>) : {};
