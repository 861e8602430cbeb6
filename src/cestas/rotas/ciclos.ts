import type { AppTipada } from '../../http/app-tipada.ts';
import { pode } from '../../domain/acesso.ts';
import { ORDENS_CICLO, listarCiclos } from '../../domain/ciclos/leitura.ts';
import { diaLocal } from '../../domain/tempo.ts';
import { Consulta, parametrosDePagina, pedidoDePagina } from '../../http/consultas.ts';
import type { ContextoCestas } from '../contexto-cestas.ts';
import { responder } from '../resposta.ts';
import { indiceCiclos } from '../views/ciclo.ts';
import { leitura } from '../esquemas/comum.ts';
import { CicloNoIndice, indice } from '../esquemas/registros.ts';

/** The spec's ciclo-index has its own handler: cycles newest first, each with its phase. */
export function rotasCiclos(app: AppTipada, ctx: ContextoCestas): void {
  app.get(
    '/ciclo-index',
    {
      config: { acesso: 'catalogoLer' },
      schema: { querystring: Consulta(parametrosDePagina(ORDENS_CICLO)), response: leitura(indice(CicloNoIndice)) },
    },
    async (req, reply) => {
      const pedido = pedidoDePagina(req.query, { ordem: 'dataOfertaInicio', direcao: 'desc' });
      const pagina = await listarCiclos(ctx.banco, pedido, diaLocal(ctx.relogio.agora(), ctx.config.tz));
      const podeCriar = req.ator !== null && pode(req.ator, 'catalogoEscrever');
      const acoes = { editar: podeCriar, apagar: podeCriar };
      return responder(req, reply, {
        titulo: 'Ciclos',
        dados: { ...pagina, itens: pagina.itens.map((c) => ({ ...c, acoes })), acoes: { criar: podeCriar } },
        corpo: () => indiceCiclos(pagina, podeCriar),
      });
    },
  );
}
