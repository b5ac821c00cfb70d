import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../test-support/run-cli.ts';

// Each heavy library lives in exactly one package. The workspace's CLI has every optional
// runner package installed (they are its devDependencies), so these are the real packages and their
// real libraries: what a command loads is what a user with everything installed would load.
const HEAVY: Readonly<Record<string, string>> = {
  undici: '@hookline/runner-http',
  '@anthropic-ai/sdk': '@hookline/runner-llm',
  'isolated-vm': '@hookline/runner-script',
  dockerode: '@hookline/sandbox-docker',
};
const heavyOnes = [...Object.keys(HEAVY), ...Object.values(HEAVY)];

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

async function loadedBy(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): Promise<{ code: number | null; packages: Set<string>; urls: string[]; stderr: string }> {
  const file = join(scratch.path, 'loads.txt');
  const result = await runCli(args, {
    cwd: scratch.path,
    nodeOptions: ['--import', new URL('../test-support/record-loads.ts', import.meta.url).href],
    env: { HOOKLINE_LOADS_FILE: file, ...env },
  });
  const urls = readFileSync(file, 'utf8').split('\n');
  // The package a URL belongs to: the path after its last node_modules/, or a workspace package's folder.
  const packages = new Set(
    urls.flatMap((url) => {
      const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url.slice(url.lastIndexOf('node_modules/')));
      if (inModules !== null) return [inModules[1]!];
      // The CLI's build carries runner-command as a file of its own (scripts/bundle.ts).
      if (url.endsWith('/packages/cli/dist/runner-command.js')) return ['@hookline/runner-command'];
      const workspace = /\/packages\/([^/]+)\/dist\//.exec(url);
      return workspace === null ? [] : [`@hookline/${workspace[1]}`];
    }),
  );
  return { code: result.code, packages, urls, stderr: result.stderr };
}

test('the heavy libraries are really installed here, so their absence below means something', () => {
  for (const [library, owner] of Object.entries(HEAVY)) {
    const ownerFolder = realpathSync(fileURLToPath(new URL(`../node_modules/${owner}`, import.meta.url)));
    expect(existsSync(join(ownerFolder, 'node_modules', library, 'package.json')), `${library} next to ${owner}`).toBe(
      true,
    );
  }
});

test('emit with one command hook loads the command runner and nothing heavy — nor the journal', async () => {
  scratch.write('hookline.toml', '[[hooks]]\nevent = "stage_start"\ncommand = "true"\n');
  const { code, packages, urls, stderr } = await loadedBy(['emit', 'stage_start', '--json']);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(packages).toContain('@hookline/runner-command');
  expect(heavyOnes.filter((name) => packages.has(name))).toEqual([]);
  expect(packages.has('@hookline/journal-sqlite')).toBe(false);
  expect(urls).not.toContain('node:sqlite');
  // OpenTelemetry loads only when an OTLP endpoint is set (emit-tracing.test.ts exports with one).
  expect([...packages].filter((name) => name.startsWith('@opentelemetry/') || name === '@hookline/otel')).toEqual([]);
  // Core comes once, from the CLI's bundle: runner-command's own `import '@hookline/core'` gets that
  // copy, not the installed package's modules (a second engine, and ≈ 100 more modules to load).
  expect(urls.filter((url) => url.includes('/packages/core/'))).toEqual([]);
  expect(urls.filter((url) => url.endsWith('/packages/cli/dist/core.js'))).toHaveLength(1);
});

test('a config without hooks loads no runner at all', async () => {
  scratch.write('hookline.toml', '# nothing yet\n');
  const { packages } = await loadedBy(['emit', 'stage_start', '--json']);
  expect(
    [...packages].filter((name) => name.startsWith('@hookline/runner') || name.startsWith('@hookline/sandbox')),
  ).toEqual([]);
});

test('an http hook loads the http runner (and its undici) — and still none of the others', async () => {
  scratch.write(
    'hookline.toml',
    '[[hooks]]\nevent = "stage_start"\ntype = "http"\nurl = "https://example.com"\n\n[[hooks]]\nevent = "stage_start"\ncommand = "true"\nsandbox = false\n',
  );
  const { packages } = await loadedBy(['list', '--json']);
  expect(packages).toContain('@hookline/runner-http');
  expect(packages).toContain('undici');
  expect(
    heavyOnes.filter((name) => packages.has(name) && name !== 'undici' && name !== '@hookline/runner-http'),
  ).toEqual([]);
});

test("runners are chosen through the preset's dialect: an agent shell action is a command hook, an http action an http hook", async () => {
  scratch.write(
    'hookline.toml',
    'preset = "agent"\n\n[[hooks]]\nevent = "post_tool_use"\n[hooks.action]\ntype = "shell"\ncommand = "true"\n',
  );
  const shell = await loadedBy(['list', '--json']);
  expect(shell.code).toBe(0);
  expect(shell.packages).toContain('@hookline/runner-command');
  expect(heavyOnes.filter((name) => shell.packages.has(name))).toEqual([]);
  scratch.write(
    'hookline.toml',
    'preset = "agent"\n\n[[hooks]]\nevent = "post_tool_use"\n[hooks.action]\ntype = "http"\nurl = "https://example.com"\n',
  );
  const http = await loadedBy(['list', '--json']);
  expect(http.code).toBe(0);
  expect(http.packages).toContain('@hookline/runner-http');
  expect(
    heavyOnes.filter((name) => http.packages.has(name) && name !== 'undici' && name !== '@hookline/runner-http'),
  ).toEqual([]);
});

test('a config with durable hooks loads the SQLite journal', async () => {
  scratch.write('hookline.toml', 'preset = "task"\n\n[hooks]\nafter_merge = ["true"]\n');
  const { code, packages, urls } = await loadedBy(['emit', 'after_merge', '--set', 'task=t-1', '--json']);
  expect(code).toBe(0);
  expect(packages).toContain('@hookline/journal-sqlite');
  expect(urls).toContain('node:sqlite');
  expect(heavyOnes.filter((name) => packages.has(name))).toEqual([]);
});

test('the docker provider loads only when a hook will run sandboxed', async () => {
  scratch.write(
    'hookline.toml',
    '[sandbox]\nprovider = "docker"\n\n[[hooks]]\nevent = "stage_start"\ncommand = "true"\nsandbox = false\n',
  );
  const unsandboxed = await loadedBy(['emit', 'stage_start', '--json']);
  expect(unsandboxed.code).toBe(0);
  expect(unsandboxed.packages.has('@hookline/sandbox-docker')).toBe(false);
  expect(unsandboxed.packages.has('dockerode')).toBe(false);
  scratch.write(
    'hookline.toml',
    '[sandbox]\nprovider = "docker"\n\n[[hooks]]\nevent = "stage_start"\ncommand = "true"\n',
  );
  const explained = await loadedBy(['explain', 'stage_start', '--json']);
  // explain runs nothing, so it does not need the provider either.
  expect(explained.code).toBe(0);
  expect(explained.packages.has('@hookline/sandbox-docker')).toBe(false);
  expect(explained.packages.has('dockerode')).toBe(false);
  // validate checks the provider (installed, settings valid), so it loads the package; the package
  // itself defers dockerode to its first container.
  const validated = await loadedBy(['validate']);
  expect(validated.code).toBe(0);
  expect(validated.packages).toContain('@hookline/sandbox-docker');
  // A hook that runs sandboxed brings dockerode in. The engine address leads nowhere, so no container
  // is made: the hook fails (closed), after the client was loaded to try.
  const emitted = await loadedBy(['emit', 'stage_start', '--json'], {
    DOCKER_HOST: `unix://${join(scratch.path, 'no-docker.sock')}`,
  });
  expect(emitted.code).toBe(2);
  expect(emitted.packages).toContain('@hookline/sandbox-docker');
  expect(emitted.packages).toContain('dockerode');
  expect(
    heavyOnes.filter(
      (name) => emitted.packages.has(name) && name !== 'dockerode' && name !== '@hookline/sandbox-docker',
    ),
  ).toEqual([]);
});
