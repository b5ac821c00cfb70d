import { readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { codeFiles, isTestCode, specifiersOf } from './source-files.ts';

/** The relative modules a file imports, resolved against its folder. */
export function relativeImports(file: string, source: string): string[] {
  return specifiersOf(source)
    .filter((specifier) => /^\.{1,2}\//.test(specifier))
    .map((specifier) => resolve(dirname(file), specifier));
}

/** One path per strongly connected group of more than one file (or a file importing itself), as `a → b → a`. */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
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

/** The import cycles among a package's own files (tests apart), each as `a.ts → b.ts → a.ts` relative to its folder. */
export function packageImportCycles(dir: string): { files: number; cycles: string[] } {
  const files = codeFiles(dir)
    .filter((file) => !isTestCode(file))
    .map((file) => join(dir, file));
  const graph = new Map(files.map((file) => [file, relativeImports(file, readFileSync(file, 'utf8'))]));
  return {
    files: files.length,
    cycles: findCycles(graph).map((cycle) => cycle.map((file) => relative(dir, file)).join(' → ')),
  };
}
