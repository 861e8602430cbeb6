import { randomBytes } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { availableParallelism } from 'node:os';
import { isIP } from 'node:net';
import { fileURLToPath } from 'node:url';
import { lerDecimal } from './decimal.ts';
import { lerChavePix, regraDoRecebedor, type RecebedorPix } from './pix-chave.ts';

/** Which face of the service a process serves. */
export const VARIANTES = ['cestas', 'mercados'] as const;
export type Variante = (typeof VARIANTES)[number];

/**
 * SQLite's PRAGMA synchronous (SQLITE_SYNCHRONOUS). In WAL mode, FULL syncs the WAL at every commit,
 * so a commit survives a power cut; NORMAL syncs only at checkpoints, so the last commits before a
 * power cut may roll back (never on a crash of the process alone). docs/reliability.md, "Queda de
 * energia no SQLite".
 */
export const SINCRONIAS_SQLITE = ['FULL', 'NORMAL'] as const;
export type SincroniaSqlite = (typeof SINCRONIAS_SQLITE)[number];
/** Measured: FULL cost the order save over 20 % (docs/decisions.md, "SQLite: `synchronous=NORMAL`…"). */
export const SINCRONIA_SQLITE_PADRAO: SincroniaSqlite = 'NORMAL';

export type BancoConfig =
  | {
      readonly tipo: 'sqlite';
      readonly caminho: string;
      /** Absent: SINCRONIA_SQLITE_PADRAO. */
      readonly sincronia?: SincroniaSqlite;
    }
  | { readonly tipo: 'postgres'; readonly url: string };

export interface OidcExterno {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

/** A plain OAuth 2.0 provider's endpoints, given by hand (no discovery, no ID token). */
export interface EnderecosOauth {
  readonly autorizacao: string;
  readonly token: string;
  readonly userinfo: string;
}

export interface OauthExterno extends OidcExterno {
  readonly callbackUrl: string | undefined;
  /** Set for a plain OAuth 2.0 provider; absent, the provider is OpenID Connect with discovery. */
  readonly enderecos?: EnderecosOauth;
}

export interface Config {
  readonly nodeEnv: 'development' | 'production' | 'test';
  readonly producao: boolean;
  readonly banco: BancoConfig;
  readonly host: string;
  readonly cestasPort: number;
  readonly mercadosPort: number;
  readonly devIdpPort: number;
  /** Public address of Cestas; undefined means "derive it from the port we end up listening on". */
  readonly cestasBaseUrl: string | undefined;
  readonly mercadosBaseUrl: string | undefined;
  /** External OpenID provider for Cestas; null means the development provider. */
  readonly oidc: OidcExterno | null;
  /** External OAuth provider for Mercados; null means the development provider. */
  readonly oauth: OauthExterno | null;
  readonly oauthProviderName: string;
  readonly sessionSecret: string;
  readonly appSessionSecret: string;
  readonly adminEmails: ReadonlySet<string>;
  readonly tz: string;
  readonly variantes: readonly Variante[];
  readonly demoData: boolean;
  readonly logLevel: string;
  /** The Markdown shown at /limitesolar. */
  readonly limiteSolarArquivo: string;
  /** Where receipt files are kept, outside anything served statically. */
  readonly dirArquivos: string;
  /** The administrative fee on orders: percent in hundredths (250 = 2.50 %) and a fixed amount in cents. */
  readonly taxa: { readonly percentualCentesimos: number; readonly fixaCentavos: number };
  /** GraphQL introspection (__schema, __type): on by default, off in production unless set. */
  readonly graphqlIntrospeccao: boolean;
  /** Bearer token that opens /metrics to requests from other machines; undefined: loopback only. */
  readonly metricsToken: string | undefined;
  /** Redis for the login-attempt counters (redis:// or rediss://); undefined: the database. */
  readonly redisUrl: string | undefined;
  /** Processes serving the faces (Node's cluster); 1 runs everything in this process. */
  readonly workers: number;
  /** A Cestas session unused for this long is over (SESSAO_OCIOSA_HORAS). */
  readonly sessaoOciosaMs: number;
  /** Reverse proxies whose X-Forwarded-* headers are trusted (TRUST_PROXY); empty: none. */
  readonly proxiesConfiaveis: readonly string[];
  readonly email: ConfigEmail;
  /** The community's Pix receiver (PIX_CHAVE, PIX_NOME, PIX_CIDADE); null: the Pix features hide. */
  readonly pix: RecebedorPix | null;
}

/**
 * E-mail. `smtp`: where messages go (SMTP_URL); null with `devSmtp` false: e-mail is off. Outside
 * production and tests, with no SMTP_URL, a local SMTP server receives everything and a page on
 * DEV_MAIL_PORT shows it (`devSmtp`).
 */
export interface ConfigEmail {
  readonly smtp: string | null;
  readonly remetente: string;
  readonly devSmtp: boolean;
  readonly devSmtpPort: number;
  readonly devMailPort: number;
  /** How often reminders are looked for, and the outbox swept (AVISOS_INTERVALO_S). */
  readonly intervaloMs: number;
}

/** A configuration problem: the message is one line that names the variable. */
export class ErroConfig extends Error {
  override name = 'ErroConfig';
}

type Env = Readonly<Record<string, string | undefined>>;

function valor(env: Env, nome: string): string | undefined {
  const v = env[nome]?.trim();
  return v === undefined || v === '' ? undefined : v;
}

function porta(env: Env, nome: string, padrao: number): number {
  const v = valor(env, nome);
  if (v === undefined) return padrao;
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65535)
    throw new ErroConfig(`${nome} deve ser uma porta entre 0 e 65535 (recebido "${v}")`);
  return n;
}

function url(env: Env, nome: string): string | undefined {
  const v = valor(env, nome);
  if (v === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ErroConfig(`${nome} deve ser um endereço http(s) completo (recebido "${v}")`);
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') {
    throw new ErroConfig(`${nome} deve começar com http:// ou https:// (recebido "${v}")`);
  }
  return v.replace(/\/+$/, '');
}

function enderecoSmtp(env: Env): string | null {
  const v = valor(env, 'SMTP_URL');
  if (v === undefined) return null;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ErroConfig(
      'SMTP_URL deve ser um endereço smtp://usuario:senha@host:porta ou smtps://… (recebido um texto que não é endereço)',
    );
  }
  if (u.protocol !== 'smtp:' && u.protocol !== 'smtps:')
    throw new ErroConfig(`SMTP_URL deve começar com smtp:// ou smtps:// (recebido "${u.protocol}")`);
  if (u.hostname === '') throw new ErroConfig('SMTP_URL precisa do servidor (smtp://host:porta)');
  return v;
}

function configEmail(env: Env, nodeEnv: Config['nodeEnv'], producao: boolean): ConfigEmail {
  const smtp = enderecoSmtp(env);
  const remetente = valor(env, 'EMAIL_REMETENTE');
  if (smtp !== null && producao && remetente === undefined)
    throw new ErroConfig(
      'EMAIL_REMETENTE é obrigatório em produção com SMTP_URL (por exemplo "Cestaria <avisos@sua-comunidade.org>")',
    );
  if (remetente !== undefined && !/^(?:[^<>]*<[^\s@<>]+@[^\s@<>]+>|[^\s@<>]+@[^\s@<>]+)$/.test(remetente)) {
    throw new ErroConfig(`EMAIL_REMETENTE deve ser um e-mail, ou "Nome <email>" (recebido "${remetente}")`);
  }
  const devPedido = booleano(env, 'DEV_SMTP', true);
  const intervalo = valor(env, 'AVISOS_INTERVALO_S');
  if (intervalo !== undefined && (!/^\d+$/.test(intervalo) || Number(intervalo) < 1 || Number(intervalo) > 3600)) {
    throw new ErroConfig(`AVISOS_INTERVALO_S deve ser um número de segundos entre 1 e 3600 (recebido "${intervalo}")`);
  }
  return {
    smtp,
    remetente: remetente ?? 'Cestaria <avisos@cestaria.localhost>',
    devSmtp: smtp === null && !producao && nodeEnv !== 'test' && devPedido,
    devSmtpPort: porta(env, 'DEV_SMTP_PORT', 3025),
    devMailPort: porta(env, 'DEV_MAIL_PORT', 3003),
    intervaloMs: (intervalo === undefined ? 60 : Number(intervalo)) * 1000,
  };
}

function enderecoRedis(env: Env): string | undefined {
  const v = valor(env, 'REDIS_URL');
  if (v === undefined) return undefined;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new ErroConfig('REDIS_URL deve ser um endereço redis://host:porta (recebido um texto que não é endereço)');
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    throw new ErroConfig(`REDIS_URL deve começar com redis:// ou rediss:// (recebido "${u.protocol}")`);
  return v;
}

/** WORKERS: a count from 1 to 64, or `auto` for one per core. */
function trabalhadores(env: Env): number {
  const v = valor(env, 'WORKERS');
  if (v === undefined) return 1;
  if (v.toLowerCase() === 'auto') return availableParallelism();
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 1 || n > 64)
    throw new ErroConfig(`WORKERS deve ser um número de 1 a 64, ou auto (recebido "${v}")`);
  return n;
}

const NOMES_DE_REDE = ['loopback', 'linklocal', 'uniquelocal'];

/**
 * TRUST_PROXY: comma-separated addresses or CIDR ranges of the reverse proxies in front of the
 * service (or loopback, linklocal, uniquelocal). Only a request from one of them has its
 * X-Forwarded-For believed, so limits see the real client and nobody else can pick an address.
 */
function proxiesConfiaveis(env: Env): string[] {
  const itens = (valor(env, 'TRUST_PROXY') ?? '')
    .split(',')
    .map((i) => i.trim())
    .filter((i) => i !== '');
  for (const item of itens) {
    const [endereco = '', prefixo, ...resto] = item.split('/');
    const versao = isIP(endereco);
    const prefixoValido =
      prefixo === undefined || (/^\d{1,3}$/.test(prefixo) && Number(prefixo) <= (versao === 6 ? 128 : 32));
    if (NOMES_DE_REDE.includes(item) || (versao !== 0 && prefixoValido && resto.length === 0)) continue;
    throw new ErroConfig(
      `TRUST_PROXY deve listar endereços IP ou faixas CIDR separados por vírgula, como 10.0.0.1,192.168.0.0/24 (recebido "${item}")`,
    );
  }
  return itens;
}

/** SESSAO_OCIOSA_HORAS: hours without use after which a Cestas session ends (1 to 168). */
function sessaoOciosa(env: Env): number {
  const v = valor(env, 'SESSAO_OCIOSA_HORAS');
  if (v === undefined) return 12 * 3600_000;
  const n = Number(v);
  if (!/^\d+$/.test(v) || n < 1 || n > 168)
    throw new ErroConfig(`SESSAO_OCIOSA_HORAS deve ser um número de horas de 1 a 168 (recebido "${v}")`);
  return n * 3600_000;
}

function booleano(env: Env, nome: string, padrao: boolean): boolean {
  const v = valor(env, nome)?.toLowerCase();
  if (v === undefined) return padrao;
  if (['true', '1', 'sim', 'yes'].includes(v)) return true;
  if (['false', '0', 'nao', 'não', 'no'].includes(v)) return false;
  throw new ErroConfig(`${nome} deve ser true ou false (recebido "${v}")`);
}

function decimalConfig(env: Env, nome: string, escala: number, maximo: number): number {
  const v = valor(env, nome);
  if (v === undefined) return 0;
  const r = lerDecimal(v, escala);
  if (!r.ok || r.valor > maximo)
    throw new ErroConfig(`${nome} deve ser um número com ponto, como 2.50 (recebido "${v}")`);
  return r.valor;
}

function arquivoLegivel(env: Env, nome: string): string | undefined {
  const v = valor(env, nome);
  if (v === undefined) return undefined;
  try {
    accessSync(v, constants.R_OK);
  } catch {
    throw new ErroConfig(`${nome} aponta para um arquivo que não existe ou não pode ser lido: "${v}"`);
  }
  return v;
}

/** SQLITE_SYNCHRONOUS: FULL or NORMAL, in any case; read whatever the database, so a typo never waits. */
function sincroniaSqlite(env: Env): SincroniaSqlite {
  const v = valor(env, 'SQLITE_SYNCHRONOUS');
  if (v === undefined) return SINCRONIA_SQLITE_PADRAO;
  const s = SINCRONIAS_SQLITE.find((x) => x === v.toUpperCase());
  if (s === undefined) throw new ErroConfig(`SQLITE_SYNCHRONOUS deve ser FULL ou NORMAL (recebido "${v}")`);
  return s;
}

function banco(env: Env): BancoConfig {
  const v = valor(env, 'DATABASE_URL') ?? 'sqlite:./data/cestaria.db';
  const sincronia = sincroniaSqlite(env);
  if (v.startsWith('sqlite:')) {
    const caminho = v.slice('sqlite:'.length);
    if (caminho === '')
      throw new ErroConfig('DATABASE_URL sqlite: precisa de um caminho, por exemplo sqlite:./data/cestaria.db');
    return { tipo: 'sqlite', caminho, sincronia };
  }
  if (v.startsWith('postgres://') || v.startsWith('postgresql://')) {
    try {
      new URL(v);
    } catch {
      throw new ErroConfig('DATABASE_URL não é um endereço postgres:// válido');
    }
    return { tipo: 'postgres', url: v };
  }
  throw new ErroConfig(`DATABASE_URL deve começar com sqlite: ou postgres:// (recebido "${v.split(':')[0]}:…")`);
}

function segredo(env: Env, nome: string, producao: boolean): string {
  const v = valor(env, nome);
  if (v === undefined) {
    if (producao) throw new ErroConfig(`${nome} é obrigatório em produção (use pelo menos 32 caracteres aleatórios)`);
    // NOTE: a fresh random secret per start in development: sessions simply end on restart.
    return randomBytes(32).toString('base64url');
  }
  if (v.length < 32) throw new ErroConfig(`${nome} deve ter pelo menos 32 caracteres`);
  if (bitsEstimados(v) < BITS_MINIMOS) {
    throw new ErroConfig(
      `${nome} é previsível demais (caracteres repetidos ou poucos símbolos): gere um com openssl rand -base64 32`,
    );
  }
  return v;
}

/** What a secret must carry at least, by the estimate below: a 128-bit key. */
const BITS_MINIMOS = 128;

/**
 * A rough strength estimate: the length times the Shannon entropy of the characters used. It
 * catches what people type (`aaaa…`, `abab…`, a word repeated); 32 random base64 characters
 * score about 140 bits and 64 hex characters about 250.
 */
function bitsEstimados(v: string): number {
  const contagem = new Map<string, number>();
  for (const c of v) contagem.set(c, (contagem.get(c) ?? 0) + 1);
  let porCaractere = 0;
  for (const n of contagem.values()) porCaractere -= (n / v.length) * Math.log2(n / v.length);
  return porCaractere * v.length;
}

/** The two keys protect different things; one leaked value must not open both. */
function segredosDistintos(sessao: string, appSessao: string): void {
  if (sessao === appSessao) throw new ErroConfig('SESSION_SECRET e APP_SESSION_SECRET devem ser diferentes');
}

function tokenDeMetricas(env: Env): string | undefined {
  const v = valor(env, 'METRICS_TOKEN');
  if (v === undefined) return undefined;
  if (v.length < 16 || !/^[\x21-\x7e]+$/.test(v)) {
    throw new ErroConfig('METRICS_TOKEN deve ter pelo menos 16 caracteres visíveis, sem espaços');
  }
  return v;
}

function provedor(env: Env, prefixo: 'OIDC' | 'OAUTH', issuerVar: string): OidcExterno | null {
  const issuer = url(env, issuerVar);
  const clientId = valor(env, `${prefixo}_CLIENT_ID`);
  const clientSecret = valor(env, `${prefixo}_CLIENT_SECRET`);
  if (issuer === undefined) {
    if (clientId !== undefined || clientSecret !== undefined) {
      throw new ErroConfig(
        `${issuerVar} é obrigatório quando ${prefixo}_CLIENT_ID ou ${prefixo}_CLIENT_SECRET estão definidos`,
      );
    }
    return null;
  }
  if (clientId === undefined)
    throw new ErroConfig(`${prefixo}_CLIENT_ID é obrigatório quando ${issuerVar} está definido`);
  if (clientSecret === undefined)
    throw new ErroConfig(`${prefixo}_CLIENT_SECRET é obrigatório quando ${issuerVar} está definido`);
  return { issuer, clientId, clientSecret };
}

const VARIAVEIS_OAUTH_SIMPLES = ['OAUTH_AUTHORIZATION_URL', 'OAUTH_TOKEN_URL', 'OAUTH_USERINFO_URL'] as const;

/**
 * Mercados' provider: OpenID Connect with discovery at OAUTH_ISSUER_URL (the default), or a plain
 * OAuth 2.0 provider whose three endpoints are given, all together and instead of the issuer.
 */
function provedorMercados(env: Env): OauthExterno | null {
  const [autorizacao, token, userinfo] = VARIAVEIS_OAUTH_SIMPLES.map((nome) => url(env, nome));
  const callbackUrl = url(env, 'OAUTH_CALLBACK_URL');
  if (autorizacao === undefined && token === undefined && userinfo === undefined) {
    const base = provedor(env, 'OAUTH', 'OAUTH_ISSUER_URL');
    return base === null ? null : { ...base, callbackUrl };
  }
  if (autorizacao === undefined || token === undefined || userinfo === undefined) {
    throw new ErroConfig(
      `Um provedor OAuth 2.0 sem descoberta precisa das três variáveis juntas: ${VARIAVEIS_OAUTH_SIMPLES.join(', ')}`,
    );
  }
  if (valor(env, 'OAUTH_ISSUER_URL') !== undefined) {
    throw new ErroConfig(
      `Defina OAUTH_ISSUER_URL (OpenID Connect, com descoberta) ou ${VARIAVEIS_OAUTH_SIMPLES.join(', ')} (OAuth 2.0), não os dois`,
    );
  }
  const clientId = valor(env, 'OAUTH_CLIENT_ID');
  const clientSecret = valor(env, 'OAUTH_CLIENT_SECRET');
  if (clientId === undefined) throw new ErroConfig('OAUTH_CLIENT_ID é obrigatório com o provedor OAuth 2.0');
  if (clientSecret === undefined) throw new ErroConfig('OAUTH_CLIENT_SECRET é obrigatório com o provedor OAuth 2.0');
  // The provider has no issuer identifier without discovery: its authorization address's origin names it.
  return {
    issuer: new URL(autorizacao).origin,
    clientId,
    clientSecret,
    callbackUrl,
    enderecos: { autorizacao, token, userinfo },
  };
}

/**
 * The Pix receiver of development with the demo data, when PIX_* is unset: an e-mail key on the
 * reserved domain .example (RFC 2606), which no bank account can hold, so its codes read in any
 * bank app and pay no one. README.md, "Configuração", documents it.
 */
export const PIX_DE_DEMONSTRACAO: RecebedorPix = {
  chave: 'pix-demo@cestaria.example',
  tipo: 'email',
  nome: 'Cestaria Demonstracao',
  cidade: 'Sao Paulo',
};

/** PIX_CHAVE, PIX_NOME and PIX_CIDADE: all three or none. */
function recebedorPix(env: Env): RecebedorPix | null {
  const [chaveBruta, nome, cidade] = (['PIX_CHAVE', 'PIX_NOME', 'PIX_CIDADE'] as const).map((n) => valor(env, n));
  if (chaveBruta === undefined && nome === undefined && cidade === undefined) return null;
  if (chaveBruta === undefined || nome === undefined || cidade === undefined) {
    throw new ErroConfig(
      'PIX_CHAVE, PIX_NOME e PIX_CIDADE vão juntas: defina as três para receber por Pix, ou nenhuma',
    );
  }
  const chave = lerChavePix(chaveBruta);
  if (chave === null) {
    throw new ErroConfig(
      `PIX_CHAVE deve ser um CPF ou CNPJ válido (só dígitos ou com pontuação), um e-mail, um celular +55DDDNÚMERO ou uma chave aleatória (recebido "${chaveBruta}")`,
    );
  }
  const problema = regraDoRecebedor(nome, cidade);
  if (problema !== null) throw new ErroConfig(problema);
  return { chave: chave.chave, tipo: chave.tipo, nome, cidade };
}

function fusoHorario(env: Env): string {
  const tz = valor(env, 'TZ') ?? 'America/Sao_Paulo';
  try {
    new Intl.DateTimeFormat('pt-BR', { timeZone: tz });
  } catch {
    throw new ErroConfig(`TZ não é um fuso horário conhecido (recebido "${tz}")`);
  }
  return tz;
}

function variantes(env: Env): Variante[] {
  const v = valor(env, 'VARIANTS') ?? 'cestas,mercados';
  const lista = [
    ...new Set(
      v
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
  const validas: Variante[] = [];
  for (const item of lista) {
    if (!(VARIANTES as readonly string[]).includes(item)) {
      throw new ErroConfig(`VARIANTS aceita apenas ${VARIANTES.join(', ')} (recebido "${item}")`);
    }
    validas.push(item as Variante);
  }
  if (validas.length === 0) throw new ErroConfig('VARIANTS precisa de pelo menos uma face: cestas, mercados');
  return validas;
}

/** Reads and validates the whole configuration once; throws ErroConfig naming the bad variable. */
export function carregarConfig(env: Env = process.env): Config {
  const nodeEnvBruto = valor(env, 'NODE_ENV') ?? 'development';
  if (nodeEnvBruto !== 'development' && nodeEnvBruto !== 'production' && nodeEnvBruto !== 'test') {
    throw new ErroConfig(`NODE_ENV deve ser development, production ou test (recebido "${nodeEnvBruto}")`);
  }
  const producao = nodeEnvBruto === 'production';
  const vs = variantes(env);
  const oidc = provedor(env, 'OIDC', 'OIDC_ISSUER_BASE_URL');
  const oauth = provedorMercados(env);
  if (producao && vs.includes('cestas') && oidc === null) {
    throw new ErroConfig(
      'OIDC_ISSUER_BASE_URL é obrigatório em produção (o provedor de desenvolvimento não roda em produção)',
    );
  }
  if (producao && vs.includes('mercados') && oauth === null) {
    throw new ErroConfig(
      'OAUTH_ISSUER_URL (ou OAUTH_AUTHORIZATION_URL, OAUTH_TOKEN_URL e OAUTH_USERINFO_URL) é obrigatório em produção (o provedor de desenvolvimento não roda em produção)',
    );
  }
  const providerName = valor(env, 'OAUTH_PROVIDER_NAME') ?? 'idp';
  if (!/^[a-z0-9][a-z0-9-]{0,39}$/.test(providerName)) {
    throw new ErroConfig('OAUTH_PROVIDER_NAME deve ter só letras minúsculas, dígitos e hífen');
  }
  const adminEmails = new Set(
    (valor(env, 'ADMIN_EMAILS') ?? '')
      .split(',')
      .map((e) => e.trim().toLowerCase())
      .filter((e) => e !== ''),
  );
  for (const e of adminEmails) {
    if (!/^[^\s@]+@[^\s@]+$/.test(e)) throw new ErroConfig(`ADMIN_EMAILS contém um e-mail inválido: "${e}"`);
  }
  const demoData = booleano(env, 'DEMO_DATA', !producao);
  const sessionSecret = segredo(env, 'SESSION_SECRET', producao);
  const appSessionSecret = segredo(env, 'APP_SESSION_SECRET', producao);
  segredosDistintos(sessionSecret, appSessionSecret);
  return {
    nodeEnv: nodeEnvBruto,
    producao,
    banco: banco(env),
    host: valor(env, 'HOST') ?? '127.0.0.1',
    cestasPort: porta(env, 'CESTAS_PORT', 3000),
    mercadosPort: porta(env, 'MERCADOS_PORT', 4000),
    devIdpPort: porta(env, 'DEV_IDP_PORT', 3002),
    cestasBaseUrl: url(env, 'CESTAS_BASE_URL'),
    mercadosBaseUrl: url(env, 'MERCADOS_BASE_URL'),
    oidc,
    oauth,
    oauthProviderName: providerName,
    sessionSecret,
    appSessionSecret,
    adminEmails,
    tz: fusoHorario(env),
    variantes: vs,
    demoData,
    logLevel: valor(env, 'LOG_LEVEL') ?? (nodeEnvBruto === 'test' ? 'warn' : 'info'),
    dirArquivos: valor(env, 'UPLOAD_DIR') ?? './data/arquivos',
    taxa: {
      percentualCentesimos: decimalConfig(env, 'TAXA_PEDIDO_PERCENTUAL', 2, 10_000),
      fixaCentavos: decimalConfig(env, 'TAXA_PEDIDO_FIXA', 2, 100_000_00),
    },
    metricsToken: tokenDeMetricas(env),
    workers: trabalhadores(env),
    sessaoOciosaMs: sessaoOciosa(env),
    proxiesConfiaveis: proxiesConfiaveis(env),
    redisUrl: enderecoRedis(env),
    email: configEmail(env, nodeEnvBruto, producao),
    // In development with the demo data and no PIX_*, the demo receiver: a newcomer sees the Pix.
    pix: recebedorPix(env) ?? (nodeEnvBruto === 'development' && demoData ? PIX_DE_DEMONSTRACAO : null),
    graphqlIntrospeccao: booleano(env, 'GRAPHQL_INTROSPECTION', !producao),
    limiteSolarArquivo:
      arquivoLegivel(env, 'LIMITESOLAR_FILE') ??
      fileURLToPath(new URL('./cestas/conteudo/limitesolar.md', import.meta.url)),
  };
}
