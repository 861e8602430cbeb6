/**
 * The access matrix of the Cestas face: every route × every role, with the expected outcome in
 * one table. The table is also the documentation of access (DOMAIN.md "Access (Variant A)").
 * A route registered without an entry here fails the test.
 */
import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { chaveDaRetirada, tokenDoPedido } from '../../src/domain/retirada/token.ts';
import { criarMercadoNoBanco } from '../mercados/apoio.ts';
import {
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
  criarUsuario,
} from '../helpers/fabricas.ts';
import { entrarComo, navegadorComSessao, type Pessoa } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

const PAPEIS = ['anonimo', 'semCadastro', 'info', 'consumidor', 'fornecedor', 'admin', 'master'] as const;
type Papel = (typeof PAPEIS)[number];
/** 'ok': allowed; 404: allowed to the route, but the record is someone else's and stays hidden. */
type Resultado = 'ok' | 401 | 403 | 404;
type Linha = Readonly<Record<Papel, Resultado>>;

const PUBLICO: Linha = {
  anonimo: 'ok',
  semCadastro: 'ok',
  info: 'ok',
  consumidor: 'ok',
  fornecedor: 'ok',
  admin: 'ok',
  master: 'ok',
};
const IDENTIDADE: Linha = { ...PUBLICO, anonimo: 401 };
const CADASTRADO: Linha = { ...IDENTIDADE, semCadastro: 403 };
/** Updating one's own record: an identity with no record yet has nothing to update. */
const PROPRIO_CADASTRO: Linha = { ...IDENTIDADE, semCadastro: 404 };
const LEITURA: Linha = {
  anonimo: 401,
  semCadastro: 403,
  info: 'ok',
  consumidor: 403,
  fornecedor: 403,
  admin: 'ok',
  master: 'ok',
};
const ESCRITA: Linha = { ...LEITURA, info: 403 };
const OFERTA_LER: Linha = { ...LEITURA, fornecedor: 'ok' };
const OFERTA_ESCREVER: Linha = { ...ESCRITA, fornecedor: 'ok' };
const PEDIDO_LER: Linha = { ...LEITURA, consumidor: 'ok' };
const PEDIDO_ESCREVER: Linha = { ...ESCRITA, consumidor: 'ok' };
const REL_FORNECEDORES: Linha = { ...LEITURA, fornecedor: 'ok' };
const REL_CONSUMIDORES: Linha = { ...LEITURA, consumidor: 'ok' };
const REGISTRADOS: Linha = { ...CADASTRADO };
/** A receipt: its owner and admins; anyone else registered is told it does not exist. */
/** Releasing a login binding: masters only. */
const SO_MASTER: Linha = { ...ESCRITA, admin: 403 };
const COMPROVANTE: Linha = {
  anonimo: 401,
  semCadastro: 403,
  info: 404,
  consumidor: 404,
  fornecedor: 404,
  admin: 'ok',
  master: 'ok',
};

function registro(prefixo: string): Record<string, Linha> {
  return {
    [`GET /${prefixo}-index`]: LEITURA,
    [`GET /${prefixo}`]: ESCRITA,
    [`POST /${prefixo}`]: ESCRITA,
    [`GET /${prefixo}/:id`]: LEITURA,
    [`POST /${prefixo}/:id`]: ESCRITA,
    [`POST /${prefixo}/delete/:id`]: ESCRITA,
  };
}

export const MATRIZ: Readonly<Record<string, Linha>> = {
  'GET /static/estilo.css': PUBLICO,
  'GET /static/ciclo.js': PUBLICO,
  'GET /limitesolar': PUBLICO,
  'GET /saiu': PUBLICO,
  // Without a sign-out ticket nothing ends here: it goes on to the dashboard, as /callback does.
  'GET /saiu/continuar': CADASTRADO,
  'GET /logout': PUBLICO,
  'POST /logout': PUBLICO,
  'GET /': CADASTRADO,
  'GET /callback': CADASTRADO,
  'GET /usuarionovo': IDENTIDADE,
  'POST /usuarionovo': IDENTIDADE,
  'POST /usuarionovo/:id': PROPRIO_CADASTRO,
  'GET /profile': IDENTIDADE,
  'POST /profile': PROPRIO_CADASTRO,
  'POST /profile/sairdetodos': CADASTRADO,
  'GET /profile/avisos': CADASTRADO,
  'POST /profile/avisos': CADASTRADO,
  // The unsubscribe link of an e-mail: no login, a signed token (forged ones are refused in avisos.test.ts).
  'GET /avisos/sair/:token': PUBLICO,
  'POST /avisos/sair/:token': PUBLICO,
  'GET /mensagens': ESCRITA,
  'POST /mensagens/:id/reenviar': ESCRITA,
  'GET /ciclo/:id/mercados': LEITURA,
  'POST /ciclo/:id/mercados': ESCRITA,
  'GET /ciclo/:id/mercado/:mercadoId/liberar': LEITURA,
  'POST /ciclo/:id/mercado/:mercadoId/liberar': ESCRITA,
  'GET /ciclo/:id/lotes': LEITURA,
  'POST /ciclo/:id/lotes': ESCRITA,
  'GET /ciclo/:id/lotes/:loteId': LEITURA,
  'POST /ciclo/:id/lotes/:loteId': ESCRITA,
  'POST /ciclo/:id/lotes/:loteId/apagar': ESCRITA,
  'GET /ciclo/:id/mensagem': ESCRITA,
  'POST /ciclo/:id/mensagem': ESCRITA,
  'POST /usuario/:id/liberarlogin': SO_MASTER,
  'GET /auditoria': ESCRITA,
  ...registro('categoria'),
  ...registro('cesta'),
  ...registro('produto'),
  ...registro('pontoentrega'),
  ...registro('usuario'),
  ...registro('ciclo'),
  'GET /ciclo-index': LEITURA,
  'GET /static/formularios.js': PUBLICO,
  'GET /static/pix.js': PUBLICO,
  'GET /static/icone.svg': PUBLICO,
  'GET /favicon.ico': PUBLICO,
  'GET /oferta-index': OFERTA_LER,
  'GET /oferta/:id': OFERTA_LER,
  'POST /oferta': OFERTA_ESCREVER,
  'POST /ofertasave': OFERTA_ESCREVER,
  'POST /ofertaapagarproduto': OFERTA_ESCREVER,
  'GET /composicao/:id': LEITURA,
  'POST /composicao/:id': ESCRITA,
  'POST /composicaosave': ESCRITA,
  'GET /pedidoconsumidores/:id': PEDIDO_LER,
  'POST /pedidoconsumidores': PEDIDO_ESCREVER,
  'GET /pedidoconsumidoresconfirmacao/:id': PEDIDO_LER,
  'POST /pedidoconsumidoresconfirmacao': PEDIDO_ESCREVER,
  'GET /pedidosconsumidorestodos/:id': PEDIDO_LER,
  'GET /fecharciclo/:id': ESCRITA,
  'POST /fecharciclo/:id': ESCRITA,
  'POST /reabrirciclo/:id': SO_MASTER,
  'GET /movimentacao': ESCRITA,
  'POST /movimentacao': ESCRITA,
  'GET /movimentacao/:id/arquivo': COMPROVANTE,
  // Pix: one's own charge (whoever sees everything names anyone); statements and who owes what: the coordination.
  'GET /saldo': REGISTRADOS,
  'GET /cobrancas': ESCRITA,
  'GET /extratos': ESCRITA,
  'POST /extratos': ESCRITA,
  'POST /extratos/conciliar': ESCRITA,
  'POST /extratos/:id/descartar': ESCRITA,
  'GET /pedidosfornecedoressobra/:id': REL_FORNECEDORES,
  'GET /pedidosfornecedorestodos/:id': REL_FORNECEDORES,
  'GET /pedidosfornecedoresciclos': REL_FORNECEDORES,
  'POST /pedidosfornecedoresciclos': REL_FORNECEDORES,
  'GET /pedidosconsumidoresciclos': REL_CONSUMIDORES,
  'POST /pedidosconsumidoresciclos': REL_CONSUMIDORES,
  'GET /relatorioprodutosciclos': REL_FORNECEDORES,
  'POST /relatorioprodutosciclos': REL_FORNECEDORES,
  'GET /downloadpedidosfornecedoresciclos': REL_FORNECEDORES,
  'GET /entregaCicloPDF/:id': REGISTRADOS,
  'GET /movimentacaotodos': REGISTRADOS,
  'GET /relatorios': CADASTRADO,
  'GET /healthz': PUBLICO,
  'GET /readyz': PUBLICO,
  'GET /metrics': PUBLICO,
  // The API's documentation, outside production only.
  'GET /docs': PUBLICO,
  'GET /docs/openapi.json': PUBLICO,
  // Subscriptions: one's own (admins act for anyone, naming them); the list of all, the coordination.
  'GET /assinaturas': PEDIDO_LER,
  'POST /assinaturas': PEDIDO_ESCREVER,
  'POST /assinaturas/:id/pausas': PEDIDO_ESCREVER,
  'POST /assinaturas/:id/pausas/:pausaId/remover': PEDIDO_ESCREVER,
  'POST /assinaturas/:id/pular/:cicloId': PEDIDO_ESCREVER,
  'POST /assinaturas/:id/ciclo/:cicloId': PEDIDO_ESCREVER,
  'GET /assinaturas/todas': LEITURA,
  'POST /assinaturas/limite': ESCRITA,
  // A season paid in advance for a subscription: the coordination records it.
  'POST /assinaturas/:id/pagamento': ESCRITA,
  // The pickup day: the coordination's live view of a cycle (retiradaAcompanhar), naming a point's
  // volunteers (voluntariosNomear), and the page a receipt's QR code opens with no login (a signed
  // token; forged ones: retirada-qr.test.ts).
  'GET /retirada/:cicloId': ESCRITA,
  'POST /retirada/:cicloId/voluntarios': ESCRITA,
  'GET /retirada/pedido/:token': PUBLICO,
  'GET /static/retirada.js': PUBLICO,
};

const TABELAS_VIGIADAS = [
  'categoria',
  'cesta',
  'produto',
  'pontoentrega',
  'usuario',
  'ciclo',
  'cicloentrega',
  'ciclopontoentrega',
  'ciclocesta',
  'cicloproduto',
  'auditoria',
  'oferta',
  'ofertaproduto',
  'composicao',
  'composicaoproduto',
  'pedido',
  'pedidoproduto',
  'movimentacao',
  'mensagem',
  'ciclomercado',
  'ciclomercadoponto',
  'lote',
  'loteproduto',
  'extratolinha',
  'extratochave',
  'mapeamentoextrato',
  'assinatura',
  'assinaturapausa',
  'assinaturaciclo',
  'voluntario',
  'acaoretirada',
] as const;

describe('matriz de acesso da face Cestas', () => {
  let amb: AmbienteDeTeste;
  const pessoas = new Map<Papel, Pessoa>();
  const ids = new Map<string, number>();

  before(async () => {
    amb = await iniciarAmbiente();
    for (const papel of PAPEIS) {
      pessoas.set(
        papel,
        await entrarComo(
          amb,
          papel === 'anonimo' || papel === 'semCadastro' ? papel : papel === 'info' ? ['info'] : [papel],
        ),
      );
    }
    const cat = await amb.banco
      .insertInto('categoria')
      .values({ nome: 'Cat matriz', nomeChave: 'cat matriz', createdAt: 'x', updatedAt: 'x' })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.set('categoria', cat.id);
    ids.set('cesta', (await criarCesta(amb.banco)).id);
    ids.set('produto', (await criarProduto(amb.banco)).id);
    ids.set('pontoentrega', (await criarPonto(amb.banco)).id);
    ids.set('ciclo', (await criarCiclo(amb.banco)).id);
    ids.set('usuario', (await criarUsuario(amb.banco)).id);
    const cesta = await criarCesta(amb.banco);
    const ciclo = await criarCiclo(amb.banco, { cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }] });
    ids.set('composicao', ciclo.cicloCestas[0] ?? 0);
    ids.set('fornecedorAlheio', (await criarUsuario(amb.banco, { perfil: ['fornecedor'] })).id);
    ids.set('consumidorAlheio', (await criarUsuario(amb.banco, { perfil: ['consumidor'] })).id);
    // Someone's subscription, whose season the coordination may record as paid.
    ids.set(
      'assinaturaPaga',
      (
        await amb.banco
          .insertInto('assinatura')
          .values({
            usuarioid: ids.get('consumidorAlheio') ?? 0,
            cestaId: cesta.id,
            quantidade: 1,
            pontoEntregaId: ids.get('pontoentrega') ?? 0,
            frequencia: 'cada_ciclo',
            inicio: '2026-01-01',
            fim: '2026-12-31',
            mercadoId: null,
            ativa: true,
            createdAt: new Date().toISOString(),
            updatedAt: new Date().toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
    // The consumer role's own order, which it (and admins) may see.
    const ponto = await criarPonto(amb.banco);
    const iso = new Date().toISOString();
    const pedido = await amb.banco
      .insertInto('pedido')
      .values({
        cicloid: ciclo.id,
        usuarioid: pessoas.get('consumidor')?.id ?? 0,
        pontoEntregaId: ponto.id,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.set('pedido', pedido.id);
    // Someone else's payment with a receipt.
    const nome = `${randomUUID()}.pdf`;
    writeFileSync(join(amb.config.dirArquivos, nome), '%PDF-1.4 comprovante');
    const mov = await amb.banco
      .insertInto('movimentacao')
      .values({
        usuarioid: ids.get('consumidorAlheio') ?? 0,
        tipoMovimentacaoId: 4,
        sentido: 'credito',
        valorCentavos: 100,
        data: '2026-01-01',
        descricao: 'Pagamento',
        arquivo: nome,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.set('movimentacao', mov.id);
    // The cycle serves a venda_direta and a lote market, with a lot drawn from an offer line.
    const dono = await amb.banco
      .insertInto('appuser')
      .values({
        providerId: 'idp|matriz',
        email: 'matriz@mercados.org',
        emailChave: 'matriz@mercados.org',
        name: 'Matriz',
        avatar: null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const direta = await criarMercadoNoBanco(amb.banco, { adminId: dono.id, tipo: 'venda_direta' });
    const deLote = await criarMercadoNoBanco(amb.banco, { adminId: dono.id, tipo: 'lote' });
    await amb.banco
      .insertInto('ciclomercado')
      .values([
        { cicloid: ids.get('ciclo') ?? 0, mercadoId: direta.id, ordemAtendimento: 1, createdAt: iso, updatedAt: iso },
        { cicloid: ids.get('ciclo') ?? 0, mercadoId: deLote.id, ordemAtendimento: 2, createdAt: iso, updatedAt: iso },
      ])
      .execute();
    ids.set('mercadoDireta', direta.id);
    ids.set('mercadoLote', deLote.id);
    const ofertado = await criarOfertaFinalizada(amb.banco, ids.get('ciclo') ?? 0, [
      { produtoId: ids.get('produto') ?? 0, quantidadeMilesimos: 1_000_000, valorCentavos: 100 },
    ]);
    ids.set('ofertaProduto', ofertado.linhas[0] ?? 0);
    ids.set('lote', await loteNovo());
    // A pending credit of a bank statement, for the dismissal cells.
    const linha = await amb.banco
      .insertInto('extratolinha')
      .values({
        idBanco: 'ofx:matriz:1',
        data: '2026-01-02',
        valorCentavos: 100,
        descricao: 'PIX RECEBIDO',
        pagador: null,
        txid: null,
        arquivo: 'extrato.ofx',
        proposta: null,
        usuarioid: null,
        candidatos: null,
        cicloid: null,
        importadoPor: null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.set('extratos', linha.id);
    // The consumer role's own subscription of the composed cycle's basket (its order window is long past).
    const assinatura = await amb.banco
      .insertInto('assinatura')
      .values({
        usuarioid: pessoas.get('consumidor')?.id ?? 0,
        cestaId: cesta.id,
        quantidade: 1,
        pontoEntregaId: ponto.id,
        frequencia: 'cada_ciclo',
        inicio: '2026-01-01',
        fim: '2026-12-31',
        mercadoId: null,
        ativa: true,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.set('assinatura', assinatura.id);
    ids.set('cicloDaAssinatura', ciclo.id);
  });

  /** A pause of the matrix subscription (an allowed removal takes it away). */
  async function pausaNova(): Promise<number> {
    const iso = new Date().toISOString();
    await amb.banco
      .deleteFrom('assinaturapausa')
      .where('assinaturaId', '=', ids.get('assinatura') ?? 0)
      .execute();
    return (
      await amb.banco
        .insertInto('assinaturapausa')
        .values({
          assinaturaId: ids.get('assinatura') ?? 0,
          inicio: '2027-01-01',
          fim: '2027-01-10',
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  /** A lot of one kilo in the matrix cycle (a delete cell takes its own). */
  async function loteNovo(): Promise<number> {
    const iso = new Date().toISOString();
    const lote = await amb.banco
      .insertInto('lote')
      .values({
        cicloid: ids.get('ciclo') ?? 0,
        mercadoId: ids.get('mercadoLote') ?? 0,
        comprador: 'Escola',
        pontoEntregaId: ids.get('pontoentrega') ?? 0,
        valorAlvoCentavos: 100,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await amb.banco
      .insertInto('loteproduto')
      .values({
        loteid: lote.id,
        ofertaProdutoId: ids.get('ofertaProduto') ?? 0,
        quantidadeMilesimos: 1000,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    return lote.id;
  }
  after(() => amb.fechar());

  async function retrato(): Promise<string> {
    const h = createHash('sha256');
    for (const t of TABELAS_VIGIADAS)
      h.update(JSON.stringify(await amb.banco.selectFrom(t).selectAll().orderBy('id').execute()));
    return h.digest('hex');
  }

  /** A sent message of someone else's, which an allowed resend puts back in the queue. */
  async function mensagemEnviada(): Promise<number> {
    const iso = new Date().toISOString();
    return (
      await amb.banco
        .insertInto('mensagem')
        .values({
          chave: randomUUID(),
          tipo: 'coordenacao',
          usuarioid: ids.get('usuario') ?? 0,
          para: 'alguem@teste.org',
          assunto: 'Oi',
          texto: 'oi',
          html: '<p>oi</p>',
          estado: 'enviada',
          tentativas: 1,
          enviadaEm: iso,
          proximaTentativa: iso,
          createdAt: iso,
          updatedAt: iso,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  /** A throwaway record for delete cells, so one allowed delete does not spoil the next cell. */
  async function alvoParaApagar(prefixo: string): Promise<number> {
    switch (prefixo) {
      case 'categoria':
        return (
          await amb.banco
            .insertInto('categoria')
            .values({
              nome: `Apagar ${Math.random()}`,
              nomeChave: `apagar ${Math.random()}`,
              createdAt: 'x',
              updatedAt: 'x',
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      case 'cesta':
        return (await criarCesta(amb.banco)).id;
      case 'produto':
        return (await criarProduto(amb.banco)).id;
      case 'pontoentrega':
        return (await criarPonto(amb.banco)).id;
      case 'ciclo':
        return (await criarCiclo(amb.banco)).id;
      default:
        return (await criarUsuario(amb.banco)).id;
    }
  }

  async function caminho(rota: string, papel: Papel): Promise<string> {
    const [, modelo = ''] = rota.split(' ');
    if (modelo === '/downloadpedidosfornecedoresciclos') return `${modelo}?ciclos=${ids.get('ciclo')}`;
    if (modelo === '/avisos/sair/:token')
      return `/avisos/sair/${amb.servicos.correio.tokenDeCancelar(ids.get('usuario') ?? 0, 'oferta_aberta') ?? ''}`;
    if (modelo === '/assinaturas/:id/pagamento') return modelo.replace(':id', String(ids.get('assinaturaPaga')));
    if (modelo === '/mensagens/:id/reenviar') return `/mensagens/${await mensagemEnviada()}/reenviar`;
    if (modelo.startsWith('/retirada/:cicloId')) return modelo.replace(':cicloId', String(ids.get('ciclo')));
    if (modelo === '/retirada/pedido/:token')
      return `/retirada/pedido/${tokenDoPedido(chaveDaRetirada(amb.config.sessionSecret), ids.get('pedido') ?? 0)}`;
    if (modelo.includes(':mercadoId'))
      return modelo.replace(':id', String(ids.get('ciclo'))).replace(':mercadoId', String(ids.get('mercadoDireta')));
    if (modelo.includes(':loteId'))
      return modelo
        .replace(':id', String(ids.get('ciclo')))
        .replace(':loteId', String(modelo.endsWith('/apagar') ? await loteNovo() : ids.get('lote')));
    if (modelo === '/assinaturas' && rota.startsWith('GET'))
      return `/assinaturas?usuarioid=${papel === 'consumidor' ? pessoas.get(papel)?.id : ids.get('consumidorAlheio')}`;
    if (modelo.startsWith('/assinaturas/:id')) {
      return modelo
        .replace(':id', String(ids.get('assinatura')))
        .replace(':cicloId', String(ids.get('cicloDaAssinatura')))
        .replace(':pausaId', String(modelo.includes(':pausaId') ? await pausaNova() : 0));
    }
    if (!modelo.includes(':id')) return modelo;
    const prefixo = modelo.split('/')[1] ?? '';
    const proprio = pessoas.get(papel)?.id;
    if (prefixo === 'usuarionovo') return modelo.replace(':id', String(proprio ?? 1));
    // A supplier opens their own offer page; the others name a supplier. The same for orders.
    if (prefixo === 'oferta')
      return `${modelo.replace(':id', String(ids.get('ciclo')))}?usuarioid=${papel === 'fornecedor' ? proprio : ids.get('fornecedorAlheio')}`;
    if (prefixo === 'pedidoconsumidores')
      return `${modelo.replace(':id', String(ids.get('ciclo')))}?usuarioid=${papel === 'consumidor' ? proprio : ids.get('consumidorAlheio')}`;
    if (
      [
        'pedidosconsumidorestodos',
        'fecharciclo',
        'reabrirciclo',
        'pedidosfornecedoressobra',
        'pedidosfornecedorestodos',
        'entregaCicloPDF',
      ].includes(prefixo)
    )
      return modelo.replace(':id', String(ids.get('ciclo')));
    if (prefixo === 'pedidoconsumidoresconfirmacao') return modelo.replace(':id', String(ids.get('pedido')));
    if (prefixo === 'movimentacao') return modelo.replace(':id', String(ids.get('movimentacao')));
    if (modelo.includes('/delete/')) return modelo.replace(':id', String(await alvoParaApagar(prefixo)));
    return modelo.replace(':id', String(ids.get(prefixo)));
  }

  test('toda rota registrada tem uma linha na matriz, e toda linha é uma rota', () => {
    const registradas = new Set(amb.servicos.cestas?.rotasRegistradas ?? []);
    assert.ok(registradas.size > 0);
    const semLinha = [...registradas].filter((r) => MATRIZ[r] === undefined);
    assert.deepEqual(semLinha, [], 'rotas sem regra na matriz');
    const semRota = Object.keys(MATRIZ).filter((r) => !registradas.has(r));
    assert.deepEqual(semRota, [], 'linhas da matriz sem rota');
  });

  for (const [rota, linha] of Object.entries(MATRIZ)) {
    for (const papel of PAPEIS) {
      const esperado = linha[papel];
      test(`${rota} como ${papel} → ${esperado === 'ok' ? 'permitido' : esperado}`, async () => {
        const pessoa = pessoas.get(papel);
        assert.ok(pessoa);
        const [metodo = 'GET'] = rota.split(' ');
        const alvo = `${amb.url}${await caminho(rota, papel)}`;
        const escrita = metodo === 'POST';
        const antes = escrita && esperado !== 'ok' ? await retrato() : '';
        // Logging out really ends the session everywhere: those cells use a second session of the same person.
        const sai = rota.endsWith('/logout') || rota.endsWith('/sairdetodos');
        const nav = sai && papel !== 'anonimo' ? navegadorComSessao(amb, pessoa.email) : pessoa.nav;
        const corpo = /ciclos$/.test(alvo) ? { ciclos: [ids.get('ciclo')] } : {};
        const r = escrita ? await nav.postJson(alvo, corpo) : await nav.getJson(alvo);
        // Signing out of every device ends this person's other cells' session too: give it back.
        if (rota.endsWith('/sairdetodos') && pessoa.id !== null)
          await amb.banco.updateTable('usuario').set({ sessoesDesde: null }).where('id', '=', pessoa.id).execute();
        if (esperado === 'ok') {
          assert.ok(
            r.status !== 401 && r.status !== 403 && r.status !== 404 && r.status < 500,
            `${rota} como ${papel}: ${r.status} ${r.texto.slice(0, 200)}`,
          );
          if (!escrita) assert.equal(r.status, 200, `${rota} como ${papel}: ${r.texto.slice(0, 200)}`);
          // The contract's §4: `data` is an object (or null) in every envelope (not the probes'
          // bodies); lists go in `data.itens`.
          if ((r.headers.get('content-type') ?? '').startsWith('application/json') && r.status < 300) {
            const corpo = r.json<{ success?: boolean; data: unknown }>();
            const dados = corpo.data;
            assert.ok(
              corpo.success === undefined || dados === null || (typeof dados === 'object' && !Array.isArray(dados)),
              `${rota} como ${papel}: data não é um objeto`,
            );
          }
        } else if (esperado === 404) {
          assert.equal(r.status, 404, `${rota} como ${papel}: ${r.texto.slice(0, 200)}`);
        } else {
          assert.equal(r.status, esperado, `${rota} como ${papel}: ${r.texto.slice(0, 200)}`);
          assert.equal(r.json<{ success: boolean }>().success, false);
          if (escrita) assert.equal(await retrato(), antes, 'uma escrita negada não mudou nada');
        }
      });
    }
  }
});
