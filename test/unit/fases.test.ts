import assert from 'node:assert/strict';
import { test } from 'node:test';
import { proximasAcoes } from '../../src/domain/acesso.ts';
import { faseDoCiclo, janelasAbertas, nomeDoMomento } from '../../src/domain/ciclos/calendario.ts';
import { PERFIS, type Perfil } from '../../src/domain/perfis.ts';
import { dataHoraLocal, diaLocal, diasDeEntregaTexto } from '../../src/domain/tempo.ts';

const CICLO = {
  dataOfertaInicio: '2026-03-01',
  dataOfertaFim: '2026-03-04',
  dataPedidoInicio: '2026-03-06',
  dataPedidoFim: '2026-03-09',
  dataRetiradaInicio: '2026-03-11',
  dataRetiradaFim: '2026-03-12',
};

test('a fase vem das datas e as janelas incluem os dois dias', () => {
  const esperado: Array<[string, string]> = [
    ['2026-02-28', 'planejado'],
    ['2026-03-01', 'oferta'],
    ['2026-03-04', 'oferta'],
    ['2026-03-05', 'composicao'],
    ['2026-03-06', 'pedido'],
    ['2026-03-09', 'pedido'],
    ['2026-03-10', 'retirada'],
    ['2026-03-12', 'retirada'],
    ['2026-03-13', 'encerrado'],
  ];
  for (const [hoje, fase] of esperado) assert.equal(faseDoCiclo(CICLO, hoje), fase, hoje);
});

test('o dia é o do fuso da comunidade, não o do servidor', () => {
  const instante = new Date('2026-03-05T01:30:00Z');
  assert.equal(diaLocal(instante, 'America/Sao_Paulo'), '2026-03-04');
  assert.equal(diaLocal(instante, 'UTC'), '2026-03-05');
  assert.equal(dataHoraLocal(instante, 'America/Sao_Paulo'), '2026-03-04T22:30:00');
});

const DATAS = {
  dataOfertaInicio: '2026-03-01',
  dataOfertaFim: '2026-03-03',
  dataPedidoInicio: '2026-03-05',
  dataPedidoFim: '2026-03-07',
  dataRetiradaInicio: '2026-03-09',
  dataRetiradaFim: '2026-03-10',
};
/** A day in each phase of DATAS. */
const DIA_DA_FASE = {
  planejado: '2026-02-28',
  oferta: '2026-03-02',
  composicao: '2026-03-04',
  pedido: '2026-03-06',
  retirada: '2026-03-08',
  encerrado: '2026-03-11',
} as const;
const momento = (datas: typeof DATAS, hoje: string) => ({
  fase: faseDoCiclo(datas, hoje),
  abertas: janelasAbertas(datas, hoje),
});

test('a próxima etapa depende do perfil e do dia', () => {
  assert.deepEqual(proximasAcoes({ perfil: ['fornecedor'] }, momento(DATAS, DIA_DA_FASE.oferta)), ['ofertar']);
  assert.deepEqual(proximasAcoes({ perfil: ['consumidor'] }, momento(DATAS, DIA_DA_FASE.oferta)), []);
  assert.deepEqual(proximasAcoes({ perfil: ['admin'] }, momento(DATAS, DIA_DA_FASE.composicao)), ['compor']);
  assert.deepEqual(proximasAcoes({ perfil: ['fornecedor', 'consumidor'] }, momento(DATAS, DIA_DA_FASE.pedido)), [
    'pedir',
  ]);
  assert.deepEqual(proximasAcoes({ perfil: ['consumidor'] }, momento(DATAS, DIA_DA_FASE.retirada)), ['retirar']);
  assert.deepEqual(proximasAcoes({ perfil: ['consumidor', 'fornecedor'] }, momento(DATAS, DIA_DA_FASE.retirada)), [
    'entregar',
    'retirar',
  ]);
});

test('os dias de entrega como se leem: dia da semana, data e a observação da coordenação', () => {
  assert.equal(diasDeEntregaTexto([]), '');
  assert.equal(
    diasDeEntregaTexto([
      { dataEntrega: '2026-12-04', observacao: ' entregar na Sede até 17h ' },
      { dataEntrega: '2026-12-05', observacao: '  ' },
      { dataEntrega: '2026-12-06', observacao: null },
    ]),
    'sexta-feira, 04/12/2026: entregar na Sede até 17h; sábado, 05/12/2026; domingo, 06/12/2026',
  );
});

test('as próximas etapas, perfil a perfil e fase a fase', () => {
  const esperado: Record<Perfil, Record<keyof typeof DIA_DA_FASE, string[]>> = {
    fornecedor: {
      planejado: [],
      oferta: ['ofertar'],
      composicao: [],
      pedido: [],
      retirada: ['entregar'],
      encerrado: [],
    },
    consumidor: { planejado: [], oferta: [], composicao: [], pedido: ['pedir'], retirada: ['retirar'], encerrado: [] },
    admin: { planejado: [], oferta: [], composicao: ['compor'], pedido: [], retirada: [], encerrado: [] },
    master: { planejado: [], oferta: [], composicao: ['compor'], pedido: [], retirada: [], encerrado: [] },
    info: { planejado: [], oferta: [], composicao: [], pedido: [], retirada: [], encerrado: [] },
  };
  for (const perfil of PERFIS) {
    for (const [fase, dia] of Object.entries(DIA_DA_FASE) as Array<[keyof typeof DIA_DA_FASE, string]>) {
      assert.equal(faseDoCiclo(DATAS, dia), fase);
      assert.deepEqual(
        proximasAcoes({ perfil: [perfil] }, momento(DATAS, dia)),
        esperado[perfil][fase],
        `${perfil} em ${fase}`,
      );
    }
  }
  assert.deepEqual(
    proximasAcoes({ perfil: ['master', 'fornecedor', 'consumidor'] }, momento(DATAS, DIA_DA_FASE.oferta)),
    ['ofertar'],
  );
  assert.deepEqual(proximasAcoes({ perfil: [] }, momento(DATAS, DIA_DA_FASE.pedido)), []);
});

test('janelas que dividem um dia: cada uma vale por si, e as duas etapas aparecem', () => {
  const juntas = { ...DATAS, dataPedidoInicio: '2026-03-03' };
  assert.deepEqual(janelasAbertas(juntas, '2026-03-02'), ['oferta']);
  assert.deepEqual(janelasAbertas(juntas, '2026-03-03'), ['oferta', 'pedido']);
  assert.deepEqual(janelasAbertas(juntas, '2026-03-04'), ['pedido']);
  assert.equal(faseDoCiclo(juntas, '2026-03-03'), 'oferta', 'a fase nomeia uma etapa só');
  assert.equal(nomeDoMomento('oferta', janelasAbertas(juntas, '2026-03-03')), 'Ofertas e pedidos abertos');
  assert.equal(nomeDoMomento('oferta', janelasAbertas(juntas, '2026-03-02')), 'Ofertas abertas');
  assert.deepEqual(proximasAcoes({ perfil: ['fornecedor', 'consumidor'] }, momento(juntas, '2026-03-03')), [
    'ofertar',
    'pedir',
  ]);
  assert.deepEqual(proximasAcoes({ perfil: ['consumidor'] }, momento(juntas, '2026-03-03')), ['pedir']);
});
