/**
 * The subscriptions' writes: save one (POST /assinaturas, GraphQL `salvarAssinatura`), pause it
 * (POST /assinaturas/:id/pausas), change one cycle (POST /assinaturas/:id/ciclo/:cicloId), cap a
 * basket type (POST /assinaturas/limite) and record a season paid in advance
 * (POST /assinaturas/:id/pagamento, GraphQL `registrarPagamentoDaTemporada`). Dates are AAAA-MM-DD;
 * a form may write them dd/mm/aaaa.
 */
import { MAXIMO_LANCAMENTO_CENTAVOS } from '../decimal.ts';
import { FREQUENCIAS, type EntradaAssinatura } from '../domain/assinaturas/modelo.ts';
import { donosDoRecurso } from './comando.ts';
import {
  Booleano,
  Centavos,
  Data,
  Id,
  IdOpcional,
  Inteiro,
  InteiroOpcional,
  Objeto,
  Texto,
  UmDe,
} from './leitor/blocos.ts';
import { MAIOR_ID } from './leitor/comum.ts';
import { type Recusas } from './leitor/leitura.ts';
import { idNomeado } from './leitor/palavras.ts';
import { comandoDeObjeto } from './objeto.ts';

/** A period's end before its start is refused on the end (when both could be read). */
function periodo(recusas: Recusas, p: { inicio: string; fim: string }, mensagem: string): void {
  if (recusas.legivel(['inicio']) && recusas.legivel(['fim']) && p.inicio > p.fim) recusas.juntar(['fim'], mensagem);
}

export const SalvarAssinatura = comandoDeObjeto(
  'SalvarAssinatura',
  Objeto(
    {
      id: IdOpcional('A assinatura a alterar (sem id: uma nova)'),
      usuarioid: IdOpcional('O consumidor (só a administração assina por outra pessoa)'),
      cestaId: Id('O tipo de cesta'),
      quantidade: Inteiro('Cestas por ciclo, de 1 a 1000', { obrigatorio: true, min: 1, max: 1000 }),
      pontoEntregaId: Id('Onde retirar'),
      frequencia: UmDe('A frequência', FREQUENCIAS, {
        obrigatorio: true,
        mensagem: 'Escolha a frequência: a cada ciclo ou ciclo sim, ciclo não',
      }),
      inicio: Data('Início da temporada', { obrigatorio: true, digitada: true }),
      fim: Data('Fim da temporada', { obrigatorio: true, digitada: true }),
      mercadoId: IdOpcional('Um mercado de cestas'),
      ativa: Booleano('false encerra a assinatura', true),
    },
    ['cestaId', 'quantidade', 'pontoEntregaId', 'frequencia', 'inicio', 'fim'],
  ),
  {
    donos: (dados) => donosDoRecurso(dados, null),
    montar: (c, recusas): EntradaAssinatura => {
      periodo(recusas, c, 'O fim não pode ser antes do início');
      return {
        id: c.id ?? null,
        usuarioid: c.usuarioid ?? null,
        cestaId: c.cestaId,
        quantidade: c.quantidade,
        pontoEntregaId: c.pontoEntregaId,
        frequencia: c.frequencia,
        inicio: c.inicio,
        fim: c.fim,
        mercadoId: c.mercadoId ?? null,
        ativa: c.ativa ?? true,
      };
    },
  },
);

/**
 * The subscription a body names to change (null: a new one, or an id that is not one), for the
 * check that it is the actor's, which runs before any validation.
 */
export function assinaturaNomeada(dados: unknown): number | null {
  const id = idNomeado(dados !== null && typeof dados === 'object' ? (dados as Record<string, unknown>).id : null);
  return id !== null && id >= 1 && id <= MAIOR_ID ? id : null;
}

export const PausarAssinatura = comandoDeObjeto(
  'PausarAssinatura',
  Objeto(
    {
      inicio: Data('Início da pausa', { obrigatorio: true, digitada: true }),
      fim: Data('Fim da pausa', { obrigatorio: true, digitada: true }),
    },
    ['inicio', 'fim'],
  ),
  {
    montar: (c, recusas) => {
      periodo(recusas, c, 'O fim da pausa não pode ser antes do início');
      return { inicio: c.inicio, fim: c.fim };
    },
  },
);

export const AlterarNoCiclo = comandoDeObjeto(
  'AlterarNoCiclo',
  Objeto(
    {
      quantidade: Inteiro('Cestas neste ciclo, de 1 a 1000', { obrigatorio: true, min: 1, max: 1000 }),
      pontoEntregaId: Id('Onde retirar neste ciclo'),
    },
    ['quantidade', 'pontoEntregaId'],
  ),
  { montar: (c) => ({ quantidade: c.quantidade, pontoEntregaId: c.pontoEntregaId }) },
);

export const LimitarAssinaturas = comandoDeObjeto(
  'LimitarAssinaturas',
  Objeto(
    {
      cestaId: Id('O tipo de cesta'),
      limiteAssinaturas: InteiroOpcional('Máximo de assinaturas ativas (vazio: sem limite)', { min: 0, max: 100_000 }),
    },
    ['cestaId'],
  ),
  { montar: (c) => ({ cestaId: c.cestaId, limite: c.limiteAssinaturas ?? null }) },
);

export const RegistrarPagamentoDaTemporada = comandoDeObjeto(
  'RegistrarPagamentoDaTemporada',
  Objeto(
    {
      valor: Centavos('O valor pago pela temporada', { obrigatorio: true, min: 1, max: MAXIMO_LANCAMENTO_CENTAVOS }),
      descricao: Texto('Uma observação (forma de pagamento, por exemplo)', { max: 200 }),
      envio: Texto(
        'Um identificador deste envio (8 a 64 letras, dígitos e hífens). O mesmo envio de novo não registra outro pagamento e responde o já registrado, com 200',
        { max: 64 },
      ),
    },
    ['valor'],
  ),
  { montar: (c) => ({ valorCentavos: c.valor, descricao: c.descricao ?? null, envio: c.envio ?? null }) },
);
