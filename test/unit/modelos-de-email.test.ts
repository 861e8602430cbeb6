import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pedido } from '../../src/domain/pedidos/modelo.ts';
import { recibo, reciboDaAssinatura } from '../../src/mensagens/modelos.ts';

const CICLO = {
  id: 7,
  nome: 'Ciclo 7',
  dataOfertaFim: '2026-03-04',
  dataPedidoInicio: '2026-03-06',
  dataPedidoFim: '2026-03-09',
  dataRetiradaInicio: '2026-03-11',
  dataRetiradaFim: '2026-03-12',
};
const RETIRADA = {
  nome: 'Sede',
  endereco: 'Rua A, 1',
  cidade: 'Botucatu',
  quando: 'quarta-feira, 11/03/2026, das 08:00 às 12:00',
};

function pedido(
  partes: Pedido['partes'],
  linhas: Array<{ nome: string; mercadoId: number | null; mercado: string | null; subtotal: number }>,
): Pedido {
  const total = linhas.reduce((s, l) => s + l.subtotal, 0);
  const taxa = partes.reduce((s, x) => s + x.taxaCentavos, 0);
  return {
    pedidoId: 3,
    cicloid: 7,
    usuarioid: 1,
    usuario: { id: 1, nome: 'Ana' },
    pontoEntrega: { id: 1, nome: 'Sede', dataRetirada: null, horaInicio: null, horaFim: null },
    pontoEntregaId: 1,
    finalizado: true,
    dataConfirmacao: '2026-03-07T12:00:00',
    produtos: linhas.map((l, i) => ({
      id: i + 1,
      tipo: 'cesta',
      cicloCestaId: i + 1,
      cicloProdutoId: null,
      nome: l.nome,
      unidade: 'cesta',
      quantidadeMilesimos: 1000,
      valorCentavos: l.subtotal,
      subtotalCentavos: l.subtotal,
      mercadoId: l.mercadoId,
      mercado: l.mercado,
      taxaCentesimos: null,
      assinaturaId: null,
    })),
    totalCentavos: total,
    taxaCentavos: taxa,
    totalComTaxaCentavos: total + taxa,
    partes,
  };
}

test('o recibo de um pedido em dois mercados diz o mercado de cada item e a taxa de cada mercado', () => {
  const p = pedido(
    [
      { mercadoId: 1, mercado: 'Cestas', subtotalCentavos: 5000, taxaCentavos: 250, taxaCentesimos: 500 },
      { mercadoId: 2, mercado: 'Feira', subtotalCentavos: 1200, taxaCentavos: 120, taxaCentesimos: 1000 },
    ],
    [
      { nome: 'Cesta', mercadoId: 1, mercado: 'Cestas', subtotal: 5000 },
      { nome: 'Tomate', mercadoId: 2, mercado: 'Feira', subtotal: 1200 },
    ],
  );
  const { texto } = recibo('Ana', CICLO, p, RETIRADA, 'http://x');
  assert.ok(
    texto.includes(
      '- Cesta (Cestas) · 1 × R$ 50,00 · R$ 50,00\n- Tomate (Feira) · 1 × R$ 12,00 · R$ 12,00\n- Total dos itens · R$ 62,00\n- Taxa de Cestas · R$ 2,50\n- Taxa de Feira · R$ 1,20\n- A pagar · R$ 65,70',
    ),
    texto,
  );
});

test('num ciclo sem mercados, o recibo tem uma linha de taxa, como sempre', () => {
  const p = pedido(
    [{ mercadoId: null, mercado: null, subtotalCentavos: 5000, taxaCentavos: 0, taxaCentesimos: null }],
    [{ nome: 'Cesta', mercadoId: null, mercado: null, subtotal: 5000 }],
  );
  const { texto } = recibo('Ana', CICLO, p, RETIRADA, 'http://x');
  assert.ok(
    texto.includes(
      '- Cesta · 1 × R$ 50,00 · R$ 50,00\n- Total dos itens · R$ 50,00\n- Taxa administrativa · R$ 0,00\n- A pagar · R$ 50,00',
    ),
    texto,
  );
});

test('o recibo da assinatura diz como o ciclo é pago: pelo crédito (e o que resta), por parte dele, ou o que falta', () => {
  const p = pedido(
    [{ mercadoId: null, mercado: null, subtotalCentavos: 5000, taxaCentavos: 100, taxaCentesimos: null }],
    [{ nome: 'Cesta', mercadoId: null, mercado: null, subtotal: 5000 }],
  );
  const pix = { linhas: [['Pedido', 'R$ 51,00']] as const, total: 'R$ 51,00', copiaECola: '000201XYZ', txid: 'CST1C7' };
  const casos: ReadonlyArray<readonly [Parameters<typeof reciboDaAssinatura>[5], string]> = [
    [
      { coberto: true, restanteCentavos: 4900 },
      'Pagamento: seu crédito pago adiantado cobre este pedido (R$ 51,00). Depois dele, restam R$ 49,00 de crédito.',
    ],
    [
      { coberto: true, restanteCentavos: 0 },
      'Pagamento: seu crédito pago adiantado cobre este pedido (R$ 51,00) e termina com ele; não resta crédito para os próximos ciclos.',
    ],
    [{ coberto: false, devidoCentavos: 5100, pix }, 'Pagamento: falta pagar R$ 51,00, por Pix, como abaixo.'],
    [
      { coberto: false, devidoCentavos: 1100, pix },
      'Pagamento: seu crédito cobre parte deste pedido (R$ 51,00); falta pagar R$ 11,00, por Pix, como abaixo.',
    ],
    [
      { coberto: false, devidoCentavos: 7100, pix: null },
      'Pagamento: falta pagar R$ 71,00, este pedido (R$ 51,00) e o que já estava em aberto. O detalhe está em Meu saldo: http://x/saldo.',
    ],
  ];
  for (const [pago, frase] of casos) {
    const { texto } = reciboDaAssinatura('Ana Souza', CICLO, p, RETIRADA, 'http://x', pago);
    assert.ok(texto.includes(`\n${frase}\n`), texto);
    assert.ok(texto.includes('- Total do pedido · R$ 51,00'), texto);
    assert.equal(texto.includes('Pix copia e cola'), !pago.coberto && pago.pix !== null, texto);
  }
});
