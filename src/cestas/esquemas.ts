import { Type, type TSchema } from '@sinclair/typebox';
import { MAIOR_ID } from '../http/campos.ts';
import { Arquivo, Html, Redirecionamento } from '../http/esquemas.ts';
import { TIPO_XLSX } from '../planilhas/xlsx.ts';

/**
 * The Cestas face's schemas: the envelope of the contract (§4), what each route's `data` holds,
 * and what each write reads. The response schemas serialise the answers: a field that is not named
 * here does not leave the server. Pages answer HTML to browsers and the envelope to JSON clients.
 */

const Nulo = <T extends TSchema>(t: T) => Type.Union([t, Type.Null()]);
const Id = Type.Integer({ minimum: 1 });
const Data = Type.String({ description: 'AAAA-MM-DD' });
const Hora = Type.String({ description: 'HH:MM, no fuso da comunidade' });
const Instante = Type.String({ description: 'Data e hora ISO 8601 (UTC)' });
const Reais = Type.Number({ description: 'Reais, com até 2 casas decimais' });
const Quantidade = Type.Number({ description: 'Quantidade, com até 3 casas decimais' });
/** Data a page sends beside its resource (the choices of a form): named fields, any shape. */
const Livre = (descricao: string) => Type.Object({}, { additionalProperties: true, description: descricao });
const Acoes = Type.Record(Type.String(), Type.Boolean(), {
  description: 'O que quem pediu pode fazer aqui (a política de acesso)',
});
const Perfil = Type.String({ description: 'admin, master, fornecedor ou consumidor' });

export const ParamsId = Type.Object({ id: Type.Integer({ minimum: 1, maximum: MAIOR_ID }) });

export const Erro = Type.Object(
  {
    success: Type.Literal(false),
    error: Type.String({ description: 'A mensagem, em português' }),
    details: Type.Optional(
      Type.Record(Type.String(), Type.Unknown(), { description: 'Por campo: o que está errado nele' }),
    ),
    requestId: Type.Optional(Type.String({ description: 'Num erro interno: o código a informar à coordenação' })),
  },
  { description: 'Recusa ou falha' },
);

const Envelope = <T extends TSchema>(dados: T) =>
  Type.Object(
    { success: Type.Literal(true), data: dados, message: Type.String() },
    { description: 'Envelope da resposta (§4)' },
  );

const pagina = (dados: TSchema) => ({
  content: { 'application/json': { schema: Envelope(dados) }, 'text/html': { schema: Html } },
});
const falhas = {
  '4xx': {
    description: 'Recusa: a mensagem em português (JSON) ou a página com ela',
    content: { 'application/json': { schema: Erro }, 'text/html': { schema: Html } },
  },
  '5xx': {
    description: 'Falha interna, com o código da requisição',
    content: { 'application/json': { schema: Erro }, 'text/html': { schema: Html } },
  },
};

/** A page or JSON read: 200 with `data`, or the refusal. */
export function leitura(dados: TSchema) {
  return {
    200: { description: 'A página (navegador) ou o envelope com os dados (JSON)', ...pagina(dados) },
    ...falhas,
  };
}

/**
 * A write: the envelope with what was saved (201 when it created the record), or, for a browser's
 * form, a 303 to the next page; a refused form comes back as its page with the 4xx.
 */
export function escrita(dados: TSchema, opcoes: { cria?: boolean; atualiza?: boolean } = { atualiza: true }) {
  return {
    ...(opcoes.atualiza === true ? { 200: { description: 'Salvo (JSON)', ...pagina(dados) } } : {}),
    ...(opcoes.cria === true ? { 201: { description: 'Criado (JSON)', ...pagina(dados) } } : {}),
    303: Redirecionamento,
    ...falhas,
  };
}

/** A report: the page or the envelope, or, asked with `?formato=`, the file (a spreadsheet or the CSV). */
export function relatorioOuArquivo(dados: TSchema) {
  const { content } = pagina(dados);
  return {
    200: {
      description:
        'A página (navegador) ou o envelope com os dados (JSON); com ?formato=xlsx a planilha, com ?formato=csv o CSV',
      content: {
        ...content,
        [TIPO_XLSX]: { schema: Arquivo('A planilha (Excel, LibreOffice)') },
        'text/csv': { schema: Arquivo('O CSV: UTF-8, separado por vírgulas, decimais com ponto, datas AAAA-MM-DD') },
      },
    },
    ...falhas,
  };
}

/** A file (CSV, PDF, receipt) or the refusal. */
export function download(tipo: string, descricao: string) {
  return { 200: { description: descricao, content: { [tipo]: { schema: Arquivo(descricao) } } }, ...falhas };
}

/** A page for browsers only (the login's way back, the goodbye page) or a redirect. */
export const navegacao = {
  200: { description: 'A página', ...pagina(Type.Null()) },
  302: Redirecionamento,
  303: Redirecionamento,
  ...falhas,
};

// ---------------------------------------------------------------------------------------------
// Records of the spec's standard routes.

const Carimbos = { createdAt: Instante, updatedAt: Instante };

const Categoria = Type.Object({
  id: Id,
  nome: Type.String(),
  descricao: Nulo(Type.String()),
  ativo: Type.Boolean(),
  ...Carimbos,
});
const Cesta = Type.Object({
  id: Id,
  nome: Type.String(),
  descricao: Nulo(Type.String()),
  valorReferencia: Reais,
  pesoAproximado: Nulo(Type.Number()),
  ativo: Type.Boolean(),
  ...Carimbos,
});
const Produto = Type.Object({
  id: Id,
  nome: Type.String(),
  unidade: Type.String(),
  pesoGramas: Nulo(Type.Number()),
  valorReferencia: Reais,
  descritivo: Nulo(Type.String()),
  categoriaid: Nulo(Id),
  categoria: Nulo(Type.Object({ id: Id, nome: Type.String() })),
  ativo: Type.Boolean(),
  ...Carimbos,
});
const PontoEntrega = Type.Object({
  id: Id,
  nome: Type.String(),
  endereco: Nulo(Type.String()),
  cidade: Nulo(Type.String()),
  referencia: Nulo(Type.String()),
  responsavel: Nulo(Type.String()),
  telefone: Nulo(Type.String()),
  ativo: Type.Boolean(),
  ...Carimbos,
});
export const UsuarioJson = Type.Object({
  id: Id,
  nome: Type.String(),
  email: Type.String(),
  perfil: Type.Array(Perfil),
  nomeoficial: Nulo(Type.String()),
  celular: Nulo(Type.String()),
  descritivo: Nulo(Type.String()),
  cientepolitica: Type.Boolean(),
  ativo: Type.Boolean(),
  loginVinculado: Type.Boolean({ description: 'Se um login já está ligado ao cadastro' }),
  ...Carimbos,
});
const Datas = {
  dataOfertaInicio: Data,
  dataOfertaFim: Data,
  dataPedidoInicio: Data,
  dataPedidoFim: Data,
  dataRetiradaInicio: Data,
  dataRetiradaFim: Data,
};
const Fase = Type.String({ description: 'planejado, oferta, composicao, pedido, retirada ou encerrado' });
const CicloResumo = Type.Object({ id: Id, nome: Type.String(), ...Datas, fase: Fase });
const Ciclo = Type.Object({
  id: Id,
  nome: Type.String(),
  ...Datas,
  fase: Fase,
  ativo: Type.Boolean(),
  fechadoEm: Nulo(Instante),
  cicloEntregas: Type.Array(Type.Object({ id: Id, dataEntrega: Data, observacao: Nulo(Type.String()) })),
  cicloPontos: Type.Array(
    Type.Object({
      id: Id,
      pontoEntregaId: Id,
      nome: Type.String(),
      endereco: Nulo(Type.String()),
      cidade: Nulo(Type.String()),
      dataRetirada: Nulo(Data),
      horaInicio: Nulo(Hora),
      horaFim: Nulo(Hora),
      pedidos: Type.Integer({ description: 'Pedidos do ciclo com retirada neste ponto' }),
    }),
    { description: 'Os pontos de retirada do ciclo, com dia e horário; vazio: todos os pontos ativos' },
  ),
  cicloCestas: Type.Array(
    Type.Object({
      id: Id,
      cestaId: Id,
      nome: Type.String(),
      quantidadeCestas: Type.Integer(),
      quantidadePedida: Type.Integer(),
      composta: Type.Boolean({ description: 'Algo composto nela: só então pode ser pedida' }),
    }),
  ),
  cicloProdutos: Type.Array(
    Type.Object({
      id: Id,
      produtoId: Id,
      nome: Type.String(),
      unidade: Type.String(),
      quantidade: Quantidade,
      valor: Reais,
    }),
  ),
  sobras: Type.Array(Type.Object({ produtoId: Id, nome: Type.String(), unidade: Type.String(), sobra: Quantidade }), {
    description: 'O que as ofertas finalizadas deixam de cada produto depois das cestas: o teto dos extras',
  }),
  ...Carimbos,
});

/** A cycle in the index: its dates, phase and whether it is active, without its lists. */
export const CicloNoIndice = Type.Object({ id: Id, nome: Type.String(), ativo: Type.Boolean(), ...Datas, fase: Fase });

const Paginacao = {
  total: Type.Integer(),
  pagina: Type.Integer(),
  porPagina: Type.Integer(),
  paginas: Type.Integer(),
  ordem: Type.String(),
  direcao: Type.Union([Type.Literal('asc'), Type.Literal('desc')]),
  busca: Nulo(Type.String()),
};

/** An index of records: one page of them, each with what the actor may do to it. */
export const indice = (registro: TSchema) =>
  Type.Object({
    itens: Type.Array(Type.Intersect([registro, Type.Object({ acoes: Acoes })])),
    ...Paginacao,
    acoes: Acoes,
  });

/** A record's form: the record (null for a new one), the form's choices, and the actions. */
export const formulario = (registro: TSchema) =>
  Type.Object({ registro: Nulo(registro), opcoes: Livre('As escolhas do formulário'), acoes: Acoes });

/** Each record type of the standard routes: its JSON shape (what its save reads is the record's `corpo`). */
export const REGISTROS: Readonly<Record<string, { registro: TSchema }>> = {
  categoria: { registro: Categoria },
  cesta: { registro: Cesta },
  produto: { registro: Produto },
  pontoentrega: { registro: PontoEntrega },
  usuario: { registro: UsuarioJson },
  ciclo: { registro: Ciclo },
};

/** What a delete answers: the id that is gone. */
export const Apagado = Type.Object({ id: Id });

// ---------------------------------------------------------------------------------------------
// Offers and orders (one shape each, as the contract writes them).

const LinhaDaOferta = Type.Object({
  ofertaProdutoId: Id,
  produtoid: Id,
  nome: Type.String(),
  unidade: Type.String(),
  quantidade: Quantidade,
  valor: Reais,
  alocado: Type.Number({ description: 'Quanto as composições já usam da linha' }),
});
export const OfertaJson = Type.Object({
  oferta: Type.Object({
    id: Nulo(Id),
    cicloid: Id,
    usuarioid: Id,
    finalizada: Type.Boolean(),
    finalizadaEm: Nulo(Instante),
    total: Reais,
  }),
  produtos: Type.Array(LinhaDaOferta),
});
export const PaginaOferta = Type.Intersect([
  OfertaJson,
  Type.Object({
    ciclo: Type.Object({ id: Id, nome: Type.String(), fase: Fase, dataOfertaInicio: Data, dataOfertaFim: Data }),
    produtosDisponiveis: Type.Array(
      Type.Object({
        produtoid: Id,
        nome: Type.String(),
        unidade: Type.String(),
        valorReferencia: Reais,
        categoria: Nulo(Type.String()),
        ofertadoAntes: Type.Boolean({ description: 'Se o fornecedor já o ofertou (os de costume vêm primeiro)' }),
      }),
    ),
    acoes: Acoes,
    fornecedor: Type.Object({ id: Id, nome: Type.String() }),
  }),
]);

const LinhaDoPedido = Type.Object({
  id: Id,
  tipo: Type.Union([Type.Literal('cesta'), Type.Literal('extra')]),
  cicloCestaId: Nulo(Id),
  cicloProdutoId: Nulo(Id),
  nome: Type.String(),
  unidade: Type.String(),
  quantidade: Quantidade,
  valor: Reais,
  subtotal: Reais,
  mercadoId: Nulo(Id),
  mercado: Nulo(Type.String({ description: 'O mercado em que o item é comprado; null num ciclo sem mercados' })),
});
const Pedido = Type.Object({
  id: Id,
  cicloid: Id,
  usuarioid: Id,
  usuario: Type.Object({ id: Id, nome: Type.String() }),
  pontoEntrega: Type.Object(
    { id: Id, nome: Type.String(), dataRetirada: Nulo(Data), horaInicio: Nulo(Hora), horaFim: Nulo(Hora) },
    { description: 'O ponto, com o dia e o horário de retirada quando o ciclo os define' },
  ),
  pontoEntregaId: Id,
  finalizado: Type.Boolean(),
  dataConfirmacao: Nulo(Instante),
  total: Reais,
  taxa: Reais,
  totalComTaxa: Reais,
  partes: Type.Array(Type.Object({ mercadoId: Nulo(Id), mercado: Nulo(Type.String()), subtotal: Reais, taxa: Reais }), {
    description:
      'O que o pedido compra em cada mercado e a taxa de cada um (a taxaAdministrativa do mercado; fora de mercados, a taxa da comunidade)',
  }),
});
export const PedidoJson = Type.Object({ pedidoId: Id, pedido: Pedido, produtos: Type.Array(LinhaDoPedido) });
const PedidoOuNada = Type.Object({ pedidoId: Nulo(Id), pedido: Nulo(Pedido), produtos: Type.Array(LinhaDoPedido) });
export const PaginaPedido = Type.Intersect([
  PedidoOuNada,
  Type.Object({
    ciclo: Type.Object({ id: Id, nome: Type.String(), fase: Fase, dataPedidoInicio: Data, dataPedidoFim: Data }),
    cestas: Type.Array(
      Type.Object({
        cicloCestaId: Id,
        cestaId: Id,
        nome: Type.String(),
        descricao: Nulo(Type.String()),
        valor: Reais,
        disponivel: Type.Number(),
        emComposicao: Type.Boolean({ description: 'Nada composto nela ainda: não pode ser pedida' }),
        mercado: Nulo(Type.String({ description: 'O mercado de cestas que a vende; null num ciclo sem mercados' })),
        composicao: Type.Array(Type.Object({ produto: Type.String(), quantidade: Quantidade, unidade: Type.String() })),
      }),
    ),
    extras: Type.Array(
      Type.Object({
        cicloProdutoId: Id,
        produtoId: Id,
        nome: Type.String(),
        unidade: Type.String(),
        valor: Reais,
        disponivel: Quantidade,
        mercado: Nulo(
          Type.String({ description: 'O mercado de venda direta que o vende; null para um extra do ciclo' }),
        ),
      }),
    ),
    pontosEntrega: Type.Array(
      Type.Object({
        id: Id,
        nome: Type.String(),
        endereco: Nulo(Type.String()),
        cidade: Nulo(Type.String()),
        dataRetirada: Nulo(Data),
        horaInicio: Nulo(Hora),
        horaFim: Nulo(Hora),
      }),
      {
        description:
          'Onde retirar: os pontos do ciclo com dia e horário, ou todos os pontos ativos se o ciclo não lista os seus',
      },
    ),
    taxa: Type.Object({
      percentual: Type.Number({ description: 'Percentual sobre o pedido' }),
      fixa: Type.Number({ description: 'Reais por pedido' }),
    }),
    acoes: Acoes,
    consumidor: Type.Object({ id: Id, nome: Type.String() }),
  }),
]);
export const ListaDeOfertas = Type.Object({
  itens: Type.Array(
    Type.Object({
      id: Id,
      ciclo: Type.Object({ id: Id, nome: Type.String(), fase: Fase }),
      fornecedor: Type.Object({ id: Id, nome: Type.String() }),
      cicloid: Type.Integer({
        minimum: 1,
        description: 'O ciclo da oferta (o mesmo de `ciclo.id`), como o contrato o nomeia',
      }),
      usuarioid: Type.Integer({
        minimum: 1,
        description: 'O fornecedor da oferta (o mesmo de `fornecedor.id`), como o contrato o nomeia',
      }),
      finalizada: Type.Boolean(),
      itens: Type.Integer(),
      total: Reais,
    }),
  ),
});
export const ListaDePedidos = Type.Object({ itens: Type.Array(PedidoJson) });
// ---------------------------------------------------------------------------------------------
// Pix: charges, their BR Code, and bank statements.

export const PixJson = Type.Object(
  {
    copiaECola: Type.String({ description: 'O BR Code (Pix copia e cola), com valor e txid' }),
    qrSvg: Type.String({ description: 'O QR code do mesmo texto, em SVG' }),
    valor: Reais,
    txid: Type.String({ description: 'Identifica a pessoa e o ciclo: CST<pessoa>C<ciclo>, até 25 caracteres' }),
  },
  { description: 'O Pix estático que paga o valor devido' },
);

export const CobrancaJson = Type.Object(
  {
    usuarioid: Id,
    nome: Type.String(),
    devido: Type.Number({ description: 'O que a pessoa deve (zero ou menos: nada a pagar)' }),
    txid: Type.String(),
    cicloid: Nulo(Id),
    linhas: Type.Array(
      Type.Object({
        tipo: Type.String({
          description: 'saldo (as movimentações) ou pedido (confirmado, de um ciclo ainda não fechado)',
        }),
        descricao: Type.String(),
        valor: Type.Number({ description: 'O que a linha soma ao devido (um crédito subtrai)' }),
        cicloid: Nulo(Id),
        pedidoId: Nulo(Id),
      }),
    ),
    pix: Nulo(PixJson),
  },
  { description: 'O valor devido, linha a linha, e o Pix que o paga' },
);

export const ListaDeCobrancas = Type.Object({
  itens: Type.Array(CobrancaJson),
  total: Reais,
  pixConfigurado: Type.Boolean(),
});

const LinhaDoExtratoJson = Type.Object({
  id: Id,
  idBanco: Type.String({
    description: 'O identificador da linha: ofx:<banco>:<conta>:<FITID>, ou csv:<data>:<centavos>:<n> para um CSV',
  }),
  data: Data,
  valor: Reais,
  descricao: Type.String(),
  pagador: Nulo(Type.String()),
  txid: Nulo(Type.String()),
  arquivo: Type.String(),
  estado: Type.String({ description: 'pendente, conciliada ou descartada' }),
  proposta: Nulo(Type.String({ description: 'txid, nome ou ambigua' })),
  usuario: Nulo(Type.Object({ id: Id, nome: Type.String() })),
  candidatos: Type.Array(Type.Object({ id: Id, nome: Type.String() })),
  movimentacaoid: Nulo(Id),
  motivo: Nulo(Type.String()),
});

export const PaginaExtratos = Type.Object({
  pendentes: Type.Array(LinhaDoExtratoJson),
  resolvidas: Type.Array(LinhaDoExtratoJson),
  pessoas: Type.Array(Type.Object({ id: Id, nome: Type.String() })),
  mapeamentos: Type.Array(
    Type.Object({
      id: Id,
      nome: Type.String(),
      separador: Type.String(),
      colunaData: Type.String(),
      colunaValor: Type.String(),
      colunaDescricao: Type.String(),
      colunaPagador: Nulo(Type.String()),
      colunaDocumento: Nulo(Type.String()),
    }),
  ),
});

export const ResumoDaImportacao = Type.Object({
  creditos: Type.Integer(),
  novas: Type.Integer(),
  repetidas: Type.Integer(),
  ignoradas: Type.Integer(),
  porTxid: Type.Integer(),
  porNome: Type.Integer(),
  ambiguas: Type.Integer(),
});

export const ResultadoDaConciliacao = Type.Object({ conciliadas: Type.Integer(), rejeitadas: Type.Integer() });

export const ConfirmacaoPedido = Type.Intersect([
  PedidoJson,
  Type.Object({ acoes: Acoes, cobranca: Nulo(CobrancaJson) }),
]);

// ---------------------------------------------------------------------------------------------
// Composition, money, reports, the dashboard and the account.

const ProdutoDaComposicao = Type.Object({
  ofertaProdutoId: Id,
  produtoId: Id,
  produto: Type.String(),
  fornecedor: Type.String(),
  quantidadePorCesta: Quantidade,
  unidade: Type.String({ description: 'A unidade do produto, em que quantidadePorCesta é contada' }),
  unidadeEscolhida: Type.String({ description: 'A unidade em que a coordenação compôs (g, unidade…), para mostrar' }),
  quantidadeNaUnidadeEscolhida: Quantidade,
  valor: Reais,
  custo: Reais,
});
export const Composicao = Type.Object({
  cicloCesta: Type.Object({
    id: Id,
    cicloid: Id,
    cicloNome: Type.String({ description: 'O nome do ciclo' }),
    cestaId: Id,
    nome: Type.String(),
    quantidadeCestas: Type.Integer(),
    cestasPedidas: Type.Integer(),
  }),
  composicao: Type.Object({
    cicloCestaId: Type.Integer({ minimum: 1, description: 'A cesta do ciclo (a mesma de `cicloCesta.id`)' }),
    quantidadeCestas: Type.Integer(),
    produtos: Type.Array(ProdutoDaComposicao),
  }),
  ofertas: Type.Array(
    Type.Object({
      ofertaProdutoId: Id,
      produtoId: Id,
      produto: Type.String(),
      unidade: Type.String(),
      fornecedor: Type.Object({ id: Id, nome: Type.String() }),
      valor: Reais,
      quantidadeOfertada: Quantidade,
      quantidadeAlocada: Quantidade,
      quantidadeDisponivel: Quantidade,
    }),
  ),
  extras: Type.Array(
    Type.Object({ produtoId: Id, produto: Type.String(), unidade: Type.String(), quantidade: Quantidade }),
  ),
  fornecedores: Type.Array(Type.Object({ id: Id, nome: Type.String(), valorAcumulado: Reais })),
  custoPorCesta: Reais,
  valorReferencia: Reais,
});
export const PaginaComposicao = Type.Intersect([Composicao, Type.Object({ acoes: Acoes })]);

export const Movimentacao = Type.Object({
  id: Id,
  usuarioid: Id,
  tipoMovimentacaoId: Id,
  sentido: Type.Union([Type.Literal('credito'), Type.Literal('debito')]),
  valor: Reais,
  data: Data,
  descricao: Type.String(),
  arquivo: Nulo(Type.String({ description: 'O comprovante, baixado em /movimentacao/:id/arquivo' })),
  cicloid: Nulo(Id),
});
export const FechamentoDoCiclo = Type.Object({
  cicloid: Id,
  fechadoEm: Instante,
  novas: Type.Integer({ description: 'Movimentações registradas agora; 0 se o ciclo já estava fechado' }),
  debitos: Reais,
  creditos: Reais,
  naoConfirmados: Type.Array(Type.Object({ pedidoId: Id, nome: Type.String(), totalComTaxa: Reais }), {
    description: 'Pedidos que ninguém confirmou até o fim dos pedidos: ficaram de fora, não são entregues nem cobrados',
  }),
});

export const PreviaDoFechamento = Type.Object({
  ciclo: Type.Object({ id: Id, nome: Type.String(), dataPedidoFim: Data, fechadoEm: Nulo(Instante) }),
  possivel: Type.Boolean({ description: 'Fechar é possível hoje: os pedidos terminaram e o ciclo está aberto' }),
  confirmados: Type.Integer(),
  naoConfirmados: Type.Array(Type.Object({ pedidoId: Id, nome: Type.String(), totalComTaxa: Reais }), {
    description: 'Pedidos sem confirmação: não entram na entrega nem na cobrança',
  }),
  debitos: Reais,
  creditos: Reais,
  fornecedores: Type.Integer(),
});
const Celula = Type.Union([Type.Number(), Type.String(), Type.Null()]);
export const RelatorioJson = Type.Object({
  titulo: Type.String(),
  subtitulo: Nulo(Type.String()),
  colunas: Type.Array(
    Type.Object({
      chave: Type.String(),
      titulo: Type.String({ description: 'O cabeçalho, como as pessoas leem' }),
      tipo: Type.String(),
    }),
  ),
  grupos: Type.Array(
    Type.Object({
      titulo: Type.String(),
      linhas: Type.Array(Type.Record(Type.String(), Celula)),
      subtotais: Type.Record(Type.String(), Celula),
    }),
  ),
  totais: Type.Record(Type.String(), Celula),
});
const CicloParaEscolher = Type.Object({ id: Id, nome: Type.String(), fase: Fase });
export const EscolhaDeCiclos = Type.Object({ ciclos: Type.Array(CicloParaEscolher) });

export const Painel = Type.Object({
  usuario: Type.Object({ id: Nulo(Id), nome: Type.String(), email: Type.String(), perfil: Type.Array(Perfil) }),
  hoje: Data,
  ciclos: Type.Array(
    Type.Intersect([
      CicloResumo,
      Type.Object({
        acoes: Type.Array(Type.String()),
        andamento: Nulo(
          Type.Object(
            {
              oferta: Type.Union([Type.Literal('sem'), Type.Literal('rascunho'), Type.Literal('finalizada')], {
                description: 'A oferta da pessoa no ciclo',
              }),
              pedido: Type.Union([Type.Literal('sem'), Type.Literal('salvo'), Type.Literal('confirmado')], {
                description: 'O pedido da pessoa no ciclo',
              }),
              pedidoId: Nulo(Id),
              pontoEntrega: Nulo(Type.String()),
            },
            { description: 'Onde a pessoa está no ciclo; null sem cadastro' },
          ),
        ),
        pendencias: Nulo(
          Type.Object(
            {
              semOferta: Type.Array(Type.Object({ id: Id, nome: Type.String() }), {
                description: 'Fornecedores ativos sem oferta finalizada',
              }),
              naoConfirmados: Type.Array(Type.Object({ id: Id, nome: Type.String(), pedidoId: Id }), {
                description: 'Pedidos salvos que falta confirmar',
              }),
            },
            { description: 'Só para a coordenação, em ciclos em andamento' },
          ),
        ),
      }),
    ]),
  ),
  saldo: Nulo(
    Type.Object({
      saldo: Type.Number({ description: 'Créditos menos débitos, em reais' }),
      movimentacoes: Type.Integer(),
    }),
  ),
  atalhos: Type.Array(Type.Object({ href: Type.String(), rotulo: Type.String() })),
  suaCesta: Type.Array(
    Type.Object({
      assinaturaId: Id,
      cicloid: Id,
      ciclo: Type.String(),
      cesta: Type.String(),
      quantidade: Type.Integer(),
      pontoEntrega: Type.String(),
      situacao: Type.Union([
        Type.Literal('gerado'),
        Type.Literal('pulado'),
        Type.Literal('pausado'),
        Type.Literal('faltou'),
        Type.Null(),
      ]),
      motivo: Nulo(Type.String()),
    }),
    { description: 'As assinaturas da pessoa nos ciclos com pedidos abertos: o que vem (ou não) e onde' },
  ),
});

const Identidade = Type.Object({
  sub: Type.String(),
  email: Type.String(),
  name: Type.String(),
  picture: Type.Optional(Type.String()),
});
export const Cadastro = Type.Object({ identidade: Identidade, usuario: Nulo(UsuarioJson) });

export const Auditoria = Type.Object({
  itens: Type.Array(
    Type.Object({
      id: Id,
      usuarioid: Nulo(Id),
      em: Instante,
      ator: Type.String(),
      acao: Type.String(),
      entidade: Type.String(),
      entidadeId: Nulo(Type.String()),
      antes: Type.Unknown({ description: 'O registro antes' }),
      depois: Type.Unknown({ description: 'O registro depois' }),
    }),
  ),
  ...Paginacao,
});
export const Texto = Type.Object({ titulo: Type.String(), markdown: Type.String() });
const LinkDeRelatorio = Type.Object({
  titulo: Type.String(),
  href: Type.String(),
  arquivo: Type.Optional(Type.Boolean({ description: 'Um arquivo (CSV ou PDF), que o navegador salva' })),
});
export const Relatorios = Type.Object({
  ciclos: Type.Array(Type.Intersect([CicloParaEscolher, Type.Object({ relatorios: Type.Array(LinkDeRelatorio) })])),
  deVariosCiclos: Type.Array(LinkDeRelatorio),
});
export const PaginaMovimentacao = Livre('As escolhas do formulário: pessoas, tipos, ciclos e saldos');

// ---------------------------------------------------------------------------------------------
// Subscriptions (assinaturas)

export const ParamsAssinaturaCiclo = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAIOR_ID }),
  cicloId: Type.Integer({ minimum: 1, maximum: MAIOR_ID }),
});
export const ParamsAssinaturaPausa = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: MAIOR_ID }),
  pausaId: Type.Integer({ minimum: 1, maximum: MAIOR_ID }),
});
const Frequencia = Type.Union([Type.Literal('cada_ciclo'), Type.Literal('ciclo_sim_ciclo_nao')], {
  description: 'cada_ciclo ou ciclo_sim_ciclo_nao',
});
const SituacaoNoCiclo = Type.Union([
  Type.Literal('gerado'),
  Type.Literal('pulado'),
  Type.Literal('pausado'),
  Type.Literal('faltou'),
]);
const PausaJson = Type.Object({ id: Id, inicio: Data, fim: Data });
const CamposDaAssinatura = {
  id: Id,
  usuarioid: Id,
  cestaId: Id,
  quantidade: Type.Integer({ minimum: 1, description: 'Cestas por ciclo' }),
  pontoEntregaId: Id,
  frequencia: Frequencia,
  inicio: Data,
  fim: Data,
  mercadoId: Nulo(Id),
  ativa: Type.Boolean(),
  createdAt: Instante,
  pausas: Type.Array(PausaJson),
};
export const AssinaturaJson = Type.Object(CamposDaAssinatura);
export const SituacaoDoCicloJson = Type.Object({
  assinaturaId: Id,
  cicloid: Id,
  situacao: SituacaoNoCiclo,
  quantidade: Type.Integer(),
  pontoEntregaId: Id,
  pedidoId: Nulo(Id),
  motivo: Nulo(Type.String()),
});
const ProximoCicloJson = Type.Object({
  cicloid: Id,
  nome: Type.String(),
  dataPedidoInicio: Data,
  dataRetiradaInicio: Data,
  situacao: Nulo(SituacaoNoCiclo),
  quantidade: Type.Integer(),
  pontoEntregaId: Id,
  pedidoId: Nulo(Id),
  motivo: Nulo(Type.String()),
  vem: Type.Boolean({ description: 'A cesta vem neste ciclo (gerada, ou ainda a gerar sem pausa)' }),
  janelaAberta: Type.Boolean({
    description: 'Dentro do período de pedidos: a pessoa ainda pode pular ou mudar este ciclo',
  }),
});
const Escolha = Type.Object({ id: Id, nome: Type.String() });
export const PaginaAssinaturas = Type.Object({
  consumidor: Escolha,
  itens: Type.Array(
    Type.Object({
      ...CamposDaAssinatura,
      cesta: Type.String(),
      pontoEntrega: Type.String(),
      mercado: Nulo(Type.String()),
      proximosCiclos: Type.Array(ProximoCicloJson),
    }),
  ),
  cestas: Type.Array(Type.Object({ id: Id, nome: Type.String(), limiteAssinaturas: Nulo(Type.Integer()) })),
  pontosEntrega: Type.Array(Escolha),
  mercados: Type.Array(Escolha, { description: 'Mercados de cestas ativos' }),
});
export const TodasAsAssinaturas = Type.Object({
  itens: Type.Array(
    Type.Object({
      ...CamposDaAssinatura,
      consumidor: Type.String(),
      cesta: Type.String(),
      pontoEntrega: Type.String(),
      mercado: Nulo(Type.String()),
      pagoAdiantado: Type.Number({
        description:
          'Reais: a soma dos pagamentos antecipados da temporada registrados para a assinatura (POST /assinaturas/:id/pagamento)',
      }),
    }),
  ),
  porCesta: Type.Array(
    Type.Object({
      cestaId: Id,
      nome: Type.String(),
      assinaturas: Type.Integer(),
      cestas: Type.Integer({ description: 'Cestas por ciclo' }),
      limite: Nulo(Type.Integer()),
    }),
  ),
  porPonto: Type.Array(
    Type.Object({ pontoEntregaId: Id, nome: Type.String(), assinaturas: Type.Integer(), cestas: Type.Integer() }),
  ),
  ciclo: Nulo(Escolha),
  faltas: Type.Array(
    Type.Object({
      assinaturaId: Id,
      usuarioid: Id,
      consumidor: Type.String(),
      cesta: Type.String(),
      quantidade: Type.Integer(),
      pontoEntregaId: Id,
      motivo: Type.String(),
    }),
    { description: 'No ciclo pedido (?cicloId=): quem ficou sem a cesta e por quê' },
  ),
});
export const LimiteJson = Type.Object({ cestaId: Id, nome: Type.String(), limiteAssinaturas: Nulo(Type.Integer()) });
