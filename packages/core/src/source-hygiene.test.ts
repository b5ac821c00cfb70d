import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return entry.name === 'testing' || entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.test-d.ts')
      ? [path]
      : [];
  });
}

function hits(files: readonly string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) => (pattern.test(line) ? [`${relative(root, file)}:${index + 1}: ${line.trim()}`] : [])),
  );
}

const packageSources = readdirSync(join(root, 'packages')).flatMap((name) => {
  try {
    return sourceFiles(join(root, 'packages', name, 'src'));
  } catch {
    return [];
  }
});

test('no source file casts through unknown: a cast that needs it hides a type that does not fit', () => {
  expect(hits(packageSources, /\bas unknown as\b/)).toEqual([]);
});

test('core throws and aborts with typed Hookline errors only, each with its code', () => {
  expect(hits(sourceFiles(join(root, 'packages', 'core', 'src')), /\bnew (?:Range|Type|Syntax)?Error\(/)).toEqual([]);
});
