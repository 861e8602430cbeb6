import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  concordancia,
  faltaQuantidade,
  formatarQuantidade,
  formatarQuantidadeComUnidade,
  formatarReais,
  lerDecimalDigitado,
  valorDaQuantidade,
} from '../../src/decimal.ts';
import { deMilesimos, quantidadeComUnidade } from '../../web/mercados/formatos.ts';
import type { LinhaDoPedido, Pedido } from '../../src/domain/pedidos/modelo.ts';
import { linhaDoPedidoJson, pedidoJson } from '../../src/cestas/apresentadores/pedidos.ts';
import { textoParaPessoas, valorJson } from '../../src/cestas/apresentadores/relatorios.ts';
import { tituloNaPlanilha, valorCsv } from '../../src/planilhas/csv.ts';
import { naUnidadeEscolhida } from '../../src/domain/composicao.ts';

function lido(texto: string, escala: number): number {
  const r = lerDecimalDigitado(texto, escala);
  if (!r.ok) throw new Error(r.motivo);
  return r.valor;
}

test('1,5 kg a R$ 12,34: a borda lê 1500 milésimos e 1234 centavos; o domínio conta 1851 centavos; cada formato diz o seu', () => {
  const milesimos = lido('1,5', 3);
  const centavos = lido('R$ 12,34', 2);
  assert.deepEqual([milesimos, centavos], [1500, 1234]);
  const subtotal = valorDaQuantidade(centavos, milesimos);
  assert.equal(subtotal, 1851, '18,51: meio centavo arredondado para cima');
  const linha: LinhaDoPedido = {
    id: 1,
    tipo: 'extra',
    cicloCestaId: null,
    cicloProdutoId: 7,
    nome: 'tomate',
    unidade: 'kg',
    quantidadeMilesimos: milesimos,
    valorCentavos: centavos,
    subtotalCentavos: subtotal,
    mercadoId: null,
    mercado: null,
    taxaCentesimos: null,
    assinaturaId: null,
  };
  // JSON: the contract's dot decimals.
  assert.deepEqual(linhaDoPedidoJson(linha), {
    id: 1,
    tipo: 'extra',
    cicloCestaId: null,
    cicloProdutoId: 7,
    nome: 'tomate',
    unidade: 'kg',
    quantidade: 1.5,
    valor: 12.34,
    subtotal: 18.51,
    mercadoId: null,
    mercado: null,
  });
  // People: pt-BR.
  assert.equal(
    `${formatarQuantidade(linha.quantidadeMilesimos)} ${linha.unidade} · ${formatarReais(linha.subtotalCentavos)}`,
    '1,5 kg · R$ 18,51',
  );
});

test('o pedido em JSON: totais e taxa saem dos centavos do domínio, sem arredondar de novo', () => {
  const pedido: Pedido = {
    pedidoId: 9,
    cicloid: 2,
    usuarioid: 3,
    usuario: { id: 3, nome: 'Ana' },
    pontoEntrega: { id: 4, nome: 'Sede', dataRetirada: null, horaInicio: null, horaFim: null },
    pontoEntregaId: 4,
    finalizado: false,
    dataConfirmacao: null,
    produtos: [],
    totalCentavos: 10_001,
    taxaCentavos: 250,
    totalComTaxaCentavos: 10_251,
    partes: [{ mercadoId: null, mercado: null, subtotalCentavos: 10_001, taxaCentavos: 250, taxaCentesimos: null }],
  };
  const json = pedidoJson(pedido);
  assert.equal(json.pedidoId, 9);
  assert.deepEqual([json.pedido.total, json.pedido.taxa, json.pedido.totalComTaxa], [100.01, 2.5, 102.51]);
  assert.equal('totalCentavos' in json.pedido, false, 'o JSON fala a língua do contrato, não a do domínio');
});

test('uma célula de relatório: inteira no modelo, número no JSON, ponto decimal no CSV do contrato, vírgula para pessoas', () => {
  const dinheiro = { chave: 'v', titulo: 'Valor', tipo: 'dinheiro' } as const;
  const quantidade = { chave: 'q', titulo: 'Quantidade', tipo: 'quantidade' } as const;
  assert.deepEqual(
    [valorJson(dinheiro, 123456), valorCsv(dinheiro, 123456), textoParaPessoas(dinheiro, 123456)],
    [1234.56, '1234.56', 'R$ 1.234,56'],
  );
  assert.deepEqual(
    [valorJson(quantidade, 1250_500), valorCsv(quantidade, 1250_500), textoParaPessoas(quantidade, 1250_500)],
    [1250.5, '1250.5', '1.250,5'],
  );
  assert.deepEqual(
    [valorJson(quantidade, null), valorCsv(quantidade, null), textoParaPessoas(quantidade, null)],
    [null, '', ''],
  );
  // The CSV keeps every place money has, only the places a quantity has, and a plain minus.
  assert.deepEqual(
    [1250, 1200, 5, 0, -1230].map((v) => valorCsv(dinheiro, v)),
    ['12.50', '12.00', '0.05', '0.00', '-12.30'],
  );
  assert.deepEqual(
    [1500, 20_000, 5, 0, 250, -1500].map((v) => valorCsv(quantidade, v)),
    ['1.5', '20', '0.005', '0', '0.25', '-1.5'],
  );
  assert.equal(valorCsv({ chave: 'n', titulo: 'Nº', tipo: 'inteiro' }, 1234567), '1234567');
  assert.equal(
    valorCsv({ chave: 'd', titulo: 'Data', tipo: 'data' }, '2026-03-12'),
    '2026-03-12',
    'a data do contrato: AAAA-MM-DD',
  );
  assert.equal(
    valorCsv({ chave: 't', titulo: 'Produto', tipo: 'texto' }, 'ovos, 1.5 dúzia'),
    'ovos, 1.5 dúzia',
    'o texto vai como é',
  );
});

test('o cabeçalho do CSV: o título da planilha, ou o da página, e "(R$)" no dinheiro', () => {
  assert.equal(
    tituloNaPlanilha({ chave: 'p', titulo: 'Planejado', tituloPlanilha: 'Quantidade planejada', tipo: 'quantidade' }),
    'Quantidade planejada',
  );
  assert.equal(tituloNaPlanilha({ chave: 'v', titulo: 'Valor unitário', tipo: 'dinheiro' }), 'Valor unitário (R$)');
  assert.equal(tituloNaPlanilha({ chave: 'u', titulo: 'Unidade', tipo: 'texto' }), 'Unidade');
});

test('a unidade que a coordenação escolheu volta para mostrar, exata, ou fica a do produto', () => {
  assert.deepEqual(
    naUnidadeEscolhida(500, 'dúzia', 'unidade'),
    { milesimos: 6000, unidade: 'unidade' },
    '0,5 dúzia são 6 unidades',
  );
  assert.deepEqual(naUnidadeEscolhida(1500, 'kg', 'g'), { milesimos: 1_500_000, unidade: 'g' });
  assert.deepEqual(naUnidadeEscolhida(12_000, 'unidade', 'dúzia'), { milesimos: 1000, unidade: 'dúzia' });
  assert.deepEqual(
    naUnidadeEscolhida(5, 'unidade', 'dúzia'),
    { milesimos: 5, unidade: 'unidade' },
    '0,005 unidade não é um número exato de dúzias',
  );
  assert.deepEqual(
    naUnidadeEscolhida(2000, 'maço', 'kg'),
    { milesimos: 2000, unidade: 'maço' },
    'sem conversão, a unidade do produto',
  );
  assert.deepEqual(naUnidadeEscolhida(2000, 'kg', 'kg'), { milesimos: 2000, unidade: 'kg' });
});

test('a unidade vai para o plural a partir de duas: "2 maços", "13 cestas"; "1,5 kg", "1 dúzia" e "1,999 litro" ficam', () => {
  assert.equal(formatarQuantidadeComUnidade(2000, 'maço'), '2 maços');
  assert.equal(formatarQuantidadeComUnidade(13000, 'cesta'), '13 cestas');
  assert.equal(formatarQuantidadeComUnidade(6000, 'unidade'), '6 unidades');
  assert.equal(formatarQuantidadeComUnidade(2500, 'dúzia'), '2,5 dúzias');
  assert.equal(formatarQuantidadeComUnidade(1999, 'litro'), '1,999 litro');
  assert.equal(formatarQuantidadeComUnidade(1000, 'dúzia'), '1 dúzia');
  assert.equal(formatarQuantidadeComUnidade(12500, 'kg'), '12,5 kg', 'um símbolo não vai para o plural');
});

test('plural pela regra do pt-BR (Intl.PluralRules): singular abaixo de 2, plural de 2 em diante, nas duas faces', () => {
  // [milésimos, unidade, como se lê]
  const casos: ReadonlyArray<readonly [number, string, string]> = [
    [0, 'maço', '0 maço'],
    [500, 'dúzia', '0,5 dúzia'],
    [1000, 'maço', '1 maço'],
    [1000, 'cesta', '1 cesta'],
    [1500, 'dúzia', '1,5 dúzia'],
    [1500, 'kg', '1,5 kg'],
    [1999, 'litro', '1,999 litro'],
    [2000, 'maço', '2 maços'],
    [2000, 'kg', '2 kg'],
    [2000, 'g', '2 g'],
    [5000, 'dúzia', '5 dúzias'],
    [6000, 'unidade', '6 unidades'],
    [2500, 'litro', '2,5 litros'],
    [13000, 'cesta', '13 cestas'],
    [1_000_000, 'unidade', '1.000 unidades'],
    [1_000_000_000, 'litro', '1.000.000 litros'],
    [3000, 'caixa', '3 caixa'],
  ];
  for (const [milesimos, unidade, esperado] of casos) {
    assert.equal(formatarQuantidadeComUnidade(milesimos, unidade), esperado, `Cestas: ${milesimos} ${unidade}`);
    assert.equal(quantidadeComUnidade(deMilesimos(milesimos), unidade), esperado, `Mercados: ${milesimos} ${unidade}`);
  }
  assert.equal(formatarQuantidadeComUnidade(-2000, 'maço'), '−2 maços', 'o sinal não muda a palavra');
  assert.equal(quantidadeComUnidade('x', 'maço'), 'x maço', 'o que não é quantidade fica como veio');
  assert.deepEqual(
    [0, 1000, 1500, 2000, 5000].map((m) => concordancia(m, 'resta', 'restam')),
    ['resta', 'resta', 'resta', 'restam', 'restam'],
  );
  assert.equal(faltaQuantidade(1000, 'maço'), 'Falta 1 maço');
  assert.equal(faltaQuantidade(1500, 'kg'), 'Falta 1,5 kg');
  assert.equal(faltaQuantidade(5000, 'dúzia'), 'Faltam 5 dúzias');
});
