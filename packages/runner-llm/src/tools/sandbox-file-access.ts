import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import type { ExecResult, SandboxSession } from '@hookline/core/plugin';
import { messageOf } from '@hookline/core/plugin';
import { isInside, missing, refusal } from './confine-path.ts';
import type { FileAccess, ToolRefusal } from './file-access.ts';
import { notRegular } from './open-regular-file.ts';
import { runSearch } from './run-search.ts';
import { SANDBOX_FILE_SCRIPT } from './sandbox-file-script.ts';
import { SEARCH_LIMITS, type ListedFile } from './search-job.ts';

/** Bytes of file content one `grep` reads through the sandbox at most; beyond, the search says it stopped. */
export const SANDBOX_GREP_BYTES = 32 * 1_048_576;

/** What a sandbox session needs to carry out the file tools: its exec, the hook's cwd and deadline. */
export interface SandboxFileScope {
  readonly session: SandboxSession;
  /** The context's `cwd`, passed to every exec as the shell tool passes it (the provider maps it). */
  readonly cwd: string | undefined;
  readonly signal: AbortSignal;
}

/**
 * The working directory as the sandbox sees it: `pwd -P` run in the session with the hook's `cwd`,
 * so the file tools are rooted where the sandboxed shell starts.
 */
export async function sandboxWorkingDirectory(
  scope: SandboxFileScope,
): Promise<{ readonly ok: true; readonly path: string } | ToolRefusal> {
  const where =
    scope.cwd === undefined ? 'the default working directory' : `the context's cwd ${JSON.stringify(scope.cwd)}`;
  try {
    const result = await exec(scope, ['sh', '-c', 'pwd -P'], 65_536);
    const path = new TextDecoder().decode(result.stdout).replace(/\n$/, '');
    if (result.exitCode !== 0 || !path.startsWith('/'))
      return {
        ok: false,
        error: `${where} cannot be used in the ${scope.session.provider} sandbox: ${describeFailure(result)}`,
      };
    return { ok: true, path };
  } catch (error) {
    return {
      ok: false,
      error: `${where} cannot be used in the ${scope.session.provider} sandbox: ${messageOf(error)}`,
    };
  }
}

/**
 * The file tools carried out inside a sandbox session: each call is one exec of
 * {@link SANDBOX_FILE_SCRIPT}, which resolves and checks the path as the sandbox sees it (so a
 * read-only mount refuses a write, and a read sees the container's file). `root` comes from
 * {@link sandboxWorkingDirectory}. Matching (`grep`'s regular expression, `glob`'s pattern) still
 * runs in a worker thread on the host, over the names and contents the sandbox sent back.
 */
export function sandboxFileAccess(scope: SandboxFileScope, root: string): FileAccess {
  const where = scope.session.provider;
  const toolFailed = (action: string, shown: string, result: ExecResult): ToolRefusal => {
    const refused = refusalOf(result, shown, root);
    return (
      refused ?? {
        ok: false,
        error: `cannot ${action} ${JSON.stringify(shown)} in the ${where} sandbox: ${describeFailure(result)}`,
      }
    );
  };
  const run = async (
    args: readonly string[],
    maxOutputBytes: number,
    stdin?: string,
  ): Promise<ExecResult | ToolRefusal> => {
    try {
      return await exec(scope, ['sh', '-c', SANDBOX_FILE_SCRIPT, 'hookline-files', ...args], maxOutputBytes, stdin);
    } catch (error) {
      return { ok: false, error: `the ${where} sandbox could not run the file tool: ${messageOf(error)}` };
    }
  };

  return {
    where,
    root,
    async read(requested, maxBytes) {
      const target = lexicalPath(root, requested);
      if (!target.ok) return target;
      const result = await run(['read', root, target.path, String(maxBytes)], maxBytes + 64);
      if (!isExecResult(result)) return result;
      if (result.exitCode !== 0) return toolFailed('read', target.shown, result);
      const newline = result.stdout.indexOf(0x0a);
      const size = Number(new TextDecoder().decode(result.stdout.subarray(0, newline)));
      const content = result.stdout.subarray(newline + 1);
      return {
        ok: true,
        text: new TextDecoder().decode(content),
        size: Number.isFinite(size) ? size : content.length,
        bytesRead: content.length,
      };
    },
    async write(requested, content) {
      const target = lexicalPath(root, requested);
      if (!target.ok) return target;
      const result = await run(['write', root, target.path], 65_536, content);
      if (!isExecResult(result)) return result;
      return result.exitCode === 0 ? { ok: true, shown: target.shown } : toolFailed('write', target.shown, result);
    },
    async search(request, signal) {
      const start = lexicalPath(root, request.path ?? '.');
      if (!start.ok) return start;
      const nonce = randomBytes(16).toString('hex');
      const mode = request.kind === 'grep' ? 'dump' : 'list';
      const outputBytes = request.kind === 'grep' ? SANDBOX_GREP_BYTES : 16 * 1_048_576;
      const result = await run(
        [mode, root, start.path, nonce, String(SEARCH_LIMITS.maxEntries), String(SEARCH_LIMITS.maxFileBytes + 1)],
        outputBytes,
      );
      if (!isExecResult(result)) return result;
      if (result.exitCode !== 0) return toolFailed('search', start.shown, result);
      const listing = parseListing(result.stdout, nonce, mode === 'dump', result.stdoutTruncated);
      const { kind, pattern, include, ignoreCase } = request;
      const search = await runSearch(
        {
          kind,
          files: listing.files,
          pattern,
          ...(include === undefined ? {} : { include }),
          ...(ignoreCase === undefined ? {} : { ignoreCase }),
        },
        signal,
      );
      if (!search.ok) return search;
      const stoppedAtBytes = result.stdoutTruncated ? outputBytes : undefined;
      return {
        ok: true,
        result: {
          ...search.result,
          stoppedEarly: search.result.stoppedEarly || listing.stopped,
          ...(stoppedAtBytes === undefined ? {} : { stoppedAtBytes }),
        },
      };
    },
  };
}

function exec(
  scope: SandboxFileScope,
  command: readonly string[],
  maxOutputBytes: number,
  stdin?: string,
): Promise<ExecResult> {
  return scope.session.exec({
    command,
    ...(scope.cwd === undefined ? {} : { cwd: scope.cwd }),
    ...(stdin === undefined ? {} : { stdin }),
    signal: scope.signal,
    maxOutputBytes,
  });
}

function isExecResult(value: ExecResult | ToolRefusal): value is ExecResult {
  return !('ok' in value);
}

/**
 * The model's path made absolute against `root` and normalised, refused when it climbs out — the
 * lexical half of the confinement; the script checks the physical path inside the sandbox.
 */
function lexicalPath(
  root: string,
  requested: unknown,
): { readonly ok: true; readonly path: string; readonly shown: string } | ToolRefusal {
  if (typeof requested !== 'string' || requested === '') return { ok: false, error: 'path must be a non-empty string' };
  if (requested.includes('\0')) return { ok: false, error: 'path must not contain a NUL character' };
  const path = posix.resolve(root, requested);
  if (!isInside(root, path)) return refusal(requested, root);
  return { ok: true, path, shown: posix.relative(root, path) || '.' };
}

/** The script's own refusals (exit status 3, one word on stderr), phrased as the host's tools phrase them. */
function refusalOf(result: ExecResult, shown: string, root: string): ToolRefusal | undefined {
  if (result.exitCode !== 3) return undefined;
  const word = new TextDecoder().decode(result.stderr).trim().split('\n').at(-1) ?? '';
  if (word === 'outside-link') return refusal(shown, root, true);
  if (word === 'missing') return missing(shown);
  if (word.startsWith('kind:')) return notRegular(shown, word.slice('kind:'.length));
  return undefined;
}

/** The exit and the last lines of stderr, without the shell's `hookline-files: line N:` prefix. */
function describeFailure(result: ExecResult): string {
  const stderr = new TextDecoder()
    .decode(result.stderr)
    .trim()
    .split('\n')
    .slice(-3)
    .join('; ')
    .replace(/hookline-files: (line \d+: )?/g, '');
  const status = result.exitCode === null ? `killed by ${result.signal ?? 'a signal'}` : `exit code ${result.exitCode}`;
  return stderr === '' ? status : `${stderr} (${status})`;
}

/**
 * Splits the script's `\0NONCE\0name\0content` records; an empty name marks a walk that stopped at
 * its limit. When the output was cut, its last record is dropped: its content may be partial.
 */
function parseListing(
  output: Uint8Array,
  nonce: string,
  withContent: boolean,
  truncated: boolean,
): { readonly files: ListedFile[]; readonly stopped: boolean } {
  const buffer = Buffer.from(output.buffer, output.byteOffset, output.byteLength);
  const marker = Buffer.from(`\0${nonce}\0`);
  const files: ListedFile[] = [];
  let stopped = false;
  for (let at = buffer.indexOf(marker); at !== -1;) {
    const nameStart = at + marker.length;
    const nameEnd = buffer.indexOf(0, nameStart);
    if (nameEnd === -1) break;
    const next = buffer.indexOf(marker, nameEnd + 1);
    const name = buffer.subarray(nameStart, nameEnd).toString('utf8');
    if (name === '') stopped = true;
    else
      files.push(
        withContent
          ? { relative: name, data: new Uint8Array(buffer.subarray(nameEnd + 1, next === -1 ? buffer.length : next)) }
          : { relative: name },
      );
    at = next;
  }
  if (truncated) files.pop();
  files.sort((a, b) => (a.relative < b.relative ? -1 : a.relative > b.relative ? 1 : 0));
  return { files, stopped };
}
