// What a sandboxed hook must never have, tried from inside a real sandbox: privileged operations, a view
// of the host's processes, a way out to the network (loopback included). The capability sets themselves
// are read in bubblewrap-session.test.ts.
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { SandboxSession } from '@hookline/core/plugin';
import { bubblewrapProblem, reportBubblewrapProblem } from '../test-support/bubblewrap-probe.ts';
import { bubblewrapSandbox } from './bubblewrap-sandbox.ts';

const problem = bubblewrapProblem();
reportBubblewrapProblem(problem, 'isolation.test.ts');

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

let work: string;
let session: SandboxSession;
beforeEach(async () => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'hookline-bwrap-isolation-')));
  // As root, hooks run as nobody on the host too: the folder is theirs, as a user gives one.
  if (process.getuid?.() === 0) chownSync(work, 65534, 65534);
  if (problem === undefined) session = await bubblewrapSandbox().doOpen('isolation', new AbortController().signal);
});
afterEach(async () => {
  if (problem === undefined) await session.dispose();
  rmSync(work, { recursive: true, force: true });
});

async function run(command: string): Promise<{ readonly code: number | null; readonly out: string }> {
  const result = await session.exec({ command: `{ ${command}; } 2>&1`, cwd: work });
  return { code: result.exitCode, out: text(result.stdout) };
}

describe.skipIf(problem !== undefined)('inside a bubblewrap sandbox', () => {
  test('privileged operations fail: mounting, changing a file owner, raising limits, a new user namespace', async () => {
    const attempts = [
      'mount -t tmpfs none /tmp',
      'touch mine && chown 0:0 mine',
      'ulimit -H -n 999999999',
      'unshare --user true',
    ];
    for (const attempt of attempts) {
      const { code, out } = await run(attempt);
      expect({ attempt, code }, out).not.toEqual({ attempt, code: 0 });
    }
  });

  describe('with a host process running beside it', () => {
    let neighbour: ChildProcess;
    const mark = `hookline-neighbour-${process.pid}`;
    beforeAll(() => {
      // exec -a gives the process a name no sandbox process has, so a sighting cannot be mistaken.
      neighbour = spawn('bash', ['-c', `exec -a ${mark} sleep 300`], { stdio: 'ignore' });
    });
    afterAll(() => {
      neighbour.kill('SIGKILL');
    });

    test("no host process is visible: /proc lists only the sandbox's processes, and a host pid cannot be signalled", async () => {
      const { out } = await run(
        `for status in /proc/[0-9]*/cmdline; do tr '\\0' ' ' < "$status"; echo; done; echo "pids: $(ls -d /proc/[0-9]* | wc -l)"`,
      );
      expect(out).not.toContain(mark);
      const pids = Number(/pids: (\d+)/.exec(out)?.[1]);
      // bwrap's init, the shell and its children: a handful, never the host's hundreds.
      expect(pids).toBeGreaterThan(0);
      expect(pids).toBeLessThan(10);
      expect(neighbour.pid).toBeDefined();
      const { code } = await run(`kill -0 ${neighbour.pid}`);
      expect(code).not.toBe(0);
    });
  });

  describe('with a server listening on the host loopback', () => {
    let server: Server;
    let port: number;
    beforeAll(async () => {
      server = createServer((socket) => socket.end('reached\n'));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      port = typeof address === 'object' && address !== null ? address.port : 0;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    test('the network is out of reach, loopback included, and only a down loopback exists', async () => {
      const dial = await run(`bash -c 'exec 3<>/dev/tcp/127.0.0.1/${port} && cat <&3'`);
      expect(dial.out).not.toContain('reached');
      expect(dial.code).not.toBe(0);
      const { out } = await run(`ls /sys/class/net 2>/dev/null || cat /proc/net/dev`);
      expect(out).toContain('lo');
      expect(out).not.toMatch(/\beth|\bens|\bdocker|\bveth/);
    });
  });
});
