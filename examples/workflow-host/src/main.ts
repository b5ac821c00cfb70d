// The 30-second tour `pnpm start` runs: a workflow host using Hookline as a library — the command
// runner and the local sandbox, no Docker, no API key — with the hookline.toml beside this folder.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { createHookEngine, loadConfig } from '@hookline/core';
import { commandRunner, localSandbox } from '@hookline/runner-command';
import { formatStep } from './format-step.ts';
import { runWorkflow } from './run-workflow.ts';
import { shipWorkflow } from './workflow.ts';

const folder = fileURLToPath(new URL('..', import.meta.url));
const configPath = join(folder, 'hookline.toml');
// The notification hook appends to this file; its env_passthrough lets the variable into the local sandbox.
const scratch = mkdtempSync(join(tmpdir(), 'hookline-demo-'));
const outbox = join(scratch, 'outbox.txt');
process.env['DEMO_OUTBOX'] = outbox;
const readOutbox = (): string[] => {
  try {
    return readFileSync(outbox, 'utf8')
      .split('\n')
      .filter((line) => line !== '');
  } catch {
    return [];
  }
};

const runners = [commandRunner()];
const config = loadConfig(
  [{ source: relative(process.cwd(), configPath) || 'hookline.toml', text: readFileSync(configPath, 'utf8') }],
  { runners },
);
const engine = createHookEngine({ config, runners, sandbox: localSandbox() });

console.log(`Hookline demo: workflow "${shipWorkflow.name}" — plan → build → test → deploy`);
console.log(
  `${config.hooks.length} hooks from ${relative(process.cwd(), configPath)} (shell scripts, local sandbox)\n`,
);
try {
  const result = await runWorkflow(engine, shipWorkflow, {
    runId: 'demo-1',
    cwd: folder,
    onStep: (step) => {
      const line = formatStep(step, readOutbox);
      if (line !== undefined && line !== '') console.log(line);
    },
  });
  console.log(`\nflow: ${result.path.join(' → ')}  ${result.status === 'complete' ? '✓ complete' : '✗ failed'}`);
  console.log('\nWhy did a hook fire (or not)? Ask without running anything:');
  console.log(
    '  pnpm exec hookline explain stage_start --config examples/workflow-host/hookline.toml --set node_id=deploy',
  );
} finally {
  await engine.close();
  rmSync(scratch, { recursive: true, force: true });
}
