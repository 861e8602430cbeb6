import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Invalido } from '../../domain/erros.ts';
import { atualizarProprioCadastro, autoCadastrar, usuarioPorEmail, type Usuario } from '../../domain/usuarios.ts';
import { comoEntrada } from '../../domain/validacao.ts';
import type { ContextoCestas } from '../contexto.ts';
import { enviarJson, querJson, redirecionarComAviso, responder } from '../resposta.ts';
import { formularioCadastro, paginaPerfil, valoresDoUsuario } from '../views/paginas.ts';
import { ParamsId } from './registros.ts';


function sessaoDe(req: FastifyRequest) {
  if (req.sessao === null || req.ator === null) throw new Error('rota de cadastro sem sessão: a regra de acesso não rodou');
  return { identidade: req.sessao.identidade, ator: req.ator, csrf: req.sessao.csrf };
}

/** Self-registration (/usuarionovo) and one's own profile (/profile). */
export function rotasCadastro(app: FastifyInstance, ctx: ContextoCestas): void {
  const acesso = { config: { acesso: 'identidade' as const } };

  function formCadastro(req: FastifyRequest, reply: FastifyReply, usuario: Usuario | null, valores: Record<string, unknown>, erros: Readonly<Record<string, unknown>>, status = 200) {
    const { identidade, csrf } = sessaoDe(req);
    return responder(req, reply, {
      titulo: usuario === null ? 'Complete seu cadastro' : 'Seu cadastro',
      status,
      dados: { identidade, usuario },
      corpo: () =>
        formularioCadastro({
          identidade, usuario, valores, erros, csrf, comPerfis: true,
          acao: usuario === null ? '/usuarionovo' : `/usuarionovo/${usuario.id}`,
        }),
    });
  }

  function formPerfil(req: FastifyRequest, reply: FastifyReply, usuario: Usuario | null, valores: Record<string, unknown>, erros: Readonly<Record<string, unknown>>, status = 200) {
    const { identidade, csrf } = sessaoDe(req);
    return responder(req, reply, {
      titulo: 'Meu perfil',
      status,
      dados: { identidade, usuario },
      corpo: () =>
        paginaPerfil(identidade, usuario, formularioCadastro({ identidade, usuario, valores, erros, csrf, comPerfis: false, acao: '/profile' }), csrf),
    });
  }

  /** Browser form posts with validation errors re-render the form, keeping what was typed. */
  async function salvar(
    req: FastifyRequest,
    reply: FastifyReply,
    acao: () => Promise<Usuario>,
    reexibir: (valores: Record<string, unknown>, erros: Readonly<Record<string, unknown>>) => FastifyReply,
    sucesso: { status: number; mensagem: string; destino: string },
  ) {
    try {
      const usuario = await acao();
      if (querJson(req)) return enviarJson(reply, usuario, sucesso.mensagem, sucesso.status);
      return redirecionarComAviso(reply, sucesso.destino, sucesso.mensagem);
    } catch (e) {
      if (e instanceof Invalido && !querJson(req)) return reexibir({ ...comoEntrada(req.body) }, e.detalhes ?? {});
      throw e;
    }
  }

  app.get('/usuarionovo', acesso, async (req, reply) => {
    const { identidade } = sessaoDe(req);
    const usuario = (await usuarioPorEmail(ctx.banco, identidade.email)) ?? null;
    return formCadastro(req, reply, usuario, valoresDoUsuario(identidade, usuario), {});
  });

  app.post('/usuarionovo', acesso, (req, reply) => {
    const { identidade } = sessaoDe(req);
    return salvar(
      req, reply,
      () => autoCadastrar(ctx.banco, identidade, comoEntrada(req.body), { agora: ctx.relogio.agora(), adminEmails: ctx.config.adminEmails }),
      (valores, erros) => formCadastro(req, reply, null, valores, erros, 400),
      { status: 201, mensagem: 'Cadastro concluído. Boas-vindas!', destino: '/' },
    );
  });

  app.post('/usuarionovo/:id', { ...acesso, schema: { params: ParamsId } }, async (req, reply) => {
    const { ator } = sessaoDe(req);
    const { id } = req.params as { id: number };
    const entrada = comoEntrada(req.body);
    const atual = ator.usuarioid === id ? ((await usuarioPorEmail(ctx.banco, ator.email)) ?? null) : null;
    return salvar(
      req, reply,
      () => atualizarProprioCadastro(ctx.banco, ator, id, entrada, { agora: ctx.relogio.agora(), comPerfis: true }),
      (valores, erros) => formCadastro(req, reply, atual, valores, erros, 400),
      { status: 200, mensagem: 'Cadastro atualizado', destino: '/' },
    );
  });

  app.get('/profile', acesso, async (req, reply) => {
    const { identidade } = sessaoDe(req);
    const usuario = (await usuarioPorEmail(ctx.banco, identidade.email)) ?? null;
    return formPerfil(req, reply, usuario, valoresDoUsuario(identidade, usuario), {});
  });

  app.post('/profile', acesso, async (req, reply) => {
    const { ator, identidade } = sessaoDe(req);
    const usuario = (await usuarioPorEmail(ctx.banco, identidade.email)) ?? null;
    return salvar(
      req, reply,
      () => atualizarProprioCadastro(ctx.banco, ator, ator.usuarioid ?? 0, comoEntrada(req.body), { agora: ctx.relogio.agora(), comPerfis: false }),
      (valores, erros) => formPerfil(req, reply, usuario, valores, erros, 400),
      { status: 200, mensagem: 'Perfil atualizado', destino: '/profile' },
    );
  });
}
