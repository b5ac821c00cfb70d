import { PluginError } from '../errors/plugin-error.ts';
import { interfaceVersionProblem } from './interface-version.ts';
import type { Runner, RunnerType } from './runner.ts';

/** One installed hook type: its declaration and run, and the runner that provides it. */
export interface InstalledType {
  readonly runner: Runner;
  readonly type: RunnerType;
}

/** Runners indexed by the hook types they execute. */
export interface RunnerRegistry {
  /** The runner and its declaration for a type, or `undefined` when no installed runner has it. */
  find(type: string): InstalledType | undefined;
  /** Every installed type, sorted, for error messages. */
  readonly types: readonly string[];
}

/** Indexes runners by type; a runner of another interface version or a type claimed twice is a misuse. */
export function createRunnerRegistry(runners: readonly Runner[]): RunnerRegistry {
  const byType = new Map<string, InstalledType>();
  for (const runner of runners) {
    const mismatch = interfaceVersionProblem('runner', runner);
    if (mismatch !== undefined) throw new PluginError(`${mismatch}; install versions that match.`);
    for (const [name, type] of Object.entries(runner.types)) {
      const taken = byType.get(name);
      if (taken !== undefined) {
        throw new PluginError(
          `Hook type "${name}" is provided by both "${taken.runner.name}" and "${runner.name}"; pass only one of them.`,
        );
      }
      byType.set(name, { runner, type });
    }
  }
  return { find: (type) => byType.get(type), types: [...byType.keys()].sort() };
}
