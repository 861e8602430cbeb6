/**
 * The bench's database: the big delivery cycle of bench/dados.ts (closed, so movements exist),
 * plus what the live scenarios need around today's date, in the community's time zone:
 * - a cycle in its order window whose baskets have exactly enough room for everyone (the
 *   consumers outside the bench's ordering group already hold their orders), so any oversell
 *   shows up in the totals and a correct server never answers 409;
 * - a cycle in its offer window, for the suppliers' final saves;
 * - 200 Mercados markets with prices over the catalogue, administered by market admins.
 */
import { sql } from 'kysely';
import { abrirBanco, migrar } from '../src/db/banco.ts';
import type { BancoConfig } from '../src/config.ts';
import { fecharCiclo } from '../src/domain/financeiro.ts';
import { diaLocal, somarDias } from '../src/domain/tempo.ts';
import { gerarDados } from './dados.ts';

export const TZ = 'America/Sao_Paulo';

export interface Tamanho {
  readonly consumidores: number;
  readonly fornecedores: number;
  readonly linhas: number;
  /** How many consumers save orders during the order scenario (1,000 in the full run). */
  readonly pedintes: number;
  readonly mercados: number;
}

export interface DadosDoBench {
  readonly cicloEntrega: number;
  readonly cicloPedido: number;
  readonly cicloOferta: number;
  readonly adminEmail: string;
  readonly consumidores: readonly string[];
  readonly fornecedores: ReadonlyArray<{ email: string; produtos: number[] }>;
  /** The order cycle's baskets and their capacity. */
  readonly cestasDoPedido: ReadonlyArray<{ cicloCestaId: number; capacidade: number }>;
  readonly extrasDoPedido: readonly number[];
  readonly pontos: readonly number[];
}

const TIPOS_DE_CESTA = 6;

/** Creates and fills the bench database; returns what the scenarios need to address it. */
export async function prepararBanco(cfg: BancoConfig, t: Tamanho): Promise<DadosDoBench> {
  const banco = abrirBanco(cfg);
  try {
    await migrar(banco, cfg.tipo);
    const dados = await gerarDados(banco, {
      consumidores: t.consumidores,
      fornecedores: t.fornecedores,
      linhas: t.linhas,
    });
    const admin = await banco
      .selectFrom('usuario')
      .select(['id', 'nome'])
      .where('email', '=', dados.adminEmail)
      .executeTakeFirstOrThrow();
    // Close the delivery cycle so the movements page has one movement per consumer and supplier.
    await fecharCiclo(
      banco,
      { email: dados.adminEmail, nome: admin.nome, usuarioid: admin.id, perfil: ['admin'], ativo: true },
      dados.cicloid,
      {
        agora: new Date('2026-03-11T15:00:00Z'),
        hoje: '2026-03-11',
        taxa: { percentualCentesimos: 0, fixaCentavos: 0 },
      },
    );

    const agora = new Date();
    const iso = agora.toISOString();
    const datas = { createdAt: iso, updatedAt: iso };
    const hoje = diaLocal(agora, TZ);
    const pontos = (await banco.selectFrom('pontoentrega').select('id').orderBy('id').execute()).map((p) => p.id);
    const cestas = await banco.selectFrom('cesta').select(['id', 'valorReferenciaCentavos']).orderBy('id').execute();
    const produtos = (await banco.selectFrom('produto').select('id').orderBy('id').execute()).map((p) => p.id);
    const usuarios = new Map(
      (await banco.selectFrom('usuario').select(['id', 'email']).execute()).map((u) => [u.email, u.id]),
    );
    const idDe = (email: string): number => usuarios.get(email) ?? 0;

    const novoCiclo = async (nome: string, d: readonly [number, number, number, number, number, number]) =>
      (
        await banco
          .insertInto('ciclo')
          .values({
            nome,
            nomeChave: nome.toLowerCase(),
            dataOfertaInicio: somarDias(hoje, d[0]),
            dataOfertaFim: somarDias(hoje, d[1]),
            dataPedidoInicio: somarDias(hoje, d[2]),
            dataPedidoFim: somarDias(hoje, d[3]),
            dataRetiradaInicio: somarDias(hoje, d[4]),
            dataRetiradaFim: somarDias(hoje, d[5]),
            ...datas,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;

    // The order cycle: offers and compositions like the delivery cycle, orders of the others already in.
    const cicloPedido = await novoCiclo('Ciclo de pedidos do bench', [-6, -5, -1, 2, 4, 5]);
    const outros = dados.consumidores.slice(t.pedintes);
    // Consumer number g orders basket type g % 6: the room for each type is exactly its demand.
    const porTipo = (lista: readonly string[], k: number) => lista.filter((_, i) => i % TIPOS_DE_CESTA === k).length;
    const cicloCestas = await banco
      .insertInto('ciclocesta')
      .values(
        cestas.map((c, k) => ({
          cicloid: cicloPedido,
          cestaId: c.id,
          quantidadeCestas: porTipo(dados.consumidores, k),
          ...datas,
        })),
      )
      .returning(['id', 'quantidadeCestas'])
      .execute();
    const ofertas = (
      await banco
        .insertInto('oferta')
        .values(
          dados.fornecedores.map((email) => ({
            cicloid: cicloPedido,
            usuarioid: idDe(email),
            finalizada: true,
            finalizadaEm: iso,
            ...datas,
          })),
        )
        .returning('id')
        .execute()
    ).map((o) => o.id);
    const linhas: number[] = [];
    for (let i = 0; i < produtos.length; i += 400) {
      const lote = produtos.slice(i, i + 400);
      linhas.push(
        ...(
          await banco
            .insertInto('ofertaproduto')
            .values(
              lote.map((produtoid, j) => ({
                ofertaid: ofertas[(i + j) % ofertas.length] ?? 0,
                produtoid,
                quantidadeMilesimos: 100_000_000,
                valorCentavos: 200 + ((i + j) % 40) * 10,
                ...datas,
              })),
            )
            .returning('id')
            .execute()
        ).map((r) => r.id),
      );
    }
    for (const [k, cc] of cicloCestas.entries()) {
      const comp = await banco
        .insertInto('composicao')
        .values({ cicloCestaId: cc.id, quantidadeCestas: cc.quantidadeCestas, ...datas })
        .returning('id')
        .executeTakeFirstOrThrow();
      const usadas = [...new Set(Array.from({ length: 8 }, (_, j) => linhas[(k * 37 + j * 11) % linhas.length] ?? 0))];
      await banco
        .insertInto('composicaoproduto')
        .values(
          usadas.map((ofertaProdutoId, j) => ({
            composicaoid: comp.id,
            ofertaProdutoId,
            quantidadePorCestaMilesimos: 500 + j * 250,
            unidade: 'kg',
            ...datas,
          })),
        )
        .execute();
    }
    const extrasDoPedido = (
      await banco
        .insertInto('cicloproduto')
        .values(
          produtos.slice(0, 20).map((produtoId) => ({
            cicloid: cicloPedido,
            produtoId,
            quantidadeMilesimos: t.consumidores * 1000,
            valorCentavos: 900,
            ...datas,
          })),
        )
        .returning('id')
        .execute()
    ).map((r) => r.id);
    for (let i = 0; i < outros.length; i += 400) {
      const lote = outros.slice(i, i + 400);
      const pedidos = await banco
        .insertInto('pedido')
        .values(
          lote.map((email, j) => ({
            cicloid: cicloPedido,
            usuarioid: idDe(email),
            pontoEntregaId: pontos[(i + j) % pontos.length] ?? 0,
            finalizado: true,
            dataConfirmacao: `${hoje}T09:00:00`,
            ...datas,
          })),
        )
        .returning('id')
        .execute();
      await banco
        .insertInto('pedidoproduto')
        .values(
          pedidos.map((p, j) => {
            const k = (t.pedintes + i + j) % TIPOS_DE_CESTA;
            return {
              pedidoid: p.id,
              cicloCestaId: cicloCestas[k]?.id ?? 0,
              cicloProdutoId: null,
              quantidadeMilesimos: 1000,
              valorCentavos: cestas[k]?.valorReferenciaCentavos ?? 0,
              ...datas,
            };
          }),
        )
        .execute();
    }

    // The offer cycle: its window is open; each supplier offers the products that fall to it.
    const cicloOferta = await novoCiclo('Ciclo de ofertas do bench', [-1, 2, 4, 6, 8, 9]);
    const fornecedores = dados.fornecedores.map((email, f) => ({
      email,
      produtos: produtos.filter((_, i) => i % dados.fornecedores.length === f),
    }));

    // Mercados: market admins, then markets with prices over the catalogue.
    if (t.mercados > 0) {
      const perfil = await banco
        .selectFrom('profile')
        .select('id')
        .where('name', '=', 'AdminMercado')
        .executeTakeFirstOrThrow();
      const gestores = (
        await banco
          .insertInto('appuser')
          .values(
            Array.from({ length: 10 }, (_, i) => ({
              providerId: `bench-gestor-${i}`,
              email: `gestor${i}@bench.org`,
              emailChave: `gestor${i}@bench.org`,
              name: `Gestora ${i}`,
              avatar: null,
              ...datas,
            })),
          )
          .returning('id')
          .execute()
      ).map((g) => g.id);
      await banco
        .insertInto('appuserprofile')
        .values(gestores.map((userId) => ({ userId, profileId: perfil.id, ...datas })))
        .execute();
      const tipos = ['cesta', 'lote', 'venda_direta'] as const;
      const mercados = (
        await banco
          .insertInto('mercado')
          .values(
            Array.from({ length: t.mercados }, (_, i) => ({
              nome: `Mercado ${i}`,
              descricao: `Mercado de carga ${i}`,
              tipo: tipos[i % tipos.length] ?? 'cesta',
              taxaAdministrativaCentesimos: 250,
              valorMaximoCestaCentavos: 15_000,
              ativo: true,
              adminId: gestores[i % gestores.length] ?? 0,
              ...datas,
            })),
          )
          .returning('id')
          .execute()
      ).map((m) => m.id);
      const precos = mercados.flatMap((mercadoId, i) =>
        Array.from({ length: 20 }, (_, j) => ({
          mercadoId,
          produtoId: produtos[(i * 7 + j * 13) % produtos.length] ?? 0,
          precoCentavos: 300 + j * 25,
          ativo: true,
          ...datas,
        })),
      );
      const unicos = [...new Map(precos.map((p) => [`${p.mercadoId}:${p.produtoId}`, p])).values()];
      for (let i = 0; i < unicos.length; i += 500)
        await banco
          .insertInto('precomercado')
          .values(unicos.slice(i, i + 500))
          .execute();
    }

    // NOTE: a database in use has its planner statistics: PostgreSQL's autovacuum analyzes a table
    // a minute or so after many rows arrive. Loaded in bulk a second ago, this one has none, and
    // whether autovacuum got to it would depend on when each scenario runs (the report of 5,000
    // orders read its lines in 22.6 ms without them and 8.6 ms with them). Analyzed now, as the
    // database a community runs is.
    if (cfg.tipo === 'postgres') await sql`analyze`.execute(banco);

    return {
      cicloEntrega: dados.cicloid,
      cicloPedido,
      cicloOferta,
      adminEmail: dados.adminEmail,
      consumidores: dados.consumidores,
      fornecedores,
      cestasDoPedido: cicloCestas.map((c) => ({ cicloCestaId: c.id, capacidade: c.quantidadeCestas })),
      extrasDoPedido,
      pontos,
    };
  } finally {
    await banco.destroy();
  }
}

/** After the order scenario: baskets sold beyond their capacity (must be none), read from the database. */
export async function cestasVendidasDemais(
  cfg: BancoConfig,
  d: DadosDoBench,
): Promise<Array<{ cicloCestaId: number; capacidade: number; vendidas: number }>> {
  const banco = abrirBanco(cfg);
  try {
    const somas = await banco
      .selectFrom('pedidoproduto')
      .select(['cicloCestaId', (eb) => eb.fn.sum<number>('quantidadeMilesimos').as('m')])
      .where(
        'cicloCestaId',
        'in',
        d.cestasDoPedido.map((c) => c.cicloCestaId),
      )
      .groupBy('cicloCestaId')
      .execute();
    const vendidas = new Map(somas.map((s) => [s.cicloCestaId, Number(s.m) / 1000]));
    return d.cestasDoPedido
      .map((c) => ({ ...c, vendidas: vendidas.get(c.cicloCestaId) ?? 0 }))
      .filter((c) => c.vendidas > c.capacidade);
  } finally {
    await banco.destroy();
  }
}
