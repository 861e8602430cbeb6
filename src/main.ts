import { ErroConfig, carregarConfig, type Config } from './config.ts';
import { writeFileSync } from 'node:fs';
import { abrirBanco, migrar } from './db/banco.ts';
import { ErroCopia, exportar, fazerBackup, restaurar } from './db/copias.ts';
import { MODO_ARQUIVO, tornarPrivado } from './db/arquivos-privados.ts';
import { PESSOAS_DEMO, bancoVazio, carregarDemo } from './demo/dados.ts';
import { carregarDemoMercados } from './demo/mercados.ts';
import { diaLocal } from './domain/tempo.ts';
import { ehPrimario, iniciarCluster, iniciarTrabalhador } from './cluster.ts';
import { iniciarServicos } from './servicos.ts';

/** The deadline for a graceful stop; the cluster's primary waits a little longer for its workers. */
const PRAZO_DESLIGAMENTO_MS = 15_000;

function anunciar(
  enderecos: { readonly cestas?: string; readonly mercados?: string; readonly idp?: string; readonly emails?: string },
  processos: number,
): void {
  const { cestas, mercados, idp, emails } = enderecos;
  console.log(processos > 1 ? `Cestaria no ar (${processos} processos):` : 'Cestaria no ar:');
  if (cestas !== undefined) console.log(`  Cestas:   ${cestas}`);
  if (mercados !== undefined) console.log(`  Mercados: ${mercados}`);
  if (idp !== undefined) {
    console.log(`  Login de desenvolvimento: ${idp}`);
    console.log('  Pessoas de demonstração (qualquer e-mail também entra):');
    for (const p of PESSOAS_DEMO) console.log(`    ${p.email.padEnd(22)} ${p.papel}`);
  }
  if (emails !== undefined) console.log(`  E-mails enviados (desenvolvimento): ${emails}`);
}

/** On SIGTERM or SIGINT: stop once, within a deadline, and exit 0 only when everything closed cleanly. */
function aoDesligar(fechar: () => Promise<boolean>, avisar: boolean): void {
  let desligando = false;
  const desligar = (sinal: string) => {
    if (desligando) return;
    desligando = true;
    if (avisar) console.log(`${sinal} recebido: terminando as requisições em andamento…`);
    const prazo = setTimeout(() => {
      console.error('Desligamento demorou demais; saindo.');
      process.exit(1);
    }, PRAZO_DESLIGAMENTO_MS);
    prazo.unref();
    fechar().then(
      (limpo) => process.exit(limpo ? 0 : 1),
      (e: unknown) => {
        console.error('Erro ao desligar:', e);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => desligar('SIGTERM'));
  process.on('SIGINT', () => desligar('SIGINT'));
}

async function servir(config: Config): Promise<void> {
  if (config.workers > 1 && ehPrimario()) {
    const grupo = await iniciarCluster(config, config.workers);
    anunciar(grupo.enderecos, config.workers);
    aoDesligar(() => grupo.fechar(), true);
    return;
  }
  if (config.workers > 1) {
    const servicos = await iniciarTrabalhador(config);
    aoDesligar(() => servicos.fechar().then(() => true), false);
    return;
  }
  const servicos = await iniciarServicos(config);
  anunciar(servicos.enderecos, 1);
  aoDesligar(() => servicos.fechar().then(() => true), true);
}

async function migrarCli(config: Config): Promise<void> {
  const banco = abrirBanco(config.banco);
  try {
    const aplicadas = await migrar(banco, config.banco.tipo);
    console.log(aplicadas.length === 0 ? 'Banco já está atualizado.' : `Migrações aplicadas: ${aplicadas.join(', ')}`);
  } finally {
    await banco.destroy();
  }
}

async function semearCli(config: Config): Promise<void> {
  const banco = abrirBanco(config.banco);
  try {
    await migrar(banco, config.banco.tipo);
    if (!(await bancoVazio(banco))) {
      console.log('O banco já tem usuários; os dados de demonstração só entram num banco vazio.');
      return;
    }
    const agora = new Date();
    await carregarDemo(banco, agora, diaLocal(agora, config.tz));
    await carregarDemoMercados(banco, agora);
    console.log('Dados de demonstração carregados.');
  } finally {
    await banco.destroy();
  }
}

/** The value after `--nome` among the command's arguments, if given. */
function opcao(args: readonly string[], nome: string): string | undefined {
  const i = args.indexOf(`--${nome}`);
  if (i < 0) return undefined;
  const v = args[i + 1];
  if (v === undefined || v.startsWith('--')) throw new ErroCopia(`--${nome} precisa de um valor`);
  return v;
}

async function backupCli(config: Config, args: readonly string[]): Promise<void> {
  const pasta = await fazerBackup(config.banco, config.dirArquivos, opcao(args, 'destino') ?? './data/backups');
  console.log(`Cópia gravada em ${pasta}`);
}

async function restoreCli(config: Config, args: readonly string[]): Promise<void> {
  const pasta = args.find((a) => !a.startsWith('--'));
  if (pasta === undefined) throw new ErroCopia('diga qual cópia restaurar: npm run restore -- <pasta da cópia>');
  await restaurar(config.banco, config.dirArquivos, pasta, () => abrirBanco(config.banco));
  console.log(`Cópia ${pasta} restaurada. Ao iniciar, o serviço aplica as migrações que faltarem.`);
}

async function exportCli(config: Config, args: readonly string[]): Promise<void> {
  const formato = opcao(args, 'format') ?? 'json';
  if (formato !== 'json') throw new ErroCopia(`formato de exportação desconhecido: ${formato} (use --format json)`);
  const banco = abrirBanco(config.banco);
  try {
    const json = `${JSON.stringify(await exportar(banco), null, 2)}\n`;
    const saida = opcao(args, 'saida');
    if (saida === undefined) process.stdout.write(json);
    else {
      writeFileSync(saida, json, { mode: MODO_ARQUIVO });
      tornarPrivado(saida);
      console.error(`Exportação gravada em ${saida}`);
    }
  } finally {
    await banco.destroy();
  }
}

const COMANDOS: Record<string, (c: Config, args: readonly string[]) => Promise<void>> = {
  serve: servir,
  migrate: migrarCli,
  seed: semearCli,
  backup: backupCli,
  restore: restoreCli,
  export: exportCli,
};

async function principal(): Promise<void> {
  const nome = process.argv[2] ?? 'serve';
  const comando = COMANDOS[nome];
  if (comando === undefined) {
    console.error(`Comando desconhecido: ${nome}. Use: ${Object.keys(COMANDOS).join(' | ')}`);
    process.exitCode = 2;
    return;
  }
  let config: Config;
  try {
    config = carregarConfig();
  } catch (e) {
    if (e instanceof ErroConfig) {
      console.error(`Configuração inválida: ${e.message}`);
      process.exitCode = 1;
      return;
    }
    throw e;
  }
  try {
    await comando(config, process.argv.slice(3));
  } catch (e) {
    if (!(e instanceof ErroCopia)) throw e;
    console.error(`Não foi possível concluir: ${e.message}`);
    process.exitCode = 1;
  }
}

principal().catch((e: unknown) => {
  console.error(e instanceof Error ? `Falha: ${e.message}` : e);
  process.exit(1);
});
