// `hookline serve` against the costs it replaces, each figure from one run (interleaved rounds where
// two things are compared, so the machine's load hits both alike), printed with the load average:
//   - a Claude Code `type: "http"`-style POST (a new connection per call, as a hook call makes) to the
//     daemon, one script hook (the isolate pool: no process started): median and p99 per call,
//     targets ≤ 1 ms and ≤ 3 ms;
//   - the shim (bash, /dev/tcp) → daemon, per call, against spawning /bin/true: target ≤ 3×;
//   - a command hook (`true`) through the daemon against spawning `sh -c true` directly: ≤ 1.2×;
//   - 64 concurrent clients (keep-alive) for a bounded number of calls: throughput (target ≥ 10 000
//     calls/s), errors (0), p99 (≤ 10 ms); and the daemon's memory before and after, which must stay flat.
//
//   pnpm -F @hookline/cli bench:serve       (build first: pnpm -F @hookline/cli... build)
//   CALLS=2000 CONCURRENT_CALLS=50000 pnpm -F @hookline/cli bench:serve
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
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { measureInterleaved, quantile } from '../../../scripts/bench-stats.ts';
import { writeShim, servePaths } from '@hookline/serve';

const CALLS = Number(process.env['CALLS'] ?? 1000);
const SPAWN_ROUNDS = Number(process.env['RUNS'] ?? 100);
const CONCURRENT_CALLS = Number(process.env['CONCURRENT_CALLS'] ?? 30_000);
const CLIENTS = 64;

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
const daemon = spawn(process.execPath, ['--no-node-snapshot', cli, 'serve'], { cwd: scratch, env, stdio: 'ignore' });
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

const memory = async () => {
  const status = await new Promise<string>((resolve, reject) => {
    request({ socketPath: paths.socketFile, path: '/status' }, (response) => {
      let text = '';
      response.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve(text));
    })
      .on('error', reject)
      .end();
  });
  const { rss, heapUsed } = (JSON.parse(status) as { memory: { rss: number; heapUsed: number } }).memory;
  return { rss: rss / 2 ** 20, heap: heapUsed / 2 ** 20 };
};

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
  const after = await memory();
  console.log(
    `daemon memory after ${2 * CALLS + Math.ceil(CONCURRENT_CALLS * 1.1) + 4 * SPAWN_ROUNDS} more calls: rss ${before.rss.toFixed(1)} → ${after.rss.toFixed(1)} MiB, heap ${before.heap.toFixed(1)} → ${after.heap.toFixed(1)} MiB`,
  );
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
