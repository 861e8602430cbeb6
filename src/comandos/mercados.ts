/**
 * The Mercados face's writes of markets and accounts (GraphQL): a market (`criarMercado`,
 * `atualizarMercado`: MercadoInput), a batch of its prices (`atualizarPrecoMercado`), the profiles
 * of an account (`atribuirPerfis`), and the product search's filters. The market's ownership is
 * checked by the resolver before any of them is read. (`definirMeusAvisos` reads the command both
 * faces share, `EscolherAvisos` in src/comandos/avisos.ts.)
 */
import { ESCALA_DINHEIRO } from '../decimal.ts';
import {
  ESCALA_TAXA,
  TIPOS_MERCADO,
  regraDaTaxa,
  regraDoValorMaximo,
  regrasDoLote,
  type DadosMercado,
  type LinhaDePreco,
} from '../domain/mercados.ts';
import { PROFILES, type NomePerfil } from '../domain/politica-mercados.ts';
import { comando } from './comando.ts';
import {
  Booleano,
  Centavos,
  ConjuntoDe,
  DecimalOpcional,
  Id,
  IdOpcional,
  Linhas,
  Objeto,
  Texto,
  UmDe,
} from './leitor/blocos.ts';
import { Recusas, compilar, comoObjeto, linhasDe } from './leitor/leitura.ts';
import { comandoPlano } from './plano.ts';

/** MercadoInput: a market's fields; `adminId` and `ativo` left out keep what the market says (new: the creator, active). */
export const SalvarMercado = comandoPlano(
  'SalvarMercado',
  {
    nome: Texto('Nome', { obrigatorio: true, max: 120 }),
    descricao: Texto('Descrição', { max: 2000 }),
    tipo: UmDe('Tipo de mercado', TIPOS_MERCADO),
    taxaAdministrativa: DecimalOpcional('Taxa administrativa, em percentual (0 a 100)', ESCALA_TAXA),
    valorMaximoCesta: DecimalOpcional(
      'O máximo que uma cesta pode custar, em reais (mercados de cestas)',
      ESCALA_DINHEIRO,
    ),
    adminId: IdOpcional('Quem administra o mercado'),
    ativo: Booleano('Ativo; sem ele, o mercado mantém o valor atual (novo: ativo)', null),
  },
  ['nome', 'tipo'],
  {
    regras: (c, legivel) => ({
      ...(legivel('taxaAdministrativa') ? regraDaTaxa(c.taxaAdministrativa ?? null) : {}),
      ...(legivel('tipo') && legivel('valorMaximoCesta') ? regraDoValorMaximo(c.tipo, c.valorMaximoCesta ?? null) : {}),
    }),
    paraDominio: (c): DadosMercado => ({
      nome: c.nome,
      descricao: c.descricao ?? null,
      tipo: c.tipo,
      taxaAdministrativaCentesimos: c.taxaAdministrativa ?? null,
      valorMaximoCestaCentavos: c.valorMaximoCesta ?? null,
      adminId: c.adminId ?? null,
      ativo: c.ativo ?? null,
    }),
  },
);

/** Prices per batch: far above a real market's list, low enough to stay one statement. */
export const MAXIMO_PRECOS_POR_LOTE = 1000;

const LinhaDoLote = Objeto(
  {
    produtoId: Id('O produto'),
    preco: Centavos('O preço no mercado', { obrigatorio: true }),
    ativo: Booleano('Ativo; sem ele, true num preço novo e o atual num preço que já existe', null),
  },
  ['produtoId', 'preco'],
);

const lote = Objeto(
  {
    precos: Linhas(LinhaDoLote, 'Os preços do lote, um por produto', {
      maximo: MAXIMO_PRECOS_POR_LOTE,
      excesso: `No máximo ${MAXIMO_PRECOS_POR_LOTE} preços por vez`,
      pular: 'em-branco',
    }),
  },
  ['precos'],
);
const loteLido = compilar<typeof lote.static>(lote);

/** PrecoMercadoInput: each line read, and named by its place in the input (`input.precos[2].preco`). */
export const AtualizarPrecos = comando<LinhaDePreco[]>('AtualizarPrecos', lote, {
  raizes: ['precos'],
  donos: () => [],
  ler(dados, nomear) {
    const recusas = new Recusas();
    const c = loteLido.validar(comoObjeto(dados), recusas);
    const linhas = linhasDe<typeof LinhaDoLote.static>(c.precos).map(({ linha, indice }) => ({
      indice,
      linha: {
        campo: nomear(['precos', indice]),
        produtoId: linha.produtoId,
        precoCentavos: linha.preco,
        ativo: linha.ativo ?? null,
      } satisfies LinhaDePreco,
    }));
    if (!recusas.vazia) {
      // The batch's rules on the lines whose product could be read (a price that could not be read is judged by that alone).
      recusas.juntarNomeados(
        regrasDoLote(
          linhas
            .filter((l) => recusas.legivel(['precos', l.indice, 'produtoId']))
            .map((l) => (recusas.legivel(['precos', l.indice, 'preco']) ? l.linha : { ...l.linha, precoCentavos: 0 })),
        ),
      );
      recusas.recusar(nomear);
    }
    return linhas.map((l) => l.linha);
  },
});

/** `atribuirPerfis(userId, perfis)`: the account and its whole set of profiles. */
export const AtribuirPerfis = comandoPlano(
  'AtribuirPerfis',
  { userId: Id('A conta'), perfis: ConjuntoDe('Os perfis da conta (substituem os atuais)', PROFILES) },
  ['userId'],
  { paraDominio: (c): { userId: number; perfis: NomePerfil[] } => ({ userId: c.userId, perfis: c.perfis ?? [] }) },
);

/** The `produtos` query's filters. */
export const BuscaDeProdutos = comandoPlano(
  'BuscaDeProdutos',
  { busca: Texto('Parte do nome', { max: 100 }), ativo: Booleano('Só os ativos (true) ou os inativos (false)', null) },
  [],
  { paraDominio: (c) => ({ busca: c.busca ?? null, ativo: c.ativo ?? null }) },
);
