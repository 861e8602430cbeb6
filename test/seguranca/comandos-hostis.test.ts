import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { criarCesta, criarPonto, criarUsuario } from '../helpers/fabricas.ts';
import type { Navegador } from '../helpers/navegador.ts';
import { navegadorComSessao } from '../helpers/sessoes.ts';
import { iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';

/**
 * Hostile bodies against the writes read as commands (subscriptions, money, confirmation, offer
 * removal, notices): someone else's id is refused as such before anything else is judged, and a
 * bad field is a 400 naming it, never a 5xx and never a write.
 */
describe('corpos hostis nas escritas lidas como comandos', () => {
  let amb: AmbienteDeTeste;
  let admin: Navegador;
  let consumidora: Navegador;
  let fornecedora: Navegador;
  let outra = 0;
  let cestaId = 0;
  let ponto = 0;

  before(async () => {
    amb = await iniciarAmbiente();
    cestaId = (await criarCesta(amb.banco)).id;
    ponto = (await criarPonto(amb.banco)).id;
    admin = navegadorComSessao(amb, (await criarUsuario(amb.banco, { perfil: ['admin'] })).email);
    consumidora = navegadorComSessao(amb, (await criarUsuario(amb.banco)).email);
    fornecedora = navegadorComSessao(amb, (await criarUsuario(amb.banco, { perfil: ['fornecedor'] })).email);
    outra = (await criarUsuario(amb.banco, { nome: 'Outra Pessoa' })).id;
  });
  after(() => amb.fechar());

  const detalhes = (r: { json<T>(): T }) => r.json<{ details?: Record<string, string> }>().details ?? {};

  test('o dono vem antes de qualquer validação: o id de outra pessoa é 403, com o resto do corpo todo errado', async () => {
    // Each route is posted by someone who may use it (a consumer subscribes, a supplier edits an offer).
    for (const [quem, caminho, corpo] of [
      [consumidora, '/assinaturas', { usuarioid: outra, cestaId: 'x', quantidade: -1, inicio: [], ativa: 'talvez' }],
      [fornecedora, '/ofertaapagarproduto', { usuarioid: String(outra), ofertaProdutoId: 'x', cicloid: {} }],
    ] as const) {
      const r = await quem.postJson(`${amb.url}${caminho}`, corpo);
      assert.equal(r.status, 403, `${caminho}: ${r.texto.slice(0, 200)}`);
      assert.doesNotMatch(r.texto, /Outra Pessoa|Deve ser/);
    }
    assert.equal(await amb.banco.selectFrom('assinatura').select('id').executeTakeFirst(), undefined);
  });

  test('tipos errados, números fora da faixa, linhas em branco: 400 com cada campo', async () => {
    const casos: ReadonlyArray<readonly [Navegador, string, unknown, Record<string, string>]> = [
      [
        consumidora,
        '/assinaturas',
        {
          cestaId: true,
          quantidade: 1001,
          pontoEntregaId: ponto,
          frequencia: 3,
          inicio: '01/02/2026',
          fim: '2026-02-30',
          ativa: 'talvez',
        },
        {
          cestaId: 'Deve ser um número inteiro',
          quantidade: 'Deve ser no máximo 1000',
          frequencia: 'Deve ser um texto',
          inicio: 'Data inválida: use AAAA-MM-DD',
          fim: 'Data inválida: use AAAA-MM-DD',
          ativa: 'Deve ser verdadeiro ou falso',
        },
      ],
      [
        admin,
        '/assinaturas/limite',
        { cestaId, limiteAssinaturas: 100_001 },
        { limiteAssinaturas: 'Deve ser no máximo 100000' },
      ],
      [
        admin,
        '/extratos/conciliar',
        { linhas: [{}, 'linha', { id: 'a', usuarioid: -2 }] },
        {
          'linhas.0.id': 'Campo obrigatório',
          'linhas.1': 'Deve ser um objeto',
          'linhas.2.id': 'Deve ser um número inteiro',
          'linhas.2.usuarioid': 'Deve ser no mínimo 1',
        },
      ],
      [admin, '/extratos/1/descartar', { motivo: '\u0000' }, { motivo: 'Contém caracteres de controle' }],
      [
        admin,
        '/movimentacao',
        { usuarioid: outra, tipoMovimentacaoId: 1, valor: '1,50', descricao: 'x'.repeat(501), sentido: 'os dois' },
        {
          valor: 'Use ponto como separador decimal (ex.: 12.50)',
          descricao: 'Deve ter no máximo 500 caracteres',
          sentido: 'Valor inválido: use credito, debito',
        },
      ],
      [
        consumidora,
        '/pedidoconsumidoresconfirmacao',
        { pedidoId: 1e12 },
        { pedidoId: 'Deve ser no máximo 2147483647' },
      ],
      [
        fornecedora,
        '/ofertaapagarproduto',
        { cicloid: 1 },
        { ofertaProdutoId: 'Informe ofertaProdutoId, ou cicloid e produtoid' },
      ],
      [
        consumidora,
        '/profile/avisos',
        { avisos: ['oferta_aberta', 7] },
        {
          avisos:
            'Valor inválido: use oferta_aberta, oferta_lembrete, pedido_aberto, pedido_lembrete, entregas, retirada, assinatura_ciclo',
        },
      ],
      [
        consumidora,
        '/profile/avisos',
        {},
        { avisos: 'Campo obrigatório: a lista dos avisos que quer receber (pode ser vazia)' },
      ],
      [
        admin,
        '/ciclo/1/mensagem',
        { assunto: 'a'.repeat(121), mercadoId: 0 },
        {
          assunto: 'Deve ter no máximo 120 caracteres',
          texto: 'Campo obrigatório',
          mercadoId: 'Deve ser no mínimo 1',
        },
      ],
    ];
    for (const [nav, caminho, corpo, esperado] of casos) {
      const r = await nav.postJson(`${amb.url}${caminho}`, corpo);
      assert.equal(r.status, 400, `${caminho}: ${r.texto.slice(0, 300)}`);
      assert.deepEqual(detalhes(r), esperado, caminho);
    }
    assert.equal(await amb.banco.selectFrom('movimentacao').select('id').executeTakeFirst(), undefined);
  });

  test('a assinatura do endereço é conferida antes do corpo: a de ninguém é 404, com o corpo todo errado', async () => {
    const r = await consumidora.postJson(`${amb.url}/assinaturas/999999/pausas`, { inicio: 3, fim: [] });
    assert.equal(r.status, 404, r.texto.slice(0, 200));
  });
});
