import assert from 'node:assert/strict';
import { test } from 'node:test';
import { comandoDoCorpo, lerComando } from '../../src/comandos/comando.ts';
import { digitadoPorPessoas, nomesDoCorpo, nomesDoGraphql } from '../../src/comandos/leitor.ts';
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
