import { randomBytes } from 'node:crypto';
import { sign } from '@fastify/cookie';
import type { Banco } from '../../src/db/banco.ts';
import { entrarComProvedor, type Conta } from '../../src/domain/contas.ts';
import { type NomePerfil } from '../../src/domain/politica-mercados.ts';
import { COOKIE_SESSAO } from '../../src/mercados/sessao.ts';
import type { DatasCiclo } from '../../src/domain/ciclos/calendario.ts';
import { diaLocal, horarioDeRetiradaTexto, somarDias } from '../../src/domain/tempo.ts';
import { criarCiclo, emailUnico } from '../helpers/fabricas.ts';
import { entrarPeloProvedor, type Navegador, type Resposta } from '../helpers/navegador.ts';
import type { AmbienteDeTeste } from '../helpers/servidor.ts';

/**
 * Tests log in many times from one address; the login limit (5 in 15 minutes) has its own test,
 * so the other tests start each login with a fresh count.
 */
export async function zerarLimiteDeLogin(banco: Banco): Promise<void> {
  await banco.deleteFrom('limitetentativa').where('chave', 'like', 'mercados-login:%').execute();
}

/** A full login through the development provider's real login page, ending at /dashboard. */
export async function entrarNoMercados(
  amb: AmbienteDeTeste,
  nav: Navegador,
  pessoa: { email: string; nome?: string; sub?: string; naoVerificado?: boolean },
): Promise<Resposta> {
  await zerarLimiteDeLogin(amb.banco);
  return entrarPeloProvedor(nav, `${amb.urlMercados}/login`, pessoa);
}

/**
 * Goes through the provider's login page and stops at the provider's redirect back to us:
 * returns the callback address (with code and state) without visiting it.
 */
export async function ateOCallback(
  nav: Navegador,
  urlMercados: string,
  pessoa: { email: string; nome?: string; sub?: string },
): Promise<string> {
  const login = await nav.get(`${urlMercados}/login`);
  const form: Record<string, string> = { email: pessoa.email, nome: pessoa.nome ?? 'Pessoa de Teste' };
  if (pessoa.sub !== undefined) form.sub = pessoa.sub;
  const r = await nav.post(`${login.url}/login`, { form }, { seguir: false });
  let local = new URL(r.headers.get('location') ?? '', login.url).href;
  for (let i = 0; i < 5 && !local.startsWith(`${urlMercados}/auth/`); i++) {
    const passo = await nav.get(local, { seguir: false });
    local = new URL(passo.headers.get('location') ?? '', local).href;
  }
  if (!local.startsWith(`${urlMercados}/auth/idp/callback?`))
    throw new Error(`o provedor não voltou ao callback: ${local}`);
  return local;
}

/**
 * The one login helper that skips the provider: creates an account (with the given profiles)
 * and a real session through the domain, and puts its signed cookie in the browser.
 */
export async function contaComSessao(
  amb: { banco: Banco; config: { sessionSecret: string }; relogio: { agora(): Date } },
  nav: Navegador,
  url: string,
  dados: { email?: string; nome?: string; perfis?: readonly NomePerfil[] } = {},
): Promise<{ conta: Conta; cookie: string }> {
  const login = await entrarComProvedor(
    amb.banco,
    {
      emissor: 'teste',
      providerId: `teste-${randomBytes(6).toString('hex')}`,
      email: dados.email ?? emailUnico('mercados'),
      name: dados.nome ?? 'Pessoa de Teste',
      avatar: undefined,
      emailVerificado: true,
    },
    { agora: amb.relogio.agora(), adminEmails: new Set(), sessaoAnterior: null },
  );
  if (dados.perfis !== undefined) {
    const perfis = dados.perfis;
    await amb.banco.deleteFrom('appuserprofile').where('userId', '=', login.conta.id).execute();
    if (perfis.length > 0) {
      const ids = await amb.banco.selectFrom('profile').select('id').where('name', 'in', perfis).execute();
      const iso = amb.relogio.agora().toISOString();
      await amb.banco
        .insertInto('appuserprofile')
        .values(ids.map((p) => ({ userId: login.conta.id, profileId: p.id, createdAt: iso, updatedAt: iso })))
        .execute();
    }
  }
  const cookie = encodeURIComponent(sign(login.sessao, amb.config.sessionSecret));
  nav.definirCookie(url, COOKIE_SESSAO, cookie);
  return { conta: { ...login.conta, profiles: dados.perfis ?? login.conta.profiles }, cookie };
}

/** The Set-Cookie line of one cookie in a response. */
export function setCookie(r: Resposta, nome: string): string | undefined {
  return r.headers.getSetCookie().find((c) => c.startsWith(`${nome}=`));
}

export async function sessoesDe(banco: Banco, userId: number): Promise<number> {
  const r = await banco
    .selectFrom('appsession')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('userId', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

export async function contaPorEmail(banco: Banco, email: string) {
  return banco.selectFrom('appuser').selectAll().where('emailChave', '=', email.toLowerCase()).executeTakeFirst();
}

export async function perfisDe(banco: Banco, userId: number): Promise<string[]> {
  const linhas = await banco
    .selectFrom('appuserprofile as up')
    .innerJoin('profile as p', 'p.id', 'up.profileId')
    .select('p.name')
    .where('up.userId', '=', userId)
    .orderBy('p.id')
    .execute();
  return linhas.map((l) => l.name);
}

/** The answer of one GraphQL request: the HTTP status and the parsed body. */
export interface RespostaGraphql {
  readonly status: number;
  readonly corpo: {
    data?: Record<string, unknown> | null;
    errors?: Array<{ message: string; extensions?: Record<string, unknown>; path?: Array<string | number> }>;
  };
}

/** POSTs one GraphQL operation to the Mercados face as this browser (its cookies go along). */
export async function graphql(
  urlMercados: string,
  nav: Navegador,
  query: string,
  variables?: Record<string, unknown>,
): Promise<RespostaGraphql> {
  const r = await nav.postJson(`${urlMercados}/graphql`, variables === undefined ? { query } : { query, variables });
  return { status: r.status, corpo: r.json() };
}

/** A market written straight to the database, for tests that need many or a given owner. */
export async function criarMercadoNoBanco(
  banco: Banco,
  dados: {
    adminId: number;
    nome?: string;
    tipo?: 'cesta' | 'lote' | 'venda_direta';
    ativo?: boolean;
    valorMaximoCestaCentavos?: number | null;
  },
): Promise<{ id: number; nome: string }> {
  const iso = new Date().toISOString();
  const nome = dados.nome ?? `Mercado ${randomBytes(3).toString('hex')}`;
  const tipo = dados.tipo ?? 'venda_direta';
  const r = await banco
    .insertInto('mercado')
    .values({
      nome,
      descricao: null,
      tipo,
      taxaAdministrativaCentesimos: 500,
      valorMaximoCestaCentavos: dados.valorMaximoCestaCentavos ?? (tipo === 'cesta' ? 10000 : null),
      ativo: dados.ativo ?? true,
      adminId: dados.adminId,
      createdAt: iso,
      updatedAt: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: r.id, nome };
}

/**
 * A cycle in its delivery phase by the environment's clock (orders closed yesterday, pickup today
 * and tomorrow) with two delivery days, written out of order: tomorrow's, then today's with the
 * coordination's note. `dias` is how every page says them, in date order.
 */
export async function cicloNaEntrega(
  amb: { banco: Banco; relogio: { agora(): Date }; config: { tz: string } },
  nome?: string,
): Promise<{ id: number; hoje: string; datas: DatasCiclo; dias: string }> {
  const hoje = diaLocal(amb.relogio.agora(), amb.config.tz);
  const datas: DatasCiclo = {
    dataOfertaInicio: somarDias(hoje, -8),
    dataOfertaFim: somarDias(hoje, -6),
    dataPedidoInicio: somarDias(hoje, -4),
    dataPedidoFim: somarDias(hoje, -1),
    dataRetiradaInicio: hoje,
    dataRetiradaFim: somarDias(hoje, 1),
  };
  const ciclo = await criarCiclo(amb.banco, { datas, ...(nome === undefined ? {} : { nome }) });
  const iso = new Date().toISOString();
  await amb.banco
    .insertInto('cicloentrega')
    .values([
      { cicloid: ciclo.id, dataEntrega: somarDias(hoje, 1), observacao: null, createdAt: iso, updatedAt: iso },
      { cicloid: ciclo.id, dataEntrega: hoje, observacao: 'entregar na Sede até 17h', createdAt: iso, updatedAt: iso },
    ])
    .execute();
  const dia = (d: string) => horarioDeRetiradaTexto({ dataRetirada: d, horaInicio: null, horaFim: null });
  return { id: ciclo.id, hoje, datas, dias: `${dia(hoje)}: entregar na Sede até 17h; ${dia(somarDias(hoje, 1))}` };
}

/** A step of meusProximosPassos as the API answers it. */
export interface PassoGql {
  readonly acao: string;
  readonly texto: string;
  readonly feito: boolean;
  readonly temPagina: boolean;
  readonly pedidoId: string | null;
  readonly mercadoId: string | null;
  readonly prazo: string | null;
}

/** The step expected: something to do, with a page, and what differs. */
export const passoEsperado = (
  acao: string,
  texto: string,
  prazo: string | null,
  mais: Partial<PassoGql> = {},
): PassoGql => ({ acao, texto, feito: false, temPagina: true, pedidoId: null, mercadoId: null, prazo, ...mais });
