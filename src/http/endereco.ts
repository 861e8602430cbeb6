import type { Server } from 'node:http';

/**
 * The face's own address for links and redirects: the configured one, or `http://localhost:<port>`
 * once the server listens. Read on every request (the Origin check, links in answers), and a
 * listening server's port never changes: asked of the socket once, not per request (a system
 * call each time, 2 % of a dashboard's CPU).
 */
export function enderecoDaFace(servidor: Server, configurado: string | undefined, porta: number): () => string {
  if (configurado !== undefined) return () => configurado;
  let visto: string | undefined;
  return () => {
    if (visto !== undefined) return visto;
    const e = servidor.address();
    if (e === null || typeof e === 'string') return `http://localhost:${porta}`;
    visto = `http://localhost:${e.port}`;
    return visto;
  };
}
