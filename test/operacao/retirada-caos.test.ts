/**
 * The pickup's sync under chaos: two devices at one point, each with its own queue of actions
 * made offline; random flips between offline and online; batches sent again after their answer
 * was lost; the same action resent on purpose; and the server process killed (SIGKILL) while a
 * sync is on its way, then started again on the same database. At the end, with every queue
 * empty, the server holds every action exactly once: none lost, none doubled, one ledger payment
 * per payment, one audit row per action, and the shorts' movements written once at closing.
 *
 * The devices speak the real protocol (GraphQL `sincronizarRetirada` over HTTP, after a real
 * login through the development provider), with a seeded generator, so a failure is replayable
 * with the seed it prints.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { test } from 'node:test';
import { gerarDados } from '../../bench/dados.ts';
import { portaLivre } from '../../bench/processos.ts';
import { abrirBanco } from '../../src/db/banco.ts';
import { fecharCiclo } from '../../src/domain/financeiro.ts';
import { bancoNovo, urlDoBanco } from '../helpers/banco.ts';
import { COOKIE_SESSAO } from '../../src/mercados/sessao.ts';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { parar, subirServidor, type ProcessoServidor } from '../helpers/processos.ts';

/** A small, seeded generator (mulberry32): the same seed, the same chaos. */
function gerador(semente: number): () => number {
  let a = semente >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Acao {
  readonly chave: string;
  readonly tipo: 'retirada' | 'falta' | 'pagamento' | 'nota';
  readonly pedidoId: string;
  readonly pedidoProdutoId?: string;
  readonly quantidade?: string;
  readonly valor?: string;
  readonly forma?: 'dinheiro' | 'pix';
  readonly texto?: string;
  readonly feitoEm: string;
}

interface Pedido {
  readonly id: string;
  readonly itens: ReadonlyArray<{ pedidoProdutoId: string; tipo: string; quantidade: string }>;
}

const SINCRONIZAR = `mutation ($cicloId: ID!, $pontoId: ID!, $dispositivo: ID!, $acoes: [AcaoDeRetiradaInput!]!) {
  sincronizarRetirada(cicloId: $cicloId, pontoId: $pontoId, dispositivo: $dispositivo, acoes: $acoes) { chave estado mensagem }
}`;

test('caos na sincronização da retirada: nada se perde e nada se repete', { timeout: 300_000 }, async (t) => {
  const semente = Number(process.env.SEMENTE_CAOS ?? Date.now() % 1_000_000);
  const aleatorio = gerador(semente);
  const sorteio = (n: number) => Math.floor(aleatorio() * n);
  const cfg = await bancoNovo();
  const banco = abrirBanco(cfg);
  // 160 consumers over 8 points: 20 confirmed orders at each, in a cycle past its order window.
  const dados = await gerarDados(banco, { consumidores: 160, fornecedores: 4, linhas: 40 });
  const ponto = await banco
    .selectFrom('pedido')
    .select('pontoEntregaId')
    .where('cicloid', '=', dados.cicloid)
    .orderBy('pontoEntregaId')
    .executeTakeFirstOrThrow();
  const [cestas, mercados, idp] = [await portaLivre(), await portaLivre(), await portaLivre()];
  const env = {
    DATABASE_URL: urlDoBanco(cfg),
    SESSION_SECRET: randomBytes(32).toString('base64url'),
    APP_SESSION_SECRET: randomBytes(32).toString('base64url'),
    VARIANTS: 'cestas,mercados',
    CESTAS_PORT: String(cestas),
    MERCADOS_PORT: String(mercados),
    DEV_IDP_PORT: String(idp),
    HOST: '127.0.0.1',
    WORKERS: '1',
  };
  // The address the face announces itself at (its callback is registered there).
  const urlMercados = `http://localhost:${mercados}`;
  let servidor: ProcessoServidor = await subirServidor(env);
  try {
    // Two volunteers' phones; the coordination's account runs both (one account, two devices).
    const nav = new Navegador();
    await entrarPeloProvedor(nav, `${urlMercados}/login`, { email: dados.adminEmail, nome: 'Admin Bench' });
    const cookie = `${COOKIE_SESSAO}=${nav.cookie(urlMercados, COOKIE_SESSAO) ?? ''}`;
    const gql = async (query: string, variables: Record<string, unknown>, sinal?: AbortSignal) => {
      const r = await fetch(`${urlMercados}/graphql`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ query, variables }),
        signal: sinal,
      });
      return (await r.json()) as { data?: Record<string, unknown> | null; errors?: Array<{ message: string }> };
    };
    const foto = await gql(
      `query ($c: ID!, $p: ID!) { retiradaDoPonto(cicloId: $c, pontoId: $p) { pedidos { id itens { pedidoProdutoId tipo quantidade } } } }`,
      { c: String(dados.cicloid), p: String(ponto.pontoEntregaId) },
    );
    assert.equal(foto.errors, undefined, JSON.stringify(foto.errors));
    const pedidos = (foto.data?.retiradaDoPonto as { pedidos: Pedido[] }).pedidos;
    assert.equal(pedidos.length, 20);

    // Each device's actions, made "offline" up front. Both tick some of the same orders, both take
    // payments from the same people (two payments are two payments), and only device A marks shorts.
    const instante = (i: number) => new Date(Date.UTC(2026, 2, 11, 12, 0, i)).toISOString();
    const feitas: Acao[][] = [[], []];
    pedidos.forEach((p, i) => {
      const quem = i % 3 === 0 ? [0, 1] : [i % 2];
      for (const d of quem)
        feitas[d]?.push({ chave: randomUUID(), tipo: 'retirada', pedidoId: p.id, feitoEm: instante(i) });
      if (i % 4 === 0)
        for (const d of [0, 1])
          feitas[d]?.push({
            chave: randomUUID(),
            tipo: 'pagamento',
            pedidoId: p.id,
            valor: `${10 + i}.50`,
            forma: d === 0 ? 'dinheiro' : 'pix',
            feitoEm: instante(i + 1),
          });
      const extra = p.itens.find((it) => it.tipo === 'extra');
      if (extra !== undefined)
        feitas[0]?.push({
          chave: randomUUID(),
          tipo: 'falta',
          pedidoId: p.id,
          pedidoProdutoId: extra.pedidoProdutoId,
          quantidade: '0.5',
          feitoEm: instante(i + 2),
        });
      if (i % 5 === 0)
        feitas[1]?.push({
          chave: randomUUID(),
          tipo: 'nota',
          pedidoId: p.id,
          texto: `Nota ${i}`,
          feitoEm: instante(i + 3),
        });
    });
    const todas = feitas.flat();
    const filas = feitas.map((f) => [...f]);
    const enviadas = new Set<string>();
    const online = [true, true];
    let mortes = 0;
    let reenvios = 0;
    let cortes = 0;
    // The first sync loses its answer and the third dies with the server, whatever the seed; after that, chance decides.
    let envios = 0;

    const sincronizar = async (d: number, lote: Acao[], sinal?: AbortSignal) => {
      const r = await gql(
        SINCRONIZAR,
        {
          cicloId: String(dados.cicloid),
          pontoId: String(ponto.pontoEntregaId),
          dispositivo: `aparelho-${d}-caos`,
          acoes: lote,
        },
        sinal,
      );
      assert.equal(r.errors, undefined, JSON.stringify(r.errors));
      const resultados = r.data?.sincronizarRetirada as Array<{
        chave: string;
        estado: string;
        mensagem: string | null;
      }>;
      for (const res of resultados) {
        assert.notEqual(res.estado, 'recusada', `${res.chave}: ${res.mensagem}`);
        if (res.estado === 'repetida') assert.ok(enviadas.has(res.chave) || lote.some((a) => a.chave === res.chave));
        enviadas.add(res.chave);
      }
      const aceitas = new Set(resultados.map((x) => x.chave));
      filas[d] = (filas[d] ?? []).filter((a) => !aceitas.has(a.chave));
    };

    for (let passo = 0; passo < 400 && filas.some((f) => f.length > 0); passo++) {
      const d = sorteio(2);
      const evento = aleatorio();
      if (evento < 0.2) {
        online[d] = !online[d];
        continue;
      }
      if (!online[d]) continue;
      const fila = filas[d] ?? [];
      if (fila.length === 0) continue;
      const lote = fila.slice(0, 1 + sorteio(6));
      envios++;
      // Now and then, an action already acknowledged goes again, as a device that lost the answer.
      const jaIda = todas.find((a) => enviadas.has(a.chave) && sorteio(3) === 0);
      if (jaIda !== undefined) {
        lote.push(jaIda);
        reenvios++;
      }
      if (envios === 1 || (envios > 3 && evento < 0.3)) {
        // The answer is lost on the way: the request may or may not have been applied.
        const corte = new AbortController();
        cortes++;
        setTimeout(() => corte.abort(), sorteio(15));
        await sincronizar(d, lote, corte.signal).catch(() => undefined);
        continue;
      }
      if (envios === 3 || (envios > 3 && evento < 0.36 && mortes < 3)) {
        // The server dies in the middle of a sync, and comes back on the same database.
        const pedido = sincronizar(d, lote).catch(() => undefined);
        await new Promise((r) => setTimeout(r, sorteio(20)));
        servidor.filho.kill('SIGKILL');
        await pedido;
        if (servidor.filho.exitCode === null && servidor.filho.signalCode === null)
          await new Promise((r) => servidor.filho.once('exit', r));
        servidor = await subirServidor(env);
        mortes++;
        continue;
      }
      await sincronizar(d, lote);
    }
    // Back online for good: everything left goes.
    for (const d of [0, 1]) while ((filas[d] ?? []).length > 0) await sincronizar(d, (filas[d] ?? []).slice(0, 50));

    const guardadas = await banco.selectFrom('acaoretirada').select(['chave', 'tipo']).execute();
    assert.equal(guardadas.length, todas.length, `semente ${semente}: nenhuma perdida, nenhuma repetida`);
    assert.deepEqual(new Set(guardadas.map((g) => g.chave)), new Set(todas.map((a) => a.chave)));
    const pagamentos = todas.filter((a) => a.tipo === 'pagamento');
    const movimentos = await banco
      .selectFrom('movimentacao')
      .select(['chave', 'valorCentavos'])
      .where('chave', 'like', 'retirada:%')
      .execute();
    assert.equal(movimentos.length, pagamentos.length, 'um pagamento no livro-caixa por pagamento feito');
    assert.equal(
      movimentos.reduce((s, m) => s + m.valorCentavos, 0),
      pagamentos.reduce((s, a) => s + Math.round(Number(a.valor) * 100), 0),
    );
    const auditadas = await banco
      .selectFrom('auditoria')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('acao', 'like', 'retirada:%')
      .executeTakeFirstOrThrow();
    assert.equal(Number(auditadas.n), todas.length, 'uma linha de auditoria por ação');
    // The shorts were recorded before the closing: the closing writes their money, once, and a
    // second closing writes nothing more.
    await parar(servidor.filho);
    const admin = await banco
      .selectFrom('usuario')
      .select('id')
      .where('email', '=', dados.adminEmail)
      .executeTakeFirstOrThrow();
    const ator = {
      email: dados.adminEmail,
      nome: 'Admin Bench',
      usuarioid: admin.id,
      perfil: ['admin'] as const,
      ativo: true,
    };
    const fechar = () =>
      fecharCiclo(banco, ator, dados.cicloid, {
        agora: new Date('2026-03-12T20:00:00Z'),
        hoje: '2026-03-12',
        taxa: { percentualCentesimos: 500, fixaCentavos: 0 },
      });
    await fechar();
    await fechar();
    const faltas = todas.filter((a) => a.tipo === 'falta').length;
    const dasFaltas = await banco
      .selectFrom('movimentacao')
      .select('chave')
      .where('chave', 'like', 'retirada:%:consumidor')
      .execute();
    assert.equal(dasFaltas.length, faltas, 'cada falta devolve ao consumidor uma vez');
    t.diagnostic(
      `semente ${semente}: ${todas.length} ações, ${mortes} mortes do servidor, ${cortes} respostas perdidas, ${reenvios} reenvios`,
    );
    assert.ok(
      mortes > 0 && reenvios > 0 && cortes > 0,
      `semente ${semente}: o caos aconteceu (${mortes} mortes, ${reenvios} reenvios)`,
    );
  } finally {
    await parar(servidor.filho);
    await banco.destroy();
  }
});
