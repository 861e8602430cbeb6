import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { abrirBanco, type Banco } from '../../src/db/banco.ts';
import type { Ator } from '../../src/domain/acesso.ts';
import { FASES } from '../../src/domain/ciclos/calendario.ts';
import { salvarCiclo } from '../../src/domain/ciclos/gravacao.ts';
import { obterCiclo } from '../../src/domain/ciclos/leitura.ts';
import type { CicloLido, PontoLido } from '../../src/domain/ciclos/modelo.ts';
import { fechamentoPossivel } from '../../src/domain/ciclos/regras.ts';
import { bancoNovo } from '../helpers/banco.ts';
import {
  DATAS_PADRAO,
  comporCestas,
  criarCesta,
  criarCiclo,
  criarOfertaFinalizada,
  criarPonto,
  criarProduto,
  criarUsoDaCesta,
  criarUsuario,
} from '../helpers/fabricas.ts';
import { recusa } from '../helpers/recusa.ts';

/**
 * The edges of a cycle's record: when it can be closed, and saving its lists of baskets, extras
 * and pickup points against what already uses them (compositions, orders, markets, the offers'
 * surplus). Each refusal is compared whole, and a refused save leaves the cycle as it was.
 */

// DATAS_PADRAO: offers 01–04/03/2026, pickup 11–12/03/2026.
const AGORA = new Date('2026-03-02T15:00:00Z');
const HOJE = '2026-03-02';

let sequencia = 0;
const nomeUnico = (prefixo: string) => `${prefixo} ${++sequencia} ${Math.random().toString(36).slice(2, 6)}`;

describe('as bordas do ciclo: fechamento, cestas, extras e pontos', () => {
  let banco: Banco;
  let admin: Ator;

  before(async () => {
    banco = abrirBanco(await bancoNovo());
    const a = await criarUsuario(banco, { perfil: ['admin'], nome: 'Admin' });
    admin = { email: a.email, nome: 'Admin', usuarioid: a.id, perfil: ['admin'], ativo: true };
  });
  after(() => banco.destroy());

  /** The cycle as it is, to save again with some lists changed (a list left null is kept). */
  async function lidoDe(cicloid: number, listas: Partial<Omit<CicloLido, 'dados'>>, nome?: string): Promise<CicloLido> {
    const c = await obterCiclo(banco, cicloid, HOJE);
    return {
      dados: {
        nome: nome ?? c.nome,
        dataOfertaInicio: c.dataOfertaInicio,
        dataOfertaFim: c.dataOfertaFim,
        dataPedidoInicio: c.dataPedidoInicio,
        dataPedidoFim: c.dataPedidoFim,
        dataRetiradaInicio: c.dataRetiradaInicio,
        dataRetiradaFim: c.dataRetiradaFim,
        ativo: null,
      },
      cicloEntregas: null,
      cicloPontos: null,
      cicloCestas: null,
      cicloProdutos: null,
      ...listas,
    };
  }

  const salvar = async (cicloid: number, listas: Partial<Omit<CicloLido, 'dados'>>, nome?: string) =>
    salvarCiclo(banco, admin, cicloid, await lidoDe(cicloid, listas, nome), AGORA, HOJE);

  /** The cycle as read, with its lists: a refused save leaves it equal. */
  const estado = (cicloid: number) => obterCiclo(banco, cicloid, HOJE);

  /** An order of the cycle picking up at `ponto`, by a consumer of its own. */
  async function pedidoEm(cicloid: number, ponto: number): Promise<void> {
    const u = await criarUsuario(banco, { perfil: ['consumidor'] });
    const iso = new Date().toISOString();
    await banco
      .insertInto('pedido')
      .values({ cicloid, usuarioid: u.id, pontoEntregaId: ponto, createdAt: iso, updatedAt: iso })
      .execute();
  }

  const ponto = (
    pontoEntregaId: number,
    i: number,
    id: number | null = null,
    horas: { horaInicio: string | null; horaFim: string | null } = { horaInicio: null, horaFim: null },
  ): PontoLido => ({
    id,
    pontoEntregaId,
    dataRetirada: null,
    ...horas,
    campo: `cicloPontos.${i}.pontoEntregaId`,
  });

  test('fechamento: só na retirada ou depois dela, e uma vez só', () => {
    assert.deepEqual(
      FASES.filter((fase) => fechamentoPossivel({ fase, fechadoEm: null })),
      ['retirada', 'encerrado'],
    );
    assert.deepEqual(
      FASES.filter((fase) => fechamentoPossivel({ fase, fechadoEm: '2026-03-13T10:00:00.000Z' })),
      [],
    );
  });

  test('cestas: sai do ciclo só a que não tem composição nem pedido; as outras dizem por quê', async () => {
    const [composta, pedida, soPedida, livre] = await Promise.all([
      criarCesta(banco, { nome: nomeUnico('Composta') }),
      criarCesta(banco, { nome: nomeUnico('Pedida') }),
      criarCesta(banco, { nome: nomeUnico('Só pedida') }),
      criarCesta(banco, { nome: nomeUnico('Livre') }),
    ]);
    const c = await criarCiclo(banco, {
      datas: DATAS_PADRAO,
      cestas: [composta, pedida, soPedida, livre].map((x) => ({ cestaId: x.id, quantidadeCestas: 5 })),
    });
    const [idComposta = 0, idPedida = 0, idSoPedida = 0] = c.cicloCestas;
    await comporCestas(banco, c.id, [idComposta]);
    await criarUsoDaCesta(banco, c.id, idPedida, { pedidas: 2, compostas: 3 });
    // An order of a basket with nothing composed in it (its composition was undone since).
    const u = await criarUsuario(banco, { perfil: ['consumidor'] });
    const iso = new Date().toISOString();
    const pedido = await banco
      .insertInto('pedido')
      .values({
        cicloid: c.id,
        usuarioid: u.id,
        pontoEntregaId: (await criarPonto(banco)).id,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await banco
      .insertInto('pedidoproduto')
      .values({
        pedidoid: pedido.id,
        cicloCestaId: idSoPedida,
        quantidadeMilesimos: 1000,
        valorCentavos: 5000,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    const linha = (cestaId: number, id: number, i: number) => ({
      id,
      cestaId,
      quantidadeCestas: 5,
      campo: `cicloCestas.${i}.cestaId`,
    });
    const fica = {
      composta: linha(composta.id, idComposta, 0),
      pedida: linha(pedida.id, idPedida, 1),
      soPedida: linha(soPedida.id, idSoPedida, 2),
    };

    // The unused basket leaves; the others stay as they are.
    const salvo = await salvar(c.id, { cicloCestas: [fica.composta, fica.pedida, fica.soPedida] });
    assert.deepEqual(
      salvo.cicloCestas.map((x) => [x.id, x.nome, x.quantidadePedida, x.composta]),
      [
        [idComposta, composta.nome, 0, true],
        [idPedida, pedida.nome, 2, true],
        [idSoPedida, soPedida.nome, 1, false],
      ],
    );

    const antes = await estado(c.id);
    const sem = (fora: keyof typeof fica) =>
      salvar(
        c.id,
        { cicloCestas: Object.entries(fica).flatMap(([k, l]) => (k === fora ? [] : [l])) },
        nomeUnico('Outro'),
      );
    assert.deepEqual(await recusa(sem('composta')), {
      tipo: 'Conflito',
      codigo: 'CESTA_EM_USO',
      mensagem: `A ${composta.nome} não pode sair do ciclo: ela tem composição`,
      detalhes: { cicloCestaId: idComposta },
    });
    assert.deepEqual(await recusa(sem('pedida')), {
      tipo: 'Conflito',
      codigo: 'CESTA_EM_USO',
      mensagem: `A ${pedida.nome} não pode sair do ciclo: ela tem 2 cestas pedidas`,
      detalhes: { cicloCestaId: idPedida },
    });
    assert.deepEqual(await recusa(sem('soPedida')), {
      tipo: 'Conflito',
      codigo: 'CESTA_EM_USO',
      mensagem: `A ${soPedida.nome} não pode sair do ciclo: ela tem 1 cesta pedida`,
      detalhes: { cicloCestaId: idSoPedida },
    });
    assert.deepEqual(await estado(c.id), antes, 'as recusas não mudam nada no ciclo');
  });

  test('extras: um produto liberado a um mercado não entra como extra, e só ele é apontado', async () => {
    const c = await criarCiclo(banco, { datas: DATAS_PADRAO });
    const [liberado, classico] = await Promise.all([
      criarProduto(banco, { nome: nomeUnico('Liberado'), unidade: 'kg' }),
      criarProduto(banco, { nome: nomeUnico('Clássico'), unidade: 'kg' }),
    ]);
    await criarOfertaFinalizada(banco, c.id, [
      { produtoId: liberado.id, quantidadeMilesimos: 10_000, valorCentavos: 300 },
      { produtoId: classico.id, quantidadeMilesimos: 10_000, valorCentavos: 300 },
    ]);
    const iso = new Date().toISOString();
    const nomeDoMercado = nomeUnico('Feira');
    const dono = await banco
      .insertInto('appuser')
      .values({
        providerId: 'idp|dono-do-ciclo',
        email: 'dono-do-ciclo@mercados.org',
        emailChave: 'dono-do-ciclo@mercados.org',
        name: 'Dono',
        avatar: null,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const mercado = await banco
      .insertInto('mercado')
      .values({
        nome: nomeDoMercado,
        descricao: null,
        tipo: 'venda_direta',
        taxaAdministrativaCentesimos: null,
        valorMaximoCestaCentavos: null,
        ativo: true,
        adminId: dono.id,
        createdAt: iso,
        updatedAt: iso,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await banco
      .insertInto('ciclomercado')
      .values({ cicloid: c.id, mercadoId: mercado.id, ordemAtendimento: 1, createdAt: iso, updatedAt: iso })
      .execute();
    await banco
      .insertInto('cicloproduto')
      .values({
        cicloid: c.id,
        produtoId: liberado.id,
        quantidadeMilesimos: 4000,
        valorCentavos: 500,
        mercadoId: mercado.id,
        createdAt: iso,
        updatedAt: iso,
      })
      .execute();
    const extra = (produtoId: number, i: number) => ({
      id: null,
      produtoId,
      quantidadeMilesimos: 1000,
      valorCentavos: 700,
      campo: `cicloProdutos.${i}.produtoId`,
    });

    const antes = await estado(c.id);
    assert.deepEqual(await recusa(salvar(c.id, { cicloProdutos: [extra(classico.id, 0), extra(liberado.id, 1)] })), {
      tipo: 'Conflito',
      codigo: 'PRODUTO_JA_NO_CICLO',
      mensagem: 'Verifique os campos destacados',
      detalhes: {
        'cicloProdutos.1.produtoId': `Este produto está liberado para ${nomeDoMercado} neste ciclo: um produto é vendido uma vez por ciclo, como extra ou num mercado`,
      },
    });
    assert.deepEqual(await estado(c.id), antes, 'a recusa não grava nenhum extra');

    const salvo = await salvar(c.id, { cicloProdutos: [extra(classico.id, 0)] });
    assert.deepEqual(
      salvo.cicloProdutos.map((p) => [p.produtoId, p.quantidadeMilesimos, p.valorCentavos]),
      [[classico.id, 1000, 700]],
    );
  });

  test('extras: até a sobra das ofertas finalizadas, e nem um milésimo a mais; sem oferta, nada', async () => {
    const c = await criarCiclo(banco, { datas: DATAS_PADRAO });
    const [ofertado, semOferta] = await Promise.all([
      criarProduto(banco, { nome: nomeUnico('Ofertado'), unidade: 'kg' }),
      criarProduto(banco, { nome: nomeUnico('Sem oferta'), unidade: 'maço' }),
    ]);
    await criarOfertaFinalizada(banco, c.id, [
      { produtoId: ofertado.id, quantidadeMilesimos: 2500, valorCentavos: 300 },
    ]);
    const extra = (produtoId: number, quantidadeMilesimos: number, i: number) => ({
      id: null,
      produtoId,
      quantidadeMilesimos,
      valorCentavos: 700,
      campo: `cicloProdutos.${i}.produtoId`,
    });

    const antes = await estado(c.id);
    assert.deepEqual(
      await recusa(salvar(c.id, { cicloProdutos: [extra(ofertado.id, 2501, 0), extra(semOferta.id, 1, 1)] })),
      {
        tipo: 'Conflito',
        codigo: 'CAPACIDADE_EXCEDIDA',
        mensagem: 'Os extras passam do que sobra das ofertas finalizadas',
        detalhes: {
          'cicloProdutos.0.quantidade': 'Passa da sobra das ofertas finalizadas: 2,5 kg',
          'cicloProdutos.1.quantidade': 'Passa da sobra das ofertas finalizadas: 0 maço',
        },
      },
    );
    assert.deepEqual(await estado(c.id), antes, 'a recusa não grava nenhum extra');

    const salvo = await salvar(c.id, { cicloProdutos: [extra(ofertado.id, 2500, 0)] });
    assert.deepEqual(
      salvo.cicloProdutos.map((p) => [p.produtoId, p.quantidadeMilesimos]),
      [[ofertado.id, 2500]],
    );
  });

  test('pontos: um ponto que já está no ciclo fica, mesmo inativo, casado pela linha ou pelo ponto', async () => {
    const c = await criarCiclo(banco, { datas: DATAS_PADRAO });
    const [velho, outro] = [
      await criarPonto(banco, nomeUnico('A Velho')),
      await criarPonto(banco, nomeUnico('B Outro')),
    ];
    const primeiro = await salvar(c.id, { cicloPontos: [ponto(velho.id, 0), ponto(outro.id, 1)] });
    const linha = primeiro.cicloPontos.find((p) => p.pontoEntregaId === velho.id)?.id ?? 0;
    await banco.updateTable('pontoentrega').set({ ativo: false }).where('id', '=', velho.id).execute();

    // By its point (no row id): the same row, with its new hours.
    const pelaChave = await salvar(c.id, {
      cicloPontos: [ponto(velho.id, 0, null, { horaInicio: '08:00', horaFim: '12:00' })],
    });
    assert.deepEqual(
      pelaChave.cicloPontos.map((p) => [p.id, p.pontoEntregaId, p.horaInicio, p.horaFim]),
      [[linha, velho.id, '08:00', '12:00']],
    );
    // By its row id.
    const pelaLinha = await salvar(c.id, {
      cicloPontos: [ponto(velho.id, 0, linha, { horaInicio: '09:00', horaFim: '10:00' })],
    });
    assert.deepEqual(
      pelaLinha.cicloPontos.map((p) => [p.id, p.pontoEntregaId, p.horaInicio, p.horaFim]),
      [[linha, velho.id, '09:00', '10:00']],
    );
  });

  test('pontos: um ponto novo inativo é recusado no seu campo; a linha de um ponto não troca de ponto', async () => {
    const c = await criarCiclo(banco, { datas: DATAS_PADRAO });
    const [ativo, inativo, outroAtivo] = [
      await criarPonto(banco, nomeUnico('Ativo')),
      await criarPonto(banco, nomeUnico('Inativo')),
      await criarPonto(banco, nomeUnico('Outro')),
    ];
    await banco.updateTable('pontoentrega').set({ ativo: false }).where('id', '=', inativo.id).execute();
    const salvo = await salvar(c.id, { cicloPontos: [ponto(ativo.id, 0)] });
    const linha = salvo.cicloPontos[0]?.id ?? 0;
    const antes = await estado(c.id);

    assert.deepEqual(await recusa(salvar(c.id, { cicloPontos: [ponto(ativo.id, 0), ponto(inativo.id, 1)] })), {
      tipo: 'Invalido',
      codigo: 'VALIDACAO',
      mensagem: 'Verifique os campos destacados',
      detalhes: { 'cicloPontos.1.pontoEntregaId': 'Ponto de entrega inativo: ative-o antes de incluí-lo no ciclo' },
    });
    const trocar = {
      tipo: 'Invalido',
      codigo: 'VALIDACAO',
      mensagem: 'Verifique os campos destacados',
      detalhes: {
        'cicloPontos.0.pontoEntregaId':
          'Não é possível trocar o ponto de uma linha existente: remova a linha e adicione outra',
      },
    };
    // The row keeps its point, whether the other point is active or not.
    assert.deepEqual(await recusa(salvar(c.id, { cicloPontos: [ponto(outroAtivo.id, 0, linha)] })), trocar);
    assert.deepEqual(await recusa(salvar(c.id, { cicloPontos: [ponto(inativo.id, 0, linha)] })), trocar);
    assert.deepEqual(await estado(c.id), antes, 'as recusas não mudam os pontos do ciclo');
  });

  test('pontos: sai da lista só o ponto sem pedidos; a lista vazia volta a servir todos', async () => {
    const c = await criarCiclo(banco, { datas: DATAS_PADRAO });
    const [comPedidos, semPedidos] = [
      await criarPonto(banco, nomeUnico('Com pedidos')),
      await criarPonto(banco, nomeUnico('Sem pedidos')),
    ];
    await salvar(c.id, { cicloPontos: [ponto(comPedidos.id, 0), ponto(semPedidos.id, 1)] });
    await pedidoEm(c.id, comPedidos.id);
    await pedidoEm(c.id, comPedidos.id);
    const nome = (await obterCiclo(banco, c.id, HOJE)).cicloPontos.find(
      (p) => p.pontoEntregaId === comPedidos.id,
    )?.nome;

    const sem = await salvar(c.id, { cicloPontos: [ponto(comPedidos.id, 0)] });
    assert.deepEqual(
      sem.cicloPontos.map((p) => [p.pontoEntregaId, p.pedidos]),
      [[comPedidos.id, 2]],
    );
    const antes = await estado(c.id);
    assert.deepEqual(await recusa(salvar(c.id, { cicloPontos: [ponto(semPedidos.id, 0)] })), {
      tipo: 'Conflito',
      codigo: 'PONTO_EM_USO',
      mensagem: `O ponto ${nome} não pode sair do ciclo: 2 pedido(s) retiram nele`,
      detalhes: { pontoEntregaId: comPedidos.id },
    });
    assert.deepEqual(await estado(c.id), antes, 'a recusa não muda os pontos do ciclo');

    const vazia = await salvar(c.id, { cicloPontos: [] });
    assert.deepEqual(vazia.cicloPontos, []);
  });

  test('pontos: os pedidos feitos quando o ciclo servia todos os pontos prendem os seus pontos à lista', async () => {
    const c = await criarCiclo(banco, { datas: DATAS_PADRAO });
    const marca = Math.random().toString(36).slice(2, 6);
    const [a, b, novo] = [
      await criarPonto(banco, `A ${marca}`),
      await criarPonto(banco, `B ${marca}`),
      await criarPonto(banco, `C ${marca}`),
    ];
    await pedidoEm(c.id, b.id);
    await pedidoEm(c.id, a.id);
    await pedidoEm(c.id, a.id);
    const antes = await estado(c.id);
    assert.deepEqual(await recusa(salvar(c.id, { cicloPontos: [ponto(novo.id, 0)] })), {
      tipo: 'Conflito',
      codigo: 'PONTO_EM_USO',
      mensagem: `Há pedidos deste ciclo com retirada em A ${marca} (2), B ${marca} (1): inclua esse(s) ponto(s) no ciclo ou mude os pedidos antes`,
      detalhes: { pontoEntregaIds: [a.id, b.id] },
    });
    assert.deepEqual(await estado(c.id), antes, 'a recusa não grava o ponto novo');

    const salvo = await salvar(c.id, { cicloPontos: [ponto(novo.id, 0), ponto(b.id, 1), ponto(a.id, 2)] });
    assert.deepEqual(
      salvo.cicloPontos.map((p) => [p.pontoEntregaId, p.pedidos]),
      [
        [a.id, 2],
        [b.id, 1],
        [novo.id, 0],
      ],
    );
  });
});
