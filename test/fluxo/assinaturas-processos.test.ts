/**
 * Generation of subscription orders across processes: two real server processes on one database
 * each run the periodic generation as they start; every subscription of the open cycle is served
 * exactly once, whichever process got there first.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { abrirBanco } from '../../src/db/banco.ts';
import { salvarAssinatura } from '../../src/domain/assinaturas/escrita.ts';
import { diaLocal, somarDias } from '../../src/domain/tempo.ts';
import { bancoNovo, urlDoBanco } from '../helpers/banco.ts';
import { criarCesta, criarCiclo, criarPonto, criarUsuario, datasComPedidoAbertoHoje } from '../helpers/fabricas.ts';
import { parar, subirServidor } from '../helpers/processos.ts';

test('dois processos geram os pedidos das assinaturas uma vez só', async () => {
  const cfg = await bancoNovo();
  const banco = abrirBanco(cfg);
  const cesta = await criarCesta(banco, { valorCentavos: 4200 });
  const ciclo = await criarCiclo(banco, {
    datas: datasComPedidoAbertoHoje(),
    cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }],
    compor: true,
  });
  const cicloCestaId = ciclo.cicloCestas[0] ?? 0;
  const ponto = await criarPonto(banco);
  // Subscribed before the window opened, so nothing was generated when they were saved.
  const ontem = somarDias(diaLocal(new Date(), 'America/Sao_Paulo'), -3);
  const opcoes = {
    agora: new Date(),
    hoje: ontem,
    taxa: { percentualCentesimos: 0, fixaCentavos: 0 },
    tz: 'America/Sao_Paulo',
  };
  const ids: number[] = [];
  for (let i = 0; i < 6; i++) {
    const u = await criarUsuario(banco, { perfil: ['consumidor'], nome: `Assinante ${i}` });
    const ator = { email: u.email, nome: u.nome, usuarioid: u.id, perfil: ['consumidor' as const], ativo: true };
    ids.push(
      (
        await salvarAssinatura(
          banco,
          ator,
          {
            id: null,
            usuarioid: null,
            cestaId: cesta.id,
            quantidade: 1 + (i % 2),
            pontoEntregaId: ponto.id,
            frequencia: 'cada_ciclo',
            inicio: '2000-01-01',
            fim: '2999-12-31',
            mercadoId: null,
            ativa: true,
          },
          opcoes,
        )
      ).id,
    );
  }
  assert.equal(
    (await banco.selectFrom('assinaturaciclo').select('id').where('cicloid', '=', ciclo.id).execute()).length,
    0,
  );
  const env = {
    DATABASE_URL: urlDoBanco(cfg),
    APP_SESSION_SECRET: randomBytes(32).toString('base64url'),
    SESSION_SECRET: randomBytes(32).toString('base64url'),
  };
  const [a, b] = await Promise.all([subirServidor(env), subirServidor(env)]);
  try {
    const inicio = Date.now();
    for (;;) {
      const feitas = await banco.selectFrom('assinaturaciclo').select('id').where('cicloid', '=', ciclo.id).execute();
      if (feitas.length === ids.length) break;
      if (Date.now() - inicio > 30_000)
        assert.fail(`a geração não terminou: ${feitas.length} de ${ids.length}\n${a.saida()}\n${b.saida()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    // Let the slower process finish its round too: it must add nothing.
    await new Promise((r) => setTimeout(r, 500));
    for (const [i, id] of ids.entries()) {
      const linhas = await banco
        .selectFrom('pedidoproduto')
        .select(['quantidadeMilesimos', 'valorCentavos'])
        .where('assinaturaId', '=', id)
        .execute();
      assert.deepEqual(linhas, [{ quantidadeMilesimos: (1 + (i % 2)) * 1000, valorCentavos: 4200 }], `assinatura ${i}`);
    }
    const cc = await banco
      .selectFrom('ciclocesta')
      .select('reservadoMilesimos')
      .where('id', '=', cicloCestaId)
      .executeTakeFirstOrThrow();
    assert.equal(Number(cc.reservadoMilesimos), 9000);
  } finally {
    await parar(a.filho);
    await parar(b.filho);
    await banco.destroy();
  }
});
