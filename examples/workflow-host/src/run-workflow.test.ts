import { createHookEngine, loadConfig } from '@hookline/core';
import { scriptedRunner } from '@hookline/core/testing';
import { expect, test } from 'vitest';
import { runWorkflow, type FlowStep } from './run-workflow.ts';
import { shipWorkflow } from './workflow.ts';

// The host's obedience, with scripted hooks instead of shell scripts: every decision kind changes the flow.
test('the host skips, re-routes and stops as the hooks decide', async () => {
  const runner = scriptedRunner();
  const config = loadConfig(
    [
      {
        source: 'inline.toml',
        text: `
[[hooks]]
name = "skip-build"
event = "stage_start"
matcher = "^build$"
type = "scripted"
decision = "skip"

[[hooks]]
name = "reroute"
event = "edge_selected"
matcher = "^deploy$"
type = "scripted"
decision = "override"
edge_to = "fix"
`,
      },
    ],
    { runners: [runner] },
  );
  const engine = createHookEngine({ config, runners: [runner] });
  const steps: FlowStep[] = [];
  // The override always points back to fix, so only the host's stage limit ends this run.
  const result = await runWorkflow(engine, shipWorkflow, {
    runId: 'r1',
    cwd: process.cwd(),
    onStep: (step) => void steps.push(step),
  });
  await engine.close();
  expect(result.path.slice(0, 5)).toEqual(['plan', 'build (skipped)', 'test', 'fix', 'test']);
  expect(result.path.length).toBe(20);
  expect(result.status).toBe('failed');
  expect(steps.at(-1)).toMatchObject({
    kind: 'end',
    event: 'run_failed',
    reason: 'stopped after 20 stages: the edges loop',
  });
});
