import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { exigirAgirPor, pode } from '../../domain/acesso.ts';
import { NaoEncontrado, Proibido } from '../../domain/erros.ts';
import { mercadoPorId, type Mercado } from '../../domain/mercados.ts';
import type { Conta } from '../../domain/contas.ts';
import { podeMercados } from '../../domain/politica-mercados.ts';
import { relatorioDosPedidosDoMercado, relatorioDosPrecosDoMercado } from '../../domain/relatorios/do-mercado.ts';
import { relatorioDasEntregasDoFornecedor } from '../../domain/relatorios/entregas-do-fornecedor.ts';
import { atorDaConta, autorizarNosCiclos } from '../../domain/usuarios.ts';
import type { AppTipada } from '../../http/app-tipada.ts';
import { FORMATOS_DE_ARQUIVO, enviarRelatorio, nomeDeArquivo } from '../../http/arquivos.ts';
import { MAIOR_ID } from '../../http/campos.ts';
import { Consulta, NaConsulta } from '../../http/consultas.ts';
import { acessoNegado, guardaDaAcao } from '../acesso.ts';
import type { ContextoMercados } from '../contexto-mercados.ts';
import { planilhaOuCsv } from '../esquemas.ts';

/**
 * The Mercados face's files (issue 36): a market's orders in a cycle and its price list, for the
 * market's AdminMercado or the Administrador, and a supplier's deliveries in a cycle. Each route is
 * guarded by the spec's middleware for its policy action (401 without a session, 403 with
 * `required` without the profile); the market's ownership is the policy's rule on the record,
 * refused with the same 403 body.
 */

const ParamsId = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAIOR_ID }) });

/** `?formato=`: the spreadsheet (the default) or the contract's CSV. */
const formato = NaConsulta.umDe(FORMATOS_DE_ARQUIVO, 'O arquivo: a planilha (Excel, LibreOffice; o padrão) ou o CSV');

const ConsultaDoArquivo = Consulta({ formato });

/** A market's orders are those of one cycle: `cicloId` is required. */
const ConsultaDosPedidos = Consulta({
  cicloId: Type.Integer({ minimum: 1, maximum: MAIOR_ID, description: 'O ciclo dos pedidos (obrigatório)' }),
  formato,
});

/** What the 403 says when the profile is right but the market is someone else's. */
const requeridoNoMercado = (m: Mercado): string => `Administrador, ou o AdminMercado do mercado ${m.nome}`;

/** The account of a guarded route: its guard let only a logged-in one through, so none here is a bug. */
function contaGuardada(req: FastifyRequest): Conta {
  if (req.conta === null) throw new Error(`${req.routeOptions.url ?? ''}: rota guardada sem conta na requisição`);
  return req.conta;
}

export function rotasPlanilhas(app: AppTipada, ctx: ContextoMercados): void {
  /**
   * The market of the address, when the account may take the action on it: 404 for an unknown one,
   * the spec's 403 for someone else's (null: the reply is sent).
   */
  async function mercadoDaConta(
    req: FastifyRequest,
    reply: FastifyReply,
    id: number,
    acao: 'verPedidosDoMercado' | 'baixarPrecos',
  ): Promise<Mercado | null> {
    const mercado = await mercadoPorId(ctx.banco, id);
    if (mercado === null) throw new NaoEncontrado('MERCADO_NAO_ENCONTRADO', 'Mercado não encontrado');
    if (!podeMercados(contaGuardada(req), acao, mercado)) {
      await acessoNegado(reply, requeridoNoMercado(mercado));
      return null;
    }
    return mercado;
  }

  app.get(
    '/planilhas/mercados/:id/pedidos',
    {
      config: { guarda: guardaDaAcao('verPedidosDoMercado') },
      schema: {
        summary: 'Os pedidos do mercado num ciclo, como arquivo',
        description:
          'Cada pedido com algo comprado no mercado: as linhas compradas nele e a taxa do mercado sobre elas. Administrador, ou o AdminMercado do mercado.',
        params: ParamsId,
        querystring: ConsultaDosPedidos,
        response: planilhaOuCsv('Os pedidos do mercado no ciclo'),
      },
    },
    async (req, reply) => {
      const mercado = await mercadoDaConta(req, reply, req.params.id, 'verPedidosDoMercado');
      if (mercado === null) return reply;
      const r = await relatorioDosPedidosDoMercado(ctx.banco, mercado, req.query.cicloId, ctx.config.taxa);
      return enviarRelatorio(
        reply,
        r,
        req.query.formato ?? 'xlsx',
        nomeDeArquivo('pedidos', [mercado.nome, r.subtitulo]),
      );
    },
  );

  app.get(
    '/planilhas/mercados/:id/precos',
    {
      config: { guarda: guardaDaAcao('baixarPrecos') },
      schema: {
        summary: 'A lista de preços do mercado, como arquivo',
        description: 'Todos os preços do mercado, ativos ou não. Administrador, ou o AdminMercado do mercado.',
        params: ParamsId,
        querystring: ConsultaDoArquivo,
        response: planilhaOuCsv('Os preços do mercado'),
      },
    },
    async (req, reply) => {
      const mercado = await mercadoDaConta(req, reply, req.params.id, 'baixarPrecos');
      if (mercado === null) return reply;
      const r = await relatorioDosPrecosDoMercado(ctx.banco, mercado);
      return enviarRelatorio(reply, r, req.query.formato ?? 'xlsx', nomeDeArquivo('precos', [mercado.nome]));
    },
  );

  app.get(
    '/planilhas/ciclos/:id/entregas',
    {
      config: { guarda: guardaDaAcao('ofertar') },
      schema: {
        summary: 'As entregas do fornecedor no ciclo, como arquivo',
        description:
          'As linhas da própria oferta: ofertado, planejado, pedido em cada mercado e no total, preço e valor pedido. Fornecedor com cadastro na face Cestas.',
        params: ParamsId,
        querystring: ConsultaDoArquivo,
        response: planilhaOuCsv('As entregas do fornecedor no ciclo'),
      },
    },
    async (req, reply) => {
      const conta = contaGuardada(req);
      const ator = await atorDaConta(ctx.banco, conta.usuarioId, { email: conta.email, nome: conta.name });
      autorizarNosCiclos(ator, 'relatoriosFornecedores');
      if (!pode(ator, 'ofertaPropria')) throw new Proibido('SEM_PERMISSAO', 'Só fornecedores entregam');
      const eu = exigirAgirPor(ator, null, 'oferta');
      const r = await relatorioDasEntregasDoFornecedor(ctx.banco, req.params.id, eu);
      return enviarRelatorio(reply, r, req.query.formato ?? 'xlsx', nomeDeArquivo('entregas', [r.subtitulo]));
    },
  );
}
