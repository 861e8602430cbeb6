import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppTipada } from '../../http/app-tipada.ts';
import {
  atualizarProprioCadastro,
  autoCadastrar,
  chaveDeEmail,
  exigirProprioCadastro,
  usuarioPorEmail,
  type Usuario,
} from '../../domain/usuarios.ts';
import { AtualizarCadastro, AtualizarPerfil, Autocadastro } from '../../comandos/cadastro.ts';
import { corpoDaAlteracao, type Comando } from '../../comandos/comando.ts';
import { MAIOR_ID } from '../../comandos/leitor/comum.ts';
import { idNomeado } from '../../comandos/leitor/palavras.ts';
import { PERFIS_AUTOCADASTRO } from '../../domain/perfis.ts';
import { escolhaSugeridaNoCadastro } from '../../domain/pessoas.ts';
import { comoEntrada } from '../../http/campos.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { corpoRecebido, guardarRecebido, mantendoOQueNaoVeio } from '../comandos.ts';
import { enviarJson, querJson, redirecionarComAviso, responder } from '../resposta.ts';
import { formularioCadastro, paginaPerfil, valoresDoUsuario } from '../views/paginas.ts';
import type { Redesenho } from '../tipos-fastify.ts';
import { errosDeCampo, idDaRota } from './registros.ts';
import { ParamsId, escrita, leitura } from '../esquemas/comum.ts';
import { Cadastro } from '../esquemas/painel-e-relatorios.ts';
import { UsuarioJson } from '../esquemas/registros.ts';

function sessaoDe(req: FastifyRequest) {
  if (req.sessao === null || req.ator === null)
    throw new Error('rota de cadastro sem sessão: a regra de acesso não rodou');
  return { identidade: req.sessao.identidade, ator: req.ator, csrf: req.sessao.csrf };
}

/** Self-registration (/usuarionovo) and one's own profile (/profile). */
export function rotasCadastro(app: AppTipada, ctx: ContextoCestas): void {
  const acesso = { config: { acesso: 'identidade' as const } };

  function formCadastro(
    req: FastifyRequest,
    reply: FastifyReply,
    usuario: Usuario | null,
    valores: Record<string, unknown>,
    erros: Readonly<Record<string, unknown>>,
    status = 200,
  ) {
    const { identidade, csrf } = sessaoDe(req);
    return responder(req, reply, {
      titulo: usuario === null ? 'Complete seu cadastro' : 'Seu cadastro',
      status,
      dados: { identidade, usuario },
      corpo: () =>
        formularioCadastro({
          identidade,
          usuario,
          valores,
          erros,
          csrf,
          comPerfis: true,
          acao: usuario === null ? '/usuarionovo' : `/usuarionovo/${usuario.id}`,
        }),
    });
  }

  function formPerfil(
    req: FastifyRequest,
    reply: FastifyReply,
    usuario: Usuario | null,
    valores: Record<string, unknown>,
    erros: Readonly<Record<string, unknown>>,
    status = 200,
  ) {
    const { identidade, csrf } = sessaoDe(req);
    return responder(req, reply, {
      titulo: 'Meu perfil',
      status,
      dados: { identidade, usuario },
      corpo: () =>
        paginaPerfil(
          identidade,
          usuario,
          formularioCadastro({ identidade, usuario, valores, erros, csrf, comPerfis: false, acao: '/profile' }),
          csrf,
        ),
    });
  }

  async function salvar(
    req: FastifyRequest,
    reply: FastifyReply,
    acao: () => Promise<Usuario>,
    sucesso: { status: number; mensagem: string; destino: string },
  ) {
    const usuario = await acao();
    if (querJson(req)) return enviarJson(reply, usuario, sucesso.mensagem, sucesso.status);
    return redirecionarComAviso(reply, sucesso.destino, sucesso.mensagem);
  }

  /** A refused form comes back with what was typed and each field's error (`errosDeCampo`). */
  const redesenhar =
    (
      desenhar: (
        req: FastifyRequest,
        reply: FastifyReply,
        valores: Record<string, unknown>,
        erros: Readonly<Record<string, unknown>>,
        status: number,
      ) => Promise<FastifyReply>,
    ): Redesenho =>
    async (req, reply, recusa) => {
      const erros = errosDeCampo(recusa);
      return erros === null ? null : desenhar(req, reply, { ...comoEntrada(corpoRecebido(req)) }, erros, recusa.status);
    };

  /**
   * Whose record it is, before any field is judged (the route's preValidation, so `:id` is still as
   * sent: one that is no id is left to the params' schema). The body as sent is kept for a redraw.
   */
  /** Only one's own record, checked first; then what a JSON save leaves out is kept (`mantendoOQueNaoVeio`). */
  const proprioPrimeiro =
    (comando: Comando<unknown>) =>
    async (req: FastifyRequest): Promise<void> => {
      await guardarRecebido(req);
      const { ator } = sessaoDe(req);
      const params: unknown = req.params;
      if (params === null || typeof params !== 'object' || !('id' in params))
        exigirProprioCadastro(ator, ator.usuarioid ?? 0);
      else {
        const id = idNomeado(params.id);
        if (id !== null && id >= 1 && id <= MAIOR_ID) exigirProprioCadastro(ator, id);
      }
      const registro = await proprio(req);
      // Of one's perfis, a save chooses again only those one may choose (the others stay, by the domain's rule).
      const escolhidos = registro?.perfil.filter((p) => (PERFIS_AUTOCADASTRO as readonly string[]).includes(p));
      if (registro !== null) mantendoOQueNaoVeio(req, comando, { ...registro, perfil: escolhidos });
    };
  /** The record of the one signed in: by the login's e-mail on /profile, by the id on /usuarionovo/:id. */
  const proprio = async (req: FastifyRequest): Promise<Usuario | null> => {
    const { ator, identidade } = sessaoDe(req);
    const id = idDaRota(req);
    if (id === null) return (await usuarioPorEmail(ctx.banco, identidade.email)) ?? null;
    return ator.usuarioid === id ? ((await usuarioPorEmail(ctx.banco, ator.email)) ?? null) : null;
  };

  app.get('/usuarionovo', { ...acesso, schema: { response: leitura(Cadastro) } }, async (req, reply) => {
    const { identidade } = sessaoDe(req);
    const usuario = (await usuarioPorEmail(ctx.banco, identidade.email)) ?? null;
    const valores = valoresDoUsuario(identidade, usuario);
    // Someone who already uses the Mercados face finds their roles from there already checked.
    const sugeridos =
      usuario === null ? await escolhaSugeridaNoCadastro(ctx.banco, chaveDeEmail(identidade.email)) : [];
    return formCadastro(req, reply, usuario, sugeridos.length > 0 ? { ...valores, perfil: sugeridos } : valores, {});
  });

  app.post(
    '/usuarionovo',
    {
      config: {
        ...acesso.config,
        redesenhar: redesenhar(async (req, reply, v, e, s) => formCadastro(req, reply, null, v, e, s)),
      },
      preValidation: guardarRecebido,
      schema: { body: Autocadastro.corpo, response: escrita(UsuarioJson, { cria: true }) },
    },
    (req, reply) => {
      const { identidade } = sessaoDe(req);
      return salvar(
        req,
        reply,
        () =>
          autoCadastrar(ctx.banco, identidade, req.body, {
            agora: ctx.relogio.agora(),
            adminEmails: ctx.config.adminEmails,
          }),
        { status: 201, mensagem: 'Cadastro concluído. Boas-vindas!', destino: '/' },
      );
    },
  );

  app.post(
    '/usuarionovo/:id',
    {
      config: {
        ...acesso.config,
        redesenhar: redesenhar(async (req, reply, v, e, s) => formCadastro(req, reply, await proprio(req), v, e, s)),
      },
      // Only one's own record: checked before the body is read.
      preValidation: proprioPrimeiro(AtualizarCadastro),
      schema: { params: ParamsId, body: corpoDaAlteracao(AtualizarCadastro), response: escrita(UsuarioJson) },
    },
    async (req, reply) => {
      const { ator } = sessaoDe(req);
      const { id } = req.params;
      return salvar(req, reply, () => atualizarProprioCadastro(ctx.banco, ator, id, req.body, ctx.relogio.agora()), {
        status: 200,
        mensagem: 'Cadastro atualizado',
        destino: '/',
      });
    },
  );

  app.get('/profile', { ...acesso, schema: { response: leitura(Cadastro) } }, async (req, reply) => {
    const { identidade } = sessaoDe(req);
    const usuario = (await usuarioPorEmail(ctx.banco, identidade.email)) ?? null;
    return formPerfil(req, reply, usuario, valoresDoUsuario(identidade, usuario), {});
  });

  app.post(
    '/profile',
    {
      config: {
        ...acesso.config,
        redesenhar: redesenhar(async (req, reply, v, e, s) => formPerfil(req, reply, await proprio(req), v, e, s)),
      },
      preValidation: proprioPrimeiro(AtualizarPerfil),
      schema: { body: corpoDaAlteracao(AtualizarPerfil), response: escrita(UsuarioJson) },
    },
    async (req, reply) => {
      const { ator } = sessaoDe(req);
      const id = ator.usuarioid ?? 0;
      return salvar(req, reply, () => atualizarProprioCadastro(ctx.banco, ator, id, req.body, ctx.relogio.agora()), {
        status: 200,
        mensagem: 'Perfil atualizado',
        destino: '/profile',
      });
    },
  );
}
