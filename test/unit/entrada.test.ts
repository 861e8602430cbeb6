import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SalvarCiclo } from '../../src/comandos/ciclo.ts';
import { lerComando } from '../../src/comandos/comando.ts';
import { ComporCesta, cestaNomeada, naCesta } from '../../src/comandos/composicao.ts';
import { RegistrarMovimentacao } from '../../src/comandos/financeiro.ts';
import { digitadoPorPessoas } from '../../src/comandos/leitor/comum.ts';
import { nomesDoCorpo } from '../../src/comandos/leitor/leitura.ts';
import { RetirarDaOferta, SalvarOferta } from '../../src/comandos/oferta.ts';
import { ConfirmarPedido, FazerPedido } from '../../src/comandos/pedido.ts';
import { regrasDoCiclo } from '../../src/domain/ciclos/regras.ts';
import { regrasDosItens } from '../../src/domain/composicao.ts';
import type { ArquivoRecebido } from '../../src/domain/financeiro.ts';
import { regrasDasLinhas as regrasDoPedido } from '../../src/domain/pedidos/regras.ts';
import { Invalido, Proibido } from '../../src/domain/erros.ts';
import { DATAS_PADRAO } from '../helpers/fabricas.ts';

/** The edge of the cycle's writes: wire bodies in, typed values in integer units out. */

const livre = (): void => undefined;

/** The order and offer commands (src/comandos), read as a Cestas body is: ownership first, then the fields. */
const lerPedido = (dados: unknown, dono: (u: number | null) => void) =>
  lerComando(FazerPedido, dados, nomesDoCorpo, dono);
const lerOferta = (dados: unknown, dono: (u: number | null) => void) =>
  lerComando(SalvarOferta, dados, nomesDoCorpo, dono);
/** The composition and cycle commands, read as their Cestas routes read them. */
const lerComposicao = (dados: unknown, idDaRota: number | null) =>
  naCesta(lerComando(ComporCesta, dados, nomesDoCorpo, livre), idDaRota);
const lerCiclo = (dados: unknown) => lerComando(SalvarCiclo, dados, nomesDoCorpo, livre);
const lerRemocaoDaOferta = (dados: unknown, dono: (u: number | null) => void) =>
  lerComando(RetirarDaOferta, dados, nomesDoCorpo, dono);
const lerConfirmacao = (dados: unknown) => ConfirmarPedido.ler(dados, nomesDoCorpo);
const lerMovimentacao = (dados: Record<string, unknown>, arquivo: ArquivoRecebido | null) =>
  RegistrarMovimentacao.ler({ ...dados, arquivo }, nomesDoCorpo).entrada;

function detalhes(f: () => unknown): Record<string, unknown> {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof Invalido, `esperava Invalido, veio ${String(e)}`);
    return { ...(e.detalhes ?? {}) };
  }
  assert.fail('esperava uma recusa');
}

test('uma lista chega como array JSON ou como mapa de índices do formulário, na ordem dos índices', () => {
  const base = { nome: 'C', ...DATAS_PADRAO };
  const cestas = (lista: unknown) => lerCiclo({ ...base, cicloCestas: lista }).cicloCestas?.map((c) => c.cestaId);
  assert.deepEqual(cestas([{ cestaId: 1, quantidadeCestas: 1 }]), [1]);
  assert.deepEqual(
    cestas({
      10: { cestaId: '3', quantidadeCestas: '1' },
      2: { cestaId: '2', quantidadeCestas: '1' },
      0: { cestaId: '1', quantidadeCestas: '1' },
    }),
    [1, 2, 3],
  );
  for (const vazio of [null, '']) assert.deepEqual(cestas(vazio), []);
  for (const ruim of ['x', 3, { a: 1 }, { 0: { cestaId: 1, quantidadeCestas: 1 }, nome: 'b' }, true])
    assert.deepEqual(
      detalhes(() => lerCiclo({ ...base, cicloCestas: ruim })),
      { cicloCestas: 'Deve ser uma lista' },
      JSON.stringify(ruim),
    );
});

test('uma linha de sobra do formulário, toda em branco (id à parte), não é linha', () => {
  const linhas = (...cicloCestas: unknown[]) =>
    detalhes(() => lerCiclo({ nome: 'C', ...DATAS_PADRAO, cicloCestas: [...cicloCestas, { cestaId: 'x' }] }));
  const ultima = {
    'cicloCestas.1.cestaId': 'Deve ser um número inteiro',
    'cicloCestas.1.quantidadeCestas': 'Campo obrigatório',
  };
  assert.deepEqual(linhas({ id: '7', cestaId: '', quantidadeCestas: '' }), ultima);
  assert.deepEqual(linhas({ cestaId: null }), ultima);
  assert.deepEqual(linhas({ id: '', cestaId: '3', quantidadeCestas: '' }), {
    ...ultima,
    'cicloCestas.0.quantidadeCestas': 'Campo obrigatório',
  });
  assert.deepEqual(linhas({ quantidadeCestas: 0 }), { ...ultima, 'cicloCestas.0.cestaId': 'Campo obrigatório' });
  assert.deepEqual(linhas(null), { ...ultima, 'cicloCestas.0': 'Deve ser um objeto' });
  assert.deepEqual(linhas('texto'), { ...ultima, 'cicloCestas.0': 'Deve ser um objeto' });
});

test('pedido: JSON e formulário dão o mesmo valor tipado, em milésimos', () => {
  const json = lerPedido(
    {
      cicloid: 4,
      pontoEntregaId: 2,
      produtos: [
        { cicloCestaId: 9, quantidade: 2 },
        { cicloProdutoId: 5, quantidade: '1.25' },
      ],
    },
    livre,
  );
  const form = lerPedido(
    {
      cicloid: '4',
      pontoEntregaId: '2',
      produtos: { 1: { cicloProdutoId: '5', quantidade: '1.25' }, 0: { cicloCestaId: '9', quantidade: '2' } },
    },
    livre,
  );
  const esperado = {
    usuarioid: null,
    cicloid: 4,
    pontoEntregaId: 2,
    linhas: [
      { cicloCestaId: 9, cicloProdutoId: null, quantidadeMilesimos: 2000, unidadeEscrita: null, campo: 'produtos.0' },
      { cicloCestaId: null, cicloProdutoId: 5, quantidadeMilesimos: 1250, unidadeEscrita: null, campo: 'produtos.1' },
    ],
  };
  assert.deepEqual(json, esperado);
  assert.deepEqual(form, esperado);
});

test('pedido: quantidade zero ou em branco é "nenhuma desta"; nada escolhido é recusado', () => {
  const r = lerPedido(
    {
      cicloid: 1,
      pontoEntregaId: 1,
      produtos: [
        { cicloCestaId: 3, quantidade: 0 },
        { cicloCestaId: 4, quantidade: '' },
        { cicloProdutoId: 6, quantidade: '0' },
        { cicloCestaId: 5, quantidade: 1 },
      ],
    },
    livre,
  );
  assert.deepEqual(
    r.linhas.map((l) => l.cicloCestaId),
    [5],
  );
  // Nothing chosen reads as no rows, which the order's rule (run once, by salvarPedido) refuses.
  assert.deepEqual(
    regrasDoPedido(
      lerPedido({ cicloid: 1, pontoEntregaId: 1, produtos: [{ cicloCestaId: 3, quantidade: 0 }] }, livre).linhas,
    ),
    { produtos: 'Escolha pelo menos uma cesta ou um extra' },
  );
});

test('pedido: cada recusa no seu campo, todas de uma vez, e "escolha algo" só quando nada mais está errado', () => {
  const d = detalhes(() =>
    lerPedido(
      {
        cicloid: 'x',
        produtos: [
          { cicloCestaId: 1, cicloProdutoId: 2, quantidade: 1 },
          { quantidade: 1 },
          { cicloCestaId: 3, quantidade: '1.5' },
          { cicloProdutoId: 4, quantidade: '0.0001' },
          { cicloCestaId: 5, quantidade: 10_001 },
          { cicloProdutoId: 7, quantidade: '10000.001' },
          'linha',
          { cicloCestaId: 8, quantidade: 1 },
          { cicloCestaId: 8, quantidade: 2 },
        ],
      },
      livre,
    ),
  );
  assert.deepEqual(d, {
    cicloid: 'Deve ser um número inteiro',
    pontoEntregaId: 'Campo obrigatório',
    'produtos.0.cicloCestaId': 'Informe cicloCestaId ou cicloProdutoId, não os dois',
    'produtos.1.cicloCestaId': 'Informe cicloCestaId ou cicloProdutoId',
    'produtos.2.quantidade': 'Deve ser um número inteiro',
    'produtos.3.quantidade': 'Aceita no máximo 3 casas decimais',
    'produtos.4.quantidade': 'Deve ser no máximo 10000',
    'produtos.5.quantidade': 'Use no máximo 10.000',
    'produtos.6': 'Deve ser um objeto',
    'produtos.8': 'Item repetido no pedido',
  });
});

test('pedido: mais de 200 linhas é recusado, não cortado', () => {
  const produtos = Array.from({ length: 201 }, (_, i) => ({ cicloCestaId: i + 1, quantidade: 1 }));
  assert.deepEqual(
    detalhes(() => lerPedido({ cicloid: 1, pontoEntregaId: 1, produtos }, livre)),
    { produtos: 'No máximo 200 itens por pedido' },
  );
  assert.equal(
    lerPedido({ cicloid: 1, pontoEntregaId: 1, produtos: produtos.slice(0, 200) }, livre).linhas.length,
    200,
  );
});

test('a posse vem antes de qualquer outro campo: a recusa do dono ganha de um corpo todo errado', () => {
  const vistos: Array<number | null> = [];
  const dono = (u: number | null) => {
    vistos.push(u);
    if (u !== null) throw new Proibido('PEDIDO_DE_OUTRA_PESSOA', 'não');
  };
  for (const ler of [lerPedido, lerOferta, lerRemocaoDaOferta]) {
    assert.throws(() => ler({ usuarioid: '77', cicloid: 'x', produtos: 'y' }, dono), Proibido);
  }
  assert.deepEqual(vistos, [77, 77, 77]);
  // Without usuarioid the check still runs (with null), and the body is then judged.
  assert.throws(() => lerPedido({ cicloid: 'x' }, dono), Invalido);
  assert.deepEqual(vistos.at(-1), null);
});

test('oferta: JSON e formulário iguais; linha em branco ou "0" fica de fora, mas o número 0 do JSON é recusado', () => {
  const form = lerOferta(
    {
      cicloid: '3',
      usuarioid: '8',
      produtos: {
        0: { produtoid: '11', quantidade: '2.5', valor: '8.00' },
        1: { produtoid: '12', quantidade: '', valor: '' },
        2: { produtoid: '13', quantidade: '0', valor: '3' },
      },
    },
    livre,
  );
  assert.deepEqual(form, {
    usuarioid: 8,
    cicloid: 3,
    linhas: [
      { produtoid: 11, quantidadeMilesimos: 2500, unidadeEscrita: null, valorCentavos: 800, campo: 'produtos.0' },
    ],
  });
  assert.deepEqual(
    lerOferta({ cicloid: 3, usuarioid: 8, produtos: [{ produtoid: 11, quantidade: 2.5, valor: 8 }] }, livre),
    form,
  );
  assert.deepEqual(
    detalhes(() => lerOferta({ cicloid: 3, produtos: [{ produtoid: 11, quantidade: 0, valor: 8 }] }, livre)),
    { 'produtos.0.quantidade': 'Deve ser maior que zero' },
  );
  // A draft may hold a product with no lines at all.
  assert.deepEqual(lerOferta({ cicloid: 3 }, livre).linhas, []);
});

test('oferta: produto repetido, preço ausente e o limite de 500 linhas', () => {
  assert.deepEqual(
    detalhes(() =>
      lerOferta(
        {
          cicloid: 3,
          produtos: [
            { produtoid: 11, quantidade: 1, valor: 2 },
            { produtoid: 11, quantidade: 2, valor: 2 },
            { produtoid: 12, quantidade: 1 },
          ],
        },
        livre,
      ),
    ),
    {
      'produtos.1.produtoid': 'Produto repetido na oferta',
      'produtos.2.valor': 'Campo obrigatório',
    },
  );
  const muitas = Array.from({ length: 501 }, (_, i) => ({ produtoid: i + 1, quantidade: 1, valor: 1 }));
  assert.deepEqual(
    detalhes(() => lerOferta({ cicloid: 3, produtos: muitas }, livre)),
    { produtos: 'No máximo 500 produtos por oferta' },
  );
});

test('remoção de uma linha da oferta: pelo id da linha, ou por ciclo e produto', () => {
  assert.deepEqual(lerRemocaoDaOferta({ ofertaProdutoId: '5' }, livre), { ofertaProdutoId: 5 });
  assert.deepEqual(lerRemocaoDaOferta({ cicloid: 2, produtoid: 7 }, livre), {
    cicloid: 2,
    produtoid: 7,
    usuarioid: null,
  });
  assert.deepEqual(lerRemocaoDaOferta({ cicloid: 2, produtoid: 7, usuarioid: 9 }, livre), {
    cicloid: 2,
    produtoid: 7,
    usuarioid: 9,
  });
  for (const corpo of [{}, { cicloid: 2 }, { produtoid: 7 }]) {
    assert.deepEqual(
      detalhes(() => lerRemocaoDaOferta(corpo, livre)),
      { ofertaProdutoId: 'Informe ofertaProdutoId, ou cicloid e produtoid' },
    );
  }
});

test('confirmação: o id do pedido, obrigatório e inteiro', () => {
  assert.equal(lerConfirmacao({ pedidoId: '12' }), 12);
  assert.deepEqual(
    detalhes(() => lerConfirmacao({})),
    { pedidoId: 'Campo obrigatório' },
  );
  assert.deepEqual(
    detalhes(() => lerConfirmacao(null)),
    { pedidoId: 'Campo obrigatório' },
  );
  assert.throws(() => lerConfirmacao([1]), Invalido);
});

test('composição: o id da rota manda; o do corpo precisa conferir; itens repetidos e em branco', () => {
  const r = lerComposicao(
    {
      quantidadeCestas: '4',
      produtos: {
        0: { ofertaProdutoId: '3', quantidadePorCesta: '500', unidade: 'g' },
        1: { ofertaProdutoId: '4', quantidadePorCesta: '', unidade: 'kg' },
      },
    },
    9,
  );
  assert.deepEqual(r, {
    cicloCestaId: 9,
    quantidadeCestas: 4,
    itens: [{ ofertaProdutoId: 3, quantidadeMilesimos: 500_000, unidade: 'g', campo: 'produtos.0' }],
  });
  assert.equal(lerComposicao({ cicloCestaId: 6, quantidadeCestas: 0 }, null).cicloCestaId, 6);
  assert.deepEqual(
    detalhes(() => lerComposicao({ cicloCestaId: 6, quantidadeCestas: 1 }, 9)),
    { cicloCestaId: 'Não confere com o endereço' },
  );
  assert.deepEqual(
    detalhes(() => lerComposicao({ quantidadeCestas: 1 }, null)),
    { cicloCestaId: 'Campo obrigatório' },
  );
  // A repeated line is the use case's rule; the command says it too when something else is refused,
  // so a form shows every problem at once.
  const repetidos = [
    { ofertaProdutoId: 3, quantidadePorCesta: 1, unidade: 'kg' },
    { ofertaProdutoId: 3, quantidadePorCesta: 2, unidade: 'kg' },
  ];
  assert.deepEqual(regrasDosItens(lerComposicao({ quantidadeCestas: 1, produtos: repetidos }, 9).itens), {
    'produtos.1.ofertaProdutoId': 'Item repetido na composição',
  });
  assert.deepEqual(
    detalhes(() => lerComposicao({ quantidadeCestas: 'x', produtos: repetidos }, 9)),
    {
      quantidadeCestas: 'Deve ser um número inteiro',
      'produtos.1.ofertaProdutoId': 'Item repetido na composição',
    },
  );
  assert.deepEqual(
    detalhes(() =>
      lerComposicao(
        { quantidadeCestas: -1, produtos: [{ ofertaProdutoId: 3, quantidadePorCesta: 0, unidade: 'kg' }] },
        9,
      ),
    ),
    {
      quantidadeCestas: 'Não pode ser negativo',
      'produtos.0.quantidadePorCesta': 'Deve ser maior que zero',
    },
  );
  // The basket a refused form names, to draw its page again.
  assert.equal(cestaNomeada({ cicloCestaId: '6' }), 6);
  assert.equal(cestaNomeada({ cicloCestaId: 6 }), 6);
  for (const ruim of [{ cicloCestaId: 'x' }, { cicloCestaId: -6 }, { cicloCestaId: 0 }, {}, null, [6]])
    assert.equal(cestaNomeada(ruim), null, JSON.stringify(ruim));
});

test('ciclo: uma lista só é trocada quando vem (chave JSON, ou _listas do formulário)', () => {
  const base = { nome: ' Ciclo  ', ...DATAS_PADRAO };
  const soDados = lerCiclo(base);
  assert.deepEqual(soDados, {
    dados: { nome: 'Ciclo', ...DATAS_PADRAO, ativo: null },
    cicloEntregas: null,
    cicloPontos: null,
    cicloCestas: null,
    cicloProdutos: null,
  });
  const form = lerCiclo({
    ...base,
    ativo: ['false', 'on'],
    _listas: 'cicloCestas,cicloProdutos',
    cicloCestas: {
      0: { id: '', cestaId: '2', quantidadeCestas: '10' },
      1: { id: '', cestaId: '', quantidadeCestas: '' },
    },
  });
  assert.deepEqual(form.cicloCestas, [{ id: null, cestaId: 2, quantidadeCestas: 10, campo: 'cicloCestas.0.cestaId' }]);
  assert.deepEqual(form.cicloProdutos, []);
  assert.equal(form.cicloEntregas, null);
  assert.equal(form.dados.ativo, true);
  const json = lerCiclo({
    ...base,
    ativo: false,
    cicloProdutos: [{ produtoId: 4, quantidade: '12.5', valor: '10.00' }],
    cicloEntregas: [{ dataEntrega: '2026-03-10', observacao: 'Na sede' }],
  });
  assert.deepEqual(json.cicloProdutos, [
    { id: null, produtoId: 4, quantidadeMilesimos: 12_500, valorCentavos: 1000, campo: 'cicloProdutos.0.produtoId' },
  ]);
  assert.deepEqual(json.cicloEntregas, [
    { id: null, dataEntrega: '2026-03-10', observacao: 'Na sede', campo: 'cicloEntregas.0.dataEntrega' },
  ]);
  assert.equal(json.dados.ativo, false);
  // A form's decimals are read as people type them.
  const digitado = lerCiclo(
    digitadoPorPessoas({
      ...base,
      _listas: 'cicloProdutos',
      cicloProdutos: { 0: { id: '', produtoId: '4', quantidade: '1.012,5', valor: '10,00' } },
    }),
  );
  assert.deepEqual(digitado.cicloProdutos, [
    { id: null, produtoId: 4, quantidadeMilesimos: 1_012_500, valorCentavos: 1000, campo: 'cicloProdutos.0.produtoId' },
  ]);
  // Hours as people type them come out as HH:MM; a blank one is unset.
  const pontos = lerCiclo({
    ...base,
    cicloPontos: [
      { pontoEntregaId: 3, dataRetirada: '2026-03-11', horaInicio: '8h30', horaFim: '12:00' },
      { pontoEntregaId: 4, horaInicio: '7', horaFim: '' },
    ],
  });
  assert.deepEqual(pontos.cicloPontos, [
    {
      id: null,
      pontoEntregaId: 3,
      dataRetirada: '2026-03-11',
      horaInicio: '08:30',
      horaFim: '12:00',
      campo: 'cicloPontos.0.pontoEntregaId',
    },
    {
      id: null,
      pontoEntregaId: 4,
      dataRetirada: null,
      horaInicio: '07:00',
      horaFim: null,
      campo: 'cicloPontos.1.pontoEntregaId',
    },
  ]);
});

test('ciclo: erros de leitura e de regra saem juntos, sem julgar a regra num campo ilegível', () => {
  const d = detalhes(() =>
    lerCiclo({
      nome: '',
      ...DATAS_PADRAO,
      dataOfertaFim: '2026-02-28',
      dataPedidoFim: '2026-02-30',
      dataRetiradaFim: '',
      cicloEntregas: [{ dataEntrega: '2027-01-01' }],
      cicloCestas: [
        { cestaId: 2, quantidadeCestas: 1 },
        { cestaId: 2, quantidadeCestas: 3 },
        { cestaId: 'x', quantidadeCestas: 1 },
        { cestaId: 'x', quantidadeCestas: 1 },
      ],
      cicloProdutos: 'nada',
    }),
  );
  assert.deepEqual(d, {
    nome: 'Campo obrigatório',
    dataOfertaFim: 'Deve ser igual ou posterior ao início das ofertas',
    dataPedidoFim: 'Data inválida: use AAAA-MM-DD',
    dataRetiradaFim: 'Campo obrigatório',
    'cicloCestas.1.cestaId': 'Item repetido na lista',
    'cicloCestas.2.cestaId': 'Deve ser um número inteiro',
    'cicloCestas.3.cestaId': 'Deve ser um número inteiro',
    cicloProdutos: 'Deve ser uma lista',
  });
  // The end of the pickup is unreadable, so no delivery is judged against it; with it, one is.
  // Read alone, the rules are the use case's (regrasDoCiclo, which salvarCiclo runs).
  const fora = regrasDoCiclo(
    lerCiclo({
      nome: 'C',
      ...DATAS_PADRAO,
      cicloEntregas: [{ dataEntrega: '2027-01-01' }, { dataEntrega: DATAS_PADRAO.dataOfertaInicio }],
    }),
  );
  assert.deepEqual(fora, { 'cicloEntregas.0.dataEntrega': 'Deve estar dentro das datas do ciclo' });
});

test('pagamento: centavos, data opcional, sentido só crédito ou débito, e o comprovante julgado junto', () => {
  assert.deepEqual(
    lerMovimentacao({ usuarioid: '3', tipoMovimentacaoId: '1', valor: '12.50', descricao: ' Pix ' }, null),
    {
      usuarioid: 3,
      tipoMovimentacaoId: 1,
      valorCentavos: 1250,
      data: null,
      descricao: 'Pix',
      cicloid: null,
      sentido: null,
    },
  );
  assert.equal(
    lerMovimentacao(
      {
        usuarioid: 3,
        tipoMovimentacaoId: 1,
        valor: 1,
        descricao: 'x',
        data: '2026-03-01',
        sentido: 'debito',
        cicloid: 4,
      },
      null,
    ).sentido,
    'debito',
  );
  const d = detalhes(() =>
    lerMovimentacao(
      { valor: '0', sentido: 'talvez', data: '01/03/2026' },
      { nome: 'c', conteudo: Buffer.from('GIF89a') },
    ),
  );
  assert.deepEqual(d, {
    usuarioid: 'Campo obrigatório',
    tipoMovimentacaoId: 'Campo obrigatório',
    valor: 'Deve ser maior que zero',
    data: 'Data inválida: use AAAA-MM-DD',
    descricao: 'Campo obrigatório',
    sentido: 'Valor inválido: use credito, debito',
    arquivo: 'O comprovante deve ser PDF, PNG ou JPEG',
  });
});
