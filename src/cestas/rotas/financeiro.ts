import { createReadStream } from 'node:fs';
import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { AppTipada } from '../../http/app-tipada.ts';
import {
  TAMANHO_MAXIMO_ARQUIVO,
  arquivoDaMovimentacao,
  fecharCiclo,
  previaDoFechamento,
  reabrirCiclo,
  registrarMovimentacao,
  saldos,
  tiposDeMovimentacao,
} from '../../domain/financeiro.ts';
import { atorDe } from '../autenticacao.ts';
import { digitadoPorPessoas } from '../entrada.ts';
import { ReabrirCiclo, RegistrarMovimentacao } from '../../comandos/financeiro.ts';
import { corpoRecebido, guardarRecebido } from '../comandos.ts';
import { Invalido } from '../../domain/erros.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { enviarJson, querJson, redirecionarComAviso, responder } from '../resposta.ts';
import { formularioComArquivo } from '../multipart.ts';
import {
  descartarPendente,
  guardarPendente,
  lerPendente,
  nomeLegivel,
  type ComprovanteMantido,
  type Dono,
} from '../comprovante-pendente.ts';
import { Cofre } from '../../http/cofre.ts';
import {
  fechamentoJson,
  movimentacaoJson,
  previaDoFechamentoJson,
  saldoDePessoaJson,
} from '../apresentadores/financeiro.ts';
import { tempo } from '../tempo.ts';
import type { Redesenho } from '../tipos-fastify.ts';
import { paginaFecharCiclo, paginaMovimentacao } from '../views/financeiro.ts';
import { ParamsId, download, escrita, leitura } from '../esquemas/comum.ts';
import {
  FechamentoDoCiclo,
  Movimentacao,
  PreviaDoFechamento,
  PaginaMovimentacao,
} from '../esquemas/painel-e-relatorios.ts';
import { SemCorpo } from '../../http/esquemas.ts';

/** Closing a cycle, recording payments and adjustments with a receipt, and downloading receipts. */
export function rotasFinanceiro(app: AppTipada, ctx: ContextoCestas): void {
  const cofrePendentes = new Cofre(ctx.config.appSessionSecret, 'comprovantePendente');
  // Before closing, the summary to confirm: what will be debited and credited, and who has not confirmed.
  app.get(
    '/fecharciclo/:id',
    { config: { acesso: 'financeiroEscrever' }, schema: { params: ParamsId, response: leitura(PreviaDoFechamento) } },
    async (req, reply) => {
      const previa = await previaDoFechamento(ctx.banco, req.params.id, {
        hoje: tempo(ctx).hoje,
        taxa: ctx.config.taxa,
      });
      return responder(req, reply, {
        titulo: `Fechar o ciclo ${previa.ciclo.nome}`,
        dados: previaDoFechamentoJson(previa),
        corpo: () => paginaFecharCiclo(previa, req.sessao?.csrf ?? null, ctx.config.tz),
      });
    },
  );

  app.post(
    '/reabrirciclo/:id',
    {
      config: { acesso: 'cicloReabrir' },
      schema: { params: ParamsId, body: ReabrirCiclo.corpo, response: escrita(Type.Null()) },
    },
    async (req, reply) => {
      const { id } = req.params;
      await reabrirCiclo(ctx.banco, atorDe(req), id, req.body, ctx.relogio.agora());
      if (querJson(req)) return enviarJson(reply, null, 'Ciclo reaberto');
      return redirecionarComAviso(
        reply,
        `/ciclo/${id}`,
        'Ciclo reaberto: ao fechar de novo, só as diferenças viram movimentações.',
      );
    },
  );

  app.post(
    '/fecharciclo/:id',
    {
      config: { acesso: 'financeiroEscrever' },
      schema: { params: ParamsId, body: SemCorpo, response: escrita(FechamentoDoCiclo) },
    },
    async (req, reply) => {
      const { id } = req.params;
      const agora = tempo(ctx);
      const resumo = await fecharCiclo(ctx.banco, atorDe(req), id, { ...agora, taxa: ctx.config.taxa });
      // Closed by this call iff its closing instant is now (fecharCiclo keeps an earlier one): a
      // cycle without orders writes no movement but is closed now all the same.
      const jaEstava = resumo.fechadoEm !== agora.agora.toISOString();
      const n = resumo.naoConfirmados.length;
      // Orders nobody confirmed are said in words, by name: they are neither delivered nor charged.
      const deFora =
        n === 0
          ? ''
          : `${n === 1 ? '1 pedido sem confirmação ficou' : `${n} pedidos sem confirmação ficaram`} de fora (não ${n === 1 ? 'será entregue nem cobrado' : 'serão entregues nem cobrados'}): ${resumo.naoConfirmados.map((p) => p.nome).join(', ')}`;
      const fechado = jaEstava
        ? 'Ciclo já estava fechado: nada mudou'
        : resumo.novas === 0
          ? 'Ciclo fechado: nenhuma movimentação nova a registrar'
          : `Ciclo fechado: ${resumo.novas} ${resumo.novas === 1 ? 'movimentação registrada' : 'movimentações registradas'}`;
      const mensagem = `${fechado}${deFora === '' ? '' : `. ${deFora}`}`;
      if (querJson(req)) return enviarJson(reply, fechamentoJson(resumo), mensagem);
      return redirecionarComAviso(reply, `/ciclo/${id}`, `${mensagem}.`);
    },
  );

  async function formulario(
    req: FastifyRequest,
    reply: FastifyReply,
    falha = {
      status: 200,
      erro: null as string | null,
      detalhes: {} as Readonly<Record<string, unknown>>,
      valores: {} as Readonly<Record<string, unknown>>,
      comprovante: null as ComprovanteMantido | null,
    },
  ) {
    const [pessoas, tipos, ciclos, todos] = await Promise.all([
      ctx.banco.selectFrom('usuario').select(['id', 'nome']).where('ativo', '=', true).orderBy('nomeChave').execute(),
      tiposDeMovimentacao(ctx.banco),
      ctx.banco.selectFrom('ciclo').select(['id', 'nome']).orderBy('dataOfertaInicio', 'desc').limit(100).execute(),
      saldos(ctx.banco),
    ]);
    const opcoes = { pessoas, tipos, ciclos, saldos: todos };
    return responder(req, reply, {
      titulo: 'Registrar pagamento ou ajuste',
      status: falha.status,
      dados: { ...opcoes, saldos: todos.map(saldoDePessoaJson) },
      corpo: () => paginaMovimentacao(opcoes, req.sessao?.csrf ?? null, tempo(ctx).hoje, falha),
    });
  }

  app.get(
    '/movimentacao',
    { config: { acesso: 'financeiroEscrever' }, schema: { response: leitura(PaginaMovimentacao) } },
    (req, reply) => formulario(req, reply),
  );

  // Receipts are the only multipart bodies: the parser lives in this context alone, so every
  // other route keeps answering 415 to multipart.
  app.register(async (escopo: AppTipada) => {
    await escopo.register(multipart, {
      attachFieldsToBody: 'keyValues',
      limits: { fileSize: TAMANHO_MAXIMO_ARQUIVO, files: 1, fields: 20, fieldSize: 10_000, parts: 21 },
      // The file's name comes with its bytes: a refused form shows which receipt it kept.
      async onFile(part) {
        part.value = { nome: nomeLegivel(part.filename), conteudo: await part.toBuffer() };
      },
    });
    // Its fields are typed by people, like any form's (marked before the command reads them).
    escopo.addHook('preValidation', async (req) => {
      if (req.isMultipart()) digitadoPorPessoas(req.body);
    });
    const dirArquivos = ctx.config.dirArquivos;

    const donoDo = (req: FastifyRequest): Dono | null =>
      req.sessao === null ? null : { sid: req.sessao.sid, usuarioid: atorDe(req).usuarioid };
    // A refused form comes back with what was typed and with its receipt kept (a browser cannot
    // fill a file input again): a new file is kept as pending, else the one kept before stays.
    const redesenhar: Redesenho = async (req, reply, recusa) => {
      const {
        arquivo: novo,
        campos: { comprovantePendente, ...valores },
      } = formularioComArquivo(corpoRecebido(req));
      const dono = donoDo(req);
      const agora = ctx.relogio.agora();
      let comprovante: ComprovanteMantido | null = null;
      if (dono !== null) {
        comprovante = novo === null ? null : await guardarPendente(cofrePendentes, dirArquivos, novo, dono, agora);
        if (comprovante !== null)
          await descartarPendente(cofrePendentes, dirArquivos, comprovantePendente, dono, agora);
        else {
          const anterior = await lerPendente(cofrePendentes, dirArquivos, comprovantePendente, dono, agora);
          comprovante = anterior === null ? null : { referencia: anterior.referencia, nome: anterior.nome };
        }
      }
      return formulario(req, reply, {
        status: recusa.status,
        erro: recusa.mensagem,
        detalhes: recusa.detalhes,
        valores,
        comprovante,
      });
    };
    escopo.post(
      '/movimentacao',
      {
        config: { acesso: 'financeiroEscrever', redesenhar },
        bodyLimit: TAMANHO_MAXIMO_ARQUIVO + 1024 * 1024,
        preValidation: guardarRecebido,
        schema: {
          consumes: ['multipart/form-data'],
          body: RegistrarMovimentacao.corpo,
          response: escrita(Movimentacao, { cria: true }),
        },
      },
      async (req, reply) => {
        const { entrada, arquivo: novo, comprovantePendente } = req.body;
        const dono = donoDo(req);
        const agora = ctx.relogio.agora();
        // A new file wins; without one, the receipt a refused form kept, if the reference is this login's.
        const pedePendente = novo === null && comprovantePendente !== null;
        const pendente =
          pedePendente && dono !== null
            ? await lerPendente(cofrePendentes, dirArquivos, comprovantePendente, dono, agora)
            : null;
        if (pedePendente && pendente === null)
          throw new Invalido('VALIDACAO', 'Verifique os campos destacados', {
            arquivo: 'O comprovante enviado antes expirou ou não vale nesta sessão: escolha o arquivo de novo',
          });
        const anexo = novo ?? pendente;
        const mov = await registrarMovimentacao(ctx.banco, atorDe(req), entrada, anexo, {
          ...tempo(ctx),
          dirArquivos,
        });
        // NOTE: the movement has its own copy of the file: the pending one is no longer needed.
        if (dono !== null && (pendente !== null || novo !== null))
          await descartarPendente(cofrePendentes, dirArquivos, comprovantePendente, dono, agora).catch((e: unknown) =>
            req.log.warn({ err: e }, 'comprovante pendente não apagado'),
          );
        if (querJson(req)) return enviarJson(reply, movimentacaoJson(mov), 'Movimentação registrada', 201);
        return redirecionarComAviso(reply, '/movimentacao', 'Movimentação registrada.');
      },
    );
  });

  app.get(
    '/movimentacao/:id/arquivo',
    {
      config: { acesso: 'financeiroLer' },
      schema: { params: ParamsId, response: download('application/octet-stream', 'O comprovante (PDF, PNG ou JPEG)') },
    },
    async (req, reply) => {
      const { id } = req.params;
      const arquivo = await arquivoDaMovimentacao(ctx.banco, atorDe(req), id, ctx.config.dirArquivos);
      return reply
        .type(arquivo.tipo)
        .header('content-disposition', `attachment; filename="${arquivo.nome}"`)
        .header('cache-control', 'private, no-store')
        .send(createReadStream(arquivo.caminho));
    },
  );
}
