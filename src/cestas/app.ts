import { randomUUID } from 'node:crypto';
import { enderecoDaFace } from '../http/endereco.ts';
import { readFileSync } from 'node:fs';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance } from 'fastify';
import qs from 'qs';
import type { Config } from '../config.ts';
import type { Banco } from '../db/banco.ts';
import { ErroDominio } from '../domain/erros.ts';
import { limitadorNoBanco, type Limitador } from '../db/limites.ts';
import { VitrineDosCiclos } from './vitrine.ts';
import type { Relogio } from '../domain/tempo.ts';
import { Cofre } from '../http/cofre.ts';
import { PROPOSITO_SESSAO_CESTAS } from '../http/sessoes-das-faces.ts';
import { exigirRegraDeAcesso, registrarCabecalhos } from '../http/protecoes.ts';
import { falhaDe, respostaDeErroDoCliente } from '../http/erros.ts';
import { opcoesDeLog } from '../http/log.ts';
import { arquivoEstatico, compiladoresQuandoUsados, validarCorposSemCoercao } from '../http/esquemas.ts';
import { enviarEstatico, prepararEstatico, type ArquivoEstatico } from '../http/estaticos.ts';
import { registrarOpenApi, rotasDaDocumentacao } from '../http/openapi.ts';
import { registrarOperacao } from '../http/operacao.ts';
import { ganchoCsrf, ganchoDeAcesso } from './autenticacao.ts';
import type { ContextoCestas } from './contexto-cestas.ts';
import { digitadoPorPessoas } from './entrada.ts';
import { criarClienteOidc } from './oidc.ts';
import { querJson, responder } from './resposta.ts';
import { categoria, cesta, ciclo, pontoentrega, produto, usuario } from './recursos.ts';
import { rotasAvisos } from './rotas/avisos.ts';
import { rotasMercadosDoCiclo } from './rotas/mercados-do-ciclo.ts';
import { rotasCadastro } from './rotas/cadastro.ts';
import { rotasCiclos } from './rotas/ciclos.ts';
import { rotasComposicao } from './rotas/composicao.ts';
import { rotasFinanceiro } from './rotas/financeiro.ts';
import { rotasPix } from './rotas/pix.ts';
import { rotasPagamentoDeAssinaturas } from './rotas/assinaturas-pagamento.ts';
import { rotasInformacoes } from './rotas/informacoes.ts';
import { rotasOfertas } from './rotas/ofertas.ts';
import { rotasPedidos } from './rotas/pedidos.ts';
import { rotasAssinaturas } from './rotas/assinaturas.ts';
import { rotasRelatorios } from './rotas/relatorios.ts';
import { rotasRetirada } from './rotas/retirada.ts';
import { registrarRecurso } from './rotas/registros.ts';
import { rotasLogin } from './rotas/login.ts';
import { rotasPainel } from './rotas/painel.ts';
import './tipos-fastify.ts';
import { paginaErro } from './views/paginas.ts';
import { semAvisos, type ServicoDeAvisos } from '../mensagens/servico.ts';

export const LIMITE_CORPO = 1024 * 1024;

export interface DependenciasCestas {
  readonly config: Config;
  readonly banco: Banco;
  readonly relogio: Relogio;
  /** The OpenID provider this face logs in with. */
  readonly provedor: { readonly issuer: string; readonly clientId: string; readonly clientSecret: string };
  /** Extra image origins for the CSP (the provider's avatars). */
  readonly origensDeImagem?: readonly string[];
  /** Where login attempts are counted; the database unless REDIS_URL gave another. */
  readonly limitador?: Limitador;
  /** The e-mail service, built once in src/servicos.ts and shared with the Mercados face; absent: e-mail is off. */
  readonly avisos?: ServicoDeAvisos;
  /** The Mercados face's public address, when it runs beside this one: the pages link to it. */
  readonly enderecoMercados?: () => string | null;
}

/** The files under /static/, with their brotli and gzip variants (made at the first request that wants each). */
const ESTATICOS: Readonly<Record<string, ArquivoEstatico>> = Object.fromEntries(
  (
    [
      ['estilo.css', 'text/css; charset=utf-8'],
      ['ciclo.js', 'text/javascript; charset=utf-8'],
      ['formularios.js', 'text/javascript; charset=utf-8'],
      ['pix.js', 'text/javascript; charset=utf-8'],
      ['retirada.js', 'text/javascript; charset=utf-8'],
      ['icone.svg', 'image/svg+xml'],
    ] as const
  ).map(([nome, tipo]) => [nome, prepararEstatico(tipo, readFileSync(new URL(`./static/${nome}`, import.meta.url)))]),
);

/** Builds the Cestas face (Variant A) without listening, so tests can inject requests. */
export async function criarAppCestas(dep: DependenciasCestas): Promise<FastifyInstance> {
  const { config } = dep;
  const app = Fastify({
    logger: opcoesDeLog(config, 'cestas'),
    genReqId: () => randomUUID(),
    bodyLimit: LIMITE_CORPO,
    schemaController: compiladoresQuandoUsados,
    trustProxy: config.proxiesConfiaveis.length > 0 ? [...config.proxiesConfiaveis] : false,
    clientErrorHandler: respostaDeErroDoCliente,
  }).withTypeProvider<TypeBoxTypeProvider>();

  const baseUrl = enderecoDaFace(app.server, config.cestasBaseUrl, config.cestasPort);
  const ctx: ContextoCestas = {
    config,
    banco: dep.banco,
    relogio: dep.relogio,
    baseUrl,
    cookiesSeguros: config.producao,
    cofreSessao: new Cofre(config.appSessionSecret, PROPOSITO_SESSAO_CESTAS),
    cofreVerificacao: new Cofre(config.appSessionSecret, 'auth_verification'),
    oidc: criarClienteOidc({ ...dep.provedor, redirectUri: () => `${baseUrl()}/callback` }),
    limitador: dep.limitador ?? limitadorNoBanco(dep.banco),
    vitrine: new VitrineDosCiclos(),
    correio: dep.avisos ?? semAvisos,
  };
  app.decorate('correio', ctx.correio);
  app.decorate('enderecoMercados', dep.enderecoMercados ?? (() => null));

  // 1. External plugins. Bodies are JSON or forms only: anything else gets 415.
  app.removeContentTypeParser('text/plain');
  // Every cookie this face sets (session, login check, one-time message) is Secure in production.
  await app.register(cookie, {
    secret: config.appSessionSecret,
    parseOptions: { secure: config.producao, httpOnly: true, sameSite: 'lax', path: '/' },
  });
  await app.register(formbody, {
    bodyLimit: LIMITE_CORPO,
    parser: (corpo: string) =>
      digitadoPorPessoas(qs.parse(corpo, { allowPrototypes: false, depth: 5, arrayLimit: 500, parameterLimit: 2000 })),
  });
  // "Sair" posts to /logout, which redirects to the provider's sign-out page: form-action must allow it.
  const origemDoProvedor = URL.parse(dep.provedor.issuer)?.origin;
  await registrarCabecalhos(app, {
    producao: config.producao,
    origensDeImagem: dep.origensDeImagem ?? [],
    destinosDeFormulario: origemDoProvedor === undefined ? [] : [origemDoProvedor],
  });

  await registrarOpenApi(app, {
    titulo: 'Cestaria: Cestas',
    descricao:
      'Pedidos de cestas por ciclo. Cada página responde HTML aos navegadores e o envelope {success, data, message} a quem pede JSON.',
  });

  // 2. App capabilities: decorations, access rules, errors.
  app.decorateRequest('sessao', null);
  app.decorateRequest('ator', null);
  app.decorateRequest('flash', null);
  exigirRegraDeAcesso(app, 'acesso');
  validarCorposSemCoercao(app);
  app.addHook('onRequest', ganchoDeAcesso(ctx));
  app.addHook('preHandler', ganchoCsrf(ctx));

  app.setErrorHandler(async (erro, req, reply) => {
    const falha = falhaDe(erro);
    const interno = falha.codigo === 'ERRO_INTERNO';
    if (interno) req.log.error({ err: erro }, 'erro interno');
    else req.log.info({ codigo: falha.codigo, status: falha.status }, falha.mensagem);
    const mensagem = interno ? `Erro interno. Informe o código ${req.id} à coordenação.` : falha.mensagem;
    // A browser's form refused for what was typed (400) or for the state it met (409) comes back
    // as its page, when the route knows how to draw it again.
    const redesenhar = req.routeOptions.config.redesenhar;
    if (
      redesenhar !== undefined &&
      !querJson(req) &&
      erro instanceof ErroDominio &&
      (falha.status === 400 || falha.status === 409)
    ) {
      try {
        const pagina = await redesenhar(req, reply, {
          status: falha.status,
          mensagem: falha.mensagem,
          detalhes: falha.detalhes ?? {},
        });
        if (pagina !== null) return pagina;
      } catch (outro) {
        // The page itself could not be drawn (its cycle is gone, say): the refusal's own page says why.
        req.log.info({ err: outro }, 'formulário recusado sem página para redesenhar');
      }
    }
    reply.code(falha.status);
    if (querJson(req)) {
      return reply.send({
        success: false,
        error: mensagem,
        ...(falha.detalhes === undefined ? {} : { details: falha.detalhes }),
        ...(interno ? { requestId: req.id } : {}),
      });
    }
    const titulo =
      falha.status === 401
        ? 'Entre para continuar'
        : falha.status === 403
          ? 'Acesso negado'
          : 'Não foi possível concluir';
    return responder(req, reply, {
      titulo,
      status: falha.status,
      dados: null,
      corpo: () =>
        paginaErro(mensagem, { ...(interno ? { codigoRequisicao: req.id } : {}), detalhes: falha.detalhes ?? {} }),
    });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.code(404);
    if (querJson(req)) return reply.send({ success: false, error: 'Página ou registro não encontrado' });
    return responder(req, reply, {
      titulo: 'Página não encontrada',
      status: 404,
      dados: null,
      corpo: () => paginaErro('Não encontramos o endereço pedido.', {}),
    });
  });

  // 3. Routes.
  registrarOperacao(app, {
    face: 'cestas',
    banco: dep.banco,
    relogio: dep.relogio,
    metricsToken: config.metricsToken,
    rotaPublica: { acesso: 'publico' },
    corpoDeErro: (mensagem) => ({ success: false, error: mensagem }),
    emailDesligado:
      !ctx.correio.ligado && config.producao
        ? 'E-mail desligado: sem SMTP_URL, recibos e lembretes não são enviados.'
        : null,
  });
  for (const [nome, arquivo] of Object.entries(ESTATICOS)) {
    app.get(
      `/static/${nome}`,
      { config: { acesso: 'publico' }, schema: { hide: true, response: arquivoEstatico(arquivo.tipo, nome) } },
      (req, reply) => enviarEstatico(req, reply, arquivo, 'public, max-age=3600'),
    );
  }
  // The layout links /static/icone.svg; browsers still ask for /favicon.ico where there is no
  // layout (a JSON answer, a PDF), and a 404 there would show as an error in their console.
  app.get(
    '/favicon.ico',
    { config: { acesso: 'publico' }, schema: { hide: true, response: arquivoEstatico('image/svg+xml', 'O ícone') } },
    (req, reply) => {
      const icone = ESTATICOS['icone.svg'];
      return icone === undefined ? reply.callNotFound() : enviarEstatico(req, reply, icone, 'public, max-age=86400');
    },
  );
  rotasLogin(app, ctx);
  rotasPainel(app, ctx);
  rotasCadastro(app, ctx);
  rotasCiclos(app, ctx);
  registrarRecurso(app, ctx, categoria);
  registrarRecurso(app, ctx, cesta);
  registrarRecurso(app, ctx, produto);
  registrarRecurso(app, ctx, pontoentrega);
  registrarRecurso(app, ctx, usuario);
  registrarRecurso(app, ctx, ciclo);
  rotasInformacoes(app, ctx);
  rotasOfertas(app, ctx);
  rotasComposicao(app, ctx);
  rotasPedidos(app, ctx);
  rotasAssinaturas(app, ctx);
  rotasFinanceiro(app, ctx);
  rotasPix(app, ctx);
  rotasPagamentoDeAssinaturas(app, ctx);
  rotasRelatorios(app, ctx);
  rotasAvisos(app, ctx);
  rotasMercadosDoCiclo(app, ctx);
  rotasRetirada(app, ctx);
  rotasDaDocumentacao(app, { producao: config.producao, titulo: 'Cestaria: Cestas', config: { acesso: 'publico' } });

  return app;
}
