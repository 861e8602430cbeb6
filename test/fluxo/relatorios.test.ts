import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import type { Ator } from '../../src/domain/acesso.ts';
import { SalvarCiclo } from '../../src/comandos/ciclo.ts';
import { lerComando } from '../../src/comandos/comando.ts';
import { ComporCesta, naCesta } from '../../src/comandos/composicao.ts';
import { nomesDoCorpo } from '../../src/comandos/leitor/leitura.ts';
import { SalvarOferta } from '../../src/comandos/oferta.ts';
import { FazerPedido } from '../../src/comandos/pedido.ts';
import { formatarReais } from '../../src/decimal.ts';
import { salvarComposicao } from '../../src/domain/composicao.ts';
import { linhasOfertadas } from '../../src/domain/alocacao.ts';
import { salvarCiclo } from '../../src/domain/ciclos/gravacao.ts';
import { salvarOferta } from '../../src/domain/ofertas.ts';
import { disponibilidade } from '../../src/domain/pedidos/disponibilidade.ts';
import { finalizarPedido } from '../../src/domain/pedidos/finalizar.ts';
import { salvarPedido } from '../../src/domain/pedidos/salvar.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { abrirComoPlanilha, folhasDaPlanilha, semLibreOffice } from '../helpers/libreoffice.ts';
import { TIPO_XLSX } from '../../src/planilhas/xlsx.ts';
import { textoDoPdf } from '../helpers/pdf.ts';
import { navegadorComSessao } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { tokenCsrf, type Navegador } from '../helpers/navegador.ts';

interface RelatorioJson {
  titulo: string;
  colunas: Array<{ chave: string; titulo: string; somenteDados?: true }>;
  grupos: Array<{
    titulo: string;
    linhas: Array<Record<string, string | number | null>>;
    subtotais: Record<string, number>;
  }>;
  totais: Record<string, number>;
}

const TEMPO = { agora: new Date('2026-03-07T15:00:00Z'), hoje: '2026-03-07' };
const TAXA = { percentualCentesimos: 0, fixaCentavos: 100 };

describe('relatórios de um ciclo pequeno, conferidos à mão', () => {
  let amb: AmbienteDeTeste;
  let cicloid = 0;
  const quem: Record<string, { id: number; nav: Navegador }> = {};

  before(async () => {
    amb = await iniciarAmbiente({
      relogio: new RelogioDeTeste('2026-03-11T15:00:00Z'),
      env: { TAXA_PEDIDO_FIXA: '1.00' },
    });
    for (const [nome, perfil] of [
      ['Ana Horta', 'fornecedor'],
      ['Bruno Sítio', 'fornecedor'],
      ['Carla', 'consumidor'],
      ['Davi', 'consumidor'],
      ['Elisa', 'consumidor'],
      ['Admin', 'admin'],
      ['Info', 'info'],
    ] as const) {
      const u = await criarUsuario(amb.banco, { nome, perfil: [perfil] });
      await amb.banco
        .updateTable('usuario')
        .set({ celular: `(14) 9000-${String(u.id).padStart(4, '0')}` })
        .where('id', '=', u.id)
        .execute();
      quem[nome] = { id: u.id, nav: navegadorComSessao(amb, u.email, nome) };
    }
    const id = (n: string) => quem[n]?.id ?? 0;
    const admin: Ator = { email: 'a@t.org', nome: 'Admin', usuarioid: id('Admin'), perfil: ['admin'], ativo: true };
    const tomate = await criarProduto(amb.banco, { nome: 'tomate', unidade: 'kg' });
    const alface = await criarProduto(amb.banco, { nome: 'alface', unidade: 'maço' });
    const ovos = await criarProduto(amb.banco, { nome: 'ovos', unidade: 'dúzia' });
    const pequena = await criarCesta(amb.banco, { nome: 'Pequena', valorCentavos: 5000 });
    const ciclo = await criarCiclo(amb.banco, {
      nome: 'Ciclo R',
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: pequena.id, quantidadeCestas: 10 }],
    });
    cicloid = ciclo.id;
    const p1 = await criarPonto(amb.banco, 'Ponto Um');
    const p2 = await criarPonto(amb.banco, 'Ponto Dois');
    // The cycle's writes as the edge reads them: JSON or form bodies through src/cestas/entrada.ts.
    const livre = () => undefined;
    await salvarOferta(
      amb.banco,
      admin,
      lerComando(
        SalvarOferta,
        {
          cicloid,
          usuarioid: id('Ana Horta'),
          produtos: [
            { produtoid: tomate.id, quantidade: 30, valor: '8.00' },
            { produtoid: alface.id, quantidade: 40, valor: '3.00' },
          ],
        },
        nomesDoCorpo,
        livre,
      ),
      { ...TEMPO, finalizar: true },
    );
    await salvarOferta(
      amb.banco,
      admin,
      lerComando(
        SalvarOferta,
        {
          cicloid,
          usuarioid: id('Bruno Sítio'),
          produtos: [
            { produtoid: tomate.id, quantidade: 20, valor: '7.50' },
            { produtoid: ovos.id, quantidade: 15, valor: '16.00' },
          ],
        },
        nomesDoCorpo,
        livre,
      ),
      { ...TEMPO, finalizar: true },
    );
    const linhas = await linhasOfertadas(amb.banco, cicloid);
    const linha = (produto: string, fornecedor: string) =>
      linhas.find((l) => l.produto === produto && l.fornecedor === fornecedor)?.ofertaProdutoId;
    await salvarComposicao(
      amb.banco,
      admin,
      naCesta(
        lerComando(
          ComporCesta,
          {
            quantidadeCestas: 10,
            produtos: [
              { ofertaProdutoId: linha('tomate', 'Ana Horta'), quantidadePorCesta: 1, unidade: 'kg' },
              { ofertaProdutoId: linha('alface', 'Ana Horta'), quantidadePorCesta: 2, unidade: 'maço' },
              // Half a dozen, composed as people count eggs: 6 unidade.
              { ofertaProdutoId: linha('ovos', 'Bruno Sítio'), quantidadePorCesta: '6', unidade: 'unidade' },
            ],
          },
          nomesDoCorpo,
          livre,
        ),
        ciclo.cicloCestas[0] ?? 0,
      ),
      TEMPO.agora,
    );
    await salvarCiclo(
      amb.banco,
      admin,
      cicloid,
      lerComando(
        SalvarCiclo,
        { nome: 'Ciclo R', ...DATAS_PADRAO, cicloProdutos: [{ produtoId: tomate.id, quantidade: 12, valor: '10.00' }] },
        nomesDoCorpo,
        livre,
      ),
      TEMPO.agora,
      TEMPO.hoje,
    );
    const disp = await disponibilidade(amb.banco, cicloid, TEMPO.hoje);
    const cc = disp.cestas[0]?.cicloCestaId;
    const extra = disp.extras[0]?.cicloProdutoId;
    const pedir = async (nome: string, ponto: number, produtos: unknown[], confirmar: boolean) => {
      const { pedido: p } = await salvarPedido(
        amb.banco,
        admin,
        lerComando(FazerPedido, { cicloid, usuarioid: id(nome), pontoEntregaId: ponto, produtos }, nomesDoCorpo, livre),
        { ...TEMPO, taxa: TAXA },
      );
      if (confirmar)
        await finalizarPedido(amb.banco, admin, p.pedidoId, { ...TEMPO, taxa: TAXA, tz: 'America/Sao_Paulo' });
    };
    await pedir(
      'Carla',
      p1.id,
      [
        { cicloCestaId: cc, quantidade: 2 },
        { cicloProdutoId: extra, quantidade: 2 },
      ],
      true,
    );
    await pedir('Davi', p2.id, [{ cicloCestaId: cc, quantidade: 1 }], true);
    await pedir('Elisa', p1.id, [{ cicloCestaId: cc, quantidade: 1 }], false);
  });
  after(() => amb.fechar());

  const json = async (nome: string, caminho: string, corpo?: unknown) => {
    const nav = quem[nome]?.nav;
    assert.ok(nav);
    const r =
      corpo === undefined
        ? await nav.getJson(`${amb.url}${caminho}`)
        : await nav.postJson(`${amb.url}${caminho}`, corpo);
    assert.equal(r.status, 200, `${caminho}: ${r.texto.slice(0, 300)}`);
    return r.json<{ data: RelatorioJson }>().data;
  };
  const linhasDe = (r: RelatorioJson, chaves: string[]) =>
    r.grupos.flatMap((g) => g.linhas.map((l) => chaves.map((k) => l[k])));

  test('pedidos aos fornecedores: planejado, pedido (só confirmados), valor, subtotais e total', async () => {
    const r = await json('Admin', `/pedidosfornecedorestodos/${cicloid}`);
    // Confirmed baskets: 3. Extras: 12 kg published, all planned to Bruno (cheapest); 2 kg confirmed.
    assert.deepEqual(
      linhasDe(r, ['fornecedor', 'produto', 'unidade', 'planejado', 'quantidade', 'valorUnitario', 'valorTotal']),
      [
        ['Ana Horta', 'alface', 'maço', 20, 6, 3, 18],
        ['Ana Horta', 'tomate', 'kg', 10, 3, 8, 24],
        ['Bruno Sítio', 'ovos', 'dúzia', 5, 1.5, 16, 24],
        ['Bruno Sítio', 'tomate', 'kg', 12, 2, 7.5, 15],
      ],
    );
    assert.deepEqual(
      r.grupos.map((g) => [g.titulo, g.subtotais.valorTotal]),
      [
        ['Ana Horta', 42],
        ['Bruno Sítio', 39],
      ],
    );
    assert.equal(r.totais.valorTotal, 81);
    const proprio = await json('Ana Horta', `/pedidosfornecedorestodos/${cicloid}`);
    assert.deepEqual(
      proprio.grupos.map((g) => g.titulo),
      ['Ana Horta'],
      'um fornecedor vê só a sua parte',
    );
    assert.equal(proprio.totais.valorTotal, 42);
  });

  test('sobra: ofertado, para cestas, para extras, sobra e valor', async () => {
    const r = await json('Admin', `/pedidosfornecedoressobra/${cicloid}`);
    assert.deepEqual(
      linhasDe(r, ['fornecedor', 'produto', 'ofertado', 'paraCestas', 'paraExtras', 'sobra', 'valorSobra']),
      [
        ['Ana Horta', 'alface', 40, 20, 0, 20, 60],
        ['Ana Horta', 'tomate', 30, 10, 0, 20, 160],
        ['Bruno Sítio', 'ovos', 15, 5, 0, 10, 160],
        ['Bruno Sítio', 'tomate', 20, 0, 2, 18, 135],
      ],
    );
    assert.deepEqual(
      r.grupos.map((g) => g.subtotais.valorSobra),
      [220, 295],
    );
    assert.equal(r.totais.valorSobra, 515);
  });

  test('pedidos dos consumidores por ciclos: itens, taxa, ponto e totais; cada consumidor vê o seu', async () => {
    const r = await json('Admin', '/pedidosconsumidoresciclos', { ciclos: [cicloid] });
    assert.deepEqual(
      r.grupos.map((g) => [g.titulo, g.subtotais.valor]),
      [
        ['Carla', 121],
        ['Davi', 51],
        ['Elisa', 51],
      ],
    );
    assert.deepEqual(
      linhasDe(r, ['consumidor', 'pontoEntrega', 'situacao', 'item', 'quantidade', 'valor']).slice(0, 3),
      [
        ['Carla', 'Ponto Um', 'confirmado', 'Pequena', 2, 100],
        ['Carla', 'Ponto Um', 'confirmado', 'tomate', 2, 20],
        ['Carla', 'Ponto Um', 'confirmado', 'Taxa administrativa', null, 1],
      ],
    );
    assert.equal(r.totais.valor, 223);
    const form = await quem.Davi?.nav.post(`${amb.url}/pedidosconsumidoresciclos`, {
      form: { ciclos: [String(cicloid)], _csrf: 'x' },
    });
    assert.equal(form?.status, 403, 'formulário sem o token da sessão');
    const davi = await json('Davi', '/pedidosconsumidoresciclos', { ciclos: [cicloid] });
    assert.deepEqual(
      davi.grupos.map((g) => g.titulo),
      ['Davi'],
    );
  });

  test('produtos por ciclos: ofertado, nas cestas, extras, sobra e valor', async () => {
    const r = await json('Admin', '/relatorioprodutosciclos', { ciclos: [cicloid] });
    assert.deepEqual(linhasDe(r, ['produto', 'ofertado', 'paraCestas', 'extras', 'sobra', 'valor']), [
      ['alface', 40, 20, 0, 20, 60],
      ['ovos', 15, 5, 0, 10, 80],
      ['tomate', 50, 10, 2, 38, 95],
    ]);
    assert.equal(r.totais.valor, 235);
    const ruim = await quem.Admin?.nav.postJson(`${amb.url}/relatorioprodutosciclos`, { ciclos: ['x'] });
    assert.equal(ruim?.status, 400);
  });

  const csvDoAdmin = async (consulta: string) => {
    const r = await fetch(`${amb.url}/downloadpedidosfornecedoresciclos?${consulta}`, {
      headers: { cookie: `appSession=${quem.Admin?.nav.cookie(amb.url, 'appSession') ?? ''}` },
    });
    assert.equal(r.status, 200);
    return Buffer.from(await r.arrayBuffer());
  };

  test('CSV no formato do contrato: títulos de gente (planejado, R$), UTF-8 sem BOM, vírgulas, acentos e decimais com ponto', async () => {
    const r = await quem.Admin?.nav.get(`${amb.url}/downloadpedidosfornecedoresciclos?ciclos=${cicloid}`);
    assert.equal(r?.status, 200);
    assert.match(r?.headers.get('content-type') ?? '', /text\/csv/);
    assert.equal(r?.headers.get('content-disposition'), 'attachment; filename="pedidos-fornecedores-Ciclo-R.csv"');
    const bytes = await csvDoAdmin(`cicloId=${cicloid}`);
    assert.deepEqual([...bytes.subarray(0, 3)], [...Buffer.from('For')], 'UTF-8 sem BOM: começa pelo título');
    const linhas = parse(bytes.toString('utf8'), { delimiter: ',' }) as string[][];
    assert.deepEqual(linhas, [
      [
        'Fornecedor',
        'Produto',
        'Unidade',
        'Quantidade planejada',
        'Quantidade pedida',
        'Valor unitário (R$)',
        'Valor (R$)',
      ],
      ['Ana Horta', 'alface', 'maço', '20', '6', '3.00', '18.00'],
      ['Ana Horta', 'tomate', 'kg', '10', '3', '8.00', '24.00'],
      ['Bruno Sítio', 'ovos', 'dúzia', '5', '1.5', '16.00', '24.00'],
      ['Bruno Sítio', 'tomate', 'kg', '12', '2', '7.50', '15.00'],
    ]);
    // The page's model, cell for cell: the CSV cannot disagree with what the page and the JSON say.
    // The JSON keeps the contract's columns, and both keep its dot decimals.
    const pagina = await json('Admin', '/pedidosfornecedoresciclos', { ciclos: [cicloid] });
    assert.deepEqual(pagina.colunas, [
      { chave: 'fornecedor', titulo: 'Fornecedor', tipo: 'texto' },
      { chave: 'produto', titulo: 'Produto', tipo: 'texto' },
      { chave: 'unidade', titulo: 'Unidade', tipo: 'texto' },
      { chave: 'planejado', titulo: 'Planejado', tipo: 'quantidade' },
      { chave: 'quantidade', titulo: 'Pedido', tipo: 'quantidade' },
      { chave: 'valorUnitario', titulo: 'Valor unitário', tipo: 'dinheiro' },
      { chave: 'valorTotal', titulo: 'Valor', tipo: 'dinheiro' },
    ]);
    const noJson = linhasDe(
      pagina,
      pagina.colunas.map((c) => c.chave),
    );
    assert.deepEqual(noJson[2], ['Bruno Sítio', 'ovos', 'dúzia', 5, 1.5, 16, 24]);
    // "1.5" is 1500 thousandths and "16.00" 1600 cents, exactly what the JSON's 1.5 and 16 are.
    const inteiro = (texto: string, casas: number, formato: RegExp) => {
      assert.match(texto, formato);
      const [inteira = '', fracao = ''] = texto.split('.');
      return Number(inteira) * 10 ** casas + Number(fracao.padEnd(casas, '0'));
    };
    const milesimos = (t: string) => inteiro(t, 3, /^\d+(\.\d{1,3})?$/);
    const centavos = (t: string) => inteiro(t, 2, /^\d+\.\d{2}$/);
    assert.deepEqual(
      linhas
        .slice(1)
        .map(([f, p, u, planejado = '', pedido = '', unitario = '', valor = '']) => [
          f,
          p,
          u,
          milesimos(planejado),
          milesimos(pedido),
          centavos(unitario),
          centavos(valor),
        ]),
      noJson.map(([f, p, u, planejado, pedido, unitario, valor]) => [
        f,
        p,
        u,
        Math.round(Number(planejado) * 1000),
        Math.round(Number(pedido) * 1000),
        Math.round(Number(unitario) * 100),
        Math.round(Number(valor) * 100),
      ]),
    );
    const proprio = await quem['Bruno Sítio']?.nav.get(
      `${amb.url}/downloadpedidosfornecedoresciclos?ciclos=${cicloid}`,
    );
    assert.ok(!proprio?.texto.includes('Ana Horta'), 'um fornecedor baixa só as suas linhas');
    assert.equal(
      (await quem.Carla?.nav.get(`${amb.url}/downloadpedidosfornecedoresciclos?ciclos=${cicloid}`))?.status,
      403,
    );
  });

  test(
    'CSV aberto no LibreOffice no formato do contrato: quantidades e valores chegam como números, os nomes como texto',
    { skip: semLibreOffice() },
    async () => {
      const planilha = await abrirComoPlanilha(await csvDoAdmin(`ciclos=${cicloid}`));
      assert.deepEqual(planilha, [
        [
          'Fornecedor',
          'Produto',
          'Unidade',
          'Quantidade planejada',
          'Quantidade pedida',
          'Valor unitário (R$)',
          'Valor (R$)',
        ],
        ['Ana Horta', 'alface', 'maço', 20, 6, 3, 18],
        ['Ana Horta', 'tomate', 'kg', 10, 3, 8, 24],
        ['Bruno Sítio', 'ovos', 'dúzia', 5, 1.5, 16, 24],
        ['Bruno Sítio', 'tomate', 'kg', 12, 2, 7.5, 15],
      ]);
    },
  );

  const arquivoDoAdmin = async (caminho: string) => {
    const r = await fetch(`${amb.url}${caminho}`, {
      headers: { cookie: `appSession=${quem.Admin?.nav.cookie(amb.url, 'appSession') ?? ''}` },
    });
    assert.equal(r.status, 200, caminho);
    return r;
  };

  test(
    'planilha (xlsx) aberta no LibreOffice: números como números, títulos de gente e a linha de total',
    { skip: semLibreOffice() },
    async () => {
      const r = await arquivoDoAdmin(`/downloadpedidosfornecedoresciclos?ciclos=${cicloid}&formato=xlsx`);
      assert.equal(r.headers.get('content-type'), TIPO_XLSX);
      assert.equal(r.headers.get('content-disposition'), 'attachment; filename="pedidos-fornecedores-Ciclo-R.xlsx"');
      const folhas = await folhasDaPlanilha(new Uint8Array(await r.arrayBuffer()), 'xlsx');
      assert.deepEqual([...folhas.keys()], ['Pedidos aos fornecedores']);
      assert.deepEqual(folhas.get('Pedidos aos fornecedores'), [
        ['Fornecedor', 'Produto', 'Unidade', 'Quantidade planejada', 'Quantidade pedida', 'Valor unitário', 'Valor'],
        ['Ana Horta', 'alface', 'maço', 20, 6, 3, 18],
        ['Ana Horta', 'tomate', 'kg', 10, 3, 8, 24],
        ['Bruno Sítio', 'ovos', 'dúzia', 5, 1.5, 16, 24],
        ['Bruno Sítio', 'tomate', 'kg', 12, 2, 7.5, 15],
        ['Total', null, null, null, null, null, 81],
      ]);
    },
  );

  /** A downloaded spreadsheet, read back by the library that wrote it: the formats and the sheet's settings. */
  const planilhaDoAdmin = async (caminho: string) => {
    const { Workbook } = (await import('exceljs')).default;
    const livro = new Workbook();
    await livro.xlsx.load(await (await arquivoDoAdmin(caminho)).arrayBuffer());
    return livro;
  };

  test('planilha (xlsx): formatos de reais e quantidade, cabeçalho congelado e colunas na largura do que mostram', async () => {
    const ler = planilhaDoAdmin;
    const fornecedores = (await ler(`/pedidosfornecedorestodos/${cicloid}?formato=xlsx`)).worksheets[0];
    assert.ok(fornecedores !== undefined);
    assert.deepEqual(
      [fornecedores.views[0]?.state, fornecedores.views[0]?.state === 'frozen' ? fornecedores.views[0].ySplit : null],
      ['frozen', 1],
      'o cabeçalho congelado',
    );
    const ovos = fornecedores.getRow(4);
    assert.deepEqual(
      [2, 5, 6].map((i) => [ovos.getCell(i).value, ovos.getCell(i).numFmt]),
      [
        ['ovos', undefined],
        [1.5, '#,##0.0##'],
        [16, '"R$" #,##0.00;-"R$" #,##0.00'],
      ],
    );
    assert.equal(fornecedores.getRow(2).getCell(4).numFmt, '#,##0', 'uma quantidade inteira sem casas');
    assert.ok((fornecedores.getColumn(1).width ?? 0) >= 'Bruno Sítio'.length, 'a coluna cabe o nome');
  });

  test('cada relatório tem a planilha e o CSV: ?formato= na sua rota, e a página oferece os dois', async () => {
    const admin = quem.Admin?.nav;
    assert.ok(admin !== undefined);
    const rotas = [
      `/pedidosfornecedoressobra/${cicloid}`,
      `/pedidosfornecedorestodos/${cicloid}`,
      `/pedidosconsumidoresciclos?ciclos=${cicloid}`,
      `/relatorioprodutosciclos?ciclos=${cicloid}`,
      `/pedidosfornecedoresciclos?ciclos=${cicloid}`,
      '/movimentacaotodos',
    ];
    for (const rota of rotas) {
      const junta = rota.includes('?') ? '&' : '?';
      const xlsx = await arquivoDoAdmin(`${rota}${junta}formato=xlsx`);
      assert.equal(xlsx.headers.get('content-type'), TIPO_XLSX, rota);
      assert.match(
        xlsx.headers.get('content-disposition') ?? '',
        /^attachment; filename="[a-z-]+[A-Za-z0-9-]*\.xlsx"$/,
      );
      assert.deepEqual(
        [...new Uint8Array(await xlsx.arrayBuffer()).subarray(0, 2)],
        [0x50, 0x4b],
        'um arquivo zip (xlsx)',
      );
      const csv = await arquivoDoAdmin(`${rota}${junta}formato=csv`);
      assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/, rota);
      assert.ok((await csv.text()).split('\n').length >= 2, rota);
    }
    const recusa = await admin.getJson(`${amb.url}/pedidosfornecedoressobra/${cicloid}?formato=pdf`);
    assert.equal(recusa.status, 400);
    assert.match(recusa.texto, /formato/);
    // The pages: the spreadsheet is the main download, the CSV beside it.
    const paginas = [
      (await admin.get(`${amb.url}/pedidosfornecedoressobra/${cicloid}`)).texto,
      (
        await admin.post(`${amb.url}/pedidosconsumidoresciclos`, {
          form: {
            ciclos: String(cicloid),
            _csrf: tokenCsrf((await admin.get(`${amb.url}/pedidosconsumidoresciclos`)).texto),
          },
        })
      ).texto,
      (await admin.get(`${amb.url}/movimentacaotodos`)).texto,
    ];
    for (const pagina of paginas) {
      assert.match(pagina, /<a class="botao" href="[^"]*formato=xlsx" download>Planilha \(Excel, LibreOffice\)<\/a>/);
      assert.match(pagina, /<a class="botao secundario" href="[^"]*formato=csv" download>CSV<\/a>/);
    }
  });

  test('PDF de entrega: consumidores confirmados sob o seu ponto, montagem, recebimento e totais, com acentos', async () => {
    const cookie = `appSession=${quem.Admin?.nav.cookie(amb.url, 'appSession') ?? ''}`;
    const r = await fetch(`${amb.url}/entregaCicloPDF/${cicloid}`, { headers: { cookie } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'application/pdf');
    const { paginas, texto } = await textoDoPdf(new Uint8Array(await r.arrayBuffer()));
    assert.ok(paginas >= 1);
    // One sheet per pickup point, each page naming the cycle and its pickup days.
    const folhas = texto.split('\n').filter((f) => f.trim() !== '');
    assert.equal(folhas.length, paginas);
    for (const f of folhas) assert.match(f, /Ciclo R · retirada 11\/03\/2026 a 12\/03\/2026 · página \d+/);
    const folhaDe = (ponto: string) => folhas.filter((f) => f.includes(`Ponto de entrega: ${ponto}`));
    assert.equal(folhaDe('Ponto Um').length, 1);
    assert.equal(folhaDe('Ponto Dois').length, 1);
    assert.notEqual(folhaDe('Ponto Um')[0], folhaDe('Ponto Dois')[0], 'cada ponto na sua página');
    assert.match(folhaDe('Ponto Dois')[0] ?? '', /Davi/);
    assert.match(folhaDe('Ponto Um')[0] ?? '', /Carla/);
    assert.match(folhaDe('Ponto Um')[0] ?? '', /Retirado \(rubrica\)/);
    // Unconfirmed orders are neither delivered nor charged: listed apart, for a call before the day.
    const naoConfirmados = texto.slice(texto.indexOf('Pedidos não confirmados'));
    assert.match(naoConfirmados, /^Pedidos não confirmados\s+Não entram na entrega nem na cobrança[\s\S]*Elisa/);
    assert.equal(texto.split('Elisa').length, 2, 'Elisa só na lista dos não confirmados');
    assert.match(texto, /Pedidos confirmados: 2/);
    assert.match(texto, /R\$ 172,00/, 'total: 121 + 51');
    assert.match(texto, /Montagem: Pequena\s+Montar 3 cestas/);
    // Packing per basket in the unit it was composed in; the arithmetic stays in dozens (the receiving sheet).
    assert.match(
      texto.replace(/\s+/g, ' '),
      /Produto Fornecedor Por cesta Unidade Conferido alface Ana Horta 2 maço ovos Bruno Sítio 6 unidade tomate Ana Horta 1 kg/,
    );
    assert.match(texto, /Recebimento: Bruno Sítio/);
    // The receiving sheets are the supplier report's rows, cell for cell, as people read them.
    const plano = texto.replace(/\s+/g, ' ');
    const fornecedores = await json('Admin', `/pedidosfornecedorestodos/${cicloid}`);
    const reais = (v: unknown) => formatarReais(Math.round(Number(v) * 100));
    for (const g of fornecedores.grupos) {
      const folha = plano.slice(plano.indexOf(`Recebimento: ${g.titulo}`));
      const esperadas = g.linhas
        .filter((l) => Number(l.quantidade) > 0)
        .map(
          (l) =>
            `${String(l.produto)} ${String(l.unidade)} ${String(l.quantidade).replace('.', ',')} ${reais(l.valorUnitario)} ${reais(l.valorTotal)}`,
        );
      assert.ok(esperadas.length > 0);
      assert.ok(
        folha.startsWith(
          `Recebimento: ${g.titulo} Produto Unidade Pedido Valor unitário Valor Recebido ${esperadas.join(' ')} Total ${reais(g.subtotais.valorTotal)}`,
        ),
        `${g.titulo}: ${folha.slice(0, 300)}`,
      );
    }
    assert.match(texto, /página 1/);
    const doConsumidor = await fetch(`${amb.url}/entregaCicloPDF/${cicloid}`, {
      headers: { cookie: `appSession=${quem.Davi?.nav.cookie(amb.url, 'appSession') ?? ''}` },
    });
    const dele = await textoDoPdf(new Uint8Array(await doConsumidor.arrayBuffer()));
    assert.match(dele.texto, /Davi/);
    assert.doesNotMatch(dele.texto, /Carla|Elisa|Recebimento|Montagem/, 'um consumidor vê só a sua parte');
  });

  test('movimentações: saldo corrente por pessoa, filtros e totais; cada um vê as suas', async () => {
    const admin = quem.Admin;
    assert.ok(admin);
    const fechar = await admin.nav.postJson(`${amb.url}/fecharciclo/${cicloid}`, {});
    assert.equal(fechar.status, 200);
    const pago = await admin.nav.postJson(`${amb.url}/movimentacao`, {
      usuarioid: quem.Carla?.id,
      tipoMovimentacaoId: 4,
      valor: '100.00',
      descricao: 'Pix',
      data: '2026-03-12',
    });
    assert.equal(pago.status, 201);
    const r = await json('Admin', '/movimentacaotodos');
    const carla = r.grupos.find((g) => g.titulo === 'Carla');
    assert.deepEqual(
      carla?.linhas.map((l) => [l.tipo, l.credito, l.debito, l.saldo]),
      [
        ['Pedido de consumidor', null, 120, -120],
        ['Taxa administrativa', null, 1, -121],
        ['Pagamento recebido', 100, null, -21],
      ],
    );
    const soCredito = await json('Admin', `/movimentacaotodos?tipoMovimentacaoId=4&usuarioid=${quem.Carla?.id}`);
    assert.deepEqual(
      soCredito.grupos.flatMap((g) => g.linhas.map((l) => l.saldo)),
      [-21],
      'o saldo corrente ignora os filtros: é o da pessoa',
    );
    const daCarla = await json('Carla', `/movimentacaotodos?usuarioid=${quem.Davi?.id}`);
    assert.deepEqual(
      daCarla.grupos.map((g) => g.titulo),
      ['Carla'],
      'quem não é da coordenação vê só as suas',
    );
    assert.equal((await quem.Info?.nav.getJson(`${amb.url}/movimentacaotodos`))?.status, 200);
    // The JSON keeps the contract's ISO date; people read dd/mm/aaaa.
    assert.ok(carla?.linhas.some((l) => l.data === '2026-03-12'));
    const pagina = (await admin.nav.get(`${amb.url}/movimentacaotodos`)).texto;
    assert.match(pagina, /<td class="titulo" data-rotulo="Data">12\/03\/2026<\/td>/);
    assert.doesNotMatch(pagina, />2026-03-12</);
  });

  test('planilha (xlsx) das movimentações: a data é uma data, mostrada como dd/mm/aaaa', async () => {
    // Dates are dates: the movements' day is a date cell shown as dd/mm/aaaa.
    const movimentacoes = (await planilhaDoAdmin('/movimentacaotodos?formato=xlsx')).worksheets[0];
    const cabecalho = movimentacoes?.getRow(1).values;
    assert.ok(Array.isArray(cabecalho));
    const coluna = cabecalho.indexOf('Data');
    assert.ok(coluna > 0, JSON.stringify(cabecalho));
    const dia = movimentacoes?.getRow(2).getCell(coluna);
    assert.ok(dia?.value instanceof Date, JSON.stringify(dia?.value));
    assert.equal(dia.numFmt, 'dd/mm/yyyy');
    const comoJson = await json('Admin', '/movimentacaotodos');
    const primeira = comoJson.grupos[0]?.linhas[0];
    assert.equal(dia.value.toISOString().slice(0, 10), primeira?.data);
  });

  test('páginas dos relatórios em HTML, com estilo de impressão', async () => {
    const r = await quem.Admin?.nav.get(`${amb.url}/pedidosfornecedorestodos/${cicloid}`);
    assert.equal(r?.status, 200);
    assert.match(r?.texto ?? '', /<table class="relatorio tabela-cartoes">/);
    assert.match(r?.texto ?? '', /Subtotal Ana Horta/);
    assert.match(r?.texto ?? '', /R\$ 81,00/);
    const escolha = await quem.Admin?.nav.get(`${amb.url}/pedidosfornecedoresciclos`);
    assert.match(escolha?.texto ?? '', /name="ciclos" value="\d+"/);
    const css = await fetch(`${amb.url}/static/estilo.css`);
    assert.match(await css.text(), /@media print/);
  });
});
