import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { installCliAlone } from '../../test-support/install-cli-alone.ts';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

describe('help and version', () => {
  test('--version prints the package version', async () => {
    const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(await runCli(['--version'], { cwd: scratch.path })).toMatchObject({ code: 0, stdout: `${version}\n` });
  });

  test('--help lists every command; each command has its own --help', async () => {
    const top = await runCli(['--help'], { cwd: scratch.path });
    expect(top.code).toBe(0);
    for (const command of ['emit', 'run', 'explain', 'validate', 'list', 'schema', 'init', 'sandbox']) {
      expect(top.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
      const own = await runCli([command, '--help'], { cwd: scratch.path });
      expect(own.code).toBe(0);
      expect(own.stdout).toMatch(new RegExp(`^Usage: hookline ${command}`));
    }
    expect((await runCli(['help', 'emit'], { cwd: scratch.path })).stdout).toMatch(/^Usage: hookline emit/);
  });

  test('an unknown command suggests the nearest', async () => {
    const result = await runCli(['emitt'], { cwd: scratch.path });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown command "emitt" — did you mean `hookline emit`?');
  });
});

test('schema prints the config JSON Schema with the installed runners', async () => {
  const result = await runCli(['schema'], { cwd: scratch.path });
  expect(result.code).toBe(0);
  const schema = JSON.parse(result.stdout) as { $schema: string; title: string; properties: { hooks: unknown } };
  expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
  expect(schema.title).toBe('Hookline configuration');
  expect(JSON.stringify(schema.properties.hooks)).toContain('"command"');
});

test('schema describes every installed settings table, snake_case: [models], [sandbox.docker], [sandbox.bubblewrap]', async () => {
  const result = await runCli(['schema'], { cwd: scratch.path });
  interface Table {
    additionalProperties: unknown;
    properties?: Record<string, { description?: string }>;
  }
  const { properties } = JSON.parse(result.stdout) as {
    properties: { models: Table; sandbox: { properties: Record<string, Table> } };
  };
  expect(properties.models.additionalProperties).toEqual({ type: 'string', pattern: '^\\S+$' });
  const docker = properties.sandbox.properties['docker']!;
  expect(docker.additionalProperties).toBe(false);
  expect(Object.keys(docker.properties!)).toEqual(
    expect.arrayContaining(['image', 'read_only', 'cap_add', 'docker_host', 'kill_grace_ms']),
  );
  expect(docker.properties!['readOnly']!.description).toBe('Deprecated: write `read_only`.');
  expect(Object.keys(properties.sandbox.properties['bubblewrap']!.properties!)).toEqual(
    expect.arrayContaining(['writable', 'base_dir', 'max_output_bytes']),
  );
});

test('[sandbox.docker] camelCase keys still load, with a warning naming the snake_case key', async () => {
  scratch.write(
    'hookline.toml',
    '[[hooks]]\nevent = "stage_start"\ncommand = "true"\nsandbox = false\n\n[sandbox.docker]\nreadOnly = false\n',
  );
  const result = await runCli(['validate'], { cwd: scratch.path });
  expect(result.code).toBe(0);
  expect(result.stderr).toContain('hookline.toml:7: [sandbox.docker] `readOnly` is deprecated; write `read_only`');
});

test('sandbox prune: nothing to prune without the docker sandbox', async () => {
  // The CLI installed without its optional @hookline/sandbox-docker (emit-docker.test.ts prunes with it).
  const cli = installCliAlone(scratch.path);
  const result = await runCli(['sandbox', 'prune'], { cwd: scratch.path, cli });
  expect(result.code).toBe(0);
  expect(result.stdout).toContain(
    'nothing to prune: @hookline/sandbox-docker is not installed, and the local sandbox leaves nothing behind',
  );
  expect((await runCli(['sandbox'], { cwd: scratch.path, cli })).code).toBe(1);
});
