import type { CommandModule, CommandSpec } from './command.ts';
import { COMMAND_SPECS } from './command-specs.ts';

/** A command's declaration and where its code is: imported only when it runs. */
export interface CommandEntry {
  readonly spec: CommandSpec;
  load(): Promise<CommandModule<CommandSpec>>;
}

/** Every `hookline` command, in the order `hookline --help` lists them. */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  emit: { spec: COMMAND_SPECS.emit, load: async () => (await import('./commands/emit.ts')).emitCommand },
  run: { spec: COMMAND_SPECS.run, load: async () => (await import('./commands/run.ts')).runCommand },
  explain: { spec: COMMAND_SPECS.explain, load: async () => (await import('./commands/explain.ts')).explainCommand },
  validate: {
    spec: COMMAND_SPECS.validate,
    load: async () => (await import('./commands/validate.ts')).validateCommand,
  },
  list: { spec: COMMAND_SPECS.list, load: async () => (await import('./commands/list.ts')).listCommand },
  schema: { spec: COMMAND_SPECS.schema, load: async () => (await import('./commands/schema.ts')).schemaCommand },
  init: { spec: COMMAND_SPECS.init, load: async () => (await import('./commands/init.ts')).initCommand },
  completion: {
    spec: COMMAND_SPECS.completion,
    load: async () => (await import('./commands/completion.ts')).completionCommand,
  },
  worker: { spec: COMMAND_SPECS.worker, load: async () => (await import('./commands/worker.ts')).workerCommand },
  journal: { spec: COMMAND_SPECS.journal, load: async () => (await import('./commands/journal.ts')).journalCommand },
  sandbox: { spec: COMMAND_SPECS.sandbox, load: async () => (await import('./commands/sandbox.ts')).sandboxCommand },
  webhook: { spec: COMMAND_SPECS.webhook, load: async () => (await import('./commands/webhook.ts')).webhookCommand },
  bridge: { spec: COMMAND_SPECS.bridge, load: async () => (await import('./commands/bridge.ts')).bridgeCommand },
  install: { spec: COMMAND_SPECS.install, load: async () => (await import('./commands/install.ts')).installCommand },
  uninstall: {
    spec: COMMAND_SPECS.uninstall,
    load: async () => (await import('./commands/uninstall.ts')).uninstallCommand,
  },
  doctor: { spec: COMMAND_SPECS.doctor, load: async () => (await import('./commands/doctor.ts')).doctorCommand },
};
