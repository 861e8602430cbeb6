/**
 * The pickup app's own rules, without a browser (web/retirada/estado.ts and pix.ts, the same code
 * the phone runs): the search without accents, the receipt's QR matched against the snapshot, a
 * basket's contents expanded with the shorts recorded against each item, what is owed once this
 * device recorded payments the server has not counted yet, each action once whatever its copies,
 * and the Pix of the amount due, rewritten on the device and read back by pix-utils.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { hasError, parsePix } from 'pix-utils';
import { brCode } from '../../src/domain/pix.ts';
import {
  casaComBusca,
  linhasDoPedido,
  pedidoDoQr,
  registrosPorPedido,
  semAcentos,
  situacaoDoPedido,
} from '../../web/retirada/estado.ts';
import { crc16, pixComValor } from '../../web/retirada/pix.ts';
import type { AcaoLocal, PedidoNaRetirada, RetiradaDoPonto } from '../../web/retirada/tipos.ts';

const PEDIDO: PedidoNaRetirada = {
  id: '5',
  pessoa: 'Fabiana Conceição',
  telefone: null,
  assinatura: false,
  itens: [
    {
      pedidoProdutoId: '8',
      tipo: 'cesta',
      nome: 'Cesta Média',
      unidade: 'cesta',
      quantidade: '2.000',
      cicloCestaId: '3',
    },
    { pedidoProdutoId: '9', tipo: 'extra', nome: 'Mel', unidade: 'kg', quantidade: '1.500', cicloCestaId: null },
  ],
  total: '108.00',
  devido: '74.00',
  pago: '10.00',
  pix: null,
  token: '5.AAAAAAAAAAAAAAAAAAAAAA',
};

const acao = (chave: string, tipo: 'retirada' | 'falta' | 'pagamento' | 'nota', feitoEm: string, extra = {}) => ({
  chave,
  tipo,
  pedidoId: '5',
  pedidoProdutoId: null,
  produtoId: null,
  quantidade: null,
  substituto: null,
  valor: null,
  forma: null,
  texto: null,
  feitoEm,
  dispositivo: 'outro-celular',
  quem: 'Bia',
  ...extra,
});

const DADOS: RetiradaDoPonto = {
  cicloId: '2',
  cicloNome: 'Ciclo',
  pontoId: '1',
  pontoNome: 'Sede',
  endereco: null,
  dataRetirada: null,
  horaInicio: null,
  horaFim: null,
  geradoEm: '2026-12-02T12:00:00.000Z',
  pedidos: [PEDIDO],
  cestas: [
    {
      cicloCestaId: '3',
      nome: 'Cesta Média',
      itens: [
        { produtoId: '1', nome: 'Alface', unidade: 'maço', quantidadePorCesta: '1.000' },
        { produtoId: '2', nome: 'Tomate', unidade: 'kg', quantidadePorCesta: '1.500' },
        // The same product twice in a composition counts once, by its first row (as the server reads it).
        { produtoId: '2', nome: 'Tomate', unidade: 'kg', quantidadePorCesta: '9.000' },
      ],
    },
  ],
  acoes: [
    acao('s-ret', 'retirada', '2026-12-02T12:05:00.000Z'),
    acao('s-pag', 'pagamento', '2026-12-02T12:06:00.000Z', { valor: '10.00', forma: 'dinheiro' }),
    acao('s-fal', 'falta', '2026-12-02T12:07:00.000Z', { pedidoProdutoId: '8', produtoId: '2', quantidade: '0.500' }),
  ],
};

const local = (chave: string, a: Partial<AcaoLocal['acao']>, ordem: number): AcaoLocal => ({
  ponto: '2/1',
  quem: 'Ana',
  conta: 1,
  ordem,
  acao: { chave, tipo: 'nota', pedidoId: '5', feitoEm: '2026-12-02T12:10:00.000Z', ...a },
});

describe('as regras do aplicativo da retirada', () => {
  test('a busca ignora acentos e maiúsculas, casa cada palavra e o número do pedido', () => {
    assert.equal(semAcentos('Conceição ÁGUA'), 'conceicao agua');
    for (const busca of ['conceicao', 'CONCEIÇÃO', 'fabi conc', '  fabiana  ', '', '#5', '5'])
      assert.ok(casaComBusca(PEDIDO, busca), busca);
    for (const busca of ['maria', 'fabiana silva', '#50']) assert.ok(!casaComBusca(PEDIDO, busca), busca);
  });

  test('o QR do recibo abre o pedido do token, em qualquer endereço; outro token ou texto, nenhum', () => {
    const t = PEDIDO.token;
    for (const texto of [
      `https://cestas.exemplo.org/retirada/pedido/${t}`,
      `http://localhost:3000/retirada/pedido/${encodeURIComponent(t)}?de=email`,
      ` ${t} `,
    ])
      assert.equal(pedidoDoQr(texto, [PEDIDO])?.id, '5', texto);
    for (const texto of ['https://x/retirada/pedido/6.AAAAAAAAAAAAAAAAAAAAAA', 'olá', 'https://x/retirada/pedido/%E0'])
      assert.equal(pedidoDoQr(texto, [PEDIDO]), null, texto);
  });

  test('a cesta se abre no que leva, por cesta × cestas, com as faltas de cada item somadas', () => {
    const registros = registrosPorPedido(DADOS, {
      fila: [local('l-fal', { tipo: 'falta', pedidoProdutoId: '9', quantidade: '1.000' }, 1)],
      enviadas: [],
      recusadas: [],
    }).get('5');
    const s = situacaoDoPedido(PEDIDO, registros);
    const linhas = linhasDoPedido(PEDIDO, DADOS, s.faltas);
    assert.deepEqual(
      linhas.map((l) => [l.tipo, l.nome, l.itens.map((i) => [i.nome, i.quantidadeMilesimos, i.faltouMilesimos])]),
      [
        [
          'cesta',
          'Cesta Média',
          [
            ['Alface', 2000, 0],
            ['Tomate', 3000, 500],
          ],
        ],
        ['extra', 'Mel', [['Mel', 1500, 1000]]],
      ],
    );
  });

  test('o que falta pagar desconta só os pagamentos que o servidor ainda não contou', () => {
    const locais = {
      fila: [local('l-pag', { tipo: 'pagamento', valor: '24.50', forma: 'dinheiro' }, 2)],
      enviadas: [local('e-pag', { tipo: 'pagamento', valor: '5.00', forma: 'pix' }, 1)],
      recusadas: [],
    };
    const s = situacaoDoPedido(PEDIDO, registrosPorPedido(DADOS, locais).get('5'));
    // The snapshot's devido (74,00) and pago (10,00) already count its own payment of 10,00.
    assert.equal(s.pagoCentavos, 1000 + 500 + 2450);
    assert.equal(s.devidoCentavos, 7400 - 500 - 2450);
    assert.equal(s.naFila, 1);
    // Never below zero.
    const muito = { ...locais, fila: [local('l-pag', { tipo: 'pagamento', valor: '500.00', forma: 'dinheiro' }, 2)] };
    assert.equal(situacaoDoPedido(PEDIDO, registrosPorPedido(DADOS, muito).get('5')).devidoCentavos, 0);
  });

  test('cada ação uma vez, a cópia do servidor primeiro; a retirada mostrada é a mais antiga (depois pela chave)', () => {
    const registros =
      registrosPorPedido(DADOS, {
        // The device still holds the server's pickup (a sync whose answer it never saw) and a second pickup.
        fila: [
          local('s-ret', { tipo: 'retirada', feitoEm: '2026-12-02T12:05:00.000Z' }, 1),
          local('a-ret', { tipo: 'retirada', feitoEm: '2026-12-02T12:05:00.000Z' }, 2),
        ],
        enviadas: [],
        recusadas: [],
      }).get('5') ?? [];
    assert.deepEqual(
      registros.map((r) => [r.chave, r.origem]),
      [
        ['a-ret', 'fila'],
        ['s-ret', 'servidor'],
        ['s-pag', 'servidor'],
        ['s-fal', 'servidor'],
      ],
    );
    const s = situacaoDoPedido(PEDIDO, registros);
    assert.equal(s.retiradas, 2);
    assert.equal(s.retirada?.chave, 'a-ret', 'mesmo instante: a menor chave');
  });

  test('o Pix do que falta pagar: o mesmo BR Code com o novo valor e um CRC válido', () => {
    const recebedor = {
      chave: 'financeiro@cestas.org',
      tipo: 'email',
      nome: 'Associação Raízes',
      cidade: 'São Carlos',
    } as const;
    const original = brCode(recebedor, 34950, 'CESTARIA7C2');
    const novo = pixComValor(original, 2450);
    assert.ok(novo !== null);
    assert.equal(novo.slice(-4), crc16(novo.slice(0, -4)));
    const lido = parsePix(novo);
    const antes = parsePix(original);
    assert.ok(!hasError(lido) && !hasError(antes), novo);
    assert.equal(Math.round(Number((lido as { transactionAmount: number }).transactionAmount) * 100), 2450);
    for (const campo of ['pixKey', 'merchantName', 'merchantCity', 'txid'] as const)
      assert.equal(
        (lido as unknown as Record<string, unknown>)[campo],
        (antes as unknown as Record<string, unknown>)[campo],
        campo,
      );
    // The same amount gives back the same text.
    assert.equal(pixComValor(original, 34950), original);
    // Nothing owed, or a text that is not a BR Code with its CRC: no Pix rather than a wrong one.
    assert.equal(pixComValor(original, 0), null);
    assert.equal(pixComValor(`${original.slice(0, -4)}0000`, 2450), null);
    assert.equal(pixComValor('não é um pix', 2450), null);
  });
});
