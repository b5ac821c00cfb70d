import { createHookEngine, loadConfig } from '@hookline/core';
import { scriptRunner } from '@hookline/runner-script';

const text = `
[[hooks]]
name = "release-freeze"
event = "stage_start"
type = "script"
script = """
const frozen = ['deploy', 'migrate'];
if (frozen.includes(context.node_id)) {
  return { decision: 'block', reason: context.node_id + ' is frozen until Monday' };
}
"""

[[hooks]]
name = "runaway"
event = "stage_start"
type = "script"
script = "while (true) {}"
timeout_ms = 200
on_error = "proceed"
`;

const runners = [scriptRunner()];
const config = loadConfig([{ text, source: 'hookline.toml' }], { runners });
const engine = createHookEngine({ config, runners });
for (const node of ['build', 'deploy']) {
  const outcome = await engine.emit('stage_start', { run_id: 'run-1', workflow_name: 'ship', node_id: node });
  const reason = outcome.reason === undefined ? '' : ` (${outcome.reason})`;
  console.log(
    `${node}: ${outcome.decision}${reason}; ${outcome.hooks.map((hook) => `${hook.name} ${hook.status}`).join(', ')}`,
  );
}
await engine.close();
// build: proceed; release-freeze ok, runaway timed_out
// deploy: block (deploy is frozen until Monday); release-freeze ok, runaway skipped
