/**
 * A supplier after the orders closed, on a 360 px phone: the dashboard's next step says what to
 * deliver, the day and the place the coordination set, and leads to the supplier's own list,
 * which says the same above its rows.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { conferirPagina, semChromium, semErrosNoConsole } from '../helpers/chromium.ts';
import { comporCestas, criarCesta, criarCiclo, criarPonto, criarUsuario } from '../helpers/fabricas.ts';
import { fazerPedido } from '../../src/domain/pedidos/fazer.ts';
import { finalizarPedido } from '../../src/domain/pedidos/finalizar.ts';
import { NO_PEDIDO, entrarComoNovo, lido, montarPalco, type Palco, type Sessao } from './cestas-apoio.ts';

const pular = semChromium();
/** The day after the orders closed (09/03), before the pickup (11/03). */
const DEPOIS_DOS_PEDIDOS = '2026-03-10T12:00:00Z';

describe('as entregas de quem fornece no navegador', { skip: pular }, () => {
  let palco: Palco;
  let dora: Sessao;
  let cicloid = 0;

  before(async () => {
    palco = await montarPalco(DEPOIS_DOS_PEDIDOS);
    const banco = palco.amb.banco;
    dora = await entrarComoNovo(palco, ['fornecedor'], 'Dora Fornece');
    const cesta = await criarCesta(banco, { nome: 'Cesta da Horta', valorCentavos: 5000 });
    const ciclo = await criarCiclo(banco, {
      nome: 'Ciclo de março',
      cestas: [{ cestaId: cesta.id, quantidadeCestas: 4 }],
    });
    cicloid = ciclo.id;
    await comporCestas(banco, cicloid, ciclo.cicloCestas, dora.usuario.id);
    const iso = new Date().toISOString();
    await banco
      .insertInto('cicloentrega')
      .values({
        cicloid,
        dataEntrega: '2026-03-10',
        observacao: 'entregar na Sede até 17h',
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    // Two baskets ordered and confirmed while the orders were open.
    const ponto = (await criarPonto(banco, 'Sede')).id;
    const u = await criarUsuario(banco, { perfil: ['consumidor'], nome: 'Fabi Consome' });
    const ator = {
      email: u.email,
      nome: 'Fabi Consome',
      usuarioid: u.id,
      perfil: ['consumidor' as const],
      ativo: true,
    };
    const opcoes = {
      agora: new Date(NO_PEDIDO),
      hoje: NO_PEDIDO.slice(0, 10),
      taxa: { percentualCentesimos: 0, fixaCentavos: 0 },
      tz: 'America/Sao_Paulo',
    };
    const { pedido } = await fazerPedido(
      banco,
      ator,
      {
        usuarioid: null,
        cicloid,
        pontoEntregaId: ponto,
        linhas: [
          {
            cicloCestaId: ciclo.cicloCestas[0] ?? 0,
            cicloProdutoId: null,
            quantidadeMilesimos: 2000,
            campo: 'produtos.0',
          },
        ],
      },
      opcoes,
    );
    await finalizarPedido(banco, ator, pedido.pedidoId, opcoes);
  });
  after(async () => {
    await dora.ctx.fechar();
    await palco.fechar();
  });

  test('o painel diz o que entregar, quando e onde, e leva à lista dela, que diz o mesmo', async () => {
    const { pagina, ctx } = dora;
    await pagina.goto(`${palco.amb.url}/`);
    const passo = pagina.getByRole('link', { name: /^Entregar o que foi pedido da sua oferta/ });
    assert.equal(
      lido(await passo.innerText()),
      'Entregar o que foi pedido da sua oferta: terça-feira, 10/03/2026: entregar na Sede até 17h',
    );
    await conferirPagina(pagina, ctx, 'cestas-fornecedor-entregar');
    await Promise.all([pagina.waitForURL(`${palco.amb.url}/pedidosfornecedorestodos/${cicloid}`), passo.click()]);
    const pagina2 = lido(await pagina.locator('main').innerText());
    assert.match(pagina2, /Ciclo de março · entrega: terça-feira, 10\/03\/2026: entregar na Sede até 17h/);
    // Her line: planned for the four baskets composed, two kilos ordered (two baskets of one kilo).
    assert.match(pagina2, /Dora Fornece/);
    assert.match(pagina2, /Produto 1 \w+ kg 4 2 R\$ 1,00 R\$ 2,00/);
    await conferirPagina(pagina, ctx, 'cestas-fornecedor-entregas');
    semErrosNoConsole(ctx);
  });
});
