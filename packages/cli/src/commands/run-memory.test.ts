// A long `hookline run` stream keeps its memory flat: what the CLI holds after 200 000 events with an
// http hook is what it held after the first 20 000, give or take a little.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, startCli, type Scratch } from '../../test-support/run-cli.ts';

const EVENTS = 200_000;
const FIRST = 20_000;
/** What the heap (live objects after a full collection) and the Buffers may grow by. */
const MARGIN_BYTES = 3 * 1024 * 1024;
// Loaded into the CLI: on SIGUSR2 it collects garbage and prints a line of figures after this marker.
const PROBE = fileURLToPath(new URL('../../test-support/heap-probe.ts', import.meta.url));
const HEAP_PROBE_MARKER = 'heap-probe:';

interface Figures {
  readonly heapUsed: number;
  readonly external: number;
  readonly arrayBuffers: number;
  readonly rss: number;
}

let scratch: Scratch;
let server: Server;
beforeEach(async () => {
  scratch = makeScratch();
  // Answers every delivery 200 with an empty body, keeping the connection alive.
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(200, { 'content-length': '0' }).end());
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
});
afterEach(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  scratch.cleanup();
});

test(`${EVENTS.toLocaleString('en-US')} events with an http hook, 50 runs cycling: the heap and its Buffers stay where they were after ${FIRST.toLocaleString('en-US')}`, async () => {
  const { port } = server.address() as AddressInfo;
  scratch.write(
    'hookline.toml',
    `[[hooks]]\nname = "notify"\nevent = "stage_start"\ntype = "http"\nurl = "http://127.0.0.1:${port}/hook"\ntls = "off"\n`,
  );
  const child = startCli(['run'], { cwd: scratch.path, nodeOptions: ['--expose-gc', '--import', PROBE] });
  const probes: Figures[] = [];
  let probed: (() => void) | undefined;
  let errors = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    for (const line of chunk.split('\n')) {
      if (line.startsWith(HEAP_PROBE_MARKER)) {
        probes.push(JSON.parse(line.slice(HEAP_PROBE_MARKER.length)) as Figures);
        probed?.();
      } else if (line !== '') errors += `${line}\n`;
    }
  });
  const probe = (): Promise<void> =>
    new Promise((resolve) => {
      probed = resolve;
      child.kill('SIGUSR2');
    });

  // The host writes ahead as far as the pipe lets it, and reads every answer; it ends the input only
  // after the last probe, so the probe still finds the CLI running.
  let written = 0;
  const feed = (): void => {
    while (written < EVENTS) {
      const line = `{"event":"stage_start","run_id":"run-${written % 50}","workflow_name":"w","node_id":"n${written % 7}"}\n`;
      written += 1;
      if (!child.stdin!.write(line)) {
        child.stdin!.once('drain', feed);
        return;
      }
    }
  };
  let answered = 0;
  let proceeded = 0;
  let rest = '';
  const milestones = new Map<number, () => void>();
  const reach = (count: number): Promise<void> => new Promise((resolve) => milestones.set(count, resolve));
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop()!;
    for (const line of lines) {
      answered += 1;
      if (line.includes('"status":"ok"') && line.startsWith('{"event":"stage_start","decision":"proceed"'))
        proceeded += 1;
      milestones.get(answered)?.();
    }
  });
  const first = reach(FIRST);
  const last = reach(EVENTS);
  const exited = once(child, 'close');
  feed();

  await first;
  await probe();
  await last;
  await probe();
  child.stdin!.end();
  const [code] = (await exited) as [number | null];

  expect(errors).toBe('');
  expect(code).toBe(0);
  expect(answered).toBe(EVENTS);
  // Every event really reached the server and came back answered by it.
  expect(proceeded).toBe(EVENTS);
  const [early, late] = probes as [Figures, Figures];
  console.log(`after ${FIRST}: ${JSON.stringify(early)}; after ${EVENTS}: ${JSON.stringify(late)}`);
  expect(late.heapUsed).toBeLessThanOrEqual(early.heapUsed + MARGIN_BYTES);
  // Buffers and other ArrayBuffers; `external` also counts engine-internal memory that drifts by a few MB.
  expect(late.arrayBuffers).toBeLessThanOrEqual(early.arrayBuffers + MARGIN_BYTES);
}, 300_000);
