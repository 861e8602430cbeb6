/**
 * The seed for the property and fuzz tests. Under CI the seed is fixed, so a run can be repeated
 * and a red build always means a change in the code, never a new random draw. Outside CI every
 * run draws a new seed, so local runs keep exploring; a failure prints its seed, and
 * `FC_SEED=<seed> npm test` (or `node --test <file>`) replays it anywhere.
 */
export const SEMENTE_DE_CI = 20_261_121;

export function semente(): number {
  const fixa = process.env.FC_SEED;
  if (fixa !== undefined && fixa !== '') {
    const n = Number(fixa);
    if (!Number.isSafeInteger(n)) throw new Error(`FC_SEED deve ser um número inteiro, recebido: ${fixa}`);
    return n;
  }
  return process.env.CI === 'true' ? SEMENTE_DE_CI : Date.now() % 2 ** 31;
}
