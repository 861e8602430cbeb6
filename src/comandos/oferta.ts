/**
 * Salvar uma oferta (POST /oferta, /ofertasave, GraphQL `salvarOferta`): the cycle and each product
 * offered, with its quantity (people may write the unit after it: "2,5 kg") and its unit price.
 */
import { regrasDasLinhas, type AlvoNaOferta, type EntradaOferta, type LinhaParaOfertar } from '../domain/ofertas.ts';
import { achatar, comando, donosDoRecurso } from './comando.ts';
import { Centavos, Id, IdOpcional, Linhas, Milesimos, Objeto } from './leitor/blocos.ts';
import { UNIDADE_ESCRITA } from './leitor/comum.ts';
import { Recusas, compilar, comoObjeto, linhasDe } from './leitor/leitura.ts';
import { comandoDeObjeto } from './objeto.ts';

const LinhaDaOferta = Objeto(
  {
    produtoid: Id('O produto'),
    quantidade: Milesimos('Quantidade, na unidade do produto', { obrigatorio: true, min: 1, unidade: true }),
    valor: Centavos('Preço por unidade', { obrigatorio: true }),
  },
  ['produtoid', 'quantidade', 'valor'],
);

const CAMPOS = {
  usuarioid: IdOpcional('O fornecedor (só a administração oferta por outra pessoa)'),
  cicloid: Id('O ciclo'),
};

const esquema = Objeto(
  {
    ...CAMPOS,
    produtos: Linhas(LinhaDaOferta, 'As linhas da oferta (a lista inteira); uma linha sem quantidade fica de fora', {
      maximo: 500,
      excesso: 'No máximo 500 produtos por oferta',
      pular: { semQuantidade: 'quantidade', zeroDoJson: false },
    }),
  },
  ['cicloid'],
);

const lido = compilar<typeof esquema.static>(esquema);

export const SalvarOferta = comando<EntradaOferta>(
  'SalvarOferta',
  { ...esquema, properties: { ...esquema.properties, oferta: Objeto(CAMPOS) } },
  {
    raizes: ['usuarioid', 'cicloid', 'produtos'],
    donos: (dados) => donosDoRecurso(dados, 'oferta'),
    ler(dados, nomear) {
      const recusas = new Recusas();
      const { plano, recusas: divergentes } = achatar(comoObjeto(dados), 'oferta');
      for (const [caminho, mensagem] of divergentes) recusas.juntar(caminho, mensagem);
      const c = lido.validar(plano, recusas);
      const linhas = linhasDe<typeof LinhaDaOferta.static>(c.produtos).map(
        ({ linha, indice }): LinhaParaOfertar & { indice: number } => ({
          produtoid: linha.produtoid,
          quantidadeMilesimos: linha.quantidade,
          unidadeEscrita: linha[UNIDADE_ESCRITA] ?? null,
          valorCentavos: linha.valor,
          campo: nomear(['produtos', indice]),
          indice,
        }),
      );
      if (!recusas.vazia) {
        // The offer's rules on the rows that could be read, so a form shows every problem at once.
        recusas.juntarNomeados(regrasDasLinhas(linhas.filter((l) => recusas.legivel(['produtos', l.indice]))));
        recusas.recusar(nomear);
      }
      return { usuarioid: c.usuarioid ?? null, cicloid: c.cicloid, linhas: linhas.map(({ indice: _, ...l }) => l) };
    },
  },
);

/**
 * Retirar um produto da oferta (POST /ofertaapagarproduto): the line by its id, or by the cycle and
 * the product (of the supplier named, or one's own).
 */
export const RetirarDaOferta = comandoDeObjeto(
  'RetirarDaOferta',
  Objeto({
    ofertaProdutoId: IdOpcional('A linha a retirar'),
    cicloid: IdOpcional('O ciclo (sem a linha)'),
    produtoid: IdOpcional('O produto a retirar (sem a linha)'),
    usuarioid: IdOpcional('O fornecedor (só a administração retira da oferta de outra pessoa)'),
  }),
  {
    donos: (dados) => donosDoRecurso(dados, null),
    montar: (c, recusas): AlvoNaOferta => {
      const { ofertaProdutoId, cicloid, produtoid } = c;
      if (ofertaProdutoId !== null && ofertaProdutoId !== undefined) return { ofertaProdutoId };
      if (cicloid === null || cicloid === undefined || produtoid === null || produtoid === undefined) {
        recusas.juntar(['ofertaProdutoId'], 'Informe ofertaProdutoId, ou cicloid e produtoid');
        return { ofertaProdutoId: 0 };
      }
      return { cicloid, produtoid, usuarioid: c.usuarioid ?? null };
    },
  },
);
