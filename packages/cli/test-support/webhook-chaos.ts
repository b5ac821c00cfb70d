// The webhook chaos run, shared by the test (a count that finishes quickly) and the soak script (the
// issue's 100 000): emitters record durable HTTP deliveries into an SQLite journal while `hookline
// worker` processes send them to a flaky server on 127.0.0.1, one worker SIGKILLed and restarted at
// random every ~1–2 s. Then every message is checked against what the server answered.
import { existsSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { sqliteJournal } from '@hookline/journal-sqlite';
import type { JournalEntry } from '@hookline/core';
import { finished, runCli, startCli, type Scratch } from './run-cli.ts';

/** How large a run is. */
export interface WebhookChaosSize {
  readonly messages: number;
  readonly workers: number;
  readonly emitters: number;
  /** The kill-and-restart phase ends when every message is settled, or after this long. */
  readonly limitMs: number;
  /** Seeds the server's choices, so a failing run can be replayed. */
  readonly seed: number;
}

/** What happened to one message, as the server and the journal tell it. */
interface MessageFate {
  /** webhook-ids its requests carried. */
  readonly ids: Set<string>;
  /** Answers the server sent it (status codes; 0 for a request it left hanging). */
  readonly answers: number[];
}

/** The run's findings. */
export interface WebhookChaosReport {
  readonly messages: number;
  readonly kills: number;
  readonly seconds: number;
  readonly requests: number;
  readonly delivered: number;
  readonly deadLettered: number;
  /** Messages neither answered 2xx nor dead-lettered, or still pending when the run ended, with what the server saw of them. */
  readonly lost: readonly string[];
  /**
   * Messages an emitter ran unjournaled, with a warning (`… they run now`): only a journal that
   * cannot be used does that, never a busy one; a message of these whose one delivery failed is lost.
   */
  readonly unjournaled: readonly string[];
  /**
   * Messages whose emit reported the hook failed because the journal stayed locked past its busy
   * timeout (`… they did not run`): the harness, as a host should, emitted them again.
   */
  readonly reEmitted: readonly string[];
  readonly pendingLeft: number;
  /** Messages that got a 2xx more than once (at least once allows it after a kill). */
  readonly duplicates: number;
  /** Messages whose requests carried more than one webhook-id, and ids shared by two messages. */
  readonly idMismatches: readonly string[];
  /** Dead letters whose attempts do not match the policy (a given-up 5xx before the schedule ran out, …). */
  readonly policyViolations: readonly string[];
  /** Messages to the gone endpoint delivered after it answered 410. */
  readonly deliveredAfterGone: number;
  /** Whether the gone endpoint answered 410 at all (the run was long enough to get there). */
  readonly gone: boolean;
}

// Every 7th message goes to a second endpoint that answers 200 for its first third or so, then 410
// forever: the first 410 must disable it for every worker, and dead-letter the rest without requests.
const GONE_EVERY = 7;

/**
 * Runs the chaos. The flaky endpoint fails 30% of requests: 18% with 500, 6% by hanging (the
 * attempt times out), 6% with 429 and Retry-After: 1.
 */
export async function runWebhookChaos(scratch: Scratch, size: WebhookChaosSize): Promise<WebhookChaosReport> {
  const random = seeded(size.seed);
  const goneAfter = Math.max(2, Math.floor(size.messages / GONE_EVERY / 3));
  const fates = new Map<string, MessageFate>();
  const hanging = new Set<ServerResponse>();
  const sockets = new Set<Socket>();
  let goneRequests = 0;
  let goneSince: number | undefined;
  let deliveredAfterGone = 0;
  let requests = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests++;
      const run = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { run_id: string }).run_id;
      const fate = fates.get(run) ?? { ids: new Set<string>(), answers: [] };
      fates.set(run, fate);
      fate.ids.add(String(request.headers['webhook-id']));
      if (request.url === '/gone') {
        goneRequests++;
        const status = goneRequests > goneAfter ? 410 : 200;
        if (status === 410) goneSince ??= Date.now();
        else if (goneSince !== undefined) deliveredAfterGone++;
        fate.answers.push(status);
        response.writeHead(status).end();
        return;
      }
      const roll = random();
      if (roll < 0.06) {
        fate.answers.push(0);
        hanging.add(response);
        response.on('close', () => hanging.delete(response));
        return;
      }
      const status = roll < 0.12 ? 429 : roll < 0.3 ? 500 : 204;
      fate.answers.push(status);
      response.writeHead(status, status === 429 ? { 'retry-after': '1' } : {}).end();
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // Fast schedules, so that a message's whole life fits in the run: five attempts within 30 s.
  const hook = (name: string, event: string, path: string) =>
    `[[hooks]]\nname = "${name}"\nevent = "${event}"\ntype = "http"\nurl = "${origin}${path}"\ntls = "off"\ndurable = true\nsigning_secret_env = "CHAOS_SECRET"\ntimeout_ms = 3000\n` +
    `retry = { schedule = ["100ms", "300ms", "600ms", "1s"], jitter = true, deadline = "30s", attempt_timeout = "700ms" }\n`;
  scratch.write(
    'hookline.toml',
    `[journal]\nrun = "workers"\nlease_ms = 10000\n\n${hook('flaky', 'run_complete', '/flaky')}\n${hook('gone', 'run_failed', '/gone')}`,
  );
  const env = { CHAOS_SECRET: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' };
  const started = Date.now();
  const startWorker = (): { child: ChildProcess; done: Promise<unknown> } => {
    const child = startCli(['worker', '--concurrency', '8', '--poll-ms', '100'], { cwd: scratch.path, env });
    return { child, done: finished(child) };
  };
  const workers = Array.from({ length: size.workers }, startWorker);
  const runs = Array.from({ length: size.messages }, (_, index) => `m-${index}`);
  const perEmitter = Math.ceil(runs.length / size.emitters);
  let emitted = false;
  const lineOf = (run: string): string =>
    JSON.stringify({
      event: Number(run.slice(2)) % GONE_EVERY === 0 ? 'run_failed' : 'run_complete',
      run_id: run,
      workflow_name: 'chaos',
    });
  const emit = (batch: readonly string[]) =>
    runCli(['run'], { cwd: scratch.path, env, input: `${batch.map(lineOf).join('\n')}\n` });
  const unjournaled: string[] = [];
  const reEmitted: string[] = [];
  // `hookline run` answers one outcome line per event, in order: those that say they were not journaled.
  const notJournaled = (batch: readonly string[], stdout: string): string[] => {
    const refused: string[] = [];
    stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .forEach((line, index) => {
        const run = batch[index];
        if (run === undefined || !line.includes('could not journal the durable hooks')) return;
        if (line.includes('they did not run')) refused.push(run);
        else unjournaled.push(run);
      });
    return refused;
  };
  const emitterFailures: string[] = [];
  const emitting = (async () => {
    let batches = Array.from({ length: size.emitters }, (_, emitter) =>
      runs.slice(emitter * perEmitter, (emitter + 1) * perEmitter),
    );
    // A host told that the journal was busy emits again (a few rounds at most: the journal frees up;
    // a message still refused after the last is counted lost).
    for (let round = 1; batches.length > 0; round++) {
      const results = await Promise.all(batches.map(emit));
      const refused = results.flatMap((result, index) => {
        if (result.code !== 0) emitterFailures.push(result.stderr);
        return notJournaled(batches[index]!, result.stdout);
      });
      if (refused.length === 0 || round === 5) break;
      reEmitted.push(...refused);
      batches = [refused];
    }
    emitted = true;
  })();

  const path = join(scratch.path, '.hookline', 'journal.db');
  const readJournal = async (): Promise<readonly JournalEntry[] | undefined> => {
    if (!existsSync(path)) return undefined;
    const journal = sqliteJournal({ path });
    try {
      return await journal.list();
    } finally {
      await journal.doClose();
    }
  };
  // Counted by the journal: listing 100 000 entries every second would cost the workers' CPU.
  const unsettled = async (): Promise<number> => {
    if (!existsSync(path)) return -1;
    const journal = sqliteJournal({ path });
    try {
      const stats = await journal.stats();
      return stats.pending + stats.leased;
    } finally {
      await journal.doClose();
    }
  };

  let kills = 0;
  const deadline = Date.now() + size.limitMs;
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1_000 + Math.floor(random() * 1_000)));
    if (emitted && (await unsettled()) === 0) break;
    const slot = Math.floor(random() * workers.length);
    workers[slot]!.child.kill('SIGKILL');
    await workers[slot]!.done;
    kills++;
    workers[slot] = startWorker();
  }
  await emitting;
  // Past the chaos: let the workers finish what is left without kills.
  while (Date.now() < deadline + 30_000 && (await unsettled()) !== 0)
    await new Promise((resolve) => setTimeout(resolve, 250));
  for (const worker of workers) worker.child.kill('SIGTERM');
  await Promise.all(workers.map((worker) => worker.done));
  for (const response of hanging) response.destroy();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => server.close(resolve));
  if (emitterFailures.length > 0) throw new Error(`an emitter failed: ${emitterFailures[0]}`);

  const entries = (await readJournal()) ?? [];
  const dead = new Map(
    entries
      .filter((entry) => entry.deadLetteredAt !== undefined)
      .map((entry) => [String(entry.context['run_id']), entry]),
  );
  const pendingLeft = entries.length - dead.size;
  const lost: string[] = [];
  const idMismatches: string[] = [];
  const policyViolations: string[] = [];
  const seenIds = new Map<string, string>();
  let delivered = 0;
  let duplicates = 0;
  for (const run of runs) {
    const fate = fates.get(run);
    const successes = fate?.answers.filter((status) => status >= 200 && status < 300).length ?? 0;
    if (successes > 0) delivered++;
    if (successes > 1) duplicates++;
    const letter = dead.get(run);
    if (successes === 0 && letter === undefined)
      lost.push(
        `${run} (answers ${fate === undefined ? 'none' : fate.answers.join(',')}${unjournaled.includes(run) ? '; run unjournaled by the emitter' : ''})`,
      );
    if ((fate?.ids.size ?? 0) > 1) idMismatches.push(`${run}: ${[...fate!.ids].join(', ')}`);
    for (const id of fate?.ids ?? []) {
      const other = seenIds.get(id);
      if (other !== undefined && other !== run) idMismatches.push(`${id} shared by ${other} and ${run}`);
      seenIds.set(id, run);
    }
    if (letter !== undefined) {
      const problem = policyProblem(letter, Number(run.slice(2)) % GONE_EVERY === 0);
      if (problem !== undefined) policyViolations.push(`${run}: ${problem}`);
    }
  }
  return {
    messages: runs.length,
    kills,
    seconds: Math.round((Date.now() - started) / 1000),
    requests,
    delivered,
    deadLettered: dead.size,
    lost,
    unjournaled,
    reEmitted,
    pendingLeft,
    duplicates,
    idMismatches,
    policyViolations,
    deliveredAfterGone,
    gone: goneSince !== undefined,
  };
}

// A dead letter must be one the policy gives up on: to the gone endpoint, a 410 or its disabled URL;
// to the flaky one, the schedule used up (five attempts) or the deadline passed — never a 500, 429
// or timeout given up early.
function policyProblem(entry: JournalEntry, toGone: boolean): string | undefined {
  const attempts = entry.deliveries ?? [];
  const last = attempts.at(-1);
  if (last === undefined) return `dead-lettered without attempts: ${entry.lastError ?? ''}`;
  if (toGone)
    return last.httpStatus === 410 || (last.error ?? '').includes('is disabled since')
      ? undefined
      : `given up on the gone endpoint with ${last.httpStatus ?? last.status}: ${last.error ?? ''}`;
  const counted = attempts.filter((attempt) => attempt.outcome !== 'done').length;
  if (/schedule is used up|retry deadline/.test(last.error ?? '') && counted >= 1) return undefined;
  return `given up after ${counted} attempts: ${last.error ?? ''}`;
}

// A small deterministic generator (mulberry32): the same seed, the same answers.
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
