/**
 * `npm run backup`, `npm run restore` and `npm run export -- --format json` as real processes:
 * a backup restored into a fresh database gives the same export as the original, receipts
 * included; restore refuses a database that already has data.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { abrirBanco } from '../../src/db/banco.ts';
import type { Exportacao } from '../../src/db/copias.ts';
import { carregarDemo } from '../../src/demo/dados.ts';
import { carregarDemoMercados } from '../../src/demo/mercados.ts';
import { diaLocal } from '../../src/domain/tempo.ts';
import { DIALETO, bancoNovo, bancoVazio, urlDoBanco } from '../helpers/banco.ts';
import { argumentosDoScript, rodarComando } from '../helpers/processos.ts';

const temPgDump = spawnSync('pg_dump', ['--version']).status === 0;
/** Each test starts several real processes; on a busy 2-core machine a start can take many seconds. */
const TEMPO_DE_PROCESSOS = 300_000;

function comando(script: string): string[] {
  return argumentosDoScript(script).slice(argumentosDoScript(script).indexOf('src/main.ts') + 1);
}

test(
  `backup e restore num banco novo dão a mesma exportação JSON, com os comprovantes (${DIALETO})`,
  { skip: DIALETO === 'postgres' && !temPgDump ? 'pg_dump não está instalado' : false, timeout: TEMPO_DE_PROCESSOS },
  async () => {
    const origem = await bancoNovo();
    const banco = abrirBanco(origem);
    const agora = new Date();
    await carregarDemo(banco, agora, diaLocal(agora, 'America/Sao_Paulo'));
    await carregarDemoMercados(banco, agora);
    await banco.destroy();
    const dir = mkdtempSync(join(tmpdir(), 'cestaria-copias-'));
    const arquivosOrigem = mkdtempSync(join(tmpdir(), 'cestaria-arquivos-'));
    writeFileSync(join(arquivosOrigem, 'comprovante-1.pdf'), '%PDF-1.4 comprovante de teste');
    const envOrigem = { DATABASE_URL: urlDoBanco(origem), UPLOAD_DIR: arquivosOrigem };

    const antes = await rodarComando(
      [...comando('export'), '--format', 'json', '--saida', join(dir, 'antes.json')],
      envOrigem,
    );
    assert.equal(antes.codigo, 0, antes.erro);
    const copia = await rodarComando([...comando('backup'), '--destino', join(dir, 'copias')], envOrigem);
    assert.equal(copia.codigo, 0, copia.erro);
    const pasta = /Cópia gravada em (.+)/.exec(copia.saida)?.[1]?.trim() ?? '';
    assert.match(pasta, /cestaria-\d{4}-\d{2}-\d{2}T/);
    assert.deepEqual(readdirSync(join(pasta, 'arquivos')), ['comprovante-1.pdf']);
    // A copy holds everyone's data: only the service's account reads it.
    const modo = (c: string) => statSync(c).mode & 0o777;
    assert.equal(modo(pasta), 0o700);
    assert.equal(modo(join(pasta, 'arquivos')), 0o700);
    for (const arquivo of readdirSync(pasta).filter((n) => n !== 'arquivos'))
      assert.equal(modo(join(pasta, arquivo)), 0o600, arquivo);
    assert.equal(modo(join(pasta, 'arquivos', 'comprovante-1.pdf')), 0o600);
    assert.equal(modo(join(dir, 'antes.json')), 0o600, 'a exportação');

    const destino = await bancoVazio();
    const arquivosDestino = mkdtempSync(join(tmpdir(), 'cestaria-arquivos-'));
    const envDestino = { DATABASE_URL: urlDoBanco(destino), UPLOAD_DIR: arquivosDestino };
    const restaurado = await rodarComando([...comando('restore'), pasta], envDestino);
    assert.equal(restaurado.codigo, 0, restaurado.erro);
    assert.equal(statSync(join(arquivosDestino, 'comprovante-1.pdf')).mode & 0o777, 0o600, 'o comprovante restaurado');
    if (destino.tipo === 'sqlite') assert.equal(statSync(destino.caminho).mode & 0o777, 0o600, 'o banco restaurado');
    const depois = await rodarComando([...comando('export'), '--format', 'json'], envDestino);
    assert.equal(depois.codigo, 0, depois.erro);

    const a = JSON.parse(readFileSync(join(dir, 'antes.json'), 'utf8')) as Exportacao;
    const b = JSON.parse(depois.saida) as Exportacao;
    assert.ok(
      (a.tabelas.usuario?.length ?? 0) > 3 &&
        (a.tabelas.appuser?.length ?? 0) > 0 &&
        (a.tabelas.ciclo?.length ?? 0) > 0,
      'a exportação tem dados',
    );
    assert.deepEqual(b.tabelas, a.tabelas);
    assert.deepEqual(b.migracoes, a.migracoes);
    assert.equal(readFileSync(join(arquivosDestino, 'comprovante-1.pdf'), 'utf8'), '%PDF-1.4 comprovante de teste');

    const deNovo = await rodarComando([...comando('restore'), pasta], envDestino);
    assert.equal(deNovo.codigo, 1);
    assert.match(deNovo.erro, /o banco de destino já tem tabelas; restaure num banco novo/);
  },
);

test(
  'comandos de cópia com argumentos errados explicam o que falta, em português',
  { timeout: TEMPO_DE_PROCESSOS },
  async () => {
    const cfg = await bancoNovo();
    const env = { DATABASE_URL: urlDoBanco(cfg), UPLOAD_DIR: mkdtempSync(join(tmpdir(), 'cestaria-arquivos-')) };
    const semPasta = await rodarComando(comando('restore'), env);
    assert.equal(semPasta.codigo, 1);
    assert.match(semPasta.erro, /diga qual cópia restaurar/);
    const naoECopia = await rodarComando([...comando('restore'), tmpdir()], env);
    assert.equal(naoECopia.codigo, 1);
    assert.match(naoECopia.erro, /não é uma cópia do Cestaria/);
    const formato = await rodarComando([...comando('export'), '--format', 'xml'], env);
    assert.equal(formato.codigo, 1);
    assert.match(formato.erro, /formato de exportação desconhecido: xml/);
  },
);
