#!/usr/bin/env node
// The `hookline` executable. It stays small on purpose: the Node version is checked and the compile
// cache switched on before anything else loads, and each command's module (and through it core and
// the runners) is imported only when that command runs — `hookline emit` startup time is mostly
// module loading.
import module from 'node:module';
import process from 'node:process';
import { nodeVersionProblem } from './node-version-problem.ts';

// Before anything that an old Node cannot load: one clear line instead of a crash inside a dependency.
const versionProblem = nodeVersionProblem();
if (versionProblem !== undefined) {
  process.stderr.write(`${versionProblem}\n`);
  process.exit(1);
}
module.enableCompileCache?.();
// `hookline list | head -1`: a reader that goes away early is not a crash. Later writes are dropped.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
