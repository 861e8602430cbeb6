import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppTipada } from '../../http/app-tipada.ts';
import { Type, type Static } from '@sinclair/typebox';
import type { Acao, Ator } from '../../domain/acesso.ts';
import { NaoEncontrado } from '../../domain/erros.ts';
import { cicloAtual, ciclosParaEscolher } from '../../domain/relatorios/ciclos.ts';
import { relatorioDosConsumidores } from '../../domain/relatorios/consumidores.ts';
import { documentoDeEntrega } from '../../domain/relatorios/documento-de-entrega.ts';
import { relatorioDeSobra, relatorioDosFornecedores } from '../../domain/relatorios/fornecedores.ts';
import { mercadosDosCiclos } from '../../domain/relatorios/mercados.ts';
import type { Relatorio } from '../../domain/relatorios/modelo.ts';
import { relatorioDeMovimentacoes } from '../../domain/relatorios/movimentacoes.ts';
import { relatorioDeProdutos } from '../../domain/relatorios/produtos.ts';
import { EscolherCiclos } from '../../comandos/relatorios.ts';
import { nomesDoCorpo } from '../../comandos/leitor/leitura.ts';
import { relatorioEmJson } from '../apresentadores/relatorios.ts';
import { TIPO_XLSX } from '../../planilhas/xlsx.ts';
import { FORMATOS_DE_ARQUIVO, enviarRelatorio, nomeDeArquivo } from '../../http/arquivos.ts';
import { Consulta, NaConsulta, dataDaConsulta } from '../../http/consultas.ts';
import { Arquivo } from '../../http/esquemas.ts';
import { atorDe } from '../autenticacao.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { pdfDeEntregaAParte } from '../pdf/a-parte.ts';
import { JsonPronto, querJson, responder } from '../resposta.ts';
import { lembrarCiclos } from '../sessao.ts';
import { tempo } from '../tempo.ts';
import type { Redesenho } from '../tipos-fastify.ts';
import {
  escolhaDeCiclos,
  paginaRelatorios,
  relatoriosDoAtor,
  tabelaRelatorio,
  type ExtrasDoRelatorio,
} from '../views/relatorio.ts';
import { ParamsId, download, leitura, relatorioOuArquivo } from '../esquemas/comum.ts';
import { EscolhaDeCiclos, RelatorioJson, Relatorios } from '../esquemas/painel-e-relatorios.ts';

const mercadoId = NaConsulta.id('Só o que foi comprado neste mercado dos ciclos (o relatório inteiro, sem ele)');

/** `?formato=`: the report as a file instead of the page: a spreadsheet for people, or the contract's CSV. */
const formato = NaConsulta.umDe(
  FORMATOS_DE_ARQUIVO,
  'O relatório como arquivo: a planilha (Excel, LibreOffice) ou o CSV',
);

/** ?mercadoId= narrows a report to one market of its cycles; the file and PDF links keep it. */
const ConsultaDoMercado = Consulta({ mercadoId });

/** The surplus report's: only the file. */
const ConsultaDoArquivo = Consulta({ formato });

/** The cycles a file exports: `ciclos` ("1,2" or repeated), or one `cicloid` (`cicloId`); without them, those chosen last. */
const ConsultaDoDownload = Consulta({
  ciclos: Type.Optional(
    Type.Union(
      [
        Type.String({ pattern: '^\\s*\\d{1,10}\\s*(,\\s*\\d{1,10}\\s*){0,19}$' }),
        Type.Array(Type.String({ pattern: '^\\s*\\d{1,10}\\s*$' }), { minItems: 1, maxItems: 20 }),
      ],
      { description: 'Os ciclos, de 1 a 20: "1,2" ou repetido (ciclos=1&ciclos=2)' },
    ),
  ),
  cicloid: NaConsulta.id('Um ciclo só'),
  cicloId: NaConsulta.id('Um ciclo só (o mesmo que cicloid)'),
  mercadoId,
  formato,
});

/** A report of one cycle, narrowed to a market or not, as the page or as a file. */
const ConsultaDoCiclo = Consulta({ mercadoId, formato });

/** The filters of /movimentacaotodos. */
const ConsultaDasMovimentacoes = Consulta({
  usuarioid: NaConsulta.id('Só as desta pessoa (quem vê todos)'),
  cicloid: NaConsulta.id('Só as deste ciclo'),
  tipoMovimentacaoId: NaConsulta.id('Só as deste tipo'),
  de: NaConsulta.data('A partir deste dia'),
  ate: NaConsulta.data('Até este dia'),
  formato,
});

/** A link's query: the parameters given, in order, left out when absent. */
function consulta(base: string, parametros: Readonly<Record<string, string | number | null | undefined>>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(parametros)) if (v !== null && v !== undefined) q.append(k, String(v));
  const texto = q.toString();
  return texto === '' ? base : `${base}${base.includes('?') ? '&' : '?'}${texto}`;
}

/** A report page's two downloads: the spreadsheet (its main one) and the CSV, from one address. */
const downloads = (base: string, parametros: Readonly<Record<string, string | number | null | undefined>> = {}) => ({
  planilha: consulta(base, { ...parametros, formato: 'xlsx' }),
  csv: consulta(base, { ...parametros, formato: 'csv' }),
});

/** Reports: the spec's "Reports and exports" table, and /movimentacaotodos. */
export function rotasRelatorios(app: AppTipada, ctx: ContextoCestas): void {
  const mostrar = (req: FastifyRequest, reply: FastifyReply, r: Relatorio, extras: ExtrasDoRelatorio = {}) =>
    responder(req, reply, {
      titulo: r.titulo,
      // Written only for a JSON client: a browser gets the page.
      dados: querJson(req) ? new JsonPronto(relatorioEmJson(r)) : null,
      corpo: () => tabelaRelatorio(r, extras),
    });
  /** The cycles' names, for a file's name. */
  const nomesDosCiclos = async (ids: readonly number[]) =>
    (
      await ctx.banco
        .selectFrom('ciclo')
        .select('nome')
        .where('id', 'in', [...ids])
        .orderBy('id')
        .execute()
    ).map((c) => c.nome);
  /** The markets of the cycles a choice page lists. */
  const mercadosDaEscolha = (ciclos: ReadonlyArray<{ id: number }>) =>
    mercadosDosCiclos(
      ctx.banco,
      ciclos.map((c) => c.id),
    );

  app.get(
    '/relatorios',
    { config: { acesso: 'painel' }, schema: { response: leitura(Relatorios) } },
    async (req, reply) => {
      const r = relatoriosDoAtor(atorDe(req), await ciclosParaEscolher(ctx.banco, tempo(ctx).hoje));
      return responder(req, reply, { titulo: 'Relatórios', dados: r, corpo: () => paginaRelatorios(r) });
    },
  );

  app.get(
    '/pedidosfornecedoressobra/:id',
    {
      config: { acesso: 'relatoriosFornecedores' },
      schema: { params: ParamsId, querystring: ConsultaDoArquivo, response: relatorioOuArquivo(RelatorioJson) },
    },
    async (req, reply) => {
      const { id } = req.params;
      const r = await relatorioDeSobra(ctx.banco, atorDe(req), id, tempo(ctx).hoje);
      if (req.query.formato !== undefined)
        return enviarRelatorio(reply, r, req.query.formato, nomeDeArquivo('sobra', await nomesDosCiclos([id])));
      return mostrar(req, reply, r, { downloads: downloads(`/pedidosfornecedoressobra/${id}`) });
    },
  );

  app.get(
    '/pedidosfornecedorestodos/:id',
    {
      config: { acesso: 'relatoriosFornecedores' },
      schema: { params: ParamsId, querystring: ConsultaDoCiclo, response: relatorioOuArquivo(RelatorioJson) },
    },
    async (req, reply) => {
      const { id } = req.params;
      const mercadoId = req.query.mercadoId ?? null;
      const r = await relatorioDosFornecedores(ctx.banco, atorDe(req), [id], tempo(ctx).hoje, mercadoId);
      if (req.query.formato !== undefined)
        return enviarRelatorio(
          reply,
          r,
          req.query.formato,
          nomeDeArquivo('pedidos-fornecedores', await nomesDosCiclos([id])),
        );
      return mostrar(req, reply, r, {
        downloads: downloads('/downloadpedidosfornecedoresciclos', { cicloId: id, mercadoId }),
        pdf: consulta(`/entregaCicloPDF/${id}`, { mercadoId }),
        filtro: { acao: `/pedidosfornecedorestodos/${id}`, metodo: 'get', csrf: null, ciclos: [], mercadoId },
      });
    },
  );

  /**
   * GET chooses cycles (or, with `?formato=`, downloads the report of the cycles in its query); POST
   * shows the report of the chosen ones ({ciclos:[…]}, ciclos=1&ciclos=2, or {cicloid}).
   * `doContrato`: the contract's own download route of the report, which its page links to and which
   * exports the cycles chosen here last (the suppliers' CSV).
   */
  function porCiclos(
    caminho: string,
    acesso: Acao,
    titulo: string,
    arquivo: string,
    montar: (ator: Ator, ciclos: number[], mercadoId: number | null) => Promise<Relatorio>,
    doContrato?: string,
  ) {
    app.get(
      caminho,
      {
        config: { acesso },
        schema: { querystring: ConsultaDoDownload, response: relatorioOuArquivo(EscolhaDeCiclos) },
      },
      async (req, reply) => {
        if (req.query.formato !== undefined) {
          const ids = await ciclosDoDownload(req, req.query);
          const r = await montar(atorDe(req), ids, req.query.mercadoId ?? null);
          return enviarRelatorio(reply, r, req.query.formato, nomeDeArquivo(arquivo, await nomesDosCiclos(ids)));
        }
        const ciclos = await ciclosParaEscolher(ctx.banco, tempo(ctx).hoje);
        const mercados = await mercadosDaEscolha(ciclos);
        return responder(req, reply, {
          titulo,
          dados: { ciclos },
          corpo: () => escolhaDeCiclos(caminho, ciclos, mercados, req.sessao?.csrf ?? null, null),
        });
      },
    );
    // A bad choice comes back as the choice page, with what was refused.
    const redesenhar: Redesenho = async (req, reply, recusa) => {
      const ciclos = await ciclosParaEscolher(ctx.banco, tempo(ctx).hoje);
      const mercados = await mercadosDaEscolha(ciclos);
      const porCampo = Object.values(recusa.detalhes).filter((m) => typeof m === 'string');
      return responder(req, reply, {
        titulo,
        status: recusa.status,
        dados: { ciclos },
        corpo: () =>
          escolhaDeCiclos(
            caminho,
            ciclos,
            mercados,
            req.sessao?.csrf ?? null,
            porCampo.length > 0 ? porCampo.join(' ') : recusa.mensagem,
          ),
      });
    };
    // A report is read, not written: the POST answers 200 with it (no redirect).
    app.post(
      caminho,
      { config: { acesso, redesenhar }, schema: { body: EscolherCiclos.corpo, response: leitura(RelatorioJson) } },
      async (req, reply) => {
        const { ciclos, mercadoId } = req.body;
        const ids = [...ciclos];
        const relatorio = await montar(atorDe(req), ids, mercadoId);
        // The report page offers its cycles' markets, posting the same cycles again.
        const filtro = {
          acao: caminho,
          metodo: 'post' as const,
          csrf: req.sessao?.csrf ?? null,
          ciclos: ids,
          mercadoId,
        };
        // The spec's bare GET of the CSV exports the cycles chosen here last.
        if (doContrato !== undefined && req.sessao !== null)
          lembrarCiclos(reply, ctx.cofreSessao, req.sessao, ids, ctx.relogio.agora().getTime(), {
            seguro: ctx.cookiesSeguros,
          });
        return mostrar(req, reply, relatorio, {
          downloads: downloads(doContrato ?? caminho, { ciclos: ids.join(','), mercadoId }),
          filtro,
        });
      },
    );
  }

  porCiclos(
    '/pedidosfornecedoresciclos',
    'relatoriosFornecedores',
    'Pedidos aos fornecedores',
    'pedidos-fornecedores',
    (ator, ids, mercadoId) => relatorioDosFornecedores(ctx.banco, ator, ids, tempo(ctx).hoje, mercadoId),
    '/downloadpedidosfornecedoresciclos',
  );
  porCiclos(
    '/pedidosconsumidoresciclos',
    'relatoriosConsumidores',
    'Pedidos dos consumidores',
    'pedidos-consumidores',
    (ator, ids, mercadoId) => relatorioDosConsumidores(ctx.banco, ator, ids, ctx.config.taxa, mercadoId),
  );
  porCiclos(
    '/relatorioprodutosciclos',
    'relatoriosFornecedores',
    'Produtos dos ciclos',
    'produtos',
    (ator, ids, mercadoId) => relatorioDeProdutos(ctx.banco, ator, ids, tempo(ctx).hoje, mercadoId),
  );

  /**
   * The cycles a download exports: those the query names (`ciclos`, or one `cicloid`/`cicloId`),
   * else those last chosen in POST /pedidosfornecedoresciclos (kept in the session), else the
   * current cycle.
   */
  async function ciclosDoDownload(req: FastifyRequest, query: Static<typeof ConsultaDoDownload>): Promise<number[]> {
    const um = query.cicloid ?? query.cicloId;
    if (query.ciclos !== undefined || um !== undefined)
      return [...EscolherCiclos.ler({ ciclos: query.ciclos ?? um }, nomesDoCorpo).ciclos];
    const escolhidos = req.sessao?.ciclosEscolhidos;
    if (escolhidos !== undefined) return [...escolhidos];
    const atual = cicloAtual(await ciclosParaEscolher(ctx.banco, tempo(ctx).hoje));
    if (atual === null) throw new NaoEncontrado('CICLO_NAO_ENCONTRADO', 'Ainda não há ciclo para exportar');
    return [atual];
  }

  // The supplier orders as the contract's CSV (or, with ?formato=xlsx, the spreadsheet), from the
  // same report model as the page and the JSON.
  app.get(
    '/downloadpedidosfornecedoresciclos',
    {
      config: { acesso: 'relatoriosFornecedores' },
      schema: {
        querystring: ConsultaDoDownload,
        response: {
          ...download(
            'text/csv',
            'Os pedidos aos fornecedores em CSV (UTF-8, separado por vírgulas, decimais com ponto, datas AAAA-MM-DD); com ?formato=xlsx, a planilha',
          ),
          200: {
            description: 'O CSV, ou com ?formato=xlsx a planilha (Excel, LibreOffice)',
            content: {
              'text/csv': { schema: Arquivo('O CSV') },
              [TIPO_XLSX]: { schema: Arquivo('A planilha') },
            },
          },
        },
      },
    },
    async (req, reply) => {
      const ids = await ciclosDoDownload(req, req.query);
      const relatorio = await relatorioDosFornecedores(
        ctx.banco,
        atorDe(req),
        ids,
        tempo(ctx).hoje,
        req.query.mercadoId ?? null,
      );
      const nome = nomeDeArquivo('pedidos-fornecedores', await nomesDosCiclos(ids));
      return enviarRelatorio(reply, relatorio, req.query.formato ?? 'csv', nome);
    },
  );

  app.get(
    '/entregaCicloPDF/:id',
    {
      config: { acesso: 'documentoEntrega' },
      schema: {
        params: ParamsId,
        querystring: ConsultaDoMercado,
        response: download('application/pdf', 'O documento de entrega do ciclo, em PDF'),
      },
    },
    async (req, reply) => {
      const documento = await documentoDeEntrega(
        ctx.banco,
        atorDe(req),
        req.params.id,
        ctx.config.taxa,
        req.query.mercadoId ?? null,
      );
      return reply
        .type('application/pdf')
        .header(
          'content-disposition',
          `inline; filename="${nomeDeArquivo('entrega', [documento.ciclo.nome, ...(documento.mercado === null ? [] : [documento.mercado])])}.pdf"`,
        )
        .send(pdfDeEntregaAParte(documento));
    },
  );

  app.get(
    '/movimentacaotodos',
    {
      config: { acesso: 'financeiroLer' },
      schema: { querystring: ConsultaDasMovimentacoes, response: relatorioOuArquivo(RelatorioJson) },
    },
    async (req, reply) => {
      const q = req.query;
      const filtro = {
        usuarioid: q.usuarioid ?? null,
        cicloid: q.cicloid ?? null,
        tipoMovimentacaoId: q.tipoMovimentacaoId ?? null,
        de: dataDaConsulta('de', q.de),
        ate: dataDaConsulta('ate', q.ate),
      };
      const r = await relatorioDeMovimentacoes(ctx.banco, atorDe(req), filtro);
      if (q.formato !== undefined)
        return enviarRelatorio(
          reply,
          r,
          q.formato,
          nomeDeArquivo('movimentacoes', [filtro.de ?? '', filtro.ate ?? '']),
        );
      return mostrar(req, reply, r, { downloads: downloads('/movimentacaotodos', { ...filtro }) });
    },
  );
}
