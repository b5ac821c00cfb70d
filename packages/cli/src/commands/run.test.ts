import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { isRunning } from '../../test-support/processes.ts';
import { finished, makeScratch, runCli, startCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

interface OutcomeLine {
  event?: string;
  decision?: string;
  reason?: string;
  hooks?: Array<{ name: string; status: string }>;
  line?: number;
  error?: { code: string; message: string };
}

test('streams 1 000 events in order, one outcome line each, with the right decisions', async () => {
  // Every tenth stage_start runs a real hook, which blocks with its node id as the reason.
  scratch.write(
    'hookline.toml',
    '[[hooks]]\nname = "tenth"\nevent = "stage_start"\nmatcher = "0$"\ncommand = \'\'\'printf \'{"decision":"block","reason":"%s"}\' "$ARC_NODE_ID"\'\'\'\n',
  );
  const events = Array.from({ length: 1_000 }, (_, index) => ({
    event: index % 2 === 0 ? 'stage_start' : 'stage_complete',
    run_id: `r${Math.floor(index / 100)}`,
    workflow_name: 'bulk',
    node_id: `n${index}`,
  }));
  const result = await runCli(['run'], {
    cwd: scratch.path,
    input: `${events.map((event) => JSON.stringify(event)).join('\n')}\n`,
  });
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const lines = result.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as OutcomeLine);
  expect(lines).toHaveLength(1_000);
  lines.forEach((outcome, index) => {
    const blocks = index % 2 === 0 && index % 10 === 0;
    expect(outcome.event).toBe(events[index]!.event);
    expect(outcome.decision).toBe(blocks ? 'block' : 'proceed');
    if (blocks) expect(outcome.reason).toBe(`n${index}`);
  });
}, 120_000);

test('a line that cannot be emitted gets an error line in its place; the rest go on; exit 1', async () => {
  scratch.write('hookline.toml', '[[hooks]]\nevent = "run_start"\ncommand = "true"\n');
  const input = [
    '{"event":"run_start","run_id":"r1","workflow_name":"w"}',
    'not json',
    '',
    '{"run_id":"r1"}',
    '{"event":"run_strat","run_id":"r1","workflow_name":"w"}',
    '{"event":"run_start","workflow_name":"w"}',
    '{"event":"run_start","run_id":"r2","workflow_name":"w"}',
  ].join('\n');
  const result = await runCli(['run'], { cwd: scratch.path, input });
  expect(result.code).toBe(1);
  const lines = result.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as OutcomeLine);
  expect(lines).toHaveLength(6);
  expect(lines[0]).toMatchObject({ event: 'run_start', decision: 'proceed' });
  expect(lines[1]).toMatchObject({
    line: 2,
    error: { code: 'HOOKLINE_CLI_BAD_INPUT', message: expect.stringContaining('not JSON') },
  });
  expect(lines[2]).toMatchObject({
    line: 4,
    error: { code: 'HOOKLINE_CLI_BAD_INPUT', message: expect.stringContaining('no "event"') },
  });
  expect(lines[3]).toMatchObject({
    line: 5,
    event: 'run_strat',
    error: { code: 'HOOKLINE_UNKNOWN_EVENT', message: expect.stringContaining('Did you mean "run_start"?') },
  });
  expect(lines[4]).toMatchObject({
    line: 6,
    error: { code: 'HOOKLINE_INVALID_CONTEXT', message: expect.stringContaining('"run_id"') },
  });
  expect(lines[5]).toMatchObject({ event: 'run_start', decision: 'proceed' });
});

test('at end of input, non-blocking hooks still running are waited for before the CLI exits', async () => {
  scratch.write('hookline.toml', '[[hooks]]\nevent = "run_complete"\ncommand = "sleep 0.5; touch notified"\n');
  const result = await runCli(['run'], {
    cwd: scratch.path,
    input: '{"event":"run_complete","run_id":"r1","workflow_name":"w"}\n',
  });
  expect(result.code).toBe(0);
  // The line went out as soon as the decision was known: the hook was still running then.
  expect(JSON.parse(result.stdout)).toMatchObject({ decision: 'proceed', hooks: [{ status: 'pending' }] });
  expect(existsSync(join(scratch.path, 'notified'))).toBe(true);
  const settled = await runCli(['run', '--settled'], {
    cwd: scratch.path,
    input: '{"event":"run_complete","run_id":"r2","workflow_name":"w"}\n',
  });
  expect(JSON.parse(settled.stdout)).toMatchObject({ hooks: [{ status: 'ok' }] });
});

test('a non-blocking hook that fails after its line went out is reported on stderr, naming the line', async () => {
  scratch.write(
    'hookline.toml',
    '[[hooks]]\nname = "flaky"\nevent = "run_complete"\ncommand = "sleep 0.2; exit 3"\ntimeout_ms = 100\n',
  );
  const input = [
    '{"event":"run_start","run_id":"r1","workflow_name":"w"}',
    '{"event":"run_complete","run_id":"r1","workflow_name":"w"}',
  ].join('\n');
  const result = await runCli(['run'], { cwd: scratch.path, input });
  expect(result.code).toBe(0);
  expect(result.stderr).toContain(
    'hookline: warning: line 2 (run_complete): non-blocking hook "flaky" timed out: hook timed out after 100 ms',
  );
});

test('SIGTERM during a long hook: the hook is aborted, its processes killed, the CLI exits 143', async () => {
  scratch.write(
    'hookline.toml',
    '[[hooks]]\nname = "long"\nevent = "stage_start"\ncommand = "echo $$ > hook.pid; sleep 60 & echo $! > sleep.pid; wait"\n',
  );
  const child = startCli(['run'], { cwd: scratch.path });
  const done = finished(child);
  child.stdin!.write('{"event":"stage_start","run_id":"r1","workflow_name":"w","node_id":"build"}\n');
  const pidFile = join(scratch.path, 'sleep.pid');
  for (let waited = 0; !(existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== ''); waited += 50) {
    if (waited > 20_000) throw new Error('the hook never started');
    await delay(50);
  }
  const pids = ['hook.pid', 'sleep.pid'].map((file) => Number(readFileSync(join(scratch.path, file), 'utf8').trim()));
  expect(pids.every((pid) => isRunning(pid))).toBe(true);
  child.kill('SIGTERM');
  const result = await done;
  expect(result.code).toBe(143);
  // The event in flight is still answered: its hook was cut off, which shows as a failure.
  expect(JSON.parse(result.stdout)).toMatchObject({
    event: 'stage_start',
    hooks: [{ name: 'long', status: 'failed' }],
  });
  // Nothing of the hook survives the CLI (reaping by init may lag a moment).
  for (let waited = 0; pids.some((pid) => isRunning(pid)) && waited < 5_000; waited += 50) await delay(50);
  expect(pids.filter((pid) => isRunning(pid))).toEqual([]);
}, 60_000);

// A plugin whose sandbox provider notes each session it opens and disposes, with its key, and whose
// `probe` hooks run in that sandbox (doing nothing else): what `hookline run` does with sessions shows.
const RECORDER = `import { appendFileSync } from 'node:fs';
const note = (line) => appendFileSync('sessions.log', line + '\\n');
export function recorderSandbox() {
  return {
    sandboxProviderInterfaceVersion: 'v1',
    name: 'recorder',
    async doOpen(key) {
      note('open ' + key);
      const refuse = async () => { throw new Error('the recorder runs nothing'); };
      return { runId: key, provider: 'recorder', exec: refuse, writeFile: refuse, removeFile: async () => {}, dispose: async () => note('dispose ' + key) };
    },
  };
}
export function probeRunner() {
  return {
    runnerInterfaceVersion: 'v2',
    name: 'probe',
    types: {
      probe: {
        options: { kind: 'schema', type: 'object', entries: {} },
        defaultTimeoutMs: 1000,
        defaultOnError: 'proceed',
        usesSandbox: true,
        async doRun() { return { status: 'ok', decision: { decision: 'proceed' } }; },
      },
    },
  };
}
`;

test('agent sessions are keyed by session_id and end after session_stop; the rest end at exit', async () => {
  scratch.write(
    'node_modules/hookline-recorder/package.json',
    JSON.stringify({ name: 'hookline-recorder', type: 'module', exports: './index.js' }),
  );
  scratch.write('node_modules/hookline-recorder/index.js', RECORDER);
  scratch.write(
    'hookline.toml',
    'preset = "agent"\nplugins = ["hookline-recorder"]\n\n[sandbox]\nprovider = "recorder"\n\n[[hooks]]\nevent = "pre_tool_use"\ntype = "probe"\nsandbox = true\n\n[[hooks]]\nevent = "session_stop"\ntype = "probe"\nsandbox = true\n',
  );
  const log = (): string[] =>
    existsSync(join(scratch.path, 'sessions.log'))
      ? readFileSync(join(scratch.path, 'sessions.log'), 'utf8').split('\n').filter(Boolean)
      : [];
  const child = startCli(['run', '--settled'], { cwd: scratch.path });
  const done = finished(child);
  const send = (event: Record<string, unknown>): boolean => child.stdin!.write(`${JSON.stringify(event)}\n`);
  send({ event: 'pre_tool_use', session_id: 's1', tool_name: 'Bash' });
  send({ event: 'pre_tool_use', session_id: 's2', tool_name: 'Bash' });
  send({ event: 'session_stop', session_id: 's1' });
  // s1 is over: its session ends while the CLI still reads input; s2's stays open.
  for (let waited = 0; !log().includes('dispose s1'); waited += 50) {
    if (waited > 20_000) throw new Error(`s1's session never ended: ${log().join(', ')}`);
    await delay(50);
  }
  expect(log()).toEqual(['open s1', 'open s2', 'dispose s1']);
  child.stdin!.end();
  const result = await done;
  expect(result.code).toBe(0);
  expect(
    result.stdout
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as OutcomeLine).hooks?.[0]?.status),
  ).toEqual(['ok', 'ok', 'ok']);
  expect(log()).toEqual(['open s1', 'open s2', 'dispose s1', 'dispose s2']);
});
