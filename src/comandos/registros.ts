/**
 * The catalogue's records (POST /categoria, /cesta, /produto, /pontoentrega and their /:id): one
 * command per kind, each the record's fields as its form and its JSON send them. `ativo` left out
 * keeps what the record says (a new one is active).
 */
import { UNIDADES, type DadosCatalogo, type EntidadeCatalogo } from '../domain/catalogo.ts';
import type { Comando } from './comando.ts';
import { Booleano, Centavos, IdOpcional, InteiroOpcional, Telefone, Texto, UmDe } from './leitor/blocos.ts';
import { comandoPlano } from './plano.ts';

/** A record's `ativo`: absent keeps what the record says (a new one is active). */
export const Ativo = Booleano('Ativo; sem ele, o registro mantém o valor atual (novo: ativo)', null);

const nome = (max: number) => Texto('Nome', { obrigatorio: true, max });
const opcional = (descricao: string, max: number) => Texto(descricao, { max });
const VALOR_REFERENCIA = Centavos('Valor de referência', { obrigatorio: true });

const SalvarCategoria = comandoPlano(
  'SalvarCategoria',
  { nome: nome(80), descricao: opcional('Descrição', 500), ativo: Ativo },
  ['nome'],
  { paraDominio: (c) => ({ nome: c.nome, descricao: c.descricao ?? null, ativo: c.ativo ?? null }) },
);

const SalvarCesta = comandoPlano(
  'SalvarCesta',
  {
    nome: nome(80),
    descricao: opcional('Descrição', 1000),
    valorReferencia: VALOR_REFERENCIA,
    pesoAproximado: InteiroOpcional('Peso aproximado, em gramas', { min: 0, max: 1_000_000 }),
    ativo: Ativo,
  },
  ['nome', 'valorReferencia'],
  {
    paraDominio: (c) => ({
      nome: c.nome,
      descricao: c.descricao ?? null,
      valorReferenciaCentavos: c.valorReferencia,
      pesoAproximado: c.pesoAproximado ?? null,
      ativo: c.ativo ?? null,
    }),
  },
);

const SalvarProduto = comandoPlano(
  'SalvarProduto',
  {
    nome: nome(120),
    unidade: UmDe('Unidade', UNIDADES),
    pesoGramas: InteiroOpcional('Peso em gramas', { min: 0, max: 1_000_000 }),
    valorReferencia: VALOR_REFERENCIA,
    descritivo: opcional('Descrição', 2000),
    categoriaid: IdOpcional('A categoria'),
    ativo: Ativo,
  },
  ['nome', 'unidade', 'valorReferencia'],
  {
    paraDominio: (c) => ({
      nome: c.nome,
      unidade: c.unidade,
      pesoGramas: c.pesoGramas ?? null,
      valorReferenciaCentavos: c.valorReferencia,
      descritivo: c.descritivo ?? null,
      categoriaid: c.categoriaid ?? null,
      ativo: c.ativo ?? null,
    }),
  },
);

const SalvarPontoEntrega = comandoPlano(
  'SalvarPontoEntrega',
  {
    nome: nome(120),
    endereco: opcional('Endereço', 200),
    cidade: opcional('Cidade', 100),
    referencia: opcional('Ponto de referência', 200),
    responsavel: opcional('Responsável', 120),
    telefone: Telefone('Telefone'),
    ativo: Ativo,
  },
  ['nome'],
  {
    paraDominio: (c) => ({
      nome: c.nome,
      endereco: c.endereco ?? null,
      cidade: c.cidade ?? null,
      referencia: c.referencia ?? null,
      responsavel: c.responsavel ?? null,
      telefone: c.telefone ?? null,
      ativo: c.ativo ?? null,
    }),
  },
);

/** The command that saves each kind of catalogue record. */
export const SALVAR_NO_CATALOGO: { readonly [E in EntidadeCatalogo]: Comando<DadosCatalogo[E]> } = {
  categoria: SalvarCategoria,
  cesta: SalvarCesta,
  produto: SalvarProduto,
  pontoentrega: SalvarPontoEntrega,
};
