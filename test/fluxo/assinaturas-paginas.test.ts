import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { abrirBanco, type Banco } from '../../src/db/banco.ts';
import type { Ator } from '../../src/domain/acesso.ts';
import { ciclosComPedidoAberto, escolhasDaAssinatura } from '../../src/domain/assinaturas/leitura.ts';
import { definirLimiteDeAssinaturas } from '../../src/domain/assinaturas/escrita.ts';
import { ErroDominio } from '../../src/domain/erros.ts';
import { bancoNovo } from '../helpers/banco.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto, criarUsuario } from '../helpers/fabricas.ts';

/** What the subscription pages read and the basket type's cap, through the domain's functions. */
describe('assinaturas: o que as páginas leem e o limite da cesta', () => {
  let banco: Banco;
  let admin: Ator;
  before(async () => {
    banco = abrirBanco(await bancoNovo());
    const a = await criarUsuario(banco, { perfil: ['admin'], nome: 'Admin' });
    admin = { email: a.email, nome: 'Admin', usuarioid: a.id, perfil: ['admin'], ativo: true };
  });
  after(() => banco.destroy());

  test('ciclosComPedidoAberto: só os ciclos ativos, não fechados, com hoje dentro do período de pedidos', async () => {
    const aberto = (await criarCiclo(banco, { datas: DATAS_PADRAO })).id;
    const inativo = (await criarCiclo(banco, { datas: DATAS_PADRAO })).id;
    await banco.updateTable('ciclo').set({ ativo: false }).where('id', '=', inativo).execute();
    const fechado = (await criarCiclo(banco, { datas: DATAS_PADRAO })).id;
    await banco.updateTable('ciclo').set({ fechadoEm: '2026-03-08T00:00:00Z' }).where('id', '=', fechado).execute();
    assert.deepEqual([...(await ciclosComPedidoAberto(banco, [aberto, inativo, fechado], '2026-03-06'))], [aberto]);
    assert.deepEqual([...(await ciclosComPedidoAberto(banco, [aberto], '2026-03-09'))], [aberto]);
    assert.deepEqual([...(await ciclosComPedidoAberto(banco, [aberto], '2026-03-05'))], []);
    assert.deepEqual([...(await ciclosComPedidoAberto(banco, [aberto], '2026-03-10'))], []);
    assert.deepEqual([...(await ciclosComPedidoAberto(banco, [], '2026-03-07'))], []);
  });

  test('definirLimiteDeAssinaturas grava, volta a "sem limite", recusa o negativo e a cesta que não existe; escolhasDaAssinatura mostra o limite', async () => {
    const cesta = await criarCesta(banco, { nome: 'Cesta Limite' });
    await criarPonto(banco, 'Ponto Escolha');
    const agora = new Date('2026-03-02T15:00:00Z');
    assert.deepEqual(await definirLimiteDeAssinaturas(banco, admin, cesta.id, 3, { agora }), {
      cestaId: cesta.id,
      nome: 'Cesta Limite',
      limiteAssinaturas: 3,
    });
    assert.equal((await escolhasDaAssinatura(banco)).cestas.find((c) => c.id === cesta.id)?.limiteAssinaturas, 3);
    assert.ok((await escolhasDaAssinatura(banco)).pontosEntrega.some((p) => p.nome === 'Ponto Escolha'));
    await definirLimiteDeAssinaturas(banco, admin, cesta.id, null, { agora });
    assert.equal(
      (await banco.selectFrom('cesta').select('limiteAssinaturas').where('id', '=', cesta.id).executeTakeFirstOrThrow())
        .limiteAssinaturas,
      null,
    );
    await assert.rejects(
      definirLimiteDeAssinaturas(banco, admin, cesta.id, -1, { agora }),
      (e) => e instanceof ErroDominio && e.codigo === 'VALIDACAO',
    );
    await assert.rejects(
      definirLimiteDeAssinaturas(banco, admin, 999999, 1, { agora }),
      (e) => e instanceof ErroDominio && e.codigo === 'CESTA_NAO_ENCONTRADA',
    );
    const auditoria = await banco
      .selectFrom('auditoria')
      .select('acao')
      .where('entidade', '=', 'cesta')
      .where('entidadeId', '=', String(cesta.id))
      .execute();
    assert.deepEqual(
      auditoria.map((a) => a.acao),
      ['limite de assinaturas', 'limite de assinaturas'],
    );
  });
});
