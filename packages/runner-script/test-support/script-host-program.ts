// A program that runs script hooks as the hookline CLI does, in miniature, for the script host's
// tests here (runner-script must not import the CLI): started without --no-node-snapshot, it asks
// where script hooks run, sends them to the script host, or restarts itself with the flag. It prints
// one JSON line: where the hook ran, this process's flags and the outcome.
//
//   node test-support/script-host-program.ts '<script>'     (env: HOOKLINE_SCRIPT_HOST*, TEST_BUILD_ID)
import process from 'node:process';
import { createHookEngine, loadConfig } from '@hookline/core';
import { scriptRunner } from '@hookline/runner-script';
import { NodeFlagsRequired, scriptHookProcess, withScriptHost } from '@hookline/runner-script/script-host';

const script = process.argv[2] ?? 'return true';
try {
  const where = scriptHookProcess(process.env);
  const local = scriptRunner();
  const config = loadConfig(
    [
      {
        text: `[[hooks]]\nname = "check"\nevent = "stage_start"\ntype = "script"\nscript = ${JSON.stringify(script)}\n`,
        source: 'hookline.toml',
      },
    ],
    { runners: [local] },
  );
  const buildId = process.env['TEST_BUILD_ID'];
  const runners =
    where === 'script-host'
      ? await withScriptHost([local], {
          env: process.env,
          cwd: process.cwd(),
          build: buildId === undefined ? undefined : { id: buildId },
        })
      : [local];
  const engine = createHookEngine({ config, runners });
  const outcome = await (await engine.emit('stage_start', { run_id: 'r', workflow_name: 'w', node_id: 'n' })).settled;
  await engine.close();
  process.stdout.write(
    `${JSON.stringify({ where, execArgv: process.execArgv, decision: outcome.decision, hooks: outcome.hooks })}\n`,
  );
} catch (error) {
  if (!NodeFlagsRequired.isInstance(error)) throw error;
  process.stderr.write(
    `restarting with ${error.flags.join(' ')} (${error.code})${error.note === undefined ? '' : `: ${error.note}`}\n`,
  );
  process.exitCode = await error.restart(process.argv.slice(2));
}
