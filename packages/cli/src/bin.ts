#!/usr/bin/env node
// The `hookline` executable. It stays small on purpose: the Node version is checked and the compile
// cache switched on before anything else loads, and each command's module (and through it core and
// the runners) is imported only when that command runs — `hookline emit` startup time is mostly
// module loading.
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { nodeVersionProblem } from './node-version-problem.ts';

// Before anything that an old Node cannot load: one clear line instead of a crash inside a dependency.
const versionProblem = nodeVersionProblem();
if (versionProblem !== undefined) {
  process.stderr.write(`${versionProblem}\n`);
  process.exit(1);
}
const cache = module.enableCompileCache?.(compileCacheDirectory());
// `hookline list | head -1`: a reader that goes away early is not a crash. Later writes are dropped.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EPIPE') throw error;
});
const { main } = await importCompiledWhole();
process.exitCode = await main(process.argv.slice(2));

/**
 * Where compiled code is cached; undefined for Node's default (NODE_COMPILE_CACHE, else
 * <tmp>/node-compile-cache). A Node started with --no-node-snapshot (the CLI runs itself again with it
 * for script hooks) cannot use code cached by one started from Node's snapshot, nor the other way
 * round: V8 rejects it, and the process writes its own over it. In one folder, every command after a
 * script-hook run would compile the CLI again, and the next script-hook run too; so each kind of
 * process has its own.
 */
function compileCacheDirectory(): string | undefined {
  const flags = [...process.execArgv, ...(process.env['NODE_OPTIONS'] ?? '').split(/\s+/)];
  if (!flags.includes('--no-node-snapshot')) return undefined;
  return join(process.env['NODE_COMPILE_CACHE'] || join(tmpdir(), 'node-compile-cache'), 'without-node-snapshot');
}

/**
 * Imports the rest of the CLI, compiled whole when the compile cache keeps what is compiled. Node's
 * compile cache holds the code V8 compiled when the module was first compiled, and V8 compiles a
 * function only when it is first called: without this, every run compiled again the hundreds of
 * functions a command calls (the biggest part of `emit`'s own CPU time). Compiled whole, they are all
 * in the cache. The flag only applies to compiling; it is set back as soon as the modules are in.
 * Without a cache (NODE_DISABLE_COMPILE_CACHE, a folder that cannot be written) compiling everything
 * at each start would cost more than it saves, so the modules are then compiled the usual way.
 */
async function importCompiledWhole(): Promise<typeof import('./main.ts')> {
  const cached =
    cache?.status === module.constants.compileCacheStatus.ENABLED ||
    cache?.status === module.constants.compileCacheStatus.ALREADY_ENABLED;
  if (!cached) return import('./main.ts');
  const v8 = process.getBuiltinModule('node:v8');
  v8.setFlagsFromString('--no-lazy');
  try {
    return await import('./main.ts');
  } finally {
    v8.setFlagsFromString('--lazy');
  }
}
