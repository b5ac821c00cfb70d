import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { waitFor } from '../../test-support/processes.ts';
import { makeScratch, runCli, startCli, type Scratch } from '../../test-support/run-cli.ts';

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
    const outcome = JSON.parse(result.stdout) as {
      decision: string;
      reason: string;
      hooks: Array<Record<string, unknown>>;
    };
    expect(outcome.hooks[0]).toMatchObject({ status: 'ok', sandbox: 'docker' });
    expect(outcome).toMatchObject({ decision: 'skip', reason: 'inside' });
    const left = spawnSync('docker', ['ps', '-aq', '--filter', 'label=dev.hookline.run-id'], { encoding: 'utf8' });
    expect(left.stdout.trim()).toBe('');
  }, 60_000);

  // Root gives the folder to the container's user (65534), so that only the protection can stop the hook.
  test.skipIf(process.getuid?.() !== 0)(
    'a hook in a :rw mount cannot add a sandbox = false hook to hookline.toml, nor create one the CLI would discover',
    async () => {
      const pwned = join(scratch.path, '..', `${scratch.path.split('/').at(-1)}-pwned`);
      const evil = `[[hooks]]\nevent = "stage_start"\nsandbox = false\ncommand = "touch ${pwned}"\n`;
      const config = `[sandbox]\nprovider = "docker"\n[sandbox.docker]\nimage = "${IMAGE}"\nmounts = ["./:/workspace:rw"]\n\n[[hooks]]\nname = "append"\nevent = "stage_start"\non_error = "proceed"\ncommand = '''cd /workspace && { printf "${evil}" >> hookline.toml; } 2> append.txt; echo "exit $?" >> append.txt; mkdir -p .xdg/hookline && printf "${evil}" > .xdg/hookline/hookline.toml'''\n`;
      scratch.write('hookline.toml', config);
      spawnSync('chown', ['-R', '65534:65534', scratch.path]);
      const first = await runCli(['emit', 'stage_start', '--json'], { cwd: scratch.path });
      const outcome = JSON.parse(first.stdout) as { hooks: Array<{ status: string; error?: string }> };
      expect(outcome.hooks[0]?.status).toBe('failed');
      expect(outcome.hooks[0]?.error).toMatch(/\.xdg\/hookline\/hookline\.toml was created; it was moved aside/);
      expect(readFileSync(join(scratch.path, 'hookline.toml'), 'utf8')).toBe(config);
      expect(readFileSync(join(scratch.path, 'append.txt'), 'utf8')).toMatch(/Read-only file system[\s\S]*exit [1-9]/);
      const next = await runCli(['emit', 'stage_start', '--json'], { cwd: scratch.path });
      expect(next.stdout, next.stderr).not.toBe('');
      expect(existsSync(pwned)).toBe(false);
    },
    60_000,
  );

  test('a hook that never reads a 2 MB context on stdin lets `emit` and `run` end as soon as they answered', async () => {
    // Node used to keep the unsent stdin bytes on the exec's connection, which held the CLI for about two minutes.
    scratch.write(
      'hookline.toml',
      `[sandbox]\nprovider = "docker"\n[sandbox.docker]\nimage = "${IMAGE}"\n\n[[hooks]]\nname = "deaf"\nevent = "stage_start"\ncommand = "exit 0"\n`,
    );
    const context = { run_id: 'big', workflow_name: 'w', node_id: 'n', payload: 'x'.repeat(2_000_000) };
    scratch.write('context.json', JSON.stringify(context));
    for (const [args, input] of [
      [['emit', 'stage_start', '--context', 'context.json', '--json'], ''],
      [['run'], `${JSON.stringify({ event: 'stage_start', ...context })}\n`],
    ] as const) {
      const child = startCli(args, { cwd: scratch.path });
      let stdout = '';
      child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      let exitCode: number | null | undefined;
      child.on('exit', (code) => (exitCode = code));
      child.stdin!.end(input);
      try {
        await waitFor(`the answer of \`hookline ${args[0]}\``, () => stdout.endsWith('\n'), 60_000);
        expect(JSON.parse(stdout)).toMatchObject({
          decision: 'proceed',
          hooks: [{ name: 'deaf', status: 'ok', exit_code: 0 }],
        });
        // Generous, yet far below the two minutes the connection used to hold the process.
        await waitFor(`\`hookline ${args[0]}\` to exit after answering`, () => exitCode !== undefined, 30_000);
        expect(exitCode).toBe(0);
      } finally {
        child.kill('SIGKILL');
      }
    }
  }, 240_000);

  test('bad [sandbox.docker] settings are config errors with the file and line', async () => {
    scratch.write(
      'hookline.toml',
      `[[hooks]]\nevent = "stage_start"\ncommand = "true"\n\n[sandbox]\nprovider = "docker"\n[sandbox.docker]\nmemory = "lots"\n`,
    );
    const result = await runCli(['validate'], { cwd: scratch.path });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/hookline\.toml:8: \[sandbox\.docker\] `memory` must be a number of bytes or a size/);
  });

  test('sandbox prune reports what it removed and kept', async () => {
    const result = await runCli(['sandbox', 'prune'], { cwd: scratch.path });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^removed \d+ leftover containers?, kept \d+ containers? of live runs\n$/);
  });
});
