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
import { ESCALA_DINHEIRO, MAXIMO_LANCAMENTO_CENTAVOS } from '../decimal.ts';
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
