import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../test-support/run-cli.ts';

// Each heavy library lives in exactly one package (STYLE §4). Here they are stand-ins installed in
// the project, each imported by a stand-in of the runner package that owns it, so a runner package
// that is loaded shows up together with its heavy dependency.
const HEAVY = { undici: '@hookline/runner-http', '@anthropic-ai/sdk': '@hookline/runner-llm', 'isolated-vm': '@hookline/runner-script', dockerode: '@hookline/sandbox-docker' };
const FACTORIES: Record<string, string> = {
  '@hookline/runner-http': `export function httpRunner() { return runner('http'); }`,
  '@hookline/runner-llm': `export function llmRunner() { return runner('prompt', 'agent'); }`,
  '@hookline/runner-script': `export function scriptRunner() { return runner('script'); }`,
  '@hookline/sandbox-docker': `export function dockerSandbox() { return { specificationVersion: 'v1', name: 'docker', doOpen: async () => { throw new Error('no docker here'); } }; }`,
};
const RUNNER = `function runner(...types) {
  const keys = { url: { kind: 'schema', type: 'unknown', async: false, expects: 'unknown', '~run': (dataset) => ({ ...dataset, typed: true }), '~standard': {} } };
  return { specificationVersion: 'v1', name: 'stand-in', types: Object.fromEntries(types.map((type) => [type, { keys: type === 'http' ? keys : {}, defaultTimeoutMs: 1000, defaultOnError: 'proceed', usesSandbox: false }])), doRun: async () => ({ status: 'ok', decision: { decision: 'proceed' } }) };
}`;

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
  for (const [library, owner] of Object.entries(HEAVY)) {
    scratch.write(`node_modules/${library}/package.json`, JSON.stringify({ name: library, type: 'module', exports: './index.js' }));
    scratch.write(`node_modules/${library}/index.js`, 'export const heavy = true;\n');
    scratch.write(`node_modules/${owner}/package.json`, JSON.stringify({ name: owner, type: 'module', exports: './index.js' }));
    scratch.write(`node_modules/${owner}/index.js`, `import '${library}';\n${RUNNER}\n${FACTORIES[owner]}\n`);
  }
});
afterEach(() => scratch.cleanup());

async function loadedBy(args: readonly string[]): Promise<{ code: number | null; packages: Set<string>; stderr: string }> {
  const file = join(scratch.path, 'loads.txt');
  const result = await runCli(args, {
    cwd: scratch.path,
    nodeOptions: ['--import', new URL('../test-support/record-loads.ts', import.meta.url).href],
    env: { HOOKLINE_LOADS_FILE: file },
  });
  const urls = readFileSync(file, 'utf8').split('\n');
  // The package a URL belongs to: the path after its last node_modules/, or a workspace package's folder.
  const packages = new Set(
    urls.flatMap((url) => {
      const inModules = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url.slice(url.lastIndexOf('node_modules/')));
      if (inModules !== null) return [inModules[1]!];
      const workspace = /\/packages\/([^/]+)\/dist\//.exec(url);
      return workspace === null ? [] : [`@hookline/${workspace[1]}`];
    }),
  );
  return { code: result.code, packages, stderr: result.stderr };
}

const heavyOnes = [...Object.keys(HEAVY), ...Object.values(HEAVY)];

test('emit with one command hook loads the command runner and nothing heavy', async () => {
  scratch.write('hookline.toml', '[[hooks]]\nevent = "stage_start"\ncommand = "true"\n');
  const { code, packages, stderr } = await loadedBy(['emit', 'stage_start', '--json']);
  expect(stderr).toBe('');
  expect(code).toBe(0);
  expect(packages).toContain('@hookline/runner-command');
  expect(heavyOnes.filter((name) => packages.has(name))).toEqual([]);
});

test('a config without hooks loads no runner at all', async () => {
  scratch.write('hookline.toml', '# nothing yet\n');
  const { packages } = await loadedBy(['emit', 'stage_start', '--json']);
  expect([...packages].filter((name) => name.startsWith('@hookline/runner') || name.startsWith('@hookline/sandbox'))).toEqual([]);
});

test('an http hook loads the http runner (and its undici) — and still none of the others', async () => {
  scratch.write('hookline.toml', '[[hooks]]\nevent = "stage_start"\ntype = "http"\nurl = "https://example.com"\n\n[[hooks]]\nevent = "stage_start"\ncommand = "true"\nsandbox = false\n');
  const { packages } = await loadedBy(['list', '--json']);
  expect(packages).toContain('@hookline/runner-http');
  expect(packages).toContain('undici');
  expect(heavyOnes.filter((name) => packages.has(name) && name !== 'undici' && name !== '@hookline/runner-http')).toEqual([]);
});

test('the docker provider loads only when a hook will run sandboxed', async () => {
  scratch.write('hookline.toml', '[sandbox]\nprovider = "docker"\n\n[[hooks]]\nevent = "stage_start"\ncommand = "true"\nsandbox = false\n');
  const unsandboxed = await loadedBy(['emit', 'stage_start', '--json']);
  expect(unsandboxed.code).toBe(0);
  expect(unsandboxed.packages.has('dockerode')).toBe(false);
  scratch.write('hookline.toml', '[sandbox]\nprovider = "docker"\n\n[[hooks]]\nevent = "stage_start"\ncommand = "true"\n');
  const sandboxed = await loadedBy(['explain', 'stage_start', '--json']);
  // explain runs nothing, so it does not need the provider either.
  expect(sandboxed.packages.has('dockerode')).toBe(false);
  const validated = await loadedBy(['validate']);
  expect(validated.code).toBe(0);
  expect(validated.packages).toContain('dockerode');
});
