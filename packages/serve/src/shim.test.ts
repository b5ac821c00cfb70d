import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startDaemon, type Daemon } from './daemon.ts';
import { writeShim } from './install-shim.ts';
import { jsonLog } from './json-log.ts';
import type { HookAnswer, ServeBackend } from './serve-backend.ts';
import { servePaths, type ServePaths } from './serve-paths.ts';

// The shim as an agent runs it: a real bash process, the payload on stdin, talking to a real daemon
// over TCP — and, when the daemon cannot answer, to its fallback, a real process given the same payload.

const BASH = '/bin/bash';
let root: string;
let paths: ServePaths;
let daemon: Daemon | undefined;
let hang = false;
let releaseHung: Array<() => void> = [];

// The daemon's side: answers as a bridge would, blocking `rm -rf`, or never (hang).
const backend: ServeBackend = {
  profileOf: () => '',
  configCandidates: () => [],
  projectConfigFiles: () => [],
  load: async () => ({
    answer: (route, payload): Promise<HookAnswer> =>
      hang
        ? new Promise((resolve) => releaseHung.push(() => resolve({ exitCode: 0, stdout: '{}', stderr: '' })))
        : Promise.resolve({
            exitCode: JSON.stringify(payload).includes('rm -rf') ? 2 : 0,
            stdout: `${JSON.stringify({ from: 'daemon', route, payload })}\n`,
            stderr: 'daemon says hi',
          }),
    close: async () => undefined,
  }),
  refuse: (_route, _payload, reason) => ({ exitCode: 2, stdout: '', stderr: reason }),
};

beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'hookline-shim-')));
  paths = servePaths({ HOME: root, XDG_STATE_HOME: join(root, 'state'), XDG_RUNTIME_DIR: join(root, 'run') });
  hang = false;
});

afterEach(async () => {
  for (const release of releaseHung) release();
  releaseHung = [];
  await daemon?.stop('test over');
  daemon = undefined;
  rmSync(root, { recursive: true, force: true });
});

const start = async () =>
  (daemon = await startDaemon({ backend, paths, log: jsonLog({ write: () => undefined }), version: 'test' }));

// The fallback stands in for `hookline bridge`: it keeps the payload it got and refuses.
const shim = (timeoutSeconds = 30) =>
  writeShim(paths, {
    agent: 'claude',
    bash: BASH,
    fallbackCommand: `/bin/sh -c 'cat > "$0"; echo {\\"from\\":\\"fallback\\"}; exit 2' '${join(root, 'fallback-payload')}'`,
    timeoutSeconds,
  });

function runShim(file: string, input: string, args: readonly string[] = []) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

const payload = (command: string) =>
  JSON.stringify({
    hook_event_name: 'PreToolUse',
    cwd: root,
    tool_name: 'Bash',
    tool_input: { command, note: 'quotes " \' %s %d \\ and ünïcode ✓' },
  });

describe('the shim', () => {
  it("prints the daemon's answer — stdout, stderr, exit code — with the payload passed intact", async () => {
    await start();
    const file = shim();
    const blocked = await runShim(file, payload('rm -rf /'), ['PreToolUse']);
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toBe('daemon says hi');
    const answer = JSON.parse(blocked.stdout);
    expect(answer).toMatchObject({ from: 'daemon', route: { kind: 'bridge', agent: 'claude', event: 'PreToolUse' } });
    expect(answer.payload).toEqual(JSON.parse(payload('rm -rf /')));
    const allowed = await runShim(file, payload('ls'));
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout).route).toEqual({ kind: 'bridge', agent: 'claude', event: '' });
  });

  it("an entry naming its event with --event (Copilot's) names it to the daemon and to the fallback", async () => {
    const file = writeShim(paths, {
      agent: 'copilot',
      bash: BASH,
      fallbackCommand: `/bin/sh -c 'cat >/dev/null; echo "{\\"args\\":\\"$*\\"}"; exit 0' fallback`,
      timeoutSeconds: 30,
    });
    const fallback = await runShim(file, payload('ls'), ['--event', 'preToolUse']);
    expect(JSON.parse(fallback.stdout)).toEqual({ args: '--event preToolUse' });
    expect(JSON.parse((await runShim(file, payload('ls'))).stdout)).toEqual({ args: '' });
    await start();
    const answered = await runShim(file, payload('ls'), ['--event', 'preToolUse']);
    expect(JSON.parse(answered.stdout).route).toEqual({ kind: 'bridge', agent: 'copilot', event: 'preToolUse' });
  });

  it('carries a large payload whole', async () => {
    await start();
    const big = payload(`echo ${'x'.repeat(200_000)}`);
    const answer = await runShim(shim(), big);
    expect(answer.code).toBe(0);
    expect(JSON.parse(answer.stdout).payload).toEqual(JSON.parse(big));
  });

  it('falls back, with the same payload, when no daemon runs', async () => {
    const answer = await runShim(shim(), payload('rm -rf /'));
    expect(answer.code).toBe(2);
    expect(JSON.parse(answer.stdout)).toEqual({ from: 'fallback' });
    expect(readFileSync(join(root, 'fallback-payload'), 'utf8')).toBe(`${payload('rm -rf /')}\n`);
  });

  it("falls back when a killed daemon's port file is left behind and nothing listens there", async () => {
    // A port that was free a moment ago, as a killed daemon's would be.
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    const file = shim();
    writeFileSync(paths.portFile, `${port}\n`);
    writeFileSync(paths.tokenFile, `${'a'.repeat(64)}\n`);
    const answer = await runShim(file, payload('ls'));
    expect(answer.code).toBe(2);
    expect(JSON.parse(answer.stdout)).toEqual({ from: 'fallback' });
  });

  it('falls back when the daemon does not answer in time', async () => {
    await start();
    hang = true;
    const answer = await runShim(shim(1), payload('ls'));
    expect(answer.code).toBe(2);
    expect(JSON.parse(answer.stdout)).toEqual({ from: 'fallback' });
  });
});
