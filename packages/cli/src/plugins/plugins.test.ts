import { readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

// A runner written without @hookline/core: plugins are plain objects, checked by shape and version.
// `options` is a keyless object schema as valibot's `v.object({})` describes it (core reads its entries).
const plainRunner = (name: string, version = 'v2') => `{
  runnerInterfaceVersion: '${version}',
  name: '${name}',
  types: {
    echo: {
      options: { kind: 'schema', type: 'object', entries: {} },
      defaultTimeoutMs: 1000,
      defaultOnError: 'block',
      usesSandbox: false,
      async doRun() { return { status: 'ok', decision: { decision: 'block', reason: 'echo from ${name}' } }; },
    },
  },
}`;

function writePlugin(
  name: string,
  manifest: Record<string, unknown>,
  files: Record<string, string>,
  folder = '.',
): void {
  scratch.write(
    `${folder}/node_modules/${name}/package.json`,
    JSON.stringify({ name, version: '1.0.0', type: 'module', ...manifest }),
  );
  for (const [file, text] of Object.entries(files)) scratch.write(`${folder}/node_modules/${name}/${file}`, text);
}

const echoHook = (plugin: string) => `plugins = ["${plugin}"]\n\n[[hooks]]\nevent = "run_start"\ntype = "echo"\n`;

describe("plugins from the config file's folder", () => {
  test('an import-only package (exports with only an "import" condition) loads: ESM resolution, not require', async () => {
    writePlugin(
      'hookline-runner-echo',
      { exports: { '.': { import: './lib/index.js' } } },
      { 'lib/index.js': `export default ${plainRunner('hookline-runner-echo')};\n` },
      'project',
    );
    scratch.write('project/hookline.toml', echoHook('hookline-runner-echo'));
    // Run from the parent folder, which has no node_modules: the plugin is found from the config file's folder.
    const result = await runCli(['emit', 'run_start', '--config', 'project/hookline.toml', '--json'], {
      cwd: scratch.path,
    });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({
      decision: 'block',
      reason: 'echo from hookline-runner-echo',
      hooks: [{ type: 'echo', status: 'ok' }],
    });
  });

  test('a factory that declares a settings table gets it validated; its mistakes are issues at their lines; the schema lists it', async () => {
    // The plugin's own valibot, as a plugin would install it.
    const valibot = realpathSync(fileURLToPath(new URL('../../../core/node_modules/valibot', import.meta.url)));
    symlinkSync(valibot, join(scratch.write('node_modules/.keep', ''), '..', 'valibot'));
    const source = [
      "import * as v from 'valibot';",
      `export function echoRunner(settings = {}) { const runner = ${plainRunner('echo-settings')}; return { ...runner, types: { echo: { ...runner.types.echo, async doRun() { return { status: 'ok', decision: { decision: 'block', reason: 'echo ' + settings.greeting } }; } } } }; }`,
      "echoRunner.settingsTable = { path: 'echo', description: 'Greeting of echo hooks.', schema: v.object({ greeting: v.optional(v.string('must be a string')) }) };",
    ].join('\n');
    writePlugin('echo-settings', { exports: './index.js' }, { 'index.js': `${source}\n` });
    scratch.write('hookline.toml', `${echoHook('echo-settings')}\n[echo]\ngreeting = "hi"\n`);
    const result = await runCli(['emit', 'run_start', '--json'], { cwd: scratch.path });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({ reason: 'echo hi' });
    scratch.write('hookline.toml', `${echoHook('echo-settings')}\n[echo]\ngreting = "hi"\n`);
    const invalid = await runCli(['validate'], { cwd: scratch.path });
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('hookline.toml:8: unknown setting `greting` in [echo] — did you mean `greeting`?');
    const schema = JSON.parse((await runCli(['schema'], { cwd: scratch.path })).stdout) as {
      properties: Record<string, unknown>;
    };
    expect(schema.properties['echo']).toMatchObject({
      description: 'Greeting of echo hooks.',
      additionalProperties: false,
    });
  });

  test('a named …Runner factory is called to get the runner', async () => {
    writePlugin(
      'echo-factory',
      { exports: './index.js' },
      {
        'index.js': `export const helper = 1;\nexport function echoRunner() { return ${plainRunner('echo-factory')}; }\n`,
      },
    );
    scratch.write('hookline.toml', echoHook('echo-factory'));
    const result = await runCli(['emit', 'run_start', '--json'], { cwd: scratch.path });
    expect(JSON.parse(result.stdout)).toMatchObject({ reason: 'echo from echo-factory' });
  });

  test('a missing plugin is an error at the plugins line, saying what to install where', async () => {
    scratch.write('hookline.toml', echoHook('hookline-runner-nope'));
    const result = await runCli(['emit', 'run_start'], { cwd: scratch.path });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `hookline.toml:1: plugin "hookline-runner-nope" is not installed: cannot find package "hookline-runner-nope" from ${scratch.path}`,
    );
    expect(result.stderr).toContain('install it next to hookline.toml (npm install hookline-runner-nope)');
    // validate reports it the same way.
    const validated = await runCli(['validate'], { cwd: scratch.path });
    expect(validated.code).toBe(1);
    expect(validated.stderr).toMatch(/^hookline\.toml:1: plugin "hookline-runner-nope" is not installed/);
  });

  test('a plugin that throws on import is named, with its error', async () => {
    writePlugin('boom-plugin', { exports: './index.js' }, { 'index.js': "throw new Error('boom at import');\n" });
    scratch.write('hookline.toml', echoHook('boom-plugin'));
    const result = await runCli(['emit', 'run_start'], { cwd: scratch.path });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('hookline.toml:1: plugin "boom-plugin" failed to load: boom at import');
  });

  test('a plugin without a runner says what it exports and what a plugin must export', async () => {
    writePlugin(
      'not-a-runner',
      { main: 'index.js' },
      { 'index.js': 'export const helper = () => 1;\nexport const version = 3;\n' },
    );
    scratch.write('hookline.toml', echoHook('not-a-runner'));
    const result = await runCli(['emit', 'run_start'], { cwd: scratch.path });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('plugin "not-a-runner" offers no Hookline runner (its exports: helper, version)');
    expect(result.stderr).toContain('runner interface v2');
  });

  test('a runner for another interface version is refused by name', async () => {
    writePlugin(
      'future-runner',
      { exports: './index.js' },
      { 'index.js': `export default ${plainRunner('future-runner', 'v3')};\n` },
    );
    scratch.write('hookline.toml', echoHook('future-runner'));
    const result = await runCli(['emit', 'run_start'], { cwd: scratch.path });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'plugin "future-runner": its default export is of another version: Runner "future-runner" implements runner interface v3, but this @hookline/core speaks runner interface v2',
    );
  });

  test('a runner made for an earlier core, with the shared specificationVersion, is named as such', async () => {
    const earlier =
      "{ specificationVersion: 'v1', name: 'old-runner', types: { echo: { keys: {}, defaultTimeoutMs: 1000, defaultOnError: 'block', usesSandbox: false } }, async doRun() { return { status: 'ok', decision: { decision: 'proceed' } }; } }";
    writePlugin('old-runner', { exports: './index.js' }, { 'index.js': `export default ${earlier};\n` });
    scratch.write('hookline.toml', echoHook('old-runner'));
    const result = await runCli(['emit', 'run_start'], { cwd: scratch.path });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      'plugin "old-runner": its default export is of another version: Runner "old-runner" implements the shared plugin interface v1 of an earlier @hookline/core, but this @hookline/core speaks runner interface v2',
    );
  });

  test('a package that does not export "." is not mistaken for a missing one', async () => {
    writePlugin(
      'subpath-only',
      { exports: { './runner': './runner.js' } },
      { 'runner.js': `export default ${plainRunner('subpath-only')};\n` },
    );
    scratch.write('hookline.toml', echoHook('subpath-only'));
    const result = await runCli(['emit', 'run_start'], { cwd: scratch.path });
    expect(result.stderr).toContain('does not export "." for import');
    scratch.write('hookline.toml', echoHook('subpath-only/runner'));
    expect(JSON.parse((await runCli(['emit', 'run_start', '--json'], { cwd: scratch.path })).stdout)).toMatchObject({
      reason: 'echo from subpath-only',
    });
  });
});

describe('the example third-party runner, hookline-runner-ntfy, end to end', () => {
  let server: Server;
  let received: Array<Record<string, unknown>>;
  let url: string;
  beforeEach(async () => {
    received = [];
    server = createServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        received.push(JSON.parse(body) as Record<string, unknown>);
        response.writeHead(200, { 'content-type': 'application/json' }).end('{"id":"1","event":"message"}');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    // Installed in the project the way a user would: node_modules/hookline-runner-ntfy.
    const example = realpathSync(fileURLToPath(new URL('../../node_modules/hookline-runner-ntfy', import.meta.url)));
    symlinkSync(example, join(scratch.write('node_modules/.keep', ''), '..', 'hookline-runner-ntfy'));
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  test('plugins = ["hookline-runner-ntfy"]: the notification reaches the server', async () => {
    scratch.write(
      'hookline.toml',
      `plugins = ["hookline-runner-ntfy"]

[[hooks]]
name = "page-on-call"
event = "run_failed"
type = "ntfy"
server = "${url}"
topic = "ci-alerts"
title = "{workflow_name} failed"
message = "run {run_id} failed at {node_id}"
priority = "urgent"
`,
    );
    const result = await runCli(
      ['emit', 'run_failed', '--set', 'run_id=r9', '--set', 'workflow_name=ship', '--set', 'node_id=deploy', '--json'],
      { cwd: scratch.path },
    );
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toMatchObject({
      decision: 'proceed',
      hooks: [{ name: 'page-on-call', type: 'ntfy', status: 'ok', delivered_to: 'ci-alerts' }],
    });
    expect(received).toEqual([
      { topic: 'ci-alerts', title: 'ship failed', message: 'run r9 failed at deploy', priority: 5 },
    ]);
  });

  test('its keys are validated with lines, and its type is in the schema', async () => {
    scratch.write(
      'hookline.toml',
      `plugins = ["hookline-runner-ntfy"]\n\n[[hooks]]\nevent = "run_failed"\ntype = "ntfy"\ntopic = "alerts"\npriorty = 4\n`,
    );
    const validated = await runCli(['validate'], { cwd: scratch.path });
    expect(validated.code).toBe(1);
    expect(validated.stderr).toMatch(
      /^hookline\.toml:7: .*unknown key `priorty` for a ntfy hook — did you mean `priority`\?/,
    );
    const schema = await runCli(['schema'], { cwd: scratch.path });
    expect(schema.code).toBe(0);
    expect(schema.stdout).toContain('"ntfy"');
    expect(schema.stdout).toContain('The ntfy topic to publish to.');
  });
});

describe('the example third-party preset, hookline-preset-deploy, end to end', () => {
  beforeEach(() => {
    // Installed in the project the way a user would: node_modules/hookline-preset-deploy.
    const example = realpathSync(fileURLToPath(new URL('../../node_modules/hookline-preset-deploy', import.meta.url)));
    symlinkSync(example, join(scratch.write('node_modules/.keep', ''), '..', 'hookline-preset-deploy'));
  });

  test('init --plugin writes its starter, which validates, explains, emits and answers like a built-in preset', async () => {
    const init = await runCli(['init', '--plugin', 'hookline-preset-deploy', '--preset', 'deploy'], {
      cwd: scratch.path,
    });
    expect(init.stderr).toBe('');
    expect(init.stdout).toContain('hookline emit before_deploy --set service=web --set environment=staging');
    const validated = await runCli(['validate'], { cwd: scratch.path });
    expect(validated.stderr).toBe('');
    expect(validated.code).toBe(0);
    const explained = await runCli(
      ['explain', 'before_deploy', '--set', 'service=web', '--set', 'environment=production'],
      { cwd: scratch.path },
    );
    expect(explained.code).toBe(0);
    expect(explained.stdout).toContain('production-needs-approval');
    // Its command hook reads the preset's variables and answers by Hookline's exit codes.
    const refused = await runCli(
      ['emit', 'before_deploy', '--set', 'service=web', '--set', 'environment=production', '--json'],
      { cwd: scratch.path },
    );
    expect(JSON.parse(refused.stdout)).toMatchObject({
      decision: 'block',
      decided_by: 'production-needs-approval',
      reason: 'production deploys need .deploy-approved',
    });
    scratch.write('.deploy-approved', '');
    const approved = await runCli(
      ['emit', 'before_deploy', '--set', 'service=web', '--set', 'environment=production', '--json'],
      { cwd: scratch.path },
    );
    expect(JSON.parse(approved.stdout)).toMatchObject({ decision: 'proceed' });
  });

  test('--preset names it once the config loads the plugin; schema describes its events', async () => {
    scratch.write(
      'hookline.toml',
      'plugins = ["hookline-preset-deploy"]\n\n[[hooks]]\nevent = "after_deploy"\ncommand = "echo \\"$DEPLOY_SERVICE\\" > deployed.txt"\nsandbox = false\n',
    );
    const emitted = await runCli(['emit', 'after_deploy', '--preset', 'deploy', '--set', 'service=api', '--json'], {
      cwd: scratch.path,
    });
    expect(emitted.stderr).toBe('');
    expect(JSON.parse(emitted.stdout)).toMatchObject({ decision: 'proceed', hooks: [{ status: 'ok' }] });
    expect(readFileSync(join(scratch.path, 'deployed.txt'), 'utf8')).toBe('api\n');
    const schema = await runCli(['schema', '--preset', 'deploy'], { cwd: scratch.path });
    expect(schema.code).toBe(0);
    expect(schema.stdout).toContain('"before_deploy"');
    expect(schema.stdout).not.toContain('"run_start"');
    const unknown = await runCli(['emit', 'after_deploy', '--preset', 'deplyo'], { cwd: scratch.path });
    expect(unknown.stderr).toContain('unknown preset "deplyo" (did you mean "deploy"?)');
  });
});
