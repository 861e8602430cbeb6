import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import type { Conta } from '../../src/domain/contas.ts';
import type { NomePerfil } from '../../src/domain/politica-mercados.ts';
import { criarProduto } from '../helpers/fabricas.ts';
import { Navegador } from '../helpers/navegador.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import { contaComSessao, criarMercadoNoBanco, graphql, perfisDe, type RespostaGraphql } from './apoio.ts';

const CRIAR = `mutation($input: MercadoInput!) {
  criarMercado(input: $input) {
    id nome descricao tipo taxaAdministrativa valorMaximoCesta ativo adminId
    admin { id name } precos { id } acoes { editar editarPrecos desativar } createdAt updatedAt
  }
}`;
const ATUALIZAR =
  'mutation($id: ID!, $input: MercadoInput!) { atualizarMercado(id: $id, input: $input) { id nome tipo ativo adminId taxaAdministrativa valorMaximoCesta } }';
const PRECOS = `mutation($id: ID!, $input: PrecoMercadoInput!) {
  atualizarPrecoMercado(id: $id, input: $input) { id precos { produtoId preco ativo produto { id nome } } }
}`;

interface Pessoa {
  readonly nav: Navegador;
  readonly conta: Conta;
}

/** The one BAD_USER_INPUT error of a refused request: its message and fields. */
function entradaInvalida(r: RespostaGraphql): { message: string; field: unknown; fields: unknown } {
  assert.equal(r.status, 200);
  assert.equal(r.corpo.errors?.length, 1, JSON.stringify(r.corpo));
  const erro = r.corpo.errors[0];
  assert.equal(erro?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(erro));
  return { message: erro.message, field: erro.extensions.field, fields: erro.extensions.fields };
}

function dados<T>(r: RespostaGraphql, campo: string): T {
  assert.equal(r.corpo.errors, undefined, JSON.stringify(r.corpo.errors));
  return r.corpo.data?.[campo] as T;
}

describe('GraphQL da face Mercados', () => {
  let amb: AmbienteDeTeste;
  let admin: Pessoa;
  let gestora: Pessoa;
  let consumidor: Pessoa;
  const pedir = (p: Pessoa, query: string, variables?: Record<string, unknown>) =>
    graphql(amb.urlMercados, p.nav, query, variables);

  async function pessoa(perfis: readonly NomePerfil[], nome?: string): Promise<Pessoa> {
    const nav = new Navegador();
    const { conta } = await contaComSessao(amb, nav, amb.urlMercados, {
      perfis,
      ...(nome === undefined ? {} : { nome }),
    });
    return { nav, conta };
  }

  async function precosNoBanco(mercadoId: number) {
    return amb.banco
      .selectFrom('precomercado')
      .select(['produtoId', 'precoCentavos', 'ativo'])
      .where('mercadoId', '=', mercadoId)
      .orderBy('produtoId')
      .execute();
  }

  before(async () => {
    amb = await iniciarAmbiente({ mercados: true });
    admin = await pessoa(['Administrador'], 'Ana Administradora');
    gestora = await pessoa(['AdminMercado'], 'Gil Gestora');
    consumidor = await pessoa(['Consumidor'], 'Caio Consumidor');
  });
  after(() => amb.fechar());

  describe('mercados', () => {
    test('criarMercado grava todos os campos; Decimal sai com 2 casas, DateTime em ISO 8601, adminId é quem cria', async () => {
      const r = await pedir(admin, CRIAR, {
        input: {
          nome: '  Feira Central ',
          descricao: 'Aos sábados',
          tipo: 'cesta',
          taxaAdministrativa: 12.5,
          valorMaximoCesta: '150',
        },
      });
      const m = dados<Record<string, unknown>>(r, 'criarMercado');
      assert.equal(m.nome, 'Feira Central');
      assert.equal(m.descricao, 'Aos sábados');
      assert.equal(m.tipo, 'cesta');
      assert.equal(m.taxaAdministrativa, '12.50');
      assert.equal(m.valorMaximoCesta, '150.00');
      assert.equal(m.ativo, true);
      assert.equal(m.adminId, String(admin.conta.id));
      assert.deepEqual(m.admin, { id: String(admin.conta.id), name: 'Ana Administradora' });
      assert.deepEqual(m.precos, []);
      assert.deepEqual(m.acoes, { editar: true, editarPrecos: true, desativar: true });
      assert.match(String(m.createdAt), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      const linha = await amb.banco
        .selectFrom('mercado')
        .selectAll()
        .where('id', '=', Number(m.id))
        .executeTakeFirstOrThrow();
      assert.equal(linha.taxaAdministrativaCentesimos, 1250);
      assert.equal(linha.valorMaximoCestaCentavos, 15000);
      const auditoria = await amb.banco
        .selectFrom('auditoria')
        .selectAll()
        .where('entidade', '=', 'mercado')
        .where('entidadeId', '=', String(m.id))
        .execute();
      assert.deepEqual(
        auditoria.map((a) => [a.acao, a.ator]),
        [['criar', admin.conta.email]],
      );
    });

    test('criarMercado com adminId de outra pessoa: ela precisa existir e ter AdminMercado ou Administrador', async () => {
      const ok = dados<{ adminId: string; acoes: unknown }>(
        await pedir(admin, CRIAR, { input: { nome: 'Da Gil', tipo: 'lote', adminId: gestora.conta.id } }),
        'criarMercado',
      );
      assert.equal(ok.adminId, String(gestora.conta.id));
      const semPerfil = entradaInvalida(
        await pedir(admin, CRIAR, { input: { nome: 'X', tipo: 'lote', adminId: consumidor.conta.id } }),
      );
      assert.equal(
        semPerfil.message,
        'input.adminId: O administrador do mercado precisa ter o perfil AdminMercado ou Administrador',
      );
      const inexistente = entradaInvalida(
        await pedir(admin, CRIAR, { input: { nome: 'X', tipo: 'lote', adminId: 999999 } }),
      );
      assert.equal(inexistente.message, 'input.adminId: Usuário não encontrado');
      assert.equal(inexistente.field, 'input.adminId');
    });

    test('entradas inválidas: BAD_USER_INPUT nomeando cada campo, em português, e nada é gravado', async () => {
      const antes = await amb.banco.selectFrom('mercado').select('id').execute();
      const casos: ReadonlyArray<readonly [Record<string, unknown>, Record<string, string>]> = [
        [{ nome: '', tipo: 'lote' }, { 'input.nome': 'Campo obrigatório' }],
        [{ nome: '   ', tipo: 'lote' }, { 'input.nome': 'Campo obrigatório' }],
        [{ nome: 'X', tipo: 'feira' }, { 'input.tipo': 'Valor inválido: use cesta, lote, venda_direta' }],
        [
          { nome: 'X', tipo: 'lote', taxaAdministrativa: '100.01' },
          { 'input.taxaAdministrativa': 'Deve estar entre 0 e 100' },
        ],
        [{ nome: 'X', tipo: 'lote', taxaAdministrativa: -1 }, { 'input.taxaAdministrativa': 'Não pode ser negativo' }],
        [
          { nome: 'X', tipo: 'lote', taxaAdministrativa: '5,5' },
          { 'input.taxaAdministrativa': 'Use ponto como separador decimal (ex.: 12.50)' },
        ],
        [{ nome: 'X', tipo: 'cesta' }, { 'input.valorMaximoCesta': 'Obrigatório quando o tipo é cesta' }],
        [
          { nome: 'X', tipo: 'lote', valorMaximoCesta: '1.999' },
          { 'input.valorMaximoCesta': 'Aceita no máximo 2 casas decimais' },
        ],
        [{ nome: 'X', tipo: 'lote', cor: 'azul' }, { 'input.cor': 'Campo desconhecido' }],
        [{ tipo: 'lote' }, { 'input.nome': 'Campo obrigatório' }],
        [
          { nome: '', tipo: 'cesta', taxaAdministrativa: '120' },
          {
            'input.nome': 'Campo obrigatório',
            'input.taxaAdministrativa': 'Deve estar entre 0 e 100',
            'input.valorMaximoCesta': 'Obrigatório quando o tipo é cesta',
          },
        ],
      ];
      for (const [input, campos] of casos) {
        const e = entradaInvalida(await pedir(admin, CRIAR, { input }));
        assert.deepEqual(e.fields, campos, JSON.stringify(input));
        assert.equal(e.field, Object.keys(campos)[0]);
        assert.equal(
          e.message,
          Object.entries(campos)
            .map(([c, m]) => `${c}: ${m}`)
            .join('; '),
        );
      }
      assert.deepEqual(await amb.banco.selectFrom('mercado').select('id').execute(), antes);
    });

    test('valores escritos na própria consulta passam pela mesma conferência, com o caminho do argumento', async () => {
      const tipo = entradaInvalida(
        await pedir(admin, 'mutation { criarMercado(input: {nome: "X", tipo: feira}) { id } }'),
      );
      assert.deepEqual(tipo.fields, { 'input.tipo': 'Valor inválido: use cesta, lote, venda_direta' });
      const decimal = entradaInvalida(
        await pedir(
          admin,
          'mutation { criarMercado(input: {nome: "X", tipo: lote, taxaAdministrativa: "1,5"}) { id } }',
        ),
      );
      assert.deepEqual(decimal.fields, { 'input.taxaAdministrativa': 'Use ponto como separador decimal (ex.: 12.50)' });
      const id = entradaInvalida(await pedir(admin, '{ mercado(id: true) { id } }'));
      assert.deepEqual(id.fields, { id: 'Deve ser um identificador (texto ou número inteiro)' });
      const ok = dados<{ taxaAdministrativa: string }>(
        await pedir(
          admin,
          'mutation { criarMercado(input: {nome: "Literal", tipo: lote, taxaAdministrativa: 7}) { taxaAdministrativa } }',
        ),
        'criarMercado',
      );
      assert.equal(ok.taxaAdministrativa, '7.00');
    });

    test('mercados(ativo: true), mercados(ativo: false) e mercados sem filtro devolvem os conjuntos certos', async () => {
      const ativo1 = await criarMercadoNoBanco(amb.banco, { adminId: admin.conta.id, nome: 'Ativo 1' });
      const inativo = await criarMercadoNoBanco(amb.banco, { adminId: admin.conta.id, nome: 'Inativo', ativo: false });
      const ativo2 = await criarMercadoNoBanco(amb.banco, { adminId: gestora.conta.id, nome: 'Ativo 2' });
      const todos = await amb.banco.selectFrom('mercado').select(['id', 'ativo']).orderBy('id').execute();
      const ids = (r: RespostaGraphql) =>
        dados<Array<{ id: string; ativo: boolean }>>(r, 'mercados').map((m) => Number(m.id));
      assert.deepEqual(
        ids(await pedir(consumidor, '{ mercados { id ativo } }')),
        todos.map((m) => m.id),
      );
      assert.deepEqual(
        ids(await pedir(consumidor, '{ mercados(ativo: true) { id } }')),
        todos.filter((m) => m.ativo).map((m) => m.id),
      );
      assert.deepEqual(
        ids(await pedir(consumidor, '{ mercados(ativo: false) { id } }')),
        todos.filter((m) => !m.ativo).map((m) => m.id),
      );
      assert.deepEqual(
        ids(await pedir(consumidor, 'query($a: Boolean) { mercados(ativo: $a) { id } }', { a: null })),
        todos.map((m) => m.id),
      );
      const comAtivos = ids(await pedir(consumidor, '{ mercados(ativo: true) { id } }'));
      assert.ok(comAtivos.includes(ativo1.id) && comAtivos.includes(ativo2.id) && !comAtivos.includes(inativo.id));
      assert.deepEqual(
        ids(await pedir(consumidor, '{ mercados(ativo: false) { id } }')).filter((id) => id === inativo.id),
        [inativo.id],
      );
    });

    test('mercado(id): o mercado; null, sem erro, para um id que nenhum mercado tem ou pode ter', async () => {
      const m = await criarMercadoNoBanco(amb.banco, { adminId: gestora.conta.id, nome: 'Procurado' });
      const achado = dados<{ nome: string; admin: { name: string } }>(
        await pedir(consumidor, '{ mercado(id: ' + m.id + ') { nome admin { name } } }'),
        'mercado',
      );
      assert.deepEqual(achado, { nome: 'Procurado', admin: { name: 'Gil Gestora' } });
      assert.deepEqual(await pedir(consumidor, '{ mercado(id: "999999") { id } }'), {
        status: 200,
        corpo: { data: { mercado: null } },
      });
      for (const impossivel of ['abc', '0', '-1', '1.5', ' 1', '2147483648', '99999999999999999999', '']) {
        assert.deepEqual(
          await pedir(consumidor, 'query($id: ID!) { mercado(id: $id) { id } }', { id: impossivel }),
          { status: 200, corpo: { data: { mercado: null } } },
          impossivel,
        );
      }
      assert.deepEqual(await pedir(consumidor, '{ mercado(id: 0) { id } }'), {
        status: 200,
        corpo: { data: { mercado: null } },
      });
    });

    test('atualizarMercado: a AdminMercado altera o próprio mercado, mas não troca adminId nem ativo; campos omitidos ficam', async () => {
      const m = await criarMercadoNoBanco(amb.banco, { adminId: gestora.conta.id, nome: 'Da Gestora' });
      const alterado = dados<Record<string, unknown>>(
        await pedir(gestora, ATUALIZAR, {
          id: m.id,
          input: { nome: 'Da Gestora, renovado', tipo: 'cesta', valorMaximoCesta: 99.9, taxaAdministrativa: '0' },
        }),
        'atualizarMercado',
      );
      assert.deepEqual(alterado, {
        id: String(m.id),
        nome: 'Da Gestora, renovado',
        tipo: 'cesta',
        ativo: true,
        adminId: String(gestora.conta.id),
        taxaAdministrativa: '0.00',
        valorMaximoCesta: '99.90',
      });
      const trocaAdmin = await pedir(gestora, ATUALIZAR, {
        id: m.id,
        input: { nome: 'x', tipo: 'lote', adminId: admin.conta.id },
      });
      assert.equal(trocaAdmin.corpo.errors?.[0]?.extensions?.code, 'FORBIDDEN');
      assert.equal(
        trocaAdmin.corpo.errors[0]?.message,
        'Acesso negado: só o perfil Administrador troca o administrador de um mercado ou o ativa e desativa',
      );
      const desativa = await pedir(gestora, ATUALIZAR, { id: m.id, input: { nome: 'x', tipo: 'lote', ativo: false } });
      assert.equal(desativa.corpo.errors?.[0]?.extensions?.code, 'FORBIDDEN');
      // Repeating the current adminId is no change.
      const mesmoAdmin = await pedir(gestora, ATUALIZAR, {
        id: m.id,
        input: { nome: 'Mesmo admin', tipo: 'lote', adminId: gestora.conta.id, ativo: true },
      });
      assert.equal(dados<{ nome: string }>(mesmoAdmin, 'atualizarMercado').nome, 'Mesmo admin');
      const linha = await amb.banco.selectFrom('mercado').selectAll().where('id', '=', m.id).executeTakeFirstOrThrow();
      assert.equal(linha.adminId, gestora.conta.id);
      assert.equal(linha.ativo, true);
    });

    test('atualizarMercado pelo Administrador: troca o admin, reativa, e recusa id desconhecido ou inválido', async () => {
      const m = await criarMercadoNoBanco(amb.banco, { adminId: admin.conta.id, ativo: false });
      const r = dados<{ adminId: string; ativo: boolean }>(
        await pedir(admin, ATUALIZAR, {
          id: String(m.id),
          input: { nome: 'Reaberto', tipo: 'lote', adminId: String(gestora.conta.id), ativo: true },
        }),
        'atualizarMercado',
      );
      assert.equal(r.adminId, String(gestora.conta.id));
      assert.equal(r.ativo, true);
      const desconhecido = entradaInvalida(
        await pedir(admin, ATUALIZAR, { id: 999999, input: { nome: 'x', tipo: 'lote' } }),
      );
      assert.equal(desconhecido.message, 'id: Mercado não encontrado');
      const invalido = entradaInvalida(
        await pedir(admin, ATUALIZAR, { id: '12a', input: { nome: 'x', tipo: 'lote' } }),
      );
      assert.equal(invalido.message, 'id: Deve ser um número inteiro');
    });

    test('desativarMercado desativa sem apagar; repetir não muda nada; id desconhecido é BAD_USER_INPUT', async () => {
      const m = await criarMercadoNoBanco(amb.banco, { adminId: gestora.conta.id });
      const primeira = dados<{ ativo: boolean; updatedAt: string; acoes: unknown }>(
        await pedir(
          admin,
          'mutation($id: ID!) { desativarMercado(id: $id) { ativo updatedAt acoes { editar editarPrecos desativar } } }',
          { id: m.id },
        ),
        'desativarMercado',
      );
      assert.equal(primeira.ativo, false);
      assert.deepEqual(primeira.acoes, { editar: true, editarPrecos: true, desativar: false });
      const segunda = dados<{ ativo: boolean; updatedAt: string }>(
        await pedir(admin, 'mutation($id: ID!) { desativarMercado(id: $id) { ativo updatedAt } }', { id: m.id }),
        'desativarMercado',
      );
      assert.deepEqual(segunda, { ativo: false, updatedAt: primeira.updatedAt });
      assert.ok(await amb.banco.selectFrom('mercado').select('id').where('id', '=', m.id).executeTakeFirst());
      assert.equal(
        entradaInvalida(await pedir(admin, 'mutation { desativarMercado(id: 424242) { id } }')).message,
        'id: Mercado não encontrado',
      );
    });

    test('acoes: cada pessoa recebe o que pode fazer com cada mercado, pela mesma regra do servidor', async () => {
      const m = await criarMercadoNoBanco(amb.banco, { adminId: gestora.conta.id });
      const consulta = `{ mercado(id: ${m.id}) { acoes { editar editarPrecos desativar verPedidos } } }`;
      const acoes = async (p: Pessoa) => dados<{ acoes: unknown }>(await pedir(p, consulta), 'mercado').acoes;
      assert.deepEqual(await acoes(admin), { editar: true, editarPrecos: true, desativar: true, verPedidos: true });
      assert.deepEqual(await acoes(gestora), { editar: true, editarPrecos: true, desativar: false, verPedidos: true });
      assert.deepEqual(await acoes(consumidor), {
        editar: false,
        editarPrecos: false,
        desativar: false,
        verPedidos: false,
      });
      const outraGestora = await pessoa(['AdminMercado']);
      assert.deepEqual(await acoes(outraGestora), {
        editar: false,
        editarPrecos: false,
        desativar: false,
        verPedidos: false,
      });
    });
  });

  describe('preços', () => {
    test('atualizarPrecoMercado insere e depois altera; ativo omitido mantém o atual; devolve o mercado com os preços', async () => {
      const m = await criarMercadoNoBanco(amb.banco, { adminId: gestora.conta.id });
      const p1 = await criarProduto(amb.banco, { nome: 'Abóbora cabotiá' });
      const p2 = await criarProduto(amb.banco, { nome: 'Quiabo' });
      const primeiro = dados<{ precos: unknown[] }>(
        await pedir(gestora, PRECOS, {
          id: m.id,
          input: {
            precos: [
              { produtoId: p1.id, preco: 4.5 },
              { produtoId: String(p2.id), preco: '10', ativo: false },
            ],
          },
        }),
        'atualizarPrecoMercado',
      );
      assert.deepEqual(primeiro.precos, [
        {
          produtoId: String(p1.id),
          preco: '4.50',
          ativo: true,
          produto: { id: String(p1.id), nome: 'Abóbora cabotiá' },
        },
        { produtoId: String(p2.id), preco: '10.00', ativo: false, produto: { id: String(p2.id), nome: 'Quiabo' } },
      ]);
      const segundo = dados<{ precos: Array<{ produtoId: string; preco: string; ativo: boolean }> }>(
        await pedir(gestora, PRECOS, {
          id: m.id,
          input: {
            precos: [
              { produtoId: p2.id, preco: '11.25' },
              { produtoId: p1.id, preco: 0, ativo: false },
            ],
          },
        }),
        'atualizarPrecoMercado',
      );
      assert.deepEqual(
        segundo.precos.map((p) => [p.produtoId, p.preco, p.ativo]),
        [
          [String(p1.id), '0.00', false],
          [String(p2.id), '11.25', false],
        ],
      );
      assert.deepEqual(await precosNoBanco(m.id), [
        { produtoId: p1.id, precoCentavos: 0, ativo: false },
        { produtoId: p2.id, precoCentavos: 1125, ativo: false },
      ]);
      const vazio = dados<{ precos: unknown[] }>(
        await pedir(gestora, PRECOS, { id: m.id, input: { precos: [] } }),
        'atualizarPrecoMercado',
      );
      assert.equal(vazio.precos.length, 2);
    });

    test('um lote com uma linha inválida não muda nada: produto desconhecido, preço negativo, produto repetido', async () => {
      const m = await criarMercadoNoBanco(amb.banco, { adminId: gestora.conta.id });
      const p1 = await criarProduto(amb.banco);
      const p2 = await criarProduto(amb.banco);
      const p3 = await criarProduto(amb.banco);
      dados(
        await pedir(gestora, PRECOS, { id: m.id, input: { precos: [{ produtoId: p1.id, preco: '5.00' }] } }),
        'atualizarPrecoMercado',
      );
      const antes = await precosNoBanco(m.id);
      const casos: ReadonlyArray<readonly [unknown[], Record<string, string>]> = [
        [
          [
            { produtoId: p1.id, preco: '6.00' },
            { produtoId: p2.id, preco: '7.00' },
            { produtoId: 987654, preco: '1.00' },
          ],
          { 'input.precos[2].produtoId': 'Produto não encontrado' },
        ],
        [
          [
            { produtoId: p1.id, preco: '6.00' },
            { produtoId: p2.id, preco: '-0.01' },
            { produtoId: p3.id, preco: '1.00' },
          ],
          { 'input.precos[1].preco': 'Não pode ser negativo' },
        ],
        [
          [
            { produtoId: p2.id, preco: '6.00' },
            { produtoId: p3.id, preco: '1.00' },
            { produtoId: p2.id, preco: '2.00' },
          ],
          { 'input.precos[2].produtoId': 'Produto repetido no lote (já está em input.precos[0])' },
        ],
        [
          [
            { produtoId: 987654, preco: '1' },
            { produtoId: p3.id, preco: '1,5' },
            { produtoId: 876543, preco: '1' },
          ],
          { 'input.precos[1].preco': 'Use ponto como separador decimal (ex.: 12.50)' },
        ],
        [
          [
            { produtoId: 987654, preco: '1' },
            { produtoId: 876543, preco: '1' },
          ],
          {
            'input.precos[0].produtoId': 'Produto não encontrado',
            'input.precos[1].produtoId': 'Produto não encontrado',
          },
        ],
        [[{ produtoId: p1.id }], { 'input.precos[0].preco': 'Campo obrigatório' }],
      ];
      for (const [precos, campos] of casos) {
        const e = entradaInvalida(await pedir(gestora, PRECOS, { id: m.id, input: { precos } }));
        assert.deepEqual(e.fields, campos, JSON.stringify(precos));
        assert.deepEqual(await precosNoBanco(m.id), antes, 'nada muda');
      }
      const outroMercado = entradaInvalida(
        await pedir(admin, PRECOS, { id: 999999, input: { precos: [{ produtoId: p1.id, preco: 1 }] } }),
      );
      assert.equal(outroMercado.message, 'id: Mercado não encontrado');
    });

    test('todos os produtos do lote são conferidos numa só consulta', async () => {
      const m = await criarMercadoNoBanco(amb.banco, { adminId: gestora.conta.id });
      const produtos = await Promise.all(Array.from({ length: 30 }, () => criarProduto(amb.banco)));
      const precos = produtos.map((p, i) => ({ produtoId: p.id, preco: `${i}.99` }));
      const contar = async (lote: unknown[]) => {
        amb.consultas = 0;
        await pedir(gestora, PRECOS.replace('produto { id nome }', ''), { id: m.id, input: { precos: lote } });
        return amb.consultas;
      };
      const umaLinha = await contar(precos.slice(0, 1));
      const trintaLinhas = await contar(precos);
      assert.equal(trintaLinhas, umaLinha, 'o número de consultas não cresce com o lote');
      assert.equal((await precosNoBanco(m.id)).length, 30);
    });

    test('duas mutações na mesma requisição: a segunda lê o que a primeira gravou', async () => {
      const m = await criarMercadoNoBanco(amb.banco, { adminId: gestora.conta.id });
      const p = await criarProduto(amb.banco);
      const r = await pedir(
        gestora,
        `mutation($id: ID!, $a: PrecoMercadoInput!, $b: PrecoMercadoInput!) {
          a: atualizarPrecoMercado(id: $id, input: $a) { precos { preco } }
          b: atualizarPrecoMercado(id: $id, input: $b) { precos { preco } }
        }`,
        {
          id: m.id,
          a: { precos: [{ produtoId: p.id, preco: '1.00' }] },
          b: { precos: [{ produtoId: p.id, preco: '2.00' }] },
        },
      );
      assert.deepEqual(r.corpo.data, { a: { precos: [{ preco: '1.00' }] }, b: { precos: [{ preco: '2.00' }] } });
    });
  });

  describe('contas e perfis', () => {
    test('User.email: só a própria pessoa e o Administrador veem; os demais recebem null', async () => {
      const m = await criarMercadoNoBanco(amb.banco, { adminId: gestora.conta.id });
      const consulta = `{ mercado(id: ${m.id}) { admin { id name email } } }`;
      const email = async (p: Pessoa) =>
        dados<{ admin: { email: string | null } }>(await pedir(p, consulta), 'mercado').admin.email;
      assert.equal(await email(consumidor), null);
      assert.equal(await email(await pessoa(['AdminMercado'])), null);
      assert.equal(await email(gestora), gestora.conta.email);
      assert.equal(await email(admin), gestora.conta.email);
    });

    test('usuarios (Administrador): todas as contas com e-mail e perfis, e os mercados de cada uma', async () => {
      const m = await criarMercadoNoBanco(amb.banco, { adminId: gestora.conta.id, nome: 'Listado' });
      const lista = dados<Array<{ id: string; email: string; profiles: string[]; mercados: Array<{ id: string }> }>>(
        await pedir(admin, '{ usuarios { id email profiles mercados { id } } }'),
        'usuarios',
      );
      const g = lista.find((u) => u.id === String(gestora.conta.id));
      assert.equal(g?.email, gestora.conta.email);
      assert.deepEqual(g.profiles, ['AdminMercado']);
      assert.ok(g.mercados.some((x) => x.id === String(m.id)));
      assert.ok(lista.every((u) => typeof u.email === 'string'));
    });

    test('atribuirPerfis substitui os perfis; nomes desconhecidos, lista vazia e conta inexistente são BAD_USER_INPUT', async () => {
      const alvo = await pessoa(['Consumidor']);
      const mudar = (userId: unknown, perfis: unknown) =>
        pedir(
          admin,
          'mutation($u: ID!, $p: [String!]!) { atribuirPerfis(userId: $u, perfis: $p) { id profiles email } }',
          { u: userId, p: perfis },
        );
      const r = dados<{ profiles: string[]; email: string }>(
        await mudar(alvo.conta.id, ['Fornecedor', 'Consumidor', 'Fornecedor']),
        'atribuirPerfis',
      );
      assert.deepEqual(r.profiles, ['Fornecedor', 'Consumidor']);
      assert.deepEqual(await perfisDe(amb.banco, alvo.conta.id), ['Fornecedor', 'Consumidor']);
      // The session reloads the profiles on every request.
      const me = dados<{ profiles: string[] }>(await pedir(alvo, '{ me { profiles } }'), 'me');
      assert.deepEqual(me.profiles, ['Fornecedor', 'Consumidor']);

      assert.deepEqual(entradaInvalida(await mudar(alvo.conta.id, ['Gerente'])).fields, {
        perfis: 'Valor inválido: use Administrador, AdminMercado, Fornecedor, Consumidor',
      });
      assert.deepEqual(entradaInvalida(await mudar(alvo.conta.id, [])).fields, {
        perfis: 'Informe pelo menos um perfil',
      });
      assert.deepEqual(entradaInvalida(await mudar(999999, ['Consumidor'])).fields, {
        userId: 'Usuário não encontrado',
      });
      assert.deepEqual(await perfisDe(amb.banco, alvo.conta.id), ['Fornecedor', 'Consumidor']);
    });

    test('ninguém retira o próprio Administrador; outro Administrador pode; o último fica', async () => {
      const outro = await pessoa(['Administrador', 'Consumidor']);
      const mudar = (quem: Pessoa, userId: number, perfis: string[]) =>
        pedir(quem, 'mutation($u: ID!, $p: [String!]!) { atribuirPerfis(userId: $u, perfis: $p) { profiles } }', {
          u: userId,
          p: perfis,
        });
      const proprio = await mudar(outro, outro.conta.id, ['Consumidor']);
      assert.equal(proprio.corpo.errors?.[0]?.extensions?.code, 'FORBIDDEN');
      assert.equal(proprio.corpo.errors[0]?.message, 'Você não pode retirar o seu próprio perfil Administrador');
      assert.deepEqual(await perfisDe(amb.banco, outro.conta.id), ['Administrador', 'Consumidor']);
      // Keeping Administrador while changing the rest is fine.
      assert.deepEqual(
        dados<{ profiles: string[] }>(
          await mudar(outro, outro.conta.id, ['Administrador', 'Fornecedor']),
          'atribuirPerfis',
        ).profiles,
        ['Administrador', 'Fornecedor'],
      );
      // Another Administrador may remove it.
      assert.deepEqual(
        dados<{ profiles: string[] }>(await mudar(admin, outro.conta.id, ['Consumidor']), 'atribuirPerfis').profiles,
        ['Consumidor'],
      );
      // And from then on that person is no Administrador any more.
      const semPerfil = await mudar(outro, admin.conta.id, ['Consumidor']);
      assert.equal(semPerfil.corpo.errors?.[0]?.message, 'Acesso negado: requer o perfil Administrador');
    });

    test('dois Administradores retirando um ao outro ao mesmo tempo: um consegue, o outro é recusado, e sobra um', async () => {
      const a = await pessoa(['Administrador']);
      const b = await pessoa(['Administrador']);
      const retirar = (quem: Pessoa, userId: number) =>
        pedir(quem, 'mutation($u: ID!) { atribuirPerfis(userId: $u, perfis: ["Consumidor"]) { id } }', { u: userId });
      const [ra, rb] = await Promise.all([retirar(a, b.conta.id), retirar(b, a.conta.id)]);
      const recusas = [ra, rb].filter((r) => r.corpo.errors !== undefined);
      assert.equal(recusas.length, 1, JSON.stringify([ra.corpo, rb.corpo]));
      assert.equal(recusas[0]?.corpo.errors?.[0]?.message, 'Acesso negado: requer o perfil Administrador');
      const restantes = [...(await perfisDe(amb.banco, a.conta.id)), ...(await perfisDe(amb.banco, b.conta.id))].filter(
        (p) => p === 'Administrador',
      );
      assert.equal(restantes.length, 1);
    });
  });

  describe('HTTP', () => {
    test('GET /graphql executa consultas; uma mutação por GET recebe 405 e nada muda', async () => {
      const m = await criarMercadoNoBanco(amb.banco, { adminId: admin.conta.id, nome: 'Via GET' });
      const consulta = await admin.nav.getJson(
        `${amb.urlMercados}/graphql?query=${encodeURIComponent(`{ mercado(id: ${m.id}) { nome } }`)}`,
      );
      assert.equal(consulta.status, 200);
      assert.deepEqual(consulta.json(), { data: { mercado: { nome: 'Via GET' } } });
      assert.equal(consulta.headers.get('cache-control'), 'no-store');
      const mutacao = await admin.nav.getJson(
        `${amb.urlMercados}/graphql?query=${encodeURIComponent(`mutation { desativarMercado(id: ${m.id}) { id } }`)}`,
      );
      assert.equal(mutacao.status, 405);
      assert.equal(mutacao.headers.get('allow'), 'POST');
      assert.deepEqual(mutacao.json(), {
        errors: [{ message: 'Mutações só podem ser enviadas por POST', extensions: { code: 'BAD_REQUEST' } }],
      });
      assert.equal(
        (await amb.banco.selectFrom('mercado').select('ativo').where('id', '=', m.id).executeTakeFirstOrThrow()).ativo,
        true,
      );
    });

    test('de outra origem: POST recusado com 403, e nenhuma resposta libera CORS', async () => {
      const origem = { origin: 'https://outro.example' };
      const post = await admin.nav.postJson(`${amb.urlMercados}/graphql`, { query: '{ me { id } }' }, origem);
      assert.equal(post.status, 403);
      const get = await admin.nav.get(`${amb.urlMercados}/graphql?query=${encodeURIComponent('{ me { id } }')}`, {
        headers: { ...origem, accept: 'application/json' },
      });
      assert.equal(get.headers.get('access-control-allow-origin'), null);
      assert.equal(get.headers.get('access-control-allow-credentials'), null);
    });

    test('consultas profundas ou custosas demais são recusadas antes de rodar, com mensagem clara', async () => {
      const profunda = await pedir(
        consumidor,
        '{ mercados { admin { mercados { admin { mercados { admin { mercados { admin { name } } } } } } } } }',
      );
      const codigos = profunda.corpo.errors?.map((e) => e.extensions?.code);
      assert.ok(codigos?.includes('CONSULTA_PROFUNDA_DEMAIS'), JSON.stringify(profunda.corpo));
      assert.equal(profunda.corpo.data, undefined, 'nada executado');
      assert.match(profunda.corpo.errors?.[0]?.message ?? '', /^Consulta profunda demais: 9 níveis, o máximo é 8\./);
      // Each copy costs 6 (me and its five fields), whatever the data: 8,400 copies cost 50,400.
      const copias = Array.from({ length: 8_400 }, (_, i) => `m${i}: me { id name email avatar profiles }`).join(' ');
      const custosa = await pedir(consumidor, `{ ${copias} }`);
      assert.deepEqual(
        custosa.corpo.errors?.map((e) => e.extensions?.code),
        ['CONSULTA_CUSTOSA_DEMAIS'],
      );
      assert.equal(
        custosa.corpo.errors?.[0]?.message,
        'Consulta custosa demais: custo estimado 50400, o máximo é 50000. Peça menos campos ou divida a consulta em partes.',
      );
      assert.equal(custosa.corpo.data, undefined, 'nada executado');
    });

    test('introspecção ligada fora de produção', async () => {
      const r = await pedir(consumidor, '{ __schema { queryType { name } } }');
      assert.deepEqual(r.corpo, { data: { __schema: { queryType: { name: 'Query' } } } });
    });

    test('um erro interno não vaza: mensagem genérica com o código da requisição, e o detalhe fica no log', async () => {
      const m = await criarMercadoNoBanco(amb.banco, { adminId: admin.conta.id });
      await sql`alter table precomercado rename to precomercado_fora`.execute(amb.banco);
      try {
        const r = await pedir(consumidor, `{ mercado(id: ${m.id}) { nome precos { id } } }`);
        assert.equal(r.status, 200);
        const erro = r.corpo.errors?.[0];
        assert.match(erro?.message ?? '', /^Erro interno\. Informe o código [0-9a-f-]{36} à administração\.$/);
        assert.deepEqual(erro?.extensions, { code: 'INTERNAL_SERVER_ERROR' });
        assert.doesNotMatch(JSON.stringify(r.corpo), /precomercado|select|sqlite|relation|stack/i);
      } finally {
        await sql`alter table precomercado_fora rename to precomercado`.execute(amb.banco);
      }
    });
  });

  // Values of the wrong GraphQL type (a comma decimal, an unknown enum value) are refused before
  // anything runs, as the GraphQL spec has it; every rule of the values comes after ownership.
  test('a AdminMercado que mexe no mercado de outra pessoa recebe FORBIDDEN, mesmo com preço inválido ou produto inexistente', async () => {
    const alheio = await criarMercadoNoBanco(amb.banco, { adminId: admin.conta.id, nome: 'Da Ana' });
    const entradasRuins: Array<[string, Record<string, unknown>]> = [
      [ATUALIZAR, { id: alheio.id, input: { nome: '', tipo: 'lote', taxaAdministrativa: '150' } }],
      [ATUALIZAR, { id: alheio.id, input: { nome: 'X', tipo: 'cesta' } }],
      [PRECOS, { id: alheio.id, input: { precos: [{ produtoId: 999_999, preco: '-1' }] } }],
      [
        PRECOS,
        {
          id: alheio.id,
          input: {
            precos: [
              { produtoId: 1, preco: '1.50' },
              { produtoId: 1, preco: '2' },
            ],
          },
        },
      ],
      [PRECOS, { id: alheio.id, input: { precos: [{ produtoId: 999_999, preco: '2' }] } }],
    ];
    for (const [mutacao, variaveis] of entradasRuins) {
      const r = await pedir(gestora, mutacao, variaveis);
      assert.equal(r.corpo.errors?.[0]?.extensions?.code, 'FORBIDDEN', JSON.stringify(variaveis));
      assert.equal(r.corpo.errors.length, 1);
    }
    // Their own market with the same bad input: now the input is what is wrong.
    const proprio = await criarMercadoNoBanco(amb.banco, { adminId: gestora.conta.id, nome: 'Da Gil, para conferir' });
    const r = await pedir(gestora, ATUALIZAR, { id: proprio.id, input: { nome: '', tipo: 'lote' } });
    assert.equal(r.corpo.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
  });
});
