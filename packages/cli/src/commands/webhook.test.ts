import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

// `hookline webhook verify` through the built CLI, on deliveries signed as the runner signs them.

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

function sign(id: string, timestamp: number, body: string): string {
  const key = Buffer.from(SECRET.slice('whsec_'.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

test('a genuine delivery verifies from flags or a headers file; a changed body or a stale timestamp does not, with the reason', async () => {
  const body = '{"event":"run_complete","run_id":"r-1"}';
  const now = Math.floor(Date.now() / 1000);
  scratch.write('body.json', body);
  const env = { DEPLOY_SECRET: SECRET };
  const flags = [
    '--secret-env',
    'DEPLOY_SECRET',
    '--id',
    'msg_1',
    '--timestamp',
    String(now),
    '--signature',
    sign('msg_1', now, body),
  ];
  const valid = await runCli(['webhook', 'verify', 'body.json', ...flags], { cwd: scratch.path, env });
  expect(valid.code, valid.stderr).toBe(0);
  expect(valid.stdout).toBe('valid: msg_1 is signed with the secret in DEPLOY_SECRET\n');

  scratch.write(
    'headers.txt',
    `HTTP/1.1 POST\r\nWebhook-Id: msg_1\r\nwebhook-timestamp: ${now}\r\nwebhook-signature: v1,bm9wZQ== ${sign('msg_1', now, body)}\r\n`,
  );
  const fromFile = await runCli(
    ['webhook', 'verify', 'body.json', '--secret-env', 'DEPLOY_SECRET', '--headers', 'headers.txt', '--json'],
    { cwd: scratch.path, env },
  );
  expect([fromFile.code, fromFile.stdout]).toEqual([0, '{"valid":true}\n']);

  scratch.write('changed.json', body.replace('r-1', 'r-2'));
  const changed = await runCli(['webhook', 'verify', 'changed.json', ...flags], { cwd: scratch.path, env });
  expect(changed.code).toBe(1);
  expect(changed.stderr).toContain('not valid: no signature in webhook-signature matches: the body was changed');

  const old = now - 3_600;
  const stale = await runCli(
    [
      'webhook',
      'verify',
      'body.json',
      '--secret-env',
      'DEPLOY_SECRET',
      '--id',
      'msg_1',
      '--timestamp',
      String(old),
      '--signature',
      sign('msg_1', old, body),
      '--json',
    ],
    { cwd: scratch.path, env },
  );
  expect(stale.code).toBe(1);
  expect(JSON.parse(stale.stdout)).toEqual({
    valid: false,
    problem: expect.stringContaining('beyond the tolerance of 300 s'),
  });
  const tolerated = await runCli(
    [
      'webhook',
      'verify',
      'body.json',
      '--secret-env',
      'DEPLOY_SECRET',
      '--id',
      'msg_1',
      '--timestamp',
      String(old),
      '--signature',
      sign('msg_1', old, body),
      '--tolerance',
      '0',
    ],
    { cwd: scratch.path, env },
  );
  expect(tolerated.code, tolerated.stderr).toBe(0);
});

test('a missing secret or header says what to give', async () => {
  scratch.write('body.json', '{}');
  const noSecret = await runCli(
    ['webhook', 'verify', 'body.json', '--id', 'x', '--timestamp', '1', '--signature', 'v1,x'],
    { cwd: scratch.path, env: { HOOKLINE_WEBHOOK_SECRET: '' } },
  );
  expect(noSecret.code).toBe(1);
  expect(noSecret.stderr).toContain("HOOKLINE_WEBHOOK_SECRET is not set: put the endpoint's whsec_… secret in it");
  const noHeaders = await runCli(['webhook', 'verify', 'body.json'], {
    cwd: scratch.path,
    env: { HOOKLINE_WEBHOOK_SECRET: SECRET },
  });
  expect(noHeaders.code).toBe(1);
  expect(noHeaders.stderr).toContain('Missing --id, --timestamp, --signature');
});
