import { pode, type Ator } from '../domain/acesso.ts';
import {
  UNIDADES,
  apagarCatalogo,
  atualizarCatalogo,
  criarCatalogo,
  definicao,
  listarCatalogo,
  obterCatalogo,
  opcoesDeCategoria,
  type Categoria,
  type Cesta,
  type DadosCatalogo,
  type EntidadeCatalogo,
  type FiltroCatalogo,
  type PontoEntrega,
  type Produto,
  type RegistroCatalogo,
} from '../domain/catalogo.ts';
import { SalvarCiclo } from '../comandos/ciclo.ts';
import { apagarCiclo, salvarCiclo } from '../domain/ciclos/gravacao.ts';
import { ORDENS_CICLO, obterCiclo } from '../domain/ciclos/leitura.ts';
import type { Ciclo, CicloLido } from '../domain/ciclos/modelo.ts';
import { NOMES_PERFIS, PERFIS } from '../domain/perfis.ts';
import { diaLocal } from '../domain/tempo.ts';
import {
  ORDENS_USUARIO,
  apagarUsuario,
  atualizarUsuario,
  criarUsuario,
  listarUsuarios,
  obterUsuario,
  type EntradaUsuario,
  type Usuario,
} from '../domain/usuarios.ts';
import { Campos, MAIOR_ID, type Entrada } from '../http/campos.ts';
import { SALVAR_NO_CATALOGO } from '../comandos/registros.ts';
import { SalvarUsuario } from '../comandos/cadastro.ts';
import { NaConsulta } from '../http/consultas.ts';
import type { ContextoCestas } from './contexto-cestas.ts';
import type { Genero, Recurso } from './rotas/registros.ts';
import { formularioCiclo, type OpcoesCiclo } from './views/ciclo.ts';
import { formularioLiberarLogin, simNao, type CampoForm } from './views/registros.ts';
import { paraCampo } from './views/fluxo.ts';
import { cestaJson, cicloJson, produtoJson } from './apresentadores/registros.ts';
import { reais } from '../formatos.ts';

function hoje(ctx: ContextoCestas): string {
  return diaLocal(ctx.relogio.agora(), ctx.config.tz);
}

/** ?ativo=true|false and ?categoriaid=N, ignored when malformed (a list filter is never an error). */
function filtroDaQuery(query: Entrada): FiltroCatalogo {
  const c = new Campos(query);
  const ativo = c.presente('ativo') ? c.booleano('ativo') : undefined;
  const categoriaid = c.inteiro('categoriaid', { min: 1, max: MAIOR_ID }) ?? undefined;
  return Object.keys(c.erros).length > 0 ? {} : { ativo, categoriaid };
}

/** The filters as the index's query string declares them: text, since a malformed one is ignored, not refused. */
const FILTROS_DO_CATALOGO = {
  ativo: NaConsulta.texto('Só os ativos (true) ou os inativos (false); outro valor não filtra', 10),
  categoriaid: NaConsulta.texto('Só os desta categoria (o id); outro valor não filtra', 20),
};

function filtrosVisiveis(query: Entrada): Record<string, string> {
  const f = filtroDaQuery(query);
  return {
    ...(f.ativo === undefined ? {} : { ativo: String(f.ativo) }),
    ...(f.categoriaid === undefined ? {} : { categoriaid: String(f.categoriaid) }),
  };
}

const CAMPO_ATIVO: CampoForm = {
  nome: 'ativo',
  rotulo: 'Ativo',
  tipo: 'booleano',
  ajuda: 'Registros inativos não aparecem para novas escolhas.',
};

function recursoDeCatalogo<E extends EntidadeCatalogo, O>(
  entidade: E,
  textos: { titulo: string; genero: Genero; tituloPlural: string; rotuloNovo: string },
  partes: Pick<Recurso<RegistroCatalogo[E], O>, 'colunas' | 'campos' | 'valoresDe' | 'opcoes' | 'json'>,
): Recurso<RegistroCatalogo[E], O, DadosCatalogo[E]> {
  const def = definicao(entidade);
  const agora = (ctx: ContextoCestas) => ctx.relogio.agora();
  return {
    prefixo: entidade,
    ...textos,
    acessoLer: 'catalogoLer',
    acessoEscrever: 'catalogoEscrever',
    comBusca: true,
    comIndice: true,
    ordens: def.ordens,
    ordemPadrao: 'nome',
    filtrosDaConsulta: FILTROS_DO_CATALOGO,
    listar: (ctx, pedido, query) => listarCatalogo(ctx.banco, entidade, pedido, filtroDaQuery(query)),
    filtros: filtrosVisiveis,
    obter: (ctx, id) => obterCatalogo(ctx.banco, entidade, id),
    comando: SALVAR_NO_CATALOGO[entidade],
    criar: (ctx, ator, dados) => criarCatalogo(ctx.banco, ator, entidade, dados, agora(ctx)),
    atualizar: (ctx, ator, id, dados) => atualizarCatalogo(ctx.banco, ator, entidade, id, dados, agora(ctx)),
    apagar: (ctx, ator, id) => apagarCatalogo(ctx.banco, ator, entidade, id, agora(ctx)),
    ...partes,
  };
}

const semOpcoes = () => Promise.resolve({});

export const categoria = recursoDeCatalogo(
  'categoria',
  { titulo: 'Categoria', genero: 'feminino', tituloPlural: 'Categorias', rotuloNovo: 'Nova categoria' },
  {
    colunas: [
      { titulo: 'Nome', valor: (c: Categoria) => c.nome, ordem: 'nome' },
      { titulo: 'Descrição', valor: (c: Categoria) => c.descricao },
      { titulo: 'Ativa', valor: (c: Categoria) => simNao(c.ativo), ordem: 'ativo' },
    ],
    opcoes: semOpcoes,
    campos: () => [
      { nome: 'nome', rotulo: 'Nome', tipo: 'texto', obrigatorio: true },
      { nome: 'descricao', rotulo: 'Descrição', tipo: 'area' },
      CAMPO_ATIVO,
    ],
    valoresDe: (c) => ({ nome: c.nome, descricao: c.descricao, ativo: c.ativo }),
  },
);

export const cesta = recursoDeCatalogo(
  'cesta',
  { titulo: 'Cesta', genero: 'feminino', tituloPlural: 'Cestas', rotuloNovo: 'Nova cesta' },
  {
    colunas: [
      { titulo: 'Nome', valor: (c: Cesta) => c.nome, ordem: 'nome' },
      {
        titulo: 'Valor de referência',
        valor: (c: Cesta) => reais(c.valorReferenciaCentavos),
        ordem: 'valorReferenciaCentavos',
      },
      {
        titulo: 'Peso aproximado',
        valor: (c: Cesta) => (c.pesoAproximado === null ? '' : `${c.pesoAproximado} g`),
        ordem: 'pesoAproximado',
      },
      { titulo: 'Ativa', valor: (c: Cesta) => simNao(c.ativo), ordem: 'ativo' },
    ],
    opcoes: semOpcoes,
    campos: () => [
      { nome: 'nome', rotulo: 'Nome', tipo: 'texto', obrigatorio: true },
      { nome: 'descricao', rotulo: 'Descrição', tipo: 'area' },
      {
        nome: 'valorReferencia',
        rotulo: 'Valor de referência (R$)',
        tipo: 'dinheiro',
        obrigatorio: true,
        ajuda: 'Preço de uma cesta para quem consome, como 80,00',
      },
      { nome: 'pesoAproximado', rotulo: 'Peso aproximado (gramas)', tipo: 'inteiro' },
      CAMPO_ATIVO,
    ],
    valoresDe: (c) => ({
      nome: c.nome,
      descricao: c.descricao,
      valorReferencia: paraCampo(c.valorReferenciaCentavos, 'dinheiro'),
      pesoAproximado: c.pesoAproximado,
      ativo: c.ativo,
    }),
    json: cestaJson,
  },
);

export const produto = recursoDeCatalogo<'produto', { categorias: Array<{ id: number; nome: string }> }>(
  'produto',
  { titulo: 'Produto', genero: 'masculino', tituloPlural: 'Produtos', rotuloNovo: 'Novo produto' },
  {
    colunas: [
      { titulo: 'Nome', valor: (p: Produto) => p.nome, ordem: 'nome' },
      { titulo: 'Unidade', valor: (p: Produto) => p.unidade, ordem: 'unidade' },
      { titulo: 'Categoria', valor: (p: Produto) => p.categoria?.nome ?? '' },
      {
        titulo: 'Valor de referência',
        valor: (p: Produto) => reais(p.valorReferenciaCentavos),
        ordem: 'valorReferenciaCentavos',
      },
      { titulo: 'Ativo', valor: (p: Produto) => simNao(p.ativo), ordem: 'ativo' },
    ],
    opcoes: async (ctx) => ({ categorias: await opcoesDeCategoria(ctx.banco) }),
    campos: (o) => [
      { nome: 'nome', rotulo: 'Nome', tipo: 'texto', obrigatorio: true },
      {
        nome: 'unidade',
        rotulo: 'Unidade',
        tipo: 'selecao',
        obrigatorio: true,
        opcoes: UNIDADES.map((u) => ({ valor: u, rotulo: u })),
      },
      {
        nome: 'categoriaid',
        rotulo: 'Categoria',
        tipo: 'selecao',
        opcoes: o.categorias.map((c) => ({ valor: String(c.id), rotulo: c.nome })),
      },
      {
        nome: 'valorReferencia',
        rotulo: 'Valor de referência (R$)',
        tipo: 'dinheiro',
        obrigatorio: true,
        ajuda: 'Preço sugerido por unidade, como 9,50',
      },
      { nome: 'pesoGramas', rotulo: 'Peso (gramas)', tipo: 'inteiro' },
      { nome: 'descritivo', rotulo: 'Descrição', tipo: 'area' },
      CAMPO_ATIVO,
    ],
    valoresDe: (p) => ({
      nome: p.nome,
      unidade: p.unidade,
      categoriaid: p.categoriaid === null ? '' : String(p.categoriaid),
      valorReferencia: paraCampo(p.valorReferenciaCentavos, 'dinheiro'),
      pesoGramas: p.pesoGramas,
      descritivo: p.descritivo,
      ativo: p.ativo,
    }),
    json: produtoJson,
  },
);

export const pontoentrega = recursoDeCatalogo(
  'pontoentrega',
  {
    titulo: 'Ponto de entrega',
    genero: 'masculino',
    tituloPlural: 'Pontos de entrega',
    rotuloNovo: 'Novo ponto de entrega',
  },
  {
    colunas: [
      { titulo: 'Nome', valor: (p: PontoEntrega) => p.nome, ordem: 'nome' },
      { titulo: 'Endereço', valor: (p: PontoEntrega) => p.endereco },
      { titulo: 'Cidade', valor: (p: PontoEntrega) => p.cidade, ordem: 'cidade' },
      { titulo: 'Responsável', valor: (p: PontoEntrega) => p.responsavel },
      { titulo: 'Ativo', valor: (p: PontoEntrega) => simNao(p.ativo), ordem: 'ativo' },
    ],
    opcoes: semOpcoes,
    campos: () => [
      { nome: 'nome', rotulo: 'Nome', tipo: 'texto', obrigatorio: true },
      { nome: 'endereco', rotulo: 'Endereço', tipo: 'texto' },
      { nome: 'cidade', rotulo: 'Cidade', tipo: 'texto' },
      { nome: 'referencia', rotulo: 'Referência', tipo: 'texto' },
      { nome: 'responsavel', rotulo: 'Responsável', tipo: 'texto' },
      { nome: 'telefone', rotulo: 'Telefone', tipo: 'tel' },
      CAMPO_ATIVO,
    ],
    valoresDe: (p) => ({
      nome: p.nome,
      endereco: p.endereco,
      cidade: p.cidade,
      referencia: p.referencia,
      responsavel: p.responsavel,
      telefone: p.telefone,
      ativo: p.ativo,
    }),
  },
);

export const usuario: Recurso<Usuario, Record<string, never>, EntradaUsuario> = {
  prefixo: 'usuario',
  titulo: 'Usuário',
  genero: 'masculino',
  tituloPlural: 'Usuários',
  rotuloNovo: 'Novo usuário',
  acessoLer: 'usuariosLer',
  acessoEscrever: 'usuariosEscrever',
  comBusca: true,
  comIndice: true,
  ordens: ORDENS_USUARIO,
  ordemPadrao: 'nome',
  filtrosDaConsulta: {
    perfil: NaConsulta.texto(`Só quem tem este perfil (${PERFIS.join(', ')}); outro valor não filtra`, 30),
    ativo: FILTROS_DO_CATALOGO.ativo,
  },
  listar: (ctx, pedido, query) => {
    const c = new Campos(query);
    const perfil = c.umDe('perfil', PERFIS) ?? undefined;
    const ativo = c.presente('ativo') ? c.booleano('ativo') : undefined;
    return listarUsuarios(ctx.banco, pedido, Object.keys(c.erros).length > 0 ? {} : { perfil, ativo });
  },
  obter: (ctx, id) => obterUsuario(ctx.banco, id),
  comando: SalvarUsuario,
  criar: (ctx, ator, dados) => criarUsuario(ctx.banco, ator, dados, ctx.relogio.agora()),
  atualizar: (ctx, ator, id, dados) => atualizarUsuario(ctx.banco, ator, id, dados, ctx.relogio.agora()),
  apagar: (ctx, ator, id) => apagarUsuario(ctx.banco, ator, id, ctx.relogio.agora()),
  colunas: [
    { titulo: 'Nome', valor: (u) => u.nome, ordem: 'nome' },
    { titulo: 'E-mail', valor: (u) => u.email, ordem: 'email' },
    { titulo: 'Perfis', valor: (u) => u.perfil.map((p) => NOMES_PERFIS[p]).join(', ') },
    { titulo: 'Ativo', valor: (u) => simNao(u.ativo), ordem: 'ativo' },
  ],
  opcoes: () => Promise.resolve({}),
  campos: (_o, ator: Ator) => [
    { nome: 'nome', rotulo: 'Nome', tipo: 'texto', obrigatorio: true },
    { nome: 'email', rotulo: 'E-mail (o mesmo do login)', tipo: 'email', obrigatorio: true },
    {
      nome: 'perfil',
      rotulo: 'Perfis',
      tipo: 'multipla',
      ajuda: pode(ator, 'masterConceder') ? undefined : 'Só quem é master concede ou retira o perfil master.',
      opcoes: PERFIS.map((p) => ({
        valor: p,
        rotulo: NOMES_PERFIS[p],
        desabilitada: p === 'master' && !pode(ator, 'masterConceder'),
      })),
    } as CampoForm,
    { nome: 'nomeoficial', rotulo: 'Nome oficial ou razão social', tipo: 'texto' },
    { nome: 'celular', rotulo: 'Celular', tipo: 'tel' },
    { nome: 'descritivo', rotulo: 'Descrição', tipo: 'area' },
    { nome: 'cientepolitica', rotulo: 'Ciente da política da comunidade', tipo: 'booleano' },
    CAMPO_ATIVO,
  ],
  valoresDe: (u) => ({
    nome: u.nome,
    email: u.email,
    perfil: u.perfil,
    nomeoficial: u.nomeoficial,
    celular: u.celular,
    descritivo: u.descritivo,
    cientepolitica: u.cientepolitica,
    ativo: u.ativo,
  }),
  depoisDoFormulario: (u, ator, csrf) =>
    u.loginVinculado && pode(ator, 'loginLiberar') ? formularioLiberarLogin(u.id, csrf) : null,
};

export const ciclo: Recurso<Ciclo, OpcoesCiclo, CicloLido> = {
  prefixo: 'ciclo',
  titulo: 'Ciclo',
  genero: 'masculino',
  tituloPlural: 'Ciclos',
  rotuloNovo: 'Novo ciclo',
  acessoLer: 'catalogoLer',
  acessoEscrever: 'catalogoEscrever',
  comBusca: true,
  comIndice: false,
  ordens: ORDENS_CICLO,
  ordemPadrao: 'dataOfertaInicio',
  listar: () => Promise.reject(new Error('o índice de ciclos tem rota própria')),
  obter: (ctx, id) => obterCiclo(ctx.banco, id, hoje(ctx)),
  json: cicloJson,
  comando: SalvarCiclo,
  criar: (ctx, ator, dados) => salvarCiclo(ctx.banco, ator, null, dados, ctx.relogio.agora(), hoje(ctx)),
  atualizar: (ctx, ator, id, dados) => salvarCiclo(ctx.banco, ator, id, dados, ctx.relogio.agora(), hoje(ctx)),
  apagar: (ctx, ator, id) => apagarCiclo(ctx.banco, ator, id, ctx.relogio.agora(), hoje(ctx)),
  colunas: [],
  opcoes: async (ctx, ator) => ({
    cestas: await ctx.banco.selectFrom('cesta').select(['id', 'nome', 'ativo']).orderBy('nomeChave').execute(),
    produtos: await ctx.banco
      .selectFrom('produto')
      .select(['id', 'nome', 'unidade', 'ativo'])
      .orderBy('nomeChave')
      .orderBy('unidade')
      .execute(),
    pontos: await ctx.banco.selectFrom('pontoentrega').select(['id', 'nome', 'ativo']).orderBy('nomeChave').execute(),
    podeReabrir: pode(ator, 'cicloReabrir'),
    podeEnviarMensagem: pode(ator, 'mensagensEnviar'),
    podeAcompanharRetirada: pode(ator, 'retiradaAcompanhar'),
    hoje: hoje(ctx),
    fuso: ctx.config.tz,
  }),
  depoisDeSalvar: (c) => `/ciclo/${c.id}`,
  campos: () => [],
  valoresDe: (c) => ({
    nome: c.nome,
    dataOfertaInicio: c.dataOfertaInicio,
    dataOfertaFim: c.dataOfertaFim,
    dataPedidoInicio: c.dataPedidoInicio,
    dataPedidoFim: c.dataPedidoFim,
    dataRetiradaInicio: c.dataRetiradaInicio,
    dataRetiradaFim: c.dataRetiradaFim,
    ativo: c.ativo,
    cicloEntregas: c.cicloEntregas.map((e) => ({
      id: String(e.id),
      dataEntrega: e.dataEntrega,
      observacao: e.observacao ?? '',
    })),
    cicloPontos: c.cicloPontos.map((x) => ({
      id: String(x.id),
      pontoEntregaId: String(x.pontoEntregaId),
      dataRetirada: x.dataRetirada ?? '',
      horaInicio: x.horaInicio ?? '',
      horaFim: x.horaFim ?? '',
      voluntarios: x.voluntarios.map((v) => v.email).join(', '),
    })),
    cicloCestas: c.cicloCestas.map((x) => ({
      id: String(x.id),
      cestaId: String(x.cestaId),
      quantidadeCestas: String(x.quantidadeCestas),
    })),
    cicloProdutos: c.cicloProdutos.map((p) => ({
      id: String(p.id),
      produtoId: String(p.produtoId),
      quantidade: paraCampo(p.quantidadeMilesimos, 'quantidade'),
      valor: paraCampo(p.valorCentavos, 'dinheiro'),
    })),
  }),
  formulario: (f) => formularioCiclo(f),
};
