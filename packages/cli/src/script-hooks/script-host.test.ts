// The resident script host, with real processes: the built CLI, the host it starts, and what
// happens when the host is missing, stale, foreign, killed, or its folder is not private.
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, symlinkSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { basename, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { isRunning, waitFor } from '../../test-support/processes.ts';
import { finished, makeScratch, runCli, startCli, type RunOptions, type Scratch } from '../../test-support/run-cli.ts';
import { cpuTicks, hostFilesIn, hostPid, recordStarts, stopHosts, type Start } from '../../test-support/script-host.ts';

let scratch: Scratch;
let hosts: string;
let recorder: ReturnType<typeof recordStarts>;
const extraPids: number[] = [];
const servers: Server[] = [];

const CONFIG = `[[hooks]]\nname = "freeze"\nevent = "stage_start"\ntype = "script"\nscript = "if (context.node_id === 'deploy') return { decision: 'block', reason: 'frozen' }"\n`;

beforeEach(() => {
  scratch = makeScratch();
  hosts = join(scratch.path, 'hosts');
  recorder = recordStarts(scratch);
  scratch.write('hookline.toml', CONFIG);
});
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
  stopHosts(hosts, extraPids.splice(0));
  scratch.cleanup();
});

function options(env: Record<string, string> = {}, input?: string): RunOptions {
  return {
    cwd: scratch.path,
    nodeOptions: recorder.nodeOptions,
    env: { HOOKLINE_SCRIPT_HOST_DIR: hosts, ...env },
    ...(input === undefined ? {} : { input }),
  };
}

async function emit(node: string, env: Record<string, string> = {}) {
  const result = await runCli(['emit', 'stage_start', '--set', `node_id=${node}`, '--json'], options(env));
  return {
    ...result,
    outcome:
      result.stdout === ''
        ? undefined
        : (JSON.parse(result.stdout) as { decision: string; hooks: Array<Record<string, unknown>> }),
  };
}

const isHost = (start: Start): boolean => start.script.endsWith('script-host.js');
const isRestart = (start: Start): boolean => !isHost(start) && start.execArgv.includes('--no-node-snapshot');

describe('the script host', () => {
  test('the first emit starts a host in its own session; the second reuses it and starts no Node', async () => {
    const first = await emit('deploy');
    expect(first.stderr).toBe('');
    expect(first.code).toBe(2);
    expect(first.outcome).toMatchObject({
      decision: 'block',
      hooks: [{ name: 'freeze', type: 'script', status: 'ok', decision: { decision: 'block', reason: 'frozen' } }],
    });
    const pid = hostPid(hosts);
    expect(pid).toBeDefined();
    expect(isRunning(pid!)).toBe(true);
    const started = recorder.starts();
    // The CLI itself, then the host it started with the flag — and no restarted CLI.
    expect(started.filter(isRestart)).toEqual([]);
    expect(started.filter(isHost).map((start) => start.pid)).toEqual([pid]);
    expect(started.find(isHost)?.execArgv).toContain('--no-node-snapshot');
    // Detached: the host leads a session of its own, so a signal to the CLI's group never reaches it.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    expect(Number(fields[3])).toBe(pid);

    recorder.clear();
    const second = await emit('build');
    expect(second.code).toBe(0);
    expect(second.outcome).toMatchObject({ decision: 'proceed', hooks: [{ status: 'ok' }] });
    expect(hostPid(hosts)).toBe(pid);
    const again = recorder.starts();
    expect(again).toHaveLength(1);
    expect(again[0]!.execArgv).not.toContain('--no-node-snapshot');
    expect(isHost(again[0]!)).toBe(false);
  });

  test('stdin reaches the hook through the host, and the exit code is kept', async () => {
    const result = await runCli(
      ['emit', 'stage_start', '--context', '-', '--json'],
      options({}, '{"node_id":"deploy"}'),
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(2);
    expect(JSON.parse(result.stdout)).toMatchObject({ decision: 'block', reason: 'frozen' });
    expect(recorder.starts().filter(isRestart)).toEqual([]);
  });

  test('the host exits after its idle period and removes its socket and pid file', async () => {
    const result = await emit('build', { HOOKLINE_SCRIPT_HOST_IDLE_MS: '200' });
    expect(result.code).toBe(0);
    const pid = recorder.starts().find(isHost)?.pid;
    expect(pid).toBeDefined();
    await waitFor('the idle host to exit', () => !isRunning(pid!));
    expect(hostFilesIn(hosts, '.sock')).toEqual([]);
    expect(hostFilesIn(hosts, '.pid')).toEqual([]);
  });

  test('HOOKLINE_SCRIPT_HOST=off restarts the CLI with --no-node-snapshot, as before, and starts no host', async () => {
    const result = await emit('deploy', { HOOKLINE_SCRIPT_HOST: 'off' });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(2);
    expect(result.outcome).toMatchObject({ decision: 'block', reason: 'frozen' });
    const started = recorder.starts();
    expect(started.filter(isRestart)).toHaveLength(1);
    expect(started.filter(isHost)).toEqual([]);
    expect(existsSync(hosts)).toBe(false);
  });

  test('a command hook never reaches for the host', async () => {
    scratch.write('hookline.toml', '[[hooks]]\nevent = "stage_start"\ncommand = "true"\n');
    const result = await emit('build');
    expect(result.code).toBe(0);
    expect(existsSync(hosts)).toBe(false);
    expect(recorder.starts()).toHaveLength(1);
  });

  test('script errors, limits and their messages are the same as in the CLI process itself', async () => {
    scratch.write('policy.js', 'const a = 1;\nthrow new RangeError("from a file " + a)');
    scratch.write(
      'hookline.toml',
      [
        '[[hooks]]\nname = "throws"\nevent = "stage_start"\ntype = "script"\nscript = "const x = 1;\\nif (x) throw new TypeError(\'no deploys\')"\non_error = "proceed"\n',
        '[[hooks]]\nname = "file"\nevent = "stage_start"\ntype = "script"\nfile = "policy.js"\non_error = "proceed"\n',
        '[[hooks]]\nname = "missing-file"\nevent = "stage_start"\ntype = "script"\nfile = "nowhere.js"\non_error = "proceed"\n',
        '[[hooks]]\nname = "memory"\nevent = "stage_start"\ntype = "script"\nscript = "const keep = []; for (;;) keep.push(new Array(100000).fill(keep.length))"\nmemory_limit_mb = 8\non_error = "proceed"\ntimeout_ms = 20000\n',
        '[[hooks]]\nname = "loop"\nevent = "stage_start"\ntype = "script"\nscript = "for (;;) {}"\ntimeout_ms = 300\non_error = "proceed"\n',
        '[[hooks]]\nname = "bad-answer"\nevent = "stage_start"\ntype = "script"\nscript = "return 42"\non_error = "proceed"\n',
        '[[hooks]]\nname = "frozen"\nevent = "stage_start"\ntype = "script"\nscript = "context.node_id = 1"\n',
      ].join('\n'),
    );
    const strip = (outcome: { hooks: Array<Record<string, unknown>> } | undefined) =>
      outcome?.hooks.map(({ duration_ms: _duration, ...rest }) => rest);
    const viaHost = await emit('build');
    const inProcess = await emit('build', { HOOKLINE_SCRIPT_HOST: 'off' });
    expect(recorder.starts().filter(isRestart)).toHaveLength(1);
    expect(viaHost.code).toBe(inProcess.code);
    expect(viaHost.code).toBe(2);
    expect(strip(viaHost.outcome)).toEqual(strip(inProcess.outcome));
    const byName = Object.fromEntries((viaHost.outcome?.hooks ?? []).map((hook) => [hook['name'], hook]));
    expect(byName.throws).toMatchObject({
      status: 'failed',
      error: 'script threw TypeError: no deploys (line 2, column 14 of the script)',
    });
    expect(String(byName.file?.error)).toContain(`${join(scratch.path, 'policy.js')}:2`);
    expect(String(byName['missing-file']?.error)).toContain(
      `script file ${join(scratch.path, 'nowhere.js')} does not exist`,
    );
    expect(String(byName.memory?.error)).toMatch(/^script ran out of memory: its isolate passed the 8 MiB limit/);
    expect(byName.loop).toMatchObject({ status: 'timed_out' });
    expect(String(byName['bad-answer']?.error)).toBe(
      'script returned a number (42), expected a decision object, true, false or nothing',
    );
    expect(byName.frozen).toMatchObject({ status: 'failed', decision: { decision: 'block' } });
  });

  test('scripts see the time zone of the CLI that sent them: a host serves one environment, another gets its own', async () => {
    scratch.write(
      'hookline.toml',
      '[[hooks]]\nname = "zone"\nevent = "stage_start"\ntype = "script"\nscript = "return { decision: \'block\', reason: String(new Date(0).getTimezoneOffset()) }"\n',
    );
    const kolkata = await emit('build', { TZ: 'Asia/Kolkata' });
    expect(kolkata.outcome).toMatchObject({ decision: 'block', reason: '-330' });
    const utc = await emit('build', { TZ: 'UTC' });
    expect(utc.outcome).toMatchObject({ decision: 'block', reason: '0' });
    expect(hostFilesIn(hosts, '.sock')).toHaveLength(2);
    expect(recorder.starts().filter(isHost)).toHaveLength(2);
    expect(recorder.starts().filter(isRestart)).toEqual([]);
  });

  test('a syntax error is a load error with the file and line, and no host is started for it', async () => {
    scratch.write('hookline.toml', '[[hooks]]\nevent = "stage_start"\ntype = "script"\nscript = "return {"\n');
    const result = await emit('build');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/hookline\.toml:4: .*syntax error in `script`/);
    expect(existsSync(hosts)).toBe(false);
    expect(recorder.starts()).toHaveLength(1);
  });
});

describe('faults', () => {
  /** Warms a host, then starts an emit whose hook loops in it; resolves once the host's CPU time shows the loop running. */
  async function spinInHost() {
    scratch.write(
      'hookline.toml',
      '[[hooks]]\nname = "spin"\nevent = "stage_start"\ntype = "script"\nscript = "if (context.node_id === \'spin\') for (;;) {}"\ntimeout_ms = 120000\n',
    );
    expect((await emit('warm')).code).toBe(0);
    const pid = hostPid(hosts)!;
    const before = cpuTicks(pid);
    const cli = startCli(['emit', 'stage_start', '--set', 'node_id=spin', '--json'], options());
    cli.stdin!.end();
    const result = finished(cli);
    await waitFor('the hook to run in the host', () => cpuTicks(pid) > before + 50);
    return { pid, cli, result };
  }

  /** Starts a host and kills it (SIGKILL: it cannot clean up), leaving its socket file behind; returns its path. */
  async function killedHostSocket(): Promise<string> {
    expect((await emit('build')).code).toBe(0);
    const socket = hostFilesIn(hosts, '.sock')[0]!;
    const pid = hostPid(hosts)!;
    stopHosts(hosts);
    await waitFor('the host to die', () => !isRunning(pid));
    return socket;
  }

  test('a host killed while a hook runs fails that hook by its on_error, and the next emit starts a new host over the stale socket', async () => {
    const { pid, result } = await spinInHost();
    process.kill(pid, 'SIGKILL');
    const ended = await result;
    expect(ended.code).toBe(2);
    const outcome = JSON.parse(ended.stdout) as { decision: string; hooks: Array<Record<string, unknown>> };
    expect(outcome.decision).toBe('block');
    expect(outcome.hooks[0]).toMatchObject({ status: 'failed', decision: { decision: 'block' } });
    expect(String(outcome.hooks[0]!['error'])).toContain(`the script host (pid ${pid}) ended while this hook ran`);

    // The dead host left its socket file: the next emit finds nothing answering there and starts another.
    expect(hostFilesIn(hosts, '.sock')).toHaveLength(1);
    recorder.clear();
    const next = await emit('build');
    expect(next.stderr).toBe('');
    expect(next.code).toBe(0);
    const newPid = hostPid(hosts);
    expect(newPid).not.toBe(pid);
    expect(isRunning(newPid!)).toBe(true);
    expect(recorder.starts().filter(isRestart)).toEqual([]);
  });

  test('a CLI killed while its hook runs stops that hook in the host, which keeps serving', async () => {
    const { pid, cli, result } = await spinInHost();
    cli.kill('SIGKILL');
    await result;
    // The loop is stopped (its isolate disposed): the host's CPU time stops climbing.
    let last = cpuTicks(pid);
    await waitFor(
      'the loop to stop',
      () => {
        const now = cpuTicks(pid);
        const still = now === last;
        last = now;
        return still;
      },
      30_000,
      1_000,
    );
    const next = await emit('build');
    expect(next.code).toBe(0);
    expect(next.outcome).toMatchObject({ decision: 'proceed', hooks: [{ status: 'ok' }] });
    expect(hostPid(hosts)).toBe(pid);
  });

  test('hookline run keeps one connection; when its host dies between events, the next event gets a new host', async () => {
    const run = startCli(['run'], options());
    let out = '';
    run.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const lines = () =>
      out
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { decision: string; hooks: Array<Record<string, unknown>> });
    const send = (node: string) =>
      run.stdin!.write(
        `${JSON.stringify({ event: 'stage_start', run_id: 'r1', workflow_name: 'w', node_id: node })}\n`,
      );
    send('deploy');
    await waitFor('the first answer', () => lines().length === 1);
    const pid = hostPid(hosts)!;
    process.kill(pid, 'SIGKILL');
    // The run notices the loss and starts a new host before the next event asks for one.
    await waitFor('a new host', () => hostPid(hosts) !== pid && isRunning(hostPid(hosts) ?? pid));
    send('deploy');
    await waitFor('the second answer', () => lines().length === 2);
    run.stdin!.end();
    await new Promise((resolve) => run.once('close', resolve));
    expect(lines().map((line) => [line.decision, line.hooks[0]?.['status']])).toEqual([
      ['block', 'ok'],
      ['block', 'ok'],
    ]);
    const newPid = hostPid(hosts);
    expect(newPid).not.toBe(pid);
    expect(recorder.starts().filter(isHost)).toHaveLength(2);
    expect(recorder.starts().filter(isRestart)).toEqual([]);
  });

  test('a socket file nobody listens on is replaced by a new host', async () => {
    const socket = await killedHostSocket();
    expect(existsSync(socket)).toBe(true);
    recorder.clear();
    const result = await emit('deploy');
    expect(result.stderr).toBe('');
    expect(result.code).toBe(2);
    expect(recorder.starts().filter(isHost)).toHaveLength(1);
    expect(isRunning(hostPid(hosts)!)).toBe(true);
  });

  test('something of another build answering on the socket is never sent a hook: the CLI restarts itself instead', async () => {
    const socket = await killedHostSocket();
    const received: string[] = [];
    const foreign = createServer((connection) => {
      connection.setEncoding('utf8').on('data', (chunk: string) => {
        received.push(chunk);
        connection.write(`${JSON.stringify({ t: 'hello', protocol: 1, key: 'another-build', pid: process.pid })}\n`);
      });
    });
    servers.push(foreign);
    unlinkSync(socket);
    await new Promise<void>((resolve) => foreign.listen(socket, resolve));
    recorder.clear();
    const result = await emit('deploy');
    expect(result.code).toBe(2);
    expect(result.outcome).toMatchObject({ decision: 'block', reason: 'frozen' });
    expect(result.stderr).toContain('serves another build');
    expect(recorder.starts().filter(isRestart)).toHaveLength(1);
    expect(received.join('')).not.toContain('"run"');
    expect(received.join('')).toContain(basename(socket).replace(/^script-|\.sock$/g, ''));
  });

  test('a host that answers a hook with a malformed message fails the hook by its on_error, never approving it', async () => {
    const socket = await killedHostSocket();
    const key = basename(socket).replace(/^script-|\.sock$/g, '');
    const broken = createServer((connection) => {
      connection.setEncoding('utf8').on('data', (chunk: string) => {
        if (chunk.includes('"hello"'))
          connection.write(`${JSON.stringify({ t: 'hello', protocol: 1, key, pid: process.pid })}\n`);
        if (chunk.includes('"run"')) connection.write('{"t":"result","id":1,"result":{"status":"maybe"}}\n');
      });
    });
    servers.push(broken);
    unlinkSync(socket);
    await new Promise<void>((resolve) => broken.listen(socket, resolve));
    const result = await emit('build');
    expect(result.code).toBe(2);
    expect(result.outcome?.decision).toBe('block');
    expect(result.outcome?.hooks[0]).toMatchObject({ status: 'failed', decision: { decision: 'block' } });
    expect(String(result.outcome?.hooks[0]?.['error'])).toMatch(
      /^the script host \(pid \d+\) ended while this hook ran \(it sent a malformed message: /,
    );
  });

  test('a host folder open to others, owned by someone else or a symlink is refused with what to do; the hook still runs', async () => {
    mkdirSync(hosts, { mode: 0o755 });
    chmodSync(hosts, 0o755);
    const open = await emit('deploy');
    expect(open.code).toBe(2);
    expect(open.outcome).toMatchObject({ decision: 'block' });
    expect(open.stderr).toContain(`${hosts} is open to other users (mode 755); run \`chmod 700 ${hosts}\``);
    expect(hostFilesIn(hosts, '.sock')).toEqual([]);
    expect(recorder.starts().filter(isRestart)).toHaveLength(1);

    chmodSync(hosts, 0o700);
    chownSync(hosts, 65534, 65534);
    const foreignOwner = await emit('build');
    expect(foreignOwner.code).toBe(0);
    expect(foreignOwner.stderr).toContain('belongs to uid 65534');
    expect(hostFilesIn(hosts, '.sock')).toEqual([]);

    const real = join(scratch.path, 'real-hosts');
    mkdirSync(real, { mode: 0o700 });
    const link = join(scratch.path, 'linked-hosts');
    symlinkSync(real, link);
    const linked = await emit('build', { HOOKLINE_SCRIPT_HOST_DIR: link });
    expect(linked.code).toBe(0);
    expect(linked.stderr).toContain('is a symbolic link');
    expect(hostFilesIn(real, '.sock')).toEqual([]);
  });

  test('concurrent first emits leave one host serving', async () => {
    const results = await Promise.all(['a', 'b', 'c'].map((node) => emit(node)));
    for (const result of results) {
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    }
    const pid = hostPid(hosts)!;
    const started = recorder.starts().filter(isHost);
    extraPids.push(...started.map((start) => start.pid));
    expect(started.map((start) => start.pid)).toContain(pid);
    // Hosts that lost the race for the socket exit at once; only the winner keeps running.
    await waitFor('the other hosts to exit', () =>
      started.every((start) => start.pid === pid || !isRunning(start.pid)),
    );
    expect(isRunning(pid)).toBe(true);
  });

  test('malformed messages get a clear error from the host', async () => {
    expect((await emit('build')).code).toBe(0);
    const socket = hostFilesIn(hosts, '.sock')[0]!;
    const key = basename(socket).replace(/^script-|\.sock$/g, '');
    const talk = (lines: string[]) =>
      new Promise<string[]>((resolve, reject) => {
        const client = connect(socket);
        let text = '';
        client.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        client.on('error', reject);
        client.on('close', () => resolve(text.trim().split('\n').filter(Boolean)));
        client.on('connect', () => {
          client.write(lines.join('\n') + '\n');
          setTimeout(() => client.end(), 500);
        });
      });
    const garbage = await talk(['not json']);
    expect(JSON.parse(garbage[0]!)).toMatchObject({
      t: 'error',
      message: expect.stringMatching(/^malformed message to the script host: not JSON/),
    });
    const noHello = await talk(['{"t":"run","id":1}']);
    expect(JSON.parse(noHello[0]!).message).toContain('the first message must be `hello`');
    const badRun = await talk([JSON.stringify({ t: 'hello', protocol: 1, key }), '{"t":"run","id":7,"preset":"arc"}']);
    expect(JSON.parse(badRun[0]!)).toMatchObject({ t: 'hello', key });
    expect(JSON.parse(badRun[1]!)).toMatchObject({
      t: 'error',
      id: 7,
      message: 'malformed message to the script host: `run` needs `contextJson`, a string',
    });
    // The host survives all of it.
    expect((await emit('deploy')).code).toBe(2);
  });
});
