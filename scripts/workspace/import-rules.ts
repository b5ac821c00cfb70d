import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { layerOf } from './package-layers.ts';
import { codeFiles, isTestCode, specifiersOf } from './source-files.ts';
import type { WorkspacePackage } from './workspace-packages.ts';

// The rules, checked for every import of another workspace package (by name, or by a relative path
// that reaches into its folder):
//
// 1. It is declared in the importing package's package.json.
// 2. A package's own code (src/, not its tests) imports only packages of a lower layer, declared as a
//    dependency or peer dependency — what users install with it.
// 3. Test code (tests, test-support/, bench/, examples/, scripts/) may import a package of its own or
//    a higher layer only as a declared test helper: a devDependency that is not also a dependency or
//    peer dependency. Only test code can reach it, and it never ships.
//
// A private package (examples/*, docs) is a consumer above every layer and ships nothing: rule 1 only.
// Root scripts/ (benchmark statistics, the test database server) are repository tooling, open to tests.

/** One import that breaks a rule, as a sentence that says what to do. */
export interface ImportProblem {
  readonly file: string;
  readonly message: string;
}

/** The workspace package whose folder holds `path`, if any. */
function packageAt(path: string, packages: ReadonlyMap<string, WorkspacePackage>): string | undefined {
  for (const [name, { dir }] of packages) if (path === dir || path.startsWith(`${dir}${sep}`)) return name;
  return undefined;
}

/** The workspace package an import names: `@hookline/core/testing` → `@hookline/core`; a relative path into another package's folder → that package. */
export function importedPackage(
  specifier: string,
  fromFile: string,
  packages: ReadonlyMap<string, WorkspacePackage>,
): string | undefined {
  if (/^\.{1,2}\//.test(specifier)) return packageAt(resolve(dirname(fromFile), specifier), packages);
  const name = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
  return packages.has(name) ? name : undefined;
}

/** Every broken rule in the imports of package `name`. */
export function importProblems(
  name: string,
  packages: ReadonlyMap<string, WorkspacePackage>,
  root: string,
): ImportProblem[] {
  const own = packages.get(name)!;
  const { dependencies = {}, peerDependencies = {}, devDependencies = {} } = own.manifest;
  const installed = (target: string): boolean =>
    Object.hasOwn(dependencies, target) || Object.hasOwn(peerDependencies, target);
  const layer = layerOf(name);
  const problems: ImportProblem[] = [];
  for (const file of codeFiles(own.dir)) {
    const path = join(own.dir, file);
    const shown = relative(root, path).split(sep).join('/');
    // Code of a private package never ships: held to rule 1 alone, as test code is.
    const test = own.manifest.private === true || isTestCode(file);
    for (const specifier of specifiersOf(readFileSync(path, 'utf8'))) {
      const target = importedPackage(specifier, path, packages);
      if (target === undefined || target === name) continue;
      const where = `${shown} imports ${target} (${JSON.stringify(specifier)})`;
      const higher = layerOf(target) >= layer;
      if (!installed(target) && !Object.hasOwn(devDependencies, target)) {
        problems.push({
          file: shown,
          message: `${where}, which ${name}'s package.json does not declare: add it (${test ? 'devDependencies for test code' : 'dependencies or peerDependencies'})`,
        });
      } else if (!test && higher) {
        problems.push({
          file: shown,
          message: `${where}: ${name} must not depend on a package of its own or a higher layer (scripts/workspace/package-layers.ts); move the shared part down (into ${layer === 0 ? 'core itself' : 'core or a lower package'}) or invert the dependency`,
        });
      } else if (!test && !installed(target)) {
        problems.push({
          file: shown,
          message: `${where}, a devDependency only: code that ships needs it in dependencies or peerDependencies`,
        });
      } else if (test && higher && installed(target) && own.manifest.private !== true) {
        problems.push({
          file: shown,
          message: `${where}, a package of its own or a higher layer, which is a test helper only when it is a devDependency alone; drop it from dependencies/peerDependencies or stop importing it`,
        });
      }
    }
  }
  return problems;
}
