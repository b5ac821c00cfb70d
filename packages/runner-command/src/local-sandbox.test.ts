// What the local sandbox contains — the environment and the process group — and, honestly, what it
// does not: a process that leaves its group with setsid.
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { localSandbox } from './local-sandbox.ts';
import { baseContext, quote, runOne, startEngine } from '../test-support/hook-harness.ts';
import { isRunning, processEntry, runningGroupMembers, waitFor } from '../test-support/processes.ts';
import { useScratchDirectory } from '../test-support/scratch.ts';

const scratch = useScratchDirectory();

describe('the environment', () => {
  // Credentials under the names a deny-list missed, and ones it caught, and an ordinary variable.
  const secrets = {
    AWS_SECRET_ACCESS_KEY: 'aws-planted',
    STRIPE_SECRET_KEY: 'sk_live_planted',
    PGPASSWORD: 'pg-planted',
    MYSQL_PWD: 'my-planted',
    DATABASE_URL: 'postgres://u:planted@db/x',
    GOOGLE_APPLICATION_CREDENTIALS: '/keys/planted.json',
    SSH_AUTH_SOCK: '/run/planted.sock',
    SECRET: 'bare-planted',
    TOKEN: 'bare-planted',
    API_KEY: 'bare-planted',
    DOCKER_AUTH_CONFIG: '{"auths":"planted"}',
    FOO_API_KEY: 'sk-planted',
    GITHUB_TOKEN: 'ghp-planted',
    db_password: 'hunter2',
    KEEP_ME: 'not-on-the-list',
  };
  const planted = { ...secrets, LC_TIME: 'C', TZ: 'UTC', SHARED_CACHE: '/var/cache/shared' };
  beforeEach(() => Object.assign(process.env, planted));
  afterEach(() => {
    for (const name of Object.keys(planted)) delete process.env[name];
  });

  test('the local sandbox passes only the allow-listed host variables', async () => {
    const record = join(scratch(), 'env');
    const report = await runOne({ command: `env > ${quote(record)}` }, { placement: 'local' });
    expect(report.status).toBe('ok');
    const seen = readFileSync(record, 'utf8');
    expect(seen).not.toContain('planted');
    for (const name of Object.keys(secrets)) expect(seen).not.toMatch(new RegExp(`^${name}=`, 'm'));
    expect(seen).toContain(`PATH=${process.env['PATH']}\n`);
    expect(seen).toContain('LC_TIME=C\n');
    expect(seen).toContain('TZ=UTC\n');
  });

  test('env_passthrough adds the named host variables, and only those', async () => {
    const record = join(scratch(), 'env');
    const report = await runOne(
      { command: `env > ${quote(record)}`, env_passthrough: ['SHARED_CACHE', 'PGPASSWORD', 'NOT_SET_ANYWHERE'] },
      { placement: 'local' },
    );
    expect(report.status).toBe('ok');
    const seen = readFileSync(record, 'utf8');
    expect(seen).toContain('SHARED_CACHE=/var/cache/shared\n');
    expect(seen).toContain('PGPASSWORD=pg-planted\n');
    expect(seen).not.toContain('NOT_SET_ANYWHERE');
    expect(seen).not.toContain('aws-planted');
  });

  test('sandbox = false hands the host environment over whole', async () => {
    const record = join(scratch(), 'env');
    await runOne({ command: `env > ${quote(record)}` }, { placement: 'host' });
    const seen = readFileSync(record, 'utf8');
    expect(seen).toContain('FOO_API_KEY=sk-planted\n');
    expect(seen).toContain('GITHUB_TOKEN=ghp-planted\n');
    expect(seen).toContain('db_password=hunter2\n');
  });

  test('the preset’s variables reach sandboxed hooks', async () => {
    const record = join(scratch(), 'env');
    await runOne({ command: `env > ${quote(record)}` }, { placement: 'local' });
    expect(readFileSync(record, 'utf8')).toContain('ARC_RUN_ID=test-run\n');
  });
});

describe('the session', () => {
  test('every hook leads a process group and session of its own, not the host’s', async () => {
    const record = join(scratch(), 'ids');
    // Fields 5 and 6 of /proc/<pid>/stat are the process group and session ids.
    await runOne({ command: `echo $$ $(cut -d' ' -f5,6 /proc/$$/stat) > ${quote(record)}` }, { placement: 'local' });
    const [pid, groupId, sessionId] = readFileSync(record, 'utf8').trim().split(' ').map(Number);
    expect(groupId).toBe(pid);
    expect(sessionId).toBe(pid);
    expect(groupId).not.toBe(processEntry(process.pid)?.groupId);
  });

  test('context files live in a private 0700 directory that is removed with the session', async () => {
    const record = join(scratch(), 'path');
    const engine = startEngine(
      [
        {
          command: `echo "$ARC_HOOK_CONTEXT" > ${quote(record)}; stat -c %a "$(dirname "$ARC_HOOK_CONTEXT")" >> ${quote(record)}`,
        },
      ],
      { placement: 'local' },
    );
    const outcome = await engine.emit('stage_start', baseContext);
    expect(outcome.hooks[0]?.status).toBe('ok');
    const [path, directoryMode] = readFileSync(record, 'utf8').trim().split('\n');
    expect(directoryMode).toBe('700');
    expect(existsSync(path!)).toBe(false);
    expect(statSync(dirname(path!)).isDirectory()).toBe(true);
    await engine.endRun('test-run');
    expect(existsSync(dirname(path!))).toBe(false);
    await engine.close();
  });

  test('ending the run ends a hook that is still running in its session', async () => {
    const pidFile = join(scratch(), 'pid');
    const engine = startEngine(
      [{ command: `echo $$ > ${quote(pidFile)}; sleep 300`, blocking: false, timeout_ms: 60_000 }],
      { placement: 'local' },
    );
    const outcome = await engine.emit('stage_start', baseContext);
    expect(await waitFor(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), 5_000)).toBe(true);
    await engine.endRun('test-run');
    const settled = await outcome.settled;
    expect(settled.hooks[0]?.status).toBe('failed');
    expect(settled.hooks[0]?.error).toContain('the hook was stopped');
    const groupId = Number(readFileSync(pidFile, 'utf8'));
    expect(runningGroupMembers(groupId)).toHaveLength(0);
    await engine.close();
  });

  test('a provider does no I/O until a run opens a session, and refuses once the engine closed', async () => {
    const provider = localSandbox();
    const closed = new AbortController();
    closed.abort(new Error('engine closed'));
    await expect(provider.doOpen('late-run', closed.signal)).rejects.toThrow('engine closed');
    const session = await provider.doOpen('a-run', new AbortController().signal);
    expect(session.runId).toBe('a-run');
    expect(session.provider).toBe('local');
    const result = await session.exec({ command: ['sh', '-c', 'printf "%s" "$1"', 'sh', 'argv works'] });
    expect(new TextDecoder().decode(result.stdout)).toBe('argv works');
    await session.dispose();
    await expect(session.exec({ command: 'true' })).rejects.toThrow('disposed');
  });
});

describe('what the local sandbox does not contain', () => {
  // Documented limitation: the local sandbox ends the hook's process group. A process that calls
  // setsid() starts a new session and group and is out of reach; only the docker sandbox (a
  // container per run, removed with the run) contains it.
  test('a setsid escapee survives the timeout that ends the hook’s own group', async () => {
    const escapee = join(scratch(), 'escapee');
    const leader = join(scratch(), 'leader');
    const command = `echo $$ > ${quote(leader)}; setsid sh -c 'echo $$ > "$1"; exec sleep 60' sh ${quote(escapee)} </dev/null >/dev/null 2>&1 & sleep 300`;
    const engine = startEngine([{ command, timeout_ms: 500 }], { placement: 'local' });
    let escapedPid: number | undefined;
    try {
      const outcome = await engine.emit('stage_start', baseContext);
      expect(outcome.hooks[0]?.status).toBe('timed_out');
      expect(await waitFor(() => existsSync(escapee) && readFileSync(escapee, 'utf8').endsWith('\n'), 5_000)).toBe(
        true,
      );
      escapedPid = Number(readFileSync(escapee, 'utf8'));
      await engine.close();
      const groupId = Number(readFileSync(leader, 'utf8'));
      expect(runningGroupMembers(groupId)).toHaveLength(0);
      // The limitation itself: the escapee lives on, in a group of its own.
      expect(isRunning(escapedPid)).toBe(true);
      expect(processEntry(escapedPid)?.groupId).toBe(escapedPid);
    } finally {
      await engine.close();
      if (escapedPid !== undefined && isRunning(escapedPid)) process.kill(escapedPid, 'SIGKILL');
    }
  });
});

describe('a long-lived session', () => {
  test('a private directory removed from under the session is made again', async () => {
    const session = await localSandbox({ temporaryDirectory: scratch() }).doOpen(
      'long-run',
      new AbortController().signal,
    );
    try {
      const first = await session.writeFile({ name: 'one.json', data: '{}' });
      rmSync(dirname(first), { recursive: true, force: true });
      const second = await session.writeFile({ name: 'two.json', data: '{"a":1}' });
      expect(dirname(second)).not.toBe(dirname(first));
      expect(readFileSync(second, 'utf8')).toBe('{"a":1}');
      expect(statSync(second).mode & 0o777).toBe(0o600);
      const result = await session.exec({ command: 'cat "$F"', env: { F: second } });
      expect(new TextDecoder().decode(result.stdout)).toBe('{"a":1}');
      await session.removeFile(second);
      expect(existsSync(second)).toBe(false);
    } finally {
      await session.dispose();
    }
  });
});
