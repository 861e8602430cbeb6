/**
 * Generates the OpenAPI documents from the routes' schemas: docs/openapi.json (the Cestas face)
 * and docs/openapi-mercados.json (the Mercados face's HTTP routes). `npm run openapi` rewrites
 * them; test/operacao/openapi.test.ts fails while they are stale.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { carregarConfig } from '../src/config.ts';
import { iniciarServicos } from '../src/servicos.ts';

export const ARQUIVOS_OPENAPI = {
  cestas: fileURLToPath(new URL('../docs/openapi.json', import.meta.url)),
  mercados: fileURLToPath(new URL('../docs/openapi-mercados.json', import.meta.url)),
} as const;

/** Both documents, as the faces build them with a fixed configuration (no address or secret in them). */
export async function gerarOpenApi(): Promise<{ cestas: string; mercados: string }> {
  const pasta = mkdtempSync(join(tmpdir(), 'cestaria-openapi-'));
  const config = carregarConfig({
    NODE_ENV: 'test',
    DATABASE_URL: `sqlite:${join(pasta, 'openapi.db')}`,
    CESTAS_PORT: '0',
    MERCADOS_PORT: '0',
    DEV_IDP_PORT: '0',
    VARIANTS: 'cestas,mercados',
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    UPLOAD_DIR: join(pasta, 'arquivos'),
  });
  const servicos = await iniciarServicos(config, { semDemo: true });
  try {
    const texto = (app: typeof servicos.cestas) => {
      if (app === null) throw new Error('a face não subiu');
      return `${JSON.stringify(app.swagger(), null, 2)}\n`;
    };
    return { cestas: texto(servicos.cestas), mercados: texto(servicos.mercados) };
  } finally {
    await servicos.fechar();
    rmSync(pasta, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const documentos = await gerarOpenApi();
  writeFileSync(ARQUIVOS_OPENAPI.cestas, documentos.cestas);
  writeFileSync(ARQUIVOS_OPENAPI.mercados, documentos.mercados);
  console.log(`OpenAPI gerado em ${ARQUIVOS_OPENAPI.cestas} e ${ARQUIVOS_OPENAPI.mercados}`);
}
