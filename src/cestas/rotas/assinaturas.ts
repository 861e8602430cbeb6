import type { FastifyReply, FastifyRequest } from 'fastify';
import { parametrosDa, type AppTipada } from '../../http/app-tipada.ts';
import { donoVisivel, pode, podeSerDono, type Ator } from '../../domain/acesso.ts';
import {
  definirLimiteDeAssinaturas,
  pausar,
  removerPausa,
  salvarAssinatura,
} from '../../domain/assinaturas/escrita.ts';
import {
  assinaturasDe,
  assinaturaVisivel,
  ciclosComPedidoAberto,
  escolhasDaAssinatura,
  type AssinaturaComCiclos,
} from '../../domain/assinaturas/leitura.ts';
import type { Assinatura, OpcoesAssinatura } from '../../domain/assinaturas/modelo.ts';
import { alterarNoCiclo, pularCiclo } from '../../domain/assinaturas/no-ciclo.ts';
import { assinaturasParaAdmin, faltasDoCiclo } from '../../domain/assinaturas/painel.ts';
import { cicloDasJanelas } from '../../domain/ciclos/janelas.ts';
import { Invalido } from '../../domain/erros.ts';
import { usuarioPorId } from '../../domain/usuarios.ts';
import { MAIOR_ID, comoEntrada } from '../../http/campos.ts';
import {
  AlterarNoCiclo,
  LimitarAssinaturas,
  PausarAssinatura,
  SalvarAssinatura,
  assinaturaNomeada,
} from '../../comandos/assinaturas.ts';
import { Consulta, ConsultaDaPessoa, NaConsulta } from '../../http/consultas.ts';
import { SemCorpo } from '../../http/esquemas.ts';
import { dinheiroJson } from '../apresentadores/numeros.ts';
import { atorDe } from '../autenticacao.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { corpoRecebido, donosPrimeiro, guardarRecebido } from '../comandos.ts';
import {
  AssinaturaJson,
  LimiteJson,
  PaginaAssinaturas,
  ParamsAssinaturaCiclo,
  ParamsAssinaturaPausa,
  SituacaoDoCicloJson,
  TodasAsAssinaturas,
} from '../esquemas/assinaturas.ts';
import { ParamsId, escrita, leitura } from '../esquemas/comum.ts';
import { enviarJson, querJson, redirecionarComAviso, responder } from '../resposta.ts';
import { tempo } from '../tempo.ts';
import type { Recusa, Redesenho } from '../tipos-fastify.ts';
import {
  SEM_FALHA,
  paginaAssinaturas,
  paginaTodas,
  type AssinaturaDaPagina,
  type FalhaNaPagina,
} from '../views/assinaturas.ts';

/** A subscription as the JSON API gives it. */
function assinaturaJson(a: Assinatura) {
  return {
    id: a.id,
    usuarioid: a.usuarioid,
    cestaId: a.cestaId,
    quantidade: a.quantidade,
    pontoEntregaId: a.pontoEntregaId,
    frequencia: a.frequencia,
    inicio: a.inicio,
    fim: a.fim,
    mercadoId: a.mercadoId,
    ativa: a.ativa,
    createdAt: a.createdAt,
    pausas: a.pausas,
  };
}

/** A subscription's next cycles with whether the basket comes and whether the order window is still open. */
export async function comJanelas(
  ctx: ContextoCestas,
  itens: readonly AssinaturaComCiclos[],
  hoje: string,
): Promise<AssinaturaDaPagina[]> {
  const abertos = await ciclosComPedidoAberto(
    ctx.banco,
    itens.flatMap((a) => a.proximosCiclos.map((c) => c.cicloid)),
    hoje,
  );
  return itens.map((a) => ({
    ...a,
    proximosCiclos: a.proximosCiclos.map((c) => ({
      ...c,
      vem: c.situacao === null || c.situacao === 'gerado',
      janelaAberta: abertos.has(c.cicloid),
    })),
  }));
}

/** Whose subscriptions a page shows: the one named (when the actor may see them), else the actor's own. */
function consumidorDaPagina(ator: Ator, usuarioid: number | null): number {
  const dono = donoVisivel(ator, usuarioid, 'pedido');
  if (dono !== null) return dono;
  if (!pode(ator, 'assinaturaPropria'))
    throw new Invalido('VALIDACAO', 'Escolha o consumidor', {
      usuarioid: 'Informe ?usuarioid= com o consumidor da assinatura',
    });
  return ator.usuarioid ?? 0;
}

/**
 * The `:id` of a route: raw text for the ownership check that runs before the schema's, or the
 * schema's integer when a refused form is drawn again (after validation).
 */
export function idDaRota(params: unknown): number | null {
  const v = params !== null && typeof params === 'object' ? (params as Record<string, unknown>).id : undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,15}$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= MAIOR_ID ? n : null;
}

/**
 * /assinaturas/todas: every subscription with what was paid in advance for it, the totals per
 * basket type and per point, and a cycle's shortages; drawn again with a refused form's message.
 */
export async function mostrarTodas(
  ctx: ContextoCestas,
  req: FastifyRequest,
  reply: FastifyReply,
  cicloId: number | null,
  falha: FalhaNaPagina & { status: number } = { ...SEM_FALHA, status: 200 },
) {
  const ator = atorDe(req);
  const [painel, escolhas, ciclos, pontos] = await Promise.all([
    assinaturasParaAdmin(ctx.banco),
    escolhasDaAssinatura(ctx.banco),
    ctx.banco
      .selectFrom('ciclo')
      .select(['id', 'nome'])
      .where('ativo', '=', true)
      .orderBy('dataPedidoInicio', 'desc')
      .orderBy('id', 'desc')
      .limit(30)
      .execute(),
    ctx.banco.selectFrom('pontoentrega').select(['id', 'nome']).execute(),
  ]);
  const ciclo =
    cicloId === null ? null : await cicloDasJanelas(ctx.banco, cicloId).then((x) => ({ id: x.id, nome: x.nome }));
  const faltas = ciclo === null ? [] : await faltasDoCiclo(ctx.banco, ciclo.id);
  const itens = painel.assinaturas.map(({ pagoAdiantadoCentavos, ...a }) => ({
    ...a,
    pagoAdiantado: dinheiroJson(pagoAdiantadoCentavos),
  }));
  return responder(req, reply, {
    titulo: 'Todas as assinaturas',
    status: falha.status,
    dados: { itens, porCesta: painel.porCesta, porPonto: painel.porPonto, ciclo, faltas },
    corpo: () =>
      paginaTodas(
        {
          ...painel,
          cestasDisponiveis: escolhas.cestas,
          ciclos: ciclo === null || ciclos.some((x) => x.id === ciclo.id) ? ciclos : [ciclo, ...ciclos],
          ciclo,
          faltas,
          pontos,
          podeLimitar: pode(ator, 'catalogoEscrever'),
          podeRegistrarPagamento: pode(ator, 'financeiroEscrever'),
        },
        req.sessao?.csrf ?? null,
        falha,
      ),
  });
}

/** The consumer's subscription page (`/assinaturas`), the admin list (`/assinaturas/todas`) and their writes. */
export function rotasAssinaturas(app: AppTipada, ctx: ContextoCestas): void {
  const opcoes = (): OpcoesAssinatura => ({
    ...tempo(ctx),
    taxa: ctx.config.taxa,
    tz: ctx.config.tz,
    avisos: ctx.correio,
  });

  async function mostrar(
    req: FastifyRequest,
    reply: FastifyReply,
    usuarioid: number,
    falha: FalhaNaPagina & { status: number } = { ...SEM_FALHA, status: 200 },
  ) {
    const ator = atorDe(req);
    const { hoje } = tempo(ctx);
    const consumidor =
      usuarioid === ator.usuarioid
        ? { id: usuarioid, nome: ator.nome, perfil: ator.perfil }
        : await usuarioPorId(ctx.banco, usuarioid);
    if (consumidor === undefined || !podeSerDono(consumidor, 'pedido'))
      throw new Invalido('VALIDACAO', 'Consumidor inválido', { usuarioid: 'Não há consumidor com este id' });
    const [itens, escolhas] = await Promise.all([
      assinaturasDe(ctx.banco, usuarioid, hoje).then((l) => comJanelas(ctx, l, hoje)),
      escolhasDaAssinatura(ctx.banco),
    ]);
    const pagina = {
      consumidor: { id: consumidor.id, nome: consumidor.nome },
      hoje,
      porOutraPessoa: usuarioid !== ator.usuarioid,
      itens,
      ...escolhas,
    };
    return responder(req, reply, {
      titulo: 'Assinaturas',
      status: falha.status,
      dados: {
        consumidor: pagina.consumidor,
        itens,
        cestas: escolhas.cestas,
        pontosEntrega: escolhas.pontosEntrega,
        mercados: escolhas.mercados,
      },
      corpo: () => paginaAssinaturas(pagina, req.sessao?.csrf ?? null, falha),
    });
  }

  /** Where a browser goes after a write: the subscriber's page (naming them when an admin acted). */
  const paginaDe = (ator: Ator, usuarioid: number) =>
    usuarioid === ator.usuarioid ? '/assinaturas' : `/assinaturas?usuarioid=${usuarioid}`;

  /** A refused form drawn back on the subscriber's page, with the message on the form that was posted. */
  function redesenharNa(form: (req: FastifyRequest) => string): Redesenho {
    return async (req, reply, recusa: Recusa) => {
      const ator = atorDe(req);
      const enviado = corpoRecebido(req);
      const id = idDaRota(req.params) ?? assinaturaNomeada(enviado);
      let dono: number;
      if (id !== null) {
        dono = (await assinaturaVisivel(ctx.banco, ator, id)).usuarioid;
      } else {
        const e = comoEntrada(enviado);
        const nomeado =
          typeof e.usuarioid === 'string' && /^\d{1,15}$/.test(e.usuarioid)
            ? Number(e.usuarioid)
            : typeof e.usuarioid === 'number'
              ? e.usuarioid
              : null;
        dono = donoVisivel(ator, nomeado, 'pedido') ?? ator.usuarioid ?? 0;
      }
      return mostrar(req, reply, dono, {
        status: recusa.status,
        form: form(req),
        erro: recusa.mensagem,
        detalhes: recusa.detalhes,
        valores: comoEntrada(enviado),
      });
    };
  }

  /** Ownership of the route's subscription before any validation: someone else's is 404. */
  const suaAssinatura = async (req: FastifyRequest) => {
    await guardarRecebido(req);
    const id = idDaRota(req.params);
    if (id !== null) await assinaturaVisivel(ctx.banco, atorDe(req), id);
  };

  app.get(
    '/assinaturas',
    {
      config: { acesso: 'pedidosLer' },
      schema: { querystring: ConsultaDaPessoa, response: leitura(PaginaAssinaturas) },
    },
    (req, reply) => mostrar(req, reply, consumidorDaPagina(atorDe(req), req.query.usuarioid ?? null)),
  );

  app.post(
    '/assinaturas',
    {
      config: {
        acesso: 'pedidosEscrever',
        redesenhar: redesenharNa((req) => {
          const id = assinaturaNomeada(corpoRecebido(req));
          return id === null ? 'nova' : `a${id}`;
        }),
      },
      // Whom the body names, then whose subscription it changes, before any validation.
      preValidation: async (req) => {
        await donosPrimeiro(SalvarAssinatura, 'pedido')(req);
        const id = assinaturaNomeada(req.body);
        if (id !== null) await assinaturaVisivel(ctx.banco, atorDe(req), id);
      },
      schema: { body: SalvarAssinatura.corpo, response: escrita(AssinaturaJson, { cria: true, atualiza: true }) },
    },
    async (req, reply) => {
      const ator = atorDe(req);
      const entrada = req.body;
      const a = await salvarAssinatura(ctx.banco, ator, entrada, opcoes());
      const mensagem =
        entrada.id === null ? 'Assinatura criada' : a.ativa ? 'Assinatura alterada' : 'Assinatura encerrada';
      if (querJson(req)) return enviarJson(reply, assinaturaJson(a), mensagem, entrada.id === null ? 201 : 200);
      return redirecionarComAviso(reply, paginaDe(ator, a.usuarioid), `${mensagem}.`);
    },
  );

  app.post(
    '/assinaturas/:id/pausas',
    {
      config: { acesso: 'pedidosEscrever', redesenhar: redesenharNa((req) => `p${idDaRota(req.params) ?? 0}`) },
      preValidation: suaAssinatura,
      schema: { params: ParamsId, body: PausarAssinatura.corpo, response: escrita(AssinaturaJson) },
    },
    async (req, reply) => {
      const ator = atorDe(req);
      const a = await pausar(ctx.banco, ator, req.params.id, req.body, tempo(ctx));
      if (querJson(req)) return enviarJson(reply, assinaturaJson(a), 'Pausa registrada');
      return redirecionarComAviso(
        reply,
        paginaDe(ator, a.usuarioid),
        'Pausa registrada: os ciclos desse período ficam sem cesta.',
      );
    },
  );

  app.post(
    '/assinaturas/:id/pausas/:pausaId/remover',
    {
      config: { acesso: 'pedidosEscrever', redesenhar: redesenharNa(() => 'pausas') },
      preValidation: suaAssinatura,
      schema: { params: ParamsAssinaturaPausa, body: SemCorpo, response: escrita(AssinaturaJson) },
    },
    async (req, reply) => {
      const ator = atorDe(req);
      const a = await removerPausa(ctx.banco, ator, req.params.id, req.params.pausaId, opcoes());
      if (querJson(req)) return enviarJson(reply, assinaturaJson(a), 'Pausa removida');
      return redirecionarComAviso(reply, paginaDe(ator, a.usuarioid), 'Pausa removida.');
    },
  );

  app.post(
    '/assinaturas/:id/pular/:cicloId',
    {
      config: { acesso: 'pedidosEscrever', redesenhar: redesenharNa(() => 'pular') },
      preValidation: suaAssinatura,
      schema: {
        params: ParamsAssinaturaCiclo,
        querystring: Consulta({ de: NaConsulta.umDe(['painel'], 'De onde veio o pedido: painel volta ao painel') }),
        body: SemCorpo,
        response: escrita(SituacaoDoCicloJson),
      },
    },
    async (req, reply) => {
      const ator = atorDe(req);
      const s = await pularCiclo(ctx.banco, ator, req.params.id, req.params.cicloId, opcoes());
      if (querJson(req)) return enviarJson(reply, s, 'Ciclo pulado');
      const a = await assinaturaVisivel(ctx.banco, ator, req.params.id);
      const ciclo = await cicloDasJanelas(ctx.banco, req.params.cicloId);
      // From the dashboard, back to it; otherwise to the subscription page.
      const veioDoPainel = req.query.de === 'painel';
      return redirecionarComAviso(
        reply,
        veioDoPainel ? '/' : paginaDe(ator, a.usuarioid),
        `Pronto: a cesta não vem no ciclo ${ciclo.nome}.`,
      );
    },
  );

  app.post(
    '/assinaturas/:id/ciclo/:cicloId',
    {
      config: {
        acesso: 'pedidosEscrever',
        redesenhar: redesenharNa((req) => {
          const p = parametrosDa(req, ParamsAssinaturaCiclo);
          return `c${p.id}-${p.cicloId}`;
        }),
      },
      preValidation: suaAssinatura,
      schema: { params: ParamsAssinaturaCiclo, body: AlterarNoCiclo.corpo, response: escrita(SituacaoDoCicloJson) },
    },
    async (req, reply) => {
      const ator = atorDe(req);
      const s = await alterarNoCiclo(ctx.banco, ator, req.params.id, req.params.cicloId, req.body, opcoes());
      if (querJson(req)) return enviarJson(reply, s, 'Ciclo alterado');
      const a = await assinaturaVisivel(ctx.banco, ator, req.params.id);
      return redirecionarComAviso(reply, paginaDe(ator, a.usuarioid), 'Alterado só neste ciclo.');
    },
  );

  const ConsultaDasTodas = Consulta({ cicloId: NaConsulta.id('Mostra as faltas deste ciclo') });
  app.get(
    '/assinaturas/todas',
    {
      config: { acesso: 'assinaturasTodas' },
      schema: { querystring: ConsultaDasTodas, response: leitura(TodasAsAssinaturas) },
    },
    (req, reply) => mostrarTodas(ctx, req, reply, req.query.cicloId ?? null),
  );

  app.post(
    '/assinaturas/limite',
    {
      config: {
        acesso: 'catalogoEscrever',
        redesenhar: async (req, reply, recusa) =>
          mostrarTodas(ctx, req, reply, null, {
            status: recusa.status,
            form: 'limite',
            erro: recusa.mensagem,
            detalhes: recusa.detalhes,
            valores: comoEntrada(corpoRecebido(req)),
          }),
      },
      preValidation: guardarRecebido,
      schema: { body: LimitarAssinaturas.corpo, response: escrita(LimiteJson) },
    },
    async (req, reply) => {
      const { cestaId, limite } = req.body;
      const r = await definirLimiteDeAssinaturas(ctx.banco, atorDe(req), cestaId, limite, tempo(ctx));
      if (querJson(req))
        return enviarJson(
          reply,
          { cestaId: r.cestaId, nome: r.nome, limiteAssinaturas: r.limiteAssinaturas },
          'Limite salvo',
        );
      return redirecionarComAviso(
        reply,
        '/assinaturas/todas',
        r.limiteAssinaturas === null
          ? `A ${r.nome} ficou sem limite de assinaturas.`
          : `A ${r.nome} aceita até ${r.limiteAssinaturas} assinaturas ativas.`,
      );
    },
  );
}
