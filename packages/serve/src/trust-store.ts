import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { readOptionalFile, writePrivateFile } from './private-files.ts';
import { ServeError } from './serve-error.ts';

/** What `hookline trust` recorded for one project folder. */
export interface TrustRecord {
  /** SHA-256 of the project's hook config files (their paths relative to the folder, and contents). */
  readonly hash: string;
  /** The files hashed, relative to the folder. */
  readonly files: readonly string[];
  /** When it was recorded (ISO 8601). */
  readonly trustedAt: string;
}

/** The hash of no files at all: a project without hook config files of its own needs no trust. */
export const EMPTY_CONFIG_HASH = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

/** Whether a project's hook config may run, and why not. */
export type TrustVerdict =
  | { readonly trusted: true; readonly hash: string }
  | { readonly trusted: false; readonly hash: string; readonly reason: 'never-trusted' | 'changed' };

/**
 * The hash of the project's hook config: every existing file of `files` (absolute paths of the
 * files a config of this project is read from), by its path relative to `projectDir` and its
 * bytes. A file added, removed, renamed or edited gives another hash.
 */
export function projectConfigHash(projectDir: string, files: readonly string[]): string {
  const hash = createHash('sha256');
  for (const file of [...files].sort()) {
    const bytes = readOptionalBytes(file);
    if (bytes === undefined) continue;
    const name = relative(projectDir, file);
    hash.update(`${name.length}:${name}\0${bytes.length}:`).update(bytes);
  }
  return hash.digest('hex');
}

/** The records of `trustFile`, by project folder; an unreadable or foreign file is an error, never "trusted". */
export function readTrustRecords(trustFile: string): Readonly<Record<string, TrustRecord>> {
  const text = readOptionalFile(trustFile);
  if (text === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      const projects = (parsed as { projects?: unknown }).projects;
      if (typeof projects === 'object' && projects !== null) return projects as Record<string, TrustRecord>;
    }
  } catch {
    // Reported below.
  }
  throw new ServeError(
    'HOOKLINE_SERVE_TRUST_FILE_INVALID',
    `${trustFile} is not a trust file Hookline wrote; move it away and run \`hookline trust\` again in each project.`,
  );
}

/** Whether the project's current hook config is the one the user trusted. */
export function trustVerdict(trustFile: string, projectDir: string, files: readonly string[]): TrustVerdict {
  const hash = projectConfigHash(projectDir, files);
  const record = readTrustRecords(trustFile)[projectDir];
  if (record === undefined) return { trusted: false, hash, reason: 'never-trusted' };
  return record.hash === hash ? { trusted: true, hash } : { trusted: false, hash, reason: 'changed' };
}

/** Records the project's current hook config as trusted (the file stays mode 0600). */
export function recordTrust(trustFile: string, projectDir: string, files: readonly string[]): TrustRecord {
  const present = files.filter((file) => readOptionalBytes(file) !== undefined);
  const record: TrustRecord = {
    hash: projectConfigHash(projectDir, present),
    files: present.map((file) => relative(projectDir, file)).sort(),
    trustedAt: new Date().toISOString(),
  };
  writeRecords(trustFile, { ...readTrustRecords(trustFile), [projectDir]: record });
  return record;
}

/** Forgets the project; true when it was trusted. */
export function revokeTrust(trustFile: string, projectDir: string): boolean {
  const records = { ...readTrustRecords(trustFile) };
  if (records[projectDir] === undefined) return false;
  delete records[projectDir];
  writeRecords(trustFile, records);
  return true;
}

function writeRecords(trustFile: string, projects: Readonly<Record<string, TrustRecord>>): void {
  writePrivateFile(trustFile, `${JSON.stringify({ version: 1, projects }, null, 2)}\n`);
}

function readOptionalBytes(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw new ServeError(
      'HOOKLINE_SERVE_UNREADABLE',
      `${file} cannot be read (${String(code)}); check its permissions.`,
      {
        cause: error,
      },
    );
  }
}
