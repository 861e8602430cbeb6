import assert from 'node:assert/strict';
import { test } from 'node:test';
import { acoesDaOferta, acoesDoPedido, donoDaPagina, podeNoRegistro, type Ator } from '../../src/domain/acesso.ts';
import { Invalido, Proibido } from '../../src/domain/erros.ts';
import type { Fase, Janela } from '../../src/domain/ciclos/calendario.ts';
import type { CicloLido } from '../../src/domain/ciclos/modelo.ts';
import { regrasDoCiclo } from '../../src/domain/ciclos/regras.ts';
import { converter, regrasDosItens } from '../../src/domain/composicao.ts';
import { regraDoComprovante, TAMANHO_MAXIMO_ARQUIVO } from '../../src/domain/financeiro.ts';
import { regrasDasLinhas as regrasDaOferta } from '../../src/domain/ofertas.ts';
import { regrasDasLinhas as regrasDoPedido } from '../../src/domain/pedidos/regras.ts';
import type { Perfil } from '../../src/domain/perfis.ts';
import { DATAS_PADRAO } from '../helpers/fabricas.ts';

/** The domain's pure rules, called as the use cases and the edge call them. */

const ciclo = (mudar: Partial<CicloLido['dados']> = {}, listas: Partial<Omit<CicloLido, 'dados'>> = {}): CicloLido => ({
  dados: { nome: 'C', ...DATAS_PADRAO, ativo: true, ...mudar },
  cicloEntregas: null,
  cicloPontos: null,
  cicloCestas: null,
  cicloProdutos: null,
  ...listas,
});

test('ciclo: cada data igual ou depois da anterior; um dia igual vale', () => {
  assert.deepEqual(regrasDoCiclo(ciclo()), {});
  const mesmoDia = '2026-03-01';
  assert.deepEqual(
    regrasDoCiclo(
      ciclo({
        dataOfertaInicio: mesmoDia,
        dataOfertaFim: mesmoDia,
        dataPedidoInicio: mesmoDia,
        dataPedidoFim: mesmoDia,
        dataRetiradaInicio: mesmoDia,
        dataRetiradaFim: mesmoDia,
      }),
    ),
    {},
  );
  assert.deepEqual(regrasDoCiclo(ciclo({ dataOfertaFim: '2026-02-28', dataRetiradaFim: '2026-03-10' })), {
    dataOfertaFim: 'Deve ser igual ou posterior ao início das ofertas',
    dataRetiradaFim: 'Deve ser igual ou posterior ao início da retirada',
  });
  assert.deepEqual(regrasDoCiclo(ciclo({ dataPedidoInicio: '2026-03-03' })), {
    dataPedidoInicio: 'Deve ser igual ou posterior ao fim das ofertas',
  });
});

test('ciclo: uma data ilegível não entra em comparação nenhuma, nem como anterior nem como atual', () => {
  // The start is unreadable (and sorts after the end as text): the end is not judged against it.
  assert.deepEqual(regrasDoCiclo(ciclo({ dataOfertaInicio: '2026-13-01' }), new Set(['dataOfertaInicio'])), {});
  assert.deepEqual(regrasDoCiclo(ciclo({ dataOfertaInicio: '2026-13-01' })), {
    dataOfertaFim: 'Deve ser igual ou posterior ao início das ofertas',
  });
  // The end is unreadable and sorts before the start: nothing said of it here.
  assert.deepEqual(regrasDoCiclo(ciclo({ dataOfertaFim: '' }), new Set(['dataOfertaFim'])), {});
  assert.deepEqual(regrasDoCiclo(ciclo({ dataOfertaFim: '' }), new Set(['dataPedidoInicio'])), {
    dataOfertaFim: 'Deve ser igual ou posterior ao início das ofertas',
  });
});

test('ciclo: entregas dentro das datas do ciclo, dos dois lados e nos dois limites', () => {
  const entrega = (dataEntrega: string, i: number) => ({
    id: null,
    dataEntrega,
    observacao: null,
    campo: `cicloEntregas.${i}.dataEntrega`,
  });
  const entregas = ['2026-02-28', DATAS_PADRAO.dataOfertaInicio, DATAS_PADRAO.dataRetiradaFim, '2026-03-13'].map(
    entrega,
  );
  assert.deepEqual(regrasDoCiclo(ciclo({}, { cicloEntregas: entregas })), {
    'cicloEntregas.0.dataEntrega': 'Deve estar dentro das datas do ciclo',
    'cicloEntregas.3.dataEntrega': 'Deve estar dentro das datas do ciclo',
  });
  // An unreadable delivery, or unreadable cycle ends, are not judged.
  assert.deepEqual(
    regrasDoCiclo(
      ciclo({}, { cicloEntregas: entregas }),
      new Set(['cicloEntregas.0.dataEntrega', 'cicloEntregas.3.dataEntrega']),
    ),
    {},
  );
  assert.deepEqual(regrasDoCiclo(ciclo({}, { cicloEntregas: entregas }), new Set(['dataOfertaInicio'])), {});
  assert.deepEqual(regrasDoCiclo(ciclo({}, { cicloEntregas: entregas }), new Set(['dataRetiradaFim'])), {});
});

test('ciclo: o dia de cada ponto fica dentro da retirada, nos dois limites; o fim do horário vem depois do início; cada ponto uma vez', () => {
  const ponto = (
    pontoEntregaId: number,
    dataRetirada: string | null,
    horaInicio: string | null,
    horaFim: string | null,
    i: number,
  ) => ({ id: null, pontoEntregaId, dataRetirada, horaInicio, horaFim, campo: `cicloPontos.${i}.pontoEntregaId` });
  const pontos = [
    ponto(1, '2026-03-10', null, null, 0), // a day before the pickup window
    ponto(2, DATAS_PADRAO.dataRetiradaInicio, '08:00', '08:01', 1),
    ponto(3, DATAS_PADRAO.dataRetiradaFim, '08:00', '08:00', 2), // ends as it starts
    ponto(4, '2026-03-13', '09:00', '08:59', 3), // a day after, and ends before it starts
    ponto(2, null, null, '07:00', 4), // the same point again; an end alone is fine
  ];
  assert.deepEqual(regrasDoCiclo(ciclo({}, { cicloPontos: pontos })), {
    'cicloPontos.0.dataRetirada': 'Deve estar dentro do período de retirada do ciclo',
    'cicloPontos.2.horaFim': 'Deve ser depois do horário de início',
    'cicloPontos.3.dataRetirada': 'Deve estar dentro do período de retirada do ciclo',
    'cicloPontos.3.horaFim': 'Deve ser depois do horário de início',
    'cicloPontos.4.pontoEntregaId': 'Item repetido na lista',
  });
  // Unreadable fields, rows or window ends are not judged.
  assert.deepEqual(
    regrasDoCiclo(
      ciclo({}, { cicloPontos: pontos }),
      new Set([
        'cicloPontos.0.dataRetirada',
        'cicloPontos.2.horaInicio',
        'cicloPontos.3.pontoEntregaId',
        'cicloPontos.4.pontoEntregaId',
      ]),
    ),
    {},
  );
  assert.deepEqual(
    Object.keys(regrasDoCiclo(ciclo({}, { cicloPontos: pontos }), new Set(['dataRetiradaInicio']))).filter((k) =>
      k.endsWith('dataRetirada'),
    ),
    [],
  );
  assert.deepEqual(
    Object.keys(
      regrasDoCiclo(ciclo({}, { cicloPontos: pontos }), new Set(['dataRetiradaFim', 'cicloPontos.2.horaFim'])),
    ).filter((k) => k.endsWith('dataRetirada') || k === 'cicloPontos.2.horaFim'),
    [],
  );
});

test('ciclo: cada cesta e cada produto uma vez; linhas ilegíveis ficam de fora', () => {
  const cesta = (cestaId: number, i: number) => ({
    id: null,
    cestaId,
    quantidadeCestas: 1,
    campo: `cicloCestas.${i}.cestaId`,
  });
  const produto = (produtoId: number, i: number) => ({
    id: null,
    produtoId,
    quantidadeMilesimos: 1000,
    valorCentavos: 100,
    campo: `cicloProdutos.${i}.produtoId`,
  });
  const listas = { cicloCestas: [1, 2, 1].map(cesta), cicloProdutos: [5, 5, 6].map(produto) };
  assert.deepEqual(regrasDoCiclo(ciclo({}, listas)), {
    'cicloCestas.2.cestaId': 'Item repetido na lista',
    'cicloProdutos.1.produtoId': 'Item repetido na lista',
  });
  assert.deepEqual(
    regrasDoCiclo(ciclo({}, listas), new Set(['cicloCestas.0.cestaId', 'cicloProdutos.0.produtoId'])),
    {},
  );
});

test('pedido, oferta e composição: cada item uma vez, e um pedido com algo', () => {
  const linha = (cicloCestaId: number | null, cicloProdutoId: number | null, i: number) => ({
    cicloCestaId,
    cicloProdutoId,
    quantidadeMilesimos: 1000,
    campo: `produtos.${i}`,
  });
  assert.deepEqual(regrasDoPedido([linha(1, null, 0), linha(null, 1, 1), linha(2, null, 2)]), {});
  assert.deepEqual(regrasDoPedido([linha(1, null, 0), linha(null, 1, 1), linha(1, null, 2), linha(null, 1, 3)]), {
    'produtos.2': 'Item repetido no pedido',
    'produtos.3': 'Item repetido no pedido',
  });
  assert.deepEqual(regrasDoPedido([]), { produtos: 'Escolha pelo menos uma cesta ou um extra' });
  const oferta = (produtoid: number, i: number) => ({
    produtoid,
    quantidadeMilesimos: 1000,
    valorCentavos: 100,
    campo: `produtos.${i}`,
  });
  assert.deepEqual(regrasDaOferta([oferta(1, 0), oferta(2, 1)]), {});
  assert.deepEqual(regrasDaOferta([oferta(1, 0), oferta(2, 1), oferta(1, 2)]), {
    'produtos.2.produtoid': 'Produto repetido na oferta',
  });
  const item = (ofertaProdutoId: number, i: number) => ({
    ofertaProdutoId,
    quantidadeMilesimos: 1000,
    unidade: 'kg',
    campo: `produtos.${i}`,
  });
  assert.deepEqual(regrasDosItens([item(1, 0), item(2, 1)]), {});
  assert.deepEqual(regrasDosItens([item(1, 0), item(1, 1)]), {
    'produtos.1.ofertaProdutoId': 'Item repetido na composição',
  });
});

test('conversão de unidades: exata, nos dois sentidos, e a recusa diz o que usar', () => {
  assert.deepEqual(converter(500_000, 'g', 'kg'), { ok: true, valor: 500 });
  assert.deepEqual(converter(1500, 'kg', 'kg'), { ok: true, valor: 1500 });
  assert.deepEqual(converter(250_000, 'ml', 'litro'), { ok: true, valor: 250 });
  assert.deepEqual(converter(2000, 'litro', 'litro'), { ok: true, valor: 2000 });
  assert.deepEqual(converter(6000, 'unidade', 'dúzia'), { ok: true, valor: 500 });
  assert.deepEqual(converter(1000, 'dúzia', 'unidade'), { ok: true, valor: 12_000 });
  assert.deepEqual(converter(3000, 'unidade', 'unidade'), { ok: true, valor: 3000 });
  assert.deepEqual(converter(2000, 'maço', 'maço'), { ok: true, valor: 2000 });
  assert.deepEqual(converter(1, 'g', 'kg'), { ok: false, motivo: 'Esta quantidade não converte exatamente para kg' });
  assert.deepEqual(converter(1000, 'unidade', 'dúzia'), {
    ok: false,
    motivo: 'Esta quantidade não converte exatamente para dúzia',
  });
  assert.deepEqual(converter(1000, 'kg', 'litro'), {
    ok: false,
    motivo: 'Unidade incompatível com o produto: use litro ou ml',
  });
  assert.deepEqual(converter(1000, 'kg', 'unidade'), {
    ok: false,
    motivo: 'Unidade incompatível com o produto: use unidade ou dúzia',
  });
  assert.deepEqual(converter(1000, 'kg', 'maço'), {
    ok: false,
    motivo: 'Unidade incompatível com o produto: use maço',
  });
  assert.deepEqual(converter(1000, 'kg', 'bandeja'), {
    ok: false,
    motivo: 'Unidade incompatível com o produto: use bandeja',
  });
});

test('comprovante: PDF, PNG ou JPEG de até 10 MiB, exatamente', () => {
  const pdf = (tamanho: number) => ({
    nome: 'c',
    conteudo: Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(tamanho - 9)]),
  });
  assert.equal(regraDoComprovante(null), null);
  assert.equal(regraDoComprovante(pdf(TAMANHO_MAXIMO_ARQUIVO)), null);
  assert.equal(regraDoComprovante(pdf(TAMANHO_MAXIMO_ARQUIVO + 1)), 'O comprovante deve ter no máximo 10 MiB');
  assert.equal(
    regraDoComprovante({ nome: 'c', conteudo: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]) }),
    null,
  );
  assert.equal(regraDoComprovante({ nome: 'c', conteudo: Buffer.from([0xff, 0xd8, 0xff, 0xe0]) }), null);
  assert.equal(
    regraDoComprovante({ nome: 'c', conteudo: Buffer.from('GIF89a') }),
    'O comprovante deve ser PDF, PNG ou JPEG',
  );
  assert.equal(regraDoComprovante({ nome: 'c', conteudo: Buffer.alloc(0) }), 'O comprovante deve ser PDF, PNG ou JPEG');
});

test('regras por registro: quem edita a oferta e o pedido, quem confirma, quem vê e quem age por alguém', () => {
  const pessoa = (usuarioid: number | null, perfil: Perfil[], ativo = true): Ator => ({
    email: `p${usuarioid ?? 0}@x`,
    nome: 'P',
    usuarioid,
    perfil,
    ativo,
  });
  const fornecedor = pessoa(1, ['fornecedor']);
  const consumidor = pessoa(2, ['consumidor']);
  const admin = pessoa(3, ['admin']);
  const info = pessoa(4, ['info']);
  // The window of the phase is open in it (offers in 'oferta', orders in 'pedido'), unless told otherwise.
  const abertasNa = (fase: Fase): Janela[] => (fase === 'oferta' ? ['oferta'] : fase === 'pedido' ? ['pedido'] : []);
  const janela = (
    fase: Fase,
    extra: Partial<{ ativo: boolean; fechadoEm: string | null; abertas: Janela[] }> = {},
  ) => ({ fase, abertas: abertasNa(fase), ativo: true, fechadoEm: null, ...extra });
  assert.deepEqual(acoesDaOferta(fornecedor, { usuarioid: 1, ciclo: janela('oferta') }), { editar: true });
  for (const fase of ['planejado', 'composicao', 'pedido', 'retirada', 'encerrado'] as const) {
    assert.equal(
      acoesDaOferta(fornecedor, { usuarioid: 1, ciclo: janela(fase) }).editar,
      false,
      `fornecedor fora da janela (${fase})`,
    );
    assert.equal(
      acoesDaOferta(admin, { usuarioid: 1, ciclo: janela(fase) }).editar,
      true,
      `a coordenação a qualquer momento (${fase})`,
    );
  }
  assert.equal(
    acoesDaOferta(fornecedor, { usuarioid: 1, ciclo: janela('oferta', { ativo: false }) }).editar,
    false,
    'ciclo desativado',
  );
  assert.equal(
    acoesDaOferta(admin, { usuarioid: 1, ciclo: janela('oferta', { fechadoEm: '2026-03-10T00:00:00Z' }) }).editar,
    false,
    'ciclo fechado: para todos',
  );
  assert.equal(
    acoesDaOferta(pessoa(5, ['fornecedor']), { usuarioid: 1, ciclo: janela('oferta') }).editar,
    false,
    'a oferta de outra pessoa',
  );
  assert.equal(acoesDaOferta(info, { usuarioid: 1, ciclo: janela('oferta') }).editar, false, 'info só lê');
  assert.deepEqual(acoesDoPedido(consumidor, { usuarioid: 2, ciclo: janela('pedido') }), {
    editar: true,
    confirmar: true,
  });
  // Offer and order windows sharing a day: the phase says 'oferta', and the order is open all the same.
  assert.deepEqual(
    acoesDoPedido(consumidor, { usuarioid: 2, ciclo: janela('oferta', { abertas: ['oferta', 'pedido'] }) }),
    { editar: true, confirmar: true },
  );
  assert.deepEqual(
    acoesDaOferta(fornecedor, { usuarioid: 1, ciclo: janela('oferta', { abertas: ['oferta', 'pedido'] }) }),
    { editar: true },
  );
  assert.deepEqual(
    acoesDoPedido(consumidor, { usuarioid: 2, ciclo: janela('retirada') }),
    { editar: false, confirmar: false },
    'confirmar é uma escrita da janela de pedidos',
  );
  assert.deepEqual(acoesDoPedido(admin, { usuarioid: 2, ciclo: janela('retirada') }), {
    editar: true,
    confirmar: true,
  });
  assert.deepEqual(acoesDoPedido(pessoa(6, ['consumidor']), { usuarioid: 2, ciclo: janela('pedido') }), {
    editar: false,
    confirmar: false,
  });
  assert.deepEqual(
    acoesDoPedido(pessoa(2, ['consumidor'], false), { usuarioid: 2, ciclo: janela('pedido') }),
    { editar: false, confirmar: false },
    'cadastro inativo',
  );
  assert.equal(podeNoRegistro(info, 'verDe', { usuarioid: 2 }), true);
  assert.equal(podeNoRegistro(info, 'agirPor', { usuarioid: 2 }), false);
  assert.equal(podeNoRegistro(consumidor, 'verDe', { usuarioid: 2 }), true);
  assert.equal(podeNoRegistro(consumidor, 'verDe', { usuarioid: 1 }), false);
  assert.equal(podeNoRegistro(pessoa(null, ['consumidor']), 'verDe', { usuarioid: 2 }), false, 'sem cadastro, nada');
});

test('a página de um pedido ou de uma oferta: a da própria pessoa, a de quem se pode ver, ou peça quem', () => {
  const quem = (usuarioid: number | null, perfil: Perfil[]): Ator => ({
    email: 'x@x',
    nome: 'X',
    usuarioid,
    perfil,
    ativo: true,
  });
  assert.equal(donoDaPagina(quem(7, ['consumidor']), null, 'pedido'), 7);
  assert.equal(donoDaPagina(quem(8, ['fornecedor']), null, 'oferta'), 8);
  assert.equal(donoDaPagina(quem(1, ['admin']), 9, 'pedido'), 9);
  assert.throws(
    () => donoDaPagina(quem(7, ['consumidor']), 9, 'pedido'),
    (e: unknown) => e instanceof Proibido && e.message === 'Você só pode ver os seus próprios pedidos',
  );
  for (const [posse, escolha, semDono] of [
    ['pedido', 'Escolha o consumidor', 'Informe ?usuarioid= com o consumidor do pedido'],
    ['oferta', 'Escolha o fornecedor', 'Informe ?usuarioid= com o fornecedor da oferta'],
  ] as const)
    assert.throws(
      () => donoDaPagina(quem(1, ['admin']), null, posse),
      (e: unknown) =>
        e instanceof Invalido &&
        e.message === escolha &&
        JSON.stringify(e.detalhes) === JSON.stringify({ usuarioid: semDono }),
    );
});
