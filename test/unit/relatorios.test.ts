import assert from 'node:assert/strict';
import { test } from 'node:test';
import Fastify from 'fastify';
import { Invalido } from '../../src/domain/erros.ts';
import { EscolherCiclos } from '../../src/comandos/relatorios.ts';
import { nomesDoCorpo } from '../../src/comandos/leitor/leitura.ts';
import { relatorioParaCsv } from '../../src/planilhas/csv.ts';
import { cicloAtual } from '../../src/domain/relatorios/ciclos.ts';
import { montarRelatorio } from '../../src/domain/relatorios/modelo.ts';
import { MAIOR_ID } from '../../src/http/campos.ts';
import { relatorioEmJson } from '../../src/cestas/apresentadores/relatorios.ts';
import { RelatorioJson } from '../../src/cestas/esquemas/painel-e-relatorios.ts';

const lerCiclos = (corpo: Record<string, unknown>) => EscolherCiclos.ler(corpo, nomesDoCorpo).ciclos;

test('a escolha de ciclos aceita de 1 a 20 ids, em lista, texto ou número', () => {
  assert.deepEqual(lerCiclos({ ciclos: [3, 1, 3] }), [3, 1]);
  assert.deepEqual(lerCiclos({ ciclos: '4,5' }), [4, 5]);
  assert.deepEqual(lerCiclos({ ciclos: MAIOR_ID }), [MAIOR_ID]);
  // A form's repeated field, its bracketed rows, and one cycle as `cicloid` (the choice when `ciclos` is absent).
  assert.deepEqual(lerCiclos({ ciclos: ['2', '7'] }), [2, 7]);
  assert.deepEqual(lerCiclos({ ciclos: { 0: '9', 1: '8' } }), [9, 8]);
  assert.deepEqual(lerCiclos({ cicloid: '6' }), [6]);
  assert.deepEqual(lerCiclos({ ciclos: [20], cicloid: 6 }), [20]);
  assert.deepEqual(EscolherCiclos.ler({ ciclos: '1', mercadoId: '3' }, nomesDoCorpo).mercadoId, 3);
  assert.deepEqual(EscolherCiclos.ler({ ciclos: '1' }, nomesDoCorpo).mercadoId, null);
});

test('ids fora do que uma coluna inteira guarda são recusados como entrada inválida, não chegam ao banco', () => {
  // 9007199254740991 is a safe JavaScript integer, but PostgreSQL's integer column would fail on it (a 500).
  for (const ciclos of [
    MAIOR_ID + 1,
    9007199254740991,
    [1, 2 ** 40],
    0,
    -1,
    1.5,
    [],
    Array.from({ length: 21 }, (_, i) => i + 1),
  ]) {
    assert.throws(
      () => lerCiclos({ ciclos }),
      (e: unknown) =>
        e instanceof Invalido && JSON.stringify(e.detalhes) === '{"ciclos":"Escolha de 1 a 20 ciclos válidos"}',
      JSON.stringify(ciclos),
    );
  }
});

test('o ciclo atual: o último que já começou; sem nenhum começado, o próximo a começar; sem ciclos, nenhum', () => {
  // ciclosParaEscolher lists cycles newest first (by the start of the offer window).
  assert.equal(
    cicloAtual([
      { id: 9, fase: 'planejado' },
      { id: 8, fase: 'pedido' },
      { id: 7, fase: 'encerrado' },
    ]),
    8,
  );
  assert.equal(
    cicloAtual([
      { id: 5, fase: 'encerrado' },
      { id: 4, fase: 'encerrado' },
    ]),
    5,
  );
  assert.equal(
    cicloAtual([
      { id: 3, fase: 'planejado' },
      { id: 2, fase: 'planejado' },
    ]),
    2,
  );
  assert.equal(cicloAtual([]), null);
});

test('o CSV de qualquer relatório do modelo: texto que seria fórmula ganha apóstrofo, um valor negativo continua número', async () => {
  const r = montarRelatorio(
    'Movimentações',
    '',
    [
      { chave: 'pessoa', titulo: 'Pessoa', tipo: 'texto' },
      { chave: 'data', titulo: 'Data', tipo: 'data' },
      { chave: 'saldo', titulo: 'Saldo', tipo: 'dinheiro' },
      { chave: 'usuarioid', titulo: 'usuarioid', tipo: 'inteiro', somenteDados: true },
    ],
    [
      { pessoa: '-Ana', data: '2026-03-12', saldo: -1230, usuarioid: 7 },
      { pessoa: '=HYPERLINK("x")', data: '2026-03-13', saldo: 50, usuarioid: 8 },
    ],
    'pessoa',
  );
  let texto = '';
  for await (const pedaco of relatorioParaCsv(r)) texto += String(pedaco);
  assert.equal(texto, 'Pessoa,Data,Saldo (R$)\n\'-Ana,2026-03-12,-12.30\n"\'=HYPERLINK(""x"")",2026-03-13,0.50\n');
});

test('o JSON de um relatório, escrito de uma vez, é byte a byte o que o esquema da resposta escreveria', async () => {
  const r = montarRelatorio(
    'Pedidos "dos" consumidores',
    'Ciclo 1\\2',
    [
      { chave: 'consumidor', titulo: 'Consumidor', tipo: 'texto', tituloPlanilha: 'Quem pediu' },
      { chave: 'data', titulo: 'Data', tipo: 'data' },
      { chave: 'quantidade', titulo: 'Quantidade', tipo: 'quantidade' },
      { chave: 'valor', titulo: 'Valor', tipo: 'dinheiro', soma: true },
      { chave: 'itens', titulo: 'Itens', tipo: 'inteiro', soma: true },
      { chave: 'usuarioid', titulo: 'usuarioid', tipo: 'inteiro', somenteDados: true },
    ],
    [
      { consumidor: 'Ana "Horta"', data: '2026-03-12', quantidade: 1_250_500, valor: 123_456, itens: 2, usuarioid: 7 },
      { consumidor: 'Ana "Horta"', data: null, quantidade: null, valor: -5, itens: 1 },
      { consumidor: 'Bruno\nSítio \u2028 ☕', data: '2026-03-13', quantidade: 0, valor: 0, itens: 0, usuarioid: 8 },
    ],
    'consumidor',
  );
  const texto = relatorioEmJson(r);
  // The values at their columns' scales, every column in each row (null where the row has none).
  assert.deepEqual(JSON.parse(texto), {
    titulo: 'Pedidos "dos" consumidores',
    subtitulo: 'Ciclo 1\\2',
    colunas: [
      { chave: 'consumidor', titulo: 'Consumidor', tipo: 'texto' },
      { chave: 'data', titulo: 'Data', tipo: 'data' },
      { chave: 'quantidade', titulo: 'Quantidade', tipo: 'quantidade' },
      { chave: 'valor', titulo: 'Valor', tipo: 'dinheiro' },
      { chave: 'itens', titulo: 'Itens', tipo: 'inteiro' },
      { chave: 'usuarioid', titulo: 'usuarioid', tipo: 'inteiro' },
    ],
    grupos: [
      {
        titulo: 'Ana "Horta"',
        linhas: [
          { consumidor: 'Ana "Horta"', data: '2026-03-12', quantidade: 1250.5, valor: 1234.56, itens: 2, usuarioid: 7 },
          { consumidor: 'Ana "Horta"', data: null, quantidade: null, valor: -0.05, itens: 1, usuarioid: null },
        ],
        subtotais: { valor: 1234.51, itens: 3 },
      },
      {
        titulo: 'Bruno\nSítio \u2028 ☕',
        linhas: [
          { consumidor: 'Bruno\nSítio \u2028 ☕', data: '2026-03-13', quantidade: 0, valor: 0, itens: 0, usuarioid: 8 },
        ],
        subtotais: { valor: 0, itens: 0 },
      },
    ],
    totais: { valor: 1234.51, itens: 3 },
  });
  // The same bytes the route's response schema writes of that object: the route can skip it.
  const app = Fastify();
  app.get('/r', { schema: { response: { 200: RelatorioJson } } }, () => JSON.parse(texto) as unknown);
  const resposta = await app.inject({ method: 'GET', url: '/r' });
  await app.close();
  assert.equal(resposta.statusCode, 200);
  assert.equal(resposta.body, texto);
});
