import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CUSTO_MAXIMO } from '../../src/mercados/graphql/limites.ts';
import { FilaCheia, filaDeExecucao } from '../../src/mercados/graphql/rota.ts';
import { criarProduto } from '../helpers/fabricas.ts';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { contaComSessao, criarMercadoNoBanco, graphql } from '../mercados/apoio.ts';

const MERCADOS = 100;
const PRECOS = 13;
const HOSTIL =
  '{ a: mercados { admin { mercados { precos { produto { nome } } } } } b: mercados { admin { mercados { precos { produto { nome } } } } } }';

/** Aliases of the same list, each with a different name, so no answer comes from the read cache. */
function apelidos(quantos: number, selecao: string, prefixo = 'm'): string {
  return `{ ${Array.from({ length: quantos }, (_, i) => `${prefixo}${i}: ${selecao}`).join(' ')} }`;
}

describe('GraphQL: o custo real de uma consulta, o orçamento de cada conta e a fila', () => {
  let amb: AmbienteDeTeste;
  const navs = { consumidor: new Navegador(), administrador: new Navegador(), gestora: new Navegador() };
  let gestoraId = 0;

  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
    await contaComSessao(amb, navs.consumidor, amb.urlMercados, { perfis: ['Consumidor'] });
    await contaComSessao(amb, navs.administrador, amb.urlMercados, { perfis: ['Administrador'] });
    gestoraId = (
      await contaComSessao(amb, navs.gestora, amb.urlMercados, { nome: 'Gestora Única', perfis: ['AdminMercado'] })
    ).conta.id;
    const produtos: number[] = [];
    for (let i = 0; i < PRECOS; i++) produtos.push((await criarProduto(amb.banco)).id);
    const iso = new Date().toISOString();
    for (let i = 0; i < MERCADOS; i++) {
      const m = await criarMercadoNoBanco(amb.banco, { adminId: gestoraId, nome: `Mercado ${i}` });
      await amb.banco
        .updateTable('mercado')
        .set({ descricao: 'd'.repeat(2000) })
        .where('id', '=', m.id)
        .execute();
      await amb.banco
        .insertInto('precomercado')
        .values(
          produtos.map((produtoId, k) => ({
            mercadoId: m.id,
            produtoId,
            precoCentavos: 100 + k,
            ativo: true,
            createdAt: iso,
            updatedAt: iso,
          })),
        )
        .execute();
    }
  });
  after(() => amb.fechar());

  test('a consulta da revisão (mercados → admin → mercados → preços, duas vezes) é recusada antes de rodar', async () => {
    amb.consultas = 0;
    const r = await graphql(amb.urlMercados, navs.consumidor, HOSTIL);
    assert.equal(r.status, 200);
    assert.equal(r.corpo.data, undefined, 'nada executado');
    const erro = r.corpo.errors?.[0];
    assert.equal(erro?.extensions?.code, 'CONSULTA_CUSTOSA_DEMAIS');
    assert.equal(
      erro?.message,
      `Consulta custosa demais: custo estimado ${2 * (1 + MERCADOS * (1 + (1 + MERCADOS * (1 + PRECOS * 2))))}, o máximo é ${CUSTO_MAXIMO}. Peça menos campos ou divida a consulta em partes.`,
    );
    // The session, the data version and the lists' lengths; no market, price or product was read.
    assert.ok(amb.consultas <= 3, `${amb.consultas} consultas`);
  });

  test('apelidos de meusProximosPassos (o painel, o saldo e os mercados): feito uma vez por pedido; 45 passam do máximo', async () => {
    const selecao = 'meusProximosPassos { aPagar ciclos { passos { texto } } }';
    amb.consultas = 0;
    const um = await graphql(amb.urlMercados, navs.consumidor, apelidos(1, selecao));
    assert.equal(um.corpo.errors, undefined, JSON.stringify(um.corpo.errors));
    const deUm = amb.consultas;
    amb.consultas = 0;
    const muitos = await graphql(amb.urlMercados, navs.consumidor, apelidos(40, selecao));
    assert.equal(muitos.corpo.errors, undefined, JSON.stringify(muitos.corpo.errors));
    assert.equal(Object.keys(muitos.corpo.data ?? {}).length, 40);
    assert.ok(amb.consultas <= deUm, `40 apelidos: ${amb.consultas} consultas; um: ${deUm}`);
    // Weighed as the statements it makes: 45 of them are refused on cost before anything runs.
    amb.consultas = 0;
    const r = await graphql(amb.urlMercados, navs.consumidor, apelidos(45, selecao));
    assert.equal(r.corpo.data, undefined, 'nada executado');
    assert.equal(r.corpo.errors?.[0]?.extensions?.code, 'CONSULTA_CUSTOSA_DEMAIS');
    assert.ok(amb.consultas <= 3, `${amb.consultas} consultas`);
  });

  test('a leitura legítima da administração, com o tamanho real das listas, passa', async () => {
    const r = await graphql(
      amb.urlMercados,
      navs.administrador,
      '{ mercados { admin { name } precos { produto { nome } } } }',
    );
    assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
    const mercados = r.corpo.data?.mercados as Array<{ precos: unknown[] }>;
    assert.equal(mercados.length, MERCADOS);
    assert.ok(mercados.every((m) => m.precos.length === PRECOS));
  });

  test('perfis e mercados de outra conta só aparecem para a própria pessoa e para o Administrador', async () => {
    const consulta = '{ mercado(id: MID) { admin { id name email profiles mercados { id } } } }';
    const mid = (await amb.banco.selectFrom('mercado').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const q = consulta.replace('MID', String(mid));
    const doConsumidor = await graphql(amb.urlMercados, navs.consumidor, q);
    assert.deepEqual(doConsumidor.corpo.data?.mercado, {
      admin: { id: String(gestoraId), name: 'Gestora Única', email: null, profiles: null, mercados: null },
    });
    const daGestora = await graphql(amb.urlMercados, navs.gestora, q);
    const propria = (daGestora.corpo.data?.mercado as { admin: { profiles: string[]; mercados: unknown[] } }).admin;
    assert.deepEqual(propria.profiles, ['AdminMercado']);
    assert.equal(propria.mercados.length, MERCADOS);
    const doAdministrador = await graphql(amb.urlMercados, navs.administrador, q);
    assert.deepEqual((doAdministrador.corpo.data?.mercado as { admin: { profiles: string[] } }).admin.profiles, [
      'AdminMercado',
    ]);
  });

  test('uma resposta que passaria de 4 MiB é recusada com uma mensagem clara', async () => {
    // Each copy costs 1 + 100 × 20 (a long description weighs 20) and returns ~200 KB: 24 copies stay under the cost, not under the size.
    const r = await graphql(amb.urlMercados, navs.administrador, apelidos(24, 'mercados { descricao }', 'grande'));
    assert.equal(r.status, 200);
    assert.equal(r.corpo.data, undefined);
    assert.equal(r.corpo.errors?.[0]?.extensions?.code, 'RESPOSTA_GRANDE_DEMAIS');
    assert.equal(
      r.corpo.errors?.[0]?.message,
      'A resposta passaria de 4 MiB. Peça menos campos ou divida a consulta em partes.',
    );
  });

  test('cada conta tem um orçamento por minuto: além dele, 429 em português com Retry-After', async () => {
    const nav = new Navegador();
    await contaComSessao(amb, nav, amb.urlMercados, { perfis: ['Consumidor'] });
    // 9 copies of 1 + 100 × (1 + 13 × 4) = 5,301 each: 47,709 per request, 12 of them fit in 600,000.
    let recusada: Awaited<ReturnType<typeof nav.postJson>> | null = null;
    let aceitas = 0;
    for (let i = 0; i < 14 && recusada === null; i++) {
      const r = await nav.postJson(`${amb.urlMercados}/graphql`, {
        query: apelidos(9, 'mercados { precos { produto { nome unidade ativo } } }', `o${i}x`),
      });
      if (r.status === 429) recusada = r;
      else {
        assert.equal(r.status, 200, r.texto.slice(0, 200));
        aceitas++;
      }
    }
    assert.equal(aceitas, 12);
    assert.ok(recusada !== null);
    const corpo = recusada.json<{ errors: Array<{ message: string; extensions: { code: string } }> }>();
    assert.equal(corpo.errors[0]?.extensions.code, 'MUITAS_CONSULTAS');
    assert.match(
      corpo.errors[0]?.message ?? '',
      /^Consultas demais desta conta no último minuto\. Tente novamente em \d+ segundos\.$/,
    );
    assert.ok(Number(recusada.headers.get('retry-after')) > 0);
    const outraConta = await graphql(amb.urlMercados, navs.consumidor, '{ mercados { id } }');
    assert.equal(outraConta.status, 200, 'as outras contas seguem');
    amb.relogio.avancar(61_000);
    const depois = await nav.postJson(`${amb.urlMercados}/graphql`, { query: '{ mercados { id nome } }' });
    assert.equal(depois.status, 200, 'no minuto seguinte, volta a valer');
  });

  test('a face Cestas continua respondendo enquanto a consulta mais pesada permitida roda', async () => {
    const nav = new Navegador();
    await contaComSessao(amb, nav, amb.urlMercados, { perfis: ['Administrador'] });
    // Just under the cost limit: 9 copies of 5,301.
    const pesadas = Array.from({ length: 4 }, (_, i) =>
      nav.postJson(`${amb.urlMercados}/graphql`, {
        query: apelidos(9, 'mercados { precos { produto { nome unidade ativo } } }', `h${i}x`),
      }),
    );
    const inicio = performance.now();
    const saude = await new Navegador().get(`${amb.url}/healthz`);
    const esperou = performance.now() - inicio;
    const feitas = await Promise.all(pesadas);
    assert.ok(
      feitas.every((r) => r.status === 200),
      feitas.map((r) => r.status).join(','),
    );
    assert.equal(saude.status, 200);
    // A generous bound on a shared 2-core machine; before the limits, the review measured 6 s.
    assert.ok(esperou < 1500, `/healthz levou ${Math.round(esperou)} ms`);
  });
});

test('a fila do GraphQL: 4 rodam, as que cabem esperam na ordem de chegada, as demais são recusadas na hora', async () => {
  const naVez = filaDeExecucao(4, 3);
  const liberar: Array<() => void> = [];
  const ordem: number[] = [];
  const tarefa = (n: number) =>
    naVez(
      () =>
        new Promise<number>((ok) =>
          liberar.push(() => {
            ordem.push(n);
            ok(n);
          }),
        ),
    );
  const emCurso = [1, 2, 3, 4, 5, 6, 7].map(tarefa);
  await assert.rejects(tarefa(8), FilaCheia, 'a oitava não cabe: 4 rodando e 3 esperando');
  await new Promise((ok) => setImmediate(ok));
  assert.equal(liberar.length, 4, 'só 4 começaram');
  while (liberar.length > 0) {
    liberar.shift()?.();
    await new Promise((ok) => setImmediate(ok));
  }
  assert.deepEqual(await Promise.all(emCurso), [1, 2, 3, 4, 5, 6, 7]);
  assert.deepEqual(ordem, [1, 2, 3, 4, 5, 6, 7]);
  assert.equal(await naVez(async () => 9), 9, 'depois de vazia, volta a aceitar');
});
