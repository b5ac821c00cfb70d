// Shared by the per-agent overhead benchmarks: a hook started as the agent starts it, and the report
// of two contenders' medians with their ratio against the target.
import { spawn } from 'node:child_process';
import { quantile, type Contender } from '../../../scripts/bench-stats.ts';

/** The target of issue 26: a tool call through the bridge costs at most twice the agent's own hook. */
export const TARGET = 2;

/** The same guard everywhere: refuse `rm -rf`, let the rest through. */
export const GUARD = `grep -q 'rm -rf' && { echo 'no rm -rf' >&2; exit 2; } || exit 0`;

/** The guard as one preset agent config, for the bridge. */
export const GUARD_CONFIG = `preset = "agent"\n\n[[hooks]]\nname = "no-rm-rf"\nevent = "pre_tool_use"\ntool_name = "shell"\naction = { type = "shell", command = '''${GUARD}''' }\n`;

/** A hook run as the agent runs it: `bash -c <command>` with the payload on stdin. */
export function hookContender(
  name: string,
  command: string,
  place: { readonly cwd: string; readonly env: Readonly<Record<string, string>> },
  payload: string,
): Contender {
  return {
    name,
    run: () =>
      new Promise((resolve, reject) => {
        const child = spawn('bash', ['-c', command], {
          cwd: place.cwd,
          env: { ...place.env },
          stdio: ['pipe', 'ignore', 'ignore'],
        });
        child.stdin.end(payload);
        child.on('error', reject);
        // Exit 0 is every answer here: the guard lets `ls` through.
        child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`${name} exited ${code}`))));
      }),
  };
}

/** Prints the medians of the two contenders and the ratio of the second to the first. */
export function report(title: string, samples: Map<string, number[]>): void {
  const [baseline, contender] = [...samples.entries()].map(([name, times]) => ({ name, median: quantile(times, 0.5) }));
  const ratio = contender!.median / baseline!.median;
  console.log(
    `  ${title}: ${baseline!.name} ${baseline!.median.toFixed(0)} ms, ${contender!.name} ${contender!.median.toFixed(0)} ms — ${ratio.toFixed(2)}× (target ≤ ${TARGET}×${ratio <= TARGET ? ', met' : ', NOT met'})`,
  );
}
