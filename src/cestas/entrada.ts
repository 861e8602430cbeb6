/**
 * The Cestas edge for the cycle's writes, the list pages' queries and the reports' choices: a
 * JSON body and a form body (qs bracket keys, blank spare rows, checkboxes) become the same typed
 * values in integer units here, before the domain sees them. Each reader collects every bad field
 * at once and throws one Invalido.
 *
 * Ownership comes first: where a body names the person acted for (`usuarioid`), the caller's
 * `dono` check runs before any other field is judged, so someone else's id is refused as such
 * and never answered with a validation message about that person's data.
 */
import { TIPOS_DE_AVISO, TIPOS_OPCIONAIS, ehTipoDeAviso, type TipoDeAviso } from '../domain/avisos.ts';
import { CAMPOS_DATA } from '../domain/ciclos/calendario.ts';
import { LISTAS_DO_CICLO, type CicloLido, type ListaDoCiclo } from '../domain/ciclos/modelo.ts';
import { regrasDoCiclo } from '../domain/ciclos/regras.ts';
import { regrasDosItens, type EntradaComposicao, type ItemDaComposicao } from '../domain/composicao.ts';
import { ESCALA_DINHEIRO, ESCALA_QUANTIDADE, MAXIMO_LANCAMENTO_CENTAVOS } from '../decimal.ts';
import { Invalido } from '../domain/erros.ts';
import { regraDoComprovante, type ArquivoRecebido, type EntradaMovimentacao } from '../domain/financeiro.ts';
import type { AlvoNaOferta } from '../domain/ofertas.ts';
import { Campos, MAIOR_ID, comoEntrada, type Entrada } from '../http/campos.ts';

// The form parsers mark a body typed by people; the commands and the readers here read its decimals so.
export { digitadoPorPessoas } from '../comandos/leitor.ts';

/** The ownership check of the route's actor for the `usuarioid` a body names (null: none). */
export type Dono = (usuarioid: number | null) => void;

/** Reads `usuarioid` and hands it to the ownership check before anything else. */
function usuarioDoCorpo(c: Campos, dono: Dono): number | null {
  const usuarioid = c.inteiro('usuarioid', { min: 1, max: MAIOR_ID });
  dono(usuarioid);
  return usuarioid;
}

/** A body read in the resource's shape: its fields, and those given twice with different values. */
interface CorpoDoRecurso {
  readonly c: Campos;
  readonly divergentes: readonly string[];
  /** The flat `usuarioid` when the nested one differs: it goes through the ownership check too. */
  readonly outroUsuario: unknown;
}

/**
 * The contract writes a resource's own fields nested (`oferta.cicloid`, `pedido.pontoEntregaId`)
 * beside its `produtos[]`; a program may send that shape or the flat one, and both read the same
 * here. A field given both ways with different values is refused (after the ownership check).
 */
function corpoDoRecurso(corpo: unknown, recurso: 'oferta' | 'pedido'): CorpoDoRecurso {
  const { [recurso]: dentro, ...fora } = comoEntrada(corpo);
  if (dentro === undefined) return { c: new Campos(fora), divergentes: [], outroUsuario: undefined };
  if (dentro === null || typeof dentro !== 'object' || Array.isArray(dentro)) {
    const c = new Campos(fora);
    c.erro(recurso, 'Deve ser um objeto');
    return { c, divergentes: [], outroUsuario: undefined };
  }
  const proprios = dentro as Entrada;
  const divergentes = Object.keys(proprios).filter((k) => Object.hasOwn(fora, k) && fora[k] !== proprios[k]);
  return {
    c: new Campos({ ...fora, ...proprios }),
    divergentes,
    outroUsuario: divergentes.includes('usuarioid') ? fora.usuarioid : undefined,
  };
}

/** Ownership first (of every `usuarioid` the body names), then the fields given twice. */
function donoDoRecurso(r: CorpoDoRecurso, recurso: 'oferta' | 'pedido', dono: Dono): number | null {
  const usuarioid = usuarioDoCorpo(r.c, dono);
  if (r.outroUsuario !== undefined) usuarioDoCorpo(new Campos({ usuarioid: r.outroUsuario }), dono);
  for (const k of r.divergentes) r.c.erro(`${recurso}.${k}`, `Difere do ${k} informado fora de "${recurso}"`);
  return usuarioid;
}

/**
 * The ownership check alone, of every `usuarioid` the body names (flat and nested), for the routes'
 * preValidation: a person acting for someone they may not gets 403 before anything in the body is
 * checked, its schema included.
 */
export function conferirDonos(corpo: unknown, recurso: 'oferta' | 'pedido' | null, dono: Dono): void {
  if (recurso === null) usuarioDoCorpo(new Campos(comoEntrada(corpo)), dono);
  else donoDoRecurso(corpoDoRecurso(corpo, recurso), recurso, dono);
}

/** A list given as a JSON array or as form bracket keys (qs gives an array or an index map). */
export function itensDaLista(valor: unknown): unknown[] | 'invalido' {
  if (valor === undefined || valor === null || valor === '') return [];
  if (Array.isArray(valor)) return valor;
  if (typeof valor === 'object') {
    const chaves = Object.keys(valor);
    if (chaves.every((k) => /^\d+$/.test(k)))
      return chaves.sort((a, b) => Number(a) - Number(b)).map((k) => (valor as Record<string, unknown>)[k]);
  }
  return 'invalido';
}

/** Form rows left blank (the spare rows a page offers) are not rows. */
export function linhaEmBranco(item: unknown): boolean {
  if (item === null || typeof item !== 'object') return false;
  return Object.entries(item).every(([k, v]) => k === 'id' || v === '' || v === undefined || v === null);
}

/**
 * Reads the rows of a list field, each with its own Campos; a row's errors are reported as
 * `lista.i.campo`. Rows `pular` says are not rows (blank spares, zero quantities) are skipped.
 */
export function lerItens<T>(
  c: Campos,
  nome: string,
  opcoes: { maximo: number; excesso?: string; pular: (item: Entrada) => boolean },
  ler: (s: Campos, campo: string) => T,
): T[] {
  const itens = itensDaLista(c.bruto(nome));
  if (itens === 'invalido') {
    c.erro(nome, 'Deve ser uma lista');
    return [];
  }
  if (itens.length > opcoes.maximo) {
    c.erro(nome, opcoes.excesso ?? `No máximo ${opcoes.maximo} itens`);
    return [];
  }
  const lidos: T[] = [];
  itens.forEach((item, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      c.erro(`${nome}.${i}`, 'Deve ser um objeto');
      return;
    }
    if (opcoes.pular(item as Entrada)) return;
    const s = new Campos(item as Entrada);
    const lido = ler(s, `${nome}.${i}`);
    for (const [k, m] of Object.entries(s.erros)) c.erro(`${nome}.${i}.${k}`, m);
    lidos.push(lido);
  });
  return lidos;
}

/** True when no field of the row at `linha` (`produtos.3`) has a reading error. */
function legivel(c: Campos, linha: string): boolean {
  return !Object.keys(c.erros).some((k) => k.startsWith(`${linha}.`));
}

/** Adds the domain's broken rules to what the edge found, so a form shows every problem at once. */
function juntar(c: Campos, erros: Readonly<Record<string, string>>): void {
  for (const [campo, mensagem] of Object.entries(erros)) c.erro(campo, mensagem);
}

/**
 * A form sends every row with its quantity; a blank or a zero ("0", "0,0") means "none of this one". An order
 * also takes a JSON 0 that way; offers and compositions refuse it (a line must hold something).
 */
export function semQuantidade(campo: string, zeroDoJson: boolean): (item: Entrada) => boolean {
  return (item) => {
    const q = Object.hasOwn(item, campo) ? item[campo] : undefined;
    return q === '' || (typeof q === 'string' && /^\s*0+(?:[.,]0+)?\s*$/.test(q)) || (zeroDoJson && q === 0);
  };
}

/**
 * The cycle and the person a refused offer or order form was for (either body shape), to draw its
 * page again; null when the body names no valid cycle or person, and so has no page.
 */
export function alvoDoCorpo(
  corpo: unknown,
  recurso: 'oferta' | 'pedido',
): { readonly cicloid: number; readonly usuarioid: number | null } | null {
  const { c } = corpoDoRecurso(corpo, recurso);
  const cicloid = c.inteiro('cicloid', { min: 1, max: MAIOR_ID });
  const usuarioid = c.inteiro('usuarioid', { min: 1, max: MAIOR_ID });
  return cicloid === null || Object.keys(c.erros).length > 0 ? null : { cicloid, usuarioid };
}

/** POST /pedidoconsumidoresconfirmacao: the order to confirm. */
export function lerConfirmacao(corpo: unknown): number {
  const c = new Campos(comoEntrada(corpo));
  const pedidoId = c.inteiro('pedidoId', { obrigatorio: true, min: 1, max: MAIOR_ID });
  c.concluir();
  return pedidoId;
}

/** POST /ofertaprodutodelete: one line, by its id or by (cicloid, produtoid). */
export function lerRemocaoDaOferta(corpo: unknown, dono: Dono): AlvoNaOferta {
  const c = new Campos(comoEntrada(corpo));
  const usuarioid = usuarioDoCorpo(c, dono);
  const ofertaProdutoId = c.inteiro('ofertaProdutoId', { min: 1, max: MAIOR_ID });
  const cicloid = c.inteiro('cicloid', { min: 1, max: MAIOR_ID });
  const produtoid = c.inteiro('produtoid', { min: 1, max: MAIOR_ID });
  if (ofertaProdutoId === null && (cicloid === null || produtoid === null))
    c.erro('ofertaProdutoId', 'Informe ofertaProdutoId, ou cicloid e produtoid');
  c.concluir();
  if (ofertaProdutoId !== null) return { ofertaProdutoId };
  return { cicloid: cicloid ?? 0, produtoid: produtoid ?? 0, usuarioid };
}

/** The cycle basket a composition write names: the route's id, or the body's on /composicaosave. */
export function cicloCestaDoCorpo(corpo: unknown, idDaRota: number | null): number | null {
  if (idDaRota !== null) return idDaRota;
  const c = new Campos(comoEntrada(corpo));
  const id = c.inteiro('cicloCestaId', { min: 1, max: MAIOR_ID });
  return Object.keys(c.erros).length === 0 ? id : null;
}

/** POST /composicao/:id and /composicaosave: how many baskets, and what goes in each. */
export function lerComposicao(corpo: unknown, idDaRota: number | null): EntradaComposicao {
  const c = new Campos(comoEntrada(corpo));
  const cicloCestaIdCorpo = c.inteiro('cicloCestaId', { min: 1, max: MAIOR_ID });
  const quantidadeCestas = c.inteiro('quantidadeCestas', { obrigatorio: true, min: 0, max: 100_000 });
  const itens = lerItens(
    c,
    'produtos',
    { maximo: 500, excesso: 'No máximo 500 itens por composição', pular: semQuantidade('quantidadePorCesta', false) },
    (s, campo): ItemDaComposicao => ({
      ofertaProdutoId: s.inteiro('ofertaProdutoId', { obrigatorio: true, min: 1, max: MAIOR_ID }),
      quantidadeMilesimos: s.decimal('quantidadePorCesta', ESCALA_QUANTIDADE, { obrigatorio: true, min: 1 }),
      unidade: s.texto('unidade', { obrigatorio: true, max: 20 }),
      campo,
    }),
  );
  juntar(c, regrasDosItens(itens.filter((i) => legivel(c, i.campo))));
  const cicloCestaId = idDaRota ?? cicloCestaIdCorpo;
  if (cicloCestaId === null) c.erro('cicloCestaId', 'Campo obrigatório');
  else if (idDaRota !== null && cicloCestaIdCorpo !== null && cicloCestaIdCorpo !== idDaRota)
    c.erro('cicloCestaId', 'Não confere com o endereço');
  c.concluir();
  return { cicloCestaId: cicloCestaId ?? 0, quantidadeCestas, itens };
}

/**
 * POST/PUT of a cycle. A child list is replaced only when it is present: a JSON key, or (forms)
 * a name listed in `_listas`, since a form with no rows sends nothing.
 */
export function lerCiclo(corpo: unknown): CicloLido {
  const c = new Campos(comoEntrada(corpo));
  const nome = c.texto('nome', { obrigatorio: true, max: 120 });
  const datas = Object.fromEntries(CAMPOS_DATA.map((k) => [k, c.data(k, { obrigatorio: true })])) as Record<
    (typeof CAMPOS_DATA)[number],
    string
  >;
  // A save that leaves `ativo` out keeps it (a form always sends it: a hidden "false" and the box).
  const ativo = c.presente('ativo') ? c.booleano('ativo') : null;
  const declaradas = c.bruto('_listas');
  const presentes = new Set<string>(
    typeof declaradas === 'string' ? declaradas.split(',') : LISTAS_DO_CICLO.filter((l) => c.bruto(l) !== undefined),
  );
  const lista = <T>(nome: ListaDoCiclo, ler: (s: Campos, campo: string) => T): T[] | null =>
    presentes.has(nome) ? lerItens(c, nome, { maximo: Number.POSITIVE_INFINITY, pular: linhaEmBranco }, ler) : null;
  const cicloEntregas = lista('cicloEntregas', (s, campo) => ({
    id: s.inteiro('id', { min: 1, max: MAIOR_ID }),
    dataEntrega: s.data('dataEntrega', { obrigatorio: true }),
    observacao: s.texto('observacao', { max: 200 }),
    campo: `${campo}.dataEntrega`,
  }));
  const cicloPontos = lista('cicloPontos', (s, campo) => ({
    id: s.inteiro('id', { min: 1, max: MAIOR_ID }),
    pontoEntregaId: s.inteiro('pontoEntregaId', { obrigatorio: true, min: 1, max: MAIOR_ID }),
    dataRetirada: s.data('dataRetirada'),
    horaInicio: s.hora('horaInicio'),
    horaFim: s.hora('horaFim'),
    campo: `${campo}.pontoEntregaId`,
  }));
  const cicloCestas = lista('cicloCestas', (s, campo) => ({
    id: s.inteiro('id', { min: 1, max: MAIOR_ID }),
    cestaId: s.inteiro('cestaId', { obrigatorio: true, min: 1, max: MAIOR_ID }),
    quantidadeCestas: s.inteiro('quantidadeCestas', { obrigatorio: true, min: 0, max: 100_000 }),
    campo: `${campo}.cestaId`,
  }));
  const cicloProdutos = lista('cicloProdutos', (s, campo) => ({
    id: s.inteiro('id', { min: 1, max: MAIOR_ID }),
    produtoId: s.inteiro('produtoId', { obrigatorio: true, min: 1, max: MAIOR_ID }),
    quantidadeMilesimos: s.decimal('quantidade', ESCALA_QUANTIDADE, { obrigatorio: true }),
    valorCentavos: s.decimal('valor', ESCALA_DINHEIRO, { obrigatorio: true }),
    campo: `${campo}.produtoId`,
  }));
  const lido = { dados: { nome, ...datas, ativo }, cicloEntregas, cicloPontos, cicloCestas, cicloProdutos };
  // The domain's rules are judged here too, on what could be read, so a form shows every problem at once.
  for (const [campo, mensagem] of Object.entries(regrasDoCiclo(lido, new Set(Object.keys(c.erros)))))
    c.erro(campo, mensagem);
  c.concluir();
  return lido;
}

/**
 * POST /movimentacao (multipart or JSON): a payment or an adjustment of one person, and its
 * receipt; `semArquivo` says why a receipt the form pointed to cannot be used.
 */
export function lerMovimentacao(
  corpo: Entrada,
  arquivo: ArquivoRecebido | null,
  semArquivo: string | null = null,
): EntradaMovimentacao {
  const c = new Campos(corpo);
  const entrada = {
    usuarioid: c.inteiro('usuarioid', { obrigatorio: true, min: 1, max: MAIOR_ID }),
    tipoMovimentacaoId: c.inteiro('tipoMovimentacaoId', { obrigatorio: true, min: 1, max: MAIOR_ID }),
    valorCentavos: c.decimal('valor', ESCALA_DINHEIRO, { obrigatorio: true, min: 1, max: MAXIMO_LANCAMENTO_CENTAVOS }),
    data: c.data('data'),
    descricao: c.texto('descricao', { obrigatorio: true, max: 500 }),
    cicloid: c.inteiro('cicloid', { min: 1, max: MAIOR_ID }),
    sentido: c.umDe('sentido', ['credito', 'debito'] as const),
  };
  const recusa = semArquivo ?? regraDoComprovante(arquivo);
  if (recusa !== null) c.erro('arquivo', recusa);
  c.concluir();
  return entrada;
}

/** The cycles of a report: `ciclos` from a form (repeated or bracketed), a JSON array, or "1,2" text; 1 to 20 ids. */
export function lerCiclos(entrada: Entrada, chave = 'ciclos'): number[] {
  const bruto = new Campos(entrada).bruto(chave);
  const itens = Array.isArray(bruto)
    ? bruto
    : typeof bruto === 'string'
      ? bruto.split(',')
      : typeof bruto === 'number'
        ? [bruto]
        : bruto !== null && typeof bruto === 'object'
          ? Object.values(bruto)
          : [];
  const ids = [
    ...new Set(
      itens.map((v) =>
        typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,9}$/.test(v.trim()) ? Number(v) : NaN,
      ),
    ),
  ];
  if (ids.length === 0 || ids.length > 20 || ids.some((i) => !Number.isSafeInteger(i) || i < 1 || i > MAIOR_ID)) {
    throw new Invalido('VALIDACAO', 'Escolha de 1 a 20 ciclos', { [chave]: 'Escolha de 1 a 20 ciclos válidos' });
  }
  return ids;
}

/** A report's optional market (`mercadoId`): only what was bought in it. */
export function lerMercadoDoRelatorio(entrada: Entrada): number | null {
  const c = new Campos(entrada);
  const mercadoId = c.inteiro('mercadoId', { min: 1, max: MAIOR_ID });
  c.concluir();
  return mercadoId;
}

/** POST /profile/avisos: the optional kinds to receive (a JSON list, or a form's ticked boxes after a hidden empty value). */
export function lerEscolhaDeAvisos(corpo: unknown): TipoDeAviso[] {
  const c = new Campos(comoEntrada(corpo));
  const bruto = c.bruto('avisos');
  if (bruto === undefined || bruto === null) {
    c.erro('avisos', 'Campo obrigatório: a lista dos avisos que quer receber (pode ser vazia)');
    c.concluir();
  }
  // The mandatory kinds are always received: a list that names them asks for nothing more.
  const lista = (Array.isArray(bruto) ? bruto : [bruto]).filter(
    (x) => x !== '' && !(typeof x === 'string' && ehTipoDeAviso(x) && !TIPOS_DE_AVISO[x].opcional),
  );
  const leitor = new Campos({ avisos: lista });
  const escolhidos = leitor.conjuntoDe('avisos', TIPOS_OPCIONAIS);
  c.juntar(leitor.erros);
  c.concluir();
  return escolhidos;
}

/** POST /ciclo/:id/mensagem: a coordinator's message (subject and text), to the whole cycle or one market's buyers. */
export function lerMensagemDaCoordenacao(corpo: unknown): { assunto: string; texto: string; mercadoId: number | null } {
  const c = new Campos(comoEntrada(corpo));
  const assunto = c.texto('assunto', { obrigatorio: true, max: 120 });
  const texto = c.texto('texto', { obrigatorio: true, max: 5000 });
  const mercadoId = c.inteiro('mercadoId', { min: 1, max: MAIOR_ID });
  c.concluir();
  return { assunto, texto, mercadoId };
}
