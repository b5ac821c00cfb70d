import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

const run = promisify(execFile);
const main = fileURLToPath(new URL('./main.ts', import.meta.url));

test('the demo shows a skip, an override, a block with its reason and a non-blocking notification', async () => {
  const { stdout } = await run(process.execPath, [main], { env: { ...process.env, NO_COLOR: '1' } });
  const lines = stdout.split('\n');
  const line = (pattern: RegExp): string | undefined => lines.find((text) => pattern.test(text));
  expect(line(/stage_start\s+build\s+skip\s+skip-cached: build cache is fresh/)).toBeDefined();
  expect(line(/edge_selected\s+test→deploy\s+override → fix\s+route-failures: tests are failing/)).toBeDefined();
  expect(line(/stage_start\s+deploy\s+block\s+change-freeze: production deploys are frozen/)).toBeDefined();
  expect(
    line(
      /run_failed\s+notify-team \(non-blocking\)\s+sent “run demo-1 of ship failed: deploy blocked by change-freeze”/,
    ),
  ).toBeDefined();
  expect(stdout).toContain('flow: plan → build (skipped) → test → fix → test → deploy (blocked)  ✗ failed');
  // A 30-second tour: short.
  expect(lines.length).toBeLessThan(25);
});
