/**
 * The Mercados edge for the operations' arguments: `id`, `input` and the filters become the
 * domain's typed values here, in integer units, and every bad field is named by its path from the
 * arguments (`input.nome`, `input.precos[2].preco`), so a client can point at the exact field.
 * The domain names a market's fields by their own names (`adminId`); `comCaminhosDoInput` gives
 * its refusals the paths of the arguments.
 */
import { ESCALA_DINHEIRO } from '../../decimal.ts';
import { Invalido, recusarInvalidos } from '../../domain/erros.ts';
import {
  ESCALA_TAXA,
  TIPOS_MERCADO,
  regraDaTaxa,
  regraDoValorMaximo,
  regrasDoLote,
  type DadosMercado,
  type LinhaDePreco,
  type TipoMercado,
} from '../../domain/mercados.ts';
import { PROFILES, type NomePerfil } from '../../domain/politica-mercados.ts';
import { Campos, MAIOR_ID, lerId, type Entrada } from '../../http/campos.ts';
import { TIPOS_DE_AVISO, TIPOS_OPCIONAIS, ehTipoDeAviso, type TipoDeAviso } from '../../domain/avisos.ts';

/** Prices per batch: far above a real market's list, low enough to stay one statement. */
export const MAXIMO_PRECOS_POR_LOTE = 1000;

function comoObjeto(valor: unknown): Entrada {
  return valor !== null && typeof valor === 'object' && !Array.isArray(valor) ? (valor as Entrada) : {};
}

/** The fields of one input object, each named `<prefixo><campo>`. */
function comPrefixo(prefixo: string, erros: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(erros).map(([campo, mensagem]) => [`${prefixo}${campo}`, mensagem]));
}

/** MercadoInput, with the domain's rules on what could be read, naming every bad field as `input.<campo>`. */
export function lerMercadoInput(input: unknown): DadosMercado {
  const c = new Campos(comoObjeto(input));
  const nome = c.texto('nome', { obrigatorio: true, max: 120 });
  const descricao = c.texto('descricao', { max: 2000 });
  const tipo = c.umDe('tipo', TIPOS_MERCADO, { obrigatorio: true });
  const taxa = c.decimal('taxaAdministrativa', ESCALA_TAXA);
  c.juntar(regraDaTaxa(taxa));
  const valorMaximo = c.decimal('valorMaximoCesta', ESCALA_DINHEIRO);
  c.juntar(regraDoValorMaximo(tipo, valorMaximo));
  const adminId = c.inteiro('adminId', { min: 1, max: MAIOR_ID });
  const ativo = c.presente('ativo') ? c.booleano('ativo') : null;
  recusarInvalidos(comPrefixo('input.', c.erros));
  return {
    nome,
    descricao: descricao === '' ? null : descricao,
    // recusarInvalidos() above refused a missing or unknown tipo.
    tipo: tipo as TipoMercado,
    taxaAdministrativaCentesimos: taxa,
    valorMaximoCestaCentavos: valorMaximo,
    adminId,
    ativo,
  };
}

/**
 * PrecoMercadoInput: every line read and checked against the domain's rules of a batch, and every
 * bad field named (`input.precos[2].preco`), line by line.
 */
export function lerLoteDePrecos(input: unknown): LinhaDePreco[] {
  const bruto = comoObjeto(input).precos;
  const recusarLista = (mensagem: string): never => {
    throw new Invalido('VALIDACAO', mensagem, { 'input.precos': mensagem });
  };
  if (!Array.isArray(bruto)) return recusarLista('Informe a lista de preços');
  if (bruto.length > MAXIMO_PRECOS_POR_LOTE) recusarLista(`No máximo ${MAXIMO_PRECOS_POR_LOTE} preços por vez`);
  const lidas = bruto.map((item: unknown, i) => {
    const c = new Campos(comoObjeto(item));
    const linha: LinhaDePreco = {
      campo: `input.precos[${i}]`,
      produtoId: c.inteiro('produtoId', { obrigatorio: true, min: 1, max: MAIOR_ID }),
      precoCentavos: c.decimal('preco', ESCALA_DINHEIRO, { obrigatorio: true }),
      ativo: c.presente('ativo') ? c.booleano('ativo') : null,
    };
    return { linha, erros: c.erros };
  });
  // A line whose product could not be read is judged by that alone: it repeats nothing.
  const regras = regrasDoLote(lidas.filter((l) => l.erros.produtoId === undefined).map((l) => l.linha));
  const erros: Record<string, string> = {};
  for (const { linha, erros: daLinha } of lidas) {
    const prefixo = `${linha.campo}.`;
    for (const [campo, mensagem] of Object.entries(daLinha)) erros[`${prefixo}${campo}`] ??= mensagem;
    for (const [campo, mensagem] of Object.entries(regras)) if (campo.startsWith(prefixo)) erros[campo] ??= mensagem;
  }
  recusarInvalidos(erros);
  return lidas.map((l) => l.linha);
}

/** The `produtos` query's arguments. */
export function lerBuscaDeProdutos(a: { readonly busca?: string | null; readonly ativo?: boolean | null }): {
  busca: string | null;
  ativo: boolean | null;
} {
  const c = new Campos({ busca: a.busca });
  const busca = c.texto('busca', { max: 100 });
  c.concluir();
  return { busca, ativo: a.ativo ?? null };
}

/** `atribuirPerfis(userId, perfis)`. */
export function lerAtribuicaoDePerfis(a: { readonly userId: unknown; readonly perfis: unknown }): {
  userId: number;
  perfis: NomePerfil[];
} {
  const userId = lerId(a.userId, 'userId');
  const c = new Campos({ perfis: a.perfis });
  const perfis = c.conjuntoDe('perfis', PROFILES);
  c.concluir();
  return { userId, perfis };
}

/**
 * A market write's refusals from the domain, with the argument paths: `id` is the argument, and
 * any other field is MercadoInput's (`adminId` → `input.adminId`).
 */
export async function comCaminhosDoInput<T>(escrita: Promise<T>): Promise<T> {
  try {
    return await escrita;
  } catch (e) {
    if (!(e instanceof Invalido) || e.detalhes === undefined) throw e;
    const detalhes = Object.fromEntries(
      Object.entries(e.detalhes).map(([campo, mensagem]) => [campo === 'id' ? campo : `input.${campo}`, mensagem]),
    );
    throw new Invalido(e.codigo, e.message, detalhes);
  }
}

/** definirMeusAvisos: the optional kinds to receive; naming a mandatory one asks for nothing more. */
export function lerAvisosEscolhidos(recebe: readonly string[]): TipoDeAviso[] {
  const c = new Campos({ recebe: recebe.filter((t) => !(ehTipoDeAviso(t) && !TIPOS_DE_AVISO[t].opcional)) });
  const escolhidos = c.conjuntoDe('recebe', TIPOS_OPCIONAIS);
  c.concluir();
  return escolhidos;
}
