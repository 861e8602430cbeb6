/**
 * The edge's readers for the markets of a cycle (src/domain/mercados-do-ciclo.ts): JSON bodies and
 * forms, with the same field names. Lists of ids come as JSON arrays or as repeated form values.
 */
import { regrasDoLoteDoCiclo, type LoteLido } from '../domain/mercados-do-ciclo/lote.ts';
import type { LiberacaoLida } from '../domain/mercados-do-ciclo/venda-direta.ts';
import { ESCALA_DINHEIRO, MAXIMO_LANCAMENTO_CENTAVOS } from '../decimal.ts';
import { Campos, MAIOR_ID, comoEntrada } from '../http/campos.ts';
import { lerItens, semQuantidade } from './entrada.ts';

/** POST /ciclo/:id/mercado/:mercadoId/liberar: `itens: [{produtoId, quantidade}]`; a blank or zero quantity is "not released". */
export function lerLiberacao(corpo: unknown): LiberacaoLida[] {
  const c = new Campos(comoEntrada(corpo));
  const itens = lerItens(
    c,
    'itens',
    { maximo: 500, pular: semQuantidade('quantidade', true) },
    (s, campo): LiberacaoLida => ({
      produtoId: s.inteiro('produtoId', { obrigatorio: true, min: 1, max: MAIOR_ID }),
      quantidadeMilesimos: s.quantidadeEscrita('quantidade', { obrigatorio: true, min: 1, max: 10_000_000 }).milesimos,
      campo,
    }),
  );
  c.concluir();
  return itens;
}

/** POST /ciclo/:id/lotes[/:loteId]: a lot for a named buyer, with its offer lines. */
export function lerLote(corpo: unknown): LoteLido {
  const c = new Campos(comoEntrada(corpo));
  const mercadoId = c.inteiro('mercadoId', { obrigatorio: true, min: 1, max: MAIOR_ID });
  const comprador = c.texto('comprador', { obrigatorio: true, max: 200 });
  const compradorUsuarioId = c.inteiro('compradorUsuarioId', { min: 1, max: MAIOR_ID });
  const pontoEntregaId = c.inteiro('pontoEntregaId', { obrigatorio: true, min: 1, max: MAIOR_ID });
  const valorAlvoCentavos = c.decimal('valorAlvo', ESCALA_DINHEIRO, {
    obrigatorio: true,
    min: 1,
    max: MAXIMO_LANCAMENTO_CENTAVOS,
  });
  const linhas = lerItens(c, 'linhas', { maximo: 500, pular: semQuantidade('quantidade', false) }, (s, campo) => ({
    ofertaProdutoId: s.inteiro('ofertaProdutoId', { obrigatorio: true, min: 1, max: MAIOR_ID }),
    quantidadeMilesimos: s.quantidadeEscrita('quantidade', { obrigatorio: true, min: 1, max: 10_000_000 }).milesimos,
    campo,
  }));
  const lote = { mercadoId, comprador, compradorUsuarioId, pontoEntregaId, valorAlvoCentavos, linhas };
  if (Object.keys(c.erros).length === 0) c.juntar(regrasDoLoteDoCiclo(lote));
  c.concluir();
  return lote;
}
