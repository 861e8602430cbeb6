/**
 * The cycle locks, on PostgreSQL (SQLite runs one writer at a time, so there is nothing to race).
 * Each test makes two writes overlap for certain: a third connection holds the audit table, which
 * every write inserts into just before it commits, so a write that has done its checks waits
 * there, still uncommitted. The second write starts once the first is waiting; the audit is
 * released once both are. With the cycle lock, the second write waits for the first to commit
 * and checks against it; without it, both check the same old state and both commit.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarExtra,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';
import { DIALETO } from '../helpers/banco.ts';
import type { Navegador, Resposta } from '../helpers/navegador.ts';
import { navegadorComSessao } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

describe(
  'as travas do ciclo ordenam escritas simultâneas (postgres)',
  { skip: DIALETO !== 'postgres' && 'só no PostgreSQL: o SQLite já serializa as escritas' },
  () => {
    const relogio = new RelogioDeTeste('2026-03-05T15:00:00Z');
    let amb: AmbienteDeTeste;
    let admin: Navegador;
    let outroAdmin: Navegador;
    let produtoId = 0;

    before(async () => {
      amb = await iniciarAmbiente({ relogio });
      admin = navegadorComSessao(amb, (await criarUsuario(amb.banco, { perfil: ['admin'] })).email);
      outroAdmin = navegadorComSessao(amb, (await criarUsuario(amb.banco, { perfil: ['admin'] })).email);
      produtoId = (await criarProduto(amb.banco, { nome: 'Abóbora', unidade: 'kg' })).id;
    });
    after(() => amb.fechar());

    /**
     * Connections of this test's database waiting for a lock; with `evento`, only those waiting
     * for that kind of lock ('relation': the audit table, where a write that got through every
     * other lock waits; 'advisory': an offer's or a product's lock).
     */
    type Evento = 'relation' | 'advisory';
    async function esperando(cliente: pg.Client, evento?: Evento): Promise<number> {
      // Inside a transaction, pg_stat_activity is read once and kept: ask for a fresh reading.
      await cliente.query('SELECT pg_stat_clear_snapshot()');
      const { rows } = await cliente.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()${evento === undefined ? '' : ' AND wait_event = $1'}`,
        evento === undefined ? [] : [evento],
      );
      return Number(rows[0]?.n ?? 0);
    }
    async function ate(
      cliente: pg.Client,
      n: number,
      escritas: ReadonlyArray<Promise<Resposta>>,
      evento?: Evento,
    ): Promise<void> {
      let respondida: Resposta | null = null;
      for (const e of escritas) void e.then((r) => (respondida = r));
      for (let i = 0; i < 400; i++) {
        if ((await esperando(cliente, evento)) >= n) return;
        // A write that answered did not wait: say what it answered.
        if (respondida !== null)
          throw new Error(
            `uma escrita respondeu sem esperar: ${(respondida as Resposta).status} ${(respondida as Resposta).texto}`,
          );
        await new Promise((r) => setTimeout(r, 10));
      }
      const { rows } = await cliente.query(
        'SELECT state, wait_event_type, wait_event, left(query, 120) AS q FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
      throw new Error(`${n} escritas deveriam estar esperando uma trava: ${JSON.stringify(rows)}`);
    }

    /**
     * Runs two writes so that they overlap (see above); answers in the order they were started.
     * `segundaEspera`: the kind of lock the second must be seen waiting for ('relation': the audit
     * table, so it did not wait for the first).
     */
    async function sobrepostas(
      primeira: () => Promise<Resposta>,
      segunda: () => Promise<Resposta>,
      segundaEspera?: Evento,
    ): Promise<[Resposta, Resposta]> {
      if (amb.bancoConfig.tipo !== 'postgres') throw new Error('só PostgreSQL');
      const cliente = new pg.Client({ connectionString: amb.bancoConfig.url });
      await cliente.connect();
      try {
        await cliente.query('BEGIN');
        await cliente.query('LOCK TABLE auditoria IN EXCLUSIVE MODE');
        const a = primeira();
        await ate(cliente, 1, [a]);
        const b = segunda();
        await ate(cliente, 2, [a, b]);
        if (segundaEspera !== undefined)
          await ate(cliente, segundaEspera === 'relation' ? 2 : 1, [a, b], segundaEspera);
        await cliente.query('COMMIT');
        return [await a, await b];
      } finally {
        await cliente.end();
      }
    }

    const alocadoNaLinha = async (linha: number) =>
      Number(
        (
          await amb.banco
            .selectFrom('composicaoproduto as cp')
            .innerJoin('composicao as c', 'c.id', 'cp.composicaoid')
            .select((eb) =>
              eb.fn
                .coalesce(
                  eb.fn.sum<number>(eb('cp.quantidadePorCestaMilesimos', '*', eb.ref('c.quantidadeCestas'))),
                  eb.lit(0),
                )
                .as('s'),
            )
            .where('cp.ofertaProdutoId', '=', linha)
            .executeTakeFirstOrThrow()
        ).s,
      );
    const compor = (quem: Navegador, cicloCestaId: number, linha: number, cestas: number) => () =>
      quem.postJson(`${amb.url}/composicao/${cicloCestaId}`, {
        quantidadeCestas: cestas,
        produtos: [{ ofertaProdutoId: linha, quantidadePorCesta: 1, unidade: 'kg' }],
      });

    async function cicloComOferta(
      kg: number,
    ): Promise<{ cicloid: number; cestas: number[]; linha: number; fornecedorId: number }> {
      const c = await criarCiclo(amb.banco, {
        datas: DATAS_PADRAO,
        cestas: [
          { cestaId: (await criarCesta(amb.banco)).id, quantidadeCestas: 100 },
          { cestaId: (await criarCesta(amb.banco)).id, quantidadeCestas: 100 },
        ],
      });
      const oferta = await criarOfertaFinalizada(amb.banco, c.id, [
        { produtoId, quantidadeMilesimos: kg * 1000, valorCentavos: 300 },
      ]);
      return { cicloid: c.id, cestas: c.cicloCestas, linha: oferta.linhas[0] ?? 0, fornecedorId: oferta.fornecedorId };
    }

    const ofertar = (cicloid: number, usuarioid: number, produtoid: number, kg: number) => () =>
      outroAdmin.postJson(`${amb.url}/ofertasave`, {
        cicloid,
        usuarioid,
        finalizar: true,
        produtos: [{ produtoid, quantidade: kg, valor: 3 }],
      });
    const ofertado = async (linha: number) =>
      (
        await amb.banco
          .selectFrom('ofertaproduto')
          .select('quantidadeMilesimos')
          .where('id', '=', linha)
          .executeTakeFirstOrThrow()
      ).quantidadeMilesimos;

    test('duas composições de cestas diferentes disputando a mesma linha: a segunda vê a primeira', async () => {
      const { cestas, linha } = await cicloComOferta(100);
      const [a, b] = await sobrepostas(
        compor(admin, cestas[0] ?? 0, linha, 60),
        compor(outroAdmin, cestas[1] ?? 0, linha, 60),
      );
      assert.equal(a.status, 200, a.texto);
      assert.equal(b.status, 409, b.texto);
      assert.match(b.json<{ error: string }>().error, /^Faltam 20 kg de Abóbora/);
      assert.equal(await alocadoNaLinha(linha), 60_000);
    });

    test('o fornecedor reduz a oferta enquanto a coordenação compõe: nada fica além do ofertado', async () => {
      const { cicloid, cestas, linha, fornecedorId } = await cicloComOferta(100);
      const reduzir = () =>
        outroAdmin.postJson(`${amb.url}/ofertasave`, {
          cicloid,
          usuarioid: fornecedorId,
          produtos: [{ produtoid: produtoId, quantidade: 50, valor: 3 }],
        });
      const [a, b] = await sobrepostas(compor(admin, cestas[0] ?? 0, linha, 60), reduzir);
      assert.equal(a.status, 200, a.texto);
      assert.equal(b.status, 409, b.texto);
      assert.equal(await ofertado(linha), 100_000);
      assert.equal(await alocadoNaLinha(linha), 60_000);
    });

    /**
     * Two suppliers, each with a final offer of `kg` of a product, save `novos` kg at once; the
     * second is seen waiting for `espera`. Both are saved; the quantities afterwards.
     */
    async function doisFornecedores(
      produtos: readonly [number, number],
      kg: readonly [number, number],
      novos: readonly [number, number],
      espera: Evento,
      extraKg = 0,
    ): Promise<number[]> {
      const c = await criarCiclo(amb.banco, { datas: DATAS_PADRAO });
      const ofertas = [];
      for (const i of [0, 1] as const)
        ofertas.push(
          await criarOfertaFinalizada(amb.banco, c.id, [
            { produtoId: produtos[i], quantidadeMilesimos: kg[i] * 1000, valorCentavos: 300 },
          ]),
        );
      const [o1, o2] = ofertas as [(typeof ofertas)[0], (typeof ofertas)[0]];
      if (extraKg > 0)
        await criarExtra(amb.banco, c.id, {
          produtoId: produtos[0],
          quantidadeMilesimos: extraKg * 1000,
          valorCentavos: 400,
        });
      const [a, b] = await sobrepostas(
        ofertar(c.id, o1.fornecedorId, produtos[0], novos[0]),
        ofertar(c.id, o2.fornecedorId, produtos[1], novos[1]),
        espera,
      );
      assert.equal(a.status, 200, a.texto);
      assert.equal(b.status, 200, b.texto);
      return [await ofertado(o1.linhas[0] ?? 0), await ofertado(o2.linhas[0] ?? 0)];
    }

    test('dois fornecedores salvam ofertas de produtos diferentes ao mesmo tempo: nenhum espera o outro', async () => {
      const [p1, p2] = [await criarProduto(amb.banco), await criarProduto(amb.banco)];
      // Both get past the cycle's lock and their products' locks and wait only for the audit table.
      assert.deepEqual(await doisFornecedores([p1.id, p2.id], [10, 10], [8, 9], 'relation'), [8_000, 9_000]);
    });

    test('dois fornecedores do mesmo produto ao mesmo tempo: o segundo espera a trava do produto e confere depois do primeiro', async () => {
      const p = await criarProduto(amb.banco, { unidade: 'kg' });
      // 120 kg of extras: the first line backs 100 of them, the second 20. The first supplier offers
      // 20 kg more; then the second can go down to 10 kg, because the first backs all 120 kg.
      assert.deepEqual(await doisFornecedores([p.id, p.id], [100, 50], [120, 10], 'advisory', 120), [120_000, 10_000]);
    });

    test('duas gravações da mesma oferta ao mesmo tempo: a segunda substitui a primeira, sem somar as linhas', async () => {
      const c = await criarCiclo(amb.banco, { datas: DATAS_PADRAO });
      const [p1, p2] = [await criarProduto(amb.banco), await criarProduto(amb.banco)];
      const fornecedor = await criarUsuario(amb.banco, { perfil: ['fornecedor'] });
      const [a, b] = await sobrepostas(
        ofertar(c.id, fornecedor.id, p1.id, 5),
        ofertar(c.id, fornecedor.id, p2.id, 6),
        'advisory',
      );
      // The first creates the offer; the second, which waited for it, saves over it.
      assert.equal(a.status, 201, a.texto);
      assert.equal(b.status, 200, b.texto);
      const linhas = await amb.banco
        .selectFrom('ofertaproduto as op')
        .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
        .select(['op.produtoid', 'op.quantidadeMilesimos'])
        .where('o.cicloid', '=', c.id)
        .where('o.usuarioid', '=', fornecedor.id)
        .execute();
      assert.deepEqual(linhas, [{ produtoid: p2.id, quantidadeMilesimos: 6_000 }]);
    });

    test('a oferta tira a linha enquanto uma composição passa a usá-la: recusa limpa, nunca um erro 500', async () => {
      const { cicloid, cestas, linha, fornecedorId } = await cicloComOferta(100);
      const tirar = () =>
        outroAdmin.postJson(`${amb.url}/ofertaapagarproduto`, {
          cicloid,
          produtoid: produtoId,
          usuarioid: fornecedorId,
        });
      const [a, b] = await sobrepostas(tirar, compor(admin, cestas[0] ?? 0, linha, 10));
      assert.equal(a.status, 200, a.texto);
      assert.equal(b.status, 400, b.texto);
      assert.equal(await alocadoNaLinha(linha), 0);
    });

    test('fechar o ciclo enquanto a coordenação confirma um pedido: o pedido entra no fechamento ou é recusado, nunca fica de fora', async () => {
      relogio.definir('2026-03-10T15:00:00Z');
      try {
        const cesta = await criarCesta(amb.banco, { valorCentavos: 5000 });
        const c = await criarCiclo(amb.banco, {
          datas: DATAS_PADRAO,
          cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
        });
        const consumidora = await criarUsuario(amb.banco, { perfil: ['consumidor'] });
        const ponto = await criarPonto(amb.banco);
        const iso = new Date().toISOString();
        const pedido = await amb.banco
          .insertInto('pedido')
          .values({
            cicloid: c.id,
            usuarioid: consumidora.id,
            pontoEntregaId: ponto.id,
            createdAt: iso,
            updatedAt: iso,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        await amb.banco
          .insertInto('pedidoproduto')
          .values({
            pedidoid: pedido.id,
            cicloCestaId: c.cicloCestas[0] ?? 0,
            quantidadeMilesimos: 1000,
            valorCentavos: 5000,
            createdAt: iso,
            updatedAt: iso,
          })
          .execute();
        const fechar = () => admin.postJson(`${amb.url}/fecharciclo/${c.id}`, {});
        const confirmar = () =>
          outroAdmin.postJson(`${amb.url}/pedidoconsumidoresconfirmacao`, { pedidoId: pedido.id });
        const [a, b] = await sobrepostas(fechar, confirmar);
        assert.equal(a.status, 200, a.texto);
        const confirmado = Boolean(
          (
            await amb.banco
              .selectFrom('pedido')
              .select('finalizado')
              .where('id', '=', pedido.id)
              .executeTakeFirstOrThrow()
          ).finalizado,
        );
        const debitos = await amb.banco
          .selectFrom('movimentacao')
          .select('valorCentavos')
          .where('cicloid', '=', c.id)
          .where('usuarioid', '=', consumidora.id)
          .execute();
        // The close came first: it debited nothing (the order was not confirmed), and the
        // confirmation that waited for it found the cycle closed.
        assert.deepEqual(
          { status: b.status, confirmado, debitos: debitos.length },
          { status: 409, confirmado: false, debitos: 0 },
          b.texto,
        );
        assert.equal(
          b.json<{ error: string }>().error,
          'Este ciclo já foi fechado: nada nele muda, a não ser que um master o reabra',
        );
      } finally {
        relogio.definir('2026-03-05T15:00:00Z');
      }
    });

    test('dois fechamentos ao mesmo tempo: um fecha, o outro encontra o ciclo fechado', async () => {
      relogio.definir('2026-03-10T15:00:00Z');
      try {
        const c = await criarCiclo(amb.banco, { datas: DATAS_PADRAO });
        const [a, b] = await sobrepostas(
          () => admin.postJson(`${amb.url}/fecharciclo/${c.id}`, {}),
          () => outroAdmin.postJson(`${amb.url}/fecharciclo/${c.id}`, {}),
        );
        assert.equal(a.status, 200, a.texto);
        assert.equal(b.status, 200, b.texto);
        const registros = await amb.banco
          .selectFrom('auditoria')
          .select('id')
          .where('entidade', '=', 'ciclo')
          .where('entidadeId', '=', String(c.id))
          .where('acao', '=', 'fechar ciclo')
          .execute();
        assert.equal(registros.length, 1, 'um só registro de fechamento na auditoria');
      } finally {
        relogio.definir('2026-03-05T15:00:00Z');
      }
    });
  },
);
