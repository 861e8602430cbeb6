import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LogEvent } from 'kysely';
import { carregarConfig, type BancoConfig, type Config } from '../../src/config.ts';
import type { Banco } from '../../src/db/banco.ts';
import type { Relogio } from '../../src/domain/tempo.ts';
import { iniciarServicos, type Servicos } from '../../src/servicos.ts';
import { bancoNovo, urlDoBanco } from './banco.ts';

/** A clock tests move by hand. */
export class RelogioDeTeste implements Relogio {
  #agora: number;
  constructor(inicio: Date | string = new Date()) {
    this.#agora = new Date(inicio).getTime();
  }
  agora(): Date {
    return new Date(this.#agora);
  }
  avancar(ms: number): void {
    this.#agora += ms;
  }
  definir(instante: Date | string): void {
    this.#agora = new Date(instante).getTime();
  }
}

export interface AmbienteDeTeste {
  /** The Cestas face's address; empty when started with `soMercados: true`. */
  readonly url: string;
  /** The Mercados face's address; empty unless started with `mercados: true`. */
  readonly urlMercados: string;
  readonly idp: string;
  readonly banco: Banco;
  readonly bancoConfig: BancoConfig;
  readonly config: Config;
  readonly relogio: RelogioDeTeste;
  readonly servicos: Servicos;
  /** Queries executed since the last reset, for N+1 checks. */
  consultas: number;
  fechar(): Promise<void>;
}

/**
 * Starts the real service (Cestas, with `mercados: true` also Mercados, with `soMercados: true`
 * Mercados alone; and the development provider, on free ports) on a fresh database of the
 * dialect under test.
 */
export async function iniciarAmbiente(
  opcoes: {
    env?: Record<string, string>;
    relogio?: RelogioDeTeste;
    semProvedorDev?: boolean;
    mercados?: boolean;
    /** Only the Mercados face runs (VARIANTS=mercados): `url` is empty. */
    soMercados?: boolean;
    /** Also called after every query, with Kysely's log event (the SQL snapshots read its text). */
    aoConsultar?: (evento: LogEvent) => void;
    /** The PostgreSQL pool's size (SQLite always has one connection). */
    maxConexoes?: number;
  } = {},
): Promise<AmbienteDeTeste> {
  const bancoConfig = await bancoNovo();
  const config = carregarConfig({
    NODE_ENV: 'test',
    DATABASE_URL: urlDoBanco(bancoConfig),
    CESTAS_PORT: '0',
    MERCADOS_PORT: '0',
    DEV_IDP_PORT: '0',
    VARIANTS: opcoes.soMercados === true ? 'mercados' : opcoes.mercados === true ? 'cestas,mercados' : 'cestas',
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    UPLOAD_DIR: mkdtempSync(join(tmpdir(), 'cestaria-arquivos-')),
    // Tests move the clock by days between a session's requests; the idle limit has its own test.
    SESSAO_OCIOSA_HORAS: '168',
    ...opcoes.env,
  });
  const relogio = opcoes.relogio ?? new RelogioDeTeste();
  const ambiente = {
    consultas: 0,
  } as { consultas: number };
  const servicos = await iniciarServicos(config, {
    relogio,
    banco: {
      aoConsultar: (e: LogEvent) => {
        ambiente.consultas++;
        opcoes.aoConsultar?.(e);
      },
      ...(opcoes.maxConexoes === undefined ? {} : { maxConexoes: opcoes.maxConexoes }),
    },
  });
  const url = servicos.enderecos.cestas ?? '';
  const idp = servicos.enderecos.idp;
  const urlMercados = servicos.enderecos.mercados ?? '';
  if ((url === '' && opcoes.soMercados !== true) || (idp === undefined && opcoes.semProvedorDev !== true))
    throw new Error('serviços de teste não subiram');
  if ((opcoes.mercados === true || opcoes.soMercados === true) && urlMercados === '')
    throw new Error('a face Mercados de teste não subiu');
  return Object.assign(ambiente, {
    url,
    urlMercados,
    idp: idp ?? '',
    banco: servicos.banco,
    bancoConfig,
    config,
    relogio,
    servicos,
    fechar: () => servicos.fechar(),
  });
}
