/**
 * On PostgreSQL the counters of `versaodados` move when the writing transaction commits
 * (migration 20261203_1000_versao_no_commit): an open write never holds the counter's row, the
 * counter moves once per transaction, and only a commit moves it; a commit takes the counters' rows
 * in id order (20261204_1000_versoes_em_ordem), so two commits never deadlock on them.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Migrator, sql } from 'kysely';
import pg from 'pg';
import { abrirBanco, type Banco } from '../../src/db/banco.ts';
import { provedorDeMigracoes } from '../../src/db/migrations/index.ts';
import { VERSAO_DOS_CICLOS, VERSAO_DOS_MERCADOS, versaoDosDados } from '../../src/db/versoes.ts';
import { DIALETO, bancoNovo, urlDoBanco } from '../helpers/banco.ts';
import { criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';

describe(
  'os contadores de versão andam no commit (postgres)',
  { skip: DIALETO !== 'postgres' && 'só no PostgreSQL: o SQLite tem um escritor por vez' },
  () => {
    let banco: Banco;
    let url = '';
    before(async () => {
      const cfg = await bancoNovo();
      url = urlDoBanco(cfg);
      banco = abrirBanco(cfg);
    });
    after(() => banco.destroy());

    async function cliente(): Promise<pg.Client> {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      return c;
    }

    test('uma escrita aberta não segura a linha do contador, que anda uma vez, no commit', async () => {
      const ponto = await criarPonto(banco);
      const produto = await criarProduto(banco);
      const escritor = await cliente();
      const outro = await cliente();
      try {
        const antes = await versaoDosDados(banco, VERSAO_DOS_CICLOS);
        const antesMercados = await versaoDosDados(banco, VERSAO_DOS_MERCADOS);
        await escritor.query('BEGIN');
        // Three statements on two tables of the same counter, and one of the other counter.
        await escritor.query('UPDATE pontoentrega SET nome = nome WHERE id = $1', [ponto.id]);
        await escritor.query('UPDATE pontoentrega SET nome = nome WHERE id = $1', [ponto.id]);
        await escritor.query('UPDATE produto SET nome = nome WHERE id = $1', [produto.id]);
        const dentro = await escritor.query<{ versao: string }>('SELECT versao FROM versaodados WHERE id = $1', [
          VERSAO_DOS_CICLOS,
        ]);
        assert.equal(Number(dentro.rows[0]?.versao), antes, 'dentro da transação o contador ainda não andou');
        // Another writer takes the counter's row at once: nobody is holding it.
        await outro.query('BEGIN');
        const travadas = await outro.query('SELECT id FROM versaodados WHERE id IN (1, 2) FOR UPDATE NOWAIT');
        assert.equal(travadas.rowCount, 2);
        await outro.query('ROLLBACK');
        assert.equal(await versaoDosDados(banco, VERSAO_DOS_CICLOS), antes, 'fora dela, nada se vê antes do commit');
        await escritor.query('COMMIT');
        assert.equal(await versaoDosDados(banco, VERSAO_DOS_CICLOS), antes + 1);
        assert.equal(await versaoDosDados(banco, VERSAO_DOS_MERCADOS), antesMercados + 1);
        // The next transaction of the same connection moves it again.
        await escritor.query('UPDATE pontoentrega SET nome = nome WHERE id = $1', [ponto.id]);
        assert.equal(await versaoDosDados(banco, VERSAO_DOS_CICLOS), antes + 2);
      } finally {
        await escritor.end();
        await outro.end();
      }
    });

    test('dois escritores que movem os contadores em ordens opostas não se travam: o segundo espera o primeiro', async () => {
      // Rows of their own: the two wait only on the counters' rows.
      const [pontoDeA, pontoDeB] = [await criarPonto(banco), await criarPonto(banco)];
      const [pessoaDeA, pessoaDeB] = [
        await criarUsuario(banco, { nome: 'Ordem A', perfil: ['consumidor'] }),
        await criarUsuario(banco, { nome: 'Ordem B', perfil: ['consumidor'] }),
      ];
      const a = await cliente();
      const b = await cliente();
      try {
        const antes = [
          await versaoDosDados(banco, VERSAO_DOS_MERCADOS),
          await versaoDosDados(banco, VERSAO_DOS_CICLOS),
        ];
        const pidDeA = Number((await a.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid);
        // B writes a table of counter 1 and moves it now (what its commit would do first).
        await b.query('BEGIN');
        await b.query('UPDATE usuario SET ativo = ativo WHERE id = $1', [pessoaDeB.id]);
        await b.query('SET CONSTRAINTS ALL IMMEDIATE');
        // A writes a table of counter 2, moves it, then writes one of counter 1 and commits: the
        // opposite order.
        await a.query('BEGIN');
        await a.query('UPDATE pontoentrega SET nome = nome WHERE id = $1', [pontoDeA.id]);
        const deA = (async () => {
          await a.query('SET CONSTRAINTS ALL IMMEDIATE');
          await a.query('UPDATE usuario SET ativo = ativo WHERE id = $1', [pessoaDeA.id]);
          await a.query('COMMIT');
        })();
        // A waits for counter 1's row, which B holds.
        for (let i = 0; ; i++) {
          const { rows } = await banco.executeQuery<{ w: string | null }>(
            sql<{ w: string | null }>`SELECT wait_event_type AS w FROM pg_stat_activity WHERE pid = ${pidDeA}`.compile(
              banco,
            ),
          );
          if (rows[0]?.w === 'Lock') break;
          assert.ok(i < 1000, 'A devia esperar pela linha do contador 1');
          await new Promise((r) => setTimeout(r, 10));
        }
        // B now writes a table of counter 2 and commits. Had A taken counter 2's row before
        // waiting for counter 1's, each would wait for the other (a deadlock, one of them failed).
        await b.query('UPDATE pontoentrega SET nome = nome WHERE id = $1', [pontoDeB.id]);
        await b.query('COMMIT');
        await deA;
        assert.deepEqual(
          [await versaoDosDados(banco, VERSAO_DOS_MERCADOS), await versaoDosDados(banco, VERSAO_DOS_CICLOS)],
          [(antes[0] ?? 0) + 2, (antes[1] ?? 0) + 2],
          'cada transação moveu cada contador uma vez',
        );
      } finally {
        await a.end();
        await b.end();
      }
    });

    test('o que foi desfeito não move o contador, nem um savepoint desfeito', async () => {
      const ponto = await criarPonto(banco);
      const c = await cliente();
      try {
        const antes = await versaoDosDados(banco, VERSAO_DOS_CICLOS);
        await c.query('BEGIN');
        await c.query('UPDATE pontoentrega SET nome = nome WHERE id = $1', [ponto.id]);
        await c.query('ROLLBACK');
        await c.query('BEGIN');
        await c.query('SAVEPOINT s');
        await c.query('UPDATE pontoentrega SET nome = nome WHERE id = $1', [ponto.id]);
        await c.query('ROLLBACK TO SAVEPOINT s');
        await c.query('COMMIT');
        assert.equal(await versaoDosDados(banco, VERSAO_DOS_CICLOS), antes);
        // A statement that changes no row moves nothing either.
        await c.query('UPDATE pontoentrega SET nome = nome WHERE id = -1');
        assert.equal(await versaoDosDados(banco, VERSAO_DOS_CICLOS), antes);
        // TRUNCATE, which has no row events, still moves it, at once.
        await c.query('BEGIN');
        await c.query('TRUNCATE ciclomercadoponto');
        const dentro = await c.query<{ versao: string }>('SELECT versao FROM versaodados WHERE id = 2');
        await c.query('ROLLBACK');
        assert.equal(Number(dentro.rows[0]?.versao), antes + 1);
      } finally {
        await c.end();
      }
    });

    test('desfazer a migração devolve os gatilhos de antes, e refazê-la volta a este', async () => {
      const definicoes = async () =>
        (
          await sql<{
            d: string;
          }>`SELECT pg_get_triggerdef(t.oid) AS d FROM pg_trigger t JOIN pg_proc p ON p.oid = t.tgfoid
          WHERE NOT t.tgisinternal AND p.proname LIKE 'cestaria_%versao%' ORDER BY 1`.execute(banco)
        ).rows.map((r) => r.d);
      const migrador = new Migrator({ db: banco, provider: provedorDeMigracoes({ dialeto: 'postgres' }) });
      const agora = await definicoes();
      assert.ok(
        agora.some((d) => d.includes('CONSTRAINT TRIGGER ofertaproduto_versao2_no_commit_tg')),
        agora.join('\n'),
      );
      assert.ok(
        agora.every((d) => d.includes('DEFERRABLE INITIALLY DEFERRED') || d.includes('AFTER TRUNCATE ON')),
        agora.join('\n'),
      );
      const funcao = async () =>
        (
          await sql<{
            f: string;
          }>`SELECT prosrc AS f FROM pg_proc WHERE proname = 'cestaria_versao_no_commit'`.execute(banco)
        ).rows[0]?.f ?? '';
      const emOrdem = 'PERFORM 1 FROM versaodados WHERE id < TG_ARGV[0]::integer ORDER BY id FOR NO KEY UPDATE;';
      assert.ok((await funcao()).includes(emOrdem), await funcao());
      // The newest first: the rows in order (20261204_1000_versoes_em_ordem), then the commit.
      const semOrdem = await migrador.migrateDown();
      assert.equal(semOrdem.error, undefined);
      assert.deepEqual(
        semOrdem.results?.map((r) => r.migrationName),
        ['20261204_1000_versoes_em_ordem'],
      );
      assert.ok(!(await funcao()).includes(emOrdem), await funcao());
      assert.ok((await funcao()).includes('UPDATE versaodados SET versao = versao + 1'), await funcao());
      assert.deepEqual(await definicoes(), agora);
      const desfeita = await migrador.migrateDown();
      assert.equal(desfeita.error, undefined);
      assert.deepEqual(
        desfeita.results?.map((r) => r.migrationName),
        ['20261203_1000_versao_no_commit'],
      );
      const antes = await definicoes();
      assert.ok(
        antes.includes(
          'CREATE TRIGGER usuario_versao_tg AFTER INSERT OR DELETE OR UPDATE OF perfil, ativo OR TRUNCATE ON public.usuario FOR EACH STATEMENT EXECUTE FUNCTION cestaria_mudou_versao()',
        ),
        antes.join('\n'),
      );
      assert.ok(
        antes.every((d) => d.includes('FOR EACH STATEMENT')),
        antes.join('\n'),
      );
      assert.equal(antes.length, agora.length / 2);
      const refeita = await migrador.migrateToLatest();
      assert.equal(refeita.error, undefined);
      assert.deepEqual(await definicoes(), agora);
      assert.ok((await funcao()).includes(emOrdem), await funcao());
    });
  },
);
