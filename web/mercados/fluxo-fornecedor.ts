/**
 * The supplier's side of the cycle workflow (issue 18): the GraphQL documents and types of the
 * offer and deliveries pages, and the quantities and dates they show. Quantities travel as dot
 * decimals with 3 places ("12.500"); people type and read commas ("12,5").
 */
import { graphql } from './api.ts';
import { CAMPOS_CICLO_COM_DATAS, type CicloComDatas } from './ciclo-comum.ts';
import { dataBr } from './formatos.ts';

/** A day suppliers deliver on (AAAA-MM-DD), with the coordination's note ("entregar na Sede até 17h"). */
export interface DiaDeEntrega {
  readonly dataEntrega: string;
  readonly observacao: string | null;
}

/** A cycle with what the page needs of it: dates in AAAA-MM-DD, the open windows, what the person may do, the delivery days. */
export interface CicloResumo extends CicloComDatas {
  readonly acoes: { readonly ofertar: boolean };
  readonly diasDeEntrega: readonly DiaDeEntrega[];
}

export interface LinhaDaOferta {
  readonly ofertaProdutoId: string;
  readonly produtoid: string;
  readonly nome: string;
  readonly unidade: string;
  readonly quantidade: string;
  readonly valor: string;
  readonly alocado: string;
}

export interface Oferta {
  readonly id: string | null;
  readonly cicloId: string;
  readonly finalizada: boolean;
  readonly finalizadaEm: string | null;
  readonly total: string;
  readonly produtos: readonly LinhaDaOferta[];
}

export interface ProdutoParaOfertar {
  readonly produtoid: string;
  readonly nome: string;
  readonly unidade: string;
  readonly categoria: string | null;
  readonly valorReferencia: string;
  readonly ofertadoAntes: boolean;
}

export interface EntregaNoMercado {
  readonly mercadoId: string | null;
  readonly mercado: string | null;
  readonly pedido: string;
  readonly valorPedido: string;
}

export interface Entrega {
  readonly ofertaProdutoId: string;
  readonly produtoId: string;
  readonly produto: string;
  readonly unidade: string;
  readonly valor: string;
  readonly ofertado: string;
  readonly planejado: string;
  readonly pedido: string;
  readonly valorPedido: string;
  readonly mercados: readonly EntregaNoMercado[];
}

export interface OfertaComCiclo {
  readonly cicloId: string;
  readonly finalizada: boolean;
  readonly finalizadaEm: string | null;
  readonly total: string;
  readonly ciclo: CicloResumo;
}

/** One line sent to salvarOferta: dot decimals. */
export interface LinhaParaSalvar {
  readonly produtoid: string;
  readonly quantidade: string;
  readonly valor: string;
}

const CICLO = `${CAMPOS_CICLO_COM_DATAS} acoes { ofertar } diasDeEntrega { dataEntrega observacao }`;
const OFERTA =
  'id cicloId finalizada finalizadaEm total produtos { ofertaProdutoId produtoid nome unidade quantidade valor alocado }';

/** The offer page's data: the cycle (null: none with this id), the own offer (null: none yet) and the products. */
export async function lerParaOfertar(
  cicloId: string,
): Promise<{ ciclo: CicloResumo | null; oferta: Oferta | null; produtos: readonly ProdutoParaOfertar[] }> {
  const { ciclo } = await graphql<{ ciclo: CicloResumo | null }>(`query($id: ID!) { ciclo(id: $id) { ${CICLO} } }`, {
    id: cicloId,
  });
  if (ciclo === null) return { ciclo, oferta: null, produtos: [] };
  const d = await graphql<{ minhaOferta: Oferta | null; produtosParaOfertar: ProdutoParaOfertar[] }>(
    `query($c: ID!) { minhaOferta(cicloId: $c) { ${OFERTA} } produtosParaOfertar { produtoid nome unidade categoria valorReferencia ofertadoAntes } }`,
    { c: cicloId },
  );
  return { ciclo, oferta: d.minhaOferta, produtos: d.produtosParaOfertar };
}

/** salvarOferta: the whole list of lines, as a draft or final. */
export async function gravarOferta(
  cicloId: string,
  produtos: readonly LinhaParaSalvar[],
  finalizar: boolean,
): Promise<Oferta> {
  const d = await graphql<{ salvarOferta: Oferta }>(
    `mutation($c: ID!, $i: OfertaInput!, $f: Boolean) { salvarOferta(cicloId: $c, input: $i, finalizar: $f) { ${OFERTA} } }`,
    { c: cicloId, i: { produtos }, f: finalizar },
  );
  return d.salvarOferta;
}

/** The deliveries page's data: the cycle (null: none) and what to deliver, by line and market. */
export async function lerEntregas(
  cicloId: string,
): Promise<{ ciclo: CicloResumo | null; entregas: readonly Entrega[] }> {
  const { ciclo } = await graphql<{ ciclo: CicloResumo | null }>(`query($id: ID!) { ciclo(id: $id) { ${CICLO} } }`, {
    id: cicloId,
  });
  if (ciclo === null) return { ciclo, entregas: [] };
  const d = await graphql<{ minhasEntregas: Entrega[] }>(
    'query($c: ID!) { minhasEntregas(cicloId: $c) { ofertaProdutoId produtoId produto unidade valor ofertado planejado pedido valorPedido mercados { mercadoId mercado pedido valorPedido } } }',
    { c: cicloId },
  );
  return { ciclo, entregas: d.minhasEntregas };
}

/** A page of the supplier's offers, newest cycle first; `depois`: the cicloId of the last one received. */
export async function listarMinhasOfertas(
  primeiras: number,
  depois: string | null,
): Promise<readonly OfertaComCiclo[]> {
  const d = await graphql<{ minhasOfertas: OfertaComCiclo[] }>(
    `query($n: Int, $a: String) { minhasOfertas(first: $n, after: $a) { cicloId finalizada finalizadaEm total ciclo { ${CICLO} } } }`,
    { n: primeiras, a: depois },
  );
  return d.minhasOfertas;
}

/** Why a cycle takes no offer now, from its open windows and the server's acoes (null: it takes offers). */
export function motivoSemOferta(ciclo: CicloResumo): string | null {
  if (ciclo.acoes.ofertar) return null;
  if (ciclo.janelasAbertas.includes('oferta')) return 'Sua conta não pode ofertar neste ciclo.';
  if (ciclo.fase === 'planejado') return `As ofertas deste ciclo abrem em ${dataBr(ciclo.dataOfertaInicio)}.`;
  return `As ofertas deste ciclo fecharam em ${dataBr(ciclo.dataOfertaFim)}.`;
}
