/**
 * The PostgreSQL reference: Fastify 5 answering one prepared single-row query per request (a
 * person by primary key, as JSON), over a pool opened with the service's own settings
 * (`configDoPool`), in its own process on the given port. It is what a route that goes to the
 * database once can reach on this machine with this database; the bench reports every
 * PostgreSQL scenario as a ratio to it, measured in the same run.
 * `node bench/base-pg.ts PORT URL`
 */
import Fastify from 'fastify';
import pg from 'pg';
import { configDoPool } from '../src/db/banco.ts';

const porta = Number(process.argv[2] ?? '0');
const url = process.argv[3];
if (url === undefined) throw new Error('uso: node bench/base-pg.ts PORTA URL');
const pool = new pg.Pool(configDoPool(url));
// The ids the bench's people have: each request reads the next one, so every read finds a row.
const { rows: limites } = await pool.query<{ menor: number; maior: number }>(
  'select min(id) as menor, max(id) as maior from usuario',
);
const menor = limites[0]?.menor ?? 1;
const quantos = Math.max(1, (limites[0]?.maior ?? 1) - menor + 1);
let n = 0;
const app = Fastify({ logger: false });
app.get('/', async () => {
  const id = menor + (n++ % quantos);
  // A named statement: parsed and planned once per connection, then only bound and executed.
  const { rows } = await pool.query<{ id: number; nome: string; email: string }>({
    name: 'referencia',
    text: 'select id, nome, email from usuario where id = $1',
    values: [id],
  });
  return rows[0] ?? null;
});
await app.listen({ host: '127.0.0.1', port: porta });
console.log('base pronta');
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});
