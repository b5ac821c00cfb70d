import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Relative specifiers of static imports and re-exports (type-only ones too: a type cycle still ties
// the files' meaning together) and of dynamic imports.
const RELATIVE_SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])(\.{1,2}\/[^'"]+)\1/g;

/** The relative modules a source file imports, resolved against its folder. */
function importsOf(file: string, source: string): string[] {
  return [...source.matchAll(RELATIVE_SPECIFIER)].map((match) => resolve(dirname(file), match[2]!));
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** One path per strongly connected group of more than one file (or a file importing itself), as `a → b → a`. */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      const seen = state.get(next);
      if (seen === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (seen === undefined) visit(next);
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

describe('the import graph of packages/core/src', () => {
  it('finds a cycle when there is one, through type-only imports too', () => {
    const files = {
      '/s/a.ts': "import type { B } from './b.ts';",
      '/s/b.ts': "export { c } from './c/c.ts';\nimport * as v from 'valibot';",
      '/s/c/c.ts': "const a = await import('../a.ts');",
      '/s/d.ts': "import { a } from './a.ts';",
    };
    const graph = new Map(Object.entries(files).map(([file, source]) => [file, importsOf(file, source)]));
    expect(findCycles(graph)).toEqual([['/s/a.ts', '/s/b.ts', '/s/c/c.ts', '/s/a.ts']]);
    graph.set('/s/c/c.ts', []);
    expect(findCycles(graph)).toEqual([]);
  });

  it('has no cycle', () => {
    const root = fileURLToPath(new URL('.', import.meta.url));
    const files = sourceFiles(root);
    expect(files.length).toBeGreaterThan(50);
    const graph = new Map(files.map((file) => [file, importsOf(file, readFileSync(file, 'utf8'))]));
    const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
    expect(edges).toBeGreaterThan(files.length);
    const cycles = findCycles(graph).map((cycle) => cycle.map((file) => relative(root, file)).join(' → '));
    expect(cycles, 'import cycles in packages/core/src: move the shared declaration into a file both sides can import').toEqual([]);
  });
});
