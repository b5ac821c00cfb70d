// The script host's entry (dist/script-host/script-host.js). open-script-host.ts starts it detached as
// `node --no-node-snapshot script-host.js <folder> <key> [<core URL>]`; it runs script hooks for
// programs (the hookline CLI) started without that flag. Only modules that do not import
// `@hookline/core` are imported statically: core's module is chosen first.
import { hostFiles, idleMilliseconds, privateDirectoryProblem } from './host-files.ts';

// Built-in modules through process.getBuiltinModule (as the CLI's bundle does): a CLI waits for this start.
const module = process.getBuiltinModule('node:module');

const [folder, key, coreUrl] = process.argv.slice(2);
if (folder === undefined || key === undefined) {
  process.stderr.write(
    'usage: node --no-node-snapshot script-host.js <folder> <key> [<core URL>] (the hookline CLI starts this itself)\n',
  );
  process.exit(2);
}
if (coreUrl !== undefined) {
  // The calling program's own copy of core (the CLI's bundle, which exports both entries): the host runs the same core it does,
  // and does not load the ≈ 100 modules of the installed package. registerHooks: Node ≥ 22.15.
  module.registerHooks?.({
    resolve: (specifier, context, nextResolve) =>
      specifier === '@hookline/core' || specifier === '@hookline/core/plugin'
        ? { url: coreUrl, shortCircuit: true }
        : nextResolve(specifier, context),
  });
}
const problem = privateDirectoryProblem(folder);
if (problem !== undefined) {
  process.stderr.write(`script host: not serving: ${problem}\n`);
  process.exit(1);
}
const { scriptRunner } = await import('../script-runner.ts');
const { serveScripts } = await import('./serve-scripts.ts');
const runner = scriptRunner();
const served = await serveScripts({
  files: hostFiles(folder, key),
  key,
  runner,
  idleMs: idleMilliseconds(process.env),
});
if (served === 'taken') {
  // Another host started at the same moment and serves this build: this one is not needed.
  process.exit(0);
}
process.stderr.write(`script host ${process.pid} serving (${new Date().toISOString()})\n`);
