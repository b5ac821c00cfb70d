import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { messageOf, type AgentAdapter, type PresetConfigFile } from '@hookline/core';
import { CliError } from '../cli-error.ts';
import type { CliIo } from '../cli-io.ts';

/** An agent's settings file as read: its text (none when it does not exist) and its parsed object. */
export interface SettingsFile {
  readonly path: string;
  readonly text: string | undefined;
  readonly data: Readonly<Record<string, unknown>>;
}

/** Where the agent keeps the project's settings (or the user's, `user`). */
export function settingsPath(adapter: AgentAdapter, user: boolean, io: CliIo): string {
  return configFilePath(user ? adapter.settings.user : adapter.settings.project, io);
}

/** Where a file of the agent's is on this machine. */
export function configFilePath(file: PresetConfigFile, io: CliIo): string {
  const base =
    file.under === 'project'
      ? io.cwd
      : file.under === 'home'
        ? (io.env['HOME'] ?? homedir())
        : (io.env['XDG_CONFIG_HOME'] ?? join(io.env['HOME'] ?? homedir(), '.config'));
  return join(base, ...file.path.split('/'));
}

/**
 * Reads a settings file; a missing or empty one is `{}`. A file that is not a JSON object throws,
 * and is never written over: the user's settings are theirs to fix.
 */
export function readSettingsFile(path: string): SettingsFile {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { path, text: undefined, data: {} };
    throw new CliError('HOOKLINE_CLI_SETTINGS_UNREADABLE', `cannot read ${path}: ${messageOf(error)}`);
  }
  if (text.trim() === '') return { path, text, data: {} };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new CliError(
      'HOOKLINE_CLI_SETTINGS_UNPARSEABLE',
      `${path} is not valid JSON (${messageOf(error)}); it was left untouched. Fix it (or move it away), then run this again.`,
    );
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw new CliError(
      'HOOKLINE_CLI_SETTINGS_UNPARSEABLE',
      `${path} is not a JSON object; it was left untouched. Fix it (or move it away), then run this again.`,
    );
  return { path, text, data: data as Record<string, unknown> };
}

/** The text a settings object is written as. */
export function settingsText(data: Readonly<Record<string, unknown>>): string {
  return `${JSON.stringify(data, null, 2)}\n`;
}

/** Deletes the file, keeping its text as `<file>.hookline-backup`. Returns the backup's path. */
export function removeSettingsFile(file: SettingsFile & { readonly text: string }): string {
  const backup = `${file.path}.hookline-backup`;
  writeFileSync(backup, file.text);
  rmSync(file.path);
  return backup;
}

/**
 * Writes `data` over the file, keeping the previous text as `<file>.hookline-backup`. Written to a
 * temporary file first and renamed, so the agent never reads half a file. Returns the backup's path.
 */
export function writeSettingsFile(file: SettingsFile, data: Readonly<Record<string, unknown>>): string | undefined {
  mkdirSync(dirname(file.path), { recursive: true });
  const backup = file.text === undefined ? undefined : `${file.path}.hookline-backup`;
  if (backup !== undefined) writeFileSync(backup, file.text!);
  const temporary = `${file.path}.hookline-${process.pid}.tmp`;
  writeFileSync(temporary, settingsText(data));
  renameSync(temporary, file.path);
  return backup;
}
