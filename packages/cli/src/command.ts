import type { CliIo } from './cli-io.ts';
import type { Setup } from './config/load-setup.ts';

/** One option of a command: how `node:util`'s `parseArgs` reads it and how its help shows it. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** The value's placeholder in the help and the usage line (`FILE`, `N`); string options only. */
  readonly value?: string;
  /** What the help says about it; a line break starts a continuation line, indented under the first. */
  readonly help: string;
}

/** A command's options by long name (`max-line-bytes`). `--help` is added to every command. */
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** One positional argument. */
export interface PositionalSpec {
  /** Its name in messages and the usage line (`<event>`, `[FILE]`). */
  readonly name: string;
  readonly optional?: boolean;
  /** The words it may be (`prune`; `bash`, `zsh`, `fish`); shown instead of the name, and completed. */
  readonly choices?: readonly string[];
  /** An event name, of any preset: completion offers the events. */
  readonly event?: boolean;
}

/**
 * Everything about one `hookline` command but what it does: the top-level help, its own help, the
 * parsing of its arguments and the shell completion are all generated from this.
 */
export interface CommandSpec {
  /** One line for `hookline --help`. */
  readonly summary: string;
  /** The paragraphs between the usage line and the options. */
  readonly description: string;
  readonly options: OptionSpecs;
  readonly positionals: readonly PositionalSpec[];
  /**
   * What the help shows after the options: notes, examples. A function gets facts that are read from
   * the presets when the help is printed, so the table itself stays data that loads nothing.
   */
  readonly epilog?: string | ((facts: HelpFacts) => string);
  /**
   * The config is loaded (`--config`, `--preset`) and its warnings printed before the command runs;
   * `run-hooks` also restarts Node with the flags the hooks need.
   */
  readonly setup?: 'read' | 'run-hooks';
  /** The event context is built from `--context` and `--set` (after the setup, before its warnings are printed). */
  readonly context?: boolean;
  /**
   * When the config cannot be loaded and the command's `<event>` is a guard of an agent-facing
   * preset (one that blocks, of a preset with `invalidHooks: "fail-when-selected"`), the command
   * answers block (exit 2, the reason on stderr) instead of failing with exit 1, which an agent
   * reads as "go on".
   */
  readonly blocksWhenConfigFails?: boolean;
}

// A declared option's value; for options in general (the table's view), any value parseArgs gives.
type OptionValue<T extends OptionSpec> = T['type'] extends 'boolean'
  ? boolean
  : 'boolean' extends T['type']
    ? string | boolean | Array<string | boolean>
    : T['multiple'] extends true
      ? string[]
      : string;

/** The parsed options of a command: each one absent when not given. */
export type OptionValues<T extends OptionSpecs> = { readonly [K in keyof T]?: OptionValue<T[K]> };

type PositionalValues<T extends readonly PositionalSpec[]> = {
  readonly [P in T[number] as P['name']]: P['optional'] extends true ? string | undefined : string;
};

/** What a command's `run` gets: its parsed arguments, and the setup and context it declared. */
export type CommandInput<T extends CommandSpec> = {
  readonly values: OptionValues<T['options']>;
  readonly positionals: PositionalValues<T['positionals']>;
} & (T['setup'] extends string ? { readonly setup: Setup } : unknown) &
  (T['context'] extends true ? { readonly context: Record<string, unknown> } : unknown);

/** A command's code: what it does with its input. Resolves to the exit code. */
export interface CommandModule<T extends CommandSpec> {
  // A method, so a module of one command fits where any command's is expected (the table's).
  run(input: CommandInput<T>, io: CliIo): Promise<number>;
}

/** Declares a command, keeping the literal types its `run` is checked against. */
export function defineCommand<const T extends CommandSpec>(spec: T): T {
  return spec;
}

/** What a command's help may quote that comes from the presets, computed only when help is printed. */
export interface HelpFacts {
  /** One line per preset: the required context fields the command line fills in, and how. */
  readonly contextDefaults: string;
}
