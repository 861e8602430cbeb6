/**
 * A Stryker test runner: the TAP runner, with the files that cover a mutant run in the order the
 * configuration lists them (`tap.testFiles`, one path each) instead of the order they were found.
 * Stryker stops at the first file that fails, so the fast files that pin the rules go first.
 */
import type { StrykerOptions } from '@stryker-mutator/api/core';
import {
  PluginKind,
  commonTokens,
  declareFactoryPlugin,
  tokens,
  type Injector,
  type PluginContext,
} from '@stryker-mutator/api/plugin';
import { createTapTestRunnerFactory, type TapTestRunner } from '@stryker-mutator/tap-runner';

const criarTap = createTapTestRunnerFactory();

function criarTapOrdenado(injector: Injector<PluginContext>, options: StrykerOptions): TapTestRunner {
  const runner = criarTap(injector);
  const ordem = (options.tap as { testFiles: readonly string[] }).testFiles;
  const posicao = (arquivo: string) => {
    const i = ordem.findIndex((p) => arquivo.endsWith(p));
    return i < 0 ? ordem.length : i;
  };
  const rodar = runner.mutantRun.bind(runner);
  runner.mutantRun = (opcoes) =>
    rodar(
      opcoes.testFilter === undefined
        ? opcoes
        : { ...opcoes, testFilter: [...opcoes.testFilter].sort((a, b) => posicao(a) - posicao(b)) },
    );
  return runner;
}
criarTapOrdenado.inject = tokens(commonTokens.injector, commonTokens.options);

export const strykerPlugins = [declareFactoryPlugin(PluginKind.TestRunner, 'tap-ordenado', criarTapOrdenado)];
