import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarCicloComPedidos,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
  criarUsuario,
  type DatasDoCiclo,
} from '../helpers/fabricas.ts';
import { Navegador, type Resposta } from '../helpers/navegador.ts';
import { navegadorComSessao } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { contaComSessao, criarMercadoNoBanco } from '../mercados/apoio.ts';

/**
 * SQL snapshots of the hot routes and the reports (as Immich's server/src/queries): each scenario
 * is one real request to the real service, and every statement it sends to the database, in order
 * and with repeats, is compared with a committed file per dialect. A changed query, an extra round
 * trip or one fewer shows as a diff in review, never as a surprise in production.
 * `ATUALIZAR_SQL=1` rewrites the files of the dialect under test instead of comparing.
 */

const ATUALIZAR = process.env.ATUALIZAR_SQL === '1';
const COMANDO = 'ATUALIZAR_SQL=1 npm test -- test/db/consultas-sql.test.ts';
const RAIZ = fileURLToPath(new URL('./consultas/', import.meta.url));

// 7 March, midday in São Paulo: the order window of DATAS_PADRAO and the offer window of
// DATAS_OFERTA are open; the report cycle's order window ended in February, so it can be closed.
const AGORA = '2026-03-07T15:00:00Z';
const DATAS_OFERTA: DatasDoCiclo = {
  dataOfertaInicio: '2026-03-06',
  dataOfertaFim: '2026-03-08',
  dataPedidoInicio: '2026-03-10',
  dataPedidoFim: '2026-03-12',
  dataRetiradaInicio: '2026-03-14',
  dataRetiradaFim: '2026-03-15',
};
const DATAS_RELATORIO: DatasDoCiclo = {
  dataOfertaInicio: '2026-02-01',
  dataOfertaFim: '2026-02-04',
  dataPedidoInicio: '2026-02-06',
  dataPedidoFim: '2026-02-09',
  dataRetiradaInicio: '2026-02-11',
  dataRetiradaFim: '2026-02-12',
};
/** The bench's GraphQL read (docs/performance.md). */
const CONSULTA_MERCADOS = '{ mercados { admin { name } precos { produto { nome } } } }';

interface Cenario {
  /** The file name, without `.sql`. */
  readonly nome: string;
  /** What the request is, for the file's header. */
  readonly descricao: string;
  readonly status: number;
  /** Uncaptured steps (requests, writes) that put the service in the state the scenario measures. */
  readonly preparar?: () => Promise<void>;
  readonly pedir: () => Promise<Resposta>;
}

/** The statements of one snapshot file: its header comments dropped, one statement per line. */
function statementsDoArquivo(texto: string): string[] {
  return texto.split('\n').filter((l) => l !== '' && !l.startsWith('--'));
}

/**
 * One line per statement. NOTE: whitespace runs (newlines of `sql` templates) become one space,
 * so that a statement is a line and a diff is per statement; values are never in the text.
 */
function umaLinha(sql: string): string {
  return `${sql.replace(/\s+/g, ' ').trim()};`;
}

function arquivoDe(cenario: Cenario, statements: readonly string[]): string {
  return [`-- ${cenario.nome}: ${cenario.descricao}`, `-- consultas: ${statements.length}`, ...statements, ''].join(
    '\n',
  );
}

/** The changed statements between the file and the run, numbered, as a unified diff would show them. */
function diferenca(esperado: readonly string[], atual: readonly string[]): string {
  // Longest common subsequence: small lists (tens of statements), so the quadratic table is fine.
  const largura = atual.length + 1;
  const comum = new Array<number>((esperado.length + 1) * largura).fill(0);
  const em = (i: number, j: number) => comum[i * largura + j] ?? 0;
  for (let i = esperado.length - 1; i >= 0; i--) {
    for (let j = atual.length - 1; j >= 0; j--) {
      comum[i * largura + j] = esperado[i] === atual[j] ? em(i + 1, j + 1) + 1 : Math.max(em(i + 1, j), em(i, j + 1));
    }
  }
  const linhas: string[] = [];
  let i = 0;
  let j = 0;
  while (i < esperado.length || j < atual.length) {
    if (i < esperado.length && j < atual.length && esperado[i] === atual[j]) {
      i++;
      j++;
    } else if (j < atual.length && (i === esperado.length || em(i, j + 1) >= em(i + 1, j))) {
      linhas.push(`  + [${j + 1}] ${atual[j] ?? ''}`);
      j++;
    } else {
      linhas.push(`  - [${i + 1}] ${esperado[i] ?? ''}`);
      i++;
    }
  }
  return linhas.join('\n');
}

describe('SQL das rotas quentes e dos relatórios: instantâneas por dialeto', () => {
  let amb: AmbienteDeTeste;
  let pasta = '';
  /** The statements of the request being captured; null between captures. */
  let captura: string[] | null = null;

  const f = {
    consumidora: new Navegador(),
    fornecedora: new Navegador(),
    admin: new Navegador(),
    mercados: new Navegador(),
    cicloPedido: 0,
    cicloCestas: [] as number[],
    extras: [] as number[],
    ponto: 0,
    cicloOferta: 0,
    produtos: [] as number[],
    cicloRelatorio: 0,
    mercado: 0,
  };

  before(async () => {
    amb = await iniciarAmbiente({
      relogio: new RelogioDeTeste(AGORA),
      mercados: true,
      aoConsultar: (e) => captura?.push(umaLinha(e.query.sql)),
      // NOTE: one connection on PostgreSQL too (SQLite has only one). What a request runs in
      // parallel (Promise.all, GraphQL batches) then reaches the server in the order the code
      // issued it, and the log, which fires when a statement ends, keeps that order; with a pool
      // the order would be whichever the server answered first.
      maxConexoes: 1,
    });
    pasta = join(RAIZ, amb.bancoConfig.tipo);
    // NOTE: the purge of expired Mercados sessions runs on a wall-clock timer (every 15 minutes);
    // stopped, so that it can never land inside a capture. It is no request's statement.
    amb.servicos.mercados?.limpezaDeSessoes?.parar();

    const banco = amb.banco;
    const iso = new Date().toISOString();
    f.ponto = (await criarPonto(banco)).id;
    for (let i = 0; i < 6; i++) f.produtos.push((await criarProduto(banco)).id);
    const cestas = [await criarCesta(banco), await criarCesta(banco)];
    const pedido = await criarCiclo(banco, {
      datas: DATAS_PADRAO,
      cestas: cestas.map((c) => ({ cestaId: c.id, quantidadeCestas: 50 })),
    });
    f.cicloPedido = pedido.id;
    f.cicloCestas = pedido.cicloCestas;
    f.extras = (
      await banco
        .insertInto('cicloproduto')
        .values(
          f.produtos.slice(0, 3).map((produtoId) => ({
            cicloid: pedido.id,
            produtoId,
            quantidadeMilesimos: 50_000,
            valorCentavos: 800,
            createdAt: iso,
            updatedAt: iso,
          })),
        )
        .returning('id')
        .execute()
    ).map((e) => e.id);
    // Both baskets are composed from a finalised offer (only a composed basket is for sale), so the order page shows a composition.
    const oferta = await criarOfertaFinalizada(banco, pedido.id, [
      { produtoId: f.produtos[3] ?? 0, quantidadeMilesimos: 100_000, valorCentavos: 400 },
    ]);
    for (const cicloCestaId of f.cicloCestas) {
      const composicao = await banco
        .insertInto('composicao')
        .values({ cicloCestaId, quantidadeCestas: 50, createdAt: iso, updatedAt: iso })
        .returning('id')
        .executeTakeFirstOrThrow();
      await banco
        .insertInto('composicaoproduto')
        .values({
          composicaoid: composicao.id,
          ofertaProdutoId: oferta.linhas[0] ?? 0,
          quantidadePorCestaMilesimos: 1000,
          unidade: 'kg',
          createdAt: iso,
          updatedAt: iso,
        })
        .execute();
    }
    f.cicloOferta = (await criarCiclo(banco, { datas: DATAS_OFERTA })).id;
    f.cicloRelatorio = await criarCicloComPedidos(banco, 10, f.ponto, DATAS_RELATORIO);

    f.consumidora = navegadorComSessao(amb, (await criarUsuario(banco, { perfil: ['consumidor'] })).email);
    f.fornecedora = navegadorComSessao(amb, (await criarUsuario(banco, { perfil: ['fornecedor'] })).email);
    f.admin = navegadorComSessao(amb, (await criarUsuario(banco, { perfil: ['admin'] })).email);
    // Closing the report cycle records its movements (for /movimentacaotodos).
    const fechar = await f.admin.postJson(`${amb.url}/fecharciclo/${f.cicloRelatorio}`, {});
    assert.equal(fechar.status, 200, fechar.texto);

    const { conta } = await contaComSessao(amb, f.mercados, amb.urlMercados, { perfis: ['Consumidor'] });
    for (let i = 0; i < 3; i++) {
      const m = await criarMercadoNoBanco(banco, { adminId: conta.id, nome: `Mercado ${i}` });
      await banco
        .insertInto('precomercado')
        .values(
          [0, 1].map((k) => ({
            mercadoId: m.id,
            produtoId: f.produtos[i + k] ?? 0,
            precoCentavos: 100 + k,
            ativo: true,
            createdAt: iso,
            updatedAt: iso,
          })),
        )
        .execute();
      f.mercado = m.id;
    }
  });
  after(() => amb.fechar());

  const itensDoPedido = () => {
    const [c1 = 0, c2 = 0] = f.cicloCestas;
    const [e1 = 0, e2 = 0, e3 = 0] = f.extras;
    return [
      { cicloCestaId: c1, quantidade: 1 },
      { cicloProdutoId: e1, quantidade: '0.5' },
      { cicloCestaId: c2, quantidade: 2 },
      { cicloProdutoId: e2, quantidade: '1' },
      { cicloProdutoId: e3, quantidade: '1.5' },
    ];
  };
  const salvarPedido = () =>
    f.consumidora.postJson(`${amb.url}/pedidoconsumidores`, {
      cicloid: f.cicloPedido,
      pontoEntregaId: f.ponto,
      produtos: itensDoPedido(),
    });
  const paginaDoPedido = () => f.consumidora.getJson(`${amb.url}/pedidoconsumidores/${f.cicloPedido}`);
  const salvarOferta = () =>
    f.fornecedora.postJson(`${amb.url}/ofertasave`, {
      cicloid: f.cicloOferta,
      produtos: f.produtos.slice(0, 3).map((produtoid) => ({ produtoid, quantidade: '10', valor: '3.50' })),
    });
  const graphql = (query: string) => f.mercados.postJson(`${amb.urlMercados}/graphql`, { query });
  const semFalha = async (r: Promise<Resposta>) => {
    const resposta = await r;
    assert.equal(resposta.status, 200, resposta.texto);
  };

  // Any write to a cycle moves the cycle data's version (a trigger): the dashboard reads its list
  // of cycles again, and the order page builds its showcase again.
  const mudarOCiclo = async () => {
    await amb.banco
      .updateTable('ciclo')
      .set({ updatedAt: new Date().toISOString() })
      .where('id', '=', f.cicloPedido)
      .execute();
  };

  // In this order: each scenario may rely on the state the ones before it left.
  const cenarios: Cenario[] = [
    {
      nome: 'painel-primeira-visita',
      descricao: 'GET / (JSON), consumidora, no primeiro painel depois de mudar os ciclos (lê a lista dos ciclos)',
      status: 200,
      preparar: mudarOCiclo,
      pedir: () => f.consumidora.getJson(`${amb.url}/`),
    },
    {
      nome: 'painel',
      descricao: 'GET / (JSON), consumidora, lista dos ciclos já guardada',
      status: 200,
      pedir: () => f.consumidora.getJson(`${amb.url}/`),
    },
    {
      nome: 'pedido-pagina-primeira-visita',
      descricao:
        'GET /pedidoconsumidores/:id (JSON), consumidora sem pedido, na primeira visita depois de mudar o ciclo (monta a vitrine)',
      status: 200,
      preparar: mudarOCiclo,
      pedir: paginaDoPedido,
    },
    {
      nome: 'pedido-salvar',
      descricao: 'POST /pedidoconsumidores (JSON), primeiro pedido da consumidora: 2 cestas e 3 extras',
      status: 201,
      pedir: salvarPedido,
    },
    {
      nome: 'pedido-salvar-de-novo',
      descricao: 'POST /pedidoconsumidores (JSON), o mesmo pedido salvo de novo',
      status: 200,
      pedir: salvarPedido,
    },
    {
      nome: 'pedido-pagina',
      descricao: 'GET /pedidoconsumidores/:id (JSON), consumidora com pedido, vitrine já guardada',
      status: 200,
      preparar: () => semFalha(paginaDoPedido()),
      pedir: paginaDoPedido,
    },
    {
      nome: 'oferta-final',
      descricao: 'POST /ofertasave (JSON), primeira oferta final da fornecedora: 3 produtos',
      status: 201,
      pedir: salvarOferta,
    },
    {
      nome: 'oferta-final-de-novo',
      descricao: 'POST /ofertasave (JSON), a mesma oferta final salva de novo',
      status: 200,
      pedir: salvarOferta,
    },
    {
      nome: 'relatorio-sobra',
      descricao: 'GET /pedidosfornecedoressobra/:id (JSON), admin, ciclo fechado com 10 pedidos',
      status: 200,
      pedir: () => f.admin.getJson(`${amb.url}/pedidosfornecedoressobra/${f.cicloRelatorio}`),
    },
    {
      nome: 'relatorio-fornecedores',
      descricao: 'GET /pedidosfornecedorestodos/:id (JSON), admin',
      status: 200,
      pedir: () => f.admin.getJson(`${amb.url}/pedidosfornecedorestodos/${f.cicloRelatorio}`),
    },
    {
      nome: 'relatorio-fornecedores-ciclos',
      descricao: 'POST /pedidosfornecedoresciclos (JSON), admin, um ciclo',
      status: 200,
      pedir: () => f.admin.postJson(`${amb.url}/pedidosfornecedoresciclos`, { ciclos: [f.cicloRelatorio] }),
    },
    {
      nome: 'relatorio-consumidores-ciclos',
      descricao: 'POST /pedidosconsumidoresciclos (JSON), admin, um ciclo',
      status: 200,
      pedir: () => f.admin.postJson(`${amb.url}/pedidosconsumidoresciclos`, { ciclos: [f.cicloRelatorio] }),
    },
    {
      nome: 'relatorio-produtos-ciclos',
      descricao: 'POST /relatorioprodutosciclos (JSON), admin, um ciclo',
      status: 200,
      pedir: () => f.admin.postJson(`${amb.url}/relatorioprodutosciclos`, { ciclos: [f.cicloRelatorio] }),
    },
    {
      nome: 'relatorio-pedidos-do-ciclo',
      descricao: 'GET /pedidosconsumidorestodos/:id (JSON), admin',
      status: 200,
      pedir: () => f.admin.getJson(`${amb.url}/pedidosconsumidorestodos/${f.cicloRelatorio}`),
    },
    {
      nome: 'relatorio-movimentacoes',
      descricao: 'GET /movimentacaotodos (JSON), admin, sem filtro',
      status: 200,
      pedir: () => f.admin.getJson(`${amb.url}/movimentacaotodos`),
    },
    {
      nome: 'relatorio-csv',
      descricao: 'GET /downloadpedidosfornecedoresciclos?ciclos=:id (CSV), admin',
      status: 200,
      pedir: () => f.admin.get(`${amb.url}/downloadpedidosfornecedoresciclos?ciclos=${f.cicloRelatorio}`),
    },
    {
      nome: 'relatorio-pdf-entrega',
      descricao: 'GET /entregaCicloPDF/:id (PDF), admin',
      status: 200,
      pedir: () => f.admin.get(`${amb.url}/entregaCicloPDF/${f.cicloRelatorio}`),
    },
    {
      nome: 'mercados-auth-status',
      descricao: 'GET /auth/status da face Mercados, com sessão',
      status: 200,
      pedir: () => f.mercados.getJson(`${amb.urlMercados}/auth/status`),
    },
    {
      nome: 'mercados-graphql-mercados',
      descricao: `POST /graphql ${CONSULTA_MERCADOS}, primeira leitura depois de uma escrita (3 mercados, 2 preços cada)`,
      status: 200,
      // Any write to a market moves the data's version (a trigger): the answer is built again.
      preparar: async () => {
        await amb.banco
          .updateTable('mercado')
          .set({ updatedAt: new Date().toISOString() })
          .where('id', '=', f.mercado)
          .execute();
      },
      pedir: () => graphql(CONSULTA_MERCADOS),
    },
    {
      nome: 'mercados-graphql-mercados-da-memoria',
      descricao: 'POST /graphql, a mesma leitura de novo, sem nada mudado (a resposta guardada)',
      status: 200,
      pedir: () => graphql(CONSULTA_MERCADOS),
    },
    {
      nome: 'mercados-graphql-mercado',
      descricao:
        'POST /graphql { mercado(id:) { nome precos { preco produto { nome } } acoes { editar } } }, primeira leitura',
      status: 200,
      pedir: () =>
        graphql(`{ mercado(id: "${f.mercado}") { nome precos { preco produto { nome } } acoes { editar } } }`),
    },
  ];

  for (const cenario of cenarios) {
    test(`${cenario.nome}: o SQL executado confere com o arquivo do dialeto`, async () => {
      await cenario.preparar?.();
      captura = [];
      const resposta = await cenario.pedir();
      const executadas = captura;
      captura = null;
      assert.equal(resposta.status, cenario.status, resposta.texto.slice(0, 2000));
      const arquivo = join(pasta, `${cenario.nome}.sql`);
      const nomeDoArquivo = relative(process.cwd(), arquivo);
      const atual = arquivoDe(cenario, executadas);
      if (ATUALIZAR) {
        mkdirSync(pasta, { recursive: true });
        writeFileSync(arquivo, atual);
        return;
      }
      let gravado: string;
      try {
        gravado = readFileSync(arquivo, 'utf8');
      } catch {
        assert.fail(`${nomeDoArquivo} não existe: grave-o com ${COMANDO}`);
      }
      const esperado = statementsDoArquivo(gravado);
      if (gravado === atual) return;
      assert.fail(
        `${cenario.nome}: o SQL executado não confere com ${nomeDoArquivo} ` +
          `(${esperado.length} consultas no arquivo, ${executadas.length} agora):\n${diferenca(esperado, executadas) || '  (só o cabeçalho mudou)'}\n` +
          `Se a mudança é intencional, regrave com ${COMANDO} (com TEST_DATABASE_URL, também o PostgreSQL) e confira o diff.`,
      );
    });
  }

  test('nenhum arquivo de instantânea sobra sem o seu cenário', () => {
    const nomes = new Set(cenarios.map((c) => `${c.nome}.sql`));
    const sobras = readdirSync(pasta).filter((a) => !nomes.has(a));
    if (ATUALIZAR) {
      for (const a of sobras) rmSync(join(pasta, a));
      return;
    }
    assert.deepEqual(
      sobras,
      [],
      `arquivos em ${relative(process.cwd(), pasta)} sem cenário: apague-os ou rode ${COMANDO}`,
    );
  });
});
