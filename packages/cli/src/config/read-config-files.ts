import { readFileSync, statSync } from 'node:fs';
import { MAX_CONFIG_BYTES, oversizedConfigSource, readConfigSource, type ConfigSource } from '@hookline/core';
import { CliError } from '../cli-error.ts';
import type { ConfigFile } from './find-config-files.ts';

/** A config file with its parsed (not yet validated) content. */
export interface ReadConfigFile {
  readonly file: ConfigFile;
  readonly source: ConfigSource;
}

/** Reads and parses each file; TOML syntax errors are kept for loadConfig to report with the rest. */
export function readConfigFiles(files: readonly ConfigFile[]): ReadConfigFile[] {
  return files.map((file) => {
    let text: string;
    try {
      // A file past the limit is not even read: its issue is reported with the others.
      const { size } = statSync(file.path);
      if (size > MAX_CONFIG_BYTES) return { file, source: oversizedConfigSource(file.label, size) };
      text = readFileSync(file.path, 'utf8');
    } catch (error) {
      const reason = (error as NodeJS.ErrnoException).code ?? String(error);
      throw new CliError(
        'HOOKLINE_CLI_CONFIG_UNREADABLE',
        `cannot read config file ${file.label} (${reason}); check its permissions.`,
        { cause: error },
      );
    }
    const source = readConfigSource({ text, source: file.label });
    // A file that names no preset is read in the one its place implies (`.agent/settings.toml`).
    if (file.preset === undefined || source.parseIssue !== undefined || source.data['preset'] !== undefined)
      return { file, source };
    return { file, source: { ...source, data: { ...source.data, preset: file.preset } } };
  });
}
