import { cpSync, mkdirSync, readFileSync, realpathSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));

/**
 * Installs the built CLI into `<folder>/node_modules/@hookline/cli` as `npm install @hookline/cli`
 * leaves it when none of its optional peers (runner-http, runner-llm, runner-script, sandbox-docker)
 * is installed: the package's own files are copied — so Node resolves its imports from there, not
 * from the workspace, whose devDependencies include every runner — and only its `dependencies` are
 * linked next to it. Returns the path of its `bin` script, for `runCli`'s `cli` option.
 *
 * What such a user meets is then real: a config using `http` gets core's "install
 * @hookline/runner-http"; a runner package installed in `<folder>` is found by the CLI's own
 * resolution, as it would be in their project.
 */
export function installCliAlone(folder: string): string {
  const target = join(folder, 'node_modules', '@hookline', 'cli');
  mkdirSync(target, { recursive: true });
  for (const entry of ['package.json', 'bin', 'dist'])
    cpSync(join(PACKAGE, entry), join(target, entry), { recursive: true });
  const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
    dependencies?: Record<string, string>;
  };
  for (const name of Object.keys(manifest.dependencies ?? {})) linkPackage(folder, name);
  return join(target, 'bin', 'hookline.js');
}

/** Links one of the workspace's installed packages (as the CLI sees it) into `<folder>/node_modules`. */
export function linkPackage(folder: string, name: string): void {
  const link = join(folder, 'node_modules', name);
  mkdirSync(dirname(link), { recursive: true });
  symlinkSync(realpathSync(join(PACKAGE, 'node_modules', name)), link, 'dir');
}
