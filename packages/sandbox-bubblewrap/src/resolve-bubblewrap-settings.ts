import { resolve } from 'node:path';
import process from 'node:process';
import { parseByteSize, settingKey } from '@hookline/core/plugin';
import * as v from 'valibot';
import { BubblewrapSettingsError } from './bubblewrap-settings-error.ts';
import { bubblewrapSettingsSchema, type BubblewrapSettingsData } from './bubblewrap-settings.ts';

/** Every setting with its default applied and its paths made absolute: what the provider works with. */
export interface ResolvedBubblewrapSettings {
  readonly network: 'none' | 'host';
  readonly writable: readonly string[];
  readonly readable: readonly string[];
  readonly pids: number;
  readonly memoryBytes: number;
  readonly bwrap: string;
  readonly killGraceMs: number;
  readonly maxOutputBytes: number;
}

/**
 * Validates settings against {@link bubblewrapSettingsSchema} and applies the defaults: no network,
 * nothing writable but the hook's working directory, 256 processes and 512 MiB (the docker
 * sandbox's limits), `bwrap` from PATH, a 2 s kill grace and 1 MiB of output per stream. Throws a
 * {@link BubblewrapSettingsError} listing every problem.
 */
export function resolveBubblewrapSettings(settings: BubblewrapSettingsData): ResolvedBubblewrapSettings {
  const parsed = v.safeParse(bubblewrapSettingsSchema, settings);
  if (!parsed.success)
    throw new BubblewrapSettingsError(
      parsed.issues.map((issue) => ({ key: settingKey(issue), message: issue.message })),
    );
  const data = parsed.output;
  const baseDir = data.baseDir ?? process.cwd();
  return {
    network: data.network ?? 'none',
    writable: (data.writable ?? []).map((path) => resolve(baseDir, path)),
    readable: (data.readable ?? []).map((path) => resolve(baseDir, path)),
    pids: data.pids ?? 256,
    memoryBytes: data.memory === undefined ? 512 * 1024 * 1024 : parseByteSize(data.memory)!,
    bwrap: data.bwrap ?? 'bwrap',
    killGraceMs: data.killGraceMs ?? 2_000,
    maxOutputBytes: data.maxOutputBytes ?? 1_048_576,
  };
}
