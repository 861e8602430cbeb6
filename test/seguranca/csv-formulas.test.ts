import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { criarCesta, criarCiclo, criarUsoDaCesta } from '../helpers/fabricas.ts';
import { abrirComoPlanilha, semLibreOffice } from '../helpers/libreoffice.ts';
import { entrarComo } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

/** Names a supplier or a product could be given, each of which a spreadsheet would run. */
const FORMULAS = [
  '=HYPERLINK("https://golpe.example","Ver pagamento")',
  '+SUM(1,1)',
  '-2+3',
  '@SUM(1,1)',
  '\t=1+1',
  '\r=1+1',
];

describe('CSV: nada que alguém digitou vira fórmula na planilha da coordenação', () => {
  let amb: AmbienteDeTeste;
  let cicloid = 0;

  before(async () => {
    amb = await iniciarAmbiente();
    const cestas = [];
    for (let i = 0; i < FORMULAS.length; i++)
      cestas.push({ cestaId: (await criarCesta(amb.banco)).id, quantidadeCestas: 50 });
    const ciclo = await criarCiclo(amb.banco, { cestas });
    cicloid = ciclo.id;
    for (const [i, nome] of FORMULAS.entries()) {
      const uso = await criarUsoDaCesta(amb.banco, cicloid, ciclo.cicloCestas[i] ?? 0, { pedidas: 2, compostas: 5 });
      const linha = await amb.banco
        .selectFrom('ofertaproduto as op')
        .innerJoin('oferta as o', 'o.id', 'op.ofertaid')
        .select(['o.usuarioid', 'op.produtoid'])
        .where('op.id', '=', uso.ofertaProdutoId)
        .executeTakeFirstOrThrow();
      await amb.banco
        .updateTable('usuario')
        .set({ nome, nomeoficial: nome })
        .where('id', '=', linha.usuarioid)
        .execute();
      await amb.banco
        .updateTable('produto')
        .set({ nome: `${nome} (produto)` })
        .where('id', '=', linha.produtoid)
        .execute();
    }
  });
  after(() => amb.fechar());

  test('/downloadpedidosfornecedoresciclos escapa cada célula que começa com = + - @, tab ou retorno', async () => {
    const admin = await entrarComo(amb, ['admin']);
    const r = await admin.nav.get(`${amb.url}/downloadpedidosfornecedoresciclos?ciclos=${cicloid}`);
    assert.equal(r.status, 200);
    const linhas = parse(r.texto, { delimiter: ',', columns: true }) as Array<Record<string, string>>;
    assert.equal(linhas.length, FORMULAS.length);
    const fornecedores = linhas.map((l) => l.Fornecedor ?? '').sort();
    assert.deepEqual(
      fornecedores,
      FORMULAS.map((f) => `'${f}`).sort(),
      'cada nome sai com um apóstrofo na frente, inteiro',
    );
    for (const l of linhas) {
      assert.ok((l.Produto ?? '').startsWith("'"), l.Produto);
      for (const [coluna, valor] of Object.entries(l))
        assert.ok(!/^[=+\-@\t\r]/.test(valor), `${coluna}: ${JSON.stringify(valor)}`);
    }
    // Numbers are never escaped: each stays a dot decimal a spreadsheet reads as a number.
    for (const l of linhas) {
      for (const coluna of ['Quantidade planejada', 'Quantidade pedida'])
        assert.match(l[coluna] ?? '', /^\d+(\.\d{1,3})?$/, coluna);
      for (const coluna of ['Valor unitário (R$)', 'Valor (R$)']) assert.match(l[coluna] ?? '', /^\d+\.\d{2}$/, coluna);
    }
  });

  test(
    'aberto no LibreOffice, cada nome fica texto com o apóstrofo e cada número fica número',
    { skip: semLibreOffice() },
    async () => {
      const admin = await entrarComo(amb, ['admin']);
      const r = await fetch(`${amb.url}/downloadpedidosfornecedoresciclos?ciclos=${cicloid}`, {
        headers: { cookie: `appSession=${admin.nav.cookie(amb.url, 'appSession') ?? ''}` },
      });
      const [cabecalho, ...linhas] = await abrirComoPlanilha(new Uint8Array(await r.arrayBuffer()));
      assert.deepEqual(cabecalho, [
        'Fornecedor',
        'Produto',
        'Unidade',
        'Quantidade planejada',
        'Quantidade pedida',
        'Valor unitário (R$)',
        'Valor (R$)',
      ]);
      assert.equal(linhas.length, FORMULAS.length);
      for (const [fornecedor, produto, , ...numeros] of linhas) {
        // A formula would have run: its result (a number, a link) instead of the text.
        assert.ok(typeof fornecedor === 'string' && fornecedor.startsWith("'"), JSON.stringify(fornecedor));
        assert.ok(
          typeof produto === 'string' && produto.startsWith("'") && produto.endsWith('(produto)'),
          JSON.stringify(produto),
        );
        assert.ok(numeros.length === 4 && numeros.every((n) => typeof n === 'number'), JSON.stringify(numeros));
      }
    },
  );

  test(
    'a planilha (xlsx) aberta no LibreOffice: cada nome é texto, como foi escrito, e nenhuma fórmula roda',
    { skip: semLibreOffice() },
    async () => {
      const admin = await entrarComo(amb, ['admin']);
      const r = await fetch(`${amb.url}/downloadpedidosfornecedoresciclos?ciclos=${cicloid}&formato=xlsx`, {
        headers: { cookie: `appSession=${admin.nav.cookie(amb.url, 'appSession') ?? ''}` },
      });
      assert.equal(r.status, 200);
      const [, ...linhas] = await abrirComoPlanilha(new Uint8Array(await r.arrayBuffer()), 'xlsx');
      const deFornecedores = linhas.filter(([primeira]) => primeira !== 'Total');
      assert.equal(deFornecedores.length, FORMULAS.length);
      // A spreadsheet cell is typed: the text is kept as text, with nothing added in front.
      assert.deepEqual(
        deFornecedores.map(([fornecedor]) => (typeof fornecedor === 'string' ? fornecedor.trim() : fornecedor)).sort(),
        FORMULAS.map((f) => f.trim()).sort(),
      );
      for (const [, produto, , ...numeros] of deFornecedores) {
        assert.ok(typeof produto === 'string' && produto.endsWith('(produto)'), JSON.stringify(produto));
        assert.ok(numeros.length === 4 && numeros.every((n) => typeof n === 'number'), JSON.stringify(numeros));
      }
    },
  );
});
