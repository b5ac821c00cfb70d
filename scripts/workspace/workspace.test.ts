// The workspace's structure: the layering of its packages (package-layers.ts, rules in
// import-rules.ts) and no import cycle among any package's own files. `pnpm test` runs it
// (`pnpm test:repo` alone).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { findCycles, packageImportCycles, relativeImports } from './import-cycles.ts';
import { importProblems } from './import-rules.ts';
import { layerOf, PACKAGE_LAYERS } from './package-layers.ts';
import { workspacePackages, type WorkspacePackage } from './workspace-packages.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const packages = workspacePackages(root);

describe('layering', () => {
  test('every published package has a layer', () => {
    const published = [...packages.values()]
      .filter((found) => found.manifest.private !== true)
      .map((found) => found.manifest.name);
    expect(published.length).toBeGreaterThan(8);
    expect(
      published.filter((name) => layerOf(name) === PACKAGE_LAYERS.length),
      'add each published package to scripts/workspace/package-layers.ts',
    ).toEqual([]);
  });

  test.each([...packages.keys()])(
    '%s imports only lower layers, and higher ones only as declared test helpers',
    (name) => {
      const problems = importProblems(name, packages, root).map((problem) => problem.message);
      expect(problems).toEqual([]);
    },
  );

  test('no two packages depend on each other, through any kind of dependency (turbo and pnpm need an order)', () => {
    const declared = (found: WorkspacePackage): string[] =>
      [
        ...new Set(
          Object.keys({
            ...found.manifest.dependencies,
            ...found.manifest.devDependencies,
            ...found.manifest.peerDependencies,
          }),
        ),
      ].filter((name) => packages.has(name));
    const graph = new Map([...packages].map(([name, found]) => [name, declared(found)]));
    expect(
      findCycles(graph).map((cycle) => cycle.join(' → ')),
      'a test helper must not depend back on the package whose tests use it',
    ).toEqual([]);
  });

  test('the rules catch an upward import, an undeclared one, and a helper shipped as a dependency', () => {
    const scratch = mkdtempSync(join(tmpdir(), 'hookline-layers-'));
    try {
      const write = (file: string, text: string): void => {
        mkdirSync(dirname(join(scratch, file)), { recursive: true });
        writeFileSync(join(scratch, file), text);
      };
      write(
        'packages/core/src/a.ts',
        "import { localSandbox } from '@hookline/runner-command';\nexport const a = 1;\n",
      );
      write('packages/core/src/a.test.ts', "import { x } from '../../runner-http/test-support/x.ts';\n");
      write('packages/core/src/b.ts', "/** import { y } from '@hookline/cli'; */\nexport const b = 1;\n");
      write('packages/runner-http/test-support/x.ts', 'export const x = 1;\n');
      write('packages/runner-http/src/c.test.ts', "import { s } from '@hookline/sandbox-docker';\n");
      const fake = (
        name: string,
        dir: string,
        manifest: Partial<WorkspacePackage['manifest']> = {},
      ): [string, WorkspacePackage] => [name, { dir: join(scratch, dir), manifest: { name, ...manifest } }];
      const workspace = new Map([
        fake('@hookline/core', 'packages/core', { devDependencies: { '@hookline/runner-command': 'workspace:^' } }),
        fake('@hookline/runner-command', 'packages/runner-command'),
        fake('@hookline/runner-http', 'packages/runner-http', {
          peerDependencies: { '@hookline/sandbox-docker': 'workspace:^' },
        }),
        fake('@hookline/sandbox-docker', 'packages/sandbox-docker'),
      ]);
      expect(importProblems('@hookline/core', workspace, scratch).map((problem) => problem.message)).toEqual([
        expect.stringContaining(
          'packages/core/src/a.test.ts imports @hookline/runner-http ("../../runner-http/test-support/x.ts"), which @hookline/core\'s package.json does not declare',
        ),
        expect.stringContaining(
          'packages/core/src/a.ts imports @hookline/runner-command ("@hookline/runner-command"): @hookline/core must not depend on a package of its own or a higher layer',
        ),
      ]);
      expect(importProblems('@hookline/runner-http', workspace, scratch).map((problem) => problem.message)).toEqual([
        expect.stringContaining('a test helper only when it is a devDependency alone'),
      ]);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});

describe('import cycles', () => {
  test('finds a cycle when there is one, through type-only and dynamic imports too', () => {
    const files = {
      '/s/a.ts': "import type { B } from './b.ts';",
      '/s/b.ts': "export { c } from './c/c.ts';\nimport * as v from 'valibot';",
      '/s/c/c.ts': "const a = await import('../a.ts');",
      '/s/d.ts': "import { a } from './a.ts';",
    };
    const graph = new Map(Object.entries(files).map(([file, source]) => [file, relativeImports(file, source)]));
    expect(findCycles(graph)).toEqual([['/s/a.ts', '/s/b.ts', '/s/c/c.ts', '/s/a.ts']]);
    graph.set('/s/c/c.ts', []);
    expect(findCycles(graph)).toEqual([]);
  });

  test.each([...packages.keys()])('%s has none among its own files', (name) => {
    const { files, cycles } = packageImportCycles(packages.get(name)!.dir);
    expect(files).toBeGreaterThan(0);
    expect(cycles, `import cycles in ${name}: move the shared declaration into a file both sides can import`).toEqual(
      [],
    );
  });
});
