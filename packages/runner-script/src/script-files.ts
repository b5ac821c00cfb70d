import { readFile, stat } from 'node:fs/promises';
import { messageOf } from '@hookline/core/plugin';
import { findSyntaxError } from './find-syntax-error.ts';
import { scriptSource, type ScriptSource } from './script-source.ts';

/** A script file read and parsed, or why it cannot run. */
export type ScriptFileRead =
  { readonly ok: true; readonly source: ScriptSource } | { readonly ok: false; readonly error: string };

/** Reads `file` scripts when hooks run, and again only when a file changes. */
export interface ScriptFiles {
  read(path: string): Promise<ScriptFileRead>;
}

interface CachedRead {
  readonly mtimeMs: number;
  readonly size: number;
  readonly read: ScriptFileRead;
}

/**
 * Creates the cache of `file` scripts. Each run costs one `stat`; a file is re-read and re-parsed
 * when its modification time or size changed, so editing a script takes effect on the next run
 * without a restart. A file that is missing, unreadable or does not parse fails the hook, naming
 * the path (and the line of a syntax error).
 */
export function createScriptFiles(): ScriptFiles {
  const cache = new Map<string, CachedRead>();
  return {
    async read(path) {
      let info: { mtimeMs: number; size: number; isFile(): boolean };
      try {
        info = await stat(path);
      } catch (error) {
        cache.delete(path);
        return { ok: false, error: unreadable(path, error) };
      }
      if (!info.isFile())
        return {
          ok: false,
          error: `script file ${path} is not a file; \`file\` must name a JavaScript file (resolved from the config file's folder)`,
        };
      const cached = cache.get(path);
      if (cached !== undefined && cached.mtimeMs === info.mtimeMs && cached.size === info.size) return cached.read;
      let body: string;
      try {
        body = await readFile(path, 'utf8');
      } catch (error) {
        return { ok: false, error: unreadable(path, error) };
      }
      const read = parse(path, body);
      cache.set(path, { mtimeMs: info.mtimeMs, size: info.size, read });
      return read;
    },
  };
}

function parse(path: string, body: string): ScriptFileRead {
  const error = findSyntaxError(body);
  if (error === undefined) return { ok: true, source: scriptSource(body, 'file', path) };
  const where =
    error.line === undefined
      ? ''
      : ` (at ${path}:${error.line}${error.column === undefined ? '' : `:${error.column}`})`;
  return { ok: false, error: `script file ${path} has a syntax error: ${error.message}${where}` };
}

function unreadable(path: string, error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT')
    return `script file ${path} does not exist; \`file\` is resolved from the folder of the config file that names it`;
  if (code === 'EACCES' || code === 'EPERM') return `script file ${path} cannot be read: permission denied`;
  return `script file ${path} cannot be read: ${messageOf(error)}`;
}
