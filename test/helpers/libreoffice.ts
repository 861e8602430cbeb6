/**
 * A report file opened as a spreadsheet: LibreOffice (Debian's libreoffice-calc), headless, opens the
 * XLSX as people do, or imports the contract's CSV (',', '"', UTF-8, dot decimals), and saves it as
 * a flat ODS, whose cells say whether they arrived as numbers (office:value-type="float"), dates or
 * text.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const CANDIDATOS = [
  process.env.SOFFICE_PATH,
  '/usr/bin/soffice',
  '/usr/bin/libreoffice',
  '/usr/lib/libreoffice/program/soffice',
];

/** The soffice binary, or null when the machine has none. */
export function caminhoDoSoffice(): string | null {
  for (const c of CANDIDATOS) if (c !== undefined && c !== '' && existsSync(c)) return c;
  return null;
}

const FALTA_NO_CI = 'CI=true exige o LibreOffice (soffice): instale com apt-get install libreoffice-calc';

/**
 * `test(..., { skip: semLibreOffice() })`: outside CI a machine without LibreOffice skips with the
 * reason. Under CI=true the test runs and `abrirComoPlanilha` fails it, never a silent skip (only
 * that test, not the whole file, as throwing here would).
 */
export function semLibreOffice(): string | false {
  if (caminhoDoSoffice() !== null || process.env.CI === 'true') return false;
  return 'LibreOffice não instalado (apt-get install libreoffice-calc): o CSV não foi aberto como planilha';
}

/** A cell as the spreadsheet holds it: a number, text, empty, or another type with its value. */
export type CelulaDaPlanilha = number | string | null | { readonly tipo: string; readonly valor: string };

/**
 * `CSV:44,34,76,1,,1033`: separator ',' (44), text in '"' (34), UTF-8 (76), from line 1, the
 * standard cell format, and the language en-US (1033), which reads "12.50" as a number: the
 * contract's format.
 */
const FILTRO_CSV_DO_CONTRATO = 'CSV:44,34,76,1,,1033';

/** Opens a report file in LibreOffice and answers the first sheet's rows, cell by cell. */
export async function abrirComoPlanilha(
  arquivo: Uint8Array,
  formato: 'csv' | 'xlsx' = 'csv',
): Promise<CelulaDaPlanilha[][]> {
  return [...(await folhasDaPlanilha(arquivo, formato)).values()][0] ?? [];
}

/** Opens a report file in LibreOffice and answers every sheet's rows, by the sheet's name, in order. */
export async function folhasDaPlanilha(
  arquivo: Uint8Array,
  formato: 'csv' | 'xlsx',
): Promise<Map<string, CelulaDaPlanilha[][]>> {
  const soffice = caminhoDoSoffice();
  if (soffice === null) throw new Error(FALTA_NO_CI);
  const dir = mkdtempSync(join(tmpdir(), 'cestaria-planilha-'));
  try {
    writeFileSync(join(dir, `planilha.${formato}`), arquivo);
    // A profile of its own: two runs at once would otherwise fight over ~/.config/libreoffice.
    const args = [
      `-env:UserInstallation=${pathToFileURL(join(dir, 'perfil')).href}`,
      '--headless',
      '--norestore',
      ...(formato === 'csv' ? [`--infilter=${FILTRO_CSV_DO_CONTRATO}`] : []),
      '--convert-to',
      'fods',
      '--outdir',
      dir,
      join(dir, `planilha.${formato}`),
    ];
    const saida = await new Promise<string>((resolve, reject) => {
      execFile(soffice, args, { timeout: 120_000 }, (erro, stdout, stderr) =>
        erro === null
          ? resolve(`${stdout}${stderr}`)
          : reject(new Error(`soffice falhou: ${erro.message}\n${stdout}${stderr}`)),
      );
    });
    const fods = join(dir, 'planilha.fods');
    if (!existsSync(fods)) throw new Error(`soffice não converteu o arquivo: ${saida}`);
    return tabelasDoFods(readFileSync(fods, 'utf8'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const ENTIDADES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function textoDoXml(xml: string): string {
  return xml
    .replace(/<text:s(?: text:c="(\d+)")?\/>/g, (_, n: string | undefined) => ' '.repeat(Number(n ?? 1)))
    .replace(/<[^>]+>/g, '')
    .replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ENTIDADES[e] ?? '');
}

const atributo = (atributos: string, nome: string): string | undefined =>
  new RegExp(`${nome}="([^"]*)"`).exec(atributos)?.[1];

/** Every table of a flat ODS, by name, each without the empty cells and rows that trail it. */
function tabelasDoFods(fods: string): Map<string, CelulaDaPlanilha[][]> {
  const tabelas = new Map<string, CelulaDaPlanilha[][]>();
  for (const [tabela] of fods.matchAll(/<table:table\s[^>]*>[\s\S]*?<\/table:table>/g))
    tabelas.set(
      textoDoXml(atributo(tabela.slice(0, tabela.indexOf('>')), 'table:name') ?? ''),
      celulasDaTabela(tabela),
    );
  return tabelas;
}

/** A table of a flat ODS, without the empty cells and rows that trail it. */
function celulasDaTabela(tabela: string): CelulaDaPlanilha[][] {
  const linhas: CelulaDaPlanilha[][] = [];
  for (const [, conteudo = ''] of tabela.matchAll(/<table:table-row\b[^>]*?(?:\/>|>([\s\S]*?)<\/table:table-row>)/g)) {
    const linha: CelulaDaPlanilha[] = [];
    for (const [, atributos = '', dentro = ''] of conteudo.matchAll(
      /<table:table-cell\b([^>]*?)(?:\/>|>([\s\S]*?)<\/table:table-cell>)/g,
    )) {
      const tipo = atributo(atributos, 'office:value-type');
      const texto = [...dentro.matchAll(/<text:p\b[^>]*>([\s\S]*?)<\/text:p>/g)]
        .map(([, p = '']) => textoDoXml(p))
        .join('\n');
      const celula: CelulaDaPlanilha =
        tipo === undefined
          ? null
          : tipo === 'float'
            ? Number(atributo(atributos, 'office:value'))
            : tipo === 'string'
              ? texto
              : {
                  tipo,
                  valor: atributo(atributos, `office:${tipo}-value`) ?? atributo(atributos, 'office:value') ?? texto,
                };
      linha.push(
        ...Array<CelulaDaPlanilha>(Number(atributo(atributos, 'table:number-columns-repeated') ?? 1)).fill(celula),
      );
    }
    while (linha.length > 0 && linha.at(-1) === null) linha.pop();
    linhas.push(linha);
  }
  while (linhas.length > 0 && linhas.at(-1)?.length === 0) linhas.pop();
  return linhas;
}
