import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { abrirBanco, type Banco } from '../../src/db/banco.ts';
import type { Ator } from '../../src/domain/acesso.ts';
import type { Perfil } from '../../src/domain/perfis.ts';
import { ErroDominio } from '../../src/domain/erros.ts';
import { arquivoDaMovimentacao } from '../../src/domain/financeiro.ts';
import { apagarProdutoDaOferta, ofertaDe, ofertasVisiveis, salvarOferta } from '../../src/domain/ofertas.ts';
import { finalizarPedido } from '../../src/domain/pedidos/finalizar.ts';
import { pedidosVisiveis, pedidoVisivel } from '../../src/domain/pedidos/leituras.ts';
import { salvarPedido } from '../../src/domain/pedidos/salvar.ts';
import type { Taxa } from '../../src/domain/pedidos/taxa.ts';
import { bancoNovo } from '../helpers/banco.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';

/**
 * Who may act for whom, in the domain itself: every refusal of the order and offer use cases,
 * with its exact code, for each kind of actor. The HTTP access matrix covers the routes; this
 * covers the rules the routes rely on, so a rule loosened in the domain fails here.
 */

const TAXA: Taxa = { percentualCentesimos: 0, fixaCentavos: 0 };
const NA_OFERTA = { agora: new Date('2026-03-02T15:00:00Z'), hoje: '2026-03-02' };
const NO_PEDIDO = { agora: new Date('2026-03-07T15:00:00Z'), hoje: '2026-03-07', taxa: TAXA };

async function recusa(
  p: Promise<unknown>,
): Promise<{ tipo: string; codigo: string; detalhes: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof ErroDominio, `esperava um erro de domínio, veio ${String(e)}`);
    return { tipo: e.constructor.name, codigo: e.codigo, detalhes: { ...(e.detalhes ?? {}) } };
  }
  assert.fail('esperava uma recusa');
}

describe('quem pode agir por quem, no domínio', () => {
  let banco: Banco;
  let cicloid = 0;
  let cicloCestaId = 0;
  let compositor = 0;
  let ponto = 0;
  let produtoid = 0;
  const atores = {} as Record<
    'consumidora' | 'vizinha' | 'fornecedora' | 'vizinho' | 'admin' | 'info' | 'consumidorFornecedor',
    Ator
  >;
  const semCadastro: Ator = { email: 'novo@teste.org', nome: 'Novo', usuarioid: null, perfil: [], ativo: true };

  before(async () => {
    banco = abrirBanco(await bancoNovo());
    // The first account created gets the lowest id: someone with orders and offers, so a scope
    // that fell back to a fixed id (instead of none) would show theirs.
    const perfis: Record<keyof typeof atores, Perfil[]> = {
      consumidorFornecedor: ['consumidor', 'fornecedor'],
      consumidora: ['consumidor'],
      vizinha: ['consumidor'],
      fornecedora: ['fornecedor'],
      vizinho: ['fornecedor'],
      admin: ['admin'],
      info: ['info'],
    };
    for (const [nome, perfil] of Object.entries(perfis) as Array<[keyof typeof atores, Perfil[]]>) {
      const u = await criarUsuario(banco, { perfil, nome });
      atores[nome] = { email: u.email, nome, usuarioid: u.id, perfil, ativo: true };
    }
    const cesta = await criarCesta(banco);
    const ciclo = await criarCiclo(banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
      compor: true,
    });
    cicloid = ciclo.id;
    cicloCestaId = ciclo.cicloCestas[0] ?? 0;
    compositor = ciclo.compositor ?? 0;
    ponto = (await criarPonto(banco)).id;
    produtoid = (await criarProduto(banco, { unidade: 'kg' })).id;
  });
  after(() => banco.destroy());

  const pedido = (usuarioid: number | null) => ({
    usuarioid,
    cicloid,
    pontoEntregaId: ponto,
    linhas: [{ cicloCestaId, cicloProdutoId: null, quantidadeMilesimos: 1000, campo: 'produtos.0' }],
  });
  const oferta = (usuarioid: number | null) => ({
    usuarioid,
    cicloid,
    linhas: [{ produtoid, quantidadeMilesimos: 5000, valorCentavos: 800, campo: 'produtos.0' }],
  });
  const id = (a: Ator) => a.usuarioid ?? 0;

  test('pedido: quem não tem cadastro, quem não é consumidor e quem pede por outra pessoa', async () => {
    assert.deepEqual(await recusa(salvarPedido(banco, semCadastro, pedido(null), NO_PEDIDO)), {
      tipo: 'Proibido',
      codigo: 'SEM_CADASTRO',
      detalhes: {},
    });
    assert.equal(
      (await recusa(salvarPedido(banco, atores.fornecedora, pedido(null), NO_PEDIDO))).codigo,
      'SEM_PERMISSAO',
    );
    assert.equal(
      (await recusa(salvarPedido(banco, atores.consumidora, pedido(id(atores.vizinha)), NO_PEDIDO))).codigo,
      'PEDIDO_DE_OUTRA_PESSOA',
    );
    // info sees every order but acts for nobody.
    assert.equal(
      (await recusa(salvarPedido(banco, atores.info, pedido(id(atores.vizinha)), NO_PEDIDO))).codigo,
      'PEDIDO_DE_OUTRA_PESSOA',
    );
    // An admin must say for whom, and it must be a consumer.
    assert.deepEqual(await recusa(salvarPedido(banco, atores.admin, pedido(null), NO_PEDIDO)), {
      tipo: 'Invalido',
      codigo: 'VALIDACAO',
      detalhes: { usuarioid: 'Informe o consumidor do pedido' },
    });
    assert.deepEqual(await recusa(salvarPedido(banco, atores.admin, pedido(id(atores.fornecedora)), NO_PEDIDO)), {
      tipo: 'Invalido',
      codigo: 'VALIDACAO',
      detalhes: { usuarioid: 'Não há consumidor com este id' },
    });
    assert.deepEqual(await recusa(salvarPedido(banco, atores.admin, pedido(999_999), NO_PEDIDO)), {
      tipo: 'Invalido',
      codigo: 'VALIDACAO',
      detalhes: { usuarioid: 'Não há consumidor com este id' },
    });
    // Naming oneself is the same as naming nobody.
    const { pedido: proprio, criado } = await salvarPedido(
      banco,
      atores.consumidora,
      pedido(id(atores.consumidora)),
      NO_PEDIDO,
    );
    assert.equal(criado, true);
    assert.equal(proprio.usuario.id, id(atores.consumidora));
    assert.equal(proprio.usuario.nome, 'consumidora');
    const { pedido: pelaAdmin } = await salvarPedido(banco, atores.admin, pedido(id(atores.vizinha)), NO_PEDIDO);
    assert.equal((await salvarPedido(banco, atores.admin, pedido(id(atores.vizinha)), NO_PEDIDO)).criado, false);
    assert.deepEqual([pelaAdmin.usuario.id, pelaAdmin.usuario.nome], [id(atores.vizinha), 'vizinha']);
  });

  test('ver e confirmar um pedido: o dono, ou quem coordena; os demais nem o veem', async () => {
    const { pedido: meu } = await salvarPedido(banco, atores.consumidorFornecedor, pedido(null), NO_PEDIDO);
    const opcoes = { ...NO_PEDIDO, tz: 'America/Sao_Paulo' };
    assert.deepEqual(await recusa(pedidoVisivel(banco, atores.vizinha, meu.pedidoId, TAXA)), {
      tipo: 'NaoEncontrado',
      codigo: 'PEDIDO_NAO_ENCONTRADO',
      detalhes: {},
    });
    assert.equal(
      (await recusa(finalizarPedido(banco, atores.vizinha, meu.pedidoId, opcoes))).codigo,
      'PEDIDO_NAO_ENCONTRADO',
    );
    assert.equal(
      (await recusa(finalizarPedido(banco, atores.fornecedora, meu.pedidoId, opcoes))).codigo,
      'PEDIDO_NAO_ENCONTRADO',
    );
    assert.equal(
      (await recusa(pedidoVisivel(banco, atores.consumidora, 999_999, TAXA))).codigo,
      'PEDIDO_NAO_ENCONTRADO',
    );
    // info sees it, and still may not confirm it for its owner.
    assert.equal((await pedidoVisivel(banco, atores.info, meu.pedidoId, TAXA)).pedidoId, meu.pedidoId);
    assert.deepEqual(await recusa(finalizarPedido(banco, atores.info, meu.pedidoId, opcoes)), {
      tipo: 'Proibido',
      codigo: 'PEDIDO_DE_OUTRA_PESSOA',
      detalhes: {},
    });
    assert.equal((await pedidoVisivel(banco, atores.consumidorFornecedor, meu.pedidoId, TAXA)).finalizado, false);
    const confirmado = await finalizarPedido(banco, atores.consumidorFornecedor, meu.pedidoId, opcoes);
    assert.equal(confirmado.finalizado, true);
    assert.equal(confirmado.dataConfirmacao, '2026-03-07T12:00:00');
  });

  test('a lista de pedidos do ciclo: cada consumidor vê só o seu; quem coordena e info veem todos', async () => {
    const todos = await pedidosVisiveis(banco, atores.admin, cicloid, TAXA);
    assert.ok(todos.length >= 3);
    assert.deepEqual(
      (await pedidosVisiveis(banco, atores.info, cicloid, TAXA)).map((p) => p.pedidoId),
      todos.map((p) => p.pedidoId),
    );
    assert.deepEqual(
      (await pedidosVisiveis(banco, atores.vizinha, cicloid, TAXA)).map((p) => p.usuario.id),
      [id(atores.vizinha)],
    );
    assert.deepEqual(await pedidosVisiveis(banco, atores.fornecedora, cicloid, TAXA), []);
    assert.deepEqual(await pedidosVisiveis(banco, semCadastro, cicloid, TAXA), []);
    assert.equal((await recusa(pedidosVisiveis(banco, atores.admin, 999_999, TAXA))).codigo, 'CICLO_NAO_ENCONTRADO');
  });

  test('oferta: quem não tem cadastro, quem não é fornecedor e quem oferta por outra pessoa', async () => {
    const final = { ...NA_OFERTA, finalizar: false };
    assert.equal((await recusa(salvarOferta(banco, semCadastro, oferta(null), final))).codigo, 'SEM_CADASTRO');
    assert.deepEqual(await recusa(salvarOferta(banco, atores.consumidora, oferta(null), final)), {
      tipo: 'Proibido',
      codigo: 'SEM_PERMISSAO',
      detalhes: {},
    });
    assert.equal(
      (await recusa(salvarOferta(banco, atores.fornecedora, oferta(id(atores.vizinho)), final))).codigo,
      'OFERTA_DE_OUTRA_PESSOA',
    );
    assert.equal(
      (await recusa(salvarOferta(banco, atores.info, oferta(id(atores.vizinho)), final))).codigo,
      'OFERTA_DE_OUTRA_PESSOA',
    );
    assert.deepEqual(await recusa(salvarOferta(banco, atores.admin, oferta(null), final)), {
      tipo: 'Invalido',
      codigo: 'VALIDACAO',
      detalhes: { usuarioid: 'Informe o fornecedor da oferta' },
    });
    assert.deepEqual(await recusa(salvarOferta(banco, atores.admin, oferta(id(atores.consumidora)), final)), {
      tipo: 'Invalido',
      codigo: 'VALIDACAO',
      detalhes: { usuarioid: 'Não há fornecedor com este id' },
    });
    assert.deepEqual(await recusa(salvarOferta(banco, atores.admin, oferta(999_999), final)), {
      tipo: 'Invalido',
      codigo: 'VALIDACAO',
      detalhes: { usuarioid: 'Não há fornecedor com este id' },
    });
    // An admin naming themselves without the fornecedor profile offers for nobody.
    assert.deepEqual(await recusa(salvarOferta(banco, atores.admin, oferta(id(atores.admin)), final)), {
      tipo: 'Invalido',
      codigo: 'VALIDACAO',
      detalhes: { usuarioid: 'Não há fornecedor com este id' },
    });
    const { oferta: propria, criada } = await salvarOferta(
      banco,
      atores.fornecedora,
      oferta(id(atores.fornecedora)),
      final,
    );
    assert.equal(criada, true);
    assert.equal(propria.usuarioid, id(atores.fornecedora));
    const { oferta: pelaAdmin } = await salvarOferta(banco, atores.admin, oferta(id(atores.vizinho)), final);
    assert.equal((await salvarOferta(banco, atores.admin, oferta(id(atores.vizinho)), final)).criada, false);
    assert.equal(pelaAdmin.usuarioid, id(atores.vizinho));
  });

  test('tirar uma linha da oferta: a linha de outro fornecedor "não existe"; quem coordena tira a de qualquer um', async () => {
    const linha = (await ofertaDe(banco, cicloid, id(atores.vizinho))).produtos[0]?.ofertaProdutoId ?? 0;
    assert.ok(linha > 0);
    assert.deepEqual(
      await recusa(apagarProdutoDaOferta(banco, atores.fornecedora, { ofertaProdutoId: linha }, NA_OFERTA)),
      { tipo: 'NaoEncontrado', codigo: 'LINHA_NAO_ENCONTRADA', detalhes: {} },
    );
    assert.equal(
      (await recusa(apagarProdutoDaOferta(banco, atores.info, { ofertaProdutoId: linha }, NA_OFERTA))).codigo,
      'LINHA_NAO_ENCONTRADA',
    );
    assert.equal(
      (
        await recusa(
          apagarProdutoDaOferta(
            banco,
            atores.fornecedora,
            { cicloid, produtoid, usuarioid: id(atores.vizinho) },
            NA_OFERTA,
          ),
        )
      ).codigo,
      'OFERTA_DE_OUTRA_PESSOA',
    );
    assert.equal(
      (await recusa(apagarProdutoDaOferta(banco, semCadastro, { ofertaProdutoId: linha }, NA_OFERTA))).codigo,
      'SEM_CADASTRO',
    );
    // Their own offer has no such product: not found, and nothing changes.
    const outro = (await criarProduto(banco)).id;
    assert.equal(
      (
        await recusa(
          apagarProdutoDaOferta(banco, atores.fornecedora, { cicloid, produtoid: outro, usuarioid: null }, NA_OFERTA),
        )
      ).codigo,
      'LINHA_NAO_ENCONTRADA',
    );
    assert.equal(
      (await recusa(apagarProdutoDaOferta(banco, atores.fornecedora, { ofertaProdutoId: 999_999 }, NA_OFERTA))).codigo,
      'LINHA_NAO_ENCONTRADA',
    );
    assert.equal((await ofertaDe(banco, cicloid, id(atores.vizinho))).produtos.length, 1);
    const depois = await apagarProdutoDaOferta(banco, atores.admin, { ofertaProdutoId: linha }, NA_OFERTA);
    assert.deepEqual([depois.usuarioid, depois.produtos.length, depois.finalizada], [id(atores.vizinho), 0, false]);
    const propria = await apagarProdutoDaOferta(
      banco,
      atores.fornecedora,
      { cicloid, produtoid, usuarioid: null },
      NA_OFERTA,
    );
    assert.deepEqual([propria.usuarioid, propria.produtos.length], [id(atores.fornecedora), 0]);
  });

  test('a lista de ofertas: cada fornecedor vê só as suas; quem coordena e info veem todas', async () => {
    await salvarOferta(banco, atores.vizinho, oferta(null), { ...NA_OFERTA, finalizar: true });
    await salvarOferta(banco, atores.fornecedora, oferta(null), { ...NA_OFERTA, finalizar: false });
    const todas = await ofertasVisiveis(banco, atores.admin, NA_OFERTA.hoje, cicloid);
    const resumo = (o: (typeof todas)[number]) => [
      o.fornecedor.nome,
      o.finalizada,
      o.itens,
      o.totalCentavos,
      o.ciclo.id,
      o.ciclo.fase,
    ];
    // The basket's own composition comes from a third supplier's offer (10 kg at R$ 1,00).
    assert.deepEqual(
      todas.filter((o) => o.fornecedor.id === compositor).map((o) => [o.finalizada, o.itens, o.totalCentavos]),
      [[true, 1, 1000]],
    );
    assert.deepEqual(todas.filter((o) => o.fornecedor.id !== compositor).map(resumo), [
      ['fornecedora', false, 1, 4000, cicloid, 'oferta'],
      ['vizinho', true, 1, 4000, cicloid, 'oferta'],
    ]);
    assert.deepEqual(
      (await ofertasVisiveis(banco, atores.info, NA_OFERTA.hoje, cicloid)).map(resumo),
      todas.map(resumo),
    );
    assert.deepEqual((await ofertasVisiveis(banco, atores.vizinho, NA_OFERTA.hoje, cicloid)).map(resumo), [
      ['vizinho', true, 1, 4000, cicloid, 'oferta'],
    ]);
    assert.deepEqual(
      (await ofertasVisiveis(banco, atores.vizinho, NA_OFERTA.hoje, null)).map((o) => o.fornecedor.id),
      [id(atores.vizinho)],
    );
    assert.deepEqual(await ofertasVisiveis(banco, atores.consumidora, NA_OFERTA.hoje, cicloid), []);
    await salvarOferta(banco, atores.consumidorFornecedor, oferta(null), { ...NA_OFERTA, finalizar: false });
    assert.deepEqual(await ofertasVisiveis(banco, semCadastro, NA_OFERTA.hoje, cicloid), []);
    assert.deepEqual(await ofertasVisiveis(banco, semCadastro, NA_OFERTA.hoje, null), []);
  });

  test('o comprovante de um pagamento: da pessoa dele e de quem coordena; para os demais "não existe"', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cestaria-comprovantes-'));
    const nome = '00000000-0000-4000-8000-000000000000.pdf';
    await writeFile(join(dir, nome), '%PDF-1.4');
    const iso = new Date().toISOString();
    const tipo = (await banco.selectFrom('tipomovimentacao').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    const mov = await banco
      .insertInto('movimentacao')
      .values({
        usuarioid: id(atores.consumidora),
        tipoMovimentacaoId: tipo,
        sentido: 'credito',
        valorCentavos: 100,
        data: '2026-03-07',
        descricao: 'Pix',
        arquivo: nome,
        cicloid: null,
        criadoPor: id(atores.admin),
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    try {
      for (const ator of [atores.vizinha, atores.info, atores.fornecedora, semCadastro]) {
        assert.deepEqual(
          await recusa(arquivoDaMovimentacao(banco, ator, mov.id, dir)),
          { tipo: 'NaoEncontrado', codigo: 'ARQUIVO_NAO_ENCONTRADO', detalhes: {} },
          ator.nome,
        );
      }
      for (const ator of [atores.consumidora, atores.admin]) {
        assert.deepEqual(await arquivoDaMovimentacao(banco, ator, mov.id, dir), {
          caminho: join(dir, nome),
          tipo: 'application/pdf',
          nome: `comprovante-${mov.id}.pdf`,
        });
      }
      assert.equal(
        (await recusa(arquivoDaMovimentacao(banco, atores.admin, 999_999, dir))).codigo,
        'ARQUIVO_NAO_ENCONTRADO',
      );
      await rm(join(dir, nome));
      assert.equal(
        (await recusa(arquivoDaMovimentacao(banco, atores.consumidora, mov.id, dir))).codigo,
        'ARQUIVO_NAO_ENCONTRADO',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
