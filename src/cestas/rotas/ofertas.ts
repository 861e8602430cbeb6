import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppTipada } from '../../http/app-tipada.ts';
import { acoesDaOferta, donoDaPagina, donoVisivel, podeSerDono } from '../../domain/acesso.ts';
import { situacaoDoCiclo } from '../../domain/ciclos/calendario.ts';
import { cicloDasJanelas } from '../../domain/ciclos/janelas.ts';
import { Invalido } from '../../domain/erros.ts';
import {
  apagarProdutoDaOferta,
  ofertaDe,
  ofertasVisiveis,
  produtosParaOfertar,
  salvarOferta,
} from '../../domain/ofertas.ts';
import { usuarioPorId } from '../../domain/usuarios.ts';
import { comoEntrada } from '../../http/campos.ts';
import { Consulta, ConsultaDaPessoa, NaConsulta } from '../../http/consultas.ts';
import { atorDe } from '../autenticacao.ts';
import { alvoDoCorpo } from '../entrada.ts';
import { RetirarDaOferta, SalvarOferta } from '../../comandos/oferta.ts';
import { corpoRecebido, donosPrimeiro } from '../comandos.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { ofertaDaListaJson, ofertaJson, produtoParaOfertarJson } from '../apresentadores/ofertas.ts';
import { enviarJson, querJson, redirecionarComAviso, responder } from '../resposta.ts';
import { tempo } from '../tempo.ts';
import type { Redesenho } from '../tipos-fastify.ts';
import { listaDeOfertas, paginaOferta } from '../views/ofertas.ts';
import { ParamsId, escrita, leitura } from '../esquemas/comum.ts';
import { ListaDeOfertas, OfertaJson, PaginaOferta } from '../esquemas/ofertas-e-pedidos.ts';

/** Offers: the supplier's page, the list, draft and final saves, and removal of a line. */
export function rotasOfertas(app: AppTipada, ctx: ContextoCestas): void {
  async function mostrar(
    req: FastifyRequest,
    reply: FastifyReply,
    cicloid: number,
    usuarioid: number,
    falha = {
      status: 200,
      erro: null as string | null,
      detalhes: {} as Readonly<Record<string, unknown>>,
      valores: null as ReadonlyArray<Readonly<Record<string, unknown>>> | null,
    },
  ) {
    const ator = atorDe(req);
    const { hoje } = tempo(ctx);
    const ciclo = await cicloDasJanelas(ctx.banco, cicloid);
    const fornecedor = await usuarioPorId(ctx.banco, usuarioid);
    if (fornecedor === undefined || !podeSerDono(fornecedor, 'oferta'))
      throw new Invalido('VALIDACAO', 'Fornecedor inválido', { usuarioid: 'Não há fornecedor com este id' });
    const situacao = situacaoDoCiclo(ciclo, hoje);
    const { fase, abertas } = situacao;
    const acoes = acoesDaOferta(ator, { usuarioid, ciclo: situacao });
    const [oferta, produtosDisponiveis] = await Promise.all([
      ofertaDe(ctx.banco, cicloid, usuarioid),
      produtosParaOfertar(ctx.banco, usuarioid),
    ]);
    const pagina = {
      ciclo: {
        id: ciclo.id,
        nome: ciclo.nome,
        fase,
        abertas,
        dataOfertaInicio: ciclo.dataOfertaInicio,
        dataOfertaFim: ciclo.dataOfertaFim,
      },
      produtosDisponiveis,
      acoes,
      fornecedor: { id: fornecedor.id, nome: fornecedor.nomeoficial ?? fornecedor.nome },
    };
    return responder(req, reply, {
      titulo: 'Oferta',
      status: falha.status,
      dados: { ...ofertaJson(oferta), ...pagina, produtosDisponiveis: produtosDisponiveis.map(produtoParaOfertarJson) },
      corpo: () => paginaOferta({ ...pagina, oferta }, req.sessao?.csrf ?? null, falha),
    });
  }

  app.get(
    '/oferta-index',
    {
      config: { acesso: 'ofertasLer' },
      schema: {
        querystring: Consulta({ cicloid: NaConsulta.id('Só as ofertas deste ciclo') }),
        response: leitura(ListaDeOfertas),
      },
    },
    async (req, reply) => {
      const ofertas = await ofertasVisiveis(ctx.banco, atorDe(req), tempo(ctx).hoje, req.query.cicloid ?? null);
      return responder(req, reply, {
        titulo: 'Ofertas',
        dados: { itens: ofertas.map(ofertaDaListaJson) },
        corpo: () => listaDeOfertas(ofertas),
      });
    },
  );

  app.get(
    '/oferta/:id',
    {
      config: { acesso: 'ofertasLer' },
      schema: { params: ParamsId, querystring: ConsultaDaPessoa, response: leitura(PaginaOferta) },
    },
    async (req, reply) => {
      const { id } = req.params;
      return mostrar(req, reply, id, donoDaPagina(atorDe(req), req.query.usuarioid ?? null, 'oferta'));
    },
  );

  async function salvar(
    req: FastifyRequest<{ Body: typeof SalvarOferta.corpo.static }>,
    reply: FastifyReply,
    finalizar: boolean,
  ) {
    const { oferta, criada } = await salvarOferta(ctx.banco, atorDe(req), req.body, { ...tempo(ctx), finalizar });
    const mensagem = finalizar ? 'Oferta finalizada' : 'Rascunho da oferta salvo';
    if (querJson(req)) return enviarJson(reply, ofertaJson(oferta), mensagem, criada ? 201 : 200);
    return redirecionarComAviso(reply, `/oferta/${oferta.cicloid}?usuarioid=${oferta.usuarioid}`, `${mensagem}.`);
  }

  /** A browser gets its offer page back with the message and what it typed. */
  const redesenhar: Redesenho = async (req, reply, recusa) => {
    const enviado = corpoRecebido(req);
    const alvo = alvoDoCorpo(enviado, 'oferta');
    if (alvo === null) return null;
    // The same rule as the page's: a refusal never shows someone the actor may not see.
    const ator = atorDe(req);
    const dono = donoVisivel(ator, alvo.usuarioid, 'oferta') ?? ator.usuarioid ?? 0;
    const bruto = comoEntrada(enviado).produtos;
    const valores = Array.isArray(bruto)
      ? bruto
      : bruto !== null && typeof bruto === 'object'
        ? Object.values(bruto)
        : [];
    return mostrar(req, reply, alvo.cicloid, dono, {
      status: recusa.status,
      erro: recusa.mensagem,
      detalhes: recusa.detalhes,
      valores: valores.filter((v): v is Record<string, unknown> => v !== null && typeof v === 'object'),
    });
  };

  // The body is read as the command (src/comandos/oferta.ts), after the ownership check.
  const esquemaDoSalvar = { body: SalvarOferta.corpo, response: escrita(OfertaJson, { cria: true, atualiza: true }) };
  app.post(
    '/oferta',
    {
      config: { acesso: 'ofertasEscrever', redesenhar },
      preValidation: donosPrimeiro(SalvarOferta, 'oferta'),
      schema: esquemaDoSalvar,
    },
    (req, reply) => salvar(req, reply, false),
  );
  app.post(
    '/ofertasave',
    {
      config: { acesso: 'ofertasEscrever', redesenhar },
      preValidation: donosPrimeiro(SalvarOferta, 'oferta'),
      schema: esquemaDoSalvar,
    },
    (req, reply) => salvar(req, reply, true),
  );

  app.post(
    '/ofertaapagarproduto',
    {
      config: { acesso: 'ofertasEscrever' },
      preValidation: donosPrimeiro(RetirarDaOferta, 'oferta'),
      schema: { body: RetirarDaOferta.corpo, response: escrita(OfertaJson) },
    },
    async (req, reply) => {
      const oferta = await apagarProdutoDaOferta(ctx.banco, atorDe(req), req.body, tempo(ctx));
      if (querJson(req)) return enviarJson(reply, ofertaJson(oferta), 'Produto retirado da oferta');
      return redirecionarComAviso(
        reply,
        `/oferta/${oferta.cicloid}?usuarioid=${oferta.usuarioid}`,
        'Produto retirado da oferta.',
      );
    },
  );
}
