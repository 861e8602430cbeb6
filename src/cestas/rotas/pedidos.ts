import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppTipada } from '../../http/app-tipada.ts';
import { acoesDoPedido, donoDaPagina, donoVisivel, podeSerDono } from '../../domain/acesso.ts';
import { ConfirmarPedido, FazerPedido } from '../../comandos/pedido.ts';
import { situacaoDoCiclo } from '../../domain/ciclos/calendario.ts';
import { cicloDasJanelas } from '../../domain/ciclos/janelas.ts';
import { Invalido } from '../../domain/erros.ts';
import { fazerPedido } from '../../domain/pedidos/fazer.ts';
import { comDisponibilidade, reservasDoCiclo } from '../../domain/pedidos/disponibilidade.ts';
import { finalizarPedido } from '../../domain/pedidos/finalizar.ts';
import { pedidoDe, pedidosVisiveis, pedidoVisivel } from '../../domain/pedidos/leituras.ts';
import { usuarioPorId } from '../../domain/usuarios.ts';
import { comoEntrada } from '../../http/campos.ts';
import { ConsultaDaPessoa } from '../../http/consultas.ts';
import { atorDe } from '../autenticacao.ts';
import { alvoDoCorpo } from '../entrada.ts';
import { corpoRecebido, donosPrimeiro } from '../comandos.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { cobrancaDe, pixDaCobranca } from '../../domain/pix.ts';
import { cobrancaJson } from '../apresentadores/pix.ts';
import { blocoPix } from '../views/pix.ts';
import { cestaParaPedirJson, extraParaPedirJson, pedidoJson, semPedidoJson } from '../apresentadores/pedidos.ts';
import { enviarJson, querJson, redirecionarComAviso, responder } from '../resposta.ts';
import { tempo } from '../tempo.ts';
import type { Redesenho } from '../tipos-fastify.ts';
import { listaDePedidos, paginaConfirmacao, paginaPedido, taxaParaPagina } from '../views/pedidos.ts';
import { ParamsId, escrita, leitura } from '../esquemas/comum.ts';
import { ListaDePedidos, PaginaPedido, PedidoJson } from '../esquemas/ofertas-e-pedidos.ts';
import { ConfirmacaoPedido } from '../esquemas/pix.ts';

/** Consumer orders: the order page, save (reserving stock), confirmation, and a cycle's orders. */
export function rotasPedidos(app: AppTipada, ctx: ContextoCestas): void {
  const taxa = ctx.config.taxa;

  async function mostrar(
    req: FastifyRequest,
    reply: FastifyReply,
    cicloid: number,
    usuarioid: number,
    falha = {
      status: 200,
      erro: null as string | null,
      detalhes: {} as Readonly<Record<string, unknown>>,
      valores: null as Readonly<Record<string, unknown>> | null,
    },
  ) {
    const ator = atorDe(req);
    const { hoje } = tempo(ctx);
    // The order and the reservations (with the cycle data's version) in parallel; then the cycle's view, usually kept.
    const [pedido, reservas] = await Promise.all([
      pedidoDe(ctx.banco, cicloid, usuarioid, taxa),
      reservasDoCiclo(ctx.banco, cicloid, hoje),
    ]);
    const { ciclo, catalogo, pontosEntrega } = await ctx.vitrine.ler(ctx.banco, cicloid, reservas.versaoDosCiclos);
    // A consumer's own page (the common case) already has their record in the actor.
    const consumidor =
      usuarioid === ator.usuarioid
        ? { id: usuarioid, nome: ator.nome, perfil: ator.perfil }
        : await usuarioPorId(ctx.banco, usuarioid);
    if (consumidor === undefined || !podeSerDono(consumidor, 'pedido'))
      throw new Invalido('VALIDACAO', 'Consumidor inválido', { usuarioid: 'Não há consumidor com este id' });
    const situacao = situacaoDoCiclo(ciclo, hoje);
    const { fase, abertas } = situacao;
    const acoes = acoesDoPedido(ator, { usuarioid, ciclo: situacao });
    const disp = comDisponibilidade(catalogo, reservas);
    const pagina = {
      ciclo: {
        id: ciclo.id,
        nome: ciclo.nome,
        fase,
        abertas,
        dataPedidoInicio: ciclo.dataPedidoInicio,
        dataPedidoFim: ciclo.dataPedidoFim,
      },
      cestas: disp.cestas,
      extras: disp.extras,
      pontosEntrega,
      taxa: taxaParaPagina(taxa),
      acoes,
      consumidor: { id: consumidor.id, nome: consumidor.nome },
    };
    return responder(req, reply, {
      titulo: 'Pedido',
      status: falha.status,
      dados: {
        ...(pedido === null ? semPedidoJson() : pedidoJson(pedido)),
        ...pagina,
        cestas: pagina.cestas.map(cestaParaPedirJson),
        extras: pagina.extras.map(extraParaPedirJson),
      },
      corpo: () => paginaPedido({ ...pagina, pedido }, req.sessao?.csrf ?? null, falha),
    });
  }

  app.get(
    '/pedidoconsumidores/:id',
    {
      config: { acesso: 'pedidosLer' },
      schema: { params: ParamsId, querystring: ConsultaDaPessoa, response: leitura(PaginaPedido) },
    },
    (req, reply) =>
      mostrar(req, reply, req.params.id, donoDaPagina(atorDe(req), req.query.usuarioid ?? null, 'pedido')),
  );

  /** A browser gets its order page back with the message and what it typed. */
  const redesenhar: Redesenho = async (req, reply, recusa) => {
    const enviado = corpoRecebido(req);
    const alvo = alvoDoCorpo(enviado, 'pedido');
    if (alvo === null) return null;
    // The same rule as the page's: a refusal never shows someone the actor may not see.
    const ator = atorDe(req);
    const dono = donoVisivel(ator, alvo.usuarioid, 'pedido') ?? ator.usuarioid ?? 0;
    return mostrar(req, reply, alvo.cicloid, dono, {
      status: recusa.status,
      erro: recusa.mensagem,
      detalhes: recusa.detalhes,
      valores: comoEntrada(enviado),
    });
  };

  app.post(
    '/pedidoconsumidores',
    {
      config: { acesso: 'pedidosEscrever', redesenhar },
      // Ownership before any validation; then the body is read as the command (src/comandos/pedido.ts).
      preValidation: donosPrimeiro(FazerPedido, 'pedido'),
      schema: { body: FazerPedido.corpo, response: escrita(PedidoJson, { cria: true, atualiza: true }) },
    },
    async (req, reply) => {
      const { pedido, criado, reaberto } = await fazerPedido(ctx.banco, atorDe(req), req.body, {
        ...tempo(ctx),
        taxa,
        tz: ctx.config.tz,
        avisos: ctx.correio,
      });
      // A subscription's order stays confirmed when it changes (docs/dominio.md).
      const continuaConfirmado = !criado && pedido.finalizado;
      if (querJson(req))
        return enviarJson(
          reply,
          pedidoJson(pedido),
          reaberto
            ? 'Pedido alterado: falta confirmar de novo'
            : continuaConfirmado
              ? 'Pedido salvo: continua confirmado, com a cesta da assinatura'
              : 'Pedido salvo',
          criado ? 201 : 200,
        );
      return redirecionarComAviso(
        reply,
        `/pedidoconsumidoresconfirmacao/${pedido.pedidoId}`,
        reaberto
          ? 'Pedido alterado: ele precisa ser confirmado de novo para entrar na entrega e na cobrança.'
          : continuaConfirmado
            ? 'Pedido salvo. Ele tem a cesta da sua assinatura e continua confirmado.'
            : 'Pedido salvo. Confira e confirme.',
      );
    },
  );

  app.get(
    '/pedidoconsumidoresconfirmacao/:id',
    { config: { acesso: 'pedidosLer' }, schema: { params: ParamsId, response: leitura(ConfirmacaoPedido) } },
    async (req, reply) => {
      const ator = atorDe(req);
      const pedido = await pedidoVisivel(ctx.banco, ator, req.params.id, taxa);
      const ciclo = await cicloDasJanelas(ctx.banco, pedido.cicloid);
      const situacao = situacaoDoCiclo(ciclo, tempo(ctx).hoje);
      const { confirmar } = acoesDoPedido(ator, { usuarioid: pedido.usuarioid, ciclo: situacao });
      // How to pay, once confirmed and where the community receives by Pix: what the person owes in all.
      const recebedor = ctx.config.pix;
      const cobranca =
        pedido.finalizado && recebedor !== null ? await cobrancaDe(ctx.banco, pedido.usuarioid, taxa) : null;
      const pix = cobranca === null ? null : await pixDaCobranca(cobranca, recebedor);
      const pagamento =
        cobranca === null
          ? null
          : blocoPix(cobranca, pix, {
              recebedor: recebedor?.nome ?? null,
              quem: ator.usuarioid === pedido.usuarioid ? null : pedido.usuario.nome,
              pedidoId: pedido.pedidoId,
            });
      return responder(req, reply, {
        titulo: 'Confirmação do pedido',
        dados: {
          ...pedidoJson(pedido),
          acoes: { confirmar },
          cobranca: cobranca === null ? null : cobrancaJson(cobranca, pix),
        },
        corpo: () =>
          paginaConfirmacao(
            pedido,
            req.sessao?.csrf ?? null,
            confirmar,
            { dataPedidoFim: ciclo.dataPedidoFim, fase: situacao.fase },
            pagamento,
          ),
      });
    },
  );

  app.post(
    '/pedidoconsumidoresconfirmacao',
    { config: { acesso: 'pedidosEscrever' }, schema: { body: ConfirmarPedido.corpo, response: escrita(PedidoJson) } },
    async (req, reply) => {
      const pedido = await finalizarPedido(ctx.banco, atorDe(req), req.body, {
        ...tempo(ctx),
        taxa,
        tz: ctx.config.tz,
        avisos: ctx.correio,
      });
      if (querJson(req)) return enviarJson(reply, pedidoJson(pedido), 'Pedido confirmado');
      return redirecionarComAviso(
        reply,
        `/pedidoconsumidoresconfirmacao/${pedido.pedidoId}`,
        'Pedido confirmado. Obrigado!',
      );
    },
  );

  app.get(
    '/pedidosconsumidorestodos/:id',
    { config: { acesso: 'pedidosLer' }, schema: { params: ParamsId, response: leitura(ListaDePedidos) } },
    async (req, reply) => {
      const [ciclo, pedidos] = await Promise.all([
        cicloDasJanelas(ctx.banco, req.params.id),
        pedidosVisiveis(ctx.banco, atorDe(req), req.params.id, taxa),
      ]);
      return responder(req, reply, {
        titulo: `Pedidos do ciclo ${ciclo.nome}`,
        dados: { itens: pedidos.map(pedidoJson) },
        corpo: () => listaDePedidos(pedidos),
      });
    },
  );
}
