import { randomBytes } from 'node:crypto';
import type { Db } from '../../src/db/banco.ts';
import type { DatasCiclo } from '../../src/domain/ciclos/calendario.ts';
import { gravarPerfis, type Perfil } from '../../src/domain/perfis.ts';
import { chaveDeEmail } from '../../src/domain/usuarios.ts';
import { diaLocal, somarDias } from '../../src/domain/tempo.ts';

/** A unique e-mail per call, so tests never depend on each other's data. */
export function emailUnico(prefixo = 'pessoa'): string {
  return `${prefixo}.${randomBytes(4).toString('hex')}@teste.org`;
}

export async function criarUsuario(
  db: Db,
  dados: { email?: string; nome?: string; perfil?: readonly Perfil[]; ativo?: boolean } = {},
): Promise<{ id: number; email: string; nome: string }> {
  const email = dados.email ?? emailUnico();
  const nome = dados.nome ?? 'Pessoa de Teste';
  const iso = new Date().toISOString();
  const r = await db
    .insertInto('usuario')
    .values({
      nome,
      nomeChave: nome.toLowerCase(),
      email,
      emailChave: chaveDeEmail(email),
      perfil: gravarPerfis(dados.perfil ?? ['consumidor']),
      ativo: dados.ativo ?? true,
      cientepolitica: true,
      createdAt: iso,
      updatedAt: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: r.id, email, nome };
}

const AGORA = () => new Date().toISOString();

let sequencia = 0;
function nomeUnico(prefixo: string): string {
  sequencia++;
  return `${prefixo} ${sequencia} ${randomBytes(2).toString('hex')}`;
}

export async function criarCesta(
  db: Db,
  dados: { nome?: string; valorCentavos?: number } = {},
): Promise<{ id: number; nome: string }> {
  const nome = dados.nome ?? nomeUnico('Cesta');
  const iso = AGORA();
  const r = await db
    .insertInto('cesta')
    .values({
      nome,
      nomeChave: nome.toLowerCase(),
      valorReferenciaCentavos: dados.valorCentavos ?? 5000,
      createdAt: iso,
      updatedAt: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: r.id, nome };
}

export async function criarProduto(
  db: Db,
  dados: { nome?: string; unidade?: string; valorCentavos?: number } = {},
): Promise<{ id: number; nome: string }> {
  const nome = dados.nome ?? nomeUnico('Produto');
  const iso = AGORA();
  const r = await db
    .insertInto('produto')
    .values({
      nome,
      nomeChave: nome.toLowerCase(),
      unidade: dados.unidade ?? 'kg',
      valorReferenciaCentavos: dados.valorCentavos ?? 500,
      createdAt: iso,
      updatedAt: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: r.id, nome };
}

export async function criarPonto(db: Db, nome = nomeUnico('Ponto')): Promise<{ id: number }> {
  const iso = AGORA();
  return db
    .insertInto('pontoentrega')
    .values({ nome, nomeChave: nome.toLowerCase(), createdAt: iso, updatedAt: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
}

export type DatasDoCiclo = DatasCiclo;

export const DATAS_PADRAO: DatasDoCiclo = {
  dataOfertaInicio: '2026-03-01',
  dataOfertaFim: '2026-03-04',
  dataPedidoInicio: '2026-03-06',
  dataPedidoFim: '2026-03-09',
  dataRetiradaInicio: '2026-03-11',
  dataRetiradaFim: '2026-03-12',
};

/** Dates of a cycle whose order window is open today (in the community's zone), for tests against a real clock. */
export function datasComPedidoAbertoHoje(tz = 'America/Sao_Paulo'): DatasDoCiclo {
  const hoje = diaLocal(new Date(), tz);
  return {
    dataOfertaInicio: somarDias(hoje, -5),
    dataOfertaFim: somarDias(hoje, -4),
    dataPedidoInicio: somarDias(hoje, -1),
    dataPedidoFim: somarDias(hoje, 1),
    dataRetiradaInicio: somarDias(hoje, 2),
    dataRetiradaFim: somarDias(hoje, 3),
  };
}

/** A cycle whose order window is open today (by the real clock a spawned server uses), with one basket type and a pickup point. */
export async function criarCicloAberto(
  db: Db,
  cestas: number,
): Promise<{ cicloid: number; cicloCestaId: number; ponto: number }> {
  const cesta = await criarCesta(db);
  const ciclo = await criarCiclo(db, {
    datas: datasComPedidoAbertoHoje(),
    cestas: [{ cestaId: cesta.id, quantidadeCestas: cestas }],
    compor: true,
  });
  return { cicloid: ciclo.id, cicloCestaId: ciclo.cicloCestas[0] ?? 0, ponto: (await criarPonto(db)).id };
}

/**
 * Composes baskets of a cycle (one kilo of a finalised offer line per basket, from a supplier of
 * its own unless one is given), so they are for sale: a basket with nothing composed in it cannot be ordered.
 */
export async function comporCestas(
  db: Db,
  cicloid: number,
  cicloCestaIds: readonly number[],
  fornecedorId?: number,
): Promise<{ fornecedorId: number | null }> {
  if (cicloCestaIds.length === 0) return { fornecedorId: null };
  const iso = AGORA();
  const cestas = await db
    .selectFrom('ciclocesta')
    .select(['id', 'quantidadeCestas'])
    .where('id', 'in', [...cicloCestaIds])
    .execute();
  const produto = await criarProduto(db, { unidade: 'kg' });
  const total = cestas.reduce((t, c) => t + c.quantidadeCestas, 0);
  const oferta = await criarOfertaFinalizada(
    db,
    cicloid,
    [{ produtoId: produto.id, quantidadeMilesimos: Math.max(1, total) * 1000, valorCentavos: 100 }],
    fornecedorId,
  );
  for (const c of cestas) {
    const composicao = await db
      .insertInto('composicao')
      .values({ cicloCestaId: c.id, quantidadeCestas: c.quantidadeCestas, createdAt: iso, updatedAt: iso })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('composicaoproduto')
      .values({
        composicaoid: composicao.id,
        ofertaProdutoId: oferta.linhas[0] ?? 0,
        quantidadePorCestaMilesimos: 1000,
        unidade: 'kg',
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
  }
  return { fornecedorId: oferta.fornecedorId };
}

export async function criarCiclo(
  db: Db,
  dados: {
    nome?: string;
    datas?: DatasDoCiclo;
    cestas?: Array<{ cestaId: number; quantidadeCestas: number }>;
    compor?: boolean;
  } = {},
): Promise<{ id: number; cicloCestas: number[]; compositor: number | null }> {
  const iso = AGORA();
  const nome = dados.nome ?? nomeUnico('Ciclo');
  const ciclo = await db
    .insertInto('ciclo')
    .values({
      nome,
      nomeChave: nome.toLocaleLowerCase('pt-BR'),
      ...(dados.datas ?? DATAS_PADRAO),
      createdAt: iso,
      updatedAt: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const cicloCestas: number[] = [];
  for (const c of dados.cestas ?? []) {
    const r = await db
      .insertInto('ciclocesta')
      .values({ cicloid: ciclo.id, ...c, createdAt: iso, updatedAt: iso })
      .returning('id')
      .executeTakeFirstOrThrow();
    cicloCestas.push(r.id);
  }
  const { fornecedorId } =
    dados.compor === true ? await comporCestas(db, ciclo.id, cicloCestas) : { fornecedorId: null };
  return { id: ciclo.id, cicloCestas, compositor: fornecedorId };
}

/** A finalised offer line, a composition using it, and an order of the cycle basket. */
export async function criarUsoDaCesta(
  db: Db,
  cicloid: number,
  cicloCestaId: number,
  dados: { pedidas: number; compostas: number },
): Promise<{ pedidoId: number; composicaoId: number; ofertaProdutoId: number }> {
  const iso = AGORA();
  const fornecedor = await criarUsuario(db, { perfil: ['fornecedor'] });
  const consumidor = await criarUsuario(db, { perfil: ['consumidor'] });
  const produto = await criarProduto(db);
  const ponto = await criarPonto(db);
  const oferta = await db
    .insertInto('oferta')
    .values({ cicloid, usuarioid: fornecedor.id, finalizada: true, createdAt: iso, updatedAt: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  const linha = await db
    .insertInto('ofertaproduto')
    .values({
      ofertaid: oferta.id,
      produtoid: produto.id,
      quantidadeMilesimos: 100_000,
      valorCentavos: 400,
      createdAt: iso,
      updatedAt: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const composicao = await db
    .insertInto('composicao')
    .values({ cicloCestaId, quantidadeCestas: dados.compostas, createdAt: iso, updatedAt: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('composicaoproduto')
    .values({
      composicaoid: composicao.id,
      ofertaProdutoId: linha.id,
      quantidadePorCestaMilesimos: 1000,
      unidade: 'kg',
      createdAt: iso,
      updatedAt: iso,
    })
    .execute();
  const pedido = await db
    .insertInto('pedido')
    .values({ cicloid, usuarioid: consumidor.id, pontoEntregaId: ponto.id, createdAt: iso, updatedAt: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('pedidoproduto')
    .values({
      pedidoid: pedido.id,
      cicloCestaId,
      quantidadeMilesimos: dados.pedidas * 1000,
      valorCentavos: 5000,
      createdAt: iso,
      updatedAt: iso,
    })
    .execute();
  return { pedidoId: pedido.id, composicaoId: composicao.id, ofertaProdutoId: linha.id };
}

/** A supplier's finalised offer of some products in a cycle. */
export async function criarOfertaFinalizada(
  db: Db,
  cicloid: number,
  linhas: Array<{ produtoId: number; quantidadeMilesimos: number; valorCentavos: number }>,
  fornecedorId?: number,
): Promise<{ ofertaId: number; fornecedorId: number; linhas: number[] }> {
  const iso = AGORA();
  const usuarioid = fornecedorId ?? (await criarUsuario(db, { perfil: ['fornecedor'] })).id;
  const oferta = await db
    .insertInto('oferta')
    .values({ cicloid, usuarioid, finalizada: true, finalizadaEm: iso, createdAt: iso, updatedAt: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  const ids: number[] = [];
  for (const l of linhas) {
    const r = await db
      .insertInto('ofertaproduto')
      .values({
        ofertaid: oferta.id,
        produtoid: l.produtoId,
        quantidadeMilesimos: l.quantidadeMilesimos,
        valorCentavos: l.valorCentavos,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(r.id);
  }
  return { ofertaId: oferta.id, fornecedorId: usuarioid, linhas: ids };
}

/** An extra of a cycle (cicloproduto): a product sold beside the baskets, of a new product unless one is given. */
export async function criarExtra(
  db: Db,
  cicloid: number,
  dados: { produtoId?: number; quantidadeMilesimos: number; valorCentavos: number },
): Promise<{ id: number }> {
  const iso = AGORA();
  const produtoId = dados.produtoId ?? (await criarProduto(db, { unidade: 'kg' })).id;
  return db
    .insertInto('cicloproduto')
    .values({
      cicloid,
      produtoId,
      quantidadeMilesimos: dados.quantidadeMilesimos,
      valorCentavos: dados.valorCentavos,
      createdAt: iso,
      updatedAt: iso,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
}

/** A cycle with `n` confirmed orders of one basket and one extra each, written in bulk; its id. */
export async function criarCicloComPedidos(
  db: Db,
  n: number,
  ponto: number,
  datas: DatasDoCiclo = DATAS_PADRAO,
): Promise<number> {
  const iso = AGORA();
  const produto = await criarProduto(db, { unidade: 'kg' });
  const cesta = await criarCesta(db);
  const ciclo = await criarCiclo(db, { datas, cestas: [{ cestaId: cesta.id, quantidadeCestas: n }] });
  const oferta = await criarOfertaFinalizada(db, ciclo.id, [
    { produtoId: produto.id, quantidadeMilesimos: n * 3000, valorCentavos: 500 },
  ]);
  const composicao = await db
    .insertInto('composicao')
    .values({ cicloCestaId: ciclo.cicloCestas[0] ?? 0, quantidadeCestas: n, createdAt: iso, updatedAt: iso })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('composicaoproduto')
    .values({
      composicaoid: composicao.id,
      ofertaProdutoId: oferta.linhas[0] ?? 0,
      quantidadePorCestaMilesimos: 1000,
      unidade: 'kg',
      createdAt: iso,
      updatedAt: iso,
    })
    .execute();
  const extra = await criarExtra(db, ciclo.id, {
    produtoId: produto.id,
    quantidadeMilesimos: n * 1000,
    valorCentavos: 800,
  });
  for (let i = 0; i < n; i += 250) {
    const lote = Array.from({ length: Math.min(250, n - i) }, () => emailUnico(`c${n}`));
    const usuarios = await db
      .insertInto('usuario')
      .values(
        lote.map((email) => ({
          nome: email,
          nomeChave: email,
          email,
          emailChave: email,
          perfil: gravarPerfis(['consumidor']),
          createdAt: iso,
          updatedAt: iso,
        })),
      )
      .returning('id')
      .execute();
    const pedidos = await db
      .insertInto('pedido')
      .values(
        usuarios.map((u) => ({
          cicloid: ciclo.id,
          usuarioid: u.id,
          pontoEntregaId: ponto,
          finalizado: true,
          dataConfirmacao: `${datas.dataPedidoInicio}T10:00:00`,
          createdAt: iso,
          updatedAt: iso,
        })),
      )
      .returning('id')
      .execute();
    await db
      .insertInto('pedidoproduto')
      .values(
        pedidos.flatMap((p) => [
          {
            pedidoid: p.id,
            cicloCestaId: ciclo.cicloCestas[0] ?? 0,
            cicloProdutoId: null,
            quantidadeMilesimos: 1000,
            valorCentavos: 5000,
            createdAt: iso,
            updatedAt: iso,
          },
          {
            pedidoid: p.id,
            cicloCestaId: null,
            cicloProdutoId: extra.id,
            quantidadeMilesimos: 500,
            valorCentavos: 800,
            createdAt: iso,
            updatedAt: iso,
          },
        ]),
      )
      .execute();
  }
  return ciclo.id;
}

/** A debt carried from before (a debit in the ledger, type 5), as a closed cycle would leave it. */
export async function dividaAnterior(
  db: Db,
  usuarioid: number,
  valorCentavos: number,
  quando: { data: string; descricao: string },
): Promise<void> {
  const iso = new Date().toISOString();
  await db
    .insertInto('movimentacao')
    .values({
      usuarioid,
      tipoMovimentacaoId: 5,
      sentido: 'debito',
      valorCentavos,
      data: quando.data,
      descricao: quando.descricao,
      createdAt: iso,
      updatedAt: iso,
    })
    .execute();
}
