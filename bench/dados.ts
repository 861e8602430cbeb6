/**
 * `npm run bench:data -- --consumers 5000 --suppliers 60 --products 400 [--db sqlite:./data/bench.db]`
 * Builds a fresh database with one big cycle in its delivery phase: suppliers' finalised offers
 * (400 offered lines), 6 basket types composed from them, extras, and one confirmed order per
 * consumer. Written in bulk; every rule of the domain holds (capacity, stock).
 */
import { rmSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { abrirBanco, migrar, type Banco } from '../src/db/banco.ts';
import { gravarPerfis } from '../src/domain/perfis.ts';

const TIPOS_DE_CESTA = 6;
const UNIDADES = ['kg', 'maço', 'unidade', 'dúzia', 'litro'] as const;

async function emLotes<T>(itens: readonly T[], tamanho: number, fazer: (lote: T[]) => Promise<unknown>): Promise<void> {
  for (let i = 0; i < itens.length; i += tamanho) await fazer(itens.slice(i, i + tamanho));
}

export async function gerarDados(
  banco: Banco,
  opcoes: { consumidores: number; fornecedores: number; linhas: number },
): Promise<{ cicloid: number; adminEmail: string; consumidores: string[]; fornecedores: string[] }> {
  const iso = new Date().toISOString();
  const datas = { createdAt: iso, updatedAt: iso };
  const usuario = (email: string, nome: string, perfil: Parameters<typeof gravarPerfis>[0]) => ({
    nome,
    nomeChave: nome.toLowerCase(),
    email,
    emailChave: email,
    perfil: gravarPerfis(perfil),
    cientepolitica: true,
    ...datas,
  });
  const adminEmail = 'bench.admin@exemplo.org';
  await banco
    .insertInto('usuario')
    .values(usuario(adminEmail, 'Admin Bench', ['admin']))
    .execute();
  const fornecedores = Array.from({ length: opcoes.fornecedores }, (_, i) => `fornecedor${i}@bench.org`);
  const consumidores = Array.from({ length: opcoes.consumidores }, (_, i) => `consumidor${i}@bench.org`);
  const idsF: number[] = [];
  await emLotes(fornecedores, 500, async (lote) =>
    idsF.push(
      ...(
        await banco
          .insertInto('usuario')
          .values(lote.map((e, i) => usuario(e, `Fornecedor ${idsF.length + i}`, ['fornecedor'])))
          .returning('id')
          .execute()
      ).map((r) => r.id),
    ),
  );
  const idsC: number[] = [];
  await emLotes(consumidores, 500, async (lote) =>
    idsC.push(
      ...(
        await banco
          .insertInto('usuario')
          .values(lote.map((e, i) => usuario(e, `Consumidor ${idsC.length + i}`, ['consumidor'])))
          .returning('id')
          .execute()
      ).map((r) => r.id),
    ),
  );
  const produtos: number[] = [];
  await emLotes(
    Array.from({ length: opcoes.linhas }, (_, i) => i),
    500,
    async (lote) =>
      produtos.push(
        ...(
          await banco
            .insertInto('produto')
            .values(
              lote.map((i) => ({
                nome: `Produto ${i}`,
                nomeChave: `produto ${i}`,
                unidade: UNIDADES[i % UNIDADES.length] ?? 'kg',
                valorReferenciaCentavos: 300 + (i % 50) * 10,
                ...datas,
              })),
            )
            .returning('id')
            .execute()
        ).map((r) => r.id),
      ),
  );
  const pontos = (
    await banco
      .insertInto('pontoentrega')
      .values(
        Array.from({ length: 8 }, (_, i) => ({
          nome: `Ponto ${i}`,
          nomeChave: `ponto ${i}`,
          endereco: `Rua ${i}, ${i * 10}`,
          ...datas,
        })),
      )
      .returning('id')
      .execute()
  ).map((r) => r.id);
  const cestas = (
    await banco
      .insertInto('cesta')
      .values(
        Array.from({ length: TIPOS_DE_CESTA }, (_, i) => ({
          nome: `Cesta ${i}`,
          nomeChave: `cesta ${i}`,
          valorReferenciaCentavos: 4000 + i * 1000,
          ...datas,
        })),
      )
      .returning('id')
      .execute()
  ).map((r) => r.id);
  const ciclo = await banco
    .insertInto('ciclo')
    .values({
      nome: 'Ciclo de carga',
      nomeChave: 'ciclo de carga',
      dataOfertaInicio: '2026-03-01',
      dataOfertaFim: '2026-03-04',
      dataPedidoInicio: '2026-03-06',
      dataPedidoFim: '2026-03-09',
      dataRetiradaInicio: '2026-03-11',
      dataRetiradaFim: '2026-03-12',
      ...datas,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const porTipo = Math.ceil(opcoes.consumidores / TIPOS_DE_CESTA) + 50;
  const cicloCestas = (
    await banco
      .insertInto('ciclocesta')
      .values(cestas.map((cestaId) => ({ cicloid: ciclo.id, cestaId, quantidadeCestas: porTipo, ...datas })))
      .returning('id')
      .execute()
  ).map((r) => r.id);
  const ofertas = (
    await banco
      .insertInto('oferta')
      .values(
        idsF.map((usuarioid) => ({ cicloid: ciclo.id, usuarioid, finalizada: true, finalizadaEm: iso, ...datas })),
      )
      .returning('id')
      .execute()
  ).map((r) => r.id);
  const linhas: number[] = [];
  await emLotes(
    produtos.map((produtoid, i) => ({ produtoid, ofertaid: ofertas[i % ofertas.length] ?? 0, i })),
    500,
    async (lote) =>
      linhas.push(
        ...(
          await banco
            .insertInto('ofertaproduto')
            .values(
              lote.map((l) => ({
                ofertaid: l.ofertaid,
                produtoid: l.produtoid,
                quantidadeMilesimos: 100_000_000,
                valorCentavos: 200 + (l.i % 40) * 10,
                ...datas,
              })),
            )
            .returning('id')
            .execute()
        ).map((r) => r.id),
      ),
  );
  for (const [k, cc] of cicloCestas.entries()) {
    const comp = await banco
      .insertInto('composicao')
      .values({ cicloCestaId: cc, quantidadeCestas: porTipo, ...datas })
      .returning('id')
      .executeTakeFirstOrThrow();
    const usadas = Array.from({ length: 8 }, (_, j) => linhas[(k * 37 + j * 11) % linhas.length] ?? 0);
    await banco
      .insertInto('composicaoproduto')
      .values(
        [...new Set(usadas)].map((ofertaProdutoId, j) => ({
          composicaoid: comp.id,
          ofertaProdutoId,
          quantidadePorCestaMilesimos: 500 + j * 250,
          unidade: 'kg',
          ...datas,
        })),
      )
      .execute();
  }
  const extras = (
    await banco
      .insertInto('cicloproduto')
      .values(
        produtos.slice(-20).map((produtoId) => ({
          cicloid: ciclo.id,
          produtoId,
          quantidadeMilesimos: opcoes.consumidores * 1000,
          valorCentavos: 900,
          ...datas,
        })),
      )
      .returning('id')
      .execute()
  ).map((r) => r.id);
  const pedidos: number[] = [];
  await emLotes(idsC, 500, async (lote) =>
    pedidos.push(
      ...(
        await banco
          .insertInto('pedido')
          .values(
            lote.map((usuarioid, i) => ({
              cicloid: ciclo.id,
              usuarioid,
              pontoEntregaId: pontos[i % pontos.length] ?? 0,
              finalizado: true,
              dataConfirmacao: '2026-03-08T10:00:00',
              ...datas,
            })),
          )
          .returning('id')
          .execute()
      ).map((r) => r.id),
    ),
  );
  await emLotes(
    pedidos.map((pedidoid, i) => ({ pedidoid, i })),
    400,
    (lote) =>
      banco
        .insertInto('pedidoproduto')
        .values(
          lote.flatMap(({ pedidoid, i }) => [
            {
              pedidoid,
              cicloCestaId: cicloCestas[i % cicloCestas.length] ?? 0,
              cicloProdutoId: null,
              quantidadeMilesimos: 1000,
              valorCentavos: 4000 + (i % TIPOS_DE_CESTA) * 1000,
              ...datas,
            },
            ...(i % 3 === 0
              ? [
                  {
                    pedidoid,
                    cicloCestaId: null,
                    cicloProdutoId: extras[i % extras.length] ?? 0,
                    quantidadeMilesimos: 500,
                    valorCentavos: 900,
                    ...datas,
                  },
                ]
              : []),
          ]),
        )
        .execute(),
  );
  return { cicloid: ciclo.id, adminEmail, consumidores, fornecedores };
}

if (import.meta.main) {
  const { values } = parseArgs({
    options: {
      consumers: { type: 'string', default: '5000' },
      suppliers: { type: 'string', default: '60' },
      products: { type: 'string', default: '400' },
      db: { type: 'string', default: 'sqlite:./data/bench.db' },
    },
  });
  const CONSUMIDORES = Number(values.consumers);
  const FORNECEDORES = Number(values.suppliers);
  const LINHAS = Number(values.products);
  const url = values.db;
  if (url.startsWith('sqlite:')) rmSync(url.slice('sqlite:'.length), { force: true });
  const cfg = url.startsWith('sqlite:')
    ? { tipo: 'sqlite' as const, caminho: url.slice('sqlite:'.length) }
    : { tipo: 'postgres' as const, url };
  const banco = abrirBanco(cfg);
  const inicio = performance.now();
  await migrar(banco, cfg.tipo);
  const r = await gerarDados(banco, { consumidores: CONSUMIDORES, fornecedores: FORNECEDORES, linhas: LINHAS });
  await banco.destroy();
  console.log(
    `Dados gerados em ${((performance.now() - inicio) / 1000).toFixed(1)} s: ciclo ${r.cicloid}, ${CONSUMIDORES} pedidos confirmados, ${FORNECEDORES} fornecedores, ${LINHAS} linhas ofertadas, ${TIPOS_DE_CESTA} tipos de cesta (${url}).`,
  );
}
