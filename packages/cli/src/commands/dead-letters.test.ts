import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

// Retried deliveries, dead letters and replay through the built CLI, an SQLite journal and a real
// HTTP server on 127.0.0.1 whose answers the test changes.

let scratch: Scratch;
let server: Server;
let answer = 500;
const received: Array<{ id: string | undefined; body: string }> = [];
let url = '';

beforeEach(async () => {
  scratch = makeScratch();
  received.length = 0;
  answer = 500;
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({
        id: request.headers['webhook-id'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.writeHead(answer).end(`answer ${answer}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
});
afterEach(async () => {
  await new Promise((resolve) => server.close(resolve));
  scratch.cleanup();
});

const ENV = { DELIVERY_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };
const config = (retry: string) =>
  `[[hooks]]\nname = "notify"\nevent = "run_complete"\ntype = "http"\nurl = "${url}"\ntls = "off"\ndurable = true\nsigning_secret_env = "DELIVERY_SECRET"\nretry = ${retry}\n`;
const json = async (args: string[]) => {
  const result = await runCli(args, { cwd: scratch.path, env: ENV });
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as unknown;
};
// `hookline run` with no input resumes what is due in the journal and exits.
const resume = async (): Promise<void> => {
  await new Promise((resolve) => setTimeout(resolve, 80));
  const result = await runCli(['run'], { cwd: scratch.path, env: ENV, input: '' });
  expect(result.code, result.stderr).toBe(0);
};

test('a failing endpoint is retried by later processes until the schedule is used up, then ls --dead shows every attempt; retry --endpoint replays it with the same webhook-id; purge deletes old dead letters', async () => {
  scratch.write('hookline.toml', config('{ schedule = ["50ms", "50ms"], jitter = false }'));
  const emitted = await runCli(['emit', 'run_complete', '--set', 'run_id=r-1', '--json'], {
    cwd: scratch.path,
    env: ENV,
  });
  expect(emitted.code, emitted.stderr).toBe(0);
  expect(JSON.parse(emitted.stdout).hooks[0]).toMatchObject({
    status: 'failed',
    http_status: 500,
    delivery: { next: 'retry' },
  });
  expect(received).toHaveLength(1);
  await resume();
  await resume();
  expect(received).toHaveLength(3);
  const dead = (await json(['journal', 'ls', '--dead', '--json'])) as Array<Record<string, unknown>>;
  expect(dead).toHaveLength(1);
  expect(dead[0]).toMatchObject({
    state: 'dead-lettered',
    lastError: expect.stringContaining('the retry schedule is used up'),
  });
  expect(
    (dead[0]!['deliveries'] as Array<Record<string, unknown>>).map((attempt) => [
      attempt['outcome'],
      attempt['httpStatus'],
      attempt['target'],
    ]),
  ).toEqual([
    ['retry', 500, url],
    ['retry', 500, url],
    ['dead', 500, url],
  ]);
  const table = await runCli(['journal', 'ls', '--dead'], { cwd: scratch.path, env: ENV });
  expect(table.stdout).toContain('3, last 500 dead');

  answer = 204;
  expect(await json(['journal', 'retry', '--endpoint', url, '--json'])).toEqual({
    retried: [dead[0]!['id']],
    refused: [],
    reenabled: false,
  });
  await resume();
  expect(received).toHaveLength(4);
  expect(new Set(received.map((request) => request.id)).size).toBe(1);
  expect(await json(['journal', 'ls', '--json'])).toEqual([]);

  // A dead letter from a 4xx, purged by date: not when it is newer, yes when older.
  answer = 400;
  await runCli(['emit', 'run_complete', '--set', 'run_id=r-2'], { cwd: scratch.path, env: ENV });
  expect(await json(['journal', 'purge', '--before', '1h', '--json'])).toEqual({ purged: 0 });
  expect(await json(['journal', 'purge', '--before', new Date(Date.now() + 60_000).toISOString(), '--json'])).toEqual({
    purged: 1,
  });
  expect(await json(['journal', 'ls', '--json'])).toEqual([]);
});

test('a 410 disables the endpoint for later processes until retry --endpoint re-enables it; --since picks dead letters by time', async () => {
  scratch.write('hookline.toml', config('"standard-webhooks"'));
  answer = 410;
  await runCli(['emit', 'run_complete', '--set', 'run_id=r-1'], { cwd: scratch.path, env: ENV });
  const later = await runCli(['emit', 'run_complete', '--set', 'run_id=r-2', '--json'], {
    cwd: scratch.path,
    env: ENV,
  });
  expect(JSON.parse(later.stdout).hooks[0]).toMatchObject({
    status: 'skipped',
    skipped_because: expect.stringContaining(`${url} is disabled since`),
  });
  expect(received).toHaveLength(1);
  expect(
    await json(['journal', 'retry', '--since', new Date(Date.now() + 60_000).toISOString(), '--json']),
  ).toMatchObject({ retried: [], reenabled: false });
  expect(((await json(['journal', 'ls', '--dead', '--json'])) as unknown[]).length).toBe(2);

  answer = 200;
  const replayed = await runCli(['journal', 'retry', '--endpoint', url], { cwd: scratch.path, env: ENV });
  expect(replayed.stdout).toContain(`${url} is enabled again`);
  expect(replayed.stdout).toContain('2 dead letters with an attempt to');
  await resume();
  expect(received.map((request) => JSON.parse(request.body).run_id).sort()).toEqual(['r-1', 'r-1', 'r-2']);
  expect(await json(['journal', 'ls', '--json'])).toEqual([]);
});

test('bad uses say what to write', async () => {
  scratch.write('hookline.toml', config('"exponential"'));
  const cases: Array<[string[], string]> = [
    [['journal', 'retry'], 'needs an entry ID, or --since DATE and/or --endpoint URL'],
    [['journal', 'purge'], 'purge needs --before DATE'],
    [
      ['journal', 'retry', '--since', 'last week'],
      '--since needs a date (2026-12-01, 2026-12-01T08:00:00Z) or an age (30m, 24h, 7d)',
    ],
    [['journal', 'ls', '--since', '1h'], '--since and --endpoint go with retry'],
    [['journal', 'retry', '--endpoint', url, '--trust'], '--trust goes with retry ID only'],
  ];
  for (const [args, message] of cases) {
    const result = await runCli(args, { cwd: scratch.path, env: ENV });
    expect(result.code, args.join(' ')).toBe(1);
    expect(result.stderr).toContain(message);
  }
});
