import process from 'node:process';
import { test } from 'vitest';
import { messageOf } from '@hookline/core';
import { connectDocker } from '../src/connect-docker.ts';

/** The image the tests run hooks in; `scripts/build-test-image.sh` at the repository root builds it. */
export const TEST_IMAGE = process.env['HOOKLINE_TEST_IMAGE'] ?? 'hookline-test/busybox';

/** Whether these tests may skip without Docker: not in CI, and not when asked to insist. */
const required = process.env['CI'] === 'true' || process.env['HOOKLINE_REQUIRE_DOCKER'] === '1';

/** What a real probe of the engine found. */
export interface DockerProbe {
  readonly available: boolean;
  /** Why the Docker tests cannot run, when they cannot. */
  readonly reason: string;
}

let probed: Promise<DockerProbe> | undefined;

/** Pings the engine and looks up {@link TEST_IMAGE}, once per test file. */
export function probeDocker(): Promise<DockerProbe> {
  probed ??= (async () => {
    try {
      const { docker } = await connectDocker(undefined);
      try {
        await docker.getImage(TEST_IMAGE).inspect();
      } catch {
        return {
          available: false,
          reason: `the test image ${TEST_IMAGE} is missing: build it with scripts/build-test-image.sh (repository root)`,
        };
      }
      return { available: true, reason: '' };
    } catch (error) {
      return { available: false, reason: messageOf(error) };
    }
  })();
  return probed;
}

/**
 * Says why the Docker tests of this file do not run. In CI (or with HOOKLINE_REQUIRE_DOCKER=1) it
 * registers a failing test instead, so a missing engine can never look like a green run.
 */
export function reportDockerProbe(probe: DockerProbe, file: string): void {
  if (probe.available) return;
  if (required) {
    test('a Docker engine and the test image are available (required: CI=true or HOOKLINE_REQUIRE_DOCKER=1)', () => {
      throw new Error(`Docker is required for these tests but not usable: ${probe.reason}`);
    });
    return;
  }
  console.warn(`[${file}] Docker is not available, so its Docker tests are skipped: ${probe.reason}`);
}
