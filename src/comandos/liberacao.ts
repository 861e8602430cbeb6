/**
 * Liberar sobras para um mercado (POST /ciclo/:id/mercado/:mercadoId/liberar): what a venda_direta
 * market sells of the cycle's surplus, the whole list; a blank or zero quantity is "not released".
 */
import type { LiberacaoLida } from '../domain/mercados-do-ciclo/venda-direta.ts';
import { comando } from './comando.ts';
import { Id, Linhas, Milesimos, Objeto } from './leitor/blocos.ts';
import { Recusas, compilar, comoObjeto, linhasDe } from './leitor/leitura.ts';

const ItemLiberado = Objeto(
  {
    produtoId: Id('O produto'),
    quantidade: Milesimos('Quanto liberar, na unidade do produto', {
      obrigatorio: true,
      min: 1,
      max: 10_000_000,
      unidade: true,
    }),
  },
  ['produtoId', 'quantidade'],
);

const esquema = Objeto({
  itens: Linhas(ItemLiberado, 'O que liberar (a lista inteira); uma linha sem quantidade (ou 0) fica de fora', {
    maximo: 500,
    pular: { semQuantidade: 'quantidade', zeroDoJson: true },
  }),
});

const lido = compilar<typeof esquema.static>(esquema);

export const LiberarParaMercado = comando<LiberacaoLida[]>('LiberarParaMercado', esquema, {
  raizes: ['itens'],
  donos: () => [],
  ler(dados, nomear) {
    const recusas = new Recusas();
    const c = lido.validar(comoObjeto(dados), recusas);
    // A product named twice is the use case's to refuse, once the rows are read.
    if (!recusas.vazia) recusas.recusar(nomear);
    return linhasDe<typeof ItemLiberado.static>(c.itens).map(({ linha, indice }) => ({
      produtoId: linha.produtoId,
      quantidadeMilesimos: linha.quantidade,
      campo: nomear(['itens', indice]),
    }));
  },
});
