/**
 * A whole cycle through HTTP with real logins: three suppliers offer (draft, then final), the
 * admin composes two basket types and publishes extras, five consumers order, change and
 * confirm, the cycle closes, and every movement and balance is exactly the one computed by hand
 * below. Fee: 2.50 % + R$ 1.00 per order.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor } from '../helpers/navegador.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

interface Resposta<T> {
  success: boolean;
  data: T;
  error: string;
}

const NA_OFERTA = '2026-03-02T15:00:00Z';
const NA_COMPOSICAO = '2026-03-05T15:00:00Z';
const NO_PEDIDO = '2026-03-07T15:00:00Z';
const DEPOIS = '2026-03-10T15:00:00Z';

describe('um ciclo inteiro, do começo ao fim', () => {
  const relogio = new RelogioDeTeste(NA_OFERTA);
  let amb: AmbienteDeTeste;
  const nav = new Map<string, Navegador>();
  const id = new Map<string, number>();
  let cicloid = 0;
  const cc = { pequena: 0, grande: 0 };

  async function entrar(nome: string, perfil: Array<'admin' | 'fornecedor' | 'consumidor'>): Promise<void> {
    const u = await criarUsuario(amb.banco, { perfil, nome });
    const n = new Navegador();
    await entrarPeloProvedor(n, `${amb.url}/`, { email: u.email });
    nav.set(nome, n);
    id.set(nome, u.id);
  }

  async function post<T>(quem: string, caminho: string, corpo: unknown, status = 200): Promise<T> {
    const r = await (nav.get(quem) ?? new Navegador()).postJson(`${amb.url}${caminho}`, corpo);
    assert.equal(r.status, status, `${quem} ${caminho}: ${r.texto}`);
    return r.json<Resposta<T>>().data;
  }

  before(async () => {
    amb = await iniciarAmbiente({ relogio, env: { TAXA_PEDIDO_PERCENTUAL: '2.50', TAXA_PEDIDO_FIXA: '1.00' } });
    for (const p of [
      ['tomate', 'kg', 900],
      ['alface', 'maço', 350],
      ['ovos', 'dúzia', 1800],
      ['mel', 'kg', 4000],
    ] as const) {
      id.set(p[0], (await criarProduto(amb.banco, { nome: p[0], unidade: p[1], valorCentavos: p[2] })).id);
    }
    const pequena = await criarCesta(amb.banco, { nome: 'Pequena', valorCentavos: 5000 });
    const grande = await criarCesta(amb.banco, { nome: 'Grande', valorCentavos: 8000 });
    const ciclo = await criarCiclo(amb.banco, {
      datas: DATAS_PADRAO,
      cestas: [
        { cestaId: pequena.id, quantidadeCestas: 10 },
        { cestaId: grande.id, quantidadeCestas: 5 },
      ],
    });
    cicloid = ciclo.id;
    [cc.pequena, cc.grande] = ciclo.cicloCestas as [number, number];
    id.set('p1', (await criarPonto(amb.banco)).id);
    await entrar('admin', ['admin']);
    for (const s of ['s1', 's2', 's3']) await entrar(s, ['fornecedor']);
    for (const c of ['c1', 'c2', 'c3', 'c4', 'c5']) await entrar(c, ['consumidor']);
  });
  after(() => amb.fechar());

  const linha = (produto: string, quantidade: string | number, valor: string | number) => ({
    produtoid: id.get(produto),
    quantidade,
    valor,
  });

  test('1. três fornecedores ofertam: rascunho, depois final', async () => {
    relogio.definir(NA_OFERTA);
    // Every route answers an offer in the contract's shape: `oferta.*` and `produtos[]` beside it.
    type OfertaJson = {
      oferta: { id: number; cicloid: number; usuarioid: number; finalizada: boolean; total: number };
      produtos: Array<{
        ofertaProdutoId: number;
        produtoid: number;
        nome: string;
        unidade: string;
        quantidade: number;
        valor: number;
      }>;
    };
    const rascunho = await post<OfertaJson>(
      's1',
      '/oferta',
      { cicloid, produtos: [linha('tomate', '30', '8.00')] },
      201,
    );
    assert.equal(rascunho.oferta.finalizada, false);
    assert.equal(rascunho.oferta.total, 240);
    // The contract's nested body (`oferta.cicloid`) reads the same as the flat one.
    const s1 = await post<OfertaJson>('s1', '/ofertasave', {
      oferta: { cicloid },
      produtos: [linha('tomate', '30', '8.00'), linha('alface', '40', '3.00')],
    });
    assert.deepEqual(
      [s1.oferta.cicloid, s1.oferta.usuarioid, s1.oferta.finalizada, s1.oferta.total, s1.produtos.length],
      [cicloid, id.get('s1'), true, 360, 2],
    );
    await post(
      's2',
      '/ofertasave',
      { cicloid, produtos: [linha('tomate', 20, 7.5), linha('ovos', '15', '16.00')] },
      201,
    );
    await post(
      's3',
      '/ofertasave',
      { cicloid, produtos: [linha('mel', '5', '35.00'), linha('alface', '10', '2.80')] },
      201,
    );
    const pagina = await nav.get('s1')?.getJson(`${amb.url}/oferta/${cicloid}`);
    const dados =
      pagina?.json<
        Resposta<OfertaJson & { produtosDisponiveis: Array<{ produtoid: number; ofertadoAntes: boolean }> }>
      >().data;
    assert.ok(dados);
    assert.deepEqual(
      { oferta: dados.oferta, produtos: dados.produtos },
      { oferta: s1.oferta, produtos: s1.produtos },
      'a página e o salvar respondem a mesma forma',
    );
    assert.equal(dados.oferta.usuarioid, id.get('s1'));
    assert.deepEqual(
      dados.produtos.map((p) => [p.nome, p.unidade, p.quantidade, p.valor]),
      [
        ['alface', 'maço', 40, 3],
        ['tomate', 'kg', 30, 8],
      ],
    );
    assert.deepEqual(
      dados.produtosDisponiveis.slice(0, 2).map((p) => p.ofertadoAntes),
      [true, true],
      'os produtos já ofertados vêm primeiro',
    );
  });

  test('2. a coordenação compõe duas cestas (com conversão de unidades) e publica extras', async () => {
    relogio.definir(NA_COMPOSICAO);
    const pagina = await nav.get('admin')?.getJson(`${amb.url}/composicao/${cc.pequena}`);
    const ofertas =
      pagina?.json<
        Resposta<{ ofertas: Array<{ ofertaProdutoId: number; produto: string; fornecedor: { id: number } }> }>
      >().data.ofertas ?? [];
    const linhaDe = (produto: string, fornecedor: string) =>
      ofertas.find((o) => o.produto === produto && o.fornecedor.id === id.get(fornecedor))?.ofertaProdutoId;
    const p = await post<{ custoPorCesta: number; valorReferencia: number }>('admin', `/composicao/${cc.pequena}`, {
      cicloCestaId: cc.pequena,
      quantidadeCestas: 10,
      produtos: [
        { ofertaProdutoId: linhaDe('tomate', 's1'), quantidadePorCesta: '1', unidade: 'kg' },
        { ofertaProdutoId: linhaDe('alface', 's1'), quantidadePorCesta: '2', unidade: 'maço' },
        { ofertaProdutoId: linhaDe('ovos', 's2'), quantidadePorCesta: '6', unidade: 'unidade' },
      ],
    });
    // 1 × 8.00 + 2 × 3.00 + 0.5 × 16.00
    assert.deepEqual([p.custoPorCesta, p.valorReferencia], [22, 50]);
    const g = await post<{
      custoPorCesta: number;
      ofertas: Array<{ produto: string; fornecedor: { id: number }; quantidadeDisponivel: number }>;
      fornecedores: Array<{ id: number; valorAcumulado: number }>;
    }>('admin', '/composicaosave', {
      cicloCestaId: cc.grande,
      quantidadeCestas: 5,
      produtos: [
        { ofertaProdutoId: linhaDe('tomate', 's2'), quantidadePorCesta: '2000', unidade: 'g' },
        { ofertaProdutoId: linhaDe('alface', 's3'), quantidadePorCesta: '2', unidade: 'maço' },
        { ofertaProdutoId: linhaDe('mel', 's3'), quantidadePorCesta: '0.5', unidade: 'kg' },
        { ofertaProdutoId: linhaDe('ovos', 's2'), quantidadePorCesta: '1', unidade: 'dúzia' },
      ],
    });
    // 2 × 7.50 + 2 × 2.80 + 0.5 × 35.00 + 1 × 16.00
    assert.equal(g.custoPorCesta, 54.1);
    assert.equal(
      g.ofertas.find((o) => o.produto === 'alface' && o.fornecedor.id === id.get('s3'))?.quantidadeDisponivel,
      0,
      'a alface de s3 está toda nas cestas',
    );
    // s2: ovos 5 × 16 (pequena) + tomate 10 × 7.50 + ovos 5 × 16 (grande)
    assert.equal(g.fornecedores.find((f) => f.id === id.get('s2'))?.valorAcumulado, 235);
    // Extras from what is left: tomato 20 + 10 kg, eggs 15 − 10 dozen.
    const r = await nav.get('admin')?.postJson(`${amb.url}/ciclo/${cicloid}`, {
      nome: 'Ciclo completo',
      ...DATAS_PADRAO,
      cicloProdutos: [
        { produtoId: id.get('tomate'), quantidade: '12', valor: '10.00' },
        { produtoId: id.get('ovos'), quantidade: '4', valor: '20.00' },
      ],
    });
    assert.equal(r?.status, 200, r?.texto);
    const demais = await nav.get('admin')?.postJson(`${amb.url}/ciclo/${cicloid}`, {
      nome: 'Ciclo completo',
      ...DATAS_PADRAO,
      cicloProdutos: [{ produtoId: id.get('ovos'), quantidade: '5.001', valor: '20.00' }],
    });
    assert.equal(demais?.status, 409, 'não se publica mais ovos que a sobra');
  });

  test('3. cinco consumidores pedem, mudam e confirmam', async () => {
    relogio.definir(NO_PEDIDO);
    const pagina = await nav.get('c1')?.getJson(`${amb.url}/pedidoconsumidores/${cicloid}`);
    const d = pagina?.json<
      Resposta<{
        cestas: Array<{
          cicloCestaId: number;
          nome: string;
          valor: number;
          disponivel: number;
          composicao: Array<{ produto: string; quantidade: number; unidade: string }>;
        }>;
        extras: Array<{ cicloProdutoId: number; nome: string; disponivel: number }>;
      }>
    >().data;
    assert.ok(d);
    assert.deepEqual(
      d.cestas.map((c) => [c.nome, c.valor, c.disponivel]),
      [
        ['Pequena', 50, 10],
        ['Grande', 80, 5],
      ],
    );
    // Eggs as the coordinator composed them (6 unidade), not normalised to 0,5 dúzia.
    assert.deepEqual(d.cestas[0]?.composicao, [
      { produto: 'alface', quantidade: 2, unidade: 'maço' },
      { produto: 'ovos', quantidade: 6, unidade: 'unidade' },
      { produto: 'tomate', quantidade: 1, unidade: 'kg' },
    ]);
    const extra = (nome: string) => d.extras.find((e) => e.nome === nome)?.cicloProdutoId;
    // A consumer's first save creates the order (201); later saves change it (200).
    // Every route answers an order in the contract's shape: `pedidoId`, `pedido.*` and `produtos[]`.
    type PedidoJson = {
      pedidoId: number;
      pedido: {
        usuario: { id: number; nome: string };
        finalizado: boolean;
        total: number;
        taxa: number;
        dataConfirmacao: string | null;
      };
      produtos: unknown[];
    };
    const pedir = async (quem: string, produtos: unknown[], status = 201) =>
      post<PedidoJson>(quem, '/pedidoconsumidores', { cicloid, pontoEntregaId: id.get('p1'), produtos }, status);
    const confirmar = (quem: string, pedidoId: number) =>
      post<PedidoJson>(quem, '/pedidoconsumidoresconfirmacao', { pedidoId });

    const p1 = await pedir('c1', [
      { cicloCestaId: cc.pequena, quantidade: 1, valor: 0.01 },
      { cicloProdutoId: extra('tomate'), quantidade: 2 },
    ]);
    assert.deepEqual([p1.pedido.total, p1.pedido.taxa], [70, 2.75], 'o valor enviado pelo cliente é ignorado');
    await confirmar('c1', p1.pedidoId);
    const p2 = await pedir('c2', [{ cicloCestaId: cc.grande, quantidade: 1 }]);
    const p2b = await pedir(
      'c2',
      [
        { cicloCestaId: cc.grande, quantidade: 2 },
        { cicloProdutoId: extra('ovos'), quantidade: 1 },
      ],
      200,
    );
    assert.equal(p2b.pedidoId, p2.pedidoId, 'um pedido por consumidor e ciclo');
    assert.deepEqual([p2b.pedido.total, p2b.pedido.taxa], [180, 5.5]);
    await confirmar('c2', p2.pedidoId);
    // The contract's nested body (`pedido.cicloid`, `pedido.pontoEntregaId`) reads the same as the flat one.
    const p3 = await post<PedidoJson>(
      'c3',
      '/pedidoconsumidores',
      { pedido: { cicloid, pontoEntregaId: id.get('p1') }, produtos: [{ cicloCestaId: cc.pequena, quantidade: 2 }] },
      201,
    );
    assert.deepEqual([p3.pedido.usuario.nome, p3.pedido.total, p3.produtos.length], ['c3', 100, 1]);
    await confirmar('c3', p3.pedidoId);
    const p4 = await pedir('c4', [
      { cicloCestaId: cc.pequena, quantidade: 1 },
      { cicloProdutoId: extra('tomate'), quantidade: '0.5' },
    ]);
    assert.equal((await confirmar('c4', p4.pedidoId)).pedido.finalizado, true);
    const p4b = await nav.get('c4')?.postJson(`${amb.url}/pedidoconsumidores`, {
      cicloid,
      pontoEntregaId: id.get('p1'),
      produtos: [
        { cicloCestaId: cc.pequena, quantidade: 1 },
        { cicloProdutoId: extra('tomate'), quantidade: '1.5' },
      ],
    });
    const reaberto = p4b?.json<Resposta<PedidoJson>>().data.pedido;
    assert.deepEqual(
      [reaberto?.finalizado, reaberto?.total, reaberto?.taxa],
      [false, 65, 2.63],
      'mudar um pedido confirmado reabre; 1.625 arredonda para 1.63',
    );
    await confirmar('c4', p4.pedidoId);
    assert.equal((await confirmar('c4', p4.pedidoId)).pedido.finalizado, true, 'confirmar duas vezes não muda nada');
    await pedir('c5', [{ cicloCestaId: cc.grande, quantidade: 1 }]);
    const todos = await nav.get('admin')?.getJson(`${amb.url}/pedidosconsumidorestodos/${cicloid}`);
    const lista = todos?.json<Resposta<{ itens: PedidoJson[] }>>().data.itens ?? [];
    assert.deepEqual(
      lista.map(({ pedido: p }) => [p.usuario.nome, p.finalizado, p.total]),
      [
        ['c1', true, 70],
        ['c2', true, 180],
        ['c3', true, 100],
        ['c4', true, 65],
        ['c5', false, 80],
      ],
    );
    assert.match(lista[0]?.pedido.dataConfirmacao ?? '', /^2026-03-07T12:00:00$/, 'hora local de São Paulo, sem fuso');
    const meus = await nav.get('c3')?.getJson(`${amb.url}/pedidosconsumidorestodos/${cicloid}`);
    assert.deepEqual(
      meus?.json<Resposta<{ itens: PedidoJson[] }>>().data.itens.map((p) => p.pedido.usuario.nome),
      ['c3'],
      'um consumidor vê só o seu',
    );
  });

  test('4 e 5. o ciclo fecha e as movimentações e saldos são exatamente os calculados à mão', async () => {
    relogio.definir(NO_PEDIDO);
    assert.equal(
      (await nav.get('admin')?.postJson(`${amb.url}/fecharciclo/${cicloid}`, {}))?.status,
      409,
      'antes do fim dos pedidos não fecha',
    );
    relogio.definir(DEPOIS);
    // Eight days after the first logins the week-long sessions have ended: log in again.
    for (const quem of ['admin', 's2', 'c3']) {
      const n = new Navegador();
      const email = (
        await amb.banco
          .selectFrom('usuario')
          .select('email')
          .where('id', '=', id.get(quem) ?? 0)
          .executeTakeFirstOrThrow()
      ).email;
      await entrarPeloProvedor(n, `${amb.url}/`, { email });
      nav.set(quem, n);
    }
    const fechamento = await post<{ novas: number; debitos: number; creditos: number }>(
      'admin',
      `/fecharciclo/${cicloid}`,
      {},
    );
    // Debits: c1 70 + 2.75, c2 180 + 5.50, c3 100 + 3.50, c4 65 + 2.63 (c5 never confirmed).
    // Credits: s1 32 + 24; s2 32 + 30 + 32 + 3.5 kg × 7.50 extras + 16; s3 11.20 + 35.
    assert.deepEqual(fechamento, { ...fechamento, novas: 11, debitos: 429.38, creditos: 238.45 });
    const outra = await post<{ novas: number }>('admin', `/fecharciclo/${cicloid}`, {});
    assert.equal(outra.novas, 0, 'fechar de novo não muda nada');
    const saldo = async (quem: string) => {
      const r = await amb.banco
        .selectFrom('movimentacao')
        .select(['sentido', 'valorCentavos'])
        .where('usuarioid', '=', id.get(quem) ?? 0)
        .execute();
      return r.reduce((s, m) => s + (m.sentido === 'credito' ? m.valorCentavos : -m.valorCentavos), 0);
    };
    const esperado: Record<string, number> = {
      c1: -7275,
      c2: -18550,
      c3: -10350,
      c4: -6763,
      c5: 0,
      s1: 5600,
      s2: 13625,
      s3: 4620,
    };
    for (const [quem, centavos] of Object.entries(esperado)) assert.equal(await saldo(quem), centavos, quem);
    const painel = await nav.get('s2')?.getJson(`${amb.url}/`);
    assert.deepEqual(painel?.json<Resposta<{ saldo: { saldo: number } }>>().data.saldo.saldo, 136.25);
    // A payment received settles c1's balance.
    const pago = await nav.get('admin')?.postJson(`${amb.url}/movimentacao`, {
      usuarioid: id.get('c1'),
      tipoMovimentacaoId: 4,
      valor: '72.75',
      descricao: 'Pix',
      cicloid,
    });
    assert.equal(pago?.status, 201, pago?.texto);
    assert.equal(await saldo('c1'), 0);
    // After closing, consumers can no longer change their orders.
    const tarde = await nav.get('c3')?.postJson(`${amb.url}/pedidoconsumidores`, {
      cicloid,
      pontoEntregaId: id.get('p1'),
      produtos: [{ cicloCestaId: cc.pequena, quantidade: 1 }],
    });
    assert.equal(tarde?.status, 409);
  });
});
