import { afterEach, beforeEach, expect, test } from 'vitest';
import { installCliAlone, linkPackage } from '../../test-support/install-cli-alone.ts';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

test('a valid config exits 0', async () => {
  scratch.write('hookline.toml', '[[hooks]]\nevent = "run_start"\ncommand = "true"\n');
  const result = await runCli(['validate'], { cwd: scratch.path });
  expect(result).toMatchObject({ code: 0, stderr: '' });
  expect(result.stdout).toBe('✓ valid: 1 hook in hookline.toml\n');
  const json = await runCli(['validate', '--json'], { cwd: scratch.path });
  expect(JSON.parse(json.stdout)).toEqual({ valid: true, files: ['hookline.toml'], hooks: 1, warnings: [] });
});

test('every problem of every file, one per line as file:line: message, exit 1', async () => {
  // The CLI as `npm install @hookline/cli` leaves it: no optional runner package, so `http` is unknown.
  const cli = installCliAlone(scratch.path);
  scratch.write('user.toml', '[[hooks]]\nevent = "run_start"\ncommand = "true"\ntimeout_ms = 0\n');
  scratch.write(
    'project.toml',
    `[[hooks]]
event = "stage_start"
command = "true"
blockng = true

[[hooks]]
event = "stage_start"
type = "http"
url = "https://example.com/hook"

[[hooks]]
event = "stage_start"
matcher = "(unclosed"
command = "true"
`,
  );
  const args = ['validate', '--config', 'user.toml', '--config', 'project.toml'];
  const result = await runCli(args, { cwd: scratch.path, cli });
  expect(result.code).toBe(1);
  expect(result.stdout).toBe('');
  const lines = result.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(5);
  expect(lines[0]).toMatch(/^user\.toml:4: hooks\[0\] "run_start:true": .*timeout_ms/);
  expect(lines[1]).toMatch(/^project\.toml:4: .*unknown key `blockng`.*did you mean `blocking`/);
  // A first-party type whose package is not installed names the package to install.
  expect(lines[2]).toMatch(/^project\.toml:8: .*unknown hook type "http" — install @hookline\/runner-http/);
  // hooks[0] and hooks[2] would collide once their other problems are fixed: said now, not then.
  expect(lines[3]).toMatch(
    /^project\.toml:11: hooks\[2\] "stage_start:true": another hook in this file \(hooks\[0\], line 1\) has the same effective name/,
  );
  expect(lines[4]).toMatch(/^project\.toml:13: .*matcher/);

  // Doing what it says — installing the runner in the project — makes that hook valid.
  linkPackage(scratch.path, '@hookline/runner-http');
  const installed = await runCli(args, { cwd: scratch.path, cli });
  expect(installed.code).toBe(1);
  expect(installed.stderr).not.toContain('runner-http');
  expect(installed.stderr.trimEnd().split('\n')).toHaveLength(4);
});

test('bad TOML is reported with its line', async () => {
  scratch.write('hookline.toml', 'preset = "arc"\n[[hooks]\n');
  const result = await runCli(['validate'], { cwd: scratch.path });
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^hookline\.toml:2:/);
});

test('no config file at all is an error: there is nothing to validate', async () => {
  const result = await runCli(['validate'], { cwd: scratch.path });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('no config file to validate');
  const missing = await runCli(['validate', '--config', 'gone.toml'], { cwd: scratch.path });
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain('config file gone.toml not found');
});

test('a sandbox provider that is not installed fails validation with what to do', async () => {
  const cli = installCliAlone(scratch.path);
  scratch.write(
    'hookline.toml',
    '[sandbox]\nprovider = "docker"\n\n[[hooks]]\nevent = "run_start"\ncommand = "true"\n',
  );
  const result = await runCli(['validate'], { cwd: scratch.path, cli });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(
    'the config selects sandbox provider "docker", but @hookline/sandbox-docker is not installed; install it (npm install @hookline/sandbox-docker)',
  );
});

test('a broken runner package fails only the configs that use its types', async () => {
  // Installed in the project next to the CLI, the way `npm install @hookline/runner-script` puts it,
  // but unable to load (its native isolated-vm was built for another Node).
  const cli = installCliAlone(scratch.path);
  scratch.write(
    'node_modules/@hookline/runner-script/package.json',
    JSON.stringify({ name: '@hookline/runner-script', type: 'module', exports: './index.js' }),
  );
  scratch.write(
    'node_modules/@hookline/runner-script/index.js',
    "throw new Error('isolated-vm was built for another Node');\n",
  );
  scratch.write('hookline.toml', '[[hooks]]\nevent = "run_start"\ncommand = "true"\n');
  expect((await runCli(['validate'], { cwd: scratch.path, cli })).code).toBe(0);
  scratch.write('hookline.toml', '[[hooks]]\nevent = "run_start"\ntype = "script"\nscript = "return true"\n');
  const result = await runCli(['validate'], { cwd: scratch.path, cli });
  expect(result.code).toBe(1);
  expect(result.stderr).toContain(
    '@hookline/runner-script is installed but failed to load: isolated-vm was built for another Node. Reinstall it.',
  );
});

test('all errors at once: a duplicate name is reported beside the duplicate\'s own error; an http hook without url is named, not "undefined"', async () => {
  scratch.write(
    'hookline.toml',
    `[[hooks]]
name = "gate"
event = "run_start"
command = "true"

[[hooks]]
name = "gate"
event = "run_start"
command = "true"
timeout_ms = 0

[[hooks]]
event = "run_start"
type = "http"
`,
  );
  const result = await runCli(['validate'], { cwd: scratch.path });
  expect(result.code).toBe(1);
  expect(result.stderr).not.toContain('undefined');
  expect(result.stderr.trimEnd().split('\n')).toEqual([
    'hookline.toml:6: hooks[1] "gate": another hook in this file (hooks[0], line 1) has the same effective name "gate" — give the two hooks distinct `name`s',
    expect.stringMatching(/^hookline\.toml:10: hooks\[1\] "gate": `timeout_ms` must be an integer/),
    'hookline.toml:12: hooks[2] "run_start:http": missing required key `url` — add url = …',
  ]);
});
