import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppTipada } from '../../http/app-tipada.ts';
import { ConsultaDaPessoa } from '../../http/consultas.ts';
import { ErroHttp } from '../../http/erros.ts';
import {
  conciliar,
  descartarLinha,
  importarExtrato,
  mapeamentoSalvo,
  mapeamentosSalvos,
  revisaoDoExtrato,
  salvarMapeamento,
} from '../../domain/extratos.ts';
import { cobrancasEmAberto, cobrancaVisivel, pixDaCobranca } from '../../domain/pix.ts';
import { dinheiroJson } from '../apresentadores/numeros.ts';
import { cobrancaJson, linhaDoExtratoJson, resumoDaImportacaoTexto } from '../apresentadores/pix.ts';
import { atorDe } from '../autenticacao.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { digitadoPorPessoas } from '../entrada.ts';
import { ConciliarExtrato, DescartarCredito, ImportarExtrato } from '../../comandos/financeiro.ts';
import { lerExtrato, TAMANHO_MAXIMO_EXTRATO } from '../leitura-extrato.ts';
import { nomeLegivel } from '../comprovante-pendente.ts';
import { enviarJson, querJson, redirecionarComAviso, responder } from '../resposta.ts';
import type { Redesenho } from '../tipos-fastify.ts';
import { paginaCobrancas, paginaExtratos, paginaSaldo } from '../views/pix.ts';
import { ParamsId, escrita, leitura } from '../esquemas/comum.ts';
import {
  CobrancaJson,
  ListaDeCobrancas,
  PaginaExtratos,
  ResultadoDaConciliacao,
  ResumoDaImportacao,
} from '../esquemas/pix.ts';

/**
 * Pix: each person's charge and its BR Code, the coordination's list of who owes what, and the
 * bank statements that settle the balances (import, review, confirm, dismiss).
 */
export function rotasPix(app: AppTipada, ctx: ContextoCestas): void {
  const { taxa, pix: recebedor } = ctx.config;

  // A person's own balance and Pix; whoever sees everything names someone with ?usuarioid=.
  app.get(
    '/saldo',
    { config: { acesso: 'financeiroLer' }, schema: { querystring: ConsultaDaPessoa, response: leitura(CobrancaJson) } },
    async (req, reply) => {
      const ator = atorDe(req);
      const cobranca = await cobrancaVisivel(ctx.banco, ator, req.query.usuarioid ?? null, taxa);
      const pix = await pixDaCobranca(cobranca, recebedor);
      const proprio = cobranca.usuarioid === ator.usuarioid;
      return responder(req, reply, {
        titulo: proprio ? 'Meu saldo' : `Saldo de ${cobranca.nome}`,
        dados: cobrancaJson(cobranca, pix),
        corpo: () => paginaSaldo(cobranca, pix, recebedor?.nome ?? null, proprio),
      });
    },
  );

  app.get(
    '/cobrancas',
    { config: { acesso: 'financeiroEscrever' }, schema: { response: leitura(ListaDeCobrancas) } },
    async (req, reply) => {
      const cobrancas = await cobrancasEmAberto(ctx.banco, taxa);
      const itens = await Promise.all(cobrancas.map(async (c) => cobrancaJson(c, await pixDaCobranca(c, recebedor))));
      const total = cobrancas.reduce((t, c) => t + c.devidoCentavos, 0);
      return responder(req, reply, {
        titulo: 'Quem deve o quê',
        dados: { itens, total: dinheiroJson(total), pixConfigurado: recebedor !== null },
        corpo: () => paginaCobrancas(cobrancas, recebedor !== null),
      });
    },
  );

  async function pagina(
    req: FastifyRequest,
    reply: FastifyReply,
    falha = { status: 200, erro: null as string | null, detalhes: {} as Readonly<Record<string, unknown>> },
  ) {
    const [revisao, mapeamentos] = await Promise.all([revisaoDoExtrato(ctx.banco), mapeamentosSalvos(ctx.banco)]);
    return responder(req, reply, {
      titulo: 'Extratos do banco',
      status: falha.status,
      dados: {
        pendentes: revisao.pendentes.map(linhaDoExtratoJson),
        resolvidas: revisao.resolvidas.map(linhaDoExtratoJson),
        pessoas: revisao.pessoas,
        mapeamentos,
      },
      corpo: () => paginaExtratos(revisao, mapeamentos, req.sessao?.csrf ?? null, falha),
    });
  }
  const redesenhar: Redesenho = (req, reply, recusa) =>
    pagina(req, reply, { status: recusa.status, erro: recusa.mensagem, detalhes: recusa.detalhes });

  app.get(
    '/extratos',
    { config: { acesso: 'financeiroEscrever' }, schema: { response: leitura(PaginaExtratos) } },
    (req, reply) => pagina(req, reply),
  );

  // The statement upload is multipart, in its own context, like receipts.
  app.register(async (escopo: AppTipada) => {
    await escopo.register(multipart, {
      attachFieldsToBody: 'keyValues',
      limits: { fileSize: TAMANHO_MAXIMO_EXTRATO, files: 1, fields: 20, fieldSize: 10_000, parts: 21 },
      async onFile(part) {
        const conteudo = await part.toBuffer().catch((e: unknown) => {
          if ((e as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
            throw new ErroHttp(
              413,
              'EXTRATO_GRANDE_DEMAIS',
              'O extrato deve ter no máximo 2 MiB: exporte um período menor',
            );
          throw e;
        });
        part.value = { nome: nomeLegivel(part.filename), conteudo };
      },
    });
    escopo.addHook('preValidation', async (req) => {
      if (req.isMultipart()) digitadoPorPessoas(req.body);
    });
    escopo.post(
      '/extratos',
      {
        config: { acesso: 'financeiroEscrever', redesenhar },
        bodyLimit: TAMANHO_MAXIMO_EXTRATO + 1024 * 1024,
        schema: {
          consumes: ['multipart/form-data'],
          body: ImportarExtrato.corpo,
          response: escrita(ResumoDaImportacao, { cria: true }),
        },
      },
      async (req, reply) => {
        const { arquivo: recebido, ...pedido } = req.body;
        const mapeamento =
          pedido.mapeamento ??
          (pedido.mapeamentoId === null ? null : await mapeamentoSalvo(ctx.banco, pedido.mapeamentoId));
        // The whole file is read before anything is written: a bad line refuses it all.
        const linhas = lerExtrato(recebido.conteudo, mapeamento);
        const nome = recebido.nome !== '' ? recebido.nome : 'extrato';
        const agora = ctx.relogio.agora();
        const resumo = await importarExtrato(ctx.banco, atorDe(req), { arquivo: nome, linhas }, { agora, taxa });
        if (pedido.salvar && pedido.mapeamento !== null)
          await salvarMapeamento(ctx.banco, atorDe(req), pedido.mapeamento, agora);
        const mensagem = resumoDaImportacaoTexto(resumo);
        if (querJson(req)) return enviarJson(reply, resumo, mensagem, resumo.novas > 0 ? 201 : 200);
        return redirecionarComAviso(reply, '/extratos', mensagem);
      },
    );
  });

  app.post(
    '/extratos/conciliar',
    {
      config: { acesso: 'financeiroEscrever', redesenhar },
      schema: { body: ConciliarExtrato.corpo, response: escrita(ResultadoDaConciliacao) },
    },
    async (req, reply) => {
      const r = await conciliar(ctx.banco, atorDe(req), req.body, ctx.relogio.agora());
      const mensagem = `${r.conciliadas} ${r.conciliadas === 1 ? 'pagamento registrado' : 'pagamentos registrados'}${r.rejeitadas > 0 ? `; ${r.rejeitadas} ${r.rejeitadas === 1 ? 'crédito continua' : 'créditos continuam'} em aberto` : ''}`;
      if (querJson(req)) return enviarJson(reply, r, mensagem);
      return redirecionarComAviso(reply, '/extratos', `${mensagem}.`);
    },
  );

  app.post(
    '/extratos/:id/descartar',
    {
      config: { acesso: 'financeiroEscrever', redesenhar },
      schema: { params: ParamsId, body: DescartarCredito.corpo, response: escrita(Type.Null()) },
    },
    async (req, reply) => {
      await descartarLinha(ctx.banco, atorDe(req), req.params.id, req.body, ctx.relogio.agora());
      if (querJson(req)) return enviarJson(reply, null, 'Crédito descartado');
      return redirecionarComAviso(reply, '/extratos', 'Crédito descartado.');
    },
  );
}
