/**
 * Salvar um lote (POST /ciclo/:id/lotes, /ciclo/:id/lotes/:loteId): a lot of a lote market of the
 * cycle, for a named buyer, with its target value and the offer lines drawn into it.
 */
import { MAXIMO_LANCAMENTO_CENTAVOS } from '../decimal.ts';
import type { LoteLido } from '../domain/mercados-do-ciclo/lote.ts';
import { comando } from './comando.ts';
import { Centavos, Id, IdOpcional, Linhas, Milesimos, Objeto, Texto } from './leitor/blocos.ts';
import { Recusas, compilar, comoObjeto, linhasDe } from './leitor/leitura.ts';

const LinhaDoLote = Objeto(
  {
    ofertaProdutoId: Id('A linha da oferta'),
    quantidade: Milesimos('Quanto dela vai no lote, na unidade do produto', {
      obrigatorio: true,
      min: 1,
      max: 10_000_000,
      unidade: true,
    }),
  },
  ['ofertaProdutoId', 'quantidade'],
);

const esquema = Objeto(
  {
    mercadoId: Id('Um mercado do tipo lote do ciclo'),
    comprador: Texto('Quem compra', { obrigatorio: true, max: 200 }),
    compradorUsuarioId: IdOpcional('O cadastro de quem compra'),
    pontoEntregaId: Id('Onde entrega'),
    valorAlvo: Centavos('Valor-alvo', { obrigatorio: true, min: 1, max: MAXIMO_LANCAMENTO_CENTAVOS }),
    linhas: Linhas(LinhaDoLote, 'As linhas do lote (a lista inteira); uma linha sem quantidade fica de fora', {
      maximo: 500,
      pular: { semQuantidade: 'quantidade', zeroDoJson: false },
    }),
  },
  ['mercadoId', 'comprador', 'pontoEntregaId', 'valorAlvo'],
);

const lido = compilar<typeof esquema.static>(esquema);

export const SalvarLote = comando<LoteLido>('SalvarLote', esquema, {
  raizes: ['mercadoId', 'comprador', 'compradorUsuarioId', 'pontoEntregaId', 'valorAlvo', 'linhas'],
  donos: () => [],
  ler(dados, nomear) {
    const recusas = new Recusas();
    const c = lido.validar(comoObjeto(dados), recusas);
    // The lot's own rules (lines, no line twice) are the use case's, once the fields are read.
    if (!recusas.vazia) recusas.recusar(nomear);
    return {
      mercadoId: c.mercadoId,
      comprador: c.comprador,
      compradorUsuarioId: c.compradorUsuarioId ?? null,
      pontoEntregaId: c.pontoEntregaId,
      valorAlvoCentavos: c.valorAlvo,
      linhas: linhasDe<typeof LinhaDoLote.static>(c.linhas).map(({ linha, indice }) => ({
        ofertaProdutoId: linha.ofertaProdutoId,
        quantidadeMilesimos: linha.quantidade,
        campo: nomear(['linhas', indice]),
      })),
    };
  },
});
