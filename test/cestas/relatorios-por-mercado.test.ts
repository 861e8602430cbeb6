import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { DIALETO } from '../helpers/banco.ts';
import { cicloComMercados, type CicloComMercados } from '../helpers/ciclo-com-mercados.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo } from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { conferirMargens, textoDoPdf } from '../helpers/pdf.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Envelope<T = Record<string, unknown>> {
  success: boolean;
  data: T;
  error: string;
  details?: Record<string, unknown>;
}

type Linha = Record<string, string | number | null>;
interface Rel {
  subtitulo: string;
  colunas: Array<{ chave: string; titulo: string }>;
  grupos: Array<{ titulo: string; linhas: Linha[]; subtotais: Record<string, number> }>;
  totais: Record<string, number>;
}

const somaDe = (valores: readonly number[]) => Math.round(valores.reduce((s, v) => s + v * 100, 0)) / 100;

/**
 * Every report of a cycle with markets, filtered and grouped by market (issue 17: "every report and
 * the PDF can be filtered and grouped by market"), through the real routes with real logins.
 */
describe('relatórios por mercado', () => {
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  let donoDasContas = 0;
  before(async () => {
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste('2026-03-05T15:00:00Z') });
    admin = await entrarComo(amb, ['admin']);
    const iso = new Date().toISOString();
    donoDasContas = (
      await amb.banco
        .insertInto('appuser')
        .values({
          providerId: 'idp|dono-relatorios',
          email: 'dono-relatorios@mercados.org',
          emailChave: 'dono-relatorios@mercados.org',
          name: 'Dono',
          avatar: null,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  after(() => amb.fechar());
  const url = (p: string) => `${amb.url}${p}`;

  let c: CicloComMercados;
  before(async () => {
    c = await cicloComMercados(amb, admin, donoDasContas);
  });

  const linhas = (r: Rel) => r.grupos.flatMap((g) => g.linhas);
  const fornecedores = async (quem: Pessoa, consulta = '') => {
    const r = await quem.nav.getJson(url(`/pedidosfornecedorestodos/${c.cicloid}${consulta}`));
    assert.equal(r.status, 200, r.texto);
    return r.json<Envelope<Rel>>().data;
  };
  const porCiclos = async (quem: Pessoa, caminho: string, corpo: Record<string, unknown>) => {
    const r = await quem.nav.postJson(url(caminho), corpo);
    assert.equal(r.status, 200, r.texto);
    return r.json<Envelope<Rel>>().data;
  };
  /** The PDF's text; with `arquivo`, the PDF is kept in test-artifacts/pdf/<dialect>/ to look at. */
  const pdf = async (quem: Pessoa, consulta = '', arquivo?: string) => {
    const r = await fetch(url(`/entregaCicloPDF/${c.cicloid}${consulta}`), {
      headers: { cookie: `appSession=${quem.nav.cookie(amb.url, 'appSession') ?? ''}` },
    });
    assert.equal(r.status, 200);
    const bytes = new Uint8Array(await r.arrayBuffer());
    // The widest tables (with the market and its fee): every column inside the page, room to sign.
    await conferirMargens(bytes);
    if (arquivo !== undefined) {
      const pasta = join('test-artifacts', 'pdf', DIALETO);
      mkdirSync(pasta, { recursive: true });
      writeFileSync(join(pasta, arquivo), bytes);
    }
    return (await textoDoPdf(bytes)).texto.replace(/\s+/g, ' ');
  };

  test('pedidos aos fornecedores: agrupado por mercado na ordem de atendimento, com a coluna Mercado; os mercados somam o total', async () => {
    const todo = await fornecedores(admin);
    assert.deepEqual(todo.colunas.map((x) => x.chave).slice(0, 2), ['mercado', 'fornecedor']);
    assert.deepEqual(
      todo.grupos.map((g) => g.titulo),
      [`Cestas ${c.id}`, `Feira ${c.id}`, `PNAE ${c.id}`],
    );
    assert.deepEqual(
      linhas(todo).map((l) => [l.mercado, l.fornecedor, l.planejado, l.quantidade, l.valorTotal]),
      [
        // 10 baskets × 5 kg planned, 3 ordered.
        [`Cestas ${c.id}`, `Ana ${c.id}`, 50, 15, 60],
        // 30 kg released: Beto's cheaper 20 kg first, then 10 of Ana's; of 23 kg sold, 20 and 3.
        [`Feira ${c.id}`, `Ana ${c.id}`, 10, 3, 12],
        [`Feira ${c.id}`, `Beto ${c.id}`, 20, 20, 60],
        [`PNAE ${c.id}`, `Ana ${c.id}`, 15, 15, 60],
      ],
    );
    assert.deepEqual(
      todo.grupos.map((g) => g.subtotais.valorTotal),
      [60, 72, 60],
    );
    assert.equal(todo.totais.valorTotal, 192);
    // Filtered: one market's rows, and the filtered totals add up to the whole.
    const totais: number[] = [];
    for (const m of [c.mCesta, c.mFeira, c.mLote]) {
      const so = await fornecedores(admin, `?mercadoId=${m.id}`);
      assert.deepEqual(
        so.grupos.map((g) => g.titulo),
        [m.nome],
      );
      assert.ok(linhas(so).every((l) => l.mercado === m.nome));
      assert.match(so.subtitulo, new RegExp(`só ${m.nome}`));
      totais.push(so.totais.valorTotal ?? 0);
    }
    assert.equal(somaDe(totais), todo.totais.valorTotal);
    // The cross-cycle report (POST) says the same.
    const varios = await porCiclos(admin, '/pedidosfornecedoresciclos', {
      ciclos: [c.cicloid],
      mercadoId: c.mFeira.id,
    });
    assert.deepEqual(
      linhas(varios).map((l) => [l.fornecedor, l.quantidade, l.valorTotal]),
      [
        [`Ana ${c.id}`, 3, 12],
        [`Beto ${c.id}`, 20, 60],
      ],
    );
    // The page offers the cycle's markets, and its spreadsheet, CSV and PDF links keep the filter.
    const pagina = (await admin.nav.get(url(`/pedidosfornecedorestodos/${c.cicloid}?mercadoId=${c.mFeira.id}`))).texto;
    assert.match(pagina, new RegExp(`<option value="${c.mFeira.id}" selected>Feira ${c.id}</option>`));
    assert.match(pagina, new RegExp(`<option value="${c.mLote.id}" >PNAE ${c.id}</option>`));
    assert.doesNotMatch(pagina, new RegExp(`Fora ${c.id}`));
    assert.match(
      pagina,
      new RegExp(
        `href="/downloadpedidosfornecedoresciclos\\?cicloId=${c.cicloid}&amp;mercadoId=${c.mFeira.id}&amp;formato=xlsx" download>Planilha \\(Excel, LibreOffice\\)</a>`,
      ),
    );
    assert.match(
      pagina,
      new RegExp(
        `href="/downloadpedidosfornecedoresciclos\\?cicloId=${c.cicloid}&amp;mercadoId=${c.mFeira.id}&amp;formato=csv" download>CSV</a>`,
      ),
    );
    assert.match(pagina, new RegExp(`href="/entregaCicloPDF/${c.cicloid}\\?mercadoId=${c.mFeira.id}"`));
  });

  test('planilha (xlsx): uma folha por mercado, na ordem de atendimento, sem a coluna Mercado', async () => {
    const r = await fetch(url(`/downloadpedidosfornecedoresciclos?cicloId=${c.cicloid}&formato=xlsx`), {
      headers: { cookie: `appSession=${admin.nav.cookie(url('/'), 'appSession') ?? ''}` },
    });
    assert.equal(r.status, 200);
    const { Workbook } = (await import('exceljs')).default;
    const livro = new Workbook();
    await livro.xlsx.load(await r.arrayBuffer());
    const valores = (folha: (typeof livro.worksheets)[number]) =>
      folha.getSheetValues().flatMap((linha) => (Array.isArray(linha) ? [linha.slice(1)] : []));
    assert.deepEqual(
      livro.worksheets.map((f) => f.name),
      [`Cestas ${c.id}`, `Feira ${c.id}`, `PNAE ${c.id}`],
    );
    const feira = livro.getWorksheet(`Feira ${c.id}`);
    assert.ok(feira !== undefined);
    const [cabecalho, ...linhas] = valores(feira);
    assert.deepEqual(cabecalho, [
      'Fornecedor',
      'Produto',
      'Unidade',
      'Quantidade planejada',
      'Quantidade pedida',
      'Valor unitário',
      'Valor',
    ]);
    assert.deepEqual(linhas.slice(0, 2), [
      [`Ana ${c.id}`, `Tomate ${c.id}`, 'kg', 10, 3, 4, 12],
      [`Beto ${c.id}`, `Tomate ${c.id}`, 'kg', 20, 20, 3, 60],
    ]);
    const total = linhas[2];
    assert.equal(total?.[0], 'Total');
    assert.deepEqual(total?.at(-1), { formula: 'SUM(G2:G3)', result: 72 });
  });

  test('CSV: a coluna Mercado e os mesmos números, filtrados pelo mercado', async () => {
    const baixar = async (consulta: string) => {
      const r = await admin.nav.get(url(`/downloadpedidosfornecedoresciclos?cicloId=${c.cicloid}${consulta}`));
      assert.equal(r.status, 200, r.texto);
      assert.ok(!r.texto.startsWith('\uFEFF'), 'UTF-8 sem BOM: o formato do contrato');
      return r.texto.trim().split(/\r?\n/);
    };
    const [cabecalho, ...todas] = await baixar('');
    assert.equal(
      cabecalho,
      'Mercado,Fornecedor,Produto,Unidade,Quantidade planejada,Quantidade pedida,Valor unitário (R$),Valor (R$)',
    );
    assert.deepEqual(todas, [
      `Cestas ${c.id},Ana ${c.id},Tomate ${c.id},kg,50,15,4.00,60.00`,
      `Feira ${c.id},Ana ${c.id},Tomate ${c.id},kg,10,3,4.00,12.00`,
      `Feira ${c.id},Beto ${c.id},Tomate ${c.id},kg,20,20,3.00,60.00`,
      `PNAE ${c.id},Ana ${c.id},Tomate ${c.id},kg,15,15,4.00,60.00`,
    ]);
    assert.deepEqual(
      (await baixar(`&mercadoId=${c.mFeira.id}`)).slice(1),
      todas.filter((l) => l.startsWith(`Feira ${c.id},`)),
    );
    const fora = await admin.nav.get(
      url(`/downloadpedidosfornecedoresciclos?cicloId=${c.cicloid}&mercadoId=${c.mFora.id}`),
    );
    assert.equal(fora.status, 400);
  });

  test('produtos dos ciclos: por mercado o que as cestas, os extras e os lotes levam; somado, o valor de todos', async () => {
    const todo = await porCiclos(admin, '/relatorioprodutosciclos', { ciclos: [c.cicloid] });
    assert.deepEqual(
      todo.colunas.map((x) => x.chave),
      ['mercado', 'produto', 'unidade', 'paraCestas', 'extras', 'paraLotes', 'valor'],
    );
    assert.deepEqual(
      linhas(todo).map((l) => [l.mercado, l.paraCestas, l.extras, l.paraLotes, l.valor]),
      [
        [`Cestas ${c.id}`, 50, 0, 0, 200],
        // 20 kg of Beto's at R$ 3,00 and 3 of Ana's at R$ 4,00.
        [`Feira ${c.id}`, 0, 23, 0, 72],
        [`PNAE ${c.id}`, 0, 0, 15, 60],
      ],
    );
    assert.equal(todo.totais.valor, 332);
    assert.match(todo.subtitulo, /o ofertado e a sobra são do ciclo inteiro/);
    const feira = await porCiclos(admin, '/relatorioprodutosciclos', { ciclos: [c.cicloid], mercadoId: c.mFeira.id });
    assert.deepEqual(
      linhas(feira).map((l) => [l.mercado, l.extras, l.valor]),
      [[`Feira ${c.id}`, 23, 72]],
    );
    // The consumers paid the market price (R$ 6,00 + 10 %) for the same 23 kg.
    const consumidores = await porCiclos(admin, '/pedidosconsumidoresciclos', {
      ciclos: [c.cicloid],
      mercadoId: c.mFeira.id,
    });
    assert.deepEqual(
      linhas(consumidores)
        .filter((l) => l.quantidade !== null)
        .map((l) => l.quantidade),
      [2, 21],
    );
    assert.equal(consumidores.totais.valor, 151.8);
  });

  test('sobra: a de cada linha é do ciclo (os lotes também tiram dela); a página diz que não se divide por mercado', async () => {
    const r = await admin.nav.getJson(url(`/pedidosfornecedoressobra/${c.cicloid}`));
    assert.equal(r.status, 200, r.texto);
    const sobra = r.json<Envelope<Rel>>().data;
    assert.match(sobra.subtitulo, /a mesma para todos os mercados: por isso este relatório não se divide por mercado/);
    // Ana: 100 offered, 50 in baskets, 15 in the lot, 3 sold at the fair; Beto: all 20 sold.
    assert.deepEqual(
      linhas(sobra).map((l) => [l.fornecedor, l.ofertado, l.paraCestas, l.paraLotes, l.paraExtras, l.sobra]),
      [
        [`Ana ${c.id}`, 100, 50, 15, 3, 32],
        [`Beto ${c.id}`, 20, 0, 0, 20, 0],
      ],
    );
  });

  test('PDF de entrega: a folha de cada consumidor por mercado, com a taxa de cada um; filtrado, só aquele mercado', async () => {
    const todo = await pdf(admin, '', 'entrega-por-mercado.pdf');
    assert.match(todo, /Pedidos confirmados: 2/);
    assert.match(todo, /R\$ 309,30/, 'Rita 52,50 + 13,20; Sérgio 105,00 + 138,60');
    assert.match(todo, /Mercado Itens Taxa do mercado Valor com taxa/);
    assert.match(todo, new RegExp(`Rita ${c.id} .*?Cestas ${c.id} 1 × .*? R\\$ 2,50 R\\$ 52,50`));
    assert.match(todo, new RegExp(`Rita ${c.id} .*?Feira ${c.id} 2 kg Tomate ${c.id} R\\$ 1,20 R\\$ 13,20`));
    assert.match(todo, new RegExp(`Sérgio ${c.id} .*?Feira ${c.id} 21 kg Tomate ${c.id} R\\$ 12,60 R\\$ 138,60`));
    // The receiving sheet: the supplier report's rows, market by market.
    assert.match(
      todo,
      new RegExp(`Recebimento: Ana ${c.id} .*?Cestas ${c.id} Tomate ${c.id} kg 15 R\\$ 4,00 R\\$ 60,00`),
    );
    assert.match(
      todo,
      new RegExp(`Recebimento: Beto ${c.id} .*?Feira ${c.id} Tomate ${c.id} kg 20 R\\$ 3,00 R\\$ 60,00`),
    );
    const feira = await pdf(admin, `?mercadoId=${c.mFeira.id}`, 'entrega-so-feira.pdf');
    assert.match(feira, new RegExp(`Só o mercado Feira ${c.id}`));
    assert.match(
      feira,
      new RegExp(`· só Feira ${c.id} · retirada 11/03/2026 a 12/03/2026 · página 2`),
      'cada página diz o mercado',
    );
    assert.match(feira, /R\$ 151,80/);
    assert.doesNotMatch(feira, new RegExp(`Cestas ${c.id}|Montar`), 'nem as cestas, nem a montagem delas');
    assert.match(
      feira,
      new RegExp(`Recebimento: Ana ${c.id} .*?Feira ${c.id} Tomate ${c.id} kg 3 R\\$ 4,00 R\\$ 12,00`),
    );
    assert.doesNotMatch(feira, new RegExp(`PNAE ${c.id}`));
    const cestas = await pdf(admin, `?mercadoId=${c.mCesta.id}`);
    assert.match(cestas, /Montar 3 cestas/);
    assert.match(cestas, /R\$ 157,50/, '3 cestas: 150,00 + 5 %');
  });

  test('um mercadoId que não é dos ciclos: 400 com o nome do mercado, em todo relatório', async () => {
    const esperado = `O mercado Fora ${c.id} não atende o ciclo`;
    const tentativas = [
      await admin.nav.getJson(url(`/pedidosfornecedorestodos/${c.cicloid}?mercadoId=${c.mFora.id}`)),
      await admin.nav.postJson(url('/pedidosfornecedoresciclos'), { ciclos: [c.cicloid], mercadoId: c.mFora.id }),
      await admin.nav.postJson(url('/relatorioprodutosciclos'), { ciclos: [c.cicloid], mercadoId: c.mFora.id }),
      await admin.nav.postJson(url('/pedidosconsumidoresciclos'), { ciclos: [c.cicloid], mercadoId: c.mFora.id }),
      await admin.nav.getJson(url(`/entregaCicloPDF/${c.cicloid}?mercadoId=${c.mFora.id}`)),
    ];
    for (const r of tentativas) {
      assert.equal(r.status, 400, r.texto);
      assert.match(String(r.json<Envelope>().details?.mercadoId), new RegExp(esperado));
    }
    const inexistente = await admin.nav.postJson(url('/pedidosfornecedoresciclos'), {
      ciclos: [c.cicloid],
      mercadoId: 999_999,
    });
    assert.equal(inexistente.status, 400);
    assert.equal(inexistente.json<Envelope>().details?.mercadoId, 'Não encontramos o mercado 999999');
    // The choice page offers the markets of the cycles it lists.
    assert.match(
      (await admin.nav.get(url('/pedidosfornecedoresciclos'))).texto,
      new RegExp(`<option value="${c.mFeira.id}" >Feira ${c.id}</option>`),
    );
  });

  test('AdminMercado: lê tudo do próprio mercado e, de outro ou sem filtro, só o que é seu; fornecedor comum, só o seu', async () => {
    const gerente = await entrarComo(amb, ['fornecedor'], `Gil ${c.id}`);
    await amb.banco
      .updateTable('usuario')
      .set({ perfil: JSON.stringify(['fornecedor', 'adminMercado']) })
      .where('id', '=', gerente.id ?? 0)
      .execute();
    const iso = new Date().toISOString();
    const conta = await amb.banco
      .insertInto('appuser')
      .values({
        providerId: `idp|gil-${c.id}`,
        email: gerente.email,
        emailChave: gerente.email,
        name: 'Gil',
        avatar: null,
        usuarioId: gerente.id,
        emailVerificado: true,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await amb.banco.updateTable('mercado').set({ adminId: conta.id }).where('id', '=', c.mFeira.id).execute();
    const doGerente = async (consulta: string) =>
      linhas(await fornecedores(gerente, consulta)).map((l) => [l.fornecedor, l.quantidade]);
    assert.deepEqual(await doGerente(`?mercadoId=${c.mFeira.id}`), [
      [`Ana ${c.id}`, 3],
      [`Beto ${c.id}`, 20],
    ]);
    assert.deepEqual(
      await doGerente(`?mercadoId=${c.mCesta.id}`),
      [],
      'outro mercado: só as próprias linhas (nenhuma)',
    );
    assert.deepEqual(await doGerente(''), [], 'sem filtro: só as próprias linhas');
    assert.deepEqual(
      linhas(await porCiclos(gerente, '/relatorioprodutosciclos', { ciclos: [c.cicloid], mercadoId: c.mFeira.id })).map(
        (l) => l.extras,
      ),
      [23],
    );
    assert.deepEqual(
      linhas(await porCiclos(gerente, '/relatorioprodutosciclos', { ciclos: [c.cicloid], mercadoId: c.mLote.id })),
      [],
    );
    const pdfDaFeira = await pdf(gerente, `?mercadoId=${c.mFeira.id}`);
    assert.match(pdfDaFeira, new RegExp(`Sérgio ${c.id}`));
    assert.doesNotMatch(await pdf(gerente, `?mercadoId=${c.mCesta.id}`), new RegExp(`Rita ${c.id}|Sérgio ${c.id}`));
    // The market's administrator moves on: the same request reads only their own again.
    await amb.banco.updateTable('mercado').set({ adminId: donoDasContas }).where('id', '=', c.mFeira.id).execute();
    assert.deepEqual(await doGerente(`?mercadoId=${c.mFeira.id}`), []);
    // A supplier reads only their own rows, whatever market they name.
    const beto = await entrarPorId(c.beto.email);
    assert.deepEqual(
      linhas(await fornecedores(beto, `?mercadoId=${c.mFeira.id}`)).map((l) => [l.fornecedor, l.quantidade]),
      [[`Beto ${c.id}`, 20]],
    );
    assert.deepEqual(
      linhas(await fornecedores(beto)).map((l) => [l.mercado, l.quantidade]),
      [[`Feira ${c.id}`, 20]],
    );
  });

  /** Logs in as an existing person (a supplier made by the scenario). */
  async function entrarPorId(email: string): Promise<Pessoa> {
    const nav = new Navegador();
    await entrarPeloProvedor(nav, `${amb.url}/`, { email });
    return { nav, id: null, email };
  }

  test('um ciclo sem mercados continua igual: sem coluna Mercado, e nenhum mercado é dele', async () => {
    const cesta = await criarCesta(amb.banco, { valorCentavos: 4000 });
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 2 }],
      compor: true,
    });
    const r = await admin.nav.getJson(url(`/pedidosfornecedorestodos/${ciclo.id}`));
    assert.equal(r.status, 200);
    const rel = r.json<Envelope<Rel>>().data;
    assert.ok(!rel.colunas.some((x) => x.chave === 'mercado'));
    assert.ok(linhas(rel).every((l) => !('mercado' in l)));
    assert.ok(
      rel.grupos.every((g) => g.titulo !== ''),
      'agrupado por fornecedor, como sempre',
    );
    const produtos = await porCiclos(admin, '/relatorioprodutosciclos', { ciclos: [ciclo.id] });
    assert.deepEqual(
      produtos.colunas.map((x) => x.chave),
      ['produto', 'unidade', 'ofertado', 'paraCestas', 'extras', 'sobra', 'valor'],
    );
    assert.doesNotMatch(
      (await admin.nav.get(url(`/pedidosfornecedorestodos/${ciclo.id}`))).texto,
      /Filtrar por mercado/,
    );
    const fora = await admin.nav.getJson(url(`/pedidosfornecedorestodos/${ciclo.id}?mercadoId=${c.mFeira.id}`));
    assert.equal(fora.status, 400);
    assert.match(fora.json<Envelope>().error, new RegExp(`O mercado Feira ${c.id} não atende o ciclo`));
  });
});
