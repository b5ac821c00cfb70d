import * as v from 'valibot';
import { createHookEngine, loadConfig } from '@hookline/core';
import { defineRunner } from '@hookline/core/plugin';

// A tiny runner: `type = "freeze"` blocks the nodes listed in `nodes`, with a reason.
const freezeRunner = defineRunner({
  name: 'example-freeze-runner',
  types: {
    freeze: {
      options: v.object({ nodes: v.array(v.string()), reason: v.optional(v.string()) }),
      defaultTimeoutMs: 1_000,
      defaultOnError: 'block',
      usesSandbox: false,
      // `hook.options` is typed by the schema above: `nodes` is a string[], `reason` a string or undefined.
      async doRun(hook, call) {
        const frozen = hook.options.nodes.includes(String(call.context['node_id']));
        return frozen
          ? { status: 'ok', decision: { decision: 'block', reason: hook.options.reason ?? 'frozen' } }
          : { status: 'ok', decision: { decision: 'proceed' } };
      },
    },
  },
});

const config = loadConfig(
  [
    {
      source: 'hookline.toml',
      text: `
[[hooks]]
name = "release-freeze"
event = "stage_start"
type = "freeze"
nodes = ["deploy"]
reason = "release freeze until Monday"
`,
    },
  ],
  { runners: [freezeRunner] },
);

const engine = createHookEngine({ config, runners: [freezeRunner] });
for (const node of ['build', 'deploy']) {
  const outcome = await engine.emit('stage_start', { run_id: 'run-1', workflow_name: 'ship', node_id: node });
  console.log(`${node}: ${outcome.decision}${outcome.reason === undefined ? '' : ` (${outcome.reason})`}`);
}
await engine.close();
// build: proceed
// deploy: block (release freeze until Monday)
