// What Hookline costs Gemini CLI: one tool call guarded by the same shell command, run by Gemini CLI
// as its own BeforeTool hook and through `hookline bridge gemini` (installed by `hookline install
// gemini`, config in preset agent). Medians over interleaved rounds, with the ratio (target ≤ 2×):
//   - a whole `gemini -p` run whose model calls run_shell_command once;
//   - the hook alone, as Gemini CLI starts it: `bash -c <entry command>` with the BeforeTool payload.
//
//   pnpm -F @hookline/e2e-agents bench:gemini      (build first: pnpm -F @hookline/cli... build)
//   RUNS=6 HOOK_RUNS=30 pnpm -F @hookline/e2e-agents bench:gemini
import { loadavg } from 'node:os';
import process from 'node:process';
import { measureInterleaved, type Contender } from '../../../scripts/bench-stats.ts';
import { binaryProblem, HOOKLINE, type AgentProject } from '../src/support/agent-project.ts';
import { GEMINI, geminiProject, runGemini } from '../src/support/gemini-cli.ts';
import { startGeminiModel } from '../src/support/gemini-model.ts';
import { GUARD, GUARD_CONFIG, hookContender, report } from './agent-overhead.ts';

const RUNS = Number(process.env['RUNS'] ?? 4);
const HOOK_RUNS = Number(process.env['HOOK_RUNS'] ?? 30);

const problem = binaryProblem(GEMINI);
if (problem !== undefined) {
  console.error(`Gemini CLI cannot run here: ${problem}`);
  process.exit(process.env['HOOKLINE_REQUIRE_GEMINI'] === '1' ? 1 : 0);
}
const model = await startGeminiModel();
const native = geminiProject(model.url, {
  '.gemini/settings.json': JSON.stringify({
    hooks: { BeforeTool: [{ matcher: 'run_shell_command', hooks: [{ type: 'command', command: GUARD }] }] },
  }),
});
const bridged = geminiProject(model.url, { 'hookline.toml': GUARD_CONFIG });
await bridged.hookline('install', 'gemini', '--command', HOOKLINE);
let runs = 0;

const session = (project: AgentProject): Contender => ({
  name: project === native ? "Gemini CLI's own hook" : 'through hookline bridge',
  async run() {
    const id = `bench-${++runs}`;
    const result = await runGemini(project, `Please RUN#${id}<<ls>>`);
    if (result.exitCode !== 0 || model.requests(id).length !== 2)
      throw new Error(`the run failed: ${result.stderr || result.stdout}`);
  },
});
const payload = JSON.stringify({
  session_id: 'bench',
  transcript_path: '',
  cwd: bridged.dir,
  hook_event_name: 'BeforeTool',
  timestamp: new Date(0).toISOString(),
  tool_name: 'run_shell_command',
  tool_input: { command: 'ls' },
});
const place = { cwd: bridged.dir, env: bridged.env };

try {
  const sessions = await measureInterleaved([session(native), session(bridged)], { rounds: RUNS, warmup: 1 });
  const hooks = await measureInterleaved(
    [
      hookContender('the command as its own hook', GUARD, place, payload),
      hookContender('hookline bridge gemini', `${HOOKLINE} bridge gemini`, place, payload),
    ],
    { rounds: HOOK_RUNS, warmup: 3 },
  );
  console.log(
    `Gemini CLI tool call overhead (medians; load average ${loadavg()[0]!.toFixed(2)}, ${RUNS}/${HOOK_RUNS} rounds)`,
  );
  report('a whole gemini -p run with one shell call', sessions);
  report('the BeforeTool hook alone', hooks);
} finally {
  await model.close();
  native.remove();
  bridged.remove();
}
