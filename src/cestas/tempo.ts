import { diaLocal } from '../domain/tempo.ts';
import type { ContextoCestas } from './contexto-cestas.ts';

/** Now, and today in the community's calendar: what the domain's window rules take. */
export function tempo(ctx: ContextoCestas): { agora: Date; hoje: string } {
  const agora = ctx.relogio.agora();
  return { agora, hoje: diaLocal(agora, ctx.config.tz) };
}
