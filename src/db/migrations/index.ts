import type { Migration, MigrationProvider } from 'kysely';
import type { ContextoMigracao, FabricaMigracao } from './dialeto.ts';
import { esquemaCestas } from './20261121_1400_esquema_cestas.ts';
import { mercados } from './20261121_1600_mercados.ts';
import { chavesDeBusca } from './20261121_1700_chaves_de_busca.ts';
import { mercadoPrecos } from './20261121_1800_mercado_precos.ts';
import { sessoesEncerradas } from './20261121_1900_sessoes_encerradas.ts';
import { indicesDeReserva } from './20261121_2000_indices_de_reserva.ts';
import { versaoDosMercados } from './20261121_2100_versao_dos_mercados.ts';
import { versaoDosCiclos } from './20261121_2200_versao_dos_ciclos.ts';
import { reservasContadas } from './20261121_2300_reservas_contadas.ts';
import { vinculoDeLogin } from './20261124_1000_vinculo_de_login.ts';
import { pontosDoCiclo } from './20261125_1000_pontos_do_ciclo.ts';
import { mensagens } from './20261125_1400_mensagens.ts';
import { mercadosNosCiclos } from './20261126_1200_mercados_nos_ciclos.ts';
import { umaConta } from './20261126_1300_uma_conta.ts';
import { pix } from './20261126_1400_pix.ts';
import { assinaturas } from './20261127_1000_assinaturas.ts';
import { identidades } from './20261128_1000_identidades.ts';
import { transacaoDoBanco } from './20261128_1100_transacao_do_banco.ts';
import { retirada } from './20261202_1000_retirada.ts';
import { versaoNoCommit } from './20261203_1000_versao_no_commit.ts';
import { versoesEmOrdem } from './20261204_1000_versoes_em_ordem.ts';

/** Every migration, in order. Never edit one after it has landed: add a new one. */
const MIGRACOES: Record<string, FabricaMigracao> = {
  '20261121_1400_esquema_cestas': esquemaCestas,
  '20261121_1600_mercados': mercados,
  '20261121_1700_chaves_de_busca': chavesDeBusca,
  '20261121_1800_mercado_precos': mercadoPrecos,
  '20261121_1900_sessoes_encerradas': sessoesEncerradas,
  '20261121_2000_indices_de_reserva': indicesDeReserva,
  '20261121_2100_versao_dos_mercados': versaoDosMercados,
  '20261121_2200_versao_dos_ciclos': versaoDosCiclos,
  '20261121_2300_reservas_contadas': reservasContadas,
  '20261124_1000_vinculo_de_login': vinculoDeLogin,
  '20261125_1000_pontos_do_ciclo': pontosDoCiclo,
  '20261125_1400_mensagens': mensagens,
  '20261126_1200_mercados_nos_ciclos': mercadosNosCiclos,
  '20261126_1300_uma_conta': umaConta,
  '20261126_1400_pix': pix,
  '20261127_1000_assinaturas': assinaturas,
  '20261128_1000_identidades': identidades,
  '20261128_1100_transacao_do_banco': transacaoDoBanco,
  '20261202_1000_retirada': retirada,
  '20261203_1000_versao_no_commit': versaoNoCommit,
  '20261204_1000_versoes_em_ordem': versoesEmOrdem,
};

/** The names of every migration, in order: a database is up to date when it has applied them all. */
export const NOMES_MIGRACOES: readonly string[] = Object.keys(MIGRACOES);

export function provedorDeMigracoes(ctx: ContextoMigracao): MigrationProvider {
  return {
    getMigrations: async () => {
      const todas: Record<string, Migration> = {};
      for (const [nome, fabrica] of Object.entries(MIGRACOES)) todas[nome] = fabrica(ctx);
      return todas;
    },
  };
}
