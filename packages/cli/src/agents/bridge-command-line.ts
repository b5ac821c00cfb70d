import type { AgentAdapter } from '@hookline/core';

/** What `hookline install` puts into the bridge's command line. */
export interface BridgeCommandOptions {
  /** How the agent starts Hookline: `hookline` (on PATH) unless `--command` says otherwise. */
  readonly command: string;
  readonly configFiles: readonly string[];
  readonly preset: string | undefined;
  readonly deadlineSeconds: number | undefined;
}

/** The command line of the bridge's entries: `hookline bridge claude [--config F]… [--preset P] [--deadline S]`. */
export function bridgeCommandLine(adapter: AgentAdapter, options: BridgeCommandOptions): string {
  const words = [
    'bridge',
    adapter.name,
    ...options.configFiles.flatMap((file) => ['--config', file]),
    ...(options.preset === undefined ? [] : ['--preset', options.preset]),
    ...(options.deadlineSeconds === undefined ? [] : ['--deadline', String(options.deadlineSeconds)]),
  ];
  return [options.command, ...words.map(shellWord)].join(' ');
}

/**
 * Whether an entry's command is the bridge for this agent (installed by any version, with any
 * options): a word ending in `hookline` (or `hookline.js`) and, later, `bridge <agent>`.
 */
export function isBridgeCommand(adapter: AgentAdapter, command: string): boolean {
  const names = [adapter.name, ...(adapter.aliases ?? [])].map(escaped).join('|');
  return new RegExp(`(^|[\\s/'"])hookline(\\.js)?['"]?\\s(.*\\s)?bridge\\s+['"]?(${names})['"]?(\\s|$)`).test(command);
}

// Single-quoted when it holds anything a shell would read.
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

function escaped(word: string): string {
  return word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The `--deadline` an entry's command line gives the bridge, in milliseconds; undefined when none. */
export function commandDeadlineMs(command: string): number | undefined {
  const given = /\s--deadline[\s=]+'?([0-9.]+)'?(\s|$)/.exec(command);
  const seconds = given === null ? Number.NaN : Number(given[1]);
  return seconds > 0 ? seconds * 1000 : undefined;
}
