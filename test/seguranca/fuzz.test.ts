/**
 * Hostile input against every Cestas route: property-based (fast-check), at least 5,000 requests
 * per run. Every answer must be a 4xx with the envelope (or a success for input that happens to be
 * valid), never a 5xx; a refused request must write nothing; what was stored comes back escaped.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { DATAS_PADRAO, criarCesta, criarCiclo, criarPonto, criarProduto, criarUsuario } from '../helpers/fabricas.ts';
import { semente } from '../helpers/semente.ts';
import { navegadorComSessao } from '../helpers/sessoes.ts';
import { RelogioDeTeste, iniciarAmbiente, type AmbienteDeTeste } from '../helpers/servidor.ts';
import type { Navegador } from '../helpers/navegador.ts';

const TOTAL = Number(process.env.FUZZ_REQUISICOES ?? 5200);
export const REQUISICOES_FEITAS = { n: 0 };

const HOSTIS = [
  "' OR 1=1 --",
  '"; DROP TABLE usuario; --',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(2)>',
  'javascript:alert(3)',
  '__proto__',
  'constructor',
  'prototype',
  '1,50',
  '-1',
  'NaN',
  'Infinity',
  '1e309',
  '0x10',
  '١٢٣',
  '\u0000',
  '\u202e',
  '𝓐🏳️‍🌈',
  'ç'.repeat(3000),
  '9'.repeat(400),
  ' ',
  '',
  'null',
  'true',
  '[]',
  '{}',
  '%00',
  '../../etc/passwd',
  '${7*7}',
  '{{7*7}}',
];

const valor: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  folha: fc.oneof(
    fc.constantFrom(...HOSTIS),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'grapheme', maxLength: 20 }),
    fc.integer(),
    fc.double(),
    fc.constantFrom(Number.MAX_SAFE_INTEGER, -1, 0, 1e21, -0),
    fc.boolean(),
    fc.constant(null),
  ),
  no: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    tie('folha'),
    fc.array(tie('no'), { maxLength: 4 }),
    fc.dictionary(
      fc.constantFrom('nome', 'produtos', 'quantidade', 'valor', 'id', 'cicloid', '__proto__', 'constructor', 'x'),
      tie('no'),
      { maxKeys: 4 },
    ),
  ),
})).no;

const CAMPOS = [
  'nome',
  'email',
  'perfil',
  'valorReferencia',
  'unidade',
  'categoriaid',
  'ativo',
  'cicloid',
  'produtos',
  'pontoEntregaId',
  'usuarioid',
  'pedidoId',
  'quantidadeCestas',
  'cicloCestaId',
  'ofertaProdutoId',
  'produtoid',
  'dataOfertaInicio',
  'dataPedidoFim',
  'cicloCestas',
  'cicloProdutos',
  'ciclos',
  'tipoMovimentacaoId',
  'descricao',
  'celular',
];

const corpo = fc.dictionary(fc.constantFrom(...CAMPOS), valor, { maxKeys: 8 });

/** Deep nesting, duplicate keys and prototype keys, written as raw JSON text. */
const jsonBruto = fc.oneof(
  corpo.map((c) => JSON.stringify(c)),
  fc.integer({ min: 1, max: 3000 }).map((n) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`),
  fc.constant('{"nome":"a","nome":"b","__proto__":{"admin":true}}'),
  fc.constant('{"constructor":{"prototype":{"x":1}},"nome":"c"}'),
  fc.constant('[1,2,'),
  fc.constant('{"nome": "' + 'x'.repeat(1024 * 1024 + 10) + '"}'),
);

function formulario(c: Record<string, unknown>): string {
  const p = new URLSearchParams();
  const plano = (prefixo: string, v: unknown, profundidade: number): void => {
    if (profundidade > 6) return;
    if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) plano(`${prefixo}[${k}]`, x, profundidade + 1);
    } else p.append(prefixo, String(v));
  };
  for (const [k, v] of Object.entries(c)) plano(k, v, 0);
  p.append('__proto__[admin]', 'true');
  return p.toString();
}

describe('entrada hostil em todas as rotas da face Cestas', () => {
  const relogio = new RelogioDeTeste('2026-03-07T15:00:00Z');
  let amb: AmbienteDeTeste;
  let admin: Navegador;
  let consumidor: Navegador;
  let csrf = '';
  let rotas: string[] = [];

  before(async () => {
    amb = await iniciarAmbiente({ relogio });
    const cesta = await criarCesta(amb.banco);
    await criarCiclo(amb.banco, { datas: DATAS_PADRAO, cestas: [{ cestaId: cesta.id, quantidadeCestas: 10 }] });
    await criarProduto(amb.banco);
    await criarPonto(amb.banco);
    admin = navegadorComSessao(amb, (await criarUsuario(amb.banco, { perfil: ['admin'] })).email);
    consumidor = navegadorComSessao(
      amb,
      (await criarUsuario(amb.banco, { perfil: ['consumidor', 'fornecedor'] })).email,
    );
    csrf = /name="_csrf" value="([^"]+)"/.exec((await admin.get(`${amb.url}/profile`)).texto)?.[1] ?? '';
    rotas = (amb.servicos.cestas?.rotasRegistradas ?? []).filter(
      (r) => !r.includes('/static/') && !r.endsWith('/logout'),
    );
  });
  after(() => amb.fechar());

  async function escritas(): Promise<string> {
    const contagens = [];
    for (const t of [
      'auditoria',
      'usuario',
      'categoria',
      'cesta',
      'produto',
      'pontoentrega',
      'ciclo',
      'oferta',
      'ofertaproduto',
      'composicaoproduto',
      'pedido',
      'pedidoproduto',
      'movimentacao',
      'sessaoencerrada',
    ] as const) {
      contagens.push(
        (
          await amb.banco
            .selectFrom(t)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    }
    return contagens.join(',');
  }

  test(`pelo menos ${TOTAL} requisições hostis: nenhum 5xx, recusas com o envelope, nada gravado quando recusado`, async () => {
    const caminho = fc.tuple(
      fc.constantFrom(...rotas),
      fc.oneof(fc.constantFrom('1', '0', '-1', '99999999999', 'abc', '1.5', '%27', '1e3'), fc.nat(5).map(String)),
    );
    const requisicao = fc.record({
      rota: caminho,
      formato: fc.constantFrom('json', 'jsonBruto', 'form', 'query'),
      quem: fc.constantFrom('admin', 'consumidor'),
      corpo,
      bruto: jsonBruto,
    });
    let grandes = 0;
    await fc.assert(
      fc.asyncProperty(requisicao, async (r) => {
        const [rota, id] = r.rota;
        const [metodo = 'GET', modelo = '/'] = rota.split(' ');
        const url = `${amb.url}${modelo.replace(':id', encodeURIComponent(id))}`;
        const nav = r.quem === 'admin' ? admin : consumidor;
        // Megabyte bodies are slow to send; a few per run prove the 413 path, the rest go small.
        const bruto =
          r.formato === 'jsonBruto' && r.bruto.length > 1024 * 1024 && ++grandes > 5 ? '{"nome":[]}' : r.bruto;
        const antes = metodo === 'POST' ? await escritas() : '';
        REQUISICOES_FEITAS.n++;
        const resposta =
          metodo === 'GET'
            ? await nav.getJson(
                `${url}?${new URLSearchParams(Object.entries(r.corpo).map(([k, v]) => [k, typeof v === 'string' ? v : (JSON.stringify(v) ?? '')])).toString()}`,
              )
            : r.formato === 'form'
              ? await nav.post(
                  url,
                  {
                    bruto: `${formulario(r.corpo)}&_csrf=${encodeURIComponent(csrf)}`,
                    tipo: 'application/x-www-form-urlencoded',
                  },
                  { headers: { accept: 'application/json' }, seguir: false },
                )
              : r.formato === 'jsonBruto'
                ? await nav.post(
                    url,
                    { bruto, tipo: 'application/json' },
                    { headers: { accept: 'application/json' }, seguir: false },
                  )
                : await nav.postJson(url, r.corpo);
        assert.ok(
          resposta.status < 500,
          `${rota} (${r.formato}) deu ${resposta.status}: ${resposta.texto.slice(0, 300)}`,
        );
        const tipo = resposta.headers.get('content-type') ?? '';
        if (resposta.status >= 400 && tipo.includes('json')) {
          const e = resposta.json<{ success: unknown; error: unknown }>();
          assert.equal(e.success, false, `${rota}: ${resposta.texto.slice(0, 200)}`);
          assert.equal(typeof e.error, 'string');
        }
        if (metodo === 'POST' && resposta.status >= 400)
          assert.equal(await escritas(), antes, `${rota} recusado com ${resposta.status} mas gravou algo`);
      }),
      { numRuns: TOTAL, seed: semente() },
    );
    assert.ok(REQUISICOES_FEITAS.n >= TOTAL, `${REQUISICOES_FEITAS.n} requisições feitas`);
    assert.equal(
      Object.prototype.hasOwnProperty.call(Object.prototype, 'admin'),
      false,
      'nenhuma poluição de protótipo',
    );
  });

  test('o que ficou gravado volta escapado em todas as páginas', async () => {
    for (const pagina of [
      '/categoria-index',
      '/cesta-index',
      '/produto-index',
      '/pontoentrega-index',
      '/usuario-index',
      '/ciclo-index',
      '/auditoria',
      '/oferta-index',
      '/movimentacaotodos',
      '/',
    ]) {
      const r = await admin.get(`${amb.url}${pagina}?porPagina=200`);
      assert.equal(r.status, 200, pagina);
      assert.ok(!r.texto.includes('<script>alert(1)'), `${pagina} com script sem escapar`);
      assert.ok(!r.texto.includes('<img src=x'), `${pagina} com img sem escapar`);
    }
  });
});
