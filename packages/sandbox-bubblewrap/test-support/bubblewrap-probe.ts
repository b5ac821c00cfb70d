import { spawnSync } from 'node:child_process';
import process from 'node:process';
import { test } from 'vitest';

/**
 * Whether these tests may skip without a working bwrap: not in CI (CI=true), and not when asked to
 * insist (HOOKLINE_REQUIRE_BUBBLEWRAP=1, which `.ci/run` sets).
 */
export const bubblewrapRequired = process.env['CI'] === 'true' || process.env['HOOKLINE_REQUIRE_BUBBLEWRAP'] === '1';

/** Why bwrap cannot make a sandbox here, or `undefined` when it can: one real sandbox running `true`. */
export function bubblewrapProblem(): string | undefined {
  const probe = spawnSync(
    'bwrap',
    ['--unshare-all', '--die-with-parent', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', '--', 'true'],
    { encoding: 'utf8' },
  );
  if (probe.error !== undefined)
    return `bwrap cannot be started (${probe.error.message}); install Debian's bubblewrap package`;
  if (probe.status !== 0) return `bwrap cannot make a sandbox here: ${probe.stderr.trim() || `exit ${probe.status}`}`;
  return undefined;
}

/**
 * Says why the bubblewrap tests of a file do not run. Under CI=true or HOOKLINE_REQUIRE_BUBBLEWRAP=1 it
 * registers a failing test instead, so a host without bwrap can never look like a green run.
 */
export function reportBubblewrapProblem(problem: string | undefined, file: string): void {
  if (problem === undefined) return;
  if (bubblewrapRequired) {
    test('bwrap can make sandboxes (required: CI=true or HOOKLINE_REQUIRE_BUBBLEWRAP=1)', () => {
      throw new Error(`bubblewrap is required for these tests but not usable: ${problem}`);
    });
    return;
  }
  console.warn(`[${file}] bubblewrap is not usable, so its tests are skipped: ${problem}`);
}
