// The checks half of `pnpm test` (after the build), in two turbo runs side by side. The CLI's suite is the
// longest by far (its tests start the real CLI hundreds of times), and in a single turbo run it starts
// last: every package is its dependency, so turbo reaches it only when a slot frees after the others'
// tasks. Started at once in a lane of its own, it runs beside everything else instead of after it.
// Exits with the first failing lane's code, after both lanes ended (`--continue`: every failure shown).
import { spawn } from 'node:child_process';
import process from 'node:process';

const common = ['--continue', '--output-logs=full'];
const lanes: ReadonlyArray<readonly string[]> = [
  ['run', 'test', 'typecheck', 'lint', '--filter=@hookline/cli', '--only', '--concurrency=3', ...common],
  [
    'run',
    'typecheck',
    'lint',
    'lint:eslint',
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
