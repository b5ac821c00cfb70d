// The checks half of `pnpm test` (after the build), in three turbo runs side by side. The CLI's suite
// and the repository's one ESLint run are the longest tasks by far (the CLI's tests start the real CLI
// hundreds of times; ESLint type-checks every package for its rules), and a single turbo run starts
// them late: every package is the CLI's dependency, so turbo reaches it only when a slot frees after
// the others' tasks, and it schedules root tasks such as `lint:eslint` after most package tasks.
// Started at once, each in a lane of its own, they run beside everything else instead of after it.
// Exits with the first failing lane's code, after every lane ended (`--continue`: every failure shown).
import { spawn } from 'node:child_process';
import process from 'node:process';

const common = ['--continue', '--output-logs=full'];
const lanes: ReadonlyArray<readonly string[]> = [
  ['run', 'test', 'typecheck', 'lint', '--filter=@hookline/cli', '--only', '--concurrency=3', ...common],
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
    '--filter=!@hookline/cli',
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
