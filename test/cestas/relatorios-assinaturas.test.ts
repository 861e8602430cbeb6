import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Banco } from '../../src/db/banco.ts';
import type { Ator } from '../../src/domain/acesso.ts';
import { salvarAssinatura } from '../../src/domain/assinaturas/escrita.ts';
import { finalizarPedido } from '../../src/domain/pedidos/finalizar.ts';
import { salvarPedido } from '../../src/domain/pedidos/salvar.ts';
import { DIALETO } from '../helpers/banco.ts';
import { criarCesta, criarCiclo, criarPonto, criarUsuario } from '../helpers/fabricas.ts';
import { conferirMargens, textoDoPdf } from '../helpers/pdf.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

type Linha = Record<string, string | number | null>;
interface Rel {
  colunas: Array<{ chave: string; titulo: string }>;
  grupos: Array<{ titulo: string; linhas: Linha[] }>;
}

/**
 * The consumers' report and the delivery PDF tell a subscription's baskets from one-off orders
 * (issue 23): a column "Assinatura ou avulso" in the report, "(assinatura)" on the PDF's lines and
 * the baskets' count split by origin, through the real routes with a real login.
 */
/** A subscription for the whole year, every cycle, whose order in the open cycle is generated at once; then confirmed. */
async function assinarEConfirmar(
  db: Banco,
  ator: Ator,
  a: { cestaId: number; quantidade: number; ponto: number; cicloid: number },
  opcoes: Parameters<typeof finalizarPedido>[3],
): Promise<void> {
  await salvarAssinatura(
    db,
    ator,
    {
      id: null,
      usuarioid: null,
      cestaId: a.cestaId,
      quantidade: a.quantidade,
      pontoEntregaId: a.ponto,
      frequencia: 'cada_ciclo',
      inicio: '2026-01-01',
      fim: '2026-12-31',
      mercadoId: null,
      ativa: true,
    },
    opcoes,
  );
  const pedido = await db
    .selectFrom('pedido')
    .select('id')
    .where('usuarioid', '=', ator.usuarioid ?? 0)
    .where('cicloid', '=', a.cicloid)
    .executeTakeFirstOrThrow();
  await finalizarPedido(db, ator, pedido.id, opcoes);
}

describe('relatórios: assinatura ou avulso', () => {
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  let cicloid = 0;
  let cesta = '';
  before(async () => {
    // Inside the default cycle's order window.
    amb = await iniciarAmbiente({ relogio: new RelogioDeTeste('2026-03-07T15:00:00Z') });
    admin = await entrarComo(amb, ['admin']);
    const c = await criarCesta(amb.banco, { valorCentavos: 3000 });
    cesta = c.nome;
    const ciclo = await criarCiclo(amb.banco, { cestas: [{ cestaId: c.id, quantidadeCestas: 10 }], compor: true });
    cicloid = ciclo.id;
    const ponto = (await criarPonto(amb.banco)).id;
    const opcoes = { agora: amb.relogio.agora(), hoje: '2026-03-07', taxa: amb.config.taxa, tz: amb.config.tz };
    const pessoa = async (nome: string): Promise<Ator> => {
      const u = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome });
      return { email: u.email, nome, usuarioid: u.id, perfil: ['consumidor'], ativo: true };
    };
    // Ana subscribes (2 baskets, generated at once); Bruno orders one basket once. Both confirm.
    const ana = await pessoa('Ana Assinante');
    await assinarEConfirmar(amb.banco, ana, { cestaId: c.id, quantidade: 2, ponto, cicloid }, opcoes);
    const bruno = await pessoa('Bruno Avulso');
    const { pedido } = await salvarPedido(
      amb.banco,
      bruno,
      {
        usuarioid: null,
        cicloid,
        pontoEntregaId: ponto,
        linhas: [
          {
            cicloCestaId: ciclo.cicloCestas[0] ?? 0,
            cicloProdutoId: null,
            quantidadeMilesimos: 1000,
            campo: 'produtos.0',
          },
        ],
      },
      opcoes,
    );
    await finalizarPedido(amb.banco, bruno, pedido.pedidoId, opcoes);
  });
  after(() => amb.fechar());

  test('pedidos dos consumidores: a coluna diz de onde vem cada linha', async () => {
    const r = await admin.nav.postJson(`${amb.url}/pedidosconsumidoresciclos`, { ciclos: [cicloid] });
    assert.equal(r.status, 200, r.texto);
    const rel = r.json<{ data: Rel }>().data;
    assert.ok(rel.colunas.some((c) => c.chave === 'origem' && c.titulo === 'Assinatura ou avulso'));
    const linhas = rel.grupos.flatMap((g) => g.linhas).filter((l) => l.item === cesta);
    assert.deepEqual(
      linhas.map((l) => [l.consumidor, l.origem, l.quantidade]),
      [
        ['Ana Assinante', 'Assinatura', 2],
        ['Bruno Avulso', 'Avulso', 1],
      ],
    );
  });

  test('o PDF de entrega marca as cestas de assinatura e conta quantas vêm de cada origem', async () => {
    const r = await fetch(`${amb.url}/entregaCicloPDF/${cicloid}`, {
      headers: { cookie: `appSession=${admin.nav.cookie(amb.url, 'appSession') ?? ''}` },
    });
    assert.equal(r.status, 200);
    const bytes = new Uint8Array(await r.arrayBuffer());
    const pasta = join('test-artifacts', 'pdf', DIALETO);
    mkdirSync(pasta, { recursive: true });
    writeFileSync(join(pasta, 'entrega-assinaturas.pdf'), bytes);
    const texto = (await textoDoPdf(bytes)).texto.replace(/\s+/g, ' ');
    // The baskets' summary: 3 in all, 2 by subscription, 1 one-off.
    assert.match(texto, /Cesta Quantidade Por assinatura Avulsas/);
    assert.match(texto, new RegExp(`${cesta} 3 2 1`));
    assert.match(texto, new RegExp(`Ana Assinante .*2 × ${cesta} \\(assinatura\\)`));
    assert.match(texto, new RegExp(`Bruno Avulso .*1 × ${cesta}(?! \\(assinatura\\))`));
    // The pickup column is for a handwritten initial (rubrica): its heading cannot be read as the
    // subscription marker, which appears once per subscription line and nowhere else.
    assert.match(texto, /Retirado \(rubrica\)/);
    assert.doesNotMatch(texto, /Retirado \(assinatura\)/);
    assert.equal(texto.split('(assinatura)').length - 1, 1);
    await conferirMargens(bytes);
  });

  test('com nomes longos, cada coluna cabe na página, nenhuma palavra se parte e sobra lugar para assinar', async () => {
    const c = await criarCesta(amb.banco, {
      nome: 'Cesta grande de verduras orgânicas da estação',
      valorCentavos: 12345,
    });
    const ciclo = await criarCiclo(amb.banco, { cestas: [{ cestaId: c.id, quantidadeCestas: 20 }], compor: true });
    const ponto = (await criarPonto(amb.banco, 'Salão paroquial da Igreja de São Benedito')).id;
    const opcoes = { agora: amb.relogio.agora(), hoje: '2026-03-07', taxa: amb.config.taxa, tz: amb.config.tz };
    const nome = 'Maria Aparecida Nascimento de Albuquerque Figueiredo';
    const u = await criarUsuario(amb.banco, { perfil: ['consumidor'], nome });
    await amb.banco.updateTable('usuario').set({ celular: '(16) 99999-8888' }).where('id', '=', u.id).execute();
    const maria: Ator = { email: u.email, nome, usuarioid: u.id, perfil: ['consumidor'], ativo: true };
    await assinarEConfirmar(amb.banco, maria, { cestaId: c.id, quantidade: 12, ponto, cicloid: ciclo.id }, opcoes);
    const r = await fetch(`${amb.url}/entregaCicloPDF/${ciclo.id}`, {
      headers: { cookie: `appSession=${admin.nav.cookie(amb.url, 'appSession') ?? ''}` },
    });
    assert.equal(r.status, 200);
    const bytes = new Uint8Array(await r.arrayBuffer());
    writeFileSync(join('test-artifacts', 'pdf', DIALETO, 'entrega-nomes-longos.pdf'), bytes);
    await conferirMargens(bytes);
    // Lines may wrap between words, never inside one: each long value reads whole.
    const texto = (await textoDoPdf(bytes)).texto.replace(/\s+/g, ' ');
    assert.match(texto, new RegExp(`${nome} \\(16\\) 99999-8888 12 × ${c.nome} \\(assinatura\\) R\\$ 1\\.481,40`));
    assert.doesNotMatch(texto, /\(as sinatura\)/);
  });
});
