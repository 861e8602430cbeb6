/**
 * The bare baseline: Fastify 5 answering `{"hello":"world"}`, nothing else, in its own process on
 * the given port. Every scenario's throughput is also reported as a ratio to this one, measured
 * in the same run with the same settings, so the numbers travel between machines.
 */
import Fastify from 'fastify';

const porta = Number(process.argv[2] ?? '0');
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ host: '127.0.0.1', port: porta });
console.log('base pronta');
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
