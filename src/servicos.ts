import { randomBytes } from 'node:crypto';
import { chmodSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { criarAppCestas } from './cestas/app.ts';
import type { Config } from './config.ts';
import { abrirBanco, migrar, type Banco, type OpcoesBanco } from './db/banco.ts';
import { MODO_PASTA, criarPastaPrivada } from './db/arquivos-privados.ts';
import { PESSOAS_DEMO, bancoVazio, carregarDemo } from './demo/dados.ts';
import { diaLocal, relogioDoSistema, type Relogio } from './domain/tempo.ts';
import { iniciarGeracaoDasAssinaturas, type GeracaoDasAssinaturas } from './geracao-das-assinaturas.ts';
import { limitadorNoBanco, type Limitador } from './db/limites.ts';
import { avisoDoServico } from './http/log.ts';
// NOTE: the development login provider (oidc-provider) and the Mercados face (GraphQL) are
// loaded only when they start: together they are most of the start-up time of a process that
// runs neither (production with a real provider, one face only, each test file).
import type { ClienteDev, ProvedorDev } from './idp/provedor.ts';
import type { CaixaDev } from './mensagens/caixa-dev.ts';
import { Correio } from './mensagens/correio/correio.ts';

export interface Servicos {
  readonly banco: Banco;
  readonly cestas: FastifyInstance | null;
  readonly mercados: FastifyInstance | null;
  /** The e-mail outbox, one per process, shared by both faces and the subscription generator. */
  readonly correio: Correio;
  readonly enderecos: {
    readonly cestas?: string;
    readonly mercados?: string;
    readonly idp?: string;
    readonly emails?: string;
  };
  /** Stops accepting connections, lets in-flight requests finish, then closes the database. */
  fechar(): Promise<void>;
}

/** The development provider as another process runs it (the cluster's primary), and the faces' client secrets there. */
export interface ProvedorDevExterno {
  readonly issuer: string;
  readonly segredoCestas: string;
  readonly segredoMercados: string;
}

export interface OpcoesServicos {
  readonly relogio?: Relogio;
  readonly banco?: OpcoesBanco;
  /** Use this development provider instead of starting one (cluster workers). */
  readonly provedorDev?: ProvedorDevExterno;
  /** Skip the demo data: someone else (the cluster's primary) has loaded it. */
  readonly semDemo?: boolean;
}

/** Whether the configuration needs the development provider (no external issuer for a face that runs). */
export function precisaDoProvedorDev(config: Config): boolean {
  return (
    (config.variantes.includes('cestas') && config.oidc === null) ||
    (config.variantes.includes('mercados') && config.oauth === null)
  );
}

/** The development provider's clients: each running face that has no external issuer, with its redirect addresses. */
export function clientesDoProvedorDev(
  config: Config,
  enderecos: { readonly cestas?: string | undefined; readonly mercados?: string | undefined },
  segredos: { readonly segredoCestas: string; readonly segredoMercados: string },
): ClienteDev[] {
  const clientes: ClienteDev[] = [];
  if (enderecos.cestas !== undefined && config.oidc === null) {
    clientes.push({
      clientId: 'cestaria-cestas',
      clientSecret: segredos.segredoCestas,
      redirectUris: [`${enderecos.cestas}/callback`],
      postLogoutRedirectUris: [`${enderecos.cestas}/saiu`],
    });
  }
  if (enderecos.mercados !== undefined && config.oauth === null) {
    clientes.push({
      clientId: 'cestaria-mercados',
      clientSecret: segredos.segredoMercados,
      redirectUris: [`${enderecos.mercados}/auth/${config.oauthProviderName}/callback`],
      postLogoutRedirectUris: [],
    });
  }
  return clientes;
}

/**
 * Where e-mail goes: SMTP_URL, else (development) the local catcher on DEV_SMTP_PORT, else
 * nowhere (production without SMTP_URL: e-mail is off, and the start says so once).
 */
export function destinoDoEmail(config: Config): string | null {
  return config.email.smtp ?? (config.email.devSmtp ? `smtp://127.0.0.1:${config.email.devSmtpPort}` : null);
}

/** Starts the development e-mail catcher when configured (one per machine: the cluster's primary, or the only process). */
export async function iniciarCaixaDevSeConfigurada(config: Config): Promise<CaixaDev | null> {
  if (!config.email.devSmtp) return null;
  if (config.producao) throw new Error('a caixa de e-mails de desenvolvimento nunca roda em produção');
  const { iniciarCaixaDev } = await import('./mensagens/caixa-dev.ts');
  return iniciarCaixaDev(config.host, config.email.devSmtpPort, config.email.devMailPort, config.tz);
}

/** Loads the demo data when configured and the database has no users yet. */
export async function carregarDemoSeVazio(config: Config, banco: Banco, relogio: Relogio): Promise<void> {
  if (!config.demoData || !(await bancoVazio(banco))) return;
  const agora = relogio.agora();
  await carregarDemo(banco, agora, diaLocal(agora, config.tz));
  const { carregarDemoMercados } = await import('./demo/mercados.ts');
  await carregarDemoMercados(banco, agora);
  const { carregarDemoDosMercadosNoCiclo } = await import('./demo/mercados-no-ciclo.ts');
  await carregarDemoDosMercadosNoCiclo(banco, agora);
}

/**
 * Counts the requests a face is handling; shutdown waits for a quiet moment before closing.
 * The response's close event fires for completed and for aborted requests alike.
 */
function contarRequisicoes(app: FastifyInstance, contador: { ativas: number }): void {
  app.addHook('onRequest', async (_req, reply) => {
    contador.ativas++;
    reply.raw.once('close', () => contador.ativas--);
  });
}

/**
 * Waits until no request has been in flight for a short quiet period. NOTE: a request can sit
 * unread in its socket while the loop is busy (a large PDF); Node would count that connection as
 * idle and reset it on close. Once the loop has been free and nothing is in flight, every request
 * already sent has been read and answered.
 */
async function esperarCalma(contador: { ativas: number }): Promise<void> {
  const inicio = Date.now();
  let calmaDesde = Date.now();
  for (;;) {
    await new Promise((r) => setTimeout(r, 20));
    if (contador.ativas > 0) calmaDesde = Date.now();
    const calmo = Date.now() - calmaDesde >= 150;
    if ((calmo && Date.now() - inicio >= 250) || Date.now() - inicio > 8_000) return;
  }
}

/**
 * Stops a face: no new connections, in-flight requests finish. NOTE: Node closes idle keep-alive
 * connections only at the moment close() is called; one whose response was still streaming then
 * would stay open until its keep-alive timeout, so it is closed as soon as it goes idle.
 */
async function fecharFace(app: FastifyInstance | null): Promise<void> {
  if (app === null) return;
  const varredura = setInterval(() => app.server.closeIdleConnections(), 25);
  try {
    await app.close();
  } finally {
    clearInterval(varredura);
  }
}

function endereco(app: FastifyInstance, configurado: string | undefined): string {
  if (configurado !== undefined) return configurado;
  const a = app.server.address();
  return `http://localhost:${typeof a === 'object' && a !== null ? a.port : 0}`;
}

/** Opens and migrates the database, loads demo data when due, and starts every configured face. */
export async function iniciarServicos(config: Config, opcoes: OpcoesServicos = {}): Promise<Servicos> {
  const relogio = opcoes.relogio ?? relogioDoSistema;
  const banco = abrirBanco(config.banco, opcoes.banco);
  let idp: ProvedorDev | null = null;
  let cestas: FastifyInstance | null = null;
  const contador = { ativas: 0 };
  let mercados: FastifyInstance | null = null;
  let limitador: Limitador | null = null;
  let caixaDev: CaixaDev | null = null;
  let geracao: GeracaoDasAssinaturas | null = null;
  let correio: Correio | null = null;
  try {
    // Receipts are private; a folder made before modes were enforced is closed here too.
    criarPastaPrivada(config.dirArquivos);
    chmodSync(config.dirArquivos, MODO_PASTA);
    await migrar(banco, config.banco.tipo);
    if (opcoes.semDemo !== true) await carregarDemoSeVazio(config, banco, relogio);
    const comMercados = config.variantes.includes('mercados');
    const externo = opcoes.provedorDev;
    if (externo === undefined && precisaDoProvedorDev(config)) {
      if (config.producao) throw new Error('o provedor de desenvolvimento nunca roda em produção');
      const { iniciarProvedorDev } = await import('./idp/provedor.ts');
      idp = await iniciarProvedorDev(config.host, config.devIdpPort);
    }
    // A worker of a cluster uses the catcher its primary started.
    if (externo === undefined) caixaDev = await iniciarCaixaDevSeConfigurada(config);
    const smtp = caixaDev?.smtp ?? destinoDoEmail(config);
    if (smtp === null && config.producao)
      avisoDoServico(config)(
        'E-mail desligado: defina SMTP_URL (e EMAIL_REMETENTE) para enviar recibos e lembretes.',
        null,
      );
    // One outbox for the process, whichever faces run. Its messages link to Cestas pages: this
    // process's Cestas face when it runs, else CESTAS_BASE_URL (the face in another process).
    correio = new Correio({
      config,
      banco,
      relogio,
      smtp,
      baseUrl: () =>
        cestas === null
          ? (config.cestasBaseUrl ?? `http://localhost:${config.cestasPort}`)
          : endereco(cestas, config.cestasBaseUrl),
    });
    limitador =
      config.redisUrl === undefined
        ? limitadorNoBanco(banco)
        : // Loaded only with REDIS_URL: the client is ~5 MB of heap a process without Redis never uses.
          await (
            await import('./db/redis.ts')
          ).limitadorNoRedis(config.redisUrl, limitadorNoBanco(banco), avisoDoServico(config));
    const issuerDev = externo?.issuer ?? idp?.issuer;
    const segredoDev = externo?.segredoCestas ?? randomBytes(24).toString('base64url');
    const segredoDevMercados = externo?.segredoMercados ?? randomBytes(24).toString('base64url');
    if (config.variantes.includes('cestas')) {
      cestas = await criarAppCestas({
        config,
        banco,
        relogio,
        provedor: config.oidc ?? { issuer: issuerDev ?? '', clientId: 'cestaria-cestas', clientSecret: segredoDev },
        origensDeImagem: issuerDev === undefined ? [] : [issuerDev],
        limitador,
        avisos: correio,
        // Known once the Mercados face listens, after this one.
        enderecoMercados: () => (mercados === null ? null : endereco(mercados, config.mercadosBaseUrl)),
      });
      contarRequisicoes(cestas, contador);
      await cestas.listen({ host: config.host, port: config.cestasPort });
    }
    if (comMercados) {
      const { criarAppMercados } = await import('./mercados/app.ts');
      mercados = await criarAppMercados({
        config,
        banco,
        relogio,
        provedor: config.oauth ?? {
          issuer: issuerDev ?? '',
          clientId: 'cestaria-mercados',
          clientSecret: segredoDevMercados,
        },
        callbackUrl: config.oauth?.callbackUrl,
        origensDeImagem: issuerDev === undefined ? [] : [issuerDev],
        limitador,
        avisos: correio,
        enderecoCestas: () => (cestas === null ? null : endereco(cestas, config.cestasBaseUrl)),
      });
      contarRequisicoes(mercados, contador);
      await mercados.listen({ host: config.host, port: config.mercadosPort });
    }
    // Subscription orders of the cycles whose order window is open, now and periodically.
    // Reminders and the outbox's sender run once the faces have their addresses (the messages link to them).
    correio.iniciar();
    geracao = iniciarGeracaoDasAssinaturas({ config, banco, relogio, avisos: correio });
    const enderecoCestas = cestas === null ? undefined : endereco(cestas, config.cestasBaseUrl);
    const enderecoMercados = mercados === null ? undefined : endereco(mercados, config.mercadosBaseUrl);
    if (idp !== null) {
      idp.ativar(
        clientesDoProvedorDev(
          config,
          { cestas: enderecoCestas, mercados: enderecoMercados },
          { segredoCestas: segredoDev, segredoMercados: segredoDevMercados },
        ),
        PESSOAS_DEMO,
      );
    }
    const idpFinal = idp;
    const cestasFinal = cestas;
    const mercadosFinal = mercados;
    const limitadorFinal = limitador;
    const caixaDevFinal = caixaDev;
    const geracaoFinal = geracao;
    const correioFinal = correio;
    return {
      banco,
      cestas,
      mercados,
      correio,
      enderecos: {
        ...(enderecoCestas === undefined ? {} : { cestas: enderecoCestas }),
        ...(enderecoMercados === undefined ? {} : { mercados: enderecoMercados }),
        ...(issuerDev === undefined ? {} : { idp: issuerDev }),
        ...(caixaDev === null ? {} : { emails: caixaDev.pagina }),
      },
      async fechar() {
        await esperarCalma(contador);
        await geracaoFinal.fechar();
        await Promise.all([fecharFace(cestasFinal), fecharFace(mercadosFinal)]);
        await correioFinal.fechar();
        await caixaDevFinal?.fechar();
        await idpFinal?.fechar();
        await limitadorFinal.fechar();
        await banco.destroy();
      },
    };
  } catch (e) {
    await geracao?.fechar().catch(() => undefined);
    await cestas?.close().catch(() => undefined);
    await mercados?.close().catch(() => undefined);
    await correio?.fechar().catch(() => undefined);
    await idp?.fechar().catch(() => undefined);
    await caixaDev?.fechar().catch(() => undefined);
    await limitador?.fechar().catch(() => undefined);
    await banco.destroy().catch(() => undefined);
    throw e;
  }
}
