import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppTipada } from '../../http/app-tipada.ts';
import { MAIOR_ID } from '../../comandos/leitor/comum.ts';
import { idNomeado } from '../../comandos/leitor/palavras.ts';
import { pode, type Acao, type Ator } from '../../domain/acesso.ts';
import { type Pagina, type PedidoDePagina } from '../../domain/registros.ts';
import type { TProperties } from '@sinclair/typebox';
import { comoEntrada, type Entrada } from '../../http/campos.ts';
import { Consulta, parametrosDePagina, pedidoDePagina } from '../../http/consultas.ts';
import { html, type Html } from '../../http/html.ts';
import { atorDe } from '../autenticacao.ts';
import { corpoDaAlteracao, type Comando } from '../../comandos/comando.ts';
import { corpoRecebido, guardarRecebido, mantendoOQueNaoVeio } from '../comandos.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { enviarJson, querJson, redirecionarComAviso, responder } from '../resposta.ts';
import type { Recusa, Redesenho } from '../tipos-fastify.ts';
import { ParamsId, escrita, leitura } from '../esquemas/comum.ts';
import {
  Apagado,
  REGISTROS,
  formulario as FormularioDoRegistro,
  indice as IndiceDeRegistros,
} from '../esquemas/registros.ts';
import { SemCorpo } from '../../http/esquemas.ts';
import { formularioRegistro, indiceRegistros, type CampoForm, type ColunaIndice } from '../views/registros.ts';

/**
 * The `:id` the route's schema validated, for code that serves routes with and without one (the
 * form redraws); null on a route without it.
 */
export function idDaRota(req: FastifyRequest): number | null {
  const params: unknown = req.params;
  if (params === null || typeof params !== 'object' || !('id' in params)) return null;
  return typeof params.id === 'number' ? params.id : null;
}

export type Genero = 'feminino' | 'masculino';

/** "Categoria criada", "Ciclo atualizado": the title and a participle that agrees with it. */
export function concordar(r: { readonly titulo: string; readonly genero: Genero }, participio: string): string {
  return `${r.titulo} ${participio}${r.genero === 'feminino' ? 'a' : 'o'}`;
}

/** What a record type plugs into the standard record routes of the spec. */
export interface Recurso<T extends { readonly id: number }, O = Record<string, never>, D = unknown> {
  readonly prefixo: string;
  readonly titulo: string;
  /** The title's grammatical gender, so a message agrees with it ("Categoria criada", "Ciclo apagado"). */
  readonly genero: Genero;
  readonly tituloPlural: string;
  readonly rotuloNovo: string;
  readonly acessoLer: Acao;
  readonly acessoEscrever: Acao;
  readonly comBusca: boolean;
  readonly ordens: readonly string[];
  readonly ordemPadrao: string;
  /** false when the index has its own handler (the spec's ciclo-index). */
  readonly comIndice: boolean;
  /** The index's filters besides the page's own parameters (`?ativo=`), declared as its query string. */
  readonly filtrosDaConsulta?: TProperties;
  listar(ctx: ContextoCestas, pedido: PedidoDePagina, query: Entrada): Promise<Pagina<T>>;
  filtros?(query: Entrada): Record<string, string>;
  obter(ctx: ContextoCestas, id: number): Promise<T>;
  /** What a save reads: a command (src/comandos), the routes' body, so `criar` and `atualizar` get the command. */
  readonly comando: Comando<D>;
  criar(ctx: ContextoCestas, ator: Ator, dados: D): Promise<T>;
  atualizar(ctx: ContextoCestas, ator: Ator, id: number, dados: D): Promise<T>;
  apagar(ctx: ContextoCestas, ator: Ator, id: number): Promise<void>;
  readonly colunas: readonly ColunaIndice<T>[];
  /** Data the form needs besides the record (choices), also sent in the JSON. */
  opcoes(ctx: ContextoCestas, ator: Ator): Promise<O>;
  campos(opcoes: O, ator: Ator): readonly CampoForm[];
  valoresDe(registro: T): Record<string, unknown>;
  /** The record as its JSON says it, when that differs from the domain's (integer units to decimals). */
  json?(registro: T): object;
  /** Actions of a saved record shown below its form (their own forms), for this actor. */
  depoisDoFormulario?(registro: T, ator: Ator, csrf: string | null): Html | null;
  /** Replaces the standard field list (the cycle form has child tables). */
  formulario?(f: {
    registro: T | null;
    opcoes: O;
    valores: Readonly<Record<string, unknown>>;
    erros: Readonly<Record<string, unknown>>;
    csrf: string | null;
    somenteLeitura: boolean;
    acao: string;
    apagar: string | null;
    geral: string | null;
  }): Html;
  /** Where a browser lands after a save (default: the index); the cycle's own page for a cycle. */
  depoisDeSalvar?(registro: T): string;
}

/**
 * A record's form shows its refusals next to the fields: the validation errors, and the
 * conflicts that name fields (a duplicate name). A refusal about the record as a whole (in use)
 * has no field to sit by, so it gets the error page with its message.
 */
export function errosDeCampo(recusa: Recusa): Readonly<Record<string, unknown>> | null {
  const detalhes = Object.values(recusa.detalhes);
  if (detalhes.length === 0) return null;
  return recusa.status === 400 || detalhes.every((v) => typeof v === 'string') ? recusa.detalhes : null;
}

/** Registers GET /x-index, GET /x, POST /x, GET /x/:id, POST /x/:id and POST /x/delete/:id. */
export function registrarRecurso<T extends { readonly id: number }, O, D>(
  app: AppTipada,
  ctx: ContextoCestas,
  r: Recurso<T, O, D>,
): void {
  const base = `/${r.prefixo}`;
  const paraJson = (registro: T): object => r.json?.(registro) ?? registro;
  const indice = `${base}-index`;
  const esquemas = REGISTROS[r.prefixo];
  if (esquemas === undefined) throw new Error(`registro ${r.prefixo} sem esquema em esquemas/registros.ts`);
  const { registro: Registro } = esquemas;

  /**
   * The command the body schema read into `req.body` (src/http/esquemas.ts). NOTE: Fastify types a
   * body as `[D] extends [undefined] ? unknown : D`, which stays unresolved for this generic D.
   */
  const lido = (corpo: unknown): D => corpo as D;

  const acoesDe = (ator: Ator) => ({ editar: pode(ator, r.acessoEscrever), apagar: pode(ator, r.acessoEscrever) });

  async function formulario(
    req: FastifyRequest,
    reply: FastifyReply,
    registro: T | null,
    valores: Readonly<Record<string, unknown>>,
    erros: Readonly<Record<string, unknown>>,
    status = 200,
    geral: string | null = null,
  ) {
    const ator = atorDe(req);
    const opcoes = await r.opcoes(ctx, ator);
    const acoes = acoesDe(ator);
    const somenteLeitura = !acoes.editar;
    const acao = registro === null ? base : `${base}/${registro.id}`;
    const apagar = registro !== null && acoes.apagar ? `${base}/delete/${registro.id}` : null;
    const csrf = req.sessao?.csrf ?? null;
    return responder(req, reply, {
      titulo: registro === null ? r.rotuloNovo : `${r.titulo}: ${String(valores.nome ?? registro.id)}`,
      status,
      dados: { registro: registro === null ? null : paraJson(registro), opcoes, acoes },
      corpo: () => {
        const form =
          r.formulario?.({ registro, opcoes, valores, erros, csrf, somenteLeitura, acao, apagar, geral }) ??
          formularioRegistro({
            acao,
            campos: r.campos(opcoes, ator),
            valores,
            erros,
            csrf,
            somenteLeitura,
            apagar,
            voltar: indice,
            geral,
          });
        const depois = registro === null ? null : (r.depoisDoFormulario?.(registro, ator, csrf) ?? null);
        return depois === null ? form : html`${form}${depois}`;
      },
    });
  }

  async function salvar(req: FastifyRequest, reply: FastifyReply, registro: T | null, escrever: () => Promise<T>) {
    const salvo = await escrever();
    if (querJson(req)) {
      return enviarJson(
        reply,
        paraJson(salvo),
        concordar(r, registro === null ? 'criad' : 'atualizad'),
        registro === null ? 201 : 200,
      );
    }
    return redirecionarComAviso(
      reply,
      r.depoisDeSalvar?.(salvo) ?? indice,
      `${concordar(r, registro === null ? 'criad' : 'atualizad')}.`,
    );
  }

  /**
   * The form again, with what was typed and the errors by its fields (the record re-read for an
   * edit). A refusal of the record as a whole (in use, closed) is said over the form: no dead end.
   */
  const redesenhar: Redesenho = async (req, reply, recusa) => {
    const erros = errosDeCampo(recusa);
    const id = idDaRota(req);
    const registro = id === null ? null : await r.obter(ctx, id);
    const geral = erros === null || recusa.status !== 400 ? recusa.mensagem : null;
    return formulario(req, reply, registro, comoEntrada(corpoRecebido(req)), erros ?? {}, recusa.status, geral);
  };

  if (r.comIndice) {
    const consulta = Consulta({ ...parametrosDePagina(r.ordens), ...r.filtrosDaConsulta });
    app.get(
      indice,
      {
        config: { acesso: r.acessoLer },
        schema: { querystring: consulta, response: leitura(IndiceDeRegistros(Registro)) },
      },
      async (req, reply) => {
        const query: Entrada = req.query;
        const pedido = pedidoDePagina(req.query, { ordem: r.ordemPadrao });
        const pagina = await r.listar(ctx, pedido, query);
        const ator = atorDe(req);
        const acoes = acoesDe(ator);
        return responder(req, reply, {
          titulo: r.tituloPlural,
          dados: {
            ...pagina,
            itens: pagina.itens.map((i) => ({ ...paraJson(i), acoes })),
            acoes: { criar: acoes.editar },
          },
          corpo: () =>
            indiceRegistros({
              base: indice,
              pagina,
              colunas: r.colunas,
              linkDe: (i) => `${base}/${i.id}`,
              novo: acoes.editar ? base : null,
              rotuloNovo: r.rotuloNovo,
              comBusca: r.comBusca,
              filtros: r.filtros?.(query) ?? {},
            }),
        });
      },
    );
  }

  app.get(
    base,
    { config: { acesso: r.acessoEscrever }, schema: { response: leitura(FormularioDoRegistro(Registro)) } },
    (req, reply) => formulario(req, reply, null, { ativo: true }, {}),
  );

  app.post(
    base,
    {
      config: { acesso: r.acessoEscrever, redesenhar },
      preValidation: guardarRecebido,
      schema: { body: r.comando.corpo, response: escrita(Registro, { cria: true }) },
    },
    (req, reply) => salvar(req, reply, null, () => r.criar(ctx, atorDe(req), lido(req.body))),
  );

  app.get(
    `${base}/:id`,
    {
      config: { acesso: r.acessoLer },
      schema: { params: ParamsId, response: leitura(FormularioDoRegistro(Registro)) },
    },
    async (req, reply) => {
      const { id } = req.params;
      const registro = await r.obter(ctx, id);
      return formulario(req, reply, registro, r.valoresDe(registro), {});
    },
  );

  /** The record a save names, before its body is read: 404 for none, and what a JSON save leaves out is kept. */
  const registroPrimeiro = async (req: FastifyRequest): Promise<void> => {
    await guardarRecebido(req);
    // The params are not validated yet: an id out of range is left to their validation (400).
    const params: unknown = req.params;
    const id = params !== null && typeof params === 'object' && 'id' in params ? idNomeado(params.id) : null;
    if (id !== null && id >= 1 && id <= MAIOR_ID) mantendoOQueNaoVeio(req, r.comando, paraJson(await r.obter(ctx, id)));
  };

  app.post(
    `${base}/:id`,
    {
      config: { acesso: r.acessoEscrever, redesenhar },
      preValidation: registroPrimeiro,
      schema: { params: ParamsId, body: corpoDaAlteracao(r.comando), response: escrita(Registro) },
    },
    async (req, reply) => {
      const { id } = req.params;
      const registro = await r.obter(ctx, id);
      return salvar(req, reply, registro, () => r.atualizar(ctx, atorDe(req), id, lido(req.body)));
    },
  );

  app.post(
    `${base}/delete/:id`,
    { config: { acesso: r.acessoEscrever }, schema: { params: ParamsId, body: SemCorpo, response: escrita(Apagado) } },
    async (req, reply) => {
      const { id } = req.params;
      await r.apagar(ctx, atorDe(req), id);
      if (querJson(req)) return enviarJson(reply, { id }, concordar(r, 'apagad'));
      return redirecionarComAviso(reply, indice, `${concordar(r, 'apagad')}.`);
    },
  );
}
