import type { Command } from './command.ts';

/** A command as the top-level help lists it; its module is imported only when it runs. */
export interface CommandEntry {
  readonly summary: string;
  load(): Promise<Command>;
}

/**
 * Every `hookline` command. Each loads its own module lazily, so `hookline emit` never parses the
 * code of `schema` (or the JSON Schema converter it pulls in) and `--help` loads nothing.
 */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  emit: { summary: 'run an event\'s hooks and print the outcome (exit 2 on block)', load: async () => (await import('./commands/emit.ts')).emitCommand },
  run: { summary: 'read events as JSON lines on stdin, write one outcome line each', load: async () => (await import('./commands/run.ts')).runCommand },
  explain: { summary: 'dry run: every hook, whether it would run for an event, and why not', load: async () => (await import('./commands/explain.ts')).explainCommand },
  validate: { summary: 'check config files; every problem as file:line: message', load: async () => (await import('./commands/validate.ts')).validateCommand },
  list: { summary: 'the effective hooks after layering, with file:line', load: async () => (await import('./commands/list.ts')).listCommand },
  schema: { summary: 'print the config JSON Schema (installed runners and plugins included)', load: async () => (await import('./commands/schema.ts')).schemaCommand },
  init: { summary: 'write a commented starter hookline.toml', load: async () => (await import('./commands/init.ts')).initCommand },
  completion: { summary: 'print a shell completion script: bash, zsh or fish', load: async () => (await import('./commands/completion.ts')).completionCommand },
  sandbox: { summary: 'sandbox prune: remove what crashed runs left in sandboxes', load: async () => (await import('./commands/sandbox.ts')).sandboxCommand },
};
