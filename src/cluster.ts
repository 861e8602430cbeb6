/**
 * WORKERS=N: the faces run in N processes of Node's cluster, sharing each face's port. The primary
 * prepares the database once (migrations, demo data), runs the development provider when one is
 * needed (its state lives in memory, so it must be a single process), restarts a worker that dies,
 * and on SIGTERM lets every worker finish its requests. Nothing else is held in one process:
 * sessions, rate limits and CSRF live in the database or in sealed cookies whose secrets every
 * worker shares, and /metrics adds up the measurements of all the workers.
 */
import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import type { Config } from './config.ts';
import { abrirBanco, migrar } from './db/banco.ts';
import { relogioDoSistema } from './domain/tempo.ts';
import { usarColetaDeMetricas, type Amostra } from './http/operacao.ts';
import { iniciarProvedorDev, type ProvedorDev } from './idp/provedor.ts';
import {
  carregarDemoSeVazio,
  clientesDoProvedorDev,
  iniciarCaixaDevSeConfigurada,
  iniciarServicos,
  precisaDoProvedorDev,
  type ProvedorDevExterno,
  type Servicos,
} from './servicos.ts';
import { PESSOAS_DEMO } from './demo/dados.ts';

/** Environment variable through which the primary hands the development provider to its workers. */
const VARIAVEL_PROVEDOR = 'CESTARIA_PROVEDOR_DEV';

/** How long /metrics waits for the other workers' measurements. */
const PRAZO_AMOSTRAS_MS = 1_000;
/** A worker that dies is replaced; more deaths than this within a minute stop the whole service. */
const MAXIMO_DE_REINICIOS_POR_MINUTO = 5;
const PRAZO_DESLIGAMENTO_MS = 12_000;

type Mensagem =
  | { readonly cestaria: 'pronto'; readonly cestas?: string; readonly mercados?: string }
  | { readonly cestaria: 'coletar'; readonly id: string; readonly face: string }
  | { readonly cestaria: 'amostra?'; readonly id: string; readonly face: string }
  | { readonly cestaria: 'amostra'; readonly id: string; readonly amostra: Amostra | null }
  | { readonly cestaria: 'coletado'; readonly id: string; readonly amostras: readonly Amostra[] };

function ehMensagem(m: unknown): m is Mensagem {
  return typeof m === 'object' && m !== null && typeof (m as { cestaria?: unknown }).cestaria === 'string';
}

export interface Cluster {
  readonly enderecos: {
    readonly cestas?: string;
    readonly mercados?: string;
    readonly idp?: string;
    readonly emails?: string;
  };
  /** Ends every worker gracefully; resolves with whether all of them exited cleanly. */
  fechar(): Promise<boolean>;
}

/**
 * In the primary: prepares the database, starts the development provider if needed, forks the
 * workers and waits until all of them listen.
 */
export async function iniciarCluster(
  config: Config,
  quantos: number,
  aviso: (texto: string) => void = console.error,
): Promise<Cluster> {
  const banco = abrirBanco(config.banco);
  try {
    await migrar(banco, config.banco.tipo);
    await carregarDemoSeVazio(config, banco, relogioDoSistema);
  } finally {
    await banco.destroy();
  }

  let idp: ProvedorDev | null = null;
  let provedor: ProvedorDevExterno | undefined;
  // The workers send development e-mail to this catcher (SMTP_URL below: its port may be chosen at start).
  const caixaDev = await iniciarCaixaDevSeConfigurada(config);
  if (precisaDoProvedorDev(config)) {
    if (config.producao) throw new Error('o provedor de desenvolvimento nunca roda em produção');
    idp = await iniciarProvedorDev(config.host, config.devIdpPort);
    provedor = {
      issuer: idp.issuer,
      segredoCestas: randomBytes(24).toString('base64url'),
      segredoMercados: randomBytes(24).toString('base64url'),
    };
  }
  // Secrets generated for development must be the same in every worker, or a cookie sealed by one
  // would not open in another.
  const env: Record<string, string> = {
    SESSION_SECRET: config.sessionSecret,
    APP_SESSION_SECRET: config.appSessionSecret,
    ...(provedor === undefined ? {} : { [VARIAVEL_PROVEDOR]: JSON.stringify(provedor) }),
    ...(caixaDev === null ? {} : { SMTP_URL: caixaDev.smtp }),
  };

  let desligando = false;
  const reinicios: number[] = [];
  const pendentes = new Map<
    string,
    { faltam: Set<number>; amostras: Amostra[]; responder: (a: readonly Amostra[]) => void }
  >();

  const tratar = (trabalhador: Worker, m: unknown) => {
    if (!ehMensagem(m)) return;
    if (m.cestaria === 'coletar') {
      // Ask every live worker for its sample of the face; answer with what arrived in time.
      const vivos = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && w.isConnected());
      const coleta = {
        faltam: new Set(vivos.map((w) => w.id)),
        amostras: [] as Amostra[],
        responder: (amostras: readonly Amostra[]) => {
          pendentes.delete(m.id);
          clearTimeout(prazo);
          if (trabalhador.isConnected())
            trabalhador.send({ cestaria: 'coletado', id: m.id, amostras } satisfies Mensagem);
        },
      };
      const prazo = setTimeout(() => coleta.responder(coleta.amostras), PRAZO_AMOSTRAS_MS);
      pendentes.set(m.id, coleta);
      for (const w of vivos) w.send({ cestaria: 'amostra?', id: m.id, face: m.face } satisfies Mensagem);
    } else if (m.cestaria === 'amostra') {
      const coleta = pendentes.get(m.id);
      if (coleta === undefined) return;
      coleta.faltam.delete(trabalhador.id);
      if (m.amostra !== null) coleta.amostras.push(m.amostra);
      if (coleta.faltam.size === 0) coleta.responder(coleta.amostras);
    }
  };

  const enderecos: { cestas?: string; mercados?: string } = {};
  const prontos = new Set<number>();
  let aoFicarPronto: () => void = () => undefined;
  let aoFalharNoInicio: (e: Error) => void = () => undefined;

  const criar = (): Worker => {
    const w = cluster.fork(env);
    w.on('message', (m: unknown) => {
      if (ehMensagem(m) && m.cestaria === 'pronto') {
        if (m.cestas !== undefined) enderecos.cestas = m.cestas;
        if (m.mercados !== undefined) enderecos.mercados = m.mercados;
        prontos.add(w.id);
        if (prontos.size === quantos) aoFicarPronto();
      } else tratar(w, m);
    });
    w.on('exit', (codigo, sinal) => {
      prontos.delete(w.id);
      for (const coleta of pendentes.values()) {
        if (coleta.faltam.delete(w.id) && coleta.faltam.size === 0) coleta.responder(coleta.amostras);
      }
      if (desligando) return;
      const motivo = sinal ?? `código ${String(codigo)}`;
      if (!iniciado) {
        aoFalharNoInicio(new Error(`um processo de trabalho saiu durante o início (${motivo})`));
        return;
      }
      const agora = Date.now();
      reinicios.push(agora);
      while (reinicios.length > 0 && (reinicios[0] ?? agora) < agora - 60_000) reinicios.shift();
      if (reinicios.length > MAXIMO_DE_REINICIOS_POR_MINUTO) {
        aviso(`Processos de trabalho morreram ${reinicios.length} vezes em um minuto; encerrando o serviço.`);
        void encerrar().then(() => process.exit(1));
        return;
      }
      aviso(`Processo de trabalho ${String(w.process.pid)} saiu (${motivo}); iniciando outro.`);
      criar();
    });
    return w;
  };

  let iniciado = false;
  const encerrar = async (): Promise<boolean> => {
    desligando = true;
    const trabalhadores = Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined);
    const saidas = trabalhadores.map(
      (w) =>
        new Promise<boolean>((resolve) => {
          if (w.process.exitCode !== null) return resolve(w.process.exitCode === 0);
          w.process.once('exit', (codigo) => resolve(codigo === 0));
          w.process.kill('SIGTERM');
        }),
    );
    const prazo = setTimeout(() => {
      for (const w of trabalhadores) if (w.process.exitCode === null) w.process.kill('SIGKILL');
    }, PRAZO_DESLIGAMENTO_MS);
    const resultados = await Promise.all(saidas);
    clearTimeout(prazo);
    await idp?.fechar().catch(() => undefined);
    await caixaDev?.fechar().catch(() => undefined);
    return resultados.every(Boolean);
  };

  try {
    await new Promise<void>((resolve, reject) => {
      aoFicarPronto = resolve;
      aoFalharNoInicio = reject;
      for (let i = 0; i < quantos; i++) criar();
    });
  } catch (e) {
    await encerrar();
    throw e;
  }
  iniciado = true;
  if (idp !== null && provedor !== undefined)
    idp.ativar(clientesDoProvedorDev(config, enderecos, provedor), PESSOAS_DEMO);
  return {
    enderecos: {
      ...enderecos,
      ...(idp === null ? {} : { idp: idp.issuer }),
      ...(caixaDev === null ? {} : { emails: caixaDev.pagina }),
    },
    fechar: encerrar,
  };
}

/** In a worker: starts the faces with the primary's provider, and joins /metrics to the cluster. */
export async function iniciarTrabalhador(config: Config): Promise<Servicos> {
  const bruto = process.env[VARIAVEL_PROVEDOR];
  const provedor = bruto === undefined ? undefined : (JSON.parse(bruto) as ProvedorDevExterno);
  const esperando = new Map<string, (a: readonly Amostra[]) => void>();
  let servicos: Servicos | null = null;
  process.on('message', (m: unknown) => {
    if (!ehMensagem(m)) return;
    if (m.cestaria === 'amostra?') {
      const face = m.face === 'mercados' ? servicos?.mercados : servicos?.cestas;
      process.send?.({ cestaria: 'amostra', id: m.id, amostra: face?.amostraDeMetricas() ?? null } satisfies Mensagem);
    } else if (m.cestaria === 'coletado') {
      esperando.get(m.id)?.(m.amostras);
    }
  });
  usarColetaDeMetricas(
    (face, local) =>
      new Promise((resolve) => {
        const id = randomBytes(9).toString('base64url');
        const prazo = setTimeout(() => {
          esperando.delete(id);
          resolve([local]);
        }, PRAZO_AMOSTRAS_MS * 2);
        esperando.set(id, (amostras) => {
          esperando.delete(id);
          clearTimeout(prazo);
          resolve(amostras.length > 0 ? amostras : [local]);
        });
        process.send?.({ cestaria: 'coletar', id, face } satisfies Mensagem);
      }),
  );
  servicos = await iniciarServicos(config, {
    ...(provedor === undefined ? {} : { provedorDev: provedor }),
    semDemo: true,
  });
  process.send?.({ cestaria: 'pronto', ...servicos.enderecos } satisfies Mensagem);
  return servicos;
}

export const ehPrimario = (): boolean => cluster.isPrimary;
