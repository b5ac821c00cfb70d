import type { ConfigIssue } from './config-issue.ts';
import type { SourceLines } from './source-lines.ts';

/**
 * The most a config file may hold, in bytes (UTF-8). Checked before it is parsed: a config is written
 * by people, and 4 MiB is hundreds of times the largest real one; past it, parsing and validation
 * cost time and memory out of all proportion (a 50 MB command took 4.7 s and about 1 GB).
 */
export const MAX_CONFIG_BYTES = 4 * 1024 * 1024;

/** The longest string a config may hold (a command, a prompt, an inline script), in bytes (UTF-8). */
export const MAX_CONFIG_STRING_BYTES = 256 * 1024;

/**
 * The most hooks a configuration may have once its layers are merged. Each hook of an emitted event
 * is a process, a request or a model call: ten thousand is far beyond any real config, and a
 * config past it is a mistake (or generated) that would make one emit run for many minutes.
 */
export const MAX_HOOKS = 10_000;

/** The issue of a config source larger than {@link MAX_CONFIG_BYTES}; undefined when it is not. */
export function configSizeIssue(file: string, text: string): ConfigIssue | undefined {
  // A string's UTF-8 size is at least its length, so only a shorter one needs counting.
  const bytes = text.length > MAX_CONFIG_BYTES ? text.length : utf8Bytes(text);
  return bytes > MAX_CONFIG_BYTES ? fileTooLarge(file, bytes) : undefined;
}

/** The issue of a config file of `bytes` bytes, larger than {@link MAX_CONFIG_BYTES} (for hosts that check its size before reading it). */
export function fileTooLarge(file: string, bytes: number): ConfigIssue {
  return {
    file,
    message: `the config is ${formatBytes(bytes)}${bytes >= MAX_CONFIG_BYTES * 2 ? '' : ` (${bytes} bytes)`}, more than the ${formatBytes(MAX_CONFIG_BYTES)} a config may have`,
    fix: 'split it or move long scripts into files that the hooks run (command = "./scripts/check.sh")',
  };
}

/**
 * The first string in parsed config `data` longer than {@link MAX_CONFIG_STRING_BYTES}, as an issue
 * naming its key (`hooks[3].command`) and line; undefined when there is none.
 */
export function longStringIssue(file: string, data: unknown, lines: SourceLines): ConfigIssue | undefined {
  const found = findLongString(data, '');
  if (found === undefined) return undefined;
  const hook = /^hooks\[(\d+)\]\.([^.[]+)/.exec(found.path);
  const line = hook !== null ? lines.hookKey(Number(hook[1]), hook[2]!) : lines.topLevel(found.path.split(/[.[]/)[0]!);
  return {
    file,
    ...(line === undefined ? {} : { line }),
    message: `${found.path} is ${formatBytes(found.bytes)}, more than the ${formatBytes(MAX_CONFIG_STRING_BYTES)} a string in a config may have`,
    fix: 'move it into a file that the hook runs or reads (command = "./scripts/check.sh", script file = "…")',
  };
}

function findLongString(value: unknown, path: string): { readonly path: string; readonly bytes: number } | undefined {
  if (typeof value === 'string') {
    // As above: the length is a lower bound of the size; count only when it may be over.
    if (value.length * 3 <= MAX_CONFIG_STRING_BYTES) return undefined;
    const bytes = utf8Bytes(value);
    return bytes > MAX_CONFIG_STRING_BYTES ? { path: path === '' ? 'the config' : path, bytes } : undefined;
  }
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findLongString(item, `${path}[${index}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const found = findLongString(item, path === '' ? key : `${path}.${key}`);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** The issue of a merged configuration with more than {@link MAX_HOOKS} hooks, named by its last file. */
export function tooManyHooksIssue(file: string, count: number): ConfigIssue {
  return {
    file,
    message: `the configuration has ${count} hooks, more than the ${MAX_HOOKS} a configuration may have`,
    fix: 'remove hooks, or give a hook a matcher and let it handle many cases (one hook per event and node is rarely needed)',
  };
}

// UTF-8 size without encoding the text: 1 byte up to U+007F, 2 up to U+07FF, 3 above, 4 for a pair.
function utf8Bytes(text: string): number {
  let bytes = text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code >= 0xd800 && code <= 0xdbff) {
      bytes += 2;
      index++;
    } else if (code > 0x7ff) bytes += 2;
    else if (code > 0x7f) bytes += 1;
  }
  return bytes;
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(bytes % (1024 * 1024) === 0 ? 0 : 1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(bytes % 1024 === 0 ? 0 : 1)} KiB`;
  return `${bytes} bytes`;
}
