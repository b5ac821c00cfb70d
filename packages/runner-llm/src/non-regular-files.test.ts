// Agent file tools against FIFOs: open() on a FIFO waits for the other end on one of libuv's four
// threadpool threads, and nothing cancels it — four such hooks would freeze every file and DNS
// operation of the host. Driven through the real SDK, engine and tools, against a local Messages API.
import { lookup } from 'node:dns/promises';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { localSandbox } from '@hookline/runner-command';
import { expect, test } from 'vitest';
import { emitHook } from '../test-support/hooks.ts';
import { clientFor, finalText, message, scripted, toolResults, toolUse } from '../test-support/messages-api.ts';
import { useMessagesApi } from '../test-support/use-messages-api.ts';
import { scratchDirectory } from '../test-support/scratch.ts';
import { llmRunner } from './llm-runner.ts';

const api = useMessagesApi();

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
    const report = await emitHook(
      llmRunner({ client: clientFor(api) }),
      { type: 'agent', prompt: 'Read the pipe.', timeout_ms: 15_000 },
      { context: { cwd } },
    );
    expect(report.status, JSON.stringify(report)).toBe('ok');
    const [shell, read, write, readLink, grepPipe, grepAll, glob] = toolResults(api.requests[1]);
    expect(shell?.is_error, shell?.content).toBeUndefined();
    for (const refused of [read, write, readLink]) {
      expect(refused).toMatchObject({
        is_error: true,
        content: `refused: "${refused === readLink ? `link-${hook}` : pipe}" is a FIFO (named pipe); file tools only read and write regular files`,
      });
    }
    expect(grepPipe?.content).toBe('no matches');
    // Searches list and read regular files only; the FIFOs (and links to them) are skipped unopened.
    expect(grepAll?.content).toBe('plain.txt:1: plain text');
    expect(glob?.content).toBe('plain.txt');
  }
  // Nothing is left waiting on the threadpool: file and DNS work of the host still completes.
  expect(await readFile(join(cwd, 'plain.txt'), 'utf8')).toBe('plain text\n');
  expect((await lookup('localhost')).address).toMatch(/^(127\.0\.0\.1|::1)$/);
}, 120_000);

test('through the local sandbox, the file tools refuse a FIFO the same way, and write and read regular files', async () => {
  const cwd = await scratchDirectory('fifo-local');
  const calls = [
    toolUse('shell', { command: 'mkfifo pipe' }),
    toolUse('read_file', { path: 'pipe' }),
    toolUse('write_file', { path: 'pipe', content: 'x' }),
    toolUse('write_file', { path: 'notes/a.txt', content: 'first line\nsecond line\n' }),
    toolUse('read_file', { path: 'notes/a.txt' }),
    toolUse('grep', { pattern: 'second' }),
    toolUse('glob', { pattern: '**' }),
  ];
  api.respond(scripted(message(calls), finalText('{"ok": true}')));
  const report = await emitHook(
    llmRunner({ client: clientFor(api) }),
    { type: 'agent', prompt: 'Read the pipe.', timeout_ms: 15_000 },
    { context: { cwd }, sandbox: localSandbox() },
  );
  expect(report.status, JSON.stringify(report)).toBe('ok');
  const [, read, write, written, readBack, grep, glob] = toolResults(api.requests[1]);
  expect(read).toMatchObject({
    is_error: true,
    content: 'refused: "pipe" is a FIFO (named pipe); file tools only read and write regular files',
  });
  expect(write).toMatchObject({
    is_error: true,
    content: 'refused: "pipe" is a FIFO (named pipe); file tools only read and write regular files',
  });
  expect(written?.content).toBe('wrote 23 bytes to notes/a.txt');
  expect(await readFile(join(cwd, 'notes', 'a.txt'), 'utf8')).toBe('first line\nsecond line\n');
  expect(readBack?.content).toBe('first line\nsecond line\n');
  expect(grep?.content).toBe('notes/a.txt:2: second line');
  expect(glob?.content).toBe('notes/a.txt');
}, 60_000);
