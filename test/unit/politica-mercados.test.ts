import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PROFILES, acoesDaConta, acoesDoMercado, type AtorMercados, type NomePerfil } from '../../src/domain/politica-mercados.ts';

const conta = (id: number, ...profiles: NomePerfil[]): AtorMercados => ({ id, email: `c${id}@teste.org`, name: `Conta ${id}`, profiles });

test('o que cada perfil pode fazer na face vem da tabela da política, e o cliente o lê em acoes', () => {
  const esperado: Readonly<Record<NomePerfil, ReturnType<typeof acoesDaConta>>> = {
    Administrador: { criarMercado: true, gerirMercados: true, gerirAlgumMercado: true, listarUsuarios: true, atribuirPerfis: true, ofertar: false, pedir: false, definirMercadosDoCiclo: true },
    AdminMercado: { criarMercado: false, gerirMercados: false, gerirAlgumMercado: true, listarUsuarios: false, atribuirPerfis: false, ofertar: false, pedir: false, definirMercadosDoCiclo: false },
    Fornecedor: { criarMercado: false, gerirMercados: false, gerirAlgumMercado: false, listarUsuarios: false, atribuirPerfis: false, ofertar: true, pedir: false, definirMercadosDoCiclo: false },
    Consumidor: { criarMercado: false, gerirMercados: false, gerirAlgumMercado: false, listarUsuarios: false, atribuirPerfis: false, ofertar: false, pedir: true, definirMercadosDoCiclo: false },
  };
  for (const p of PROFILES) assert.deepEqual(acoesDaConta(conta(1, p)), esperado[p], p);
  // Rights are the union over the profiles.
  assert.deepEqual(acoesDaConta(conta(1, 'AdminMercado', 'Consumidor')), { ...esperado.AdminMercado, pedir: true });
  // No profile, no right.
  assert.deepEqual(acoesDaConta(conta(1)), { ...esperado.Consumidor, pedir: false });
});

test('num mercado, o AdminMercado só edita e vê os pedidos do que administra; desativar é do Administrador e só de um ativo', () => {
  const mercado = { adminId: 7, ativo: true };
  assert.deepEqual(acoesDoMercado(conta(7, 'AdminMercado'), mercado), { editar: true, editarPrecos: true, desativar: false, verPedidos: true });
  assert.deepEqual(acoesDoMercado(conta(8, 'AdminMercado'), mercado), { editar: false, editarPrecos: false, desativar: false, verPedidos: false });
  assert.deepEqual(acoesDoMercado(conta(1, 'Administrador'), mercado), { editar: true, editarPrecos: true, desativar: true, verPedidos: true });
  assert.deepEqual(acoesDoMercado(conta(1, 'Administrador'), { ...mercado, ativo: false }), { editar: true, editarPrecos: true, desativar: false, verPedidos: true });
  // An account with that id but without the profile administers nothing.
  assert.deepEqual(acoesDoMercado(conta(7, 'Consumidor'), mercado), { editar: false, editarPrecos: false, desativar: false, verPedidos: false });
  assert.deepEqual(acoesDoMercado(conta(7, 'Fornecedor', 'Consumidor'), mercado).verPedidos, false);
});
