// The checks half of `pnpm test` (after the build), in three turbo runs side by side. The longest tasks
// are the CLI's suite (it starts the real CLI hundreds of times), the real coding agents' end-to-end
// suite and the repository's one ESLint run (it type-checks every package for its rules). In a single
// turbo run they start late: the CLI and the agents' suite depend on every package, so turbo reaches
// them only when slots free after the others' tasks, and it schedules root tasks such as `lint:eslint`
// after most package tasks; the run then ends with them alone on a machine that is otherwise idle.
// Started at once in lanes of their own, they run beside everything else instead of after it.
// Exits with the first failing lane's code, after every lane ended (`--continue`: every failure shown).
import { spawn } from 'node:child_process';
import process from 'node:process';

const common = ['--continue', '--output-logs=full'];
const LONG_SUITES = ['@hookline/cli', '@hookline/e2e-agents'];
const lanes: ReadonlyArray<readonly string[]> = [
  [
    'run',
    'test',
    'typecheck',
    'lint',
    ...LONG_SUITES.map((name) => `--filter=${name}`),
    '--only',
    '--concurrency=3',
    ...common,
  ],
  ['run', 'lint:eslint', '--filter=//', '--only', ...common],
  [
    'run',
    'typecheck',
    'lint',
    'format:check',
    'schema:check',
    'test:repo',
    'test',
    'test:deno',
    ...LONG_SUITES.map((name) => `--filter=!${name}`),
    '--concurrency=3',
    ...common,
  ],
];

const codes = await Promise.all(
  lanes.map(
    (args) =>
      new Promise<number>((resolve) => {
        const turbo = spawn('turbo', args, { stdio: 'inherit' });
        turbo.on('error', (error) => {
          console.error(`turbo ${args.join(' ')} could not start: ${error.message}`);
          resolve(1);
        });
        turbo.on('close', (code, signal) => resolve(code ?? (signal === null ? 1 : 128)));
      }),
  ),
);
process.exitCode = codes.find((code) => code !== 0) ?? 0;
