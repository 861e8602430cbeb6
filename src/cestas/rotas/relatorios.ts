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
import { relatorioParaJson } from '../apresentadores/relatorios.ts';
import { relatorioParaCsv } from '../apresentadores/relatorio-csv.ts';
import { comoEntrada } from '../../http/campos.ts';
import { Consulta, NaConsulta, dataDaConsulta } from '../../http/consultas.ts';
import { atorDe } from '../autenticacao.ts';
import { lerCiclos, lerMercadoDoRelatorio } from '../entrada.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { pdfDeEntrega } from '../pdf/entrega.ts';
import { responder } from '../resposta.ts';
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
import { CorpoCiclos, EscolhaDeCiclos, ParamsId, RelatorioJson, Relatorios, download, leitura } from '../esquemas.ts';

/** A file name safe for Content-Disposition, from the cycle names. */
function nomeDeArquivo(base: string, nomes: readonly string[]): string {
  const limpo = nomes
    .join('-')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '')
    .slice(0, 80);
  return `${base}${limpo === '' ? '' : `-${limpo}`}`;
}

const mercadoId = NaConsulta.id('Só o que foi comprado neste mercado dos ciclos (o relatório inteiro, sem ele)');

/** ?mercadoId= narrows a report to one market of its cycles; the CSV and PDF links keep it. */
const ConsultaDoMercado = Consulta({ mercadoId });

/** The cycles a CSV exports: `ciclos` ("1,2" or repeated), or one `cicloid` (`cicloId`); without them, those chosen last. */
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
});

/** The filters of /movimentacaotodos. */
const ConsultaDasMovimentacoes = Consulta({
  usuarioid: NaConsulta.id('Só as desta pessoa (quem vê todos)'),
  cicloid: NaConsulta.id('Só as deste ciclo'),
  tipoMovimentacaoId: NaConsulta.id('Só as deste tipo'),
  de: NaConsulta.data('A partir deste dia'),
  ate: NaConsulta.data('Até este dia'),
});

/** Reports: the spec's "Reports and exports" table, and /movimentacaotodos. */
export function rotasRelatorios(app: AppTipada, ctx: ContextoCestas): void {
  const mostrar = (req: FastifyRequest, reply: FastifyReply, r: Relatorio, extras: ExtrasDoRelatorio = {}) =>
    responder(req, reply, { titulo: r.titulo, dados: relatorioParaJson(r), corpo: () => tabelaRelatorio(r, extras) });
  /** A link's query with the market filter kept: `?cicloId=1&mercadoId=2`. */
  const comMercado = (base: string, mercadoId: number | null) =>
    mercadoId === null ? base : `${base}${base.includes('?') ? '&' : '?'}mercadoId=${mercadoId}`;
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
    { config: { acesso: 'relatoriosFornecedores' }, schema: { params: ParamsId, response: leitura(RelatorioJson) } },
    async (req, reply) =>
      mostrar(req, reply, await relatorioDeSobra(ctx.banco, atorDe(req), req.params.id, tempo(ctx).hoje)),
  );

  app.get(
    '/pedidosfornecedorestodos/:id',
    {
      config: { acesso: 'relatoriosFornecedores' },
      schema: { params: ParamsId, querystring: ConsultaDoMercado, response: leitura(RelatorioJson) },
    },
    async (req, reply) => {
      const { id } = req.params;
      const mercadoId = req.query.mercadoId ?? null;
      const r = await relatorioDosFornecedores(ctx.banco, atorDe(req), [id], tempo(ctx).hoje, mercadoId);
      return mostrar(req, reply, r, {
        csv: comMercado(`/downloadpedidosfornecedoresciclos?cicloId=${id}`, mercadoId),
        pdf: comMercado(`/entregaCicloPDF/${id}`, mercadoId),
        filtro: { acao: `/pedidosfornecedorestodos/${id}`, metodo: 'get', csrf: null, ciclos: [], mercadoId },
      });
    },
  );

  /** GET chooses cycles; POST shows the report of the chosen ones ({ciclos:[…]}, ciclos=1&ciclos=2, or {cicloid}). */
  function porCiclos(
    caminho: string,
    acesso: Acao,
    titulo: string,
    montar: (ator: Ator, ciclos: number[], mercadoId: number | null) => Promise<Relatorio>,
    csv: boolean,
  ) {
    app.get(caminho, { config: { acesso }, schema: { response: leitura(EscolhaDeCiclos) } }, async (req, reply) => {
      const ciclos = await ciclosParaEscolher(ctx.banco, tempo(ctx).hoje);
      const mercados = await mercadosDaEscolha(ciclos);
      return responder(req, reply, {
        titulo,
        dados: { ciclos },
        corpo: () => escolhaDeCiclos(caminho, ciclos, mercados, req.sessao?.csrf ?? null, null),
      });
    });
    // A bad choice comes back as the choice page, with the message.
    const redesenhar: Redesenho = async (req, reply, recusa) => {
      const ciclos = await ciclosParaEscolher(ctx.banco, tempo(ctx).hoje);
      const mercados = await mercadosDaEscolha(ciclos);
      return responder(req, reply, {
        titulo,
        status: recusa.status,
        dados: { ciclos },
        corpo: () => escolhaDeCiclos(caminho, ciclos, mercados, req.sessao?.csrf ?? null, recusa.mensagem),
      });
    };
    // A report is read, not written: the POST answers 200 with it (no redirect).
    app.post(
      caminho,
      { config: { acesso, redesenhar }, schema: { body: CorpoCiclos, response: leitura(RelatorioJson) } },
      async (req, reply) => {
        // One cycle may come as `cicloid`, the name the rest of the interface uses.
        const corpo = comoEntrada(req.body);
        const ids = lerCiclos(
          corpo.ciclos === undefined && corpo.cicloid !== undefined ? { ciclos: corpo.cicloid } : corpo,
        );
        const mercadoId = lerMercadoDoRelatorio(corpo);
        const relatorio = await montar(atorDe(req), ids, mercadoId);
        // The report page offers its cycles' markets, posting the same cycles again.
        const filtro = {
          acao: caminho,
          metodo: 'post' as const,
          csrf: req.sessao?.csrf ?? null,
          ciclos: ids,
          mercadoId,
        };
        if (!csv) return mostrar(req, reply, relatorio, { filtro });
        // The spec's bare GET of the CSV exports the cycles chosen here last.
        if (req.sessao !== null)
          lembrarCiclos(reply, ctx.cofreSessao, req.sessao, ids, ctx.relogio.agora().getTime(), {
            seguro: ctx.cookiesSeguros,
          });
        return mostrar(req, reply, relatorio, {
          csv: comMercado(`/downloadpedidosfornecedoresciclos?ciclos=${ids.join(',')}`, mercadoId),
          filtro,
        });
      },
    );
  }

  porCiclos(
    '/pedidosfornecedoresciclos',
    'relatoriosFornecedores',
    'Pedidos aos fornecedores',
    (ator, ids, mercadoId) => relatorioDosFornecedores(ctx.banco, ator, ids, tempo(ctx).hoje, mercadoId),
    true,
  );
  porCiclos(
    '/pedidosconsumidoresciclos',
    'relatoriosConsumidores',
    'Pedidos dos consumidores',
    (ator, ids, mercadoId) => relatorioDosConsumidores(ctx.banco, ator, ids, ctx.config.taxa, mercadoId),
    false,
  );
  porCiclos(
    '/relatorioprodutosciclos',
    'relatoriosFornecedores',
    'Produtos dos ciclos',
    (ator, ids, mercadoId) => relatorioDeProdutos(ctx.banco, ator, ids, tempo(ctx).hoje, mercadoId),
    false,
  );

  /**
   * The cycles a CSV download exports: those the query names (`ciclos`, or one `cicloid`/`cicloId`),
   * else those last chosen in POST /pedidosfornecedoresciclos (kept in the session), else the
   * current cycle.
   */
  async function ciclosDoDownload(req: FastifyRequest, query: Static<typeof ConsultaDoDownload>): Promise<number[]> {
    const um = query.cicloid ?? query.cicloId;
    if (query.ciclos !== undefined || um !== undefined) return lerCiclos({ ciclos: query.ciclos ?? um });
    const escolhidos = req.sessao?.ciclosEscolhidos;
    if (escolhidos !== undefined) return [...escolhidos];
    const atual = cicloAtual(await ciclosParaEscolher(ctx.banco, tempo(ctx).hoje));
    if (atual === null) throw new NaoEncontrado('CICLO_NAO_ENCONTRADO', 'Ainda não há ciclo para exportar');
    return [atual];
  }

  // CSV of supplier orders, from the same report model as the page and the JSON (relatorioParaCsv).
  app.get(
    '/downloadpedidosfornecedoresciclos',
    {
      config: { acesso: 'relatoriosFornecedores' },
      schema: {
        querystring: ConsultaDoDownload,
        response: download(
          'text/csv',
          'Os pedidos aos fornecedores, em CSV para planilha em português (UTF-8 com BOM, separado por ;, decimais com vírgula)',
        ),
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
      const nomes = (
        await ctx.banco.selectFrom('ciclo').select('nome').where('id', 'in', ids).orderBy('id').execute()
      ).map((c) => c.nome);
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${nomeDeArquivo('pedidos-fornecedores', nomes)}.csv"`)
        .send(relatorioParaCsv(relatorio));
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
        .send(await pdfDeEntrega(documento));
    },
  );

  app.get(
    '/movimentacaotodos',
    {
      config: { acesso: 'financeiroLer' },
      schema: { querystring: ConsultaDasMovimentacoes, response: leitura(RelatorioJson) },
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
      return mostrar(req, reply, r);
    },
  );
}
