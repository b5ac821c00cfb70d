// Resident memory of a long `hookline run` with one http hook (50 run ids cycling), the host writing
// ahead as fast as the pipe allows and reading every answer — what the README's memory table shows.
// The server runs in a process of its own. Prints, at each milestone, the CLI's resident memory now
// (VmRSS) and its peak so far (VmHWM), from /proc (Linux only).
//
//   pnpm -F @hookline/cli... build && node packages/cli/bench/stream-memory.bench.ts
//   EVENTS=300000 node packages/cli/bench/stream-memory.bench.ts
//   CLI=/other/checkout/packages/cli/dist/bin.js node packages/cli/bench/stream-memory.bench.ts   (another build)
//   OTHER_CLI=/other/…/dist/bin.js node packages/cli/bench/stream-memory.bench.ts   (both, side by side in one run)
import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const EVENTS = Number(process.env['EVENTS'] ?? 300_000);
const MILESTONES = [10_000, 100_000, 200_000, 300_000, 500_000, 1_000_000]
  .filter((count) => count < EVENTS)
  .concat(EVENTS);
const TARGET_MB = 150;

const builds = [
  { name: 'this build', cli: process.env['CLI'] ?? fileURLToPath(new URL('../dist/bin.js', import.meta.url)) },
  ...(process.env['OTHER_CLI'] === undefined ? [] : [{ name: 'other build', cli: process.env['OTHER_CLI'] }]),
];
for (const { cli } of builds) {
  if (!existsSync(cli)) {
    console.error(`no CLI at ${cli}: build it first (pnpm -F @hookline/cli... build)`);
    process.exit(1);
  }
}

const server = fork(new URL('../../runner-http/bench/loopback-server.ts', import.meta.url), {
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const [{ port }] = (await once(server, 'message')) as [{ port: number }];
const scratch = mkdtempSync(join(tmpdir(), 'hookline-memory-bench-'));
const config = join(scratch, 'hookline.toml');
writeFileSync(
  config,
  `[[hooks]]\nname = "notify"\nevent = "stage_start"\ntype = "http"\nurl = "http://127.0.0.1:${port}/hook"\ntls = "off"\n`,
);

/** Resident memory of `pid` in MB: now and the peak so far. */
function residentMb(pid: number): { readonly rss: number; readonly peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string): number => Number(/(\d+) kB/.exec(status.slice(status.indexOf(`${name}:`)))![1]) / 1024;
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

/** Streams EVENTS lines through one `hookline run` and records its memory at each milestone. */
async function stream(cli: string): Promise<Map<number, { rss: number; peak: number }>> {
  const child = spawn(process.execPath, [cli, 'run', '--config', config], {
    cwd: scratch,
    env: { ...process.env, XDG_CONFIG_HOME: join(scratch, '.xdg') },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const figures = new Map<number, { rss: number; peak: number }>();
  let written = 0;
  const feed = (): void => {
    while (written < EVENTS) {
      const line = `{"event":"stage_start","run_id":"run-${written % 50}","workflow_name":"bench","node_id":"n${written % 7}"}\n`;
      written += 1;
      if (!child.stdin.write(line)) {
        child.stdin.once('drain', feed);
        return;
      }
    }
  };
  let answered = 0;
  let rest = '';
  let failure: Error | undefined;
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      answered += 1;
      // Every answer must come from a hook that ran and proceeded, or the figures mean nothing.
      if (!line.includes('"status":"ok"') || !line.includes('"decision":"proceed"'))
        failure ??= new Error(`unexpected answer ${line}`);
      if (MILESTONES.includes(answered)) figures.set(answered, residentMb(child.pid!));
      if (answered === EVENTS) child.stdin.end();
    }
  });
  const closed = once(child, 'close');
  feed();
  const [code] = (await closed) as [number | null];
  if (failure !== undefined) throw failure;
  if (code !== 0 || answered !== EVENTS)
    throw new Error(`hookline run exited ${code} after ${answered} of ${EVENTS} answers`);
  return figures;
}

const started = loadavg();
const results = [];
for (const build of builds) results.push({ ...build, figures: await stream(build.cli) });
server.send('stop');
rmSync(scratch, { recursive: true, force: true });

console.log(
  `\n\`hookline run\` resident memory, one http hook, 50 runs cycling — node ${process.version}, ${availableParallelism()} CPUs, load average ${started.map((value) => value.toFixed(2)).join(' ')} at the start, ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')} at the end\n`,
);
console.log(`| events | ${results.map(({ name }) => `${name}: RSS now / peak`).join(' | ')} |`);
console.log(`|---:|${results.map(() => '---:').join('|')}|`);
for (const count of MILESTONES) {
  console.log(
    `| ${count.toLocaleString('en-US')} | ${results.map(({ figures }) => `${figures.get(count)!.rss.toFixed(0)} / ${figures.get(count)!.peak.toFixed(0)} MB`).join(' | ')} |`,
  );
}
for (const { name, cli, figures } of results) {
  const peak = Math.max(...[...figures.values()].map((figure) => figure.peak));
  console.log(`\n${name} (${cli}): peak ${peak.toFixed(0)} MB — ≤ ${TARGET_MB} MB ${peak <= TARGET_MB ? '✓' : '✗'}`);
}
