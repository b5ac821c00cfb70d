// The script host's entry: scripts/bundle.ts writes dist/script-host.js from it, and the CLI starts it
// detached as `node --no-node-snapshot dist/script-host.js <folder> <key> <runner-script URL>` (see
// start-script-host.ts). It runs script hooks for CLI processes started without that flag.
import process from 'node:process';
import { useBundledCore } from '../use-bundled-core.ts';
import { privateDirectoryProblem } from './host-directory.ts';
import { hostFiles, idleMilliseconds } from './host-files.ts';

useBundledCore(new URL('./core.js', import.meta.url).href);

const [folder, key, runnerUrl] = process.argv.slice(2);
if (folder === undefined || key === undefined || runnerUrl === undefined) {
  process.stderr.write('usage: node --no-node-snapshot script-host.js <folder> <key> <runner-script URL> (the hookline CLI starts this itself)\n');
  process.exit(2);
}
const problem = privateDirectoryProblem(folder);
if (problem !== undefined) {
  process.stderr.write(`script host: not serving: ${problem}\n`);
  process.exit(1);
}
const { scriptRunner } = (await import(runnerUrl)) as typeof import('@hookline/runner-script');
const { serveScripts } = await import('./serve-scripts.ts');
const runner = scriptRunner();
const served = await serveScripts({ files: hostFiles(folder, key), key, runner, idleMs: idleMilliseconds(process.env) });
if (served === 'taken') {
  // Another host started at the same moment and serves this build: this one is not needed.
  process.exit(0);
}
process.stderr.write(`script host ${process.pid} serving (${new Date().toISOString()})\n`);
