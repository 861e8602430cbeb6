import assert from 'node:assert/strict';
import { criarEsquema } from '../../src/mercados/graphql/esquema.ts';
import { after, before, describe, test } from 'node:test';
import { entrarComProvedor, type Conta } from '../../src/domain/contas.ts';
import { gravarPapeis, type Papel as PapelGuardado } from '../../src/domain/papeis.ts';
import { salvarAssinatura } from '../../src/domain/assinaturas/escrita.ts';
import { salvarPedido } from '../../src/domain/pedidos/salvar.ts';
import { cobrancaDe } from '../../src/domain/pix.ts';
import { chaveDeEmail } from '../../src/domain/usuarios.ts';
import { diaLocal, somarDias } from '../../src/domain/tempo.ts';
import { emailUnico, comporCestas, criarCesta, criarPonto, criarProduto } from '../helpers/fabricas.ts';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import {
  criarMercadoNoBanco,
  entrarNoMercados,
  graphql,
  passoEsperado,
  perfisDe,
  type RespostaGraphql,
} from './apoio.ts';

/**
 * Every GraphQL operation × every kind of caller, one test per cell, with the exact outcome.
 * The callers log in through the development provider's real login page; the Administrador
 * gets the profile from ADMIN_EMAILS and hands out the others through atribuirPerfis.
 */

const PAPEIS = [
  'anonimo',
  'Consumidor',
  'Fornecedor',
  'AdminMercadoDono',
  'AdminMercadoDeOutro',
  'Administrador',
] as const;
type Papel = (typeof PAPEIS)[number];

const NOMES_PAPEIS: Readonly<Record<Papel, string>> = {
  anonimo: 'anônimo',
  Consumidor: 'Consumidor',
  Fornecedor: 'Fornecedor',
  AdminMercadoDono: 'AdminMercado dono do mercado',
  AdminMercadoDeOutro: 'AdminMercado de outro mercado',
  Administrador: 'Administrador',
};

interface Recusa {
  readonly code: string;
  readonly message: string;
}
type Esperado = 'permitido' | 'nao autenticado' | Recusa;

const SO_ADMINISTRADOR: Recusa = { code: 'FORBIDDEN', message: 'Acesso negado: requer o perfil Administrador' };
const ADMINISTRADOR_OU_ADMIN_MERCADO: Recusa = {
  code: 'FORBIDDEN',
  message: 'Acesso negado: requer um dos perfis Administrador, AdminMercado',
};
const OUTRO_MERCADO: Recusa = {
  code: 'FORBIDDEN',
  message: 'Acesso negado: você só pode alterar o mercado que administra',
};
const PRECOS_DE_OUTRO_MERCADO: Recusa = {
  code: 'FORBIDDEN',
  message: 'Acesso negado: você só pode alterar os preços do mercado que administra',
};
const SO_FORNECEDOR: Recusa = { code: 'FORBIDDEN', message: 'Acesso negado: requer o perfil Fornecedor' };
const SO_CONSUMIDOR: Recusa = { code: 'FORBIDDEN', message: 'Acesso negado: requer o perfil Consumidor' };
const FORNECEDOR_OU_ADMINISTRADOR: Recusa = {
  code: 'FORBIDDEN',
  message: 'Acesso negado: requer um dos perfis Fornecedor, Administrador',
};
const CONSUMIDOR_OU_ADMINISTRADOR: Recusa = {
  code: 'FORBIDDEN',
  message: 'Acesso negado: requer um dos perfis Consumidor, Administrador',
};
/** The pickup of a point one was not named for (src/domain/retirada/acesso.ts). */
const OUTRO_PONTO: Recusa = {
  code: 'FORBIDDEN',
  message: 'Acesso negado: você não trabalha na retirada deste ponto neste ciclo. Fale com a coordenação.',
};

const PEDIDOS_DE_OUTRO_MERCADO: Recusa = {
  code: 'FORBIDDEN',
  message: 'Acesso negado: você só pode ver os pedidos do mercado que administra',
};

/**
 * What each cell works on: a fresh market owned by the "dono", a product, a fresh account, and a
 * fresh cycle with both writing windows open today, a composed basket, a pickup point, and an
 * order of the Consumidor's.
 */
interface Alvo {
  readonly mercadoId: number;
  readonly produtoId: number;
  readonly contaId: number;
  readonly cicloId: number;
  readonly cicloCestaId: number;
  readonly pontoId: number;
  readonly pedidoId: number;
  /** The Cestas records of the Fornecedor and Consumidor callers (the ones admins act for). */
  readonly fornecedorId: number;
  readonly consumidorId: number;
  /** The cycle's basket type, and the Consumidor's subscription to it (when the row prepares one). */
  readonly cestaId: number;
  readonly assinaturaId?: number;
}

interface Operacao {
  readonly nome: string;
  readonly pedido: (a: Alvo) => { query: string; variables?: Record<string, unknown> };
  readonly esperado: Readonly<Record<Papel, Esperado>>;
  /** When allowed: the answer and the database show the effect. */
  readonly efeito: (r: RespostaGraphql, a: Alvo, amb: AmbienteDeTeste, quem: Conta) => Promise<void>;
  /** More for the cell to work on than novoAlvo makes. */
  readonly preparar?: (a: Alvo, amb: AmbienteDeTeste) => Promise<Alvo>;
}

const todos = (e: Esperado): Readonly<Record<Papel, Esperado>> => ({
  anonimo: 'nao autenticado',
  Consumidor: e,
  Fornecedor: e,
  AdminMercadoDono: e,
  AdminMercadoDeOutro: e,
  Administrador: e,
});
const soAdministrador = { ...todos(SO_ADMINISTRADOR), Administrador: 'permitido' } as const;

async function quantosMercados(amb: AmbienteDeTeste): Promise<number> {
  const r = await amb.banco
    .selectFrom('mercado')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(r.n);
}

/** What a refused workflow operation must leave as it was: the cycle's markets, offers and orders. */
async function fotoDoCiclo(amb: AmbienteDeTeste, cicloId: number) {
  const [mercados, ofertas, pedidos] = await Promise.all([
    amb.banco
      .selectFrom('ciclomercado')
      .select(['mercadoId', 'ordemAtendimento'])
      .where('cicloid', '=', cicloId)
      .orderBy('id')
      .execute(),
    amb.banco
      .selectFrom('oferta')
      .select(['id', 'usuarioid', 'finalizada'])
      .where('cicloid', '=', cicloId)
      .orderBy('id')
      .execute(),
    amb.banco
      .selectFrom('pedido')
      .select(['id', 'usuarioid', 'finalizado', 'pontoEntregaId'])
      .where('cicloid', '=', cicloId)
      .orderBy('id')
      .execute(),
  ]);
  return {
    mercados,
    ofertas: ofertas.map((o) => ({ ...o, finalizada: Boolean(o.finalizada) })),
    pedidos: pedidos.map((p) => ({ ...p, finalizado: Boolean(p.finalizado) })),
  };
}

async function mercadoNoBanco(amb: AmbienteDeTeste, id: number) {
  return amb.banco.selectFrom('mercado').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

const OPERACOES: readonly Operacao[] = [
  {
    nome: 'mercados',
    pedido: () => ({ query: '{ mercados { id nome } }' }),
    esperado: todos('permitido'),
    efeito: async (r, a) =>
      assert.ok((r.corpo.data?.mercados as Array<{ id: string }>).some((m) => m.id === String(a.mercadoId))),
  },
  {
    nome: 'mercado',
    pedido: (a) => ({ query: 'query($id: ID!) { mercado(id: $id) { id adminId } }', variables: { id: a.mercadoId } }),
    esperado: todos('permitido'),
    efeito: async (r, a) => assert.equal((r.corpo.data?.mercado as { id: string }).id, String(a.mercadoId)),
  },
  {
    nome: 'me',
    pedido: () => ({ query: '{ me { id name email profiles } }' }),
    esperado: todos('permitido'),
    efeito: async (r, _a, _amb, quem) =>
      assert.deepEqual(r.corpo.data?.me, {
        id: String(quem.id),
        name: quem.name,
        email: quem.email,
        profiles: quem.profiles,
      }),
  },
  {
    nome: 'produtos',
    pedido: () => ({ query: '{ produtos { id nome } }' }),
    esperado: todos('permitido'),
    efeito: async (r, a) =>
      assert.ok((r.corpo.data?.produtos as Array<{ id: string }>).some((p) => p.id === String(a.produtoId))),
  },
  {
    nome: 'usuarios',
    pedido: () => ({ query: '{ usuarios { id email } }' }),
    esperado: soAdministrador,
    efeito: async (r, a) =>
      assert.ok(
        (r.corpo.data?.usuarios as Array<{ id: string; email: string | null }>).some(
          (u) => u.id === String(a.contaId) && u.email !== null,
        ),
      ),
  },
  {
    // Every caller here has a Cestas record; an account without one is in test/mercados/avisos.test.ts.
    nome: 'meusAvisos',
    pedido: () => ({ query: '{ meusAvisos { recebe cadastro } }' }),
    esperado: todos('permitido'),
    efeito: async (r) =>
      assert.deepEqual(r.corpo.data?.meusAvisos, {
        recebe: [
          'oferta_aberta',
          'oferta_lembrete',
          'pedido_aberto',
          'pedido_lembrete',
          'entregas',
          'retirada',
          'assinatura_ciclo',
        ],
        cadastro: true,
      }),
  },
  {
    nome: 'tiposDeMercado',
    pedido: () => ({ query: '{ tiposDeMercado { tipo nome vende } }' }),
    esperado: todos('permitido'),
    efeito: async (r) =>
      assert.deepEqual(r.corpo.data?.tiposDeMercado, [
        { tipo: 'cesta', nome: 'Cesta', vende: 'cestas' },
        { tipo: 'lote', nome: 'Lote', vende: 'lotes' },
        { tipo: 'venda_direta', nome: 'Venda direta', vende: 'itens' },
      ]),
  },
  {
    nome: 'definirMeusAvisos',
    pedido: () => ({ query: 'mutation { definirMeusAvisos(recebe: ["retirada"]) { recebe } }' }),
    esperado: todos('permitido'),
    efeito: async (r, _a, amb, quem) => {
      assert.deepEqual(r.corpo.data?.definirMeusAvisos, { recebe: ['retirada'] });
      const conta = await amb.banco
        .selectFrom('appuser as a')
        .innerJoin('usuario as u', 'u.id', 'a.usuarioId')
        .select('u.avisosDesligados')
        .where('a.id', '=', quem.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(conta.avisosDesligados ?? '[]'), [
        'oferta_aberta',
        'oferta_lembrete',
        'pedido_aberto',
        'pedido_lembrete',
        'entregas',
        'assinatura_ciclo',
      ]);
    },
  },
  {
    nome: 'criarMercado',
    pedido: () => ({
      query: 'mutation($input: MercadoInput!) { criarMercado(input: $input) { id nome adminId } }',
      variables: { input: { nome: 'Mercado da matriz', tipo: 'lote' } },
    }),
    esperado: soAdministrador,
    efeito: async (r, _a, amb, quem) => {
      const criado = r.corpo.data?.criarMercado as { id: string; adminId: string };
      assert.equal(criado.adminId, String(quem.id));
      assert.equal((await mercadoNoBanco(amb, Number(criado.id))).nome, 'Mercado da matriz');
    },
  },
  {
    nome: 'atualizarMercado',
    pedido: (a) => ({
      query: 'mutation($id: ID!, $input: MercadoInput!) { atualizarMercado(id: $id, input: $input) { id nome } }',
      variables: { id: a.mercadoId, input: { nome: 'Nome novo', tipo: 'venda_direta' } },
    }),
    esperado: {
      anonimo: 'nao autenticado',
      Consumidor: ADMINISTRADOR_OU_ADMIN_MERCADO,
      Fornecedor: ADMINISTRADOR_OU_ADMIN_MERCADO,
      AdminMercadoDono: 'permitido',
      AdminMercadoDeOutro: OUTRO_MERCADO,
      Administrador: 'permitido',
    },
    efeito: async (r, a, amb) => {
      assert.deepEqual(r.corpo.data?.atualizarMercado, { id: String(a.mercadoId), nome: 'Nome novo' });
      assert.equal((await mercadoNoBanco(amb, a.mercadoId)).nome, 'Nome novo');
    },
  },
  {
    nome: 'desativarMercado',
    pedido: (a) => ({
      query: 'mutation($id: ID!) { desativarMercado(id: $id) { id ativo } }',
      variables: { id: a.mercadoId },
    }),
    esperado: soAdministrador,
    efeito: async (r, a, amb) => {
      assert.deepEqual(r.corpo.data?.desativarMercado, { id: String(a.mercadoId), ativo: false });
      assert.equal((await mercadoNoBanco(amb, a.mercadoId)).ativo, false);
    },
  },
  {
    nome: 'atualizarPrecoMercado',
    pedido: (a) => ({
      query:
        'mutation($id: ID!, $input: PrecoMercadoInput!) { atualizarPrecoMercado(id: $id, input: $input) { id precos { produtoId preco ativo } } }',
      variables: { id: a.mercadoId, input: { precos: [{ produtoId: a.produtoId, preco: '7.5' }] } },
    }),
    esperado: {
      anonimo: 'nao autenticado',
      Consumidor: ADMINISTRADOR_OU_ADMIN_MERCADO,
      Fornecedor: ADMINISTRADOR_OU_ADMIN_MERCADO,
      AdminMercadoDono: 'permitido',
      AdminMercadoDeOutro: PRECOS_DE_OUTRO_MERCADO,
      Administrador: 'permitido',
    },
    efeito: async (r, a) => {
      assert.deepEqual(r.corpo.data?.atualizarPrecoMercado, {
        id: String(a.mercadoId),
        precos: [{ produtoId: String(a.produtoId), preco: '7.50', ativo: true }],
      });
    },
  },
  {
    nome: 'atribuirPerfis',
    pedido: (a) => ({
      query:
        'mutation($userId: ID!, $perfis: [String!]!) { atribuirPerfis(userId: $userId, perfis: $perfis) { id profiles } }',
      variables: { userId: a.contaId, perfis: ['Fornecedor', 'AdminMercado'] },
    }),
    esperado: soAdministrador,
    efeito: async (r, a, amb) => {
      assert.deepEqual(r.corpo.data?.atribuirPerfis, {
        id: String(a.contaId),
        profiles: ['AdminMercado', 'Fornecedor'],
      });
      assert.deepEqual(await perfisDe(amb.banco, a.contaId), ['AdminMercado', 'Fornecedor']);
    },
  },
  {
    nome: 'ciclos',
    pedido: () => ({ query: '{ ciclos { id fase } }' }),
    esperado: todos('permitido'),
    // The cycle has both windows open: every caller who offers, orders or coordinates sees it; an AdminMercado alone acts in no cycle.
    efeito: async (r, a, _amb, quem) => {
      const ve = (r.corpo.data?.ciclos as Array<{ id: string }>).some((c) => c.id === String(a.cicloId));
      assert.equal(
        ve,
        quem.profiles.some((p) => p !== 'AdminMercado'),
      );
    },
  },
  {
    nome: 'ciclo',
    pedido: (a) => ({
      query: 'query($id: ID!) { ciclo(id: $id) { id cestas { cicloCestaId disponivel } pontosEntrega { id } } }',
      variables: { id: a.cicloId },
    }),
    esperado: todos('permitido'),
    efeito: async (r, a) => {
      const c = r.corpo.data?.ciclo as { id: string; cestas: Array<{ cicloCestaId: string; disponivel: number }> };
      assert.deepEqual(
        [c.id, c.cestas],
        [String(a.cicloId), [{ cicloCestaId: String(a.cicloCestaId), disponivel: 9 }]],
      );
    },
  },
  {
    nome: 'minhaOferta',
    pedido: (a) => ({ query: 'query($c: ID!) { minhaOferta(cicloId: $c) { id } }', variables: { c: a.cicloId } }),
    esperado: { ...todos(SO_FORNECEDOR), Fornecedor: 'permitido' },
    efeito: async (r) => assert.equal(r.corpo.data?.minhaOferta, null, 'ainda sem oferta neste ciclo'),
  },
  {
    nome: 'produtosParaOfertar',
    pedido: () => ({ query: '{ produtosParaOfertar { produtoid nome valorReferencia ofertadoAntes } }' }),
    esperado: { ...todos(SO_FORNECEDOR), Fornecedor: 'permitido' },
    efeito: async (r) => {
      const lista = r.corpo.data?.produtosParaOfertar as Array<{
        produtoid: string;
        valorReferencia: string;
        ofertadoAntes: boolean;
      }>;
      assert.ok(lista.length > 0, 'o catálogo ativo');
      assert.ok(
        lista.every((p) => /^\d+\.\d{2}$/.test(p.valorReferencia) && p.ofertadoAntes === false),
        'quem nunca ofertou: nenhum usual',
      );
    },
  },
  {
    nome: 'minhasEntregas',
    pedido: (a) => ({
      query: 'query($c: ID!) { minhasEntregas(cicloId: $c) { produtoId pedido } }',
      variables: { c: a.cicloId },
    }),
    esperado: { ...todos(SO_FORNECEDOR), Fornecedor: 'permitido' },
    // The basket's supplier is someone else: nothing of it is this supplier's to deliver.
    efeito: async (r) => assert.deepEqual(r.corpo.data?.minhasEntregas, []),
  },
  {
    nome: 'meusPedidos',
    pedido: (a) => ({
      query: 'query($c: ID) { meusPedidos(cicloId: $c) { id usuarioid } }',
      variables: { c: a.cicloId },
    }),
    esperado: { ...todos(SO_CONSUMIDOR), Consumidor: 'permitido', Administrador: 'permitido' },
    // Only one's own: the Consumidor sees the cell's order, the Administrador (a consumer too) none of someone else's.
    efeito: async (r, a, _amb, quem) => {
      const pedidos = r.corpo.data?.meusPedidos as Array<{ id: string; usuarioid: string }>;
      assert.deepEqual(
        pedidos,
        quem.profiles.includes('Administrador') ? [] : [{ id: String(a.pedidoId), usuarioid: String(a.consumidorId) }],
      );
    },
  },
  {
    nome: 'minhaCobranca',
    pedido: () => ({ query: '{ minhaCobranca { devido linhas { tipo valor pedidoId } } }' }),
    esperado: { ...todos(SO_CONSUMIDOR), Consumidor: 'permitido', Administrador: 'permitido' },
    // Only one's own: each order line is the caller's (the Administrador never gets the Consumidor's), and the lines add up.
    efeito: async (r, a, amb, quem) => {
      const c = r.corpo.data?.minhaCobranca as {
        devido: string;
        linhas: Array<{ valor: string; pedidoId: string | null }>;
      };
      const soma = c.linhas.reduce((t, l) => t + Math.round(Number(l.valor) * 100), 0);
      assert.equal(Math.round(Number(c.devido) * 100), soma);
      const ids = c.linhas.flatMap((l) => (l.pedidoId === null ? [] : [Number(l.pedidoId)]));
      const donos =
        ids.length === 0
          ? []
          : await amb.banco.selectFrom('pedido').select('usuarioid').where('id', 'in', ids).execute();
      const eDoConsumidor = donos.map((d) => d.usuarioid === a.consumidorId);
      assert.deepEqual(
        eDoConsumidor,
        donos.map(() => !quem.profiles.includes('Administrador')),
      );
    },
  },
  {
    nome: 'pedidosDoMercado',
    pedido: (a) => ({
      query: 'query($m: ID!, $c: ID!) { pedidosDoMercado(mercadoId: $m, cicloId: $c) { id } }',
      variables: { m: a.mercadoId, c: a.cicloId },
    }),
    esperado: {
      anonimo: 'nao autenticado',
      Consumidor: ADMINISTRADOR_OU_ADMIN_MERCADO,
      Fornecedor: ADMINISTRADOR_OU_ADMIN_MERCADO,
      AdminMercadoDono: 'permitido',
      AdminMercadoDeOutro: PEDIDOS_DE_OUTRO_MERCADO,
      Administrador: 'permitido',
    },
    // The cycle does not serve the market: no order has a line in it.
    efeito: async (r) => assert.deepEqual(r.corpo.data?.pedidosDoMercado, []),
  },
  {
    nome: 'salvarOferta',
    pedido: (a) => ({
      query:
        'mutation($c: ID!, $i: OfertaInput!) { salvarOferta(cicloId: $c, input: $i, finalizar: true) { id usuarioid finalizada } }',
      // The supplier named in the input: the Fornecedor themselves, or the one the Administrador acts for.
      variables: {
        c: a.cicloId,
        i: { usuarioid: a.fornecedorId, produtos: [{ produtoid: a.produtoId, quantidade: '2.5', valor: '3' }] },
      },
    }),
    esperado: { ...todos(FORNECEDOR_OU_ADMINISTRADOR), Fornecedor: 'permitido', Administrador: 'permitido' },
    efeito: async (r, a, amb) => {
      const o = r.corpo.data?.salvarOferta as { id: string; usuarioid: string; finalizada: boolean };
      assert.deepEqual([o.usuarioid, o.finalizada], [String(a.fornecedorId), true]);
      assert.equal(
        (
          await amb.banco
            .selectFrom('oferta')
            .select('usuarioid')
            .where('id', '=', Number(o.id))
            .executeTakeFirstOrThrow()
        ).usuarioid,
        a.fornecedorId,
      );
    },
  },
  {
    nome: 'fazerPedido',
    pedido: (a) => ({
      query: 'mutation($c: ID!, $i: PedidoInput!) { fazerPedido(cicloId: $c, input: $i) { id usuarioid total } }',
      variables: {
        c: a.cicloId,
        i: { pontoEntregaId: a.pontoId, produtos: [{ cicloCestaId: a.cicloCestaId, quantidade: 2 }] },
      },
    }),
    esperado: { ...todos(CONSUMIDOR_OU_ADMINISTRADOR), Consumidor: 'permitido', Administrador: 'permitido' },
    efeito: async (r, a, amb, quem) => {
      const p = r.corpo.data?.fazerPedido as { id: string; usuarioid: string };
      // The Consumidor changes their order; the Administrador (a consumer too) places their own.
      if (!quem.profiles.includes('Administrador')) assert.equal(p.id, String(a.pedidoId));
      else assert.notEqual(p.id, String(a.pedidoId));
      const linhas = await amb.banco
        .selectFrom('pedidoproduto')
        .select('quantidadeMilesimos')
        .where('pedidoid', '=', Number(p.id))
        .execute();
      assert.deepEqual(
        linhas.map((l) => l.quantidadeMilesimos),
        [2000],
      );
    },
  },
  {
    nome: 'confirmarPedido',
    pedido: (a) => ({
      query: 'mutation($p: ID!) { confirmarPedido(pedidoId: $p) { id finalizado } }',
      variables: { p: a.pedidoId },
    }),
    esperado: { ...todos(CONSUMIDOR_OU_ADMINISTRADOR), Consumidor: 'permitido', Administrador: 'permitido' },
    efeito: async (r, a, amb) => {
      assert.deepEqual(r.corpo.data?.confirmarPedido, { id: String(a.pedidoId), finalizado: true });
      assert.equal(
        Boolean(
          (
            await amb.banco
              .selectFrom('pedido')
              .select('finalizado')
              .where('id', '=', a.pedidoId)
              .executeTakeFirstOrThrow()
          ).finalizado,
        ),
        true,
      );
    },
  },
  {
    nome: 'definirMercadosDoCiclo',
    pedido: (a) => ({
      query:
        'mutation($c: ID!, $i: [CicloMercadoInput!]!) { definirMercadosDoCiclo(cicloId: $c, input: $i) { id mercados { mercadoId ordemAtendimento } } }',
      variables: { c: a.cicloId, i: [{ mercadoId: a.mercadoId, ordemAtendimento: 1 }] },
    }),
    esperado: soAdministrador,
    efeito: async (r, a, amb) => {
      assert.deepEqual(r.corpo.data?.definirMercadosDoCiclo, {
        id: String(a.cicloId),
        mercados: [{ mercadoId: String(a.mercadoId), ordemAtendimento: 1 }],
      });
      assert.deepEqual((await fotoDoCiclo(amb, a.cicloId)).mercados, [{ mercadoId: a.mercadoId, ordemAtendimento: 1 }]);
    },
  },
  {
    nome: 'minhasOfertas',
    pedido: () => ({ query: '{ minhasOfertas(first: 100) { usuarioid cicloId ciclo { id nome } } }' }),
    esperado: { ...todos(SO_FORNECEDOR), Fornecedor: 'permitido' },
    // Only one's own offers, every one of them, the newest cycle first, each with its cycle.
    efeito: async (r, a, amb) => {
      const ofertas = r.corpo.data?.minhasOfertas as Array<{
        usuarioid: string;
        cicloId: string;
        ciclo: { id: string; nome: string };
      }>;
      const doBanco = await amb.banco
        .selectFrom('oferta')
        .select('cicloid')
        .where('usuarioid', '=', a.fornecedorId)
        .orderBy('cicloid', 'desc')
        .execute();
      assert.deepEqual(
        ofertas.map((o) => [o.usuarioid, o.cicloId, o.ciclo.id]),
        doBanco.map((o) => [String(a.fornecedorId), String(o.cicloid), String(o.cicloid)]),
      );
      assert.ok(ofertas.every((o) => o.ciclo.nome.length > 0));
    },
  },
  {
    nome: 'meusProximosPassos',
    pedido: () => ({
      query:
        '{ meusProximosPassos { aPagar ciclos { ciclo { id } passos { acao texto feito temPagina pedidoId mercadoId prazo } } } }',
    }),
    esperado: todos('permitido'),
    // The cell's market serves the cycle: its own admin's step is there, no one else's. The
    // dashboard lists 50 cycles at most, the earliest offer window first: the matrix makes a cycle
    // per cell, so this one opens its offers a day earlier than theirs (still open today).
    preparar: async (a, amb) => {
      const iso = new Date().toISOString();
      const hoje = diaLocal(amb.relogio.agora(), amb.config.tz);
      await amb.banco
        .updateTable('ciclo')
        .set({ dataOfertaInicio: somarDias(hoje, -2) })
        .where('id', '=', a.cicloId)
        .execute();
      await amb.banco
        .insertInto('ciclomercado')
        .values({ cicloid: a.cicloId, mercadoId: a.mercadoId, ordemAtendimento: 1, createdAt: iso, updatedAt: iso })
        .execute();
      return a;
    },
    // Each caller's own steps in the cell's cycle (both windows open): the supplier's offer, the
    // consumer's saved order, the market's orders for its own admin; nothing of anyone else's.
    efeito: async (r, a, amb, quem) => {
      const { ciclos, aPagar } = r.corpo.data?.meusProximosPassos as {
        ciclos: Array<{ ciclo: { id: string }; passos: unknown[] }>;
        aPagar: string | null;
      };
      // What the Consumidor owes (the matrix confirms their orders), as minhaCobranca reckons it; no one else owes anything.
      const devido = (await cobrancaDe(amb.banco, a.consumidorId, amb.config.taxa)).devidoCentavos;
      assert.equal(
        aPagar,
        quem.profiles.includes('Consumidor') && !quem.profiles.includes('Administrador')
          ? (devido / 100).toFixed(2)
          : null,
      );
      const doCiclo = ciclos.find((c) => c.ciclo.id === String(a.cicloId))?.passos ?? [];
      const c = await amb.banco
        .selectFrom('ciclo')
        .select(['dataOfertaFim', 'dataPedidoFim'])
        .where('id', '=', a.cicloId)
        .executeTakeFirstOrThrow();
      const nome = (
        await amb.banco.selectFrom('mercado').select('nome').where('id', '=', a.mercadoId).executeTakeFirstOrThrow()
      ).nome;
      const passo = passoEsperado;
      const esperados: Record<string, unknown[]> = {
        Consumidor: [
          passo('pedir', 'Pedido salvo, falta confirmar', c.dataPedidoFim, { pedidoId: String(a.pedidoId) }),
        ],
        Fornecedor: [passo('ofertar', 'Registrar sua oferta de produtos', c.dataOfertaFim)],
        AdminMercadoDono: [
          passo('pedidosDoMercado', `Acompanhar os pedidos em ${nome}`, c.dataPedidoFim, {
            mercadoId: String(a.mercadoId),
          }),
        ],
        AdminMercadoDeOutro: [],
        // A consumer too, without an order of their own in the cycle: the Consumidor's is not theirs.
        Administrador: [passo('pedir', 'Fazer seu pedido', c.dataPedidoFim)],
      };
      const papel = quem.profiles.includes('Administrador')
        ? 'Administrador'
        : quem.profiles.includes('AdminMercado')
          ? quem.id === (await mercadoNoBanco(amb, a.mercadoId)).adminId
            ? 'AdminMercadoDono'
            : 'AdminMercadoDeOutro'
          : (quem.profiles[0] ?? '');
      assert.deepEqual(doCiclo, esperados[papel]);
      // A cycle with no step of the caller's is not listed at all.
      assert.ok(ciclos.every((x) => x.passos.length > 0));
    },
  },
  // Subscriptions (issue 23).
  {
    nome: 'minhasAssinaturas',
    pedido: () => ({ query: '{ minhasAssinaturas { id usuarioid cestaId proximosCiclos { cicloId situacao } } }' }),
    esperado: { ...todos(SO_CONSUMIDOR), Consumidor: 'permitido', Administrador: 'permitido' },
    preparar: assinaturaDoConsumidor,
    // Only one's own: the Consumidor sees the cell's subscription, served in the open cycle; the Administrador none of someone else's.
    efeito: async (r, a, _amb, quem) => {
      const lista = r.corpo.data?.minhasAssinaturas as Array<{
        id: string;
        usuarioid: string;
        cestaId: string;
        proximosCiclos: Array<{ cicloId: string; situacao: string }>;
      }>;
      if (quem.profiles.includes('Administrador')) return assert.deepEqual(lista, []);
      assert.ok(lista.every((x) => x.usuarioid === String(a.consumidorId)));
      const desta = lista.find((x) => x.id === String(a.assinaturaId));
      assert.deepEqual(desta, {
        id: String(a.assinaturaId),
        usuarioid: String(a.consumidorId),
        cestaId: String(a.cestaId),
        proximosCiclos: [{ cicloId: String(a.cicloId), situacao: 'gerado' }],
      });
    },
  },
  {
    nome: 'salvarAssinatura',
    pedido: (a) => ({
      query:
        'mutation($i: AssinaturaInput!) { salvarAssinatura(input: $i) { id usuarioid quantidade proximosCiclos { cicloId situacao } } }',
      // The subscriber named in the input: the Consumidor themselves, or the one the Administrador acts for.
      variables: {
        i: {
          usuarioid: a.consumidorId,
          cestaId: a.cestaId,
          quantidade: 2,
          pontoEntregaId: a.pontoId,
          frequencia: 'cada_ciclo',
          inicio: '2000-01-01',
          fim: '2999-12-31',
        },
      },
    }),
    esperado: { ...todos(CONSUMIDOR_OU_ADMINISTRADOR), Consumidor: 'permitido', Administrador: 'permitido' },
    efeito: async (r, a, amb) => {
      const s = r.corpo.data?.salvarAssinatura as {
        id: string;
        usuarioid: string;
        quantidade: number;
        proximosCiclos: Array<{ cicloId: string; situacao: string }>;
      };
      assert.deepEqual(
        [s.usuarioid, s.quantidade, s.proximosCiclos],
        [String(a.consumidorId), 2, [{ cicloId: String(a.cicloId), situacao: 'gerado' }]],
      );
      // The order window is open: the Consumidor's order in the cycle takes the subscription's two
      // baskets at once, on the line of the same basket (the one-off one plus two).
      const linhas = await amb.banco
        .selectFrom('pedidoproduto')
        .select(['pedidoid', 'quantidadeMilesimos'])
        .where('assinaturaId', '=', Number(s.id))
        .execute();
      assert.deepEqual(linhas, [{ pedidoid: a.pedidoId, quantidadeMilesimos: 3000 }]);
    },
  },
  {
    nome: 'pularCiclo',
    pedido: (a) => ({
      query:
        'mutation($a: ID!, $c: ID!) { pularCiclo(assinaturaId: $a, cicloId: $c) { assinaturaId cicloId situacao pedidoId } }',
      variables: { a: a.assinaturaId, c: a.cicloId },
    }),
    esperado: { ...todos(CONSUMIDOR_OU_ADMINISTRADOR), Consumidor: 'permitido', Administrador: 'permitido' },
    preparar: assinaturaDoConsumidor,
    efeito: async (r, a, amb) => {
      assert.deepEqual(r.corpo.data?.pularCiclo, {
        assinaturaId: String(a.assinaturaId),
        cicloId: String(a.cicloId),
        situacao: 'pulado',
        pedidoId: null,
      });
      const linhas = await amb.banco
        .selectFrom('pedidoproduto')
        .select('id')
        .where('assinaturaId', '=', a.assinaturaId ?? 0)
        .execute();
      assert.deepEqual(linhas, []);
    },
  },
  {
    nome: 'registrarPagamentoDaTemporada',
    pedido: (a) => ({
      query:
        'mutation($a: ID!, $v: Decimal!) { registrarPagamentoDaTemporada(assinaturaId: $a, valor: $v, descricao: "Pix") { assinaturaId usuarioid valor } }',
      variables: { a: a.assinaturaId, v: '480.00' },
    }),
    esperado: soAdministrador,
    preparar: assinaturaDoConsumidor,
    efeito: async (r, a, amb) => {
      assert.deepEqual(r.corpo.data?.registrarPagamentoDaTemporada, {
        assinaturaId: String(a.assinaturaId),
        usuarioid: String(a.consumidorId),
        valor: '480.00',
      });
      const credito = await amb.banco
        .selectFrom('movimentacao')
        .select(['usuarioid', 'sentido', 'valorCentavos'])
        .where('chave', 'like', `assinatura:${a.assinaturaId ?? 0}:pagamento:%`)
        .execute();
      assert.deepEqual(credito, [{ usuarioid: a.consumidorId, sentido: 'credito', valorCentavos: 48000 }]);
    },
  },
  // The pickup day (issue 38): the coordination at every point, the volunteers named for the point
  // (the Consumidor, in these cells) there only; everyone else is refused with the same answer.
  {
    nome: 'meusPontosDeRetirada',
    pedido: () => ({ query: '{ meusPontosDeRetirada { cicloId pontoId pedidos } }' }),
    esperado: todos('permitido'),
    preparar: pontoEmRetirada,
    efeito: async (r, a, _amb, quem) => {
      const lista = r.corpo.data?.meusPontosDeRetirada as Array<{ cicloId: string; pontoId: string; pedidos: number }>;
      const doCiclo = lista.filter((p) => p.cicloId === String(a.cicloId));
      const trabalha = quem.profiles.includes('Administrador') || quem.profiles.includes('Consumidor');
      assert.deepEqual(
        doCiclo,
        trabalha ? [{ cicloId: String(a.cicloId), pontoId: String(a.pontoId), pedidos: 1 }] : [],
      );
    },
  },
  {
    nome: 'retiradaDoPonto',
    pedido: (a) => ({
      query: 'query($c: ID!, $p: ID!) { retiradaDoPonto(cicloId: $c, pontoId: $p) { pedidos { id } } }',
      variables: { c: a.cicloId, p: a.pontoId },
    }),
    esperado: { ...todos(OUTRO_PONTO), Consumidor: 'permitido', Administrador: 'permitido' },
    preparar: pontoEmRetirada,
    efeito: async (r, a) => {
      assert.deepEqual(r.corpo.data?.retiradaDoPonto, { pedidos: [{ id: String(a.pedidoId) }] });
    },
  },
  {
    nome: 'sincronizarRetirada',
    pedido: (a) => ({
      query:
        'mutation($c: ID!, $p: ID!, $a: [AcaoDeRetiradaInput!]!) { sincronizarRetirada(cicloId: $c, pontoId: $p, dispositivo: "aparelho-da-matriz", acoes: $a) { estado } }',
      variables: {
        c: a.cicloId,
        p: a.pontoId,
        a: [
          { chave: `matriz-${a.pedidoId}`, tipo: 'retirada', pedidoId: a.pedidoId, feitoEm: new Date().toISOString() },
        ],
      },
    }),
    esperado: { ...todos(OUTRO_PONTO), Consumidor: 'permitido', Administrador: 'permitido' },
    preparar: pontoEmRetirada,
    efeito: async (r, a, amb) => {
      assert.deepEqual(r.corpo.data?.sincronizarRetirada, [{ estado: 'aplicada' }]);
      const gravadas = await amb.banco
        .selectFrom('acaoretirada')
        .select('pedidoid')
        .where('cicloid', '=', a.cicloId)
        .execute();
      assert.deepEqual(gravadas, [{ pedidoid: a.pedidoId }]);
    },
  },
];

/**
 * The cell's cycle on its pickup day (its order window ended yesterday), the Consumidor's order
 * confirmed, and the Consumidor named a volunteer of the cell's point in it.
 */
async function pontoEmRetirada(a: Alvo, amb: AmbienteDeTeste): Promise<Alvo> {
  const hoje = diaLocal(amb.relogio.agora(), amb.config.tz);
  await amb.banco
    .updateTable('ciclo')
    .set({
      dataOfertaInicio: somarDias(hoje, -8),
      dataOfertaFim: somarDias(hoje, -6),
      dataPedidoInicio: somarDias(hoje, -4),
      dataPedidoFim: somarDias(hoje, -1),
      dataRetiradaInicio: hoje,
      dataRetiradaFim: somarDias(hoje, 1),
    })
    .where('id', '=', a.cicloId)
    .execute();
  await amb.banco.updateTable('pedido').set({ finalizado: true }).where('id', '=', a.pedidoId).execute();
  await amb.banco
    .insertInto('voluntario')
    .values({
      cicloid: a.cicloId,
      pontoEntregaId: a.pontoId,
      usuarioid: a.consumidorId,
      createdAt: new Date().toISOString(),
    })
    .execute();
  return a;
}

/** The Consumidor subscribes to the cell's basket type (served at once in the open cycle). */
async function assinaturaDoConsumidor(a: Alvo, amb: AmbienteDeTeste): Promise<Alvo> {
  const hoje = diaLocal(amb.relogio.agora(), amb.config.tz);
  const s = await salvarAssinatura(
    amb.banco,
    { email: 'matriz@teste.org', nome: 'Consumidor', usuarioid: a.consumidorId, perfil: ['consumidor'], ativo: true },
    {
      id: null,
      usuarioid: null,
      cestaId: a.cestaId,
      quantidade: 1,
      pontoEntregaId: a.pontoId,
      frequencia: 'cada_ciclo',
      inicio: '2000-01-01',
      fim: '2999-12-31',
      mercadoId: null,
      ativa: true,
    },
    { agora: amb.relogio.agora(), hoje, taxa: amb.config.taxa, tz: amb.config.tz },
  );
  return { ...a, assinaturaId: s.id };
}

test('a matriz tem exatamente uma linha por campo de Query e Mutation: um campo novo sem linha falha aqui', () => {
  const esquema = criarEsquema();
  const campos = [esquema.getQueryType(), esquema.getMutationType()]
    .flatMap((t) => Object.keys(t?.getFields() ?? {}))
    .sort();
  assert.deepEqual(OPERACOES.map((o) => o.nome).sort(), campos);
});

describe('GraphQL: cada operação × cada perfil', () => {
  let amb: AmbienteDeTeste;
  const emailAdministrador = emailUnico('administrador');
  const navs = new Map<Papel, Navegador>();
  const contas = new Map<Papel, Conta>();
  const usuarios = new Map<Papel, number>();
  let produtoId: number;

  async function entrar(papel: Papel, email: string): Promise<void> {
    const nav = new Navegador();
    const r = await entrarNoMercados(amb, nav, { email, nome: NOMES_PAPEIS[papel] });
    assert.equal(new URL(r.url).pathname, '/dashboard', `login de ${papel}`);
    navs.set(papel, nav);
  }

  before(async () => {
    amb = await iniciarAmbiente({ mercados: true, env: { ADMIN_EMAILS: emailAdministrador } });
    navs.set('anonimo', new Navegador());
    await entrar('Administrador', emailAdministrador);
    const administrador = navs.get('Administrador') ?? new Navegador();
    const perfis: ReadonlyArray<readonly [Papel, string]> = [
      ['Consumidor', 'Consumidor'],
      ['Fornecedor', 'Fornecedor'],
      ['AdminMercadoDono', 'AdminMercado'],
      ['AdminMercadoDeOutro', 'AdminMercado'],
    ];
    for (const [papel, perfil] of perfis) {
      await entrar(papel, emailUnico(papel.toLowerCase()));
      const me = await graphql(amb.urlMercados, navs.get(papel) ?? new Navegador(), '{ me { id } }');
      const id = (me.corpo.data?.me as { id: string }).id;
      if (perfil !== 'Consumidor') {
        const r = await graphql(
          amb.urlMercados,
          administrador,
          'mutation($u: ID!, $p: [String!]!) { atribuirPerfis(userId: $u, perfis: $p) { id } }',
          {
            u: id,
            p: [perfil],
          },
        );
        assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
      }
    }
    // One account per person: each caller is also a Cestas person, whose record holds the roles
    // (the same profiles, read through the mapping of src/domain/papeis.ts).
    const PAPEIS_GUARDADOS: Readonly<Record<Exclude<Papel, 'anonimo'>, PapelGuardado[]>> = {
      Consumidor: ['consumidor'],
      Fornecedor: ['fornecedor'],
      AdminMercadoDono: ['adminMercado'],
      AdminMercadoDeOutro: ['adminMercado'],
      Administrador: ['admin', 'consumidor'],
    };
    for (const papel of PAPEIS) {
      if (papel === 'anonimo') continue;
      const me = await graphql(amb.urlMercados, navs.get(papel) ?? new Navegador(), '{ me { id email name } }');
      const { id, email, name } = me.corpo.data?.me as { id: string; email: string; name: string };
      const iso = new Date().toISOString();
      const u = await amb.banco
        .insertInto('usuario')
        .values({
          nome: name,
          nomeChave: name.toLowerCase(),
          email,
          emailChave: chaveDeEmail(email),
          perfil: gravarPapeis(PAPEIS_GUARDADOS[papel]),
          ativo: true,
          cientepolitica: true,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await amb.banco.updateTable('appuser').set({ usuarioId: u.id }).where('id', '=', Number(id)).execute();
      await amb.banco.deleteFrom('appuserprofile').where('userId', '=', Number(id)).execute();
      usuarios.set(papel, u.id);
    }
    for (const papel of PAPEIS) {
      if (papel === 'anonimo') continue;
      const me = await graphql(
        amb.urlMercados,
        navs.get(papel) ?? new Navegador(),
        '{ me { id name email profiles } }',
      );
      const dados = me.corpo.data?.me as { id: string; name: string; email: string; profiles: Conta['profiles'] };
      contas.set(papel, {
        id: Number(dados.id),
        providerId: '',
        email: dados.email,
        name: dados.name,
        emailVerificado: true,
        avatar: null,
        usuarioId: null,
        profiles: dados.profiles,
      });
    }
    assert.deepEqual(contas.get('Administrador')?.profiles, ['Administrador', 'Consumidor']);
    assert.deepEqual(contas.get('AdminMercadoDono')?.profiles, ['AdminMercado']);
    // The other AdminMercado administers a market of their own.
    await criarMercadoNoBanco(amb.banco, { adminId: contas.get('AdminMercadoDeOutro')?.id ?? 0 });
    produtoId = (await criarProduto(amb.banco)).id;
  });
  after(() => amb.fechar());

  async function novoAlvo(): Promise<Alvo> {
    const dono = contas.get('AdminMercadoDono');
    assert.ok(dono);
    const mercado = await criarMercadoNoBanco(amb.banco, { adminId: dono.id });
    const login = await entrarComProvedor(
      amb.banco,
      {
        emissor: 'teste',
        providerId: `alvo-${mercado.id}`,
        email: emailUnico('alvo'),
        name: 'Pessoa Alvo',
        avatar: undefined,
        emailVerificado: true,
      },
      { agora: new Date(), adminEmails: new Set(), sessaoAnterior: null },
    );
    // A cycle with the offer window closing and the order window opening today: both open.
    const hoje = diaLocal(amb.relogio.agora(), amb.config.tz);
    const iso = new Date().toISOString();
    const nome = `Ciclo da matriz ${mercado.id}`;
    const ciclo = await amb.banco
      .insertInto('ciclo')
      .values({
        nome,
        nomeChave: nome.toLowerCase(),
        dataOfertaInicio: somarDias(hoje, -1),
        dataOfertaFim: hoje,
        dataPedidoInicio: hoje,
        dataPedidoFim: somarDias(hoje, 2),
        dataRetiradaInicio: somarDias(hoje, 3),
        dataRetiradaFim: somarDias(hoje, 4),
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const cesta = await criarCesta(amb.banco);
    const cc = await amb.banco
      .insertInto('ciclocesta')
      .values({ cicloid: ciclo.id, cestaId: cesta.id, quantidadeCestas: 10, createdAt: iso, updatedAt: iso })
      .returning('id')
      .executeTakeFirstOrThrow();
    await comporCestas(amb.banco, ciclo.id, [cc.id]);
    const ponto = await criarPonto(amb.banco);
    const consumidorId = usuarios.get('Consumidor') ?? assert.fail('sem consumidor');
    const { pedido } = await salvarPedido(
      amb.banco,
      { email: 'matriz@teste.org', nome: 'Consumidor', usuarioid: consumidorId, perfil: ['consumidor'], ativo: true },
      {
        usuarioid: null,
        cicloid: ciclo.id,
        pontoEntregaId: ponto.id,
        linhas: [{ cicloCestaId: cc.id, cicloProdutoId: null, quantidadeMilesimos: 1000, campo: 'produtos.0' }],
      },
      { agora: amb.relogio.agora(), hoje, taxa: amb.config.taxa },
    );
    return {
      mercadoId: mercado.id,
      produtoId,
      contaId: login.conta.id,
      cicloId: ciclo.id,
      cicloCestaId: cc.id,
      pontoId: ponto.id,
      pedidoId: pedido.pedidoId,
      fornecedorId: usuarios.get('Fornecedor') ?? assert.fail('sem fornecedor'),
      consumidorId,
      cestaId: cesta.id,
    };
  }

  for (const op of OPERACOES) {
    describe(op.nome, () => {
      for (const papel of PAPEIS) {
        const esperado = op.esperado[papel];
        const descricao =
          esperado === 'permitido'
            ? 'permitido'
            : esperado === 'nao autenticado'
              ? '401 Não autenticado'
              : `${esperado.code} "${esperado.message}"`;
        test(`${NOMES_PAPEIS[papel]} → ${descricao}`, async () => {
          const alvo = op.preparar === undefined ? await novoAlvo() : await op.preparar(await novoAlvo(), amb);
          const antes = await mercadoNoBanco(amb, alvo.mercadoId);
          const mercadosAntes = await quantosMercados(amb);
          const cicloAntes = await fotoDoCiclo(amb, alvo.cicloId);
          const { query, variables } = op.pedido(alvo);
          const r = await graphql(amb.urlMercados, navs.get(papel) ?? new Navegador(), query, variables);
          if (esperado === 'nao autenticado') {
            assert.equal(r.status, 401);
            assert.deepEqual(r.corpo, {
              errors: [{ message: 'Não autenticado', extensions: { code: 'UNAUTHENTICATED' } }],
            });
          } else if (esperado === 'permitido') {
            assert.equal(r.status, 200);
            assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
            await op.efeito(r, alvo, amb, contas.get(papel) ?? assert.fail(`sem conta para ${papel}`));
            return;
          } else {
            assert.equal(r.status, 200);
            assert.equal(r.corpo.errors?.length, 1, JSON.stringify(r.corpo));
            assert.equal(r.corpo.errors[0]?.message, esperado.message);
            assert.equal(r.corpo.errors[0]?.extensions?.code, esperado.code);
            assert.deepEqual(r.corpo.errors[0]?.path, [op.nome]);
          }
          // Refused: nothing changed.
          assert.equal(await quantosMercados(amb), mercadosAntes);
          assert.deepEqual(await mercadoNoBanco(amb, alvo.mercadoId), antes);
          const precos = await amb.banco
            .selectFrom('precomercado')
            .select('id')
            .where('mercadoId', '=', alvo.mercadoId)
            .execute();
          assert.deepEqual(precos, []);
          assert.deepEqual(await perfisDe(amb.banco, alvo.contaId), ['Consumidor']);
          assert.deepEqual(await fotoDoCiclo(amb, alvo.cicloId), cicloAntes);
        });
      }
    });
  }
});
