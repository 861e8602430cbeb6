/**
 * The domain's events as messages (the Avisos port's `emitir`): the receipt of a confirmation, the
 * notice of a change after one, and the coordination's message to chosen people. Each is rendered
 * now and written to the outbox inside the use case's transaction.
 */
import type { Db } from '../../db/banco.ts';
import type { Evento } from '../../domain/avisos.ts';
import * as modelos from '../modelos.ts';
import type { Remessa } from './caixa-de-saida.ts';
import { cicloDoAviso, pagamentoDe, retiradaDo, umaVezNaTransacao } from './leituras.ts';

/** The domain's events: the receipt of a confirmation, the notice of a change after one. */
export async function emitirEvento(r: Remessa, trx: Db, evento: Evento): Promise<void> {
  if (evento.tipo === 'coordenacao') {
    const ciclo = await cicloDoAviso(trx, evento.cicloid);
    // Stryker disable next-line ConditionalExpression: an empty IN list is valid on SQLite; PostgreSQL refuses it
    const pessoas =
      evento.usuarioids.length === 0
        ? []
        : await trx
            .selectFrom('usuario')
            .select(['id', 'nome', 'email'])
            .where('id', 'in', [...evento.usuarioids])
            .orderBy('id')
            .execute();
    for (const u of pessoas) {
      await r.enfileirar(trx, {
        chave: `coordenacao:${evento.cicloid}:${u.id}:${evento.momento}`,
        tipo: 'coordenacao',
        usuarioid: u.id,
        cicloid: evento.cicloid,
        para: u.email,
        conteudo: modelos.daCoordenacao(u.nome, ciclo, evento.assunto, evento.texto, evento.remetente, r.baseUrl()),
        cancelar: null,
      });
    }
    return;
  }
  const p = evento.pedido;
  const [pessoa, ciclo, retirada] = await Promise.all([
    trx.selectFrom('usuario').select(['nome', 'email']).where('id', '=', p.usuario.id).executeTakeFirstOrThrow(),
    umaVezNaTransacao(trx, `ciclo:${p.cicloid}`, () => cicloDoAviso(trx, p.cicloid)),
    retiradaDo(trx, p),
  ]);
  const base = r.baseUrl();
  const conteudo =
    evento.tipo === 'recibo'
      ? modelos.recibo(
          pessoa.nome,
          ciclo,
          p,
          retirada,
          base,
          await pagamentoDe(trx, r.config, p.usuario.id),
          r.qrDaRetirada(p.pedidoId),
        )
      : modelos.pedidoAlterado(pessoa.nome, ciclo, p, base);
  // One receipt per confirmation; one notice per change.
  const momento = evento.tipo === 'recibo' ? (p.dataConfirmacao ?? '') : r.relogio.agora().toISOString();
  await r.enfileirar(trx, {
    chave: `${evento.tipo}:${p.pedidoId}:${momento}`,
    tipo: evento.tipo,
    usuarioid: p.usuario.id,
    cicloid: p.cicloid,
    para: pessoa.email,
    conteudo,
    cancelar: null,
  });
}
