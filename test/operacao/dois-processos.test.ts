/**
 * Two server processes on different ports against one PostgreSQL database, as behind a load
 * balancer: a session made through one works on the other, logging out on one ends it on both,
 * and reservations spread over both never oversell. (Scale-out is a PostgreSQL setup; with the
 * embedded SQLite a community runs one process.)
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { DURACAO_SESSAO_MS } from '../../src/cestas/sessao.ts';
import { abrirBanco, migrar } from '../../src/db/banco.ts';
import { Cofre } from '../../src/http/cofre.ts';
import { DIALETO, bancoNovo, urlDoBanco } from '../helpers/banco.ts';
import { criarCicloAberto, criarUsuario } from '../helpers/fabricas.ts';
import { Navegador, entrarPeloProvedor, tokenCsrf } from '../helpers/navegador.ts';
import { parar, subirServidor } from '../helpers/processos.ts';

const emPostgres = DIALETO === 'postgres';

test(
  'dois processos no mesmo PostgreSQL: sessão, saída e reservas valem entre eles',
  { skip: emPostgres ? false : 'só faz sentido no PostgreSQL' },
  async () => {
    const cfg = await bancoNovo();
    const banco = abrirBanco(cfg);
    await migrar(banco, DIALETO);
    const ciclo = await criarCicloAberto(banco, 50);
    const pessoa = await criarUsuario(banco, { perfil: ['consumidor'] });
    const consumidores: Array<{ email: string }> = [];
    for (let i = 0; i < 200; i++) consumidores.push(await criarUsuario(banco, { perfil: ['consumidor'] }));
    const segredo = randomBytes(32).toString('base64url');
    const env = {
      DATABASE_URL: urlDoBanco(cfg),
      APP_SESSION_SECRET: segredo,
      SESSION_SECRET: randomBytes(32).toString('base64url'),
    };
    const a = await subirServidor(env);
    const b = await subirServidor(env);
    try {
      // A real login through process A's provider; the same cookie then goes to process B.
      const nav = new Navegador();
      const painel = await entrarPeloProvedor(nav, `${a.url}/`, { email: pessoa.email });
      const sessao = nav.cookie(a.url, 'appSession') ?? '';
      const emB = new Navegador();
      emB.definirCookie(b.url, 'appSession', sessao);
      assert.equal((await emB.getJson(`${b.url}/`)).status, 200, 'a sessão feita em A vale em B');
      await nav.post(`${a.url}/logout`, { form: { _csrf: tokenCsrf(painel.texto) } }, { seguir: false });
      assert.equal((await emB.getJson(`${b.url}/`)).status, 401, 'sair em A encerra a sessão em B');

      const cookie = (email: string) => {
        const agora = Date.now();
        return `appSession=${new Cofre(segredo, 'appSession').selar({ sid: randomBytes(12).toString('base64url'), identidade: { sub: email, email, name: email }, idToken: undefined, csrf: 'x'.repeat(24), inicio: agora }, agora + DURACAO_SESSAO_MS)}`;
      };
      const respostas = await Promise.all(
        consumidores.map((c, i) =>
          fetch(`${i % 2 === 0 ? a.url : b.url}/pedidoconsumidores`, {
            method: 'POST',
            headers: { cookie: cookie(c.email), 'content-type': 'application/json', accept: 'application/json' },
            body: JSON.stringify({
              cicloid: ciclo.cicloid,
              pontoEntregaId: ciclo.ponto,
              produtos: [{ cicloCestaId: ciclo.cicloCestaId, quantidade: 1 }],
            }),
          }).then((r) => r.status),
        ),
      );
      assert.equal(
        respostas.filter((s) => s === 201).length,
        50,
        'exatamente 50 cestas reservadas (pedidos criados), somando os dois processos',
      );
      assert.equal(respostas.filter((s) => s === 409).length, 150);
      const soma = await banco
        .selectFrom('pedidoproduto')
        .select((eb) => eb.fn.sum<number>('quantidadeMilesimos').as('s'))
        .where('cicloCestaId', '=', ciclo.cicloCestaId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(soma.s), 50_000);
    } finally {
      await parar(a.filho);
      await parar(b.filho);
      await banco.destroy();
    }
  },
);
