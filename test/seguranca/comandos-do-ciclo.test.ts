import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { criarMercadoNoBanco } from '../mercados/apoio.ts';
import {
  DATAS_PADRAO,
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';
import { csrfDe, entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

/**
 * Hostile input through real HTTP against the coordination's commands of a cycle: the basket
 * composition (ComporCesta), the cycle itself (SalvarCiclo), its lots (SalvarLote) and what is
 * released to a market (LiberarParaMercado). Nobody else gets past the door, whatever the body;
 * wrong types, out-of-range numbers and blank rows get the field's Portuguese message (400, never
 * a 500), and a refused write writes nothing.
 */
describe('comandos do ciclo: composição, ciclo, lotes e liberação recusam entrada hostil', () => {
  const relogio = new RelogioDeTeste('2026-03-05T15:00:00Z');
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  let fornecedor: Pessoa;
  let cicloid = 0;
  let cicloCestaId = 0;
  let linha = 0;
  let produtoId = 0;
  let ponto = 0;
  let mercadoLote = 0;
  let mercadoFeira = 0;
  const url = (p: string) => `${amb.url}${p}`;

  interface Recusa {
    error: string;
    details?: Record<string, unknown>;
  }

  before(async () => {
    amb = await iniciarAmbiente({ relogio });
    admin = await entrarComo(amb, ['admin']);
    fornecedor = await entrarComo(amb, ['fornecedor', 'consumidor']);
    const cesta = await criarCesta(amb.banco);
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
    });
    cicloid = ciclo.id;
    cicloCestaId = ciclo.cicloCestas[0] ?? 0;
    produtoId = (await criarProduto(amb.banco, { unidade: 'kg' })).id;
    const ana = await criarUsuario(amb.banco, { perfil: ['fornecedor'] });
    [linha = 0] = (
      await criarOfertaFinalizada(
        amb.banco,
        cicloid,
        [{ produtoId, quantidadeMilesimos: 100_000, valorCentavos: 400 }],
        ana.id,
      )
    ).linhas;
    ponto = (await criarPonto(amb.banco)).id;
    const iso = new Date().toISOString();
    const adminId = (
      await amb.banco
        .insertInto('appuser')
        .values({
          providerId: 'idp|comandos',
          email: 'comandos@mercados.org',
          emailChave: 'comandos@mercados.org',
          name: 'Dono',
          avatar: null,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    mercadoLote = (await criarMercadoNoBanco(amb.banco, { adminId, tipo: 'lote' })).id;
    mercadoFeira = (await criarMercadoNoBanco(amb.banco, { adminId, tipo: 'venda_direta' })).id;
    const mercados = await admin.nav.postJson(url(`/ciclo/${cicloid}/mercados`), {
      cicloMercados: [
        { mercadoId: mercadoLote, ordemAtendimento: 1 },
        { mercadoId: mercadoFeira, ordemAtendimento: 2 },
      ],
    });
    assert.equal(mercados.status, 200, mercados.texto);
  });
  after(() => amb.fechar());

  /** What the cycle's writes have stored, to prove a refusal stored nothing. */
  async function gravado(): Promise<string> {
    const contagens = [];
    for (const t of ['ciclo', 'ciclocesta', 'cicloproduto', 'composicaoproduto', 'lote', 'loteproduto'] as const)
      contagens.push(
        (
          await amb.banco
            .selectFrom(t)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const c = await amb.banco
      .selectFrom('ciclocesta')
      .select('quantidadeCestas')
      .where('id', '=', cicloCestaId)
      .executeTakeFirstOrThrow();
    return `${contagens.join(',')}/${c.quantidadeCestas}`;
  }

  /** Posts a hostile JSON body as the coordination: 400 with exactly these messages, and nothing stored. */
  async function recusado(caminho: string, corpo: unknown, esperado: Record<string, string>) {
    const antes = await gravado();
    const r = await admin.nav.postJson(url(caminho), corpo);
    assert.equal(r.status, 400, `${caminho}: ${r.texto.slice(0, 300)}`);
    const e = r.json<Recusa>();
    assert.equal(e.error, 'Verifique os campos destacados');
    assert.deepEqual(e.details, esperado, caminho);
    assert.equal(await gravado(), antes, `${caminho} recusado, mas gravou algo`);
  }

  test('quem não coordena recebe 403 antes de qualquer validação, com qualquer corpo', async () => {
    const antes = await gravado();
    const csrf = await csrfDe(amb, fornecedor.nav);
    for (const caminho of [
      `/composicao/${cicloCestaId}`,
      '/composicaosave',
      `/ciclo/${cicloid}`,
      '/ciclo',
      `/ciclo/${cicloid}/lotes`,
      `/ciclo/${cicloid}/mercado/${mercadoFeira}/liberar`,
    ]) {
      for (const corpo of [
        { quantidadeCestas: 'x', produtos: 'lixo', itens: [{ produtoId: -1 }], linhas: 7, nome: 5 },
        { quantidadeCestas: 1, produtos: [{ ofertaProdutoId: linha, quantidadePorCesta: 1, unidade: 'kg' }] },
      ]) {
        const json = await fornecedor.nav.postJson(url(caminho), corpo);
        assert.equal(json.status, 403, `${caminho}: ${json.texto.slice(0, 200)}`);
        assert.equal(json.json<Recusa>().details, undefined, 'nenhuma mensagem de campo');
      }
      const form = await fornecedor.nav.post(
        url(caminho),
        { form: { _csrf: csrf, quantidadeCestas: '-1', 'produtos[0][ofertaProdutoId]': 'abc', nome: '' } },
        { headers: { accept: 'text/html' } },
      );
      assert.equal(form.status, 403, caminho);
    }
    assert.equal(await gravado(), antes);
  });

  test('composição: tipos errados, números fora da faixa, o cesto de outro endereço, e nada gravado', async () => {
    await recusado(
      `/composicao/${cicloCestaId}`,
      {
        quantidadeCestas: 1.5,
        produtos: [
          { ofertaProdutoId: 'abc', quantidadePorCesta: '1', unidade: 'kg' },
          { ofertaProdutoId: linha, quantidadePorCesta: '1,5', unidade: 5 },
          { ofertaProdutoId: 2_147_483_648, quantidadePorCesta: 1, unidade: 'x'.repeat(21) },
          'linha',
        ],
      },
      {
        quantidadeCestas: 'Deve ser um número inteiro',
        'produtos.0.ofertaProdutoId': 'Deve ser um número inteiro',
        'produtos.1.quantidadePorCesta': 'Use ponto como separador decimal (ex.: 12.50)',
        'produtos.1.unidade': 'Deve ser um texto',
        'produtos.2.ofertaProdutoId': 'Deve ser no máximo 2147483647',
        'produtos.2.unidade': 'Deve ter no máximo 20 caracteres',
        'produtos.3': 'Deve ser um objeto',
      },
    );
    await recusado(
      `/composicao/${cicloCestaId}`,
      { quantidadeCestas: 100_001, produtos: [{ ofertaProdutoId: linha, quantidadePorCesta: -1, unidade: 'kg' }] },
      { quantidadeCestas: 'Deve ser no máximo 100000', 'produtos.0.quantidadePorCesta': 'Não pode ser negativo' },
    );
    await recusado(
      `/composicao/${cicloCestaId}`,
      { quantidadeCestas: 1, produtos: Array.from({ length: 501 }, () => ({ quantidadePorCesta: 1 })) },
      { produtos: 'No máximo 500 itens por composição' },
    );
    await recusado('/composicaosave', { quantidadeCestas: 1 }, { cicloCestaId: 'Campo obrigatório' });
    await recusado(
      `/composicao/${cicloCestaId}`,
      { cicloCestaId: cicloCestaId + 1, quantidadeCestas: 1 },
      { cicloCestaId: 'Não confere com o endereço' },
    );
    await recusado(
      '/composicaosave',
      { cicloCestaId: 'x', quantidadeCestas: 1 },
      {
        cicloCestaId: 'Deve ser um número inteiro',
      },
    );
  });

  test('composição por formulário: as linhas de sobra em branco ficam de fora, e a vírgula decimal vale', async () => {
    const csrf = await csrfDe(amb, admin.nav);
    const r = await admin.nav.post(
      url('/composicaosave'),
      {
        form: {
          _csrf: csrf,
          cicloCestaId: String(cicloCestaId),
          quantidadeCestas: '4',
          'produtos[0][ofertaProdutoId]': String(linha),
          'produtos[0][quantidadePorCesta]': '1,5',
          'produtos[0][unidade]': 'kg',
          'produtos[1][ofertaProdutoId]': String(linha),
          'produtos[1][quantidadePorCesta]': '',
          'produtos[1][unidade]': 'kg',
          'produtos[2][ofertaProdutoId]': String(linha),
          'produtos[2][quantidadePorCesta]': '0',
          'produtos[2][unidade]': 'kg',
        },
      },
      { headers: { accept: 'text/html' }, seguir: false },
    );
    assert.equal(r.status, 303, r.texto.slice(0, 300));
    const itens = await amb.banco
      .selectFrom('composicaoproduto as cp')
      .innerJoin('composicao as c', 'c.id', 'cp.composicaoid')
      .select(['cp.ofertaProdutoId', 'cp.quantidadePorCestaMilesimos as quantidadeMilesimos'])
      .where('c.cicloCestaId', '=', cicloCestaId)
      .execute();
    assert.deepEqual(itens, [{ ofertaProdutoId: linha, quantidadeMilesimos: 1500 }]);
    // A refused form comes back drawn with what was typed.
    const recusado = await admin.nav.post(
      url(`/composicao/${cicloCestaId}`),
      {
        form: {
          _csrf: csrf,
          quantidadeCestas: '4',
          'produtos[0][ofertaProdutoId]': String(linha),
          'produtos[0][quantidadePorCesta]': '1,5 caixas',
          'produtos[0][unidade]': 'kg',
        },
      },
      { headers: { accept: 'text/html' } },
    );
    assert.equal(recusado.status, 400);
    assert.match(recusado.texto, /Digite um número|Verifique/);
    assert.match(recusado.texto, /value="1,5 caixas"/);
  });

  test('ciclo: tipos errados, datas e horários inválidos, caixa que não é caixa; nada gravado', async () => {
    const datas = { ...DATAS_PADRAO };
    await recusado(
      `/ciclo/${cicloid}`,
      {
        nome: 5,
        ...datas,
        dataOfertaInicio: '2026-02-30',
        dataPedidoFim: 20260310,
        ativo: 'talvez',
        cicloCestas: [{ cestaId: -1, quantidadeCestas: 'x' }, { cestaId: 1 }],
        cicloPontos: [{ pontoEntregaId: ponto, horaInicio: '25:00', dataRetirada: 'amanhã' }],
        cicloProdutos: [{ produtoId, quantidade: '1,5', valor: 1e12 }],
        cicloEntregas: 'nada',
      },
      {
        nome: 'Deve ser um texto',
        dataOfertaInicio: 'Data inválida: use AAAA-MM-DD',
        dataPedidoFim: 'Deve ser um texto',
        ativo: 'Deve ser verdadeiro ou falso',
        'cicloCestas.0.cestaId': 'Deve ser no mínimo 1',
        'cicloCestas.0.quantidadeCestas': 'Deve ser um número inteiro',
        'cicloCestas.1.quantidadeCestas': 'Campo obrigatório',
        'cicloPontos.0.horaInicio': 'Horário inválido: use HH:MM, por exemplo 08:30',
        'cicloPontos.0.dataRetirada': 'Data inválida: use AAAA-MM-DD',
        'cicloProdutos.0.quantidade': 'Use ponto como separador decimal (ex.: 12.50)',
        'cicloProdutos.0.valor': 'Valor grande demais',
        cicloEntregas: 'Deve ser uma lista',
      },
    );
    // The rules are judged with the reading, on what could be read.
    await recusado(
      '/ciclo',
      {
        nome: 'x'.repeat(121),
        ...datas,
        dataOfertaFim: '2026-01-01',
        cicloCestas: [
          { cestaId: 1, quantidadeCestas: 1 },
          { cestaId: 1, quantidadeCestas: 2 },
        ],
      },
      {
        nome: 'Deve ter no máximo 120 caracteres',
        dataOfertaFim: 'Deve ser igual ou posterior ao início das ofertas',
        'cicloCestas.1.cestaId': 'Item repetido na lista',
      },
    );
    await recusado(
      '/ciclo',
      {},
      Object.fromEntries(['nome', ...Object.keys(datas)].map((k) => [k, 'Campo obrigatório'])),
    );
  });

  test('ciclo por formulário: só as listas de _listas são trocadas, sem as linhas em branco', async () => {
    const csrf = await csrfDe(amb, admin.nav);
    const r = await admin.nav.post(
      url(`/ciclo/${cicloid}`),
      {
        form: {
          _csrf: csrf,
          nome: ' Ciclo hostil ',
          ...DATAS_PADRAO,
          ativo: ['false', 'on'],
          _listas: 'cicloPontos',
          'cicloPontos[0][pontoEntregaId]': String(ponto),
          'cicloPontos[0][horaInicio]': '8h30',
          'cicloPontos[1][pontoEntregaId]': '',
          'cicloPontos[1][horaInicio]': '',
          // Not in _listas: neither read nor replaced.
          'cicloCestas[0][cestaId]': 'lixo',
        },
      },
      { headers: { accept: 'text/html' }, seguir: false },
    );
    assert.equal(r.status, 303, r.texto.slice(0, 300));
    const salvo = await amb.banco
      .selectFrom('ciclo')
      .select(['nome', 'ativo'])
      .where('id', '=', cicloid)
      .executeTakeFirstOrThrow();
    assert.deepEqual({ ...salvo, ativo: Boolean(salvo.ativo) }, { nome: 'Ciclo hostil', ativo: true });
    const pontos = await amb.banco
      .selectFrom('ciclopontoentrega')
      .select(['pontoEntregaId', 'horaInicio'])
      .where('cicloid', '=', cicloid)
      .execute();
    assert.deepEqual(pontos, [{ pontoEntregaId: ponto, horaInicio: '08:30' }]);
    const cestas = await amb.banco.selectFrom('ciclocesta').select('id').where('cicloid', '=', cicloid).execute();
    assert.deepEqual(cestas, [{ id: cicloCestaId }], 'as cestas do ciclo ficam como estavam');
  });

  test('lote: tipos errados, números fora da faixa, linhas que não são linhas; nada gravado', async () => {
    await recusado(
      `/ciclo/${cicloid}/lotes`,
      {
        mercadoId: 'x',
        comprador: '   ',
        compradorUsuarioId: 0,
        valorAlvo: '1,5',
        linhas: [{ ofertaProdutoId: linha, quantidade: 'dois' }, { quantidade: 1 }, 3],
      },
      {
        mercadoId: 'Deve ser um número inteiro',
        comprador: 'Campo obrigatório',
        compradorUsuarioId: 'Deve ser no mínimo 1',
        pontoEntregaId: 'Campo obrigatório',
        valorAlvo: 'Use ponto como separador decimal (ex.: 12.50)',
        'linhas.0.quantidade': 'Deve ser um número com ponto decimal (ex.: 12.50)',
        'linhas.1.ofertaProdutoId': 'Campo obrigatório',
        'linhas.2': 'Deve ser um objeto',
      },
    );
    await recusado(
      `/ciclo/${cicloid}/lotes`,
      {
        mercadoId: mercadoLote,
        comprador: 'Escola',
        pontoEntregaId: ponto,
        valorAlvo: 10_000_001,
        linhas: [{ ofertaProdutoId: linha, quantidade: 10_001 }],
      },
      { valorAlvo: 'Use no máximo 10.000.000,00', 'linhas.0.quantidade': 'Use no máximo 10.000' },
    );
    // The lot's own rules, once the fields are read: no lines, a line twice.
    await recusado(
      `/ciclo/${cicloid}/lotes`,
      { mercadoId: mercadoLote, comprador: 'Escola', pontoEntregaId: ponto, valorAlvo: 10, linhas: [] },
      { linhas: 'Escolha pelo menos uma linha das ofertas' },
    );
    const criado = await admin.nav.postJson(url(`/ciclo/${cicloid}/lotes`), {
      mercadoId: String(mercadoLote),
      comprador: ' Escola ',
      pontoEntregaId: ponto,
      valorAlvo: '10.50',
      linhas: [{ ofertaProdutoId: linha, quantidade: 2 }],
    });
    assert.equal(criado.status, 201, criado.texto);
    const lote = criado.json<{ data: { comprador: string; valorAlvo: number } }>().data;
    assert.deepEqual(
      { comprador: lote.comprador, valorAlvo: lote.valorAlvo },
      { comprador: 'Escola', valorAlvo: 10.5 },
    );
  });

  test('liberação: lista que não é lista, quantidades fora da faixa, unidades digitadas; nada gravado', async () => {
    const caminho = `/ciclo/${cicloid}/mercado/${mercadoFeira}/liberar`;
    await recusado(caminho, { itens: 'nada' }, { itens: 'Deve ser uma lista' });
    await recusado(
      caminho,
      {
        itens: [
          { produtoId: 'x', quantidade: 1 },
          { produtoId, quantidade: 10_001 },
          { produtoId, quantidade: -2 },
        ],
      },
      {
        'itens.0.produtoId': 'Deve ser um número inteiro',
        'itens.1.quantidade': 'Use no máximo 10.000',
        'itens.2.quantidade': 'Não pode ser negativo',
      },
    );
    await recusado(
      caminho,
      { itens: Array.from({ length: 501 }, () => ({ produtoId, quantidade: 1 })) },
      {
        itens: 'No máximo 500 itens',
      },
    );
    const csrf = await csrfDe(amb, admin.nav);
    const form = await admin.nav.post(
      url(caminho),
      {
        form: {
          _csrf: csrf,
          'itens[0][produtoId]': String(produtoId),
          'itens[0][quantidade]': '2,5 kg',
          'itens[1][produtoId]': String(produtoId),
          'itens[1][quantidade]': '0',
        },
      },
      { headers: { accept: 'text/html' } },
    );
    // No price for the product in this market: the use case refuses, and the page comes back with what was typed.
    assert.ok(form.status >= 400 && form.status < 500, `${form.status}: ${form.texto.slice(0, 300)}`);
    assert.match(form.texto, /2,5 kg/);
  });
});
