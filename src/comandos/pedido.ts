/**
 * Fazer um pedido (POST /pedidoconsumidores, GraphQL `fazerPedido`): the cycle, the pickup point,
 * and each basket or extra with its quantity. Baskets are whole; extras may be fractions of their
 * unit, and people may write the unit after the number ("1,5 kg").
 */
import { regrasDasLinhas, type EntradaPedido, type LinhaPedida } from '../domain/pedidos/regras.ts';
import { achatar, comando, donosDoRecurso } from './comando.ts';
import { Id, IdOpcional, Linhas, Milesimos, Objeto } from './leitor/blocos.ts';
import { UNIDADE_ESCRITA } from './leitor/comum.ts';
import { Recusas, compilar, comoObjeto, linhasDe } from './leitor/leitura.ts';
import { comandoDeObjeto } from './objeto.ts';

const LinhaDoPedido = Objeto({
  cicloCestaId: IdOpcional('Uma cesta do ciclo'),
  cicloProdutoId: IdOpcional('Um extra do ciclo'),
  quantidade: Milesimos('Quantidade: uma cesta é inteira (até 10000); um extra, na unidade do produto', {
    obrigatorio: true,
    min: 1,
    max: 10_000_000,
    unidade: true,
    inteiraCom: { campo: 'cicloCestaId', outro: 'cicloProdutoId', max: 10_000 },
  }),
});

const CAMPOS = {
  usuarioid: IdOpcional('O consumidor (só a administração pede por outra pessoa)'),
  cicloid: Id('O ciclo'),
  pontoEntregaId: Id('Onde retirar'),
};

const esquema = Objeto(
  {
    ...CAMPOS,
    produtos: Linhas(
      LinhaDoPedido,
      'Cestas e extras do pedido; uma linha sem quantidade (ou 0) fica de fora',
      {
        maximo: 200,
        excesso: 'No máximo 200 itens por pedido',
        pular: { semQuantidade: 'quantidade', zeroDoJson: true },
      },
      {
        'x-exclusivos': {
          campos: ['cicloCestaId', 'cicloProdutoId'],
          nenhum: 'Informe cicloCestaId ou cicloProdutoId',
          ambos: 'Informe cicloCestaId ou cicloProdutoId, não os dois',
          comUm: 'quantidade',
        },
      },
    ),
  },
  ['cicloid', 'pontoEntregaId'],
);

const lido = compilar<typeof esquema.static>(esquema);

export const FazerPedido = comando<EntradaPedido>(
  'FazerPedido',
  // The contract's nested shape is documented beside the flat one; both read the same.
  { ...esquema, properties: { ...esquema.properties, pedido: Objeto(CAMPOS) } },
  {
    raizes: ['usuarioid', 'cicloid', 'pontoEntregaId', 'produtos'],
    donos: (dados) => donosDoRecurso(dados, 'pedido'),
    ler(dados, nomear) {
      const recusas = new Recusas();
      const { plano, recusas: divergentes } = achatar(comoObjeto(dados), 'pedido');
      for (const [caminho, mensagem] of divergentes) recusas.juntar(caminho, mensagem);
      const c = lido.validar(plano, recusas);
      const linhas = linhasDe<typeof LinhaDoPedido.static>(c.produtos).map(
        ({ linha, indice }): LinhaPedida & { indice: number } => ({
          cicloCestaId: linha.cicloCestaId ?? null,
          cicloProdutoId: linha.cicloProdutoId ?? null,
          quantidadeMilesimos: linha.quantidade,
          unidadeEscrita: linha[UNIDADE_ESCRITA] ?? null,
          campo: nomear(['produtos', indice]),
          indice,
        }),
      );
      if (!recusas.vazia) {
        // The order's rules on the rows that could be read, so a form shows every problem at once
        // ("choose something" is said only when nothing else is wrong: the domain says it then).
        const { produtos: _nada, ...regras } = regrasDasLinhas(
          linhas.filter((l) => recusas.legivel(['produtos', l.indice])),
        );
        recusas.juntarNomeados(regras);
        recusas.recusar(nomear);
      }
      return {
        usuarioid: c.usuarioid ?? null,
        cicloid: c.cicloid,
        pontoEntregaId: c.pontoEntregaId,
        linhas: linhas.map(({ indice: _, ...l }) => l),
      };
    },
  },
);

/** Confirmar um pedido (POST /pedidoconsumidoresconfirmacao, GraphQL `confirmarPedido`): the order's id. */
export const ConfirmarPedido = comandoDeObjeto(
  'ConfirmarPedido',
  Objeto({ pedidoId: Id('O pedido a confirmar') }, ['pedidoId']),
  {
    montar: (c) => c.pedidoId,
  },
);
