import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Conta } from '../../src/domain/contas.ts';
import { criarProduto } from '../helpers/fabricas.ts';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { contaComSessao, criarMercadoNoBanco, graphql } from './apoio.ts';

/**
 * No N+1: nested fields are batched per request, so the number of SQL queries of a request does
 * not depend on how many markets, admins, prices and products it returns.
 */
const CONSULTA = '{ mercados { admin { name } precos { produto { nome } } } }';

describe('GraphQL: consultas ao banco por requisição', () => {
  let amb: AmbienteDeTeste;
  let nav: Navegador;
  const admins: Conta[] = [];
  let navGestora: Navegador;
  const produtos: number[] = [];

  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
    nav = new Navegador();
    await contaComSessao(amb, nav, amb.urlMercados, { perfis: ['Consumidor'] });
    for (let i = 0; i < 12; i++) {
      const n = new Navegador();
      admins.push(
        (await contaComSessao(amb, n, amb.urlMercados, { perfis: ['AdminMercado'], nome: `Gestora ${i}` })).conta,
      );
      if (i === 0) navGestora = n;
    }
    for (let i = 0; i < 8; i++) produtos.push((await criarProduto(amb.banco)).id);
  });
  after(() => amb.fechar());

  /** Adds markets (each with an admin among twelve and three prices) until there are `total`. */
  async function ateTer(total: number): Promise<void> {
    const atuais = (await amb.banco.selectFrom('mercado').select('id').execute()).length;
    const iso = new Date().toISOString();
    for (let i = atuais; i < total; i++) {
      const admin = admins[i % admins.length];
      assert.ok(admin);
      const m = await criarMercadoNoBanco(amb.banco, { adminId: admin.id, nome: `Mercado ${i}` });
      await amb.banco
        .insertInto('precomercado')
        .values(
          [0, 1, 2].map((k) => ({
            mercadoId: m.id,
            produtoId: produtos[(i + k) % produtos.length] ?? 0,
            precoCentavos: 100 * (i + k),
            ativo: true,
            createdAt: iso,
            updatedAt: iso,
          })),
        )
        .execute();
    }
  }

  async function consultasPara(query: string): Promise<{
    consultas: number;
    mercados: Array<{ admin: { name: string }; precos: Array<{ produto: { nome: string } }> }>;
  }> {
    amb.consultas = 0;
    const r = await graphql(amb.urlMercados, nav, query);
    assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
    return { consultas: amb.consultas, mercados: r.corpo.data?.mercados as never };
  }

  test(`${CONSULTA} custa o mesmo número de consultas com 1 e com 100 mercados`, async () => {
    await ateTer(1);
    const um = await consultasPara(CONSULTA);
    assert.equal(um.mercados.length, 1);

    await ateTer(100);
    const cem = await consultasPara(CONSULTA);
    assert.equal(cem.mercados.length, 100);
    assert.ok(
      cem.mercados.every(
        (m) =>
          m.admin.name.startsWith('Gestora ') && m.precos.length === 3 && m.precos.every((p) => p.produto.nome !== ''),
      ),
    );

    assert.equal(cem.consultas, um.consultas, `1 mercado: ${um.consultas} consultas; 100 mercados: ${cem.consultas}`);
    // The session (with its profiles), the version of the data (for the answer cache), the lists'
    // lengths (for the cost limit, read once per version of the data), the markets, their admins,
    // their prices, the products.
    assert.equal(cem.consultas, 7);
  });

  test('o mesmo vale para os campos aninhados das contas: perfis e mercados de cada admin', async () => {
    await ateTer(100);
    const comPerfis = await consultasPara(
      '{ mercados { admin { name profiles mercados { id precos { preco } } } acoes { editar } } }',
    );
    assert.equal(comPerfis.mercados.length, 100);
    assert.ok(comPerfis.consultas <= 6, `${comPerfis.consultas} consultas`);
  });

  test('a mesma leitura, sem nada mudado, volta da memória: só a sessão e a versão dos dados', async () => {
    await ateTer(100);
    const primeira = await consultasPara(CONSULTA);
    const segunda = await consultasPara(CONSULTA);
    assert.equal(segunda.consultas, 2);
    assert.deepEqual(segunda.mercados, primeira.mercados);
  });

  test('qualquer escrita nas tabelas por trás da leitura, por qualquer caminho, faz a resposta ser montada de novo', async () => {
    await ateTer(100);
    const nomeDe = (r: Awaited<ReturnType<typeof consultasPara>>) => r.mercados[0]?.precos[0]?.produto.nome;
    const antes = await consultasPara(CONSULTA);
    // Straight in the database, as the Cestas face's catalogue (or any other process) would write.
    const produtoId = (
      await amb.banco.selectFrom('precomercado').select('produtoId').orderBy('id').executeTakeFirstOrThrow()
    ).produtoId;
    await amb.banco.updateTable('produto').set({ nome: 'Nome Novo do Produto' }).where('id', '=', produtoId).execute();
    const depois = await consultasPara(CONSULTA);
    assert.equal(depois.consultas, 7, 'montada de novo, com o tamanho das listas da nova versão');
    assert.notEqual(nomeDe(antes), 'Nome Novo do Produto');
    assert.equal(nomeDe(depois), 'Nome Novo do Produto');
    // A deleted price disappears at once, too.
    const mercadoId = (await amb.banco.selectFrom('mercado').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    await amb.banco.deleteFrom('precomercado').where('mercadoId', '=', mercadoId).execute();
    const semPrecos = await consultasPara(CONSULTA);
    assert.equal(semPrecos.mercados[0]?.precos.length, 0);
  });

  test('cada pessoa tem a sua resposta: o que uma pode fazer não vaza para outra', async () => {
    await ateTer(100);
    const gestora = admins[0];
    assert.ok(gestora);
    const q = '{ mercados { adminId acoes { editar } } }';
    type Linha = { adminId: string; acoes: { editar: boolean } };
    const minha = (await graphql(amb.urlMercados, navGestora, q)).corpo.data?.mercados as Linha[];
    const deOutra = (await graphql(amb.urlMercados, nav, q)).corpo.data?.mercados as Linha[];
    assert.ok(
      minha.some((m) => m.adminId === String(gestora.id) && m.acoes.editar),
      'a gestora edita o seu',
    );
    assert.ok(
      deOutra.every((m) => !m.acoes.editar),
      'a consumidora não edita nenhum',
    );
    // And again, now from memory: still each one's own.
    assert.deepEqual((await graphql(amb.urlMercados, navGestora, q)).corpo.data?.mercados, minha);
    assert.deepEqual((await graphql(amb.urlMercados, nav, q)).corpo.data?.mercados, deOutra);
  });

  test('escritas e a própria conta nunca vêm da memória', async () => {
    amb.consultas = 0;
    await graphql(amb.urlMercados, nav, '{ me { id name } }');
    const primeira = amb.consultas;
    amb.consultas = 0;
    await graphql(amb.urlMercados, nav, '{ me { id name } }');
    assert.equal(amb.consultas, primeira, '`me` roda de novo');
    assert.ok(primeira >= 1);
  });
});
