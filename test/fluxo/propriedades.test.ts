import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { abrirBanco, type Banco } from '../../src/db/banco.ts';
import type { Ator } from '../../src/domain/acesso.ts';
import { extrasPublicados, linhasOfertadas } from '../../src/domain/alocacao.ts';
import { salvarCiclo } from '../../src/domain/ciclos.ts';
import { salvarComposicao } from '../../src/domain/composicao.ts';
import { ErroDominio } from '../../src/domain/erros.ts';
import { fecharCiclo } from '../../src/domain/financeiro.ts';
import { apagarProdutoDaOferta, salvarOferta } from '../../src/domain/ofertas.ts';
import { disponibilidade, finalizarPedido, pedidosVisiveis, reservasDoCiclo, salvarPedido, type Taxa } from '../../src/domain/pedidos.ts';
import { DIALETO, bancoNovo } from '../helpers/banco.ts';
import { DATAS_PADRAO, criarCesta, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { semente } from '../helpers/semente.ts';

const TAXA: Taxa = { percentualCentesimos: 250, fixaCentavos: 100 };
const AGORA = new Date('2026-03-07T15:00:00Z');
const TEMPO = { agora: AGORA, hoje: '2026-03-07' };

type Operacao =
  | { tipo: 'oferta'; fornecedor: number; produto: number; quantidade: number; valor: number; finalizar: boolean }
  | { tipo: 'composicao'; cesta: number; cestas: number; itens: Array<{ linha: number; porCesta: number }> }
  | { tipo: 'extras'; linha: number; quantidade: number }
  | { tipo: 'pedido'; consumidor: number; cesta: number; cestas: number; extra: number; quantidadeExtra: number }
  | { tipo: 'confirmar'; consumidor: number }
  | { tipo: 'tirarDaOferta'; linha: number }
  | { tipo: 'quantidadeDeCestas'; quantidades: [number, number] };

const operacao: fc.Arbitrary<Operacao> = fc.oneof(
  fc.record({ tipo: fc.constant('oferta' as const), fornecedor: fc.nat(2), produto: fc.nat(2), quantidade: fc.integer({ min: 1, max: 40 }), valor: fc.integer({ min: 0, max: 3000 }), finalizar: fc.constantFrom(true, true, true, false) }),
  fc.record({ tipo: fc.constant('composicao' as const), cesta: fc.nat(1), cestas: fc.integer({ min: 0, max: 12 }), itens: fc.array(fc.record({ linha: fc.nat(8), porCesta: fc.integer({ min: 1, max: 5000 }) }), { maxLength: 3 }) }),
  fc.record({ tipo: fc.constant('extras' as const), linha: fc.nat(8), quantidade: fc.integer({ min: 0, max: 8 }) }),
  fc.record({ tipo: fc.constant('pedido' as const), consumidor: fc.nat(3), cesta: fc.nat(1), cestas: fc.integer({ min: 0, max: 6 }), extra: fc.nat(2), quantidadeExtra: fc.integer({ min: 0, max: 8 }) }),
  fc.record({ tipo: fc.constant('confirmar' as const), consumidor: fc.nat(3) }),
  fc.record({ tipo: fc.constant('tirarDaOferta' as const), linha: fc.nat(8) }),
  fc.record({ tipo: fc.constant('quantidadeDeCestas' as const), quantidades: fc.tuple(fc.nat(14), fc.nat(14)) }),
);

let banco: Banco;
let admin: Ator;
const fornecedores: number[] = [];
const consumidores: number[] = [];
const produtos: number[] = [];
const cestas: number[] = [];
let ponto = 0;

before(async () => {
  banco = abrirBanco(await bancoNovo());
  const a = await criarUsuario(banco, { perfil: ['admin'] });
  admin = { email: a.email, nome: a.nome, usuarioid: a.id, perfil: ['admin'], ativo: true };
  for (let i = 0; i < 3; i++) fornecedores.push((await criarUsuario(banco, { perfil: ['fornecedor'] })).id);
  for (let i = 0; i < 4; i++) consumidores.push((await criarUsuario(banco, { perfil: ['consumidor'] })).id);
  for (const unidade of ['kg', 'maço', 'unidade']) produtos.push((await criarProduto(banco, { unidade })).id);
  for (let i = 0; i < 2; i++) cestas.push((await criarCesta(banco, { valorCentavos: 3000 + i * 2500 })).id);
  ponto = (await criarPonto(banco)).id;
});
after(() => banco.destroy());

async function executar(cicloid: number, cicloCestas: readonly number[], op: Operacao): Promise<void> {
  switch (op.tipo) {
    case 'oferta': {
      await salvarOferta(banco, admin, { cicloid, usuarioid: fornecedores[op.fornecedor], produtos: [{ produtoid: produtos[op.produto], quantidade: op.quantidade, valor: (op.valor / 100).toFixed(2) }] }, { ...TEMPO, finalizar: op.finalizar });
      return;
    }
    case 'composicao': {
      const linhas = await linhasOfertadas(banco, cicloid);
      const itens = op.itens.flatMap((i) => {
        const l = linhas[i.linha % Math.max(1, linhas.length)];
        return l === undefined ? [] : [{ ofertaProdutoId: l.ofertaProdutoId, quantidadePorCesta: (i.porCesta / 1000).toFixed(3), unidade: l.unidade }];
      });
      const unicos = [...new Map(itens.map((i) => [i.ofertaProdutoId, i])).values()];
      await salvarComposicao(banco, admin, cicloCestas[op.cesta] ?? 0, { quantidadeCestas: op.cestas, produtos: unicos }, AGORA);
      return;
    }
    case 'extras': {
      // Extras come from what finalised offers leave over: pick the product of an offered line.
      const linhas = await linhasOfertadas(banco, cicloid);
      const produtoId = linhas[op.linha % Math.max(1, linhas.length)]?.produtoId ?? produtos[0];
      await salvarCiclo(banco, admin, cicloid, { nome: `P ${cicloid}`, ...DATAS_PADRAO, cicloProdutos: op.quantidade === 0 ? [] : [{ produtoId, quantidade: op.quantidade, valor: '5.00' }] }, AGORA, TEMPO.hoje);
      return;
    }
    case 'pedido': {
      const disp = await disponibilidade(banco, cicloid);
      const extra = disp.extras[op.extra % Math.max(1, disp.extras.length)];
      const linhas = [
        ...(op.cestas > 0 ? [{ cicloCestaId: cicloCestas[op.cesta], quantidade: op.cestas }] : []),
        ...(extra !== undefined && op.quantidadeExtra > 0 ? [{ cicloProdutoId: extra.cicloProdutoId, quantidade: op.quantidadeExtra }] : []),
      ];
      await salvarPedido(banco, admin, { cicloid, pontoEntregaId: ponto, usuarioid: consumidores[op.consumidor], produtos: linhas }, { ...TEMPO, taxa: TAXA });
      return;
    }
    case 'confirmar': {
      const meus = (await pedidosVisiveis(banco, admin, cicloid, TAXA)).filter((p) => p.usuario.id === consumidores[op.consumidor]);
      for (const p of meus) await finalizarPedido(banco, admin, { pedidoId: p.pedidoId }, { ...TEMPO, taxa: TAXA, tz: 'America/Sao_Paulo' });
      return;
    }
    case 'tirarDaOferta': {
      const linhas = await linhasOfertadas(banco, cicloid);
      const l = linhas[op.linha % Math.max(1, linhas.length)];
      if (l !== undefined) await apagarProdutoDaOferta(banco, admin, { ofertaProdutoId: l.ofertaProdutoId }, TEMPO);
      return;
    }
    case 'quantidadeDeCestas': {
      const lista = cicloCestas.map((id, i) => ({ id, cestaId: cestas[i], quantidadeCestas: op.quantidades[i] ?? 0 }));
      await salvarCiclo(banco, admin, cicloid, { nome: `P ${cicloid}`, ...DATAS_PADRAO, cicloCestas: lista }, AGORA, TEMPO.hoje);
      return;
    }
  }
}

async function conferirInvariantes(cicloid: number): Promise<void> {
  const linhas = await linhasOfertadas(banco, cicloid);
  for (const l of linhas) assert.ok(l.paraCestasMil <= l.ofertadoMil, `linha ${l.ofertaProdutoId}: ${l.paraCestasMil} > ${l.ofertadoMil}`);
  for (const e of await extrasPublicados(banco, cicloid)) {
    const doProduto = linhas.filter((l) => l.produtoId === e.produtoId);
    const sobra = doProduto.reduce((s, l) => s + l.ofertadoMil - l.paraCestasMil, 0);
    assert.ok(e.publicadoMil <= sobra, `extra ${e.produtoId}: ${e.publicadoMil} > sobra ${sobra}`);
  }
  const disp = await disponibilidade(banco, cicloid);
  for (const c of disp.cestas) assert.ok(c.disponivel >= 0);
  for (const e of disp.extras) assert.ok(e.disponivel >= 0);
  const reservas = await banco
    .selectFrom('ciclocesta as cc')
    .leftJoin('pedidoproduto as pp', 'pp.cicloCestaId', 'cc.id')
    .select(['cc.id', 'cc.quantidadeCestas'])
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('pp.quantidadeMilesimos'), eb.lit(0)).as('m'))
    .where('cc.cicloid', '=', cicloid)
    .groupBy(['cc.id', 'cc.quantidadeCestas'])
    .execute();
  for (const r of reservas) assert.ok(Number(r.m) <= r.quantidadeCestas * 1000, `cesta ${r.id} vendida além do estoque`);
  // The counters the triggers keep are exactly the sums of the order lines.
  const contadas = await reservasDoCiclo(banco, cicloid);
  for (const r of reservas) assert.equal(contadas.cestas.get(r.id), Number(r.m), `contador da cesta ${r.id}`);
  const extras = await banco
    .selectFrom('cicloproduto as cp')
    .leftJoin('pedidoproduto as pp', 'pp.cicloProdutoId', 'cp.id')
    .select('cp.id')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('pp.quantidadeMilesimos'), eb.lit(0)).as('m'))
    .where('cp.cicloid', '=', cicloid)
    .groupBy('cp.id')
    .execute();
  assert.deepEqual(new Map(extras.map((e) => [e.id, Number(e.m)])), contadas.extras, 'contadores dos extras');
}

test(`sequências aleatórias de ofertas, composições, extras, pedidos e edições do ciclo nunca quebram as invariantes (${DIALETO})`, async () => {
  let contador = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(operacao, { minLength: 1, maxLength: 18 }), async (ops) => {
      const iso = new Date().toISOString();
      contador++;
      const nome = `P ${contador}`;
      const ciclo = await banco.insertInto('ciclo').values({ nome, nomeChave: nome.toLowerCase(), ...DATAS_PADRAO, createdAt: iso, updatedAt: iso }).returning('id').executeTakeFirstOrThrow();
      const cicloCestas: number[] = [];
      for (const [i, cestaId] of cestas.entries()) {
        cicloCestas.push((await banco.insertInto('ciclocesta').values({ cicloid: ciclo.id, cestaId, quantidadeCestas: 6 + i * 2, createdAt: iso, updatedAt: iso }).returning('id').executeTakeFirstOrThrow()).id);
      }
      for (const op of ops) {
        try {
          await executar(ciclo.id, cicloCestas, op);
        } catch (e) {
          // Refusals (409, 400) are allowed; anything else is a bug.
          if (!(e instanceof ErroDominio)) throw e;
        }
        await conferirInvariantes(ciclo.id);
      }
      const fechamento = await fecharCiclo(banco, admin, ciclo.id, { agora: new Date('2026-03-10T15:00:00Z'), hoje: '2026-03-10', taxa: TAXA });
      const confirmados = (await pedidosVisiveis(banco, admin, ciclo.id, TAXA)).filter((p) => p.finalizado);
      const esperado = confirmados.reduce((s, p) => s + Math.round(p.totalComTaxa * 100), 0);
      assert.equal(Math.round(fechamento.debitos * 100), esperado, 'Σ débitos = Σ totais dos pedidos confirmados, com a taxa');
      const debitos = await banco.selectFrom('movimentacao').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('valorCentavos'), eb.lit(0)).as('s')).where('cicloid', '=', ciclo.id).where('sentido', '=', 'debito').executeTakeFirstOrThrow();
      assert.equal(Number(debitos.s), esperado);
    }),
    { numRuns: 25, seed: semente() },
  );
});
