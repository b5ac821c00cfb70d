import { spawnSync } from 'node:child_process';
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeScratch, runCli, type Scratch } from '../../test-support/run-cli.ts';

// The docker sandbox wired into the CLI. A missing engine skips locally, and fails in CI.
const IMAGE = process.env['HOOKLINE_DOCKER_TEST_IMAGE'] ?? 'hookline-test/busybox';
const required = process.env['CI'] === 'true' || process.env['HOOKLINE_REQUIRE_DOCKER'] === '1';
const engine = spawnSync('docker', ['image', 'inspect', IMAGE], { stdio: 'ignore' });
const available = engine.status === 0;
if (!available) {
  const why = `Docker engine or image ${IMAGE} not available (scripts/build-test-image.sh builds it)`;
  if (required) throw new Error(`${why}, and CI=true / HOOKLINE_REQUIRE_DOCKER=1 require it`);
  console.warn(`skipping the CLI's docker tests: ${why}`);
}

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

describe.skipIf(!available)('hookline with [sandbox] provider = "docker"', () => {
  test('a sandboxed command hook runs in a hardened container, as the unprivileged user', async () => {
    scratch.write(
      'hookline.toml',
      `[sandbox]\nprovider = "docker"\n[sandbox.docker]\nimage = "${IMAGE}"\nmounts = ["./:/workspace:ro"]\n\n[[hooks]]\nname = "who"\nevent = "stage_start"\ncommand = '''[ "$(id -u)" = 65534 ] && [ -f /workspace/hookline.toml ] && ! touch /workspace/x 2>/dev/null && echo '{"decision":"skip","reason":"inside"}' '''\n`,
    );
    // The hook runs as uid 65534: the mounted folder must be readable by others (mkdtemp makes it 0700).
    chmodSync(scratch.path, 0o755);
    chmodSync(join(scratch.path, 'hookline.toml'), 0o644);
    const result = await runCli(['emit', 'stage_start', '--json'], { cwd: scratch.path });
    expect(result.code).toBe(0);
    const outcome = JSON.parse(result.stdout) as { decision: string; reason: string; hooks: Array<Record<string, unknown>> };
    expect(outcome.hooks[0]).toMatchObject({ status: 'ok', sandbox: 'docker' });
    expect(outcome).toMatchObject({ decision: 'skip', reason: 'inside' });
    const left = spawnSync('docker', ['ps', '-aq', '--filter', 'label=dev.hookline.run-id'], { encoding: 'utf8' });
    expect(left.stdout.trim()).toBe('');
  }, 60_000);

  test('bad [sandbox.docker] settings are config errors with the file and line', async () => {
    scratch.write('hookline.toml', `[[hooks]]\nevent = "stage_start"\ncommand = "true"\n\n[sandbox]\nprovider = "docker"\n[sandbox.docker]\nmemory = "lots"\n`);
    const result = await runCli(['validate'], { cwd: scratch.path });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/hookline\.toml:5: \[sandbox\.docker\] memory/);
  });

  test('sandbox prune reports what it removed and kept', async () => {
    const result = await runCli(['sandbox', 'prune'], { cwd: scratch.path });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^removed \d+ leftover containers?, kept \d+ containers? of live runs\n$/);
  });
});
