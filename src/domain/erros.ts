/**
 * Typed domain errors. Each carries a stable code and a Portuguese message; the HTTP layer maps
 * the class to a status code in exactly one place. The domain never throws HTTP errors.
 */
export abstract class ErroDominio extends Error {
  readonly codigo: string;
  readonly detalhes: Readonly<Record<string, unknown>> | undefined;

  constructor(codigo: string, mensagem: string, detalhes?: Readonly<Record<string, unknown>>) {
    super(mensagem);
    this.codigo = codigo;
    this.detalhes = detalhes;
  }
}

/** Input that breaks a rule of shape or range; `detalhes` maps field → message. */
export class Invalido extends ErroDominio {
  override name = 'Invalido';
}

/** The actor may not do this. */
export class Proibido extends ErroDominio {
  override name = 'Proibido';
}

/** The record does not exist (or the actor may not know that it does). */
export class NaoEncontrado extends ErroDominio {
  override name = 'NaoEncontrado';
}

/** The request conflicts with the current state: duplicate, in use, capacity, closed window. */
export class Conflito extends ErroDominio {
  override name = 'Conflito';
}

/** Throws Invalido naming each field of `erros`, when there is any: the one shape of refused input. */
export function recusarInvalidos(erros: Readonly<Record<string, string>>): void {
  if (Object.keys(erros).length > 0) throw new Invalido('VALIDACAO', 'Verifique os campos destacados', { ...erros });
}
