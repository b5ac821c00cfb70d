// Text from hooks, servers, contexts and configs reaches the terminal escaped in human output, and
// unchanged in JSON output. Everything runs through the real CLI.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

// Retitles the window, erases the line, returns the cursor and paints a fake verdict; then DEL and C1 (CSI).
const HOSTILE = '\u001b]0;owned\u0007\u001b[2K\r\u001b[32mrun_start: proceed\u007f\u009b';
const ESCAPED = '\\x1b]0;owned\\x07\\x1b[2K\\r\\x1b[32mrun_start: proceed\\x7f\\x9b';
/** Any control character other than the newlines that end lines. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

let scratch: Scratch;
let server: Server;
beforeEach(async () => {
  scratch = makeScratch();
  server = createServer((_request, response) => {
    response
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ decision: 'block', reason: `server: ${HOSTILE}` }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterEach(async () => {
  scratch.cleanup();
  await new Promise((resolve) => server.close(resolve));
});

test("a reason from a command or a server, and a failed hook's error, are shown escaped; --json keeps them exact", async () => {
  const { port } = server.address() as AddressInfo;
  scratch.write('reason.json', JSON.stringify({ decision: 'block', reason: `command: ${HOSTILE}` }));
  scratch.write(
    'hookline.toml',
    `[[hooks]]
name = "command"
event = "stage_start"
command = "cat reason.json"

[[hooks]]
name = "server"
event = "run_start"
type = "http"
url = "http://127.0.0.1:${port}/gate"
tls = "off"

[[hooks]]
name = "lost"
event = "stage_complete"
blocking = true
command = "true"
`,
  );
  for (const [event, from] of [
    ['stage_start', 'command'],
    ['run_start', 'server'],
  ] as const) {
    const human = await runCli(['emit', event], { cwd: scratch.path });
    expect(human.code).toBe(2);
    expect(human.stdout).not.toMatch(RAW_CONTROL);
    expect(human.stdout.split('\n')[0]).toBe(`${event}: block — ${from}: ${ESCAPED} (decided by ${from})`);
    expect(human.stdout).toContain(`  ${from}: ${from}: ${ESCAPED}`);
    const json = await runCli(['emit', event, '--json'], { cwd: scratch.path });
    expect(JSON.parse(json.stdout)).toMatchObject({ reason: `${from}: ${HOSTILE}` });
  }
  // A failed hook's error names the context's cwd, which the host chose (quoted as JSON, which escapes C0 but not C1).
  const failed = await runCli(['emit', 'stage_complete', '--set', 'cwd=/nonexistent/\u009b\u001b[2K'], {
    cwd: scratch.path,
  });
  expect(failed.code).toBe(2);
  expect(failed.stdout).not.toMatch(RAW_CONTROL);
  expect(failed.stdout).toContain('✗ lost: the working directory "/nonexistent/\\x9b\\u001b[2K" does not exist');
});

test('a hook name from the config and a context value are escaped in list, explain and emit', async () => {
  scratch.write(
    'hookline.toml',
    '[[hooks]]\nname = "evil\\u001b[2K\\rname"\nevent = "stage_start"\ncommand = "true"\n',
  );
  const list = await runCli(['list'], { cwd: scratch.path });
  expect(list.code).toBe(0);
  expect(list.stdout).not.toMatch(RAW_CONTROL);
  expect(list.stdout).toContain('evil\\x1b[2K\\rname');
  const explain = await runCli(['explain', 'stage_start', '--set', `node_id=${HOSTILE}`, '--set', 'k\u009bey=1'], {
    cwd: scratch.path,
  });
  expect(explain.stdout).not.toMatch(RAW_CONTROL);
  expect(explain.stdout).toContain('evil\\x1b[2K\\rname');
  expect(explain.stdout).toContain('k\\x9bey=1');
  const emit = await runCli(['emit', 'stage_start'], { cwd: scratch.path });
  expect(emit.stdout).not.toMatch(RAW_CONTROL);
  expect(emit.stdout).toContain('evil\\x1b[2K\\rname');
});

test('config errors quoting the file are escaped on stderr', async () => {
  scratch.write('hookline.toml', '[[hooks]]\nevent = "stage_\\u001b[2Kstart"\ncommand = "true"\n');
  for (const command of ['validate', 'list']) {
    const result = await runCli([command], { cwd: scratch.path });
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(RAW_CONTROL);
    expect(result.stderr).toContain('stage_\\x1b[2Kstart');
  }
});
