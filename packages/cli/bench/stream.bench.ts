// `hookline run` per event, against the same work done bare: (a) an http hook against a raw undici
// request to the same loopback server (the server in a process of its own), (b) a command hook
// `exit 0` on the host (`sandbox = false`) against a bare `child_process.spawn` of it. The CLI runs
// as a real long-lived process fed by a pipe; a sample writes a batch of lines and waits for all of
// their answers, and a bare sample does the same number of requests or spawns one after another.
// Contenders alternate sample by sample (scripts/bench-stats.ts), so a busy machine slows them alike.
//
//   pnpm -F @hookline/cli... build && node packages/cli/bench/stream.bench.ts
//   ROUNDS=100 node packages/cli/bench/stream.bench.ts
//   CLI=/other/checkout/packages/cli/dist/bin.js node packages/cli/bench/stream.bench.ts   (another build)
//   OTHER_CLI=/other/checkout/packages/cli/dist/bin.js node packages/cli/bench/stream.bench.ts   (both builds, interleaved in one run)
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { measureInterleaved, quantile, type Contender } from '../../../scripts/bench-stats.ts';

const ROUNDS = Number(process.env['ROUNDS'] ?? 60);
const HTTP_BATCH = 100;
const COMMAND_BATCH = 20;
const TARGET_HTTP = 1.3;
const TARGET_COMMAND = 1.15;

const cli = process.env['CLI'] ?? fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const otherCli = process.env['OTHER_CLI'];
for (const build of [cli, otherCli]) {
  if (build !== undefined && !existsSync(build)) {
    console.error(`no CLI at ${build}: build it first (pnpm -F @hookline/cli... build)`);
    process.exit(1);
  }
}
// The raw contender uses the very client library the http runner uses, resolved from that package.
const undiciPath = createRequire(new URL('../../runner-http/package.json', import.meta.url)).resolve('undici');
const { Agent } = (await import(pathToFileURL(undiciPath).href)) as { Agent: new (options: object) => RawAgent };

/** The part of undici's Agent the raw contender uses (the CLI itself does not depend on undici). */
interface RawAgent {
  request(options: object): Promise<{ readonly statusCode: number; readonly body: { text(): Promise<string> } }>;
  close(): Promise<void>;
}

const server = fork(new URL('../../runner-http/bench/loopback-server.ts', import.meta.url), {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const [{ port }] = (await once(server, 'message')) as [{ port: number }];
const origin = `http://127.0.0.1:${port}`;
const scratch = mkdtempSync(join(tmpdir(), 'hookline-stream-bench-'));

/** A `hookline run` process with `toml` as its config; `events(n)` feeds n lines and waits for n answers. */
function streamingCli(
  name: string,
  toml: string,
  build = cli,
): { readonly child: ChildProcess; events(count: number): Promise<void> } {
  const folder = join(scratch, name);
  writeFileSync(`${folder}.toml`, toml);
  const child = spawn(process.execPath, [build, 'run', '--config', `${folder}.toml`], {
    cwd: scratch,
    env: { ...process.env, XDG_CONFIG_HOME: join(scratch, '.xdg') },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  let waiting: { left: number; done: () => void; failed: (error: Error) => void } | undefined;
  let rest = '';
  let sent = 0;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      // Every answer must come from a hook that ran and proceeded, or the figures mean nothing.
      if (!line.includes('"status":"ok"') || !line.includes('"decision":"proceed"'))
        waiting?.failed(new Error(`${name}: unexpected answer ${line}`));
      if (waiting !== undefined && --waiting.left === 0) waiting.done();
    }
  });
  return {
    child,
    events(count) {
      return new Promise((resolve, reject) => {
        waiting = { left: count, done: resolve, failed: reject };
        let batch = '';
        for (let index = 0; index < count; index++, sent++)
          batch += `{"event":"stage_start","run_id":"run-${sent % 50}","workflow_name":"bench","node_id":"n${sent % 7}"}\n`;
        child.stdin.write(batch);
      });
    },
  };
}

const httpToml = `[[hooks]]\nname = "notify"\nevent = "stage_start"\ntype = "http"\nurl = "${origin}/hook"\ntls = "off"\n`;
const commandToml = `[[hooks]]\nname = "gate"\nevent = "stage_start"\ncommand = "exit 0"\nsandbox = false\n`;
const httpCli = streamingCli('http', httpToml);
const commandCli = streamingCli('command', commandToml);
const others =
  otherCli === undefined
    ? undefined
    : {
        http: streamingCli('other-http', httpToml, otherCli),
        command: streamingCli('other-command', commandToml, otherCli),
      };
// Same pool settings as the runner's defaults, same request as it sends.
const agent = new Agent({ connections: 32, keepAliveTimeout: 4_000, pipelining: 1 });
const contextJson = JSON.stringify({ event: 'stage_start', run_id: 'run-0', workflow_name: 'bench', node_id: 'n0' });

async function rawRequests(): Promise<void> {
  for (let index = 0; index < HTTP_BATCH; index++) {
    const response = await agent.request({
      origin,
      path: '/hook',
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'hookline-runner-http' },
      body: Buffer.from(contextJson, 'utf8'),
    });
    await response.body.text();
    if (response.statusCode !== 200) throw new Error(`raw request answered ${response.statusCode}`);
  }
}

function bareSpawn(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', 'exit 0']);
    child.once('error', reject);
    child.once('close', (code) => (code === 0 ? resolve() : reject(new Error(`sh exited ${code}`))));
  });
}

async function bareSpawns(): Promise<void> {
  for (let index = 0; index < COMMAND_BATCH; index++) await bareSpawn();
}

const http: Contender[] = [
  { name: 'raw undici request', run: rawRequests },
  { name: 'http hook via `hookline run`', run: () => httpCli.events(HTTP_BATCH) },
  ...(others === undefined
    ? []
    : [{ name: 'http hook via `hookline run`, OTHER_CLI', run: () => others.http.events(HTTP_BATCH) }]),
];
const command: Contender[] = [
  { name: 'bare spawn `sh -c "exit 0"`', run: bareSpawns },
  { name: 'command hook (host) via `hookline run`', run: () => commandCli.events(COMMAND_BATCH) },
  ...(others === undefined
    ? []
    : [{ name: 'command hook (host) via `hookline run`, OTHER_CLI', run: () => others.command.events(COMMAND_BATCH) }]),
];
const httpSamples = await measureInterleaved(http, { rounds: ROUNDS, warmup: 5 });
const commandSamples = await measureInterleaved(command, { rounds: Math.ceil(ROUNDS / 2), warmup: 3 });

for (const { child } of [httpCli, commandCli, ...(others === undefined ? [] : [others.http, others.command])]) {
  child.stdin!.end();
  await once(child, 'close');
}
await agent.close();
server.send('stop');
rmSync(scratch, { recursive: true, force: true });

console.log(
  `\n\`hookline run\` per event vs the bare work — node ${process.version}, ${availableParallelism()} CPUs, load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')} at the end\n`,
);
console.log('| scenario | contender | samples | median per event | p90 per event | ratio to bare (medians) | target |');
console.log('|---|---|---:|---:|---:|---:|---|');
let missed = false;
for (const [scenario, contenders, samples, batch, target] of [
  ['http hook, 127.0.0.1 server in its own process', http, httpSamples, HTTP_BATCH, TARGET_HTTP],
  ['command hook `exit 0`, sandbox = false', command, commandSamples, COMMAND_BATCH, TARGET_COMMAND],
] as const) {
  const base = quantile(samples.get(contenders[0]!.name)!, 0.5);
  for (const [index, contender] of contenders.entries()) {
    const values = samples.get(contender.name)!;
    const median = quantile(values, 0.5);
    const ratio = median / base;
    if (index === 1 && ratio > target) missed = true;
    const verdict = index === 0 ? '' : `≤ ${target}× ${ratio <= target ? '✓' : '✗'}`;
    console.log(
      `| ${scenario} | ${contender.name} | ${values.length} | ${formatPerEvent(median / batch)} | ${formatPerEvent(quantile(values, 0.9) / batch)} | ${index === 0 ? '1.00' : ratio.toFixed(3)} | ${verdict} |`,
    );
  }
}
console.log(
  missed
    ? '\nSome ratio is over its target (a loaded machine makes this noisy: run again before concluding).'
    : '\nEvery ratio is within its target.',
);

function formatPerEvent(milliseconds: number): string {
  return milliseconds >= 1 ? `${milliseconds.toFixed(2)} ms` : `${(milliseconds * 1_000).toFixed(0)} µs`;
}
