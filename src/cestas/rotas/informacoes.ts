import { readFile } from 'node:fs/promises';
import type { AppTipada } from '../../http/app-tipada.ts';
import { listarAuditoria } from '../../domain/auditoria.ts';
import { Campos, comoEntrada, MAIOR_ID } from '../../http/campos.ts';
import { confiavel, html } from '../../http/html.ts';
import { markdownParaHtml } from '../../http/markdown.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { lerPedidoDePagina } from '../entrada.ts';
import { responder } from '../resposta.ts';
import { indiceRegistros } from '../views/registros.ts';
import { Auditoria, Texto, leitura } from '../esquemas.ts';
import { instanteBr } from '../../formatos.ts';

const ENTIDADES_AUDITADAS = ['categoria', 'cesta', 'produto', 'pontoentrega', 'ciclo', 'usuario', 'oferta', 'composicao', 'pedido', 'movimentacao'] as const;

function resumoDaMudanca(antes: unknown, depois: unknown): string {
  if (antes === null || typeof antes !== 'object') return depois === null ? 'apagado' : 'criado';
  if (depois === null || typeof depois !== 'object') return 'apagado';
  const a = antes as Record<string, unknown>;
  const d = depois as Record<string, unknown>;
  const campos = Object.keys(d).filter((k) => k !== 'updatedAt' && JSON.stringify(a[k]) !== JSON.stringify(d[k]));
  return campos.length === 0 ? 'sem mudanças' : campos.join(', ');
}

/** /limitesolar (public information) and /auditoria (the audit trail, for admins). */
export function rotasInformacoes(app: AppTipada, ctx: ContextoCestas): void {
  app.get('/limitesolar', { config: { acesso: 'publico' }, schema: { response: leitura(Texto) } }, async (req, reply) => {
    // Read on each request so a community can replace the file without a restart.
    const texto = await readFile(ctx.config.limiteSolarArquivo, 'utf8');
    const corpo = texto.replace(/^#\s+.*\n/, '');
    const titulo = /^#\s+(.*)$/m.exec(texto)?.[1]?.trim() ?? 'Limite solidário';
    return responder(req, reply, {
      titulo,
      dados: { titulo, markdown: corpo },
      corpo: () => html`<article class="texto">${confiavel(markdownParaHtml(corpo))}</article>`,
    });
  });

  app.get('/auditoria', { config: { acesso: 'auditoriaLer' }, schema: { response: leitura(Auditoria) } }, async (req, reply) => {
    const query = comoEntrada(req.query);
    const pedido = lerPedidoDePagina(query, ['em'], 'em');
    const c = new Campos(query);
    const entidade = c.umDe('entidade', ENTIDADES_AUDITADAS);
    const entidadeId = c.texto('entidadeId', { max: 20 });
    const usuarioid = c.inteiro('usuarioid', { min: 1, max: MAIOR_ID });
    c.concluir();
    const pagina = await listarAuditoria(ctx.banco, pedido, { entidade, entidadeId, usuarioid });
    const filtros: Record<string, string> = {
      ...(entidade === null ? {} : { entidade }),
      ...(entidadeId === null ? {} : { entidadeId }),
      ...(usuarioid === null ? {} : { usuarioid: String(usuarioid) }),
    };
    return responder(req, reply, {
      titulo: 'Auditoria',
      dados: pagina,
      corpo: () => html`<form method="get" action="/auditoria" class="filtros">
        <label for="f-entidade">Entidade</label>
        <select id="f-entidade" name="entidade"><option value="">Todas</option>
          ${ENTIDADES_AUDITADAS.map((e) => html`<option value="${e}" ${e === entidade ? html`selected` : ''}>${e}</option>`)}</select>
        <label for="f-usuario">Id do usuário</label><input id="f-usuario" name="usuarioid" inputmode="numeric" value="${usuarioid ?? ''}">
        <button type="submit" class="botao secundario">Filtrar</button>
      </form>
      ${indiceRegistros({
        base: '/auditoria', pagina, novo: null, rotuloNovo: '', comBusca: true, filtros,
        linkDe: (l) => `/auditoria?entidade=${encodeURIComponent(l.entidade)}&entidadeId=${encodeURIComponent(l.entidadeId ?? '')}`,
        colunas: [
          { titulo: 'Quando', valor: (l) => instanteBr(l.em, ctx.config.tz) },
          { titulo: 'Quem', valor: (l) => l.ator },
          { titulo: 'Ação', valor: (l) => l.acao },
          { titulo: 'Registro', valor: (l) => `${l.entidade} ${l.entidadeId ?? ''}` },
          { titulo: 'Campos', valor: (l) => resumoDaMudanca(l.antes, l.depois) },
        ],
      })}`,
    });
  });
}
