/**
 * The report scenario group of `npm run bench`: each report of the big delivery cycle asked over
 * loopback, one at a time (a report is a latency target, not a throughput one): median and p90
 * of `rodadas` requests after a warm-up, and the server's peak RSS growth while each one runs.
 */
import { medirPicoDeRss, rss } from './processos.ts';

export interface ResultadoRelatorio {
  readonly cenario: string;
  readonly meta: string;
  readonly medianaMs: number;
  readonly p90Ms: number;
  readonly bytes: number;
  readonly picoRssMb: number;
  readonly erros: number;
  readonly ok: boolean;
}

interface Relatorio {
  readonly nome: string;
  readonly meta: string;
  readonly limiteMs: number;
  readonly limiteRssMb: number | null;
  readonly pedir: () => Promise<Response>;
}

function percentil(valores: readonly number[], p: number): number {
  const o = [...valores].sort((a, b) => a - b);
  return o[Math.min(o.length - 1, Math.floor((p / 100) * o.length))] ?? 0;
}

const um = (x: number) => Math.round(x * 10) / 10;

function relatorios(base: string, cookie: string, c: number): Relatorio[] {
  const json = { cookie, accept: 'application/json' };
  const get =
    (caminho: string, headers: Record<string, string> = json) =>
    () =>
      fetch(`${base}${caminho}`, { headers });
  const post = (caminho: string, corpo: unknown) => () =>
    fetch(`${base}${caminho}`, {
      method: 'POST',
      headers: { ...json, 'content-type': 'application/json' },
      body: JSON.stringify(corpo),
    });
  const emJson = { meta: '≤ 150 ms', limiteMs: 150, limiteRssMb: null };
  return [
    { nome: 'sobra (JSON)', ...emJson, pedir: get(`/pedidosfornecedoressobra/${c}`) },
    { nome: 'fornecedores (JSON)', ...emJson, pedir: get(`/pedidosfornecedorestodos/${c}`) },
    { nome: 'fornecedores por ciclos (JSON)', ...emJson, pedir: post('/pedidosfornecedoresciclos', { ciclos: [c] }) },
    { nome: 'consumidores por ciclos (JSON)', ...emJson, pedir: post('/pedidosconsumidoresciclos', { ciclos: [c] }) },
    { nome: 'produtos por ciclos (JSON)', ...emJson, pedir: post('/relatorioprodutosciclos', { ciclos: [c] }) },
    { nome: 'movimentações (JSON)', ...emJson, pedir: get('/movimentacaotodos') },
    {
      nome: 'CSV dos fornecedores',
      meta: '≤ 300 ms',
      limiteMs: 300,
      limiteRssMb: null,
      pedir: get(`/downloadpedidosfornecedoresciclos?ciclos=${c}`, { cookie }),
    },
    {
      nome: 'PDF de entrega',
      meta: '≤ 5 s, RSS ≤ +100 MB',
      limiteMs: 5000,
      limiteRssMb: 100,
      pedir: get(`/entregaCicloPDF/${c}`, { cookie }),
    },
  ];
}

/** The PDF request alone, for the mixed-load scenario. */
export function pedirPdf(base: string, cookie: string, c: number): () => Promise<Response> {
  return () => fetch(`${base}/entregaCicloPDF/${c}`, { headers: { cookie } });
}

/** A report JSON request, for the mixed-load scenario. */
export function pedirRelatorioJson(base: string, cookie: string, c: number): () => Promise<Response> {
  return () =>
    fetch(`${base}/pedidosconsumidoresciclos`, {
      method: 'POST',
      headers: { cookie, accept: 'application/json', 'content-type': 'application/json' },
      body: JSON.stringify({ ciclos: [c] }),
    });
}

/** Measures every report of cycle `c` on the server at `base` (process `pid`), as the admin of `cookie`. */
export async function medirRelatorios(
  base: string,
  cookie: string,
  c: number,
  pid: number,
  rodadas: number,
): Promise<ResultadoRelatorio[]> {
  const resultados: ResultadoRelatorio[] = [];
  for (const rel of relatorios(base, cookie, c)) {
    let erros = 0;
    const aquecimento = await rel.pedir();
    if (aquecimento.status !== 200) erros++;
    await aquecimento.arrayBuffer();
    const tempos: number[] = [];
    let bytes = 0;
    let pico = 0;
    for (let i = 0; i < rodadas; i++) {
      const antes = rss(pid);
      const medida = medirPicoDeRss(pid);
      const t0 = performance.now();
      const r = await rel.pedir();
      bytes = (await r.arrayBuffer()).byteLength;
      tempos.push(performance.now() - t0);
      if (r.status !== 200) erros++;
      pico = Math.max(pico, medida.parar() - antes);
    }
    const mediana = percentil(tempos, 50);
    const picoRssMb = um(pico / 1024 / 1024);
    resultados.push({
      cenario: rel.nome,
      meta: rel.meta,
      medianaMs: um(mediana),
      p90Ms: um(percentil(tempos, 90)),
      bytes,
      picoRssMb,
      erros,
      ok: erros === 0 && mediana <= rel.limiteMs && (rel.limiteRssMb === null || picoRssMb <= rel.limiteRssMb),
    });
  }
  return resultados;
}

/** The Markdown table of the report group, for docs/performance.md. */
export function tabelaDeRelatorios(resultados: readonly ResultadoRelatorio[], rodadas: number): string {
  return [
    `Mediana e p90 de ${rodadas} requisições após um aquecimento, uma de cada vez; pico de RSS do servidor durante cada uma, acima do RSS de antes.`,
    '',
    '| Relatório | Meta | Mediana | p90 | Tamanho | Pico de RSS | Dentro da meta |',
    '|---|---|---|---|---|---|---|',
    ...resultados.map(
      (r) =>
        `| ${r.cenario} | ${r.meta} | ${r.medianaMs} ms | ${r.p90Ms} ms | ${(r.bytes / 1024).toFixed(0)} KiB | +${r.picoRssMb} MB | ${r.ok ? 'sim' : '**não**'} |`,
    ),
  ].join('\n');
}
