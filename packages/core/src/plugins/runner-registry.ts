import { PluginError } from '../errors/plugin-error.ts';
import { SPECIFICATION_VERSION, type Runner, type RunnerType } from './runner.ts';

/** Runners indexed by the hook types they execute. */
export interface RunnerRegistry {
  /** The runner and its declaration for a type, or `undefined` when no installed runner has it. */
  find(type: string): { readonly runner: Runner; readonly type: RunnerType } | undefined;
  /** Every installed type, sorted, for error messages. */
  readonly types: readonly string[];
}

/** Indexes runners by type; a runner of another interface version or a type claimed twice is a misuse. */
export function createRunnerRegistry(runners: readonly Runner[]): RunnerRegistry {
  const byType = new Map<string, { runner: Runner; type: RunnerType }>();
  for (const runner of runners) {
    if (runner?.specificationVersion !== SPECIFICATION_VERSION) {
      throw new PluginError(
        `Runner "${runner?.name ?? String(runner)}" implements interface ${String(runner?.specificationVersion)}, but this @hookline/core speaks ${SPECIFICATION_VERSION}; install versions that match.`,
      );
    }
    for (const [name, type] of Object.entries(runner.types)) {
      const taken = byType.get(name);
      if (taken !== undefined) {
        throw new PluginError(`Hook type "${name}" is provided by both "${taken.runner.name}" and "${runner.name}"; pass only one of them.`);
      }
      byType.set(name, { runner, type });
    }
  }
  return { find: (type) => byType.get(type), types: [...byType.keys()].sort() };
}
