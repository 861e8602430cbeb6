/**
 * The Cestas edge for the record forms (catalogue, users, one's own registration): a JSON body
 * and a form body (checkboxes, decimal commas typed by people) become the domain's typed values
 * here, in integer units, before the domain sees them. Each reader collects every bad field at
 * once, with the domain's own rules on what it could read, and throws one Invalido: a form shows
 * every problem together.
 */
import type { Ator } from '../domain/acesso.ts';
import { UNIDADES, type DadosCatalogo, type EntidadeCatalogo, type Unidade } from '../domain/catalogo.ts';
import { ESCALA_DINHEIRO } from '../decimal.ts';
import { PERFIS, type Perfil } from '../domain/perfis.ts';
import {
  exigirProprioCadastro,
  regraDaPolitica,
  regraDosPerfis,
  regrasDaEscolhaDePerfis,
  type DadosPessoais,
  type EntradaAutocadastro,
  type EntradaProprioCadastro,
  type EntradaUsuario,
} from '../domain/usuarios.ts';
import { Campos, MAIOR_ID, type Entrada } from '../http/campos.ts';

/** `ativo` when sent; null when not: a new record is active, an edit keeps what the record was. */
function lerAtivo(c: Campos): boolean | null {
  return c.presente('ativo') ? c.booleano('ativo') : null;
}

const LEITORES_DO_CATALOGO: { readonly [E in EntidadeCatalogo]: (c: Campos) => DadosCatalogo[E] } = {
  categoria: (c) => ({
    nome: c.texto('nome', { obrigatorio: true, max: 80 }),
    descricao: c.texto('descricao', { max: 500 }),
    ativo: lerAtivo(c),
  }),
  cesta: (c) => ({
    nome: c.texto('nome', { obrigatorio: true, max: 80 }),
    descricao: c.texto('descricao', { max: 1000 }),
    valorReferenciaCentavos: c.decimal('valorReferencia', ESCALA_DINHEIRO, { obrigatorio: true }),
    pesoAproximado: c.inteiro('pesoAproximado', { min: 0, max: 1_000_000 }),
    ativo: lerAtivo(c),
  }),
  produto: (c) => ({
    nome: c.texto('nome', { obrigatorio: true, max: 120 }),
    // A missing or unknown unit is an error, and concluir() refuses the body before it is used.
    unidade: c.umDe('unidade', UNIDADES, { obrigatorio: true }) as Unidade,
    pesoGramas: c.inteiro('pesoGramas', { min: 0, max: 1_000_000 }),
    valorReferenciaCentavos: c.decimal('valorReferencia', ESCALA_DINHEIRO, { obrigatorio: true }),
    descritivo: c.texto('descritivo', { max: 2000 }),
    categoriaid: c.inteiro('categoriaid', { min: 1, max: MAIOR_ID }),
    ativo: lerAtivo(c),
  }),
  pontoentrega: (c) => ({
    nome: c.texto('nome', { obrigatorio: true, max: 120 }),
    endereco: c.texto('endereco', { max: 200 }),
    cidade: c.texto('cidade', { max: 100 }),
    referencia: c.texto('referencia', { max: 200 }),
    responsavel: c.texto('responsavel', { max: 120 }),
    telefone: c.telefone('telefone'),
    ativo: lerAtivo(c),
  }),
};

/** POST of a catalogue record (categoria, cesta, produto, pontoentrega): its fields. */
export function lerCatalogo<E extends EntidadeCatalogo>(entidade: E, corpo: Entrada): DadosCatalogo[E] {
  const c = new Campos(corpo);
  const dados = LEITORES_DO_CATALOGO[entidade](c);
  c.concluir();
  return dados;
}

/** The personal fields a person edits about themselves. */
function lerDadosPessoais(c: Campos): DadosPessoais {
  return {
    nome: c.texto('nome', { obrigatorio: true, max: 120 }),
    nomeoficial: c.texto('nomeoficial', { max: 200 }),
    celular: c.telefone('celular'),
    descritivo: c.texto('descritivo', { max: 2000 }),
    cientepolitica: c.booleano('cientepolitica'),
  };
}

/** The perfis one chooses for oneself: a forbidden one is refused at once, before the other fields. */
function lerEscolhaDePerfis(c: Campos): Perfil[] {
  const perfil = c.conjuntoDe('perfil', PERFIS);
  c.juntar(regrasDaEscolhaDePerfis(perfil));
  return perfil;
}

/** POST /usuarionovo: one's personal fields, the perfis chosen and the policy acknowledged. */
export function lerAutocadastro(corpo: Entrada): EntradaAutocadastro {
  const c = new Campos(corpo);
  const dados = lerDadosPessoais(c);
  const perfil = lerEscolhaDePerfis(c);
  c.juntar(regraDaPolitica(dados.cientepolitica));
  c.concluir();
  return { ...dados, perfil };
}

/**
 * POST /usuarionovo/:id and /profile: one's own personal fields and, where the page offers them,
 * the perfis chosen again. Whose record it is comes first, before any field is judged.
 */
export function lerProprioCadastro(ator: Ator, id: number, corpo: Entrada, comPerfis: boolean): EntradaProprioCadastro {
  exigirProprioCadastro(ator, id);
  const c = new Campos(corpo);
  const dados = lerDadosPessoais(c);
  const perfil = comPerfis ? lerEscolhaDePerfis(c) : null;
  c.concluir();
  return { ...dados, perfil };
}

/** POST /usuario and /usuario/:id: an account as an administrator writes it. */
export function lerUsuario(corpo: Entrada): EntradaUsuario {
  const c = new Campos(corpo);
  const email = c.email('email');
  const perfil = c.conjuntoDe('perfil', PERFIS);
  c.juntar(regraDosPerfis(perfil));
  const dados = lerDadosPessoais(c);
  const ativo = lerAtivo(c);
  c.concluir();
  return { ...dados, email, perfil, ativo };
}
