/**
 * The edge's readers for the markets of a cycle (src/domain/mercados-do-ciclo.ts): JSON bodies and
 * forms, with the same field names. Lists of ids come as JSON arrays or as repeated form values.
 */
import type { CicloMercadoLido, LiberacaoLida, LoteLido } from '../domain/mercados-do-ciclo.ts';
import { regrasDoLoteDoCiclo, regrasDosMercadosDoCiclo } from '../domain/mercados-do-ciclo.ts';
import { ESCALA_DINHEIRO, MAXIMO_LANCAMENTO_CENTAVOS } from '../decimal.ts';
import { Campos, MAIOR_ID, comoEntrada } from '../http/campos.ts';
import { lerItens, semQuantidade } from './entrada.ts';

/** A list of record ids: a JSON array, one form value, or repeated form values; blanks ignored. */
function ids(c: Campos, nome: string): number[] {
  const bruto = c.bruto(nome);
  const itens = bruto === undefined || bruto === null || bruto === '' ? [] : Array.isArray(bruto) ? bruto : typeof bruto === 'object' ? Object.values(bruto) : [bruto];
  const lidos: number[] = [];
  for (const v of itens) {
    if (v === '') continue;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,12}$/.test(v.trim()) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < 1 || n > MAIOR_ID) {
      c.erro(nome, 'Deve ser uma lista de ids');
      return [];
    }
    lidos.push(n);
  }
  return lidos;
}

/**
 * POST /ciclo/:id/mercados: `cicloMercados: [{mercadoId, ordemAtendimento, pontoEntregaIds,
 * cicloCestaIds}]`. A form row is a market that the page lists; its box `incluir` says whether the
 * cycle serves it.
 */
export function lerMercadosDoCiclo(corpo: unknown): CicloMercadoLido[] {
  const c = new Campos(comoEntrada(corpo));
  // The whole list, always: an empty one (no markets) is said, never assumed from a missing field.
  if (c.bruto('cicloMercados') === undefined) c.erro('cicloMercados', 'Campo obrigatório: a lista dos mercados do ciclo (vazia: nenhum)');
  // A form row's box comes after a hidden "false": ticked, both arrive, as a list.
  const marcado = (v: unknown): boolean => v === 'on' || v === 'true' || v === true || (Array.isArray(v) && v.some(marcado));
  const itens = lerItens(c, 'cicloMercados', { maximo: 50, pular: (item) => Object.hasOwn(item, 'incluir') && !marcado(item.incluir) }, (s, campo): CicloMercadoLido => ({
    mercadoId: s.inteiro('mercadoId', { obrigatorio: true, min: 1, max: MAIOR_ID }),
    ordemAtendimento: s.inteiro('ordemAtendimento', { obrigatorio: true, min: 1, max: 1000 }),
    pontoEntregaIds: ids(s, 'pontoEntregaIds'),
    cicloCestaIds: ids(s, 'cicloCestaIds'),
    campo,
  }));
  c.juntar(regrasDosMercadosDoCiclo(itens));
  c.concluir();
  return itens;
}

/** POST /ciclo/:id/mercado/:mercadoId/liberar: `itens: [{produtoId, quantidade}]`; a blank or zero quantity is "not released". */
export function lerLiberacao(corpo: unknown): LiberacaoLida[] {
  const c = new Campos(comoEntrada(corpo));
  const itens = lerItens(c, 'itens', { maximo: 500, pular: semQuantidade('quantidade', true) }, (s, campo): LiberacaoLida => ({
    produtoId: s.inteiro('produtoId', { obrigatorio: true, min: 1, max: MAIOR_ID }),
    quantidadeMilesimos: s.quantidadeEscrita('quantidade', { obrigatorio: true, min: 1, max: 10_000_000 }).milesimos,
    campo,
  }));
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
  const valorAlvoCentavos = c.decimal('valorAlvo', ESCALA_DINHEIRO, { obrigatorio: true, min: 1, max: MAXIMO_LANCAMENTO_CENTAVOS });
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
