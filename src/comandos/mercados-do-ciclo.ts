/**
 * Definir os mercados do ciclo (POST /ciclo/:id/mercados, GraphQL `definirMercadosDoCiclo`): the
 * whole list, always (an empty one: no markets). A form row is a market the page lists; its box
 * `incluir` says whether the cycle serves it. Lists of ids come as JSON arrays or repeated form values.
 */
import { Type } from '@sinclair/typebox';
import { regrasDosMercadosDoCiclo, type CicloMercadoLido } from '../domain/mercados-do-ciclo/comum.ts';
import { comando } from './comando.ts';
import { Id, Ids, Inteiro, Linhas, Objeto } from './leitor/blocos.ts';
import { TIPOS_NO_FIO } from './leitor/fio.ts';
import { Recusas, compilar, comoObjeto, linhasDe } from './leitor/leitura.ts';

const CicloMercado = Objeto(
  {
    mercadoId: Id('O mercado'),
    ordemAtendimento: Inteiro('A ordem de atendimento, única no ciclo, de 1 em diante', {
      obrigatorio: true,
      min: 1,
      max: 1000,
    }),
    pontoEntregaIds: Ids('Os pontos de retirada do mercado no ciclo (vazio: os do ciclo)', 'Deve ser uma lista de ids'),
    cicloCestaIds: Ids('Mercados de cestas: as cestas do ciclo vendidas nele', 'Deve ser uma lista de ids'),
    incluir: Type.Unsafe<unknown>({
      description: 'Formulário: se o ciclo atende este mercado (a caixa marcada; desmarcada, a linha fica de fora)',
      [TIPOS_NO_FIO]: [{ type: 'boolean' }, { type: 'string' }, { type: 'array', items: { type: 'string' } }],
    }),
  },
  ['mercadoId', 'ordemAtendimento'],
);

const esquema = Objeto(
  {
    cicloMercados: comFalta(
      Linhas(
        CicloMercado,
        'A lista inteira dos mercados do ciclo (vazia: nenhum); uma linha de formulário sem `incluir` marcado fica de fora',
        {
          maximo: 50,
          pular: { desmarcado: 'incluir' },
        },
      ),
    ),
  },
  ['cicloMercados'],
);

/** The message a missing list gets: the whole list is always said, never assumed from a missing field. */
function comFalta<T extends object>(t: T): T {
  return { ...t, 'x-falta': 'Campo obrigatório: a lista dos mercados do ciclo (vazia: nenhum)' };
}

const lido = compilar<typeof esquema.static>(esquema);

export const DefinirMercadosDoCiclo = comando<CicloMercadoLido[]>('DefinirMercadosDoCiclo', esquema, {
  raizes: ['cicloMercados'],
  donos: () => [],
  ler(dados, nomear) {
    const recusas = new Recusas();
    const c = lido.validar(comoObjeto(dados), recusas);
    const itens = linhasDe<typeof CicloMercado.static>(c.cicloMercados).map(({ linha, indice }) => ({
      item: {
        mercadoId: linha.mercadoId,
        ordemAtendimento: linha.ordemAtendimento,
        pontoEntregaIds: linha.pontoEntregaIds ?? [],
        cicloCestaIds: linha.cicloCestaIds ?? [],
        campo: nomear(['cicloMercados', indice]),
      },
      indice,
    }));
    if (!recusas.vazia) {
      recusas.juntarNomeados(
        regrasDosMercadosDoCiclo(itens.filter((i) => recusas.legivel(['cicloMercados', i.indice])).map((i) => i.item)),
      );
      recusas.recusar(nomear);
    }
    return itens.map((i) => i.item);
  },
});
