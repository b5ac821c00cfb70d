import { relative } from 'node:path';
import type { CliIo } from '../cli-io.ts';
import { lineDiff } from './line-diff.ts';
import { settingsText, writeSettingsFile, type SettingsFile } from './settings-file.ts';

/** What changing the settings did: `unchanged`, `dry-run` (printed) or `written` (with its backup). */
export type SettingsChange =
  | { readonly kind: 'unchanged' }
  | { readonly kind: 'dry-run' }
  | { readonly kind: 'written'; readonly backup: string | undefined };

/** Writes `data` over `file` unless nothing changes; with `dryRun`, prints the change instead. */
export function writeSettingsChange(
  file: SettingsFile,
  data: Readonly<Record<string, unknown>>,
  dryRun: boolean,
  io: CliIo,
): SettingsChange {
  const before = file.text === undefined ? '' : settingsText(file.data);
  const after = settingsText(data);
  if (before === after) return { kind: 'unchanged' };
  if (dryRun) {
    io.stdout.write(`--- ${displayPath(file.path, io)} (now)\n+++ ${displayPath(file.path, io)} (after)\n`);
    io.stdout.write(lineDiff(before, after));
    return { kind: 'dry-run' };
  }
  return { kind: 'written', backup: writeSettingsFile(file, data) };
}

/** A path as the user thinks of it: relative to the working directory when under it. */
export function displayPath(path: string, io: CliIo): string {
  const near = relative(io.cwd, path);
  return near.startsWith('..') ? path : near;
}
