// The session's own behaviour, below the CLI: how a stop reaches the hook, and what a hook's end ends.
import { chownSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { bubblewrapProblem, reportBubblewrapProblem } from '../test-support/bubblewrap-probe.ts';
import { bubblewrapSandbox } from './bubblewrap-sandbox.ts';

const problem = bubblewrapProblem();
reportBubblewrapProblem(problem, 'bubblewrap-session.test.ts');

let work: string;
beforeEach(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'hookline-bwrap-test-')));
  // As root, hooks run as nobody on the host too: the folder is theirs to write, as a user gives one.
  if (process.getuid?.() === 0) chownSync(work, 65534, 65534);
});
afterEach(() => rmSync(work, { recursive: true, force: true }));

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

describe.skipIf(problem !== undefined)('a bubblewrap session', () => {
  test('a stop sends SIGTERM to the hook first, and it may clean up within the grace', async () => {
    const session = await bubblewrapSandbox({ killGraceMs: 5_000 }).doOpen('stop', new AbortController().signal);
    const stop = new AbortController();
    const exec = session.exec({
      command: "trap 'echo cleaned > cleaned.txt; exit 0' TERM; echo ready > ready.txt; while :; do sleep 0.1; done",
      cwd: work,
      signal: stop.signal,
    });
    await waitFor(() => readable(join(work, 'ready.txt')));
    stop.abort(new Error('stopped by the test'));
    const result = await exec;
    expect(result.aborted).toBe(true);
    expect(readFileSync(join(work, 'cleaned.txt'), 'utf8')).toBe('cleaned\n');
    await session.dispose();
  });

  test('a hook that ignores SIGTERM is killed with its whole sandbox after the grace', async () => {
    const session = await bubblewrapSandbox({ killGraceMs: 300 }).doOpen('kill', new AbortController().signal);
    const stop = new AbortController();
    const exec = session.exec({
      command: "trap '' TERM; echo ready > ready.txt; while :; do sleep 0.1; done",
      cwd: work,
      signal: stop.signal,
    });
    await waitFor(() => readable(join(work, 'ready.txt')));
    stop.abort(new Error('stopped by the test'));
    const result = await exec;
    expect(result).toMatchObject({ aborted: true, signal: 'SIGKILL' });
    await session.dispose();
  });

  test('the hook holds no capability, not even in its bounding set', async () => {
    const session = await bubblewrapSandbox().doOpen('caps', new AbortController().signal);
    const result = await session.exec({ command: "grep -E '^Cap(Inh|Prm|Eff|Bnd|Amb):' /proc/self/status", cwd: work });
    expect(result.exitCode, text(result.stderr)).toBe(0);
    const lines = text(result.stdout).trim().split('\n');
    expect(lines).toHaveLength(5);
    for (const line of lines) expect(line).toMatch(/^Cap\w+:\s+0{16}$/);
    await session.dispose();
  });

  test('stdin, exit code, output cap and the context file as every session has them', async () => {
    const session = await bubblewrapSandbox().doOpen('io', new AbortController().signal);
    const file = await session.writeFile({ name: 'context-test.json', data: '{"event":"x"}' });
    expect(file).toBe('/tmp/context-test.json');
    const result = await session.exec({
      command: `cat; stat -c '%a %u' "$CONTEXT"; cat "$CONTEXT"; head -c 5000 /dev/zero; exit 3`,
      cwd: work,
      env: { CONTEXT: file },
      stdin: 'from stdin\n',
      maxOutputBytes: 64,
    });
    expect(result.exitCode).toBe(3);
    expect(text(result.stdout)).toMatch(/^from stdin\n600 65534\n\{"event":"x"\}/);
    expect(result.stdoutTruncated).toBe(true);
    await session.removeFile(file);
    await session.dispose();
  });
});

function readable(path: string): boolean {
  try {
    return readFileSync(path, 'utf8').endsWith('\n');
  } catch {
    return false;
  }
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition(); waited += 20) {
    if (waited > 20_000) throw new Error('timed out waiting for the hook');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
