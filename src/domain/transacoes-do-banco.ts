/**
 * The identity of a bank transaction across statement formats: which lines of a new statement
 * are transactions already imported (from an OFX or a CSV, with any description), and which are
 * new. A statement line is stored with keys (table `extratochave`, each key unique):
 *
 * - `ofx:<conta>:<FITID>`: an OFX transaction, per account (the FITID is unique in its account);
 * - `doc:<data>:<centavos>:<número>`: for each document number the bank gives (the OFX FITID,
 *   CHECKNUM and REFNUM; a CSV's document column), normalised (letters and digits, upper case,
 *   no leading zeros), so the same transaction in the same bank's CSV finds it;
 * - `seq:<data>:<centavos>:<n>`: its place among the stored credits of that day and amount,
 *   exactly one per line, for a CSV with no document column.
 *
 * The rule, for each credit of a statement (see docs/dominio.md, "Extratos"):
 * 1. its FITID key is stored: the same transaction;
 * 2. else one of its document keys is stored, by a line of an earlier import that is not an OFX
 *    line with another FITID: the same transaction (between two OFX lines only the FITID decides);
 * 3. else, when it has a FITID or document number, a stored line of the same day and amount that
 *    has none (from a CSV without a document column, earlier) is the same transaction;
 * 4. else, when it has neither, it is the n-th credit of that day and amount in its file: the
 *    stored line in place n, from an earlier import, is the same transaction;
 * 5. else it is new. Two lines of one file are never the same transaction (except one FITID
 *    listed twice), so two equal credits on one day in one statement are two credits.
 * A line found again gains the keys it lacked (a CSV line found by an OFX gets its FITID).
 */

/** A statement line as the edge reads it; a credit has a positive amount, a debit a negative one. */
export interface LinhaDoExtrato {
  readonly data: string;
  readonly valorCentavos: number;
  readonly descricao: string;
  /** The payer's name, where the statement has a column for it. */
  readonly pagador: string | null;
  /** The OFX account (`<BANKID>:<ACCTID>`); null in a CSV, which does not name it. */
  readonly conta: string | null;
  /** The OFX transaction id; null in a CSV. */
  readonly fitid: string | null;
  /** The bank's document numbers for it, as written: OFX CHECKNUM and REFNUM, a CSV's document column. */
  readonly documentos: readonly string[];
}

/** A stored statement line, with its keys, as the import reads them. */
export interface LinhaGuardada {
  readonly id: number;
  readonly data: string;
  readonly valorCentavos: number;
  readonly chaves: readonly string[];
}

/** What to do with one credit of the statement. */
export type Passo =
  | { readonly tipo: 'repetida'; readonly linhaId: number; readonly chavesNovas: readonly string[] }
  | { readonly tipo: 'nova'; readonly idBanco: string; readonly chaves: readonly string[] };

/** A document number as the bank writes it in either format: `000.123-4` and `1234` are the same. */
export function normalizarDocumento(bruto: string): string {
  return bruto
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .replace(/^0+/, '');
}

function chaveFitid(l: LinhaDoExtrato): string | null {
  return l.fitid === null || l.conta === null ? null : `ofx:${l.conta}:${l.fitid}`;
}

/** The document keys of a line: its FITID and its document numbers, at its day and amount. */
function chavesDeDocumento(l: LinhaDoExtrato): string[] {
  const numeros = [...(l.fitid === null ? [] : [l.fitid]), ...l.documentos]
    .map(normalizarDocumento)
    .filter((d) => d !== '');
  return [...new Set(numeros)].map((d) => `doc:${l.data}:${l.valorCentavos}:${d}`);
}

const chaveSeq = (data: string, valor: number, n: number): string => `seq:${data}:${valor}:${n}`;
const diaEValor = (data: string, valor: number): string => `${data}|${valor}`;

/** Every key the import may read or write for these credits, to load them before planning. */
export function chavesProcuradas(creditos: readonly LinhaDoExtrato[]): string[] {
  const chaves = new Set<string>();
  for (const l of creditos) {
    const f = chaveFitid(l);
    if (f !== null) chaves.add(f);
    for (const d of chavesDeDocumento(l)) chaves.add(d);
  }
  return [...chaves];
}

interface Estado {
  readonly id: number;
  readonly data: string;
  readonly valorCentavos: number;
  readonly chaves: Set<string>;
  /** Inserted by this import: a line of the same file. */
  readonly desteArquivo: boolean;
}

const temFitid = (e: Estado): boolean => [...e.chaves].some((k) => k.startsWith('ofx:'));
const temIdDoBanco = (e: Estado): boolean => [...e.chaves].some((k) => k.startsWith('ofx:') || k.startsWith('doc:'));

/**
 * Decides, for each credit in file order, whether it is a transaction already stored (and which
 * keys it adds to it) or a new line (with its id and keys). Pure: the stored lines given must
 * include every line of the credits' days and every line holding one of `chavesProcuradas`.
 */
export function planejarImportacao(creditos: readonly LinhaDoExtrato[], guardadas: readonly LinhaGuardada[]): Passo[] {
  const porChave = new Map<string, Estado>();
  const porDia = new Map<string, Estado[]>();
  const maiorSeq = new Map<string, number>();
  const guardar = (e: Estado): void => {
    for (const k of e.chaves) {
      porChave.set(k, e);
      if (k.startsWith('seq:')) {
        const dv = diaEValor(e.data, e.valorCentavos);
        maiorSeq.set(dv, Math.max(maiorSeq.get(dv) ?? 0, Number(k.slice(k.lastIndexOf(':') + 1))));
      }
    }
    const dv = diaEValor(e.data, e.valorCentavos);
    const doDia = porDia.get(dv);
    if (doDia === undefined) porDia.set(dv, [e]);
    else doDia.push(e);
  };
  for (const g of guardadas)
    guardar({ id: g.id, data: g.data, valorCentavos: g.valorCentavos, chaves: new Set(g.chaves), desteArquivo: false });

  const livre = (k: string): boolean => !porChave.has(k);
  const ocorrencias = new Map<string, number>();
  let provisorio = 0;
  const passos: Passo[] = [];
  for (const l of creditos) {
    const dv = diaEValor(l.data, l.valorCentavos);
    const n = (ocorrencias.get(dv) ?? 0) + 1;
    ocorrencias.set(dv, n);
    const fitid = chaveFitid(l);
    const documentos = chavesDeDocumento(l);
    const fortes = [...(fitid === null ? [] : [fitid]), ...documentos];

    const mesma = ((): Estado | undefined => {
      const porFitid = fitid === null ? undefined : porChave.get(fitid);
      if (porFitid !== undefined) return porFitid;
      for (const d of documentos) {
        const e = porChave.get(d);
        if (e !== undefined && !e.desteArquivo && !(fitid !== null && temFitid(e))) return e;
      }
      const doDia = (porDia.get(dv) ?? []).filter((e) => !e.desteArquivo);
      if (fortes.length > 0) {
        const semId = doDia.filter((e) => !temIdDoBanco(e));
        return semId.find((e) => e.chaves.has(chaveSeq(l.data, l.valorCentavos, n))) ?? semId[0];
      }
      const naVez = porChave.get(chaveSeq(l.data, l.valorCentavos, n));
      return naVez !== undefined && !naVez.desteArquivo ? naVez : undefined;
    })();

    if (mesma !== undefined) {
      // Keys of the day and amount only go to a line of that day and amount (a FITID found on
      // another date keeps its own), and a key held by another line stays there.
      const novas = fortes.filter(
        (k) => livre(k) && (k.startsWith('ofx:') || (mesma.data === l.data && mesma.valorCentavos === l.valorCentavos)),
      );
      for (const k of novas) {
        mesma.chaves.add(k);
        porChave.set(k, mesma);
      }
      passos.push({ tipo: 'repetida', linhaId: mesma.id, chavesNovas: novas });
      continue;
    }
    const seq = livre(chaveSeq(l.data, l.valorCentavos, n)) ? n : (maiorSeq.get(dv) ?? 0) + 1;
    const chaves = [...fortes.filter(livre), chaveSeq(l.data, l.valorCentavos, seq)];
    const idBanco = fitid ?? `csv:${l.data}:${l.valorCentavos}:${seq}`;
    provisorio--;
    guardar({
      id: provisorio,
      data: l.data,
      valorCentavos: l.valorCentavos,
      chaves: new Set(chaves),
      desteArquivo: true,
    });
    passos.push({ tipo: 'nova', idBanco, chaves });
  }
  return passos;
}
