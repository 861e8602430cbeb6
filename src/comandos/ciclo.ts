/**
 * Salvar um ciclo (POST /ciclo, /ciclo/:id): its name, its six dates, whether it is active, and its
 * child lists. A list is replaced only when it is present: a JSON key, or (forms) a name listed in
 * `_listas`, since a form with no rows sends nothing. A form's blank spare rows are not rows.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import { CAMPOS_DATA } from '../domain/ciclos/calendario.ts';
import { LISTAS_DO_CICLO, type CicloLido, type ListaDoCiclo } from '../domain/ciclos/modelo.ts';
import { regrasDoCiclo } from '../domain/ciclos/regras.ts';
import { MAXIMO_DE_VOLUNTARIOS, lerEmailsDosVoluntarios } from '../domain/retirada/voluntarios.ts';
import { comando } from './comando.ts';
import {
  Centavos,
  Data,
  Hora,
  Id,
  IdOpcional,
  Inteiro,
  Linhas,
  Marcado,
  Milesimos,
  Objeto,
  Texto,
} from './leitor/blocos.ts';
import { TIPOS_NO_FIO } from './leitor/fio.ts';
import { Recusas, compilar, comoObjeto, linhasDe, type Nomear } from './leitor/leitura.ts';
import { palavra } from './leitor/palavras.ts';
import { comandoDeObjeto } from './objeto.ts';

// A point's volunteers: e-mails in one text (a form) or a list (JSON), read by the domain's rule.
palavra<Record<string, never>>('x-emails-dos-voluntarios', (_o, v, trocar) => {
  const r = lerEmailsDosVoluntarios(v);
  if ('erro' in r) return r.erro;
  trocar(r.emails);
  return null;
});

/** The e-mails of a point's volunteers; absent: they stay as they are; blank or null: none. */
const Voluntarios = Type.Unsafe<string[] | undefined>({
  description: `Os voluntários da retirada neste ponto e ciclo: os e-mails de pessoas ativas, separados por vírgula ou um por linha (JSON: também uma lista de e-mails); no máximo ${MAXIMO_DE_VOLUNTARIOS}; ausente, ficam como estão; vazio, nenhum`,
  'x-emails-dos-voluntarios': {},
  [TIPOS_NO_FIO]: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'null' }],
});

const idDaLinha = IdOpcional('A linha já salva (sem ele, uma nova)');

/** The fields of each list's rows, by list. */
const CAMPOS_DAS_LINHAS = {
  cicloEntregas: {
    id: idDaLinha,
    dataEntrega: Data('O dia da entrega', { obrigatorio: true }),
    observacao: Texto('Observação', { max: 200 }),
  },
  cicloPontos: {
    id: idDaLinha,
    pontoEntregaId: Id('O ponto de retirada'),
    dataRetirada: Data('O dia da retirada nele', {}),
    horaInicio: Hora('Das'),
    horaFim: Hora('Até'),
    voluntarios: Voluntarios,
  },
  cicloCestas: {
    id: idDaLinha,
    cestaId: Id('A cesta'),
    quantidadeCestas: Inteiro('Quantas o ciclo oferece', { obrigatorio: true, min: 0, max: 100_000 }),
  },
  cicloProdutos: {
    id: idDaLinha,
    produtoId: Id('O produto'),
    quantidade: Milesimos('Quanto o ciclo oferece, na unidade do produto', { obrigatorio: true }),
    valor: Centavos('Preço por unidade', { obrigatorio: true }),
  },
} as const satisfies Record<ListaDoCiclo, Record<string, TSchema>>;

const Entrega = Objeto(CAMPOS_DAS_LINHAS.cicloEntregas, ['dataEntrega']);
const Ponto = Objeto(CAMPOS_DAS_LINHAS.cicloPontos, ['pontoEntregaId']);
const Cesta = Objeto(CAMPOS_DAS_LINHAS.cicloCestas, ['cestaId', 'quantidadeCestas']);
const Produto = Objeto(CAMPOS_DAS_LINHAS.cicloProdutos, ['produtoId', 'quantidade', 'valor']);

/** A child list: rows left blank are spares; its length has no limit of its own (the body's has). */
const lista = <T extends TSchema>(linha: T, descricao: string) =>
  Linhas(linha, `${descricao}; presente, substitui a lista inteira`, {
    maximo: Number.MAX_SAFE_INTEGER,
    pular: 'em-branco',
  });

const esquema = Objeto(
  {
    nome: Texto('Nome do ciclo', { obrigatorio: true, max: 120 }),
    dataOfertaInicio: Data('Início das ofertas', { obrigatorio: true }),
    dataOfertaFim: Data('Fim das ofertas', { obrigatorio: true }),
    dataPedidoInicio: Data('Início dos pedidos', { obrigatorio: true }),
    dataPedidoFim: Data('Fim dos pedidos', { obrigatorio: true }),
    dataRetiradaInicio: Data('Início da retirada', { obrigatorio: true }),
    dataRetiradaFim: Data('Fim da retirada', { obrigatorio: true }),
    ativo: Marcado('Ativo; sem ele, o ciclo mantém o valor atual (novo: ativo)'),
    _listas: Type.Unsafe<unknown>({
      description: 'Formulário: as listas que ele traz, separadas por vírgula (as outras ficam como estão)',
      [TIPOS_NO_FIO]: [{ type: 'string' }, { type: 'null' }],
    }),
    cicloEntregas: lista(Entrega, 'As entregas do ciclo'),
    cicloPontos: lista(Ponto, 'Os pontos de retirada do ciclo (vazio: todos os pontos ativos)'),
    cicloCestas: lista(Cesta, 'As cestas do ciclo'),
    cicloProdutos: lista(Produto, 'Os produtos avulsos do ciclo'),
  },
  ['nome', ...CAMPOS_DATA],
);

const lido = compilar<typeof esquema.static>(esquema);

/** The lists a body replaces: those `_listas` names (a form), else those it has (JSON). */
function listasPresentes(corpo: Readonly<Record<string, unknown>>): ReadonlySet<string> {
  const declaradas = corpo._listas;
  return new Set<string>(
    typeof declaradas === 'string'
      ? declaradas.split(',')
      : LISTAS_DO_CICLO.filter((l) => Object.hasOwn(corpo, l) && corpo[l] !== undefined),
  );
}

/** The fields of every row that could not be read, by the names the rules report them under. */
function camposIlegiveis(c: typeof esquema.static, recusas: Recusas, nomear: Nomear): Set<string> {
  const ilegiveis = new Set<string>(CAMPOS_DATA.filter((k) => !recusas.legivel([k])));
  for (const l of LISTAS_DO_CICLO)
    for (const { indice } of linhasDe(c[l]))
      for (const k of Object.keys(CAMPOS_DAS_LINHAS[l]))
        if (!recusas.legivel([l, indice, k])) ilegiveis.add(`${nomear([l, indice])}.${k}`);
  return ilegiveis;
}

export const SalvarCiclo = comando<CicloLido>('SalvarCiclo', esquema, {
  raizes: ['nome', ...CAMPOS_DATA, 'ativo', ...LISTAS_DO_CICLO],
  donos: () => [],
  ler(dados, nomear) {
    const enviado = comoObjeto(dados);
    const presentes = listasPresentes(enviado);
    // A list the body does not replace is not read either (the spread keeps a form's mark).
    const corpo: Record<string | symbol, unknown> = { ...enviado };
    for (const l of LISTAS_DO_CICLO) if (!presentes.has(l)) corpo[l] = undefined;
    const recusas = new Recusas();
    const c = lido.validar(corpo, recusas);
    const linhas = <T, R>(l: ListaDoCiclo, ler: (linha: T, nome: string) => R): R[] | null =>
      presentes.has(l) ? linhasDe<T>(c[l]).map(({ linha, indice }) => ler(linha, nomear([l, indice]))) : null;
    const ciclo: CicloLido = {
      dados: {
        nome: c.nome,
        dataOfertaInicio: c.dataOfertaInicio,
        dataOfertaFim: c.dataOfertaFim,
        dataPedidoInicio: c.dataPedidoInicio,
        dataPedidoFim: c.dataPedidoFim,
        dataRetiradaInicio: c.dataRetiradaInicio,
        dataRetiradaFim: c.dataRetiradaFim,
        ativo: c.ativo ?? null,
      },
      cicloEntregas: linhas('cicloEntregas', (e: typeof Entrega.static, nome) => ({
        id: e.id ?? null,
        dataEntrega: e.dataEntrega,
        observacao: e.observacao ?? null,
        campo: `${nome}.dataEntrega`,
      })),
      cicloPontos: linhas('cicloPontos', (p: typeof Ponto.static, nome) => ({
        id: p.id ?? null,
        pontoEntregaId: p.pontoEntregaId,
        dataRetirada: p.dataRetirada ?? null,
        horaInicio: p.horaInicio ?? null,
        horaFim: p.horaFim ?? null,
        // Only a row that sends them replaces them.
        ...(p.voluntarios === undefined ? {} : { voluntarios: p.voluntarios }),
        campo: `${nome}.pontoEntregaId`,
      })),
      cicloCestas: linhas('cicloCestas', (x: typeof Cesta.static, nome) => ({
        id: x.id ?? null,
        cestaId: x.cestaId,
        quantidadeCestas: x.quantidadeCestas,
        campo: `${nome}.cestaId`,
      })),
      cicloProdutos: linhas('cicloProdutos', (p: typeof Produto.static, nome) => ({
        id: p.id ?? null,
        produtoId: p.produtoId,
        quantidadeMilesimos: p.quantidade,
        valorCentavos: p.valor,
        campo: `${nome}.produtoId`,
      })),
    };
    if (!recusas.vazia) {
      // The cycle's rules on what could be read, so a form shows every problem at once.
      recusas.juntarNomeados(regrasDoCiclo(ciclo, camposIlegiveis(c, recusas, nomear)));
      recusas.recusar(nomear);
    }
    return ciclo;
  },
});

/**
 * Nomear os voluntários de um ponto do ciclo (POST /retirada/:cicloId/voluntarios): the point and
 * the whole set of its volunteers' e-mails (blank or an empty list: none; required, so that a
 * body that forgets it clears nobody).
 */
export const NomearVoluntarios = comandoDeObjeto(
  'NomearVoluntarios',
  Objeto({ pontoEntregaId: Id('O ponto de retirada do ciclo'), voluntarios: Voluntarios }, [
    'pontoEntregaId',
    'voluntarios',
  ]),
  { montar: (c) => ({ pontoEntregaId: c.pontoEntregaId, emails: c.voluntarios ?? [] }) },
);
