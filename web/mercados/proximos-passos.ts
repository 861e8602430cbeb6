/**
 * The dashboard's next steps (schema.graphql meusProximosPassos): each cycle with what the person
 * has left to do in it, the page where each step is done, and its deadline, a day of the
 * community's calendar whose end (23:59 in the community's time zone) closes the window.
 */
import { graphql } from './api.ts';
import { CAMPOS_CICLO_COM_DATAS, type CicloComDatas } from './ciclo-comum.ts';
import { horarioDeRetiradaTexto } from '../../src/domain/tempo.ts';

export type AcaoDoPasso =
  'ofertar' | 'compor' | 'pedir' | 'entregar' | 'retirar' | 'definirMercados' | 'pedidosDoMercado';

export interface PassoDoCiclo {
  readonly acao: AcaoDoPasso;
  readonly texto: string;
  readonly feito: boolean;
  readonly temPagina: boolean;
  readonly pedidoId: string | null;
  readonly mercadoId: string | null;
  readonly prazo: string | null;
}

export interface CicloComPassos {
  readonly ciclo: CicloComDatas;
  readonly passos: readonly PassoDoCiclo[];
}

export interface ProximosPassos {
  readonly ciclos: readonly CicloComPassos[];
  /** In reais, when the person owes something; null otherwise. */
  readonly aPagar: string | null;
}

export async function lerProximosPassos(): Promise<ProximosPassos> {
  const r = await graphql<{ meusProximosPassos: ProximosPassos }>(
    `query ProximosPassos { meusProximosPassos { aPagar ciclos { ciclo { ${CAMPOS_CICLO_COM_DATAS} }
      passos { acao texto feito temPagina pedidoId mercadoId prazo } } } }`,
  );
  return r.meusProximosPassos;
}

/**
 * Where a step is done: a page of this client, or (composing baskets) one of the Cestas face,
 * when its address is known. Null: nowhere to go.
 */
export function destinoDoPasso(
  p: PassoDoCiclo,
  cicloId: string,
  cestas: string | null,
): { readonly interno: boolean; readonly para: string } | null {
  if (!p.temPagina) return null;
  switch (p.acao) {
    case 'ofertar':
      return { interno: true, para: `/ciclos/${cicloId}/oferta` };
    case 'pedir':
    case 'retirar':
      return { interno: true, para: `/ciclos/${cicloId}/pedido` };
    case 'entregar':
      return { interno: true, para: `/ciclos/${cicloId}/entregas` };
    case 'definirMercados':
      return { interno: true, para: `/ciclos/${cicloId}/mercados` };
    case 'pedidosDoMercado':
      return p.mercadoId === null
        ? null
        : { interno: true, para: `/mercados/${p.mercadoId}/ciclos/${cicloId}/pedidos` };
    case 'compor':
      return cestas === null ? null : { interno: false, para: `${cestas}/ciclo/${cicloId}#composicao` };
  }
}

/** Today in the community's calendar (AAAA-MM-DD); without a zone, the device's. */
export function hojeNaComunidade(fuso: string | undefined, agora: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: fuso, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    agora,
  );
}

/** The zone's name as people read it ("Horário Padrão de Brasília"), or its IANA name. */
function nomeDoFuso(fuso: string): string {
  const nome = new Intl.DateTimeFormat('pt-BR', { timeZone: fuso, timeZoneName: 'longGeneric' })
    .formatToParts(new Date())
    .find((p) => p.type === 'timeZoneName')?.value;
  return nome ?? fuso;
}

/**
 * A deadline as people read it: "até 23:59 de sexta-feira, 04/12/2026" ("de hoje, …" on the day),
 * naming the community's zone when the device is set to another one.
 */
export function prazoLegivel(dia: string, fuso: string | undefined, agora: Date = new Date()): string {
  // The day as every page says it: "sexta-feira, 04/12/2026".
  const quando = horarioDeRetiradaTexto({ dataRetirada: dia, horaInicio: null, horaFim: null });
  const hoje = dia === hojeNaComunidade(fuso, agora) ? 'hoje, ' : '';
  const outroFuso = fuso !== undefined && fuso !== Intl.DateTimeFormat().resolvedOptions().timeZone;
  return `até 23:59 de ${hoje}${quando}${outroFuso ? ` (${nomeDoFuso(fuso)})` : ''}`;
}
