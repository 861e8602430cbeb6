import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { parametrosDa, type AppTipada } from '../../http/app-tipada.ts';
import { pode } from '../../domain/acesso.ts';
import { linhasOfertadas } from '../../domain/alocacao.ts';
import { cicloDasJanelas } from '../../domain/ciclos/janelas.ts';
import { tetosDasCestas, type TetoDaCesta } from '../../domain/mercados-do-ciclo/cesta.ts';
import { mercadosDoCiclo, type MercadoDoCiclo } from '../../domain/mercados-do-ciclo/comum.ts';
import { definirMercadosDoCiclo } from '../../domain/mercados-do-ciclo/definir.ts';
import { apagarLote, lotesDoCiclo, salvarLote, type Lote } from '../../domain/mercados-do-ciclo/lote.ts';
import {
  liberacaoDoMercado,
  liberarParaMercado,
  type LiberacaoDoMercado,
} from '../../domain/mercados-do-ciclo/venda-direta.ts';
import { NaoEncontrado } from '../../domain/erros.ts';
import { ESCALA_DINHEIRO, ESCALA_QUANTIDADE, paraNumero } from '../../decimal.ts';
import { ESCALA_TAXA } from '../../domain/mercados.ts';
import { TIPOS_MERCADO } from '../../domain/tipos-de-mercado.ts';
import { comoEntrada, MAIOR_ID } from '../../http/campos.ts';
import { SemCorpo } from '../../http/esquemas.ts';
import { atorDe } from '../autenticacao.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { LiberarParaMercado } from '../../comandos/liberacao.ts';
import { SalvarLote } from '../../comandos/lotes.ts';
import { DefinirMercadosDoCiclo } from '../../comandos/mercados-do-ciclo.ts';
import { corpoRecebido, guardarRecebido } from '../comandos.ts';
import { ParamsId, escrita, leitura } from '../esquemas/comum.ts';
import { enviarJson, querJson, redirecionarComAviso, responder } from '../resposta.ts';
import type { Redesenho } from '../tipos-fastify.ts';
import { paginaLiberacao, paginaLotes, paginaMercadosDoCiclo } from '../views/mercados-do-ciclo.ts';

const reais = (centavos: number) => paraNumero(centavos, ESCALA_DINHEIRO);
const qtd = (milesimos: number) => paraNumero(milesimos, ESCALA_QUANTIDADE);
const Nulo = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);
const Ids = Type.Array(Type.Integer({ minimum: 1 }));

const MercadoDoCicloJson = Type.Object({
  cicloMercadoId: Type.Integer(),
  mercadoId: Type.Integer(),
  nome: Type.String(),
  tipo: Type.String({ description: `${TIPOS_MERCADO.slice(0, -1).join(', ')} ou ${TIPOS_MERCADO.at(-1) ?? ''}` }),
  ordemAtendimento: Type.Integer(),
  taxaAdministrativa: Nulo(Type.Number({ description: 'Percentual' })),
  valorMaximoCesta: Nulo(Type.Number({ description: 'Reais' })),
  ativo: Type.Boolean(),
  pontoEntregaIds: Ids,
  pontos: Type.Array(Type.Object({ id: Type.Integer(), nome: Type.String() })),
  cicloCestaIds: Ids,
});
const TetoJson = Type.Object({
  cicloCestaId: Type.Integer(),
  cesta: Type.String(),
  mercadoId: Type.Integer(),
  mercado: Type.String(),
  custo: Type.Number(),
  valorMaximoCesta: Type.Number(),
});
const MercadosDoCiclo = Type.Object(
  { cicloid: Type.Integer(), cicloMercados: Type.Array(MercadoDoCicloJson), tetos: Type.Array(TetoJson) },
  { description: 'Os mercados que o ciclo atende, e o custo de cada cesta contra o máximo do seu mercado' },
);
const Liberacao = Type.Object(
  {
    cicloid: Type.Integer(),
    mercadoId: Type.Integer(),
    itens: Type.Array(
      Type.Object({
        cicloProdutoId: Type.Integer(),
        produtoId: Type.Integer(),
        produto: Type.String(),
        unidade: Type.String(),
        quantidade: Type.Number(),
        valor: Type.Number(),
        pedido: Type.Number(),
      }),
    ),
    produtos: Type.Array(
      Type.Object({
        produtoId: Type.Integer(),
        nome: Type.String(),
        unidade: Type.String(),
        preco: Nulo(Type.Number()),
        sobra: Type.Number(),
        liberado: Type.Number(),
      }),
    ),
  },
  { description: 'O que um mercado de venda direta vende do ciclo, e o que ainda pode ser liberado' },
);
const LoteJson = Type.Object({
  id: Type.Integer(),
  cicloid: Type.Integer(),
  mercadoId: Type.Integer(),
  mercado: Type.String(),
  comprador: Type.String(),
  compradorUsuarioId: Nulo(Type.Integer()),
  pontoEntregaId: Type.Integer(),
  ponto: Type.String(),
  valorAlvo: Type.Number(),
  valor: Type.Number(),
  linhas: Type.Array(
    Type.Object({
      ofertaProdutoId: Type.Integer(),
      produto: Type.String(),
      unidade: Type.String(),
      fornecedor: Type.String(),
      fornecedorId: Type.Integer(),
      quantidade: Type.Number(),
      valor: Type.Number(),
      subtotal: Type.Number(),
    }),
  ),
});
const Lotes = Type.Object({ cicloid: Type.Integer(), lotes: Type.Array(LoteJson) });
const ParamsMercado = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAIOR_ID }),
  mercadoId: Type.Integer({ minimum: 1, maximum: MAIOR_ID }),
});
const ParamsLote = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAIOR_ID }),
  loteId: Type.Integer({ minimum: 1, maximum: MAIOR_ID }),
});
/** A lot's routes: the new one (/ciclo/:id/lotes) and a saved one (/ciclo/:id/lotes/:loteId). */
const ParamsDoLote = Type.Object({ id: ParamsLote.properties.id, loteId: Type.Optional(ParamsLote.properties.loteId) });
function mercadoJson(m: MercadoDoCiclo) {
  return {
    cicloMercadoId: m.cicloMercadoId,
    mercadoId: m.mercadoId,
    nome: m.nome,
    tipo: m.tipo,
    ordemAtendimento: m.ordemAtendimento,
    taxaAdministrativa:
      m.taxaAdministrativaCentesimos === null ? null : paraNumero(m.taxaAdministrativaCentesimos, ESCALA_TAXA),
    valorMaximoCesta: m.valorMaximoCestaCentavos === null ? null : reais(m.valorMaximoCestaCentavos),
    ativo: m.ativo,
    pontoEntregaIds: m.pontos.map((p) => p.id),
    pontos: [...m.pontos],
    cicloCestaIds: [...m.cicloCestaIds],
  };
}
const tetoJson = (t: TetoDaCesta) => ({
  cicloCestaId: t.cicloCestaId,
  cesta: t.cesta,
  mercadoId: t.mercadoId,
  mercado: t.mercado,
  custo: reais(t.custoCentavos),
  valorMaximoCesta: reais(t.valorMaximoCestaCentavos),
});
const liberacaoJson = (cicloid: number, l: LiberacaoDoMercado) => ({
  cicloid,
  mercadoId: l.mercado.mercadoId,
  itens: l.itens.map((i) => ({
    cicloProdutoId: i.cicloProdutoId,
    produtoId: i.produtoId,
    produto: i.produto,
    unidade: i.unidade,
    quantidade: qtd(i.quantidadeMilesimos),
    valor: reais(i.valorCentavos),
    pedido: qtd(i.pedidoMilesimos),
  })),
  produtos: l.produtos.map((p) => ({
    produtoId: p.produtoId,
    nome: p.nome,
    unidade: p.unidade,
    preco: p.precoCentavos === null ? null : reais(p.precoCentavos),
    sobra: qtd(p.sobraMilesimos),
    liberado: qtd(p.liberadoMilesimos),
  })),
});
const loteJson = (l: Lote) => ({
  id: l.id,
  cicloid: l.cicloid,
  mercadoId: l.mercadoId,
  mercado: l.mercado,
  comprador: l.comprador,
  compradorUsuarioId: l.compradorUsuarioId,
  pontoEntregaId: l.pontoEntregaId,
  ponto: l.ponto,
  valorAlvo: reais(l.valorAlvoCentavos),
  valor: reais(l.valorCentavos),
  linhas: l.linhas.map((x) => ({
    ofertaProdutoId: x.ofertaProdutoId,
    produto: x.produto,
    unidade: x.unidade,
    fornecedor: x.fornecedor,
    fornecedorId: x.fornecedorId,
    quantidade: qtd(x.quantidadeMilesimos),
    valor: reais(x.valorCentavos),
    subtotal: reais(x.subtotalCentavos),
  })),
});

/** A form body with its nested rows as flat keys (`itens.0.quantidade`), for drawing it again. */
function achatar(v: unknown, prefixo = ''): Record<string, unknown> {
  if (v === null || typeof v !== 'object') return prefixo === '' ? {} : { [prefixo]: v };
  return Object.assign(
    {},
    ...(Object.entries(v).map(([k, x]) => achatar(x, prefixo === '' ? k : `${prefixo}.${k}`)) as Array<
      Record<string, unknown>
    >),
  );
}

/**
 * A refusal's messages by field (`itens.0.produtoId`, `comprador`…), for the page to put beside
 * each control; a 409's other details (what was short, by whom) are data the message already says.
 */
const CAMPOS_DOS_FORMULARIOS = new Set([
  'mercadoId',
  'comprador',
  'compradorUsuarioId',
  'pontoEntregaId',
  'valorAlvo',
  'linhas',
  'itens',
  'cicloMercados',
]);
const paraOsCampos = (recusa: { status: number; detalhes: Readonly<Record<string, unknown>> }) =>
  recusa.status === 400
    ? recusa.detalhes
    : Object.fromEntries(
        Object.entries(recusa.detalhes).filter(
          ([k, v]) => typeof v === 'string' && CAMPOS_DOS_FORMULARIOS.has(k.split('.')[0] ?? '') && k !== 'mercadoId',
        ),
      );

type Falha = {
  status: number;
  erro: string | null;
  detalhes: Readonly<Record<string, unknown>>;
  valores: Readonly<Record<string, unknown>>;
};
const SEM_FALHA: Falha = { status: 200, erro: null, detalhes: {}, valores: {} };

/**
 * The markets of a cycle in the Cestas face: which markets it serves (/ciclo/:id/mercados), what
 * a venda_direta market sells (/ciclo/:id/mercado/:mercadoId/liberar) and the lots of lote
 * markets (/ciclo/:id/lotes). Reading is the composition's (admin, master, info); writing is the
 * coordination's.
 */
export function rotasMercadosDoCiclo(app: AppTipada, ctx: ContextoCestas): void {
  const csrf = (req: FastifyRequest) => req.sessao?.csrf ?? null;
  const leitor = (req: FastifyRequest) => !pode(atorDe(req), 'composicaoEscrever');
  const pontosAtivos = () =>
    ctx.banco
      .selectFrom('pontoentrega')
      .select(['id', 'nome'])
      .where('ativo', '=', true)
      .orderBy('nomeChave')
      .execute();

  async function mostrarMercados(req: FastifyRequest, reply: FastifyReply, cicloid: number, falha: Falha = SEM_FALHA) {
    const ciclo = await cicloDasJanelas(ctx.banco, cicloid);
    const [doCiclo, tetos, mercados, pontos, cestas] = await Promise.all([
      mercadosDoCiclo(ctx.banco, cicloid),
      tetosDasCestas(ctx.banco, cicloid),
      ctx.banco
        .selectFrom('mercado')
        .select(['id', 'nome', 'tipo', 'ativo', 'valorMaximoCestaCentavos'])
        .orderBy('nome')
        .execute(),
      pontosAtivos(),
      ctx.banco
        .selectFrom('ciclocesta as cc')
        .innerJoin('cesta', 'cesta.id', 'cc.cestaId')
        .select(['cc.id', 'cesta.nome'])
        .where('cc.cicloid', '=', cicloid)
        .orderBy('cc.id')
        .execute(),
    ]);
    const noCiclo = new Set(doCiclo.map((m) => m.mercadoId));
    return responder(req, reply, {
      titulo: `Mercados do ${ciclo.nome}`,
      status: falha.status,
      dados: { cicloid, cicloMercados: doCiclo.map(mercadoJson), tetos: tetos.map(tetoJson) },
      corpo: () =>
        paginaMercadosDoCiclo({
          ciclo,
          doCiclo,
          pontos,
          cestas,
          tetos,
          csrf: csrf(req),
          somenteLeitura: leitor(req),
          recusa: falha,
          mercados: mercados
            .filter((m) => Boolean(m.ativo) || noCiclo.has(m.id))
            .map((m) => ({ ...m, ativo: Boolean(m.ativo) })),
        }),
    });
  }

  const cicloDaRota = (req: FastifyRequest) => parametrosDa(req, ParamsId).id;
  const redesenharMercados: Redesenho = (req, reply, recusa) =>
    mostrarMercados(req, reply, cicloDaRota(req), {
      status: recusa.status,
      erro: recusa.mensagem,
      detalhes: paraOsCampos(recusa),
      valores: {},
    });

  app.get(
    '/ciclo/:id/mercados',
    { config: { acesso: 'composicaoLer' }, schema: { params: ParamsId, response: leitura(MercadosDoCiclo) } },
    (req, reply) => mostrarMercados(req, reply, req.params.id),
  );
  app.post(
    '/ciclo/:id/mercados',
    {
      config: { acesso: 'composicaoEscrever', redesenhar: redesenharMercados },
      schema: { params: ParamsId, body: DefinirMercadosDoCiclo.corpo, response: escrita(MercadosDoCiclo) },
    },
    async (req, reply) => {
      const cicloid = req.params.id;
      const depois = await definirMercadosDoCiclo(ctx.banco, atorDe(req), cicloid, req.body, ctx.relogio.agora());
      if (querJson(req))
        return enviarJson(
          reply,
          {
            cicloid,
            cicloMercados: depois.map(mercadoJson),
            tetos: (await tetosDasCestas(ctx.banco, cicloid)).map(tetoJson),
          },
          'Mercados do ciclo salvos',
        );
      return redirecionarComAviso(reply, `/ciclo/${cicloid}/mercados`, 'Mercados do ciclo salvos.');
    },
  );

  /** The market's price editor, in the Mercados face (none when that face is not running). */
  const editorDePrecos = (req: FastifyRequest, mercadoId: number) => {
    const mercados = req.server.enderecoMercados();
    return mercados === null ? null : `${mercados}/mercados/${mercadoId}/precos`;
  };

  async function mostrarLiberacao(
    req: FastifyRequest,
    reply: FastifyReply,
    cicloid: number,
    mercadoId: number,
    falha: Falha = SEM_FALHA,
  ) {
    const ciclo = await cicloDasJanelas(ctx.banco, cicloid);
    const liberacao = await liberacaoDoMercado(ctx.banco, cicloid, mercadoId);
    return responder(req, reply, {
      titulo: `Venda direta em ${liberacao.mercado.nome}: ${ciclo.nome}`,
      status: falha.status,
      dados: liberacaoJson(cicloid, liberacao),
      corpo: () =>
        paginaLiberacao({
          ciclo,
          liberacao,
          csrf: csrf(req),
          somenteLeitura: leitor(req),
          recusa: falha,
          valores: falha.valores,
          editorDePrecos: editorDePrecos(req, mercadoId),
        }),
    });
  }
  const mercadoDaRota = (req: FastifyRequest) => parametrosDa(req, ParamsMercado);
  const redesenharLiberacao: Redesenho = (req, reply, recusa) => {
    const { id, mercadoId } = mercadoDaRota(req);
    return mostrarLiberacao(req, reply, id, mercadoId, {
      status: recusa.status,
      erro: recusa.mensagem,
      detalhes: paraOsCampos(recusa),
      valores: achatar(comoEntrada(corpoRecebido(req))),
    });
  };

  app.get(
    '/ciclo/:id/mercado/:mercadoId/liberar',
    { config: { acesso: 'composicaoLer' }, schema: { params: ParamsMercado, response: leitura(Liberacao) } },
    (req, reply) => mostrarLiberacao(req, reply, req.params.id, req.params.mercadoId),
  );
  app.post(
    '/ciclo/:id/mercado/:mercadoId/liberar',
    {
      config: { acesso: 'composicaoEscrever', redesenhar: redesenharLiberacao },
      preValidation: guardarRecebido,
      schema: { params: ParamsMercado, body: LiberarParaMercado.corpo, response: escrita(Liberacao) },
    },
    async (req, reply) => {
      const { id, mercadoId } = req.params;
      const depois = await liberarParaMercado(ctx.banco, atorDe(req), id, mercadoId, req.body, ctx.relogio.agora());
      if (querJson(req)) return enviarJson(reply, liberacaoJson(id, depois), 'Itens liberados');
      return redirecionarComAviso(
        reply,
        `/ciclo/${id}/mercado/${mercadoId}/liberar`,
        'Itens liberados para venda direta.',
      );
    },
  );

  async function mostrarLotes(
    req: FastifyRequest,
    reply: FastifyReply,
    cicloid: number,
    loteId: number | null,
    falha: Falha = SEM_FALHA,
  ) {
    const ciclo = await cicloDasJanelas(ctx.banco, cicloid);
    const [lotes, mercados, pontos, linhas] = await Promise.all([
      lotesDoCiclo(ctx.banco, cicloid),
      mercadosDoCiclo(ctx.banco, cicloid),
      pontosAtivos(),
      linhasOfertadas(ctx.banco, cicloid),
    ]);
    const editando = loteId === null ? null : (lotes.find((l) => l.id === loteId) ?? null);
    if (loteId !== null && editando === null)
      throw new NaoEncontrado('LOTE_NAO_ENCONTRADO', 'Lote não encontrado neste ciclo');
    return responder(req, reply, {
      titulo: `Lotes: ${ciclo.nome}`,
      status: falha.status,
      dados: { cicloid, lotes: (editando === null ? lotes : [editando]).map(loteJson) },
      corpo: () =>
        paginaLotes({
          ciclo,
          lotes,
          mercados,
          pontos,
          linhas,
          editando,
          csrf: csrf(req),
          somenteLeitura: leitor(req),
          recusa: falha,
          valores: falha.valores,
        }),
    });
  }
  const redesenharLote: Redesenho = (req, reply, recusa) => {
    const p = parametrosDa(req, ParamsDoLote);
    return mostrarLotes(req, reply, p.id, p.loteId ?? null, {
      status: recusa.status,
      erro: recusa.mensagem,
      detalhes: paraOsCampos(recusa),
      valores: achatar(comoEntrada(corpoRecebido(req))),
    });
  };

  app.get(
    '/ciclo/:id/lotes',
    { config: { acesso: 'composicaoLer' }, schema: { params: ParamsId, response: leitura(Lotes) } },
    (req, reply) => mostrarLotes(req, reply, req.params.id, null),
  );
  app.get(
    '/ciclo/:id/lotes/:loteId',
    { config: { acesso: 'composicaoLer' }, schema: { params: ParamsLote, response: leitura(Lotes) } },
    (req, reply) => mostrarLotes(req, reply, req.params.id, req.params.loteId),
  );
  app.post(
    '/ciclo/:id/lotes',
    {
      config: { acesso: 'composicaoEscrever', redesenhar: redesenharLote },
      preValidation: guardarRecebido,
      schema: { params: ParamsId, body: SalvarLote.corpo, response: escrita(LoteJson, { cria: true }) },
    },
    async (req, reply) => {
      const lote = await salvarLote(ctx.banco, atorDe(req), req.params.id, null, req.body, ctx.relogio.agora());
      if (querJson(req)) return enviarJson(reply, loteJson(lote), 'Lote criado', 201);
      return redirecionarComAviso(reply, `/ciclo/${req.params.id}/lotes`, `Lote de ${lote.comprador} criado.`);
    },
  );
  app.post(
    '/ciclo/:id/lotes/:loteId',
    {
      config: { acesso: 'composicaoEscrever', redesenhar: redesenharLote },
      preValidation: guardarRecebido,
      schema: { params: ParamsLote, body: SalvarLote.corpo, response: escrita(LoteJson) },
    },
    async (req, reply) => {
      const lote = await salvarLote(
        ctx.banco,
        atorDe(req),
        req.params.id,
        req.params.loteId,
        req.body,
        ctx.relogio.agora(),
      );
      if (querJson(req)) return enviarJson(reply, loteJson(lote), 'Lote salvo');
      return redirecionarComAviso(reply, `/ciclo/${req.params.id}/lotes`, `Lote de ${lote.comprador} salvo.`);
    },
  );
  app.post(
    '/ciclo/:id/lotes/:loteId/apagar',
    {
      config: { acesso: 'composicaoEscrever' },
      schema: { params: ParamsLote, body: SemCorpo, response: escrita(Type.Null()) },
    },
    async (req, reply) => {
      await apagarLote(ctx.banco, atorDe(req), req.params.id, req.params.loteId, ctx.relogio.agora());
      if (querJson(req)) return enviarJson(reply, null, 'Lote apagado');
      return redirecionarComAviso(reply, `/ciclo/${req.params.id}/lotes`, 'Lote apagado.');
    },
  );
}
