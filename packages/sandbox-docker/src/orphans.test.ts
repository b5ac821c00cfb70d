// Containers of a Hookline process that was killed are found by their labels and removed.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { containersOfRun, freshRunId, testSandbox } from '../test-support/docker-harness.ts';
import { probeDocker, reportDockerProbe, TEST_IMAGE } from '../test-support/docker-probe.ts';
import { pruneDockerSandboxes } from './prune-docker-sandboxes.ts';

const probe = await probeDocker();
reportDockerProbe(probe, 'orphans.test.ts');

const ownerScript = fileURLToPath(new URL('../test-support/orphan-owner.ts', import.meta.url));

/** Starts a Hookline process that opens a session for `runId` and runs a hook in it, then kills it with SIGKILL. */
async function orphanContainer(runId: string): Promise<string> {
  const child = spawn(process.execPath, [ownerScript, runId, TEST_IMAGE], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.setEncoding('utf8');
  const ready = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      const match = /ready (\w+)/.exec(output);
      if (match !== null) resolve(match[1]!);
    });
    child.once('exit', (code) => reject(new Error(`the owner process exited early (${String(code)}): ${output}`)));
  });
  const containerId = await ready;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
  return containerId;
}

describe.skipIf(!probe.available)('orphaned containers', () => {
  test('kill -9 of the owner mid-run leaves its container; the next provider start removes it', async () => {
    const runId = freshRunId('orphan');
    const containerId = await orphanContainer(runId);
    const [left] = await containersOfRun(runId);
    expect(left?.Id).toBe(containerId);
    expect(left?.State).toBe('running');

    const warnings: string[] = [];
    const provider = testSandbox({ onWarning: (message) => warnings.push(message) });
    const session = await provider.doOpen(freshRunId('next'), new AbortController().signal);
    try {
      expect(await containersOfRun(runId)).toEqual([]);
      expect(
        warnings.some((warning) =>
          /removed \d+ container\(s\) left by Hookline processes that are gone: .*hookline-orphan-/.test(warning),
        ),
      ).toBe(true);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });

  test('pruneDockerSandboxes removes the containers of dead owners and keeps those of live ones', async () => {
    const deadRun = freshRunId('orphan');
    const deadContainer = await orphanContainer(deadRun);
    const provider = testSandbox({ pruneOrphans: false });
    const liveRun = freshRunId('live');
    const session = await provider.doOpen(liveRun, new AbortController().signal);
    try {
      const report = await pruneDockerSandboxes();
      expect(report.removed.map((found) => found.id)).toContain(deadContainer);
      expect(report.removed.find((found) => found.id === deadContainer)).toMatchObject({
        runId: deadRun,
        ownerState: 'gone',
      });
      expect(report.kept.map((found) => found.id)).toContain(session.container.containerId);
      expect(report.failed).toEqual([]);
      expect(await containersOfRun(deadRun)).toEqual([]);
      expect(await containersOfRun(liveRun)).toHaveLength(1);
    } finally {
      await session.dispose();
      await provider.doClose();
    }
  });
});
