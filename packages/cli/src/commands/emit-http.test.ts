import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

// The http runner wired into the CLI: a real server on 127.0.0.1 answers the hook.
let scratch: Scratch;
let server: Server;
let received: Array<{ body: string; authorization: string | undefined }>;
beforeEach(async () => {
  scratch = makeScratch();
  received = [];
  server = createServer((request: IncomingMessage, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      received.push({ body, authorization: request.headers.authorization });
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end('{"decision":"block","reason":"the gate says no"}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterEach(async () => {
  scratch.cleanup();
  await new Promise((resolve) => server.close(resolve));
});

test('an http hook posts the context and its decision decides the emit', async () => {
  const { port } = server.address() as AddressInfo;
  scratch.write(
    'hookline.toml',
    `[[hooks]]\nname = "gate"\nevent = "stage_start"\ntype = "http"\nurl = "http://127.0.0.1:${port}/gate"\ntls = "off"\nallowed_env_vars = ["GATE_TOKEN"]\n[hooks.headers]\nAuthorization = "Bearer $GATE_TOKEN"\n`,
  );
  const result = await runCli(['emit', 'stage_start', '--set', 'node_id=deploy', '--set', 'run_id=r-1', '--json'], {
    cwd: scratch.path,
    env: { GATE_TOKEN: 'sekret' },
  });
  expect(result.code).toBe(2);
  const outcome = JSON.parse(result.stdout) as Record<string, unknown>;
  expect(outcome).toMatchObject({
    decision: 'block',
    reason: 'the gate says no',
    decided_by: 'gate',
    hooks: [{ name: 'gate', type: 'http', status: 'ok' }],
  });
  expect(result.stdout).not.toContain('sekret');
  expect(received).toHaveLength(1);
  expect(received[0]!.authorization).toBe('Bearer sekret');
  expect(JSON.parse(received[0]!.body)).toMatchObject({
    event: 'stage_start',
    run_id: 'r-1',
    node_id: 'deploy',
    workflow_name: 'cli',
  });
});
