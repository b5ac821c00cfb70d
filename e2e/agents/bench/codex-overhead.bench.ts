// What Hookline costs Codex: one tool call guarded by the same shell command, run by Codex as its own
// PreToolUse hook and through `hookline bridge codex` (installed by `hookline install codex`, config in
// preset agent). Medians over interleaved rounds, with the ratio (target ≤ 2×):
//   - a whole `codex exec` run whose model calls its shell tool once;
//   - the hook alone, as Codex starts it: `bash -c <entry command>` with the PreToolUse payload.
//
//   pnpm -F @hookline/e2e-agents bench:codex       (build first: pnpm -F @hookline/cli... build)
//   RUNS=10 HOOK_RUNS=30 pnpm -F @hookline/e2e-agents bench:codex
import { loadavg } from 'node:os';
import process from 'node:process';
import { measureInterleaved, type Contender } from '../../../scripts/bench-stats.ts';
import { binaryProblem, HOOKLINE, type AgentProject } from '../src/support/agent-project.ts';
import { CODEX, codexProject, runCodex } from '../src/support/codex.ts';
import { startCodexModel } from '../src/support/codex-model.ts';
import { GUARD, GUARD_CONFIG, hookContender, report } from './agent-overhead.ts';

const RUNS = Number(process.env['RUNS'] ?? 8);
const HOOK_RUNS = Number(process.env['HOOK_RUNS'] ?? 30);

const problem = binaryProblem(CODEX);
if (problem !== undefined) {
  console.error(`Codex cannot run here: ${problem}`);
  process.exit(process.env['HOOKLINE_REQUIRE_CODEX'] === '1' ? 1 : 0);
}
const model = await startCodexModel();
const native = codexProject(model.url, {
  '.codex/hooks.json': JSON.stringify({
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: GUARD }] }] },
  }),
});
const bridged = codexProject(model.url, { 'hookline.toml': GUARD_CONFIG });
await bridged.hookline('install', 'codex', '--command', HOOKLINE);
let runs = 0;

const session = (project: AgentProject): Contender => ({
  name: project === native ? "Codex's own hook" : 'through hookline bridge',
  async run() {
    const id = `bench-${++runs}`;
    const result = await runCodex(project, `Please RUN#${id}<<ls>>`);
    if (result.exitCode !== 0 || model.requests(id).length !== 2)
      throw new Error(`the run failed: ${result.stderr || result.stdout}`);
  },
});
const payload = JSON.stringify({
  session_id: 'bench',
  turn_id: 'bench',
  transcript_path: '',
  cwd: bridged.dir,
  hook_event_name: 'PreToolUse',
  model: 'gpt-5',
  permission_mode: 'bypassPermissions',
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
  tool_use_id: 'call_bench',
});
const place = { cwd: bridged.dir, env: bridged.env };

try {
  const sessions = await measureInterleaved([session(native), session(bridged)], { rounds: RUNS, warmup: 1 });
  const hooks = await measureInterleaved(
    [
      hookContender('the command as its own hook', GUARD, place, payload),
      hookContender('hookline bridge codex', `${HOOKLINE} bridge codex`, place, payload),
    ],
    { rounds: HOOK_RUNS, warmup: 3 },
  );
  console.log(
    `Codex tool call overhead (medians; load average ${loadavg()[0]!.toFixed(2)}, ${RUNS}/${HOOK_RUNS} rounds)`,
  );
  report('a whole codex exec run with one shell call', sessions);
  report('the PreToolUse hook alone', hooks);
} finally {
  await model.close();
  native.remove();
  bridged.remove();
}
