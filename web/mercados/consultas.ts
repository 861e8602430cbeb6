/** The GraphQL operations the client sends, and the shapes they return (schema.graphql). */
import { graphql } from './api.ts';
import type { NomePerfil } from './perfis.ts';

import { CAMPO_TIPOS, guardarTipos, type TipoDeMercado, type TipoMercado } from './tipos-de-mercado.ts';

export interface AcoesMercado {
  readonly editar: boolean;
  readonly editarPrecos: boolean;
  readonly desativar: boolean;
}

export interface ResumoMercado {
  readonly id: string;
  readonly nome: string;
  readonly tipo: TipoMercado;
  readonly ativo: boolean;
  readonly adminId: string;
  readonly admin: { readonly name: string } | null;
  readonly acoes: AcoesMercado;
}

export interface Preco {
  readonly produtoId: string;
  readonly preco: string;
  readonly ativo: boolean;
}

export interface Mercado extends ResumoMercado {
  /**
   * Read whole, a market also says whether its orders may be seen (the detail page links to them)
   * and whether its price list may be downloaded.
   */
  readonly acoes: AcoesMercado & { readonly verPedidos: boolean; readonly baixarPrecos: boolean };
  readonly descricao: string | null;
  readonly taxaAdministrativa: string | null;
  readonly valorMaximoCesta: string | null;
  readonly precos: ReadonlyArray<Preco & { readonly produto: { readonly nome: string; readonly unidade: string } }>;
}

export interface Produto {
  readonly id: string;
  readonly nome: string;
  readonly unidade: string;
  readonly valorReferencia: string | null;
  readonly ativo: boolean;
}

export interface Conta {
  readonly id: string;
  readonly name: string;
  readonly email: string | null;
  /** Null where the e-mail is not shown either. */
  readonly emailVerificado: boolean | null;
  readonly profiles: readonly NomePerfil[];
  readonly mercados: ReadonlyArray<{ readonly id: string; readonly nome: string }>;
}

const ACOES = 'editar editarPrecos desativar';
const resumo = (acoes: string) => `id nome tipo ativo adminId admin { name } acoes { ${acoes} }`;
const RESUMO = resumo(ACOES);
const COMPLETO = `${resumo(`${ACOES} verPedidos baixarPrecos`)} descricao taxaAdministrativa valorMaximoCesta precos { produtoId preco ativo produto { nome unidade } }`;

export async function listarMercados(ativo?: boolean): Promise<readonly ResumoMercado[]> {
  const r = await graphql<{ mercados: ResumoMercado[]; tiposDeMercado: TipoDeMercado[] }>(
    `query Mercados($ativo: Boolean) { mercados(ativo: $ativo) { ${RESUMO} } ${CAMPO_TIPOS} }`,
    { ativo: ativo ?? null },
  );
  return guardarTipos(r).mercados;
}

export async function lerMercado(id: string): Promise<Mercado | null> {
  const r = await graphql<{ mercado: Mercado | null; tiposDeMercado: TipoDeMercado[] }>(
    `query Mercado($id: ID!) { mercado(id: $id) { ${COMPLETO} } ${CAMPO_TIPOS} }`,
    { id },
  );
  return guardarTipos(r).mercado;
}

export async function listarProdutos(): Promise<readonly Produto[]> {
  const r = await graphql<{ produtos: Produto[] }>(
    'query Produtos { produtos { id nome unidade valorReferencia ativo } }',
  );
  return r.produtos;
}

export async function listarContas(): Promise<readonly Conta[]> {
  // The new market form reads the kinds from here (an Administrador creates markets, and reads the accounts).
  const r = await graphql<{ usuarios: Conta[]; tiposDeMercado: TipoDeMercado[] }>(
    `query Usuarios { usuarios { id name email emailVerificado profiles mercados { id nome } } ${CAMPO_TIPOS} }`,
  );
  return guardarTipos(r).usuarios;
}

/** The fields of MercadoInput; adminId and ativo only when the person may change them. */
export interface EntradaMercado {
  readonly nome: string;
  readonly descricao: string | null;
  readonly tipo: TipoMercado;
  readonly taxaAdministrativa: string | null;
  readonly valorMaximoCesta: string | null;
  readonly adminId?: string;
  readonly ativo?: boolean;
}

export async function criarMercado(input: EntradaMercado): Promise<{ id: string }> {
  const r = await graphql<{ criarMercado: { id: string } }>(
    'mutation Criar($input: MercadoInput!) { criarMercado(input: $input) { id } }',
    { input },
  );
  return r.criarMercado;
}

export async function atualizarMercado(id: string, input: EntradaMercado): Promise<{ id: string }> {
  const r = await graphql<{ atualizarMercado: { id: string } }>(
    'mutation Atualizar($id: ID!, $input: MercadoInput!) { atualizarMercado(id: $id, input: $input) { id } }',
    { id, input },
  );
  return r.atualizarMercado;
}

export async function desativarMercado(id: string): Promise<void> {
  await graphql('mutation Desativar($id: ID!) { desativarMercado(id: $id) { id ativo } }', { id });
}

/** One atomic batch: every line is saved, or none. */
export async function salvarPrecos(id: string, precos: readonly Preco[]): Promise<void> {
  await graphql(
    'mutation Precos($id: ID!, $input: PrecoMercadoInput!) { atualizarPrecoMercado(id: $id, input: $input) { id } }',
    {
      id,
      input: { precos },
    },
  );
}

export async function atribuirPerfis(userId: string, perfis: readonly NomePerfil[]): Promise<readonly NomePerfil[]> {
  const r = await graphql<{ atribuirPerfis: { profiles: NomePerfil[] } }>(
    'mutation Perfis($userId: ID!, $perfis: [String!]!) { atribuirPerfis(userId: $userId, perfis: $perfis) { id profiles } }',
    { userId, perfis },
  );
  return r.atribuirPerfis.profiles;
}

/** The person's e-mail notices: the optional kinds received, and every kind (the mandatory ones always arrive). */
export interface MeusAvisos {
  readonly recebe: readonly string[];
  readonly ligado: boolean;
  readonly cadastro: boolean;
  readonly tipos: ReadonlyArray<{ readonly tipo: string; readonly nome: string; readonly opcional: boolean }>;
}

const AVISOS = 'recebe ligado cadastro tipos { tipo nome opcional }';

export async function lerMeusAvisos(): Promise<MeusAvisos> {
  const r = await graphql<{ meusAvisos: MeusAvisos }>(`query MeusAvisos { meusAvisos { ${AVISOS} } }`);
  return r.meusAvisos;
}

export async function definirMeusAvisos(recebe: readonly string[]): Promise<MeusAvisos> {
  const r = await graphql<{ definirMeusAvisos: MeusAvisos }>(
    `mutation DefinirMeusAvisos($recebe: [String!]!) { definirMeusAvisos(recebe: $recebe) { ${AVISOS} } }`,
    { recebe },
  );
  return r.definirMeusAvisos;
}
