// Agent file tools against FIFOs: open() on a FIFO waits for the other end on one of libuv's four
// threadpool threads, and nothing cancels it — four such hooks would freeze every file and DNS
// operation of the host. Driven through the real SDK, engine and tools, against a local Messages API.
import { lookup } from 'node:dns/promises';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { emitHook } from '../test-support/hooks.ts';
import { clientFor, finalText, message, scripted, startMessagesApi, toolResults, toolUse, type MessagesApi } from '../test-support/messages-api.ts';
import { scratchDirectory } from '../test-support/scratch.ts';
import { llmRunner } from './llm-runner.ts';

let api: MessagesApi;
beforeAll(async () => {
  api = await startMessagesApi();
});
afterAll(() => api.close());
beforeEach(() => {
  api.requests.length = 0;
});

test('five agent hooks reading, writing and searching a FIFO get refusals at once; the host’s file and DNS operations still run', async () => {
  const cwd = await scratchDirectory('fifo');
  await writeFile(join(cwd, 'plain.txt'), 'plain text\n');
  for (let hook = 1; hook <= 5; hook++) {
    api.requests.length = 0;
    const pipe = `pipe-${hook}`;
    const calls = [
      toolUse('shell', { command: `mkfifo ${pipe} && ln -s ${pipe} link-${hook}` }),
      toolUse('read_file', { path: pipe }),
      toolUse('write_file', { path: pipe, content: 'x' }),
      toolUse('read_file', { path: `link-${hook}` }),
      toolUse('grep', { pattern: 'text', path: pipe }),
      toolUse('grep', { pattern: 'text' }),
      toolUse('glob', { pattern: '*' }),
    ];
    api.respond(scripted(message(calls), finalText('{"ok": true}')));
    // Before the fix each hook hung in read_file until this deadline, leaving a thread pinned.
    const report = await emitHook(llmRunner({ client: clientFor(api) }), { type: 'agent', prompt: 'Read the pipe.', timeout_ms: 5_000 }, { context: { cwd } });
    expect(report.status, JSON.stringify(report)).toBe('ok');
    const [shell, read, write, readLink, grepPipe, grepAll, glob] = toolResults(api.requests[1]);
    expect(shell?.is_error, shell?.content).toBeUndefined();
    for (const refused of [read, write, readLink]) {
      expect(refused).toMatchObject({ is_error: true, content: `refused: "${refused === readLink ? `link-${hook}` : pipe}" is a FIFO (named pipe); file tools only read and write regular files` });
    }
    expect(grepPipe?.content).toBe('no matches');
    // Searches list and read regular files only; the FIFOs (and links to them) are skipped unopened.
    expect(grepAll?.content).toBe('plain.txt:1: plain text');
    expect(glob?.content).toBe('plain.txt');
  }
  // Nothing is left waiting on the threadpool: file and DNS work of the host still completes.
  expect(await readFile(join(cwd, 'plain.txt'), 'utf8')).toBe('plain text\n');
  expect((await lookup('localhost')).address).toMatch(/^(127\.0\.0\.1|::1)$/);
}, 60_000);
