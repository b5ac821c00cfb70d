// Issue: the local sandbox's deny-list let credentials through under names it did not know. Its
// environment is an allow-list now, with env_passthrough as the one explicit way past it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

const SECRETS = {
  AWS_SECRET_ACCESS_KEY: 'planted-aws',
  STRIPE_SECRET_KEY: 'planted-stripe',
  PGPASSWORD: 'planted-pg',
  MYSQL_PWD: 'planted-mysql',
  DATABASE_URL: 'postgres://app:planted-url@db/app',
  GOOGLE_APPLICATION_CREDENTIALS: '/keys/planted-gcp.json',
  SSH_AUTH_SOCK: '/run/planted-agent.sock',
  SECRET: 'planted-bare-secret',
  TOKEN: 'planted-bare-token',
  API_KEY: 'planted-bare-key',
  DOCKER_AUTH_CONFIG: '{"auths":"planted-docker"}',
};

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

test('no host credential reaches a local hook; a name in env_passthrough does', async () => {
  const plain = join(scratch.path, 'plain.env');
  const passing = join(scratch.path, 'passing.env');
  scratch.write(
    'hookline.toml',
    `[[hooks]]
name = "plain"
event = "stage_start"
command = "env > '${plain}'"

[[hooks]]
name = "passing"
event = "stage_start"
command = "env > '${passing}'"
env_passthrough = ["PGPASSWORD", "DATABASE_URL"]
`,
  );
  const result = await runCli(['emit', 'stage_start', '--json'], { cwd: scratch.path, env: SECRETS });
  expect(result.code, result.stderr).toBe(0);
  expect(JSON.parse(result.stdout).hooks.map((hook: { sandbox: string }) => hook.sandbox)).toEqual(['local', 'local']);

  const seen = readFileSync(plain, 'utf8');
  expect(seen).not.toContain('planted');
  for (const name of Object.keys(SECRETS)) expect(seen).not.toMatch(new RegExp(`^${name}=`, 'm'));
  expect(seen).toMatch(/^PATH=/m);
  expect(seen).toMatch(/^ARC_EVENT=stage_start$/m);

  const passed = readFileSync(passing, 'utf8');
  expect(passed).toMatch(/^PGPASSWORD=planted-pg$/m);
  expect(passed).toMatch(/^DATABASE_URL=postgres:\/\/app:planted-url@db\/app$/m);
  expect(passed).not.toContain('planted-aws');
});

test('env_passthrough must list variable names, and a misspelt key gets a suggestion', async () => {
  scratch.write(
    'hookline.toml',
    `[[hooks]]
event = "stage_start"
command = "true"
env_passthrough = ["GOOD_NAME", "1BAD"]

[[hooks]]
event = "run_start"
command = "true"
env_passthru = ["X"]

[[hooks]]
event = "run_complete"
command = "true"
env_passthrough = "NOT_A_LIST"
`,
  );
  const result = await runCli(['validate'], { cwd: scratch.path });
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/hookline\.toml:4: .*env_passthrough.*"1BAD", which is not a variable name/);
  expect(result.stderr).toMatch(/hookline\.toml:9: .*env_passthru.*env_passthrough/);
  expect(result.stderr).toMatch(/hookline\.toml:14: .*env_passthrough.*must be an array of variable names/);
});

test('hookline schema describes env_passthrough', async () => {
  const result = await runCli(['schema'], { cwd: scratch.path });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('"env_passthrough"');
  expect(result.stdout).toContain('on top of the sandbox');
});
