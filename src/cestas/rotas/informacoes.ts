import { readFile } from 'node:fs/promises';
import type { AppTipada } from '../../http/app-tipada.ts';
import { listarAuditoria } from '../../domain/auditoria.ts';
import { Consulta, NaConsulta, parametrosDePagina, pedidoDePagina, textoDaConsulta } from '../../http/consultas.ts';
import { confiavel, html } from '../../http/html.ts';
import { markdownParaHtml } from '../../http/markdown.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { responder } from '../resposta.ts';
import { indiceRegistros } from '../views/registros.ts';
import { leitura } from '../esquemas/comum.ts';
import { Auditoria, Texto } from '../esquemas/painel-e-relatorios.ts';
import { instanteBr } from '../../formatos.ts';

const ENTIDADES_AUDITADAS = [
  'categoria',
  'cesta',
  'produto',
  'pontoentrega',
  'ciclo',
  'usuario',
  'oferta',
  'composicao',
  'pedido',
  'movimentacao',
] as const;

/** /auditoria: a page of the log, narrowed to a record or to who acted. */
const ConsultaDaAuditoria = Consulta({
  ...parametrosDePagina(['em']),
  entidade: NaConsulta.umDe(ENTIDADES_AUDITADAS, 'Só os registros deste tipo'),
  entidadeId: NaConsulta.texto('Só este registro (o id, com entidade)', 20),
  usuarioid: NaConsulta.id('Só o que esta pessoa fez'),
});

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
  app.get(
    '/limitesolar',
    { config: { acesso: 'publico' }, schema: { response: leitura(Texto) } },
    async (req, reply) => {
      // Read on each request so a community can replace the file without a restart.
      const texto = await readFile(ctx.config.limiteSolarArquivo, 'utf8');
      const corpo = texto.replace(/^#\s+.*\n/, '');
      const titulo = /^#\s+(.*)$/m.exec(texto)?.[1]?.trim() ?? 'Limite solidário';
      return responder(req, reply, {
        titulo,
        dados: { titulo, markdown: corpo },
        corpo: () => html`<article class="texto">${confiavel(markdownParaHtml(corpo))}</article>`,
      });
    },
  );

  app.get(
    '/auditoria',
    { config: { acesso: 'auditoriaLer' }, schema: { querystring: ConsultaDaAuditoria, response: leitura(Auditoria) } },
    async (req, reply) => {
      const pedido = pedidoDePagina(req.query, { ordem: 'em' });
      const entidade = req.query.entidade ?? null;
      const entidadeId = textoDaConsulta('entidadeId', req.query.entidadeId, 20);
      const usuarioid = req.query.usuarioid ?? null;
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
        base: '/auditoria',
        pagina,
        novo: null,
        rotuloNovo: '',
        comBusca: true,
        filtros,
        linkDe: (l) =>
          `/auditoria?entidade=${encodeURIComponent(l.entidade)}&entidadeId=${encodeURIComponent(l.entidadeId ?? '')}`,
        colunas: [
          { titulo: 'Quando', valor: (l) => instanteBr(l.em, ctx.config.tz) },
          { titulo: 'Quem', valor: (l) => l.ator },
          { titulo: 'Ação', valor: (l) => l.acao },
          { titulo: 'Registro', valor: (l) => `${l.entidade} ${l.entidadeId ?? ''}` },
          { titulo: 'Campos', valor: (l) => resumoDaMudanca(l.antes, l.depois) },
        ],
      })}`,
      });
    },
  );
}
