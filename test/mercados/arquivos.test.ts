import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { COOKIE_SESSAO } from '../../src/mercados/sessao.ts';
import { TIPO_XLSX } from '../../src/planilhas/xlsx.ts';
import { cicloComMercados, type CicloComMercados } from '../helpers/ciclo-com-mercados.ts';
import { abrirComoPlanilha, semLibreOffice } from '../helpers/libreoffice.ts';
import { Navegador } from '../helpers/navegador.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { entrarComo } from '../helpers/sessoes.ts';
import { contaComSessao, entrarNoMercados } from './apoio.ts';

/**
 * The Mercados face's files (issue 36, item 4), through real HTTP: a market's orders in a cycle and
 * its price list (the market's AdminMercado or the Administrador), and a supplier's deliveries in
 * a cycle (Fornecedor), each guarded by the spec's hasAnyProfile / hasProfile middleware, with its
 * 401 and 403 bodies. The cycle is cicloComMercados': the Feira market (fee 10 %) sells tomatoes
 * at R$ 6,00; Rita buys 2 kg and Sérgio 21 kg there.
 */

interface Baixado {
  readonly status: number;
  readonly tipo: string;
  readonly anexo: string;
  readonly bytes: Uint8Array;
  readonly texto: string;
}

const NAO_AUTENTICADO = '{"error":"Não autenticado"}';
const SO_GESTAO = '{"error":"Acesso negado","required":"Um dos perfis: Administrador, AdminMercado"}';
const SO_FORNECEDOR = '{"error":"Acesso negado","required":"Fornecedor"}';

describe('os arquivos da face Mercados (pedidos e preços do mercado, entregas do fornecedor)', () => {
  let amb: AmbienteDeTeste;
  let c: CicloComMercados;
  const navs = {
    anonimo: new Navegador(),
    dono: new Navegador(),
    outroDono: new Navegador(),
    administrador: new Navegador(),
    consumidor: new Navegador(),
    ana: new Navegador(),
    beto: new Navegador(),
    semCadastro: new Navegador(),
  };
  let tomate = 0;
  let pedidos: { rita: number; sergio: number };

  before(async () => {
    amb = await iniciarAmbiente({ mercados: true, relogio: new RelogioDeTeste('2026-03-05T15:00:00Z') });
    const coordenacao = await entrarComo(amb, ['admin']);
    const { conta: dono } = await contaComSessao(amb, navs.dono, amb.urlMercados, { perfis: ['AdminMercado'] });
    c = await cicloComMercados(amb, coordenacao, dono.id);
    await contaComSessao(amb, navs.outroDono, amb.urlMercados, { perfis: ['AdminMercado'] });
    await contaComSessao(amb, navs.administrador, amb.urlMercados, { perfis: ['Administrador'] });
    await contaComSessao(amb, navs.consumidor, amb.urlMercados, { perfis: ['Consumidor'] });
    await contaComSessao(amb, navs.semCadastro, amb.urlMercados, { perfis: ['Fornecedor'] });
    // The suppliers log in through the real provider: their accounts link to their Cestas records.
    await entrarNoMercados(amb, navs.ana, { email: c.ana.email, nome: c.ana.nome });
    await entrarNoMercados(amb, navs.beto, { email: c.beto.email, nome: c.beto.nome });
    tomate = (
      await amb.banco.selectFrom('produto').select('id').where('nome', '=', `Tomate ${c.id}`).executeTakeFirstOrThrow()
    ).id;
    const porNome = await amb.banco
      .selectFrom('pedido as p')
      .innerJoin('usuario as u', 'u.id', 'p.usuarioid')
      .select(['p.id', 'u.nome'])
      .where('p.cicloid', '=', c.cicloid)
      .execute();
    const id = (nome: string) => porNome.find((p) => p.nome === nome)?.id ?? 0;
    pedidos = { rita: id(`Rita ${c.id}`), sergio: id(`Sérgio ${c.id}`) };
  });
  after(() => amb.fechar());

  /** A file as the browser downloads it, with the session cookie of this browser (if any). */
  async function baixar(nav: Navegador, caminho: string): Promise<Baixado> {
    const cookie = nav.cookie(amb.urlMercados, COOKIE_SESSAO);
    const r = await fetch(`${amb.urlMercados}${caminho}`, {
      headers: {
        accept: 'application/json',
        ...(cookie === undefined ? {} : { cookie: `${COOKIE_SESSAO}=${cookie}` }),
      },
      redirect: 'manual',
    });
    const bytes = new Uint8Array(await r.arrayBuffer());
    return {
      status: r.status,
      tipo: r.headers.get('content-type') ?? '',
      anexo: r.headers.get('content-disposition') ?? '',
      bytes,
      texto: new TextDecoder().decode(bytes),
    };
  }

  const pedidosDaFeira = (consulta = `?cicloId=${String(c.cicloid)}`) =>
    `/planilhas/mercados/${c.mFeira.id}/pedidos${consulta}`;
  const precosDaFeira = (consulta = '') => `/planilhas/mercados/${c.mFeira.id}/precos${consulta}`;
  const entregas = (consulta = '') => `/planilhas/ciclos/${c.cicloid}/entregas${consulta}`;

  test('sem sessão: 401 com o corpo do contrato, {error: "Não autenticado"}, nas três rotas', async () => {
    for (const caminho of [pedidosDaFeira(), precosDaFeira(), entregas()]) {
      const r = await baixar(navs.anonimo, caminho);
      assert.equal(r.status, 401, caminho);
      assert.equal(r.texto, NAO_AUTENTICADO, caminho);
    }
  });

  test('sem o perfil: 403 {error: "Acesso negado", required} com quem pode', async () => {
    for (const caminho of [pedidosDaFeira(), precosDaFeira()]) {
      for (const nav of [navs.consumidor, navs.ana]) {
        const r = await baixar(nav, caminho);
        assert.equal(r.status, 403, caminho);
        assert.equal(r.texto, SO_GESTAO, caminho);
      }
    }
    for (const nav of [navs.consumidor, navs.administrador, navs.dono]) {
      const r = await baixar(nav, entregas());
      assert.equal(r.status, 403);
      assert.equal(r.texto, SO_FORNECEDOR);
    }
  });

  test('o AdminMercado de outro mercado: 403 com o mesmo corpo, dizendo de qual mercado', async () => {
    for (const caminho of [pedidosDaFeira(), precosDaFeira(), precosDaFeira('?formato=csv')]) {
      const r = await baixar(navs.outroDono, caminho);
      assert.equal(r.status, 403, caminho);
      assert.deepEqual(JSON.parse(r.texto), {
        error: 'Acesso negado',
        required: `Administrador, ou o AdminMercado do mercado Feira ${c.id}`,
      });
    }
  });

  test('recusas em português: mercado ou ciclo desconhecido (404), cicloId ausente ou inválido (400), formato inválido (400)', async () => {
    const semMercado = await baixar(navs.administrador, `/planilhas/mercados/999999/pedidos?cicloId=${c.cicloid}`);
    assert.equal(semMercado.status, 404);
    assert.deepEqual(JSON.parse(semMercado.texto), { error: 'Mercado não encontrado' });
    assert.equal((await baixar(navs.administrador, '/planilhas/mercados/999999/precos')).status, 404);
    const semCiclo = await baixar(navs.dono, pedidosDaFeira('?cicloId=999999'));
    assert.equal(semCiclo.status, 404);
    assert.deepEqual(JSON.parse(semCiclo.texto), { error: 'Não encontramos o ciclo 999999' });
    const semCicloId = await baixar(navs.dono, pedidosDaFeira(''));
    assert.equal(semCicloId.status, 400);
    assert.deepEqual(JSON.parse(semCicloId.texto), {
      error: 'Parâmetro inválido no endereço',
      details: { cicloId: 'Campo obrigatório' },
    });
    const cicloRuim = await baixar(navs.dono, pedidosDaFeira('?cicloId=abc'));
    assert.equal(cicloRuim.status, 400);
    assert.deepEqual(JSON.parse(cicloRuim.texto).details, { cicloId: 'Deve ser um número inteiro' });
    const formatoRuim = await baixar(navs.dono, precosDaFeira('?formato=pdf'));
    assert.equal(formatoRuim.status, 400);
    assert.deepEqual(JSON.parse(formatoRuim.texto).details, { formato: 'Valor inválido: use xlsx, csv' });
    const entregasSemCiclo = await baixar(navs.ana, '/planilhas/ciclos/999999/entregas');
    assert.equal(entregasSemCiclo.status, 404);
    assert.deepEqual(JSON.parse(entregasSemCiclo.texto), { error: 'Não encontramos o ciclo 999999' });
  });

  test('pedidos do mercado em CSV: cada pedido com as linhas compradas no mercado e a taxa dele, decimais com ponto', async () => {
    const esperado = [
      'Pedido,Consumidor,Ponto de retirada,Situação,Tipo,Item,Quantidade,Unidade,Preço (R$),Subtotal (R$)',
      `${pedidos.rita},Rita ${c.id},Sede ${c.id},Confirmado,Produto,Tomate ${c.id},2,kg,6.00,12.00`,
      `${pedidos.rita},Rita ${c.id},Sede ${c.id},Confirmado,Taxa,Taxa de Feira ${c.id},,,,1.20`,
      `${pedidos.sergio},Sérgio ${c.id},Sede ${c.id},Confirmado,Produto,Tomate ${c.id},21,kg,6.00,126.00`,
      `${pedidos.sergio},Sérgio ${c.id},Sede ${c.id},Confirmado,Taxa,Taxa de Feira ${c.id},,,,12.60`,
      '',
    ].join('\n');
    for (const nav of [navs.dono, navs.administrador]) {
      const r = await baixar(nav, pedidosDaFeira(`?cicloId=${c.cicloid}&formato=csv`));
      assert.equal(r.status, 200, r.texto);
      assert.equal(r.tipo, 'text/csv; charset=utf-8');
      assert.match(r.anexo, new RegExp(`^attachment; filename="pedidos-Feira-${c.id}-[A-Za-z0-9-]+\\.csv"$`));
      assert.equal(r.texto, esperado);
    }
    // The basket market's orders are its own: baskets, no tomatoes bought at the fair.
    const cestas = await baixar(
      navs.dono,
      `/planilhas/mercados/${c.mCesta.id}/pedidos?cicloId=${c.cicloid}&formato=csv`,
    );
    assert.equal(cestas.status, 200);
    const linhas = cestas.texto.trim().split('\n').slice(1);
    assert.deepEqual(
      linhas.map((l) => l.split(',').slice(4)),
      [
        ['Cesta', linhas[0]?.split(',')[5] ?? '', '1', 'cesta', '50.00', '50.00'],
        ['Taxa', `Taxa de Cestas ${c.id}`, '', '', '', '2.50'],
        ['Cesta', linhas[0]?.split(',')[5] ?? '', '2', 'cesta', '50.00', '100.00'],
        ['Taxa', `Taxa de Cestas ${c.id}`, '', '', '', '5.00'],
      ],
    );
    // A market outside the cycle has no orders: the header alone.
    const fora = await baixar(navs.dono, `/planilhas/mercados/${c.mFora.id}/pedidos?cicloId=${c.cicloid}&formato=csv`);
    assert.equal(fora.texto.trim().split('\n').length, 1);
  });

  test(
    'pedidos do mercado em XLSX (o padrão): a planilha abre com números como números e o total',
    { skip: semLibreOffice() },
    async () => {
      const r = await baixar(navs.dono, pedidosDaFeira());
      assert.equal(r.status, 200, r.texto);
      assert.equal(r.tipo, TIPO_XLSX);
      assert.match(r.anexo, new RegExp(`^attachment; filename="pedidos-Feira-${c.id}-[A-Za-z0-9-]+\\.xlsx"$`));
      const folha = await abrirComoPlanilha(r.bytes, 'xlsx');
      assert.deepEqual(folha[0]?.slice(0, 10), [
        'Pedido',
        'Consumidor',
        'Ponto de retirada',
        'Situação',
        'Tipo',
        'Item',
        'Quantidade',
        'Unidade',
        'Preço',
        'Subtotal',
      ]);
      assert.deepEqual(folha[1]?.slice(0, 10), [
        pedidos.rita,
        `Rita ${c.id}`,
        `Sede ${c.id}`,
        'Confirmado',
        'Produto',
        `Tomate ${c.id}`,
        2,
        'kg',
        6,
        12,
      ]);
      assert.equal(folha[2]?.[9], 1.2);
      assert.equal(folha[3]?.[6], 21);
      // The total row adds every subtotal: what the market's orders cost with its fee.
      assert.equal(folha[5]?.[9], 151.8);
    },
  );

  test('preços do mercado: CSV e XLSX para o dono e o Administrador', async () => {
    for (const nav of [navs.dono, navs.administrador]) {
      const r = await baixar(nav, precosDaFeira('?formato=csv'));
      assert.equal(r.status, 200, r.texto);
      assert.equal(r.tipo, 'text/csv; charset=utf-8');
      assert.equal(r.anexo, `attachment; filename="precos-Feira-${c.id}.csv"`);
      assert.equal(
        r.texto,
        `Código do produto,Produto,Unidade,Preço (R$),Ativo\n${tomate},Tomate ${c.id},kg,6.00,Sim\n`,
      );
      const x = await baixar(nav, precosDaFeira());
      assert.equal(x.status, 200);
      assert.equal(x.tipo, TIPO_XLSX);
      assert.equal(x.anexo, `attachment; filename="precos-Feira-${c.id}.xlsx"`);
      // An XLSX file is a zip.
      assert.deepEqual([...x.bytes.slice(0, 2)], [0x50, 0x4b]);
    }
  });

  test('entregas: o fornecedor recebe só as próprias linhas, com o pedido de cada mercado', async () => {
    const ana = await baixar(navs.ana, entregas('?formato=csv'));
    assert.equal(ana.status, 200, ana.texto);
    assert.equal(ana.tipo, 'text/csv; charset=utf-8');
    assert.match(ana.anexo, /^attachment; filename="entregas-[A-Za-z0-9-]+\.csv"$/);
    assert.equal(
      ana.texto,
      [
        `Produto,Unidade,Preço (R$),Quantidade ofertada,Quantidade planejada,Pedido em Cestas ${c.id},Pedido em Feira ${c.id},Pedido em PNAE ${c.id},Quantidade pedida,Valor pedido (R$)`,
        `Tomate ${c.id},kg,4.00,100,75,15,3,15,33,132.00`,
        '',
      ].join('\n'),
    );
    const beto = await baixar(navs.beto, entregas('?formato=csv'));
    assert.equal(beto.status, 200, beto.texto);
    assert.equal(
      beto.texto,
      [
        `Produto,Unidade,Preço (R$),Quantidade ofertada,Quantidade planejada,Pedido em Feira ${c.id},Quantidade pedida,Valor pedido (R$)`,
        `Tomate ${c.id},kg,3.00,20,20,20,20,60.00`,
        '',
      ].join('\n'),
    );
    const planilha = await baixar(navs.ana, entregas());
    assert.equal(planilha.status, 200);
    assert.equal(planilha.tipo, TIPO_XLSX);
    assert.match(planilha.anexo, /^attachment; filename="entregas-[A-Za-z0-9-]+\.xlsx"$/);
  });

  test('entregas: uma conta Fornecedor sem cadastro na face Cestas é recusada (403, CADASTRO_PENDENTE)', async () => {
    const r = await baixar(navs.semCadastro, entregas());
    assert.equal(r.status, 403);
    assert.deepEqual(JSON.parse(r.texto), {
      error: 'Esta conta ainda não tem cadastro na face Cestas: complete-o em /usuarionovo para agir nos ciclos',
    });
  });
});
