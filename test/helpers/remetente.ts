/**
 * A sender process for tests: opens the database named by DATABASE_URL, delivers the outbox to
 * SMTP_URL once, and prints how many messages it sent. Two of these at once prove that each
 * message goes out once across processes. RELOGIO (an instant) stops the clock there, as the
 * test's own clock is.
 */
import { carregarConfig } from '../../src/config.ts';
import { abrirBanco } from '../../src/db/banco.ts';
import { relogioDoSistema, type Relogio } from '../../src/domain/tempo.ts';
import { Correio } from '../../src/mensagens/correio/correio.ts';

const config = carregarConfig();
const banco = abrirBanco(config.banco);
const fixo = process.env.RELOGIO;
const relogio: Relogio = fixo === undefined ? relogioDoSistema : { agora: () => new Date(fixo) };
const correio = new Correio({ config, banco, relogio, baseUrl: () => 'http://localhost', smtp: config.email.smtp });
try {
  const enviadas = await correio.enviarPendentes();
  process.stdout.write(`${enviadas}\n`);
} finally {
  await correio.fechar();
  await banco.destroy();
}
