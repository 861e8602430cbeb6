import assert from 'node:assert/strict';
import { test } from 'node:test';
import { erroDoValor, paraCentavos, reais, reaisDeCentavos } from '../../web/mercados/dinheiro.ts';
import { etiquetasDoCiclo, totaisDoMercado, type PedidoDoMercado } from '../../web/mercados/fluxo-mercado.ts';
import { dataBr, dataHoraBr, deMilesimos, paraMilesimos, quantidadeComUnidade } from '../../web/mercados/formatos.ts';

test('o cliente mostra datas, quantidades e reais como se leem em pt-BR', () => {
  assert.equal(dataBr('2026-11-27'), '27/11/2026');
  assert.deepEqual(['1.500', '2.000', '0.250', '12', 'x', '1.2345'].map(paraMilesimos), [
    1500,
    2000,
    250,
    12000,
    null,
    null,
  ]);
  assert.equal(dataHoraBr('2026-11-27T14:05:09'), '27/11/2026 14:05');
  assert.deepEqual(['1,5', ' 2,25 '].map(paraMilesimos), [1500, 2250]);
  assert.deepEqual(
    [
      [1000, 'cesta'],
      [3000, 'cesta'],
      [1500, 'kg'],
      [1000, 'maço'],
    ].map(([q, u]) => quantidadeComUnidade(deMilesimos(Number(q)), String(u))),
    ['1 cesta', '3 cestas', '1,5 kg', '1 maço'],
  );
  assert.deepEqual([0, 5, 750, 15750, 123456, 120000, 123456789].map(reaisDeCentavos), [
    'R$ 0,00',
    'R$ 0,05',
    'R$ 7,50',
    'R$ 157,50',
    'R$ 1.234,56',
    'R$ 1.200,00',
    'R$ 1.234.567,89',
  ]);
  assert.equal(reais('-1200.50'), 'R$ -1.200,50');
  assert.deepEqual(etiquetasDoCiclo({ fase: 'oferta', janelasAbertas: ['oferta', 'pedido'] }), [
    'Ofertas abertas',
    'Pedidos abertos',
  ]);
  assert.deepEqual(etiquetasDoCiclo({ fase: 'pedido', janelasAbertas: ['pedido'] }), ['Pedidos abertos']);
});

test('os totais do mercado somam em centavos e milésimos, por cesta ou item', () => {
  const pedido = (
    id: string,
    finalizado: boolean,
    linhas: Array<[string | null, string | null, string, string, string]>,
    total: string,
    taxa: string,
    totalComTaxa: string,
  ): PedidoDoMercado => ({
    id,
    cursor: id,
    consumidor: `Pessoa ${id}`,
    pontoEntrega: { nome: 'Sede' },
    finalizado,
    dataConfirmacao: null,
    total,
    taxa,
    totalComTaxa,
    produtos: linhas.map(([cicloCestaId, cicloProdutoId, nome, quantidade, subtotal], i) => ({
      id: `${id}-${i}`,
      tipo: cicloCestaId === null ? 'extra' : 'cesta',
      cicloCestaId,
      cicloProdutoId,
      nome,
      unidade: cicloCestaId === null ? 'kg' : 'cesta',
      quantidade,
      valor: '0.00',
      subtotal,
    })),
  });
  const t = totaisDoMercado([
    pedido(
      '1',
      true,
      [
        ['7', null, 'Cesta', '2.000', '100.00'],
        [null, '9', 'Tomate', '0.100', '0.60'],
      ],
      '100.60',
      '5.03',
      '105.63',
    ),
    pedido(
      '2',
      false,
      [
        ['7', null, 'Cesta', '1.000', '50.00'],
        [null, '9', 'Tomate', '0.200', '1.20'],
      ],
      '51.20',
      '2.56',
      '53.76',
    ),
  ]);
  assert.deepEqual(
    [t.pedidos, t.confirmados, t.subtotalCentavos, t.taxaCentavos, t.totalCentavos],
    [2, 1, 15180, 759, 15939],
  );
  assert.deepEqual(
    t.produtos.map((p) => [p.nome, p.quantidadeMilesimos, p.subtotalCentavos]),
    [
      ['Cesta', 3000, 15000],
      ['Tomate', 300, 180],
    ],
  );
  assert.deepEqual(totaisDoMercado([]), {
    pedidos: 0,
    confirmados: 0,
    subtotalCentavos: 0,
    taxaCentavos: 0,
    totalCentavos: 0,
    produtos: [],
  });
});

test('o cliente lê dinheiro como as pessoas digitam, com o mesmo leitor da face Cestas', () => {
  assert.deepEqual(
    ['R$ 24,00', 'R$ 5,50', 'r$5,5', '24', '5,5', '12.50', '1.234,56', 'R$ 1.200', ' 7 , 25 ', '1\u00a0234,00'].map(
      paraCentavos,
    ),
    [2400, 550, 550, 2400, 550, 1250, 123456, 120000, 725, 123400],
  );
  assert.deepEqual(['4,305', '-3', 'abc', '', '1,2,3', '12.5.0'].map(paraCentavos), [
    null,
    null,
    null,
    null,
    null,
    null,
  ]);
  assert.equal(erroDoValor('R$ 24,00'), null);
  assert.equal(erroDoValor('4,305'), 'Use no máximo 2 casas depois da vírgula (os centavos), como 4,30');
  assert.equal(erroDoValor('-3'), 'O valor não pode ser negativo');
  assert.equal(erroDoValor('abc'), 'Escreva o valor como 24, 5,50, R$ 24,00 ou 1.234,56');
  assert.equal(erroDoValor('99999999999'), 'O valor é grande demais');
});
