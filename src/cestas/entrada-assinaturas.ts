import type { EntradaAssinatura, Frequencia } from '../domain/assinaturas/modelo.ts';
import { FREQUENCIAS } from '../domain/assinaturas/modelo.ts';
import { Campos, MAIOR_ID, comoEntrada, type Entrada } from '../http/campos.ts';
import type { Dono } from './entrada.ts';

/** dd/mm/aaaa (as people type a date in a form) turned into AAAA-MM-DD; anything else as it came. */
function dataDigitada(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const m = /^\s*(\d{1,2})\/(\d{1,2})\/(\d{4})\s*$/.exec(v);
  return m === null ? v : `${m[3]}-${(m[2] ?? '').padStart(2, '0')}-${(m[1] ?? '').padStart(2, '0')}`;
}

/** A body's date fields read as AAAA-MM-DD or dd/mm/aaaa. */
function comDatas(corpo: unknown, campos: readonly string[]): Entrada {
  const e = { ...comoEntrada(corpo) };
  for (const k of campos) if (k in e) e[k] = dataDigitada(e[k]);
  return e;
}

/** The subscription id a body names (to change one), or null; for the ownership check before validation. */
export function assinaturaDoCorpo(corpo: unknown): number | null {
  const v = comoEntrada(corpo).id;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,15}$/.test(v.trim()) ? Number(v) : null;
  return n !== null && Number.isSafeInteger(n) && n >= 1 && n <= MAIOR_ID ? n : null;
}

/** POST /assinaturas: a subscription, new (no id) or changed (its id). */
export function lerAssinatura(corpo: unknown, dono: Dono): EntradaAssinatura {
  const c = new Campos(comDatas(corpo, ['inicio', 'fim']));
  const usuarioid = c.inteiro('usuarioid', { min: 1, max: MAIOR_ID });
  dono(usuarioid);
  const id = c.inteiro('id', { min: 1, max: MAIOR_ID });
  const cestaId = c.inteiro('cestaId', { obrigatorio: true, min: 1, max: MAIOR_ID });
  const quantidade = c.inteiro('quantidade', { obrigatorio: true, min: 1, max: 1000 });
  const pontoEntregaId = c.inteiro('pontoEntregaId', { obrigatorio: true, min: 1, max: MAIOR_ID });
  const frequencia = c.texto('frequencia', { obrigatorio: true, max: 40 });
  if (frequencia !== '' && !FREQUENCIAS.includes(frequencia as Frequencia))
    c.erro('frequencia', 'Escolha a frequência: a cada ciclo ou ciclo sim, ciclo não');
  const inicio = c.data('inicio', { obrigatorio: true });
  const fim = c.data('fim', { obrigatorio: true });
  if (inicio !== '' && fim !== '' && inicio > fim) c.erro('fim', 'O fim não pode ser antes do início');
  const mercadoId = c.inteiro('mercadoId', { min: 1, max: MAIOR_ID });
  const ativa = c.presente('ativa') ? c.booleano('ativa', true) : true;
  c.concluir();
  return {
    id,
    usuarioid,
    cestaId,
    quantidade,
    pontoEntregaId,
    frequencia: frequencia as Frequencia,
    inicio,
    fim,
    mercadoId,
    ativa,
  };
}

/** POST /assinaturas/:id/pausas: the period, dates AAAA-MM-DD or dd/mm/aaaa. */
export function lerPausa(corpo: unknown): { inicio: string; fim: string } {
  const c = new Campos(comDatas(corpo, ['inicio', 'fim']));
  const inicio = c.data('inicio', { obrigatorio: true });
  const fim = c.data('fim', { obrigatorio: true });
  if (inicio !== '' && fim !== '' && inicio > fim) c.erro('fim', 'O fim da pausa não pode ser antes do início');
  c.concluir();
  return { inicio, fim };
}

/** POST /assinaturas/:id/ciclo/:cicloId: this cycle's quantity and point. */
export function lerMudancaNoCiclo(corpo: unknown): { quantidade: number; pontoEntregaId: number } {
  const c = new Campos(comoEntrada(corpo));
  const quantidade = c.inteiro('quantidade', { obrigatorio: true, min: 1, max: 1000 });
  const pontoEntregaId = c.inteiro('pontoEntregaId', { obrigatorio: true, min: 1, max: MAIOR_ID });
  c.concluir();
  return { quantidade, pontoEntregaId };
}

/** POST /assinaturas/limite: a basket type's cap (empty: no cap). */
export function lerLimite(corpo: unknown): { cestaId: number; limite: number | null } {
  const c = new Campos(comoEntrada(corpo));
  const cestaId = c.inteiro('cestaId', { obrigatorio: true, min: 1, max: MAIOR_ID });
  const limite = c.inteiro('limiteAssinaturas', { min: 0, max: 100000 });
  c.concluir();
  return { cestaId, limite };
}
