/**
 * The daily reminders (src/domain/avisos.ts says which are due): each rendered and written to the
 * outbox. The unique `chave` (kind:cycle:person) makes a second tick, here or in another process,
 * write nothing.
 */
import { faltasDoCiclo } from '../../domain/assinaturas/painel.ts';
import { avisosDevidos, chaveDoAviso, type AvisoDevido } from '../../domain/avisos.ts';
import { pedidoDe } from '../../domain/pedidos/leituras.ts';
import { oQueOFornecedorEntrega } from '../../domain/relatorios/fornecedores.ts';
import { diasDeEntregaDosCiclos } from '../../domain/ciclos/leitura.ts';
import { diaLocal, diasDeEntregaTexto, horarioDeRetiradaTexto } from '../../domain/tempo.ts';
import { quantidade, reais } from '../../formatos.ts';
import * as modelos from '../modelos.ts';
import type { MensagemNova, Remessa } from './caixa-de-saida.ts';
import { cicloDoAviso, pagamentoDoCiclo, retiradaDo } from './leituras.ts';

/** Writes today's due reminders; returns how many were written. */
export async function lembrarHoje(r: Remessa): Promise<number> {
  const agora = r.relogio.agora();
  const hoje = diaLocal(agora, r.config.tz);
  let escritas = 0;
  for (const aviso of await avisosDevidos(r.banco, hoje)) {
    const m = await lembrete(r, aviso);
    if (m !== null && (await r.enfileirar(r.banco, m))) escritas++;
  }
  return escritas;
}

async function lembrete(r: Remessa, a: AvisoDevido): Promise<MensagemNova | null> {
  const db = r.banco;
  const [pessoa, ciclo] = await Promise.all([
    db
      .selectFrom('usuario')
      .select(['nome', 'email', 'perfil'])
      .where('id', '=', a.usuarioid)
      .executeTakeFirstOrThrow(),
    cicloDoAviso(db, a.cicloid),
  ]);
  const base = r.baseUrl();
  const cancelar = r.cancelar(a.usuarioid, a.tipo) ?? '';
  const conteudo = await (async (): Promise<modelos.Conteudo | null> => {
    switch (a.tipo) {
      case 'oferta_aberta':
        return modelos.ofertaAberta(pessoa.nome, ciclo, base, cancelar);
      case 'oferta_lembrete': {
        const oferta = await db
          .selectFrom('oferta')
          .select('id')
          .where('cicloid', '=', a.cicloid)
          .where('usuarioid', '=', a.usuarioid)
          .executeTakeFirst();
        return modelos.ofertaLembrete(pessoa.nome, ciclo, oferta !== undefined, base, cancelar);
      }
      case 'pedido_aberto':
        return modelos.pedidoAberto(pessoa.nome, ciclo, base, cancelar);
      case 'assinatura_ciclo':
        return modelos.assinaturaNoCiclo(pessoa.nome, ciclo, base, cancelar);
      case 'assinatura_falta': {
        const faltas = await faltasDoCiclo(db, a.cicloid);
        const dele = faltas.filter((f) => f.usuarioid === a.usuarioid);
        if (dele.length > 0) return modelos.faltaNaAssinatura(pessoa.nome, ciclo, dele, base);
        return faltas.length === 0 ? null : modelos.faltasParaCoordenacao(pessoa.nome, ciclo, faltas, base);
      }
      case 'assinatura_recibo': {
        const p = await pedidoDe(db, a.cicloid, a.usuarioid, r.config.taxa);
        if (p === null || !p.finalizado) return null;
        return modelos.reciboDaAssinatura(
          pessoa.nome,
          ciclo,
          p,
          await retiradaDo(db, p),
          base,
          await pagamentoDoCiclo(db, r.config, a.usuarioid),
          r.qrDaRetirada(p.pedidoId),
        );
      }
      case 'pedido_lembrete': {
        const pedido = await db
          .selectFrom('pedido')
          .select('id')
          .where('cicloid', '=', a.cicloid)
          .where('usuarioid', '=', a.usuarioid)
          .executeTakeFirst();
        return modelos.pedidoLembrete(pessoa.nome, ciclo, pedido?.id ?? null, base, cancelar);
      }
      case 'entregas': {
        const linhas = await oQueOFornecedorEntrega(db, a.cicloid, a.usuarioid);
        if (linhas.length === 0) return null;
        const dias = await diasDeEntregaDosCiclos(db, [a.cicloid]);
        const quando = diasDeEntregaTexto(dias.get(a.cicloid) ?? []);
        const total = linhas.reduce((s, l) => s + l.valorCentavos, 0);
        return modelos.entregas(
          pessoa.nome,
          ciclo,
          linhas.map((l) => ({
            produto: l.produto,
            quantidade: quantidade(l.pedidoMilesimos, l.unidade),
            valor: reais(l.valorCentavos),
          })),
          reais(total),
          quando,
          base,
          cancelar,
        );
      }
      case 'retirada': {
        const p = await db
          .selectFrom('pedido as p')
          .innerJoin('pontoentrega as pe', 'pe.id', 'p.pontoEntregaId')
          .leftJoin('ciclopontoentrega as cpe', (j) =>
            j.onRef('cpe.cicloid', '=', 'p.cicloid').onRef('cpe.pontoEntregaId', '=', 'p.pontoEntregaId'),
          )
          .select(['p.id', 'pe.nome', 'pe.endereco', 'pe.cidade', 'cpe.dataRetirada', 'cpe.horaInicio', 'cpe.horaFim'])
          .where('p.cicloid', '=', a.cicloid)
          .where('p.usuarioid', '=', a.usuarioid)
          .executeTakeFirstOrThrow();
        return modelos.retirada(
          pessoa.nome,
          ciclo,
          p.id,
          { nome: p.nome, endereco: p.endereco, cidade: p.cidade, quando: horarioDeRetiradaTexto(p) },
          base,
          cancelar,
          r.qrDaRetirada(p.id),
        );
      }
    }
  })();
  // A reminder that cannot be turned off (a subscription's shortage) carries no unsubscribe link.
  return conteudo === null
    ? null
    : {
        chave: chaveDoAviso(a),
        tipo: a.tipo,
        usuarioid: a.usuarioid,
        cicloid: a.cicloid,
        para: pessoa.email,
        conteudo,
        cancelar: cancelar === '' ? null : cancelar,
      };
}
