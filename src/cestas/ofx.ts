/**
 * A linear reader of OFX files, both forms: version 1 (SGML: a `KEY:VALUE` header, then tags
 * whose leaf elements usually have no closing tag) and version 2 (XML: `<?xml?>` and `<?OFX?>`
 * declarations, every element closed). It is a tokenizer over `<TAG>value` that walks the text
 * once with `indexOf` and never runs a regular expression that could backtrack, so any input of
 * n bytes is read or refused in O(n) time.
 *
 * NOTE: it replaces the `ofx-js` package, whose SGML fallback ran a regular expression with
 * catastrophic backtracking (`<([A-Z0-9_]*)+\.+…`): a 62-byte file blocked the process for
 * seconds, doubling with each extra character.
 */

/** An element of the OFX tree: a leaf has a value and no children; an aggregate, children. */
export interface NoOfx {
  readonly nome: string;
  readonly valor: string;
  readonly filhos: NoOfx[];
}

export interface DocumentoOfx {
  /** The version-1 header's `KEY:VALUE` lines (empty for version 2). */
  readonly cabecalho: Readonly<Record<string, string>>;
  readonly raiz: NoOfx;
}

/** Why a file is not OFX, in Portuguese, with where it went wrong. */
export class OfxMalformado extends Error {
  override readonly name = 'OfxMalformado';
}

/** OFX aggregates nest about eight deep; far deeper is a malformed or hostile file. */
const PROFUNDIDADE_MAXIMA = 32;
const MAXIMO_DE_ELEMENTOS = 1_000_000;

function ehCaractereDeNome(c: number): boolean {
  // A-Z a-z 0-9 _ . -
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
}

function nomeValido(nome: string): boolean {
  if (nome.length === 0 || nome.length > 64) return false;
  for (let i = 0; i < nome.length; i++) if (!ehCaractereDeNome(nome.charCodeAt(i))) return false;
  return true;
}

const ENTIDADES: Readonly<Record<string, string>> = {
  lt: '<',
  gt: '>',
  amp: '&',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** Decodes the XML entities OFX uses (`&lt;`, `&amp;`, `&#233;`…); an unknown one stays as written. */
function decodificar(texto: string): string {
  if (!texto.includes('&')) return texto;
  let saida = '';
  let i = 0;
  for (;;) {
    const amp = texto.indexOf('&', i);
    if (amp < 0) return saida + texto.slice(i);
    saida += texto.slice(i, amp);
    const fim = texto.indexOf(';', amp + 1);
    const nome = fim < 0 || fim - amp > 10 ? null : texto.slice(amp + 1, fim);
    let trocado: string | null = null;
    if (nome !== null) {
      if (nome.startsWith('#')) {
        const hex = nome[1] === 'x' || nome[1] === 'X';
        const digitos = nome.slice(hex ? 2 : 1);
        const codigo =
          digitos === '' || !(hex ? /^[0-9a-f]+$/i : /^[0-9]+$/).test(digitos)
            ? NaN
            : Number.parseInt(digitos, hex ? 16 : 10);
        if (Number.isInteger(codigo) && codigo > 0 && codigo <= 0x10ffff) trocado = String.fromCodePoint(codigo);
      } else trocado = ENTIDADES[nome.toLowerCase()] ?? null;
    }
    if (trocado === null || fim < 0) {
      saida += '&';
      i = amp + 1;
    } else {
      saida += trocado;
      i = fim + 1;
    }
  }
}

/** The version-1 header: the `KEY:VALUE` lines before `<OFX>`. */
function lerCabecalho(texto: string): Record<string, string> {
  const cabecalho: Record<string, string> = {};
  for (const linha of texto.split('\n')) {
    const doisPontos = linha.indexOf(':');
    if (doisPontos <= 0) continue;
    const chave = linha.slice(0, doisPontos).trim().toUpperCase();
    if (nomeValido(chave)) cabecalho[chave] = linha.slice(doisPontos + 1).trim();
  }
  return cabecalho;
}

interface Aberto {
  readonly no: NoOfx;
  /** Opened with text right after its tag: an SGML leaf, which may or may not be closed. */
  readonly folha: boolean;
}

/**
 * Reads an OFX file's text into its element tree. Refuses (`OfxMalformado`) a tag left open at
 * the end of the file, a closing tag that closes nothing, text between aggregates, an invalid
 * tag name, or nesting deeper than any real statement has.
 */
export function lerDocumentoOfx(texto: string): DocumentoOfx {
  const inicio = indiceDoOfx(texto);
  if (inicio < 0) throw new OfxMalformado('O arquivo não tem o elemento <OFX>');
  const cabecalho = lerCabecalho(texto.slice(0, inicio));
  const raiz: NoOfx = { nome: 'OFX', valor: '', filhos: [] };
  const pilha: Aberto[] = [{ no: raiz, folha: false }];
  let elementos = 0;
  let i = inicio + '<OFX>'.length;
  const n = texto.length;
  while (i < n) {
    const menor = texto.indexOf('<', i);
    const corrido = texto.slice(i, menor < 0 ? n : menor);
    if (corrido.trim() !== '') {
      // Text belongs right after an opening tag; the tag below took it already (see `valor`).
      throw new OfxMalformado(`Texto fora de um elemento perto de "${resumo(corrido)}"`);
    }
    if (menor < 0) break;
    if (texto.startsWith('<!--', menor)) {
      const fim = texto.indexOf('-->', menor + 4);
      if (fim < 0) throw new OfxMalformado('Um comentário <!-- não foi fechado');
      i = fim + 3;
      continue;
    }
    if (texto.startsWith('<?', menor)) {
      const fim = texto.indexOf('?>', menor + 2);
      if (fim < 0) throw new OfxMalformado('Uma declaração <? não foi fechada');
      i = fim + 2;
      continue;
    }
    const maior = texto.indexOf('>', menor + 1);
    if (maior < 0) throw new OfxMalformado(`A marca "${resumo(texto.slice(menor))}" não foi fechada com >`);
    const marca = texto.slice(menor + 1, maior);
    i = maior + 1;
    if (marca.startsWith('/')) {
      const nome = marca.slice(1).trim().toUpperCase();
      if (!nomeValido(nome)) throw new OfxMalformado(`Marca de fechamento inválida: <${resumo(marca)}>`);
      fechar(pilha, nome);
      if (pilha.length === 0) return { cabecalho, raiz };
      continue;
    }
    const autoFechada = marca.endsWith('/');
    const nome = (autoFechada ? marca.slice(0, -1) : marca).trim().toUpperCase();
    if (!nomeValido(nome)) throw new OfxMalformado(`Marca inválida: <${resumo(marca)}>`);
    if (++elementos > MAXIMO_DE_ELEMENTOS) throw new OfxMalformado('O arquivo tem elementos demais');
    // An SGML leaf left open ends where the next tag begins.
    const topo = pilha.at(-1);
    if (topo?.folha === true) pilha.pop();
    const pai = pilha.at(-1);
    if (pai === undefined) throw new OfxMalformado('Há elementos depois do fim do <OFX>');
    // The value is the text up to the next tag, for SGML leaves and XML elements alike.
    const proximo = texto.indexOf('<', i);
    const bruto = autoFechada ? '' : texto.slice(i, proximo < 0 ? n : proximo);
    const valor = bruto.trim();
    const no: NoOfx = { nome, valor: decodificar(valor), filhos: [] };
    pai.no.filhos.push(no);
    if (autoFechada) continue;
    i += bruto.length;
    if (pilha.length >= PROFUNDIDADE_MAXIMA)
      throw new OfxMalformado(`Elementos aninhados fundo demais (mais de ${PROFUNDIDADE_MAXIMA})`);
    pilha.push({ no, folha: valor !== '' });
  }
  throw new OfxMalformado(
    `O arquivo terminou com <${pilha.at(-1)?.no.nome ?? 'OFX'}> aberto: faltou </${pilha.at(-1)?.no.nome ?? 'OFX'}>`,
  );
}

/** Where `<OFX>` starts, in any case; -1 when absent. */
function indiceDoOfx(texto: string): number {
  let de = 0;
  for (;;) {
    const i = texto.indexOf('<', de);
    if (i < 0) return -1;
    if (texto.slice(i, i + 5).toUpperCase() === '<OFX>') return i;
    de = i + 1;
  }
}

/**
 * Closes the innermost open element named `nome`. Elements opened inside it and never closed were
 * empty SGML leaves (`<MEMO>` with no value): their children are really their siblings, so they
 * move up to the element that holds them.
 */
function fechar(pilha: Aberto[], nome: string): void {
  let alvo = pilha.length - 1;
  while (alvo >= 0 && pilha[alvo]?.no.nome !== nome) alvo--;
  if (alvo < 0) throw new OfxMalformado(`</${nome}> fecha um elemento que não foi aberto`);
  while (pilha.length - 1 > alvo) {
    const aberto = pilha.pop();
    const pai = pilha.at(-1);
    if (aberto === undefined || pai === undefined) break;
    if (aberto.folha || aberto.no.filhos.length === 0) continue;
    // NOTE: a loop, not push(...spread), so a huge list cannot overflow the call stack; depth
    // is capped, so each element moves at most PROFUNDIDADE_MAXIMA times.
    for (const f of aberto.no.filhos) pai.no.filhos.push(f);
    aberto.no.filhos.length = 0;
  }
  pilha.pop();
}

function resumo(texto: string): string {
  const t = texto.slice(0, 200).replace(/\s+/g, ' ').trim();
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
}

/** The children named `nome`. */
export function filhosOfx(no: NoOfx | undefined, nome: string): NoOfx[] {
  return no === undefined ? [] : no.filhos.filter((f) => f.nome === nome);
}

/** The first child named `nome`. */
export function filhoOfx(no: NoOfx | undefined, nome: string): NoOfx | undefined {
  return no?.filhos.find((f) => f.nome === nome);
}

/** A leaf child's value; '' when it is absent or is an aggregate. */
export function valorOfx(no: NoOfx | undefined, nome: string): string {
  const f = filhoOfx(no, nome);
  return f === undefined || f.filhos.length > 0 ? '' : f.valor;
}
