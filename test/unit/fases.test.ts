import assert from 'node:assert/strict';
import { test } from 'node:test';
import { proximasAcoes } from '../../src/domain/acesso.ts';
import { faseDoCiclo } from '../../src/domain/ciclos.ts';
import { PERFIS, type Perfil } from '../../src/domain/perfis.ts';
import { dataHoraLocal, diaLocal } from '../../src/domain/tempo.ts';

const CICLO = {
  dataOfertaInicio: '2026-03-01', dataOfertaFim: '2026-03-04', dataPedidoInicio: '2026-03-06',
  dataPedidoFim: '2026-03-09', dataRetiradaInicio: '2026-03-11', dataRetiradaFim: '2026-03-12',
};

test('a fase vem das datas e as janelas incluem os dois dias', () => {
  const esperado: Array<[string, string]> = [
    ['2026-02-28', 'planejado'], ['2026-03-01', 'oferta'], ['2026-03-04', 'oferta'], ['2026-03-05', 'composicao'],
    ['2026-03-06', 'pedido'], ['2026-03-09', 'pedido'], ['2026-03-10', 'retirada'], ['2026-03-12', 'retirada'],
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

test('a próxima etapa depende do perfil e da fase', () => {
  assert.deepEqual(proximasAcoes({ perfil: ['fornecedor'] }, 'oferta'), ['ofertar']);
  assert.deepEqual(proximasAcoes({ perfil: ['consumidor'] }, 'oferta'), []);
  assert.deepEqual(proximasAcoes({ perfil: ['admin'] }, 'composicao'), ['compor']);
  assert.deepEqual(proximasAcoes({ perfil: ['fornecedor', 'consumidor'] }, 'pedido'), ['pedir']);
  assert.deepEqual(proximasAcoes({ perfil: ['consumidor'] }, 'retirada'), ['retirar']);
});

test('as próximas etapas, perfil a perfil e fase a fase', () => {
  const fases = ['planejado', 'oferta', 'composicao', 'pedido', 'retirada', 'encerrado'] as const;
  const esperado: Record<Perfil, Record<(typeof fases)[number], string[]>> = {
    fornecedor: { planejado: [], oferta: ['ofertar'], composicao: [], pedido: [], retirada: [], encerrado: [] },
    consumidor: { planejado: [], oferta: [], composicao: [], pedido: ['pedir'], retirada: ['retirar'], encerrado: [] },
    admin: { planejado: [], oferta: [], composicao: ['compor'], pedido: [], retirada: [], encerrado: [] },
    master: { planejado: [], oferta: [], composicao: ['compor'], pedido: [], retirada: [], encerrado: [] },
    info: { planejado: [], oferta: [], composicao: [], pedido: [], retirada: [], encerrado: [] },
  };
  for (const perfil of PERFIS) {
    for (const fase of fases) assert.deepEqual(proximasAcoes({ perfil: [perfil] }, fase), esperado[perfil][fase], `${perfil} em ${fase}`);
  }
  assert.deepEqual(proximasAcoes({ perfil: ['master', 'fornecedor', 'consumidor'] }, 'oferta'), ['ofertar']);
  assert.deepEqual(proximasAcoes({ perfil: [] }, 'pedido'), []);
});
