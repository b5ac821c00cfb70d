// `hookline serve` against the costs it replaces, each figure from one run (interleaved rounds where
// two things are compared, so the machine's load hits both alike), printed with the load average:
//   - a Claude Code `type: "http"`-style POST (a new connection per call, as a hook call makes) to the
//     daemon, one script hook (the isolate pool: no process started): median and p99 per call,
//     targets ≤ 1 ms and ≤ 3 ms;
//   - the shim (bash, /dev/tcp) → daemon, per call, against spawning /bin/true: target ≤ 3×;
//   - a command hook (`true`) through the daemon against spawning `sh -c true` directly: ≤ 1.2×; and
//     the CPU time per command hook of the daemon and of its helper processes (the resident spawner);
//     the comparison once more after the memory soak below, when the daemon holds more memory;
//   - 64 concurrent clients (keep-alive) for a bounded number of calls: throughput (target ≥ 10 000
//     calls/s), errors (0), p99 (≤ 10 ms);
//   - the daemon's memory, which must stay flat: its floors (the least of a few samples, each after a
//     full collection: test-support/heap-probe.ts, loaded into the daemon) after the warm-up, after the
//     rows above, and after a soak of MEMORY_CALLS more calls of every kind.
//
//   pnpm -F @hookline/cli bench:serve       (build first: pnpm -F @hookline/cli... build)
//   CALLS=2000 CONCURRENT_CALLS=50000 MEMORY_CALLS=1000000 pnpm -F @hookline/cli bench:serve
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { Agent, request } from 'node:http';
import { stripTypeScriptTypes } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { measureInterleaved, quantile } from '../../../scripts/bench-stats.ts';
import { processCpuMs } from '../../../scripts/process-cpu.ts';
import { rawHttpLoad } from './raw-http-clients.ts';
import { writeShim, servePaths } from '@hookline/serve';

const CALLS = Number(process.env['CALLS'] ?? 1000);
const SPAWN_ROUNDS = Number(process.env['RUNS'] ?? 100);
const CONCURRENT_CALLS = Number(process.env['CONCURRENT_CALLS'] ?? 30_000);
const MEMORY_CALLS = Number(process.env['MEMORY_CALLS'] ?? 200_000);
const CLIENTS = 64;
// Loaded into the daemon: on SIGUSR2 it collects garbage and prints its memory floors on stderr.
// Handed over as JavaScript: a .ts module would load Node's type stripper into the daemon, ~18 MiB
// more resident memory, which alone makes every process the daemon spawns slower to fork.
const PROBE_SOURCE = fileURLToPath(new URL('../test-support/heap-probe.ts', import.meta.url));
const HEAP_PROBE_MARKER = 'heap-probe:';

const cli = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
if (!existsSync(cli)) {
  console.error('build the CLI first: pnpm -F @hookline/cli... build');
  process.exit(1);
}

// A user of its own in a scratch folder: home, config, state and runtime folders, two projects.
const scratch = realpathSync(mkdtempSync(join(tmpdir(), 'hookline-serve-bench-')));
const env = {
  ...process.env,
  HOME: join(scratch, 'home'),
  XDG_CONFIG_HOME: join(scratch, 'home', '.config'),
  XDG_STATE_HOME: join(scratch, 'home', '.local', 'state'),
  XDG_RUNTIME_DIR: join(scratch, 'run'),
};
mkdirSync(env.XDG_RUNTIME_DIR, { recursive: true, mode: 0o700 });
const scriptProject = join(scratch, 'script-project');
const commandProject = join(scratch, 'command-project');
const memoryProject = join(scratch, 'memory-project');
// Claude Code's calls through the bridge's code: the agent preset, with a guard for another tool, so
// the whole path (payload read, event mapped, hooks selected, answer written) runs and no process starts.
const claudeProject = join(scratch, 'claude-project');
const projects = [
  [scriptProject, 'type = "script"\nscript = "return true"', ''],
  [commandProject, 'command = "true"', ''],
  [memoryProject, 'type = "memory"', 'plugins = ["hookline-runner-memory"]\n'],
  [claudeProject, '', ''],
] as const;
for (const [dir, hook, plugins] of projects) {
  mkdirSync(dir, { recursive: true });
  if (dir === claudeProject) {
    const guard = `preset = "agent"\n\n[[hooks]]\nname = "writes"\nevent = "pre_tool_use"\ntool_name = "file_write"\naction = { type = "shell", command = "true" }\n`;
    writeFileSync(join(dir, 'hookline.toml'), guard);
    continue;
  }
  const text = `${plugins}[[hooks]]\nname = "bench"\nevent = "stage_start"\n${hook}\ntimeout_ms = 60000\n`;
  writeFileSync(join(dir, 'hookline.toml'), text);
}
// An in-memory hook type: a third-party runner (installed as a user would) whose hooks answer at once
// in the daemon's own process — what the daemon itself costs around one hook.
const modules = join(scratch, 'node_modules');
const memoryRunner = join(modules, 'hookline-runner-memory');
mkdirSync(join(modules, '@hookline'), { recursive: true });
mkdirSync(memoryRunner, { recursive: true });
symlinkSync(fileURLToPath(new URL('../../core', import.meta.url)), join(modules, '@hookline', 'core'));
symlinkSync(realpathSync(fileURLToPath(new URL('../node_modules/valibot', import.meta.url))), join(modules, 'valibot'));
writeFileSync(
  join(memoryRunner, 'package.json'),
  '{"name":"hookline-runner-memory","type":"module","exports":"./index.js"}\n',
);
writeFileSync(
  join(memoryRunner, 'index.js'),
  `import { defineRunner } from '@hookline/core/plugin';
import * as v from 'valibot';
export default () => defineRunner({ name: 'hookline-runner-memory', types: { memory: {
  options: v.object({}), defaultTimeoutMs: 1000, usesSandbox: false,
  doRun: () => ({ status: 'ok', decision: { decision: 'proceed' } }),
} } });
`,
);

const run = (args: readonly string[], cwd: string) =>
  new Promise<number>((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env, stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code ?? 1));
  });
for (const [dir] of projects) await run(['trust'], dir);
const probe = join(scratch, 'heap-probe.mjs');
writeFileSync(probe, stripTypeScriptTypes(readFileSync(PROBE_SOURCE, 'utf8')));
const daemon = spawn(process.execPath, ['--no-node-snapshot', '--expose-gc', '--import', probe, cli, 'serve'], {
  cwd: scratch,
  env,
  stdio: ['ignore', 'ignore', 'pipe'],
});
let probed: ((line: string) => void) | undefined;
let daemonErrors = '';
daemon.stderr.setEncoding('utf8').on('data', (chunk: string) => {
  for (const line of chunk.split('\n')) {
    if (line.startsWith(HEAP_PROBE_MARKER)) probed?.(line.slice(HEAP_PROBE_MARKER.length));
    else if (line !== '') daemonErrors += `${line}\n`;
  }
});
const paths = servePaths(env);
while (!existsSync(paths.portFile)) await new Promise((resolve) => setTimeout(resolve, 50));
const port = Number(readFileSync(paths.portFile, 'utf8'));
const token = readFileSync(paths.tokenFile, 'utf8').trim();

const context = (cwd: string) => JSON.stringify({ cwd, run_id: 'r1', workflow_name: 'bench', node_id: 'build' });
const scriptBody = context(scriptProject);
const commandBody = context(commandProject);
const memoryBody = context(memoryProject);
const claudeBody = JSON.stringify({
  session_id: 's-1',
  transcript_path: join(scratch, 'transcript.jsonl'),
  cwd: claudeProject,
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
});

/** One POST; resolves to its time in ms. `agent`: keep-alive pool, or a fresh connection (false). */
function post(path: string, body: string, agent: Agent | false): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path,
        agent,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      },
      (response) => {
        response.resume();
        response.on('end', () =>
          response.statusCode === 200 && response.headers['hookline-exit-code'] === '0'
            ? resolve(performance.now() - started)
            : reject(
                new Error(`status ${response.statusCode}, exit ${String(response.headers['hookline-exit-code'])}`),
              ),
        );
      },
    );
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const spawnTime = (file: string, args: readonly string[], input?: string) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(file, args, { stdio: [input === undefined ? 'ignore' : 'pipe', 'ignore', 'ignore'] });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${file} exited ${code}`))));
    child.stdin?.end(input);
  });

/**
 * CPU time (user + system, ms) of `pid` itself and of each of its running children (the resident
 * spawner), from /proc; a process's own times leave out the children it reaped (the hooks).
 */
function cpuTimes(pid: number): { own: number; helpers: Map<number, number> } {
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
  const helpers = new Map<number, number>();
  for (const child of children.map(Number)) {
    const ms = processCpuMs(child);
    // 0: it ended in between (a hook's process, not a helper), and is left out.
    if (ms > 0) helpers.set(child, ms);
  }
  return { own: processCpuMs(pid), helpers };
}

/** The daemon's memory floors in MiB: the heap's live objects, and its resident set, after full collections. */
const memory = () =>
  new Promise<{ heap: number; rss: number }>((resolve) => {
    probed = (line) => {
      const { heapUsed, rss } = JSON.parse(line) as { heapUsed: number; rss: number };
      resolve({ heap: heapUsed / 2 ** 20, rss: rss / 2 ** 20 });
    };
    daemon.kill('SIGUSR2');
  });
const mib = (figures: { heap: number; rss: number }) =>
  `heap ${figures.heap.toFixed(1)} MiB, rss ${figures.rss.toFixed(1)} MiB`;

const fmt = (ms: number) => `${ms.toFixed(3)} ms`;
const median = (values: readonly number[]) => quantile(values, 0.5);
try {
  // Warm both projects' configs (loaded on first call) and the isolate pool.
  for (let index = 0; index < 50; index++) {
    await post('/emit/stage_start', scriptBody, false);
    await post('/emit/stage_start', commandBody, false);
    await post('/emit/stage_start', memoryBody, false);
    await post('/hooks/claude/PreToolUse', claudeBody, false);
  }
  const before = await memory();

  // 1. Claude Code http hook → daemon, one in-memory hook, then one script hook.
  for (const [what, path, body] of [
    ['one in-memory hook', '/emit/stage_start', memoryBody],
    ['one script hook', '/emit/stage_start', scriptBody],
    ['a Claude Code PreToolUse through the bridge code, no hook selected', '/hooks/claude/PreToolUse', claudeBody],
  ] as const) {
    const times: number[] = [];
    for (let index = 0; index < CALLS; index++) times.push(await post(path, body, false));
    console.log(`http POST → daemon, ${what} (${CALLS} calls, a connection each):`);
    console.log(`  median ${fmt(median(times))} (target ≤ 1 ms), p99 ${fmt(quantile(times, 0.99))} (target ≤ 3 ms)`);
  }

  // 2. The shim against a bare spawn.
  // The fallback fails the run: every shim call timed went through the daemon.
  const shim = writeShim(paths, { agent: 'claude', bash: '/bin/bash', fallbackCommand: '/bin/false' });
  const shimInput = claudeBody;
  const spawned = await measureInterleaved(
    [
      { name: 'true', run: () => spawnTime('/bin/true', []) },
      { name: 'shim', run: () => spawnTime(shim, ['PreToolUse'], shimInput) },
      { name: 'direct', run: () => spawnTime('/bin/sh', ['-c', 'true']) },
      { name: 'command-hook', run: () => post('/emit/stage_start', commandBody, false).then(() => undefined) },
    ],
    { rounds: SPAWN_ROUNDS, warmup: 5 },
  );
  const m = (name: string) => median(spawned.get(name)!);
  console.log(
    `shim (bash, /dev/tcp) → daemon, a Claude Code PreToolUse, vs /bin/true (${SPAWN_ROUNDS} interleaved rounds):`,
  );
  console.log(
    `  shim ${fmt(m('shim'))}, /bin/true ${fmt(m('true'))}: ${(m('shim') / m('true')).toFixed(2)}× (target ≤ 3×)`,
  );
  console.log('command hook `true` through the daemon (http) vs `sh -c true` spawned directly:');
  console.log(
    `  daemon ${fmt(m('command-hook'))}, direct ${fmt(m('direct'))}: ${(m('command-hook') / m('direct')).toFixed(2)}× (target ≤ 1.2×)`,
  );

  // What a command hook costs the daemon's process itself, and the helpers it runs them from (the
  // resident spawner), in CPU time read from /proc: unlike the latencies above, hardly moved by
  // what else runs on the machine. The hooks' own processes are not counted.
  if (existsSync(`/proc/${daemon.pid}/stat`)) {
    const before = cpuTimes(daemon.pid!);
    for (let index = 0; index < CALLS; index++) await post('/emit/stage_start', commandBody, false);
    const after = cpuTimes(daemon.pid!);
    const helpers = [...after.helpers].map(([pid, ms]) => ms - (before.helpers.get(pid) ?? 0));
    console.log(`command hook \`true\`, CPU time per call (${CALLS} calls, /proc):`);
    console.log(
      `  daemon ${fmt((after.own - before.own) / CALLS)}, its helper processes ${fmt(helpers.reduce((sum, ms) => sum + ms, 0) / CALLS)}`,
    );
  }

  // 3. 64 concurrent clients, keep-alive, a bounded number of calls.
  for (const [what, body, calls] of [
    ['in-memory', memoryBody, CONCURRENT_CALLS],
    ['script', scriptBody, Math.ceil(CONCURRENT_CALLS / 10)],
  ] as const) {
    const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
    const all: number[] = [];
    let errors = 0;
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < calls) {
          next += 1;
          try {
            all.push(await post('/emit/stage_start', body, agent));
          } catch {
            errors += 1;
          }
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    agent.destroy();
    console.log(`${CLIENTS} concurrent clients, ${calls} calls, one ${what} hook (keep-alive):`);
    const rate = Math.round(all.length / seconds);
    console.log(
      `  ${rate} calls/s (target ≥ 10000), ${errors} errors (target 0), p99 ${fmt(quantile(all, 0.99))} (target ≤ 10 ms), median ${fmt(median(all))}`,
    );
  }
  // The same load from a lighter generator (bare sockets, prepared requests): Node's http client
  // costs about what the daemon does per call, and the two share the cores.
  const raw = await rawHttpLoad({
    port,
    token,
    path: '/emit/stage_start',
    body: memoryBody,
    calls: CONCURRENT_CALLS,
    clients: CLIENTS,
  });
  console.log(
    `${CLIENTS} concurrent clients, ${CONCURRENT_CALLS} calls, one in-memory hook (keep-alive, bare sockets as the load generator):`,
  );
  console.log(
    `  ${Math.round(raw.times.length / raw.seconds)} calls/s (target ≥ 10000), ${raw.errors} errors (target 0), p99 ${fmt(quantile(raw.times, 0.99))} (target ≤ 10 ms), median ${fmt(median(raw.times))}`,
  );
  // The latency rows, the shim and command-hook contenders (warm-up rounds too) and the 64-client rows.
  const timed = 3 * CALLS + 2 * (SPAWN_ROUNDS + 5) + Math.ceil(CONCURRENT_CALLS * 2.1);
  const afterRows = await memory();

  // 4. Memory: a soak of every kind of call (a script hook one in ten, a Claude Code call through the
  // bridge one in ten, a new connection one in five, as agents' hooks make), floors halfway and at the end.
  const soakAgent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const soak = async (calls: number) => {
    let next = 0;
    await Promise.all(
      Array.from({ length: CLIENTS }, async () => {
        while (next < calls) {
          const index = next++;
          const agent = index % 5 === 4 ? false : soakAgent;
          if (index % 10 === 3) await post('/emit/stage_start', scriptBody, agent);
          else if (index % 10 === 7) await post('/hooks/claude/PreToolUse', claudeBody, agent);
          else await post('/emit/stage_start', memoryBody, agent);
        }
      }),
    );
  };
  await soak(Math.floor(MEMORY_CALLS / 2));
  const halfway = await memory();
  await soak(MEMORY_CALLS - Math.floor(MEMORY_CALLS / 2));
  const end = await memory();
  soakAgent.destroy();
  // The command-hook row again, now that the daemon holds what the soak left it (rss grown to its
  // plateau): a process forked from the daemon itself costs more the more memory it maps.
  const late = await measureInterleaved(
    [
      { name: 'direct', run: () => spawnTime('/bin/sh', ['-c', 'true']) },
      { name: 'command-hook', run: () => post('/emit/stage_start', commandBody, false).then(() => undefined) },
    ],
    { rounds: SPAWN_ROUNDS, warmup: 5 },
  );
  const lateMedian = (name: string) => median(late.get(name)!);
  console.log('command hook `true` through the daemon vs `sh -c true` spawned directly, after the soak:');
  console.log(
    `  daemon ${fmt(lateMedian('command-hook'))}, direct ${fmt(lateMedian('direct'))}: ${(lateMedian('command-hook') / lateMedian('direct')).toFixed(2)}× (target ≤ 1.2×)`,
  );
  console.log('daemon memory floors (after full collections):');
  console.log(`  after the warm-up: ${mib(before)}`);
  console.log(`  after the ${timed} calls above: ${mib(afterRows)}`);
  console.log(`  after ${Math.floor(MEMORY_CALLS / 2)} more calls of every kind: ${mib(halfway)}`);
  console.log(`  after ${MEMORY_CALLS} more: ${mib(end)} (target: flat)`);
  if (daemonErrors !== '') console.log(`daemon stderr:\n${daemonErrors}`);
  console.log(
    `load average ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
} finally {
  daemon.kill('SIGTERM');
  await new Promise((resolve) => daemon.once('exit', resolve));
  rmSync(scratch, { recursive: true, force: true });
}
