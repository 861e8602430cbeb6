/**
 * A person's record: one's own registration (POST /usuarionovo), one's own record again
 * (/usuarionovo/:id, with the perfis chosen; /profile, without them) and an account as an
 * administrator writes it (POST /usuario, /usuario/:id). Whose record it is comes first, at the route.
 */
import { PERFIS, type Perfil } from '../domain/perfis.ts';
import {
  regraDaPolitica,
  regraDosPerfis,
  regrasDaEscolhaDePerfis,
  type DadosPessoais,
  type EntradaAutocadastro,
  type EntradaProprioCadastro,
  type EntradaUsuario,
} from '../domain/usuarios.ts';
import { Booleano, ConjuntoDe, Email, Telefone, Texto } from './leitor/blocos.ts';
import { comandoPlano } from './plano.ts';
import { Ativo } from './registros.ts';

/** The personal fields a person edits about themselves. */
const DADOS_PESSOAIS = {
  nome: Texto('Nome', { obrigatorio: true, max: 120 }),
  nomeoficial: Texto('Nome oficial ou razão social', { max: 200 }),
  celular: Telefone('Celular'),
  descritivo: Texto('Sobre a pessoa', { max: 2000 }),
  cientepolitica: Booleano('Ciente da política da comunidade', false),
};

const dadosPessoais = (c: {
  nome: string;
  nomeoficial?: string | null;
  celular?: string | null;
  descritivo?: string | null;
  cientepolitica?: boolean;
}): DadosPessoais => ({
  nome: c.nome,
  nomeoficial: c.nomeoficial ?? null,
  celular: c.celular ?? null,
  descritivo: c.descritivo ?? null,
  cientepolitica: c.cientepolitica ?? false,
});

const Perfis = ConjuntoDe('Perfis', PERFIS);
const COM_PERFIS = { ...DADOS_PESSOAIS, perfil: Perfis };

/** The perfis one chooses for oneself, when they could be read: a forbidden one is refused at once (Proibido). */
const escolhaDePerfis = (perfil: readonly Perfil[] | undefined, legivel: boolean) =>
  legivel ? regrasDaEscolhaDePerfis(perfil ?? []) : {};

/** POST /usuarionovo: one's personal fields, the perfis chosen and the policy acknowledged. */
export const Autocadastro = comandoPlano<typeof COM_PERFIS, EntradaAutocadastro>('Autocadastro', COM_PERFIS, ['nome'], {
  regras: (c, legivel) => ({
    ...escolhaDePerfis(c.perfil, legivel('perfil')),
    ...(legivel('cientepolitica') ? regraDaPolitica(c.cientepolitica ?? false) : {}),
  }),
  paraDominio: (c) => ({ ...dadosPessoais(c), perfil: c.perfil ?? [] }),
});

/** POST /usuarionovo/:id: one's own personal fields and the perfis chosen again. */
export const AtualizarCadastro = comandoPlano<typeof COM_PERFIS, EntradaProprioCadastro>(
  'AtualizarCadastro',
  COM_PERFIS,
  ['nome'],
  {
    regras: (c, legivel) => escolhaDePerfis(c.perfil, legivel('perfil')),
    paraDominio: (c) => ({ ...dadosPessoais(c), perfil: c.perfil ?? [] }),
  },
);

/** POST /profile: one's own personal fields (the perfis stay as they are). */
export const AtualizarPerfil = comandoPlano<typeof DADOS_PESSOAIS, EntradaProprioCadastro>(
  'AtualizarPerfil',
  DADOS_PESSOAIS,
  ['nome'],
  { paraDominio: (c) => ({ ...dadosPessoais(c), perfil: null }) },
);

const CAMPOS_DO_USUARIO = {
  email: Email('E-mail (o mesmo do login)'),
  perfil: Perfis,
  ...DADOS_PESSOAIS,
  ativo: Ativo,
};

/** POST /usuario and /usuario/:id: an account as an administrator writes it. */
export const SalvarUsuario = comandoPlano<typeof CAMPOS_DO_USUARIO, EntradaUsuario>(
  'SalvarUsuario',
  CAMPOS_DO_USUARIO,
  ['email', 'nome'],
  {
    regras: (c, legivel) => (legivel('perfil') ? regraDosPerfis(c.perfil ?? []) : {}),
    paraDominio: (c) => ({ ...dadosPessoais(c), email: c.email, perfil: c.perfil ?? [], ativo: c.ativo ?? null }),
  },
);
