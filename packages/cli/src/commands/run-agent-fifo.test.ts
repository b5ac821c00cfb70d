// `hookline run` with agent hooks that aim their file tools at a FIFO, against a local stand-in for
// the Messages API (runner-llm's test server; the real SDK inside the real CLI talks to it through
// ANTHROPIC_BASE_URL). open() on a FIFO would wait on one of libuv's four threadpool threads for
// good: the CLI's file and DNS work would freeze after four such hooks, and it would never exit.
import { afterEach, beforeEach, expect, onTestFinished, test } from 'vitest';
import { finalText, message, toolUse } from '../../../runner-llm/test-support/messages-api.ts';
import { useMessagesApi } from '../../../runner-llm/test-support/use-messages-api.ts';
import { finished, makeScratch, startCli, type Scratch } from '../../test-support/run-cli.ts';

const api = useMessagesApi();

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

test('after five agent hooks read and write FIFOs and one times out, later events are answered and the CLI exits at end of input', async () => {
  scratch.write('data.txt', 'regular\n');
  scratch.write(
    'hookline.toml',
    [
      // A generous deadline for the pipe agents: they must answer, not time out, even on a loaded machine.
      '[[hooks]]\nname = "pipe-agent"\nevent = "stage_start"\nmatcher = "^pipe"\ntype = "agent"\nprompt = "Read the pipe."\nsandbox = false\ntimeout_ms = 30000\n',
      '[[hooks]]\nname = "hang-agent"\nevent = "stage_start"\nmatcher = "^hang$"\ntype = "agent"\nprompt = "Wait."\nsandbox = false\ntimeout_ms = 2000\n',
      '[[hooks]]\nname = "later"\nevent = "stage_start"\nmatcher = "^after$"\ncommand = \'\'\'cat data.txt >/dev/null && printf \'{"decision":"block","reason":"still answering"}\'\'\'\'\n',
    ].join('\n'),
  );
  api.respond((request) => {
    const context = String(request.body?.messages?.[0]?.content);
    const node = /"node_id":"([^"]+)"/.exec(context)?.[1] ?? '';
    if (node === 'hang') return { kind: 'hang' };
    if (request.body.messages.length > 1) return finalText('{"ok": true}');
    return message([
      toolUse('shell', { command: `mkfifo ${node}` }),
      toolUse('read_file', { path: node }),
      toolUse('write_file', { path: node, content: 'x' }),
      toolUse('grep', { pattern: 'regular' }),
    ]);
  });
  const events = [
    ...[1, 2, 3, 4, 5].map((index) => ({ event: 'stage_start', node_id: `pipe-${index}` })),
    { event: 'stage_start', node_id: 'hang' },
    { event: 'stage_start', node_id: 'after' },
  ].map((event) => JSON.stringify({ ...event, run_id: 'r1', workflow_name: 'fifo', cwd: scratch.path }));
  const child = startCli(['run'], {
    cwd: scratch.path,
    env: {
      ANTHROPIC_BASE_URL: api.url,
      ANTHROPIC_API_KEY: 'sk-ant-local-test-key-0123456789',
      ANTHROPIC_AUTH_TOKEN: '',
    },
  });
  // Before the fix the CLI never exited: end it with the test, whatever happens.
  onTestFinished(() => void child.kill('SIGKILL'));
  child.stdin!.end(`${events.join('\n')}\n`);
  const result = await finished(child);

  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const lines = result.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { decision: string; reason?: string; hooks: Array<{ status: string }> });
  expect(lines.map((line) => [line.decision, line.hooks[0]?.status])).toEqual([
    ...Array.from({ length: 5 }, () => ['proceed', 'ok']),
    ['proceed', 'timed_out'],
    ['block', 'ok'],
  ]);
  expect(lines[6]?.reason).toBe('still answering');
  // The refusals went back to the model: each pipe-agent's second request carries them.
  const refusals = api.requests
    .filter((request) => request.body.messages.length > 1)
    .map((request) => JSON.stringify(request.body.messages.at(-1)));
  expect(refusals).toHaveLength(5);
  for (const sent of refusals)
    expect(sent).toMatch(/is a FIFO \(named pipe\).*is a FIFO \(named pipe\).*data\.txt:1: regular/);
}, 120_000);
