import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Ator } from '../../src/domain/acesso.ts';
import { gerarPedidosDoCiclo, pularCiclo, salvarAssinatura, type OpcoesAssinatura } from '../../src/domain/assinaturas.ts';
import type { Correio } from '../../src/mensagens/correio.ts';
import { CaixaDeTeste } from '../helpers/correio.ts';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto } from '../helpers/fabricas.ts';
import { entrarComo, type Pessoa } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

/**
 * The subscriber's reminder (issue 23): when a cycle's order window opens, whoever's subscription
 * basket comes in it is told so, with the way to skip it (/assinaturas); not someone who skipped
 * the cycle, nor someone without a subscription, nor someone who turned the reminder off. Read
 * from the e-mails a real SMTP server caught.
 */
describe('avisos de assinatura', () => {
  let caixa: CaixaDeTeste;
  let amb: AmbienteDeTeste;
  let relogio: RelogioDeTeste;
  before(async () => {
    caixa = await CaixaDeTeste.iniciar();
    // 02/03: before the default cycle's order window (06–09/03).
    relogio = new RelogioDeTeste('2026-03-02T15:00:00Z');
    amb = await iniciarAmbiente({ relogio, env: { SMTP_URL: caixa.url, AVISOS_INTERVALO_S: '3600' } });
  });
  after(async () => {
    await amb.fechar();
    await caixa.fechar();
  });
  function correio(): Correio {
    const c = amb.servicos.cestas?.correio;
    assert.ok(c);
    return c;
  }

  test('ao abrir a janela de pedidos, quem tem cesta de assinatura no ciclo recebe o lembrete para pular', async () => {
    const cesta = await criarCesta(amb.banco);
    const c = await criarCiclo(amb.banco, { datas: DATAS_PADRAO, cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }], compor: true });
    const nome = (await amb.banco.selectFrom('ciclo').select('nome').where('id', '=', c.id).executeTakeFirstOrThrow()).nome;
    const ponto = (await criarPonto(amb.banco)).id;
    const admin = await entrarComo(amb, ['admin'], 'Coordenação');
    const vem = await entrarComo(amb, ['consumidor'], 'Ana Assinante');
    const pulou = await entrarComo(amb, ['consumidor'], 'Beto Pulou');
    const semAssinatura = await entrarComo(amb, ['consumidor'], 'Caio Avulso');
    const desligou = await entrarComo(amb, ['consumidor'], 'Dani Desligou');
    // Dani keeps only the opening of orders.
    const r = await desligou.nav.postJson(`${amb.url}/profile/avisos`, { avisos: ['pedido_aberto'] });
    assert.equal(r.status, 200, r.texto);

    const opcoes: OpcoesAssinatura = { agora: relogio.agora(), hoje: '2026-03-02', taxa: amb.config.taxa, tz: amb.config.tz };
    const ator = (p: Pessoa, nomeDe: string): Ator => ({ email: p.email, nome: nomeDe, usuarioid: p.id, perfil: ['consumidor'], ativo: true });
    const assinar = (p: Pessoa, n: string) => salvarAssinatura(amb.banco, ator(p, n), {
      id: null, usuarioid: null, cestaId: cesta.id, quantidade: 1, pontoEntregaId: ponto, frequencia: 'cada_ciclo', inicio: '2026-03-01', fim: '2026-03-31', mercadoId: null, ativa: true,
    }, opcoes);
    await assinar(vem, 'Ana Assinante');
    const doBeto = await assinar(pulou, 'Beto Pulou');
    await assinar(desligou, 'Dani Desligou');
    // Beto skips the cycle ahead of time (through the coordination, before the window opens).
    const coordenacao: Ator = { email: admin.email, nome: 'Coordenação', usuarioid: admin.id, perfil: ['admin'], ativo: true };
    await pularCiclo(amb.banco, coordenacao, doBeto.id, c.id, opcoes);

    const assunto = `Sua cesta vem no ${nome}`;
    const destinatarios = () => caixa.chegadas.filter((m) => m.assunto === assunto).map((m) => m.para).sort();
    // Before the window: nothing.
    await correio().lembrar();
    await correio().enviarPendentes();
    assert.deepEqual(destinatarios(), []);

    // 06/03, the window opens: Ana only, once.
    relogio.definir('2026-03-06T15:00:00Z');
    await correio().lembrar();
    await correio().enviarPendentes();
    await correio().lembrar();
    await correio().enviarPendentes();
    assert.deepEqual(destinatarios(), [vem.email]);
    assert.ok(![pulou.email, semAssinatura.email, desligou.email].some((e) => destinatarios().includes(e)));
    const m = caixa.chegadas.find((x) => x.assunto === assunto);
    assert.ok(m);
    assert.match(m.texto, /Olá, Ana!/);
    assert.match(m.texto, /Sua cesta vem neste ciclo; quer pular\?/);
    assert.match(m.texto, /pule este ciclo até 09\/03\/2026/);
    assert.match(m.texto, new RegExp(`${amb.url.replace(/[.]/g, '\\.')}/assinaturas`));
    // An optional reminder: its e-mail carries the way to turn it off.
    assert.match(m.cabecalhos.get('list-unsubscribe') ?? '', /\/avisos\/sair\/\d+\.assinatura_ciclo\./);
  });

  test('a cesta que falta: quem assina e a coordenação sabem, uma vez, com o motivo', async () => {
    relogio.definir('2026-03-02T15:00:00Z');
    // One basket for two subscribers: the first served, the second short.
    const cesta = await criarCesta(amb.banco);
    const c = await criarCiclo(amb.banco, { datas: DATAS_PADRAO, cestas: [{ cestaId: cesta.id, quantidadeCestas: 1 }], compor: true });
    const nome = (await amb.banco.selectFrom('ciclo').select('nome').where('id', '=', c.id).executeTakeFirstOrThrow()).nome;
    const ponto = (await criarPonto(amb.banco)).id;
    const coordenadora = await entrarComo(amb, ['admin'], 'Olga Coordenadora');
    const primeira = await entrarComo(amb, ['consumidor'], 'Rita Primeira');
    const segunda = await entrarComo(amb, ['consumidor'], 'Sara Segunda');
    const opcoes: OpcoesAssinatura = { agora: relogio.agora(), hoje: '2026-03-02', taxa: amb.config.taxa, tz: amb.config.tz };
    for (const [p, n] of [[primeira, 'Rita Primeira'], [segunda, 'Sara Segunda']] as const) {
      await salvarAssinatura(amb.banco, { email: p.email, nome: n, usuarioid: p.id, perfil: ['consumidor'], ativo: true }, {
        id: null, usuarioid: null, cestaId: cesta.id, quantidade: 1, pontoEntregaId: ponto, frequencia: 'cada_ciclo', inicio: '2026-03-01', fim: '2026-03-31', mercadoId: null, ativa: true,
      }, opcoes);
    }
    relogio.definir('2026-03-06T15:00:00Z');
    const resumo = await gerarPedidosDoCiclo(amb.banco, c.id, { ...opcoes, agora: relogio.agora(), hoje: '2026-03-06' });
    assert.deepEqual([resumo.gerados, resumo.faltaram.map((f) => f.consumidor)], [1, ['Sara Segunda']]);
    await correio().lembrar();
    await correio().enviarPendentes();
    assert.equal(await correio().lembrar(), 0, 'uma vez por ciclo');

    const paraSara = caixa.para(segunda.email).filter((m) => m.assunto === `Sua cesta de assinatura faltou no ${nome}`);
    assert.equal(paraSara.length, 1);
    assert.match(paraSara[0]?.texto ?? '', new RegExp(`Não foi possível servir 1 × ${cesta.nome} da sua assinatura no ${nome}: `));
    // Not an optional reminder: no way to turn it off.
    assert.equal(paraSara[0]?.cabecalhos.get('list-unsubscribe'), undefined);
    assert.deepEqual(caixa.para(primeira.email).filter((m) => m.assunto.includes('faltou')), []);
    const paraCoordenacao = caixa.para(coordenadora.email).filter((m) => m.assunto === `Assinaturas sem cesta no ${nome}`);
    assert.equal(paraCoordenacao.length, 1);
    assert.match(paraCoordenacao[0]?.texto ?? '', /Uma assinatura não pôde ser servida/);
    assert.match(paraCoordenacao[0]?.texto ?? '', new RegExp(`- Sara Segunda · 1 × ${cesta.nome} · Não há cestas para todas`));
  });
});
