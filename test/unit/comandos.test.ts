import assert from 'node:assert/strict';
import { test } from 'node:test';
import { comandoDoCorpo, lerComando } from '../../src/comandos/comando.ts';
import { Hora, Marcado, Milesimos, Objeto, Texto } from '../../src/comandos/leitor/blocos.ts';
import { DIGITADO, UNIDADE_ESCRITA, digitadoPorPessoas } from '../../src/comandos/leitor/comum.ts';
import { Recusas, compilar, nomesDoCorpo, nomesDoGraphql } from '../../src/comandos/leitor/leitura.ts';
import { SalvarOferta } from '../../src/comandos/oferta.ts';
import { FazerPedido } from '../../src/comandos/pedido.ts';
import { Invalido } from '../../src/domain/erros.ts';

/** The commands (src/comandos): one schema, read by both faces, each naming fields its own way. */

const livre = (): void => undefined;

function detalhes(f: () => unknown): Record<string, unknown> {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof Invalido, `esperava Invalido, veio ${String(e)}`);
    return { ...(e.detalhes ?? {}) };
  }
  assert.fail('esperava uma recusa');
}

test('o mesmo pedido recusado: a Cestas nomeia pelo corpo, o GraphQL pelo caminho do argumento', () => {
  const dados = {
    cicloid: 'x',
    pontoEntregaId: 1,
    produtos: [
      { cicloCestaId: 1, quantidade: 1 },
      { cicloProdutoId: 2, quantidade: '1.5' },
      { cicloCestaId: 3, quantidade: '1.5' },
    ],
  };
  assert.deepEqual(
    detalhes(() => FazerPedido.ler(dados, nomesDoCorpo)),
    { cicloid: 'Deve ser um número inteiro', 'produtos.2.quantidade': 'Deve ser um número inteiro' },
  );
  assert.deepEqual(
    detalhes(() => FazerPedido.ler(dados, nomesDoGraphql({ cicloid: 'cicloId' }))),
    { cicloId: 'Deve ser um número inteiro', 'input.produtos[2].quantidade': 'Deve ser um número inteiro' },
  );
  // A row's `campo` is the face's name too, so the domain's refusals of a row need no renaming.
  const lido = FazerPedido.ler(
    {
      cicloid: 4,
      pontoEntregaId: '2',
      produtos: [
        { cicloCestaId: '9', quantidade: 0 },
        { cicloProdutoId: 5, quantidade: '1.25' },
      ],
    },
    nomesDoGraphql({ cicloid: 'cicloId' }),
  );
  assert.deepEqual(lido, {
    usuarioid: null,
    cicloid: 4,
    pontoEntregaId: 2,
    linhas: [
      {
        cicloCestaId: null,
        cicloProdutoId: 5,
        quantidadeMilesimos: 1250,
        unidadeEscrita: null,
        campo: 'input.produtos[1]',
      },
    ],
  });
});

test('a leitura não muda o corpo recebido (a página recusada volta com o que a pessoa digitou)', () => {
  const corpo = digitadoPorPessoas({
    cicloid: '3',
    produtos: { 0: { produtoid: '11', quantidade: '2,5 kg', valor: 'R$ 1.234,56' } },
  });
  const antes = JSON.stringify(corpo);
  const oferta = lerComando(SalvarOferta, corpo, nomesDoCorpo, livre);
  assert.deepEqual(oferta.linhas, [
    { produtoid: 11, quantidadeMilesimos: 2500, unidadeEscrita: 'kg', valorCentavos: 123456, campo: 'produtos.0' },
  ]);
  assert.equal(JSON.stringify(corpo), antes);
  // JSON keeps the API's dot-decimals: the comma is refused with the way to write it.
  assert.deepEqual(
    detalhes(() =>
      SalvarOferta.ler({ cicloid: 3, produtos: [{ produtoid: 11, quantidade: '2,5', valor: 1 }] }, nomesDoCorpo),
    ),
    { 'produtos.0.quantidade': 'Use ponto como separador decimal (ex.: 12.50)' },
  );
});

test('a posse vem antes de tudo, também pelo GraphQL; um esquema de comando copiado não vale como corpo', () => {
  const vistos: Array<number | null> = [];
  assert.throws(
    () =>
      lerComando(FazerPedido, { usuarioid: '77', cicloid: 'x' }, nomesDoGraphql(), (u) => {
        vistos.push(u);
        if (u !== null) throw new Error('de outra pessoa');
      }),
    /de outra pessoa/,
  );
  assert.deepEqual(vistos, [77]);
  assert.equal(comandoDoCorpo(FazerPedido.corpo), FazerPedido);
  assert.throws(() => comandoDoCorpo({ ...FazerPedido.corpo }), /copiado/);
});

/** One field read by a builder, as a command reads it: its value, or its refusal. */
function campo(esquema: ReturnType<typeof Objeto>, v: unknown, digitado = false) {
  const dados: Record<string | symbol, unknown> = v === undefined ? {} : { v };
  if (digitado) dados[DIGITADO] = true;
  const recusas = new Recusas();
  const lido = compilar<Record<string | symbol, unknown>>(esquema).validar(dados, recusas);
  if (!recusas.vazia) return { erro: detalhes(() => recusas.recusar(nomesDoCorpo)).v ?? null };
  return { valor: lido.v ?? null, unidade: lido[UNIDADE_ESCRITA] ?? null };
}

test('horário: HH:MM, e também 8:30, 8h, 8h30 e 08h30min; fora de 00:00–23:59 ou sem forma de hora é recusado', () => {
  const hora = Objeto({ v: Hora('Das') });
  for (const [entrada, saida] of [
    ['08:30', '08:30'],
    ['8:30', '08:30'],
    ['8h', '08:00'],
    ['8H30', '08:30'],
    ['08h30min', '08:30'],
    ['0', '00:00'],
    ['23:59', '23:59'],
    [' 7 h ', '07:00'],
  ] as const) {
    assert.equal(campo(hora, entrada).valor, saida, entrada);
  }
  for (const entrada of ['24:00', '23:60', '8:5', 'meio-dia', '8:30:00', '-1', '123']) {
    assert.deepEqual(campo(hora, entrada), { erro: 'Horário inválido: use HH:MM, por exemplo 08:30' }, entrada);
  }
  assert.equal(campo(hora, 830).erro, 'Deve ser um texto');
  for (const vazio of ['', '  ', null, undefined]) assert.equal(campo(hora, vazio).valor, null, String(vazio));
});

test('texto: aparado, com limite e sem caracteres de controle; obrigatório em branco é recusado', () => {
  const nome = Objeto({ v: Texto('Nome', { obrigatorio: true, max: 5 }) }, ['v']);
  assert.equal(campo(nome, '  Ana  ').valor, 'Ana');
  assert.equal(campo(nome, 'Anabela').erro, 'Deve ter no máximo 5 caracteres');
  assert.equal(campo(nome, 'A\u0000').erro, 'Contém caracteres de controle');
  assert.equal(campo(nome, 5).erro, 'Deve ser um texto');
  for (const vazio of ['', '   ', null, undefined]) assert.equal(campo(nome, vazio).erro, 'Campo obrigatório');
});

test('caixa de formulário: o último valor diz; em branco é não dito (null); outro valor é recusado', () => {
  const ativo = Objeto({ v: Marcado('Ativo') });
  for (const sim of [true, 'true', 'on', '1', 1, ['false', 'on']]) assert.equal(campo(ativo, sim).valor, true);
  for (const nao of [false, 'false', 'off', '0', 0, ['false']]) assert.equal(campo(ativo, nao).valor, false);
  for (const vazio of ['', null, undefined]) assert.equal(campo(ativo, vazio).valor, null);
  for (const ruim of ['sim', 2, {}, ['on', 'talvez']])
    assert.equal(campo(ativo, ruim).erro, 'Deve ser verdadeiro ou falso', JSON.stringify(ruim));
});

/** A typed quantity that people may follow with its unit, as a lot's or a release's line reads it. */
const quantidade = (v: unknown, digitado = true) =>
  campo(Objeto({ v: Milesimos('Quantidade', { obrigatorio: true, min: 1, unidade: true }) }, ['v']), v, digitado);

test('quantidade digitada com a unidade depois: o número e a unidade que a palavra nomeia, sem caixa nem acento', () => {
  const casos: Array<[string, number, string | null]> = [
    ['2,5 kg', 2500, 'kg'],
    ['2,5kg', 2500, 'kg'],
    ['1.234,5 Kg.', 1_234_500, 'kg'],
    [' 3 quilos ', 3000, 'kg'],
    ['3 maços', 3000, 'maço'],
    ['3 MACOS', 3000, 'maço'],
    ['1 dz', 1000, 'dúzia'],
    ['2 dúzias', 2000, 'dúzia'],
    ['0,75 l', 750, 'litro'],
    ['12 un', 12_000, 'unidade'],
    ['1,5', 1500, null],
    ['2', 2000, null],
  ];
  for (const [texto, milesimos, unidade] of casos)
    assert.deepEqual(quantidade(texto), { valor: milesimos, unidade }, texto);
});

test('quantidade digitada: uma palavra que não é unidade é recusada; só letras pedem um número; o JSON não tem unidade', () => {
  assert.equal(quantidade('500 g').erro, 'Escreva só o número, na unidade do produto (ex.: 2,5), sem "g"');
  assert.equal(quantidade('2,5 caixas').erro, 'Escreva só o número, na unidade do produto (ex.: 2,5), sem "caixas"');
  assert.equal(quantidade('kg').erro, 'Digite um número, como 1,5 ou 1.234,56');
  assert.equal(
    quantidade('1.500 kg').erro,
    'É ambíguo: escreva 1,500 para o número com decimais, ou 1500 para o milhar',
  );
  assert.equal(quantidade('0 kg').erro, 'Deve ser maior que zero');
  assert.equal(quantidade('').erro, 'Campo obrigatório');
  assert.equal(quantidade('2,5 kg', false).erro, 'Deve ser um número com ponto decimal (ex.: 12.50)');
  assert.deepEqual(quantidade(2.5, false), { valor: 2500, unidade: null });
});

test('uma quantidade longa termina em tempo linear, com ou sem palavra', () => {
  assert.equal(quantidade(`${'1 '.repeat(200_000)}kg`).erro, 'Valor grande demais');
  assert.match(String(quantidade(`1${'a'.repeat(200_000)}`).erro), /Escreva só o número/);
});
