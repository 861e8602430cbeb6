import { createClient } from '@redis/client';
import type { Limitador, Tentativa } from './limites.ts';

/**
 * One fixed window per key, atomically: the first attempt starts the window (the key's expiry),
 * the following ones count inside it. Returns the count and the milliseconds the window has left.
 */
const SCRIPT_JANELA = `
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
local resta = redis.call('PTTL', KEYS[1])
if resta < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  resta = tonumber(ARGV[1])
end
return {n, resta}
`;

const PREFIXO = 'cestaria:tentativas:';
/** How long start-up waits for Redis before going on with the database. */
const PRAZO_CONEXAO_MS = 2_000;
/** A command that takes longer than this counts as Redis being down. */
const PRAZO_COMANDO_MS = 500;

function ehPar(v: unknown): v is [number, number] {
  return Array.isArray(v) && v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number';
}

/**
 * Login attempts counted in Redis (REDIS_URL). Redis keeps its own clock for the windows. When
 * Redis cannot be reached, the count falls back to `reserva` (the database) and the failure is
 * reported once per outage: logins keep working and keep being limited.
 */
export async function limitadorNoRedis(
  url: string,
  reserva: Limitador,
  avisar: (mensagem: string, erro: unknown) => void,
): Promise<Limitador> {
  const cliente = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (tentativas) => Math.min(100 * 2 ** tentativas, 5_000) },
  });
  let foraDoAr = false;
  cliente.on('error', (e: unknown) => {
    if (!foraDoAr) avisar('Redis inacessível; contando tentativas de login no banco até ele voltar', e);
    foraDoAr = true;
  });
  cliente.on('ready', () => {
    foraDoAr = false;
  });
  // With Redis down at start-up the service still starts (counting in the database); the client
  // keeps reconnecting in the background.
  const conectado = cliente.connect().then(
    () => true,
    () => false,
  );
  let prazo: NodeJS.Timeout | undefined;
  const aTempo = await Promise.race([
    conectado,
    new Promise<false>((r) => (prazo = setTimeout(() => r(false), PRAZO_CONEXAO_MS))),
  ]);
  clearTimeout(prazo);
  if (!aTempo) {
    if (!foraDoAr)
      avisar('Redis inacessível ao iniciar; contando tentativas de login no banco até ele responder', null);
    foraDoAr = true;
  }
  return {
    async contar(chave, limite, janelaMs, agora): Promise<Tentativa> {
      try {
        const r: unknown = await cliente
          .withCommandOptions({ timeout: PRAZO_COMANDO_MS })
          .eval(SCRIPT_JANELA, { keys: [PREFIXO + chave], arguments: [String(janelaMs)] });
        if (!ehPar(r)) throw new Error(`resposta inesperada do Redis: ${JSON.stringify(r)}`);
        const [contagem, restaMs] = r;
        return { permitido: contagem <= limite, contagem, fimDaJanela: agora.getTime() + restaMs };
      } catch (e) {
        if (!foraDoAr) avisar('Redis falhou ao contar uma tentativa de login; usando o banco', e);
        foraDoAr = true;
        return reserva.contar(chave, limite, janelaMs, agora);
      }
    },
    async zerar(chave) {
      // Both places: an attempt may have been counted in the database while Redis was down.
      await reserva.zerar(chave);
      try {
        await cliente.withCommandOptions({ timeout: PRAZO_COMANDO_MS }).del(PREFIXO + chave);
      } catch (e) {
        if (!foraDoAr) avisar('Redis falhou ao zerar as tentativas de login; a janela termina sozinha', e);
        foraDoAr = true;
      }
    },
    async fechar() {
      await reserva.fechar();
      try {
        cliente.destroy();
      } catch {
        // Already closed: nothing to release.
      }
    },
  };
}
