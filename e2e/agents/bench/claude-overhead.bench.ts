// What Hookline costs Claude Code: one tool call guarded by the same shell command, run by Claude
// Code as its own hook and through `hookline bridge claude` (installed by `hookline install claude`,
// config in preset agent). Medians over interleaved rounds, printed with the ratio (target ≤ 2×):
//   - a whole `claude -p` run whose model calls Bash once (the agent's own work included);
//   - the hook alone, as Claude Code starts it: `bash -c <entry command>` with the PreToolUse payload.
//
//   pnpm -F @hookline/e2e-agents bench       (build first: pnpm -F @hookline/cli... build)
//   RUNS=10 HOOK_RUNS=40 pnpm -F @hookline/e2e-agents bench
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import process from 'node:process';
import { measureInterleaved, quantile, type Contender } from '../../../scripts/bench-stats.ts';
import { claudeProblem, claudeProject, HOOKLINE, runClaude, type ClaudeProject } from '../src/support/claude-code.ts';
import { startMockAnthropic } from '../src/support/mock-anthropic.ts';

const RUNS = Number(process.env['RUNS'] ?? 6);
const HOOK_RUNS = Number(process.env['HOOK_RUNS'] ?? 30);
const TARGET = 2;
const GUARD = `grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; } || exit 0`;

const problem = claudeProblem();
if (problem !== undefined) {
  console.error(`Claude Code cannot run here: ${problem}`);
  process.exit(process.env['HOOKLINE_REQUIRE_CLAUDE'] === '1' ? 1 : 0);
}
const mock = await startMockAnthropic();
const native = claudeProject(mock.url, {
  '.claude/settings.json': JSON.stringify({
    hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: GUARD }] }] },
  }),
});
const bridged = claudeProject(mock.url, {
  'hookline.toml': `preset = "agent"\n\n[[hooks]]\nname = "no-rm-rf"\nevent = "pre_tool_use"\ntool_name = "shell"\naction = { type = "shell", command = '''${GUARD}''' }\n`,
});
await bridged.hookline('install', 'claude', '--command', HOOKLINE);
const entry = `${HOOKLINE} bridge claude`;

const session = (project: ClaudeProject): Contender => ({
  name: project === native ? "Claude Code's own hook" : 'through hookline bridge',
  async run() {
    const key = mock.scenario({ command: 'ls' });
    const result = await runClaude(project, `Run the command for ${key}.`);
    if (result.exitCode !== 0 || mock.requests(key).length !== 2)
      throw new Error(`the run failed: ${result.stderr || result.stdout}`);
  },
});
const payload = JSON.stringify({
  hook_event_name: 'PreToolUse',
  session_id: 'bench',
  cwd: bridged.dir,
  tool_name: 'Bash',
  tool_input: { command: 'ls' },
});
const hook = (name: string, command: string): Contender => ({
  name,
  run: () =>
    new Promise((resolve, reject) => {
      const child = spawn('bash', ['-c', command], {
        cwd: bridged.dir,
        env: bridged.env,
        stdio: ['pipe', 'ignore', 'ignore'],
      });
      child.stdin.end(payload);
      child.on('error', reject);
      child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${name} exited ${code}`))));
    }),
});

try {
  const sessions = await measureInterleaved([session(native), session(bridged)], { rounds: RUNS, warmup: 1 });
  const hooks = await measureInterleaved(
    [hook('the command as its own hook', GUARD), hook('hookline bridge claude', entry)],
    {
      rounds: HOOK_RUNS,
      warmup: 3,
    },
  );
  console.log(
    `Claude Code tool call overhead (medians; load average ${loadavg()[0]!.toFixed(2)}, ${RUNS}/${HOOK_RUNS} rounds)`,
  );
  report('a whole claude -p run with one Bash call', sessions);
  report('the PreToolUse hook alone', hooks);
} finally {
  await mock.close();
  native.remove();
  bridged.remove();
}

function report(title: string, samples: Map<string, number[]>): void {
  const [baseline, contender] = [...samples.entries()].map(([name, times]) => ({ name, median: quantile(times, 0.5) }));
  const ratio = contender!.median / baseline!.median;
  console.log(
    `  ${title}: ${baseline!.name} ${baseline!.median.toFixed(0)} ms, ${contender!.name} ${contender!.median.toFixed(0)} ms — ${ratio.toFixed(2)}× (target ≤ ${TARGET}×${ratio <= TARGET ? ', met' : ', NOT met'})`,
  );
}
