import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { makeScratch, type Scratch } from '../../test-support/run-cli.ts';
import { resolveExports, resolveModule } from './resolve-module.ts';

describe("resolveExports follows Node's rules for import", () => {
  test('a string, sugar for "."', () => {
    expect(resolveExports('./index.js', '.')).toBe('./index.js');
    expect(resolveExports('./index.js', './other')).toBeUndefined();
  });

  test("conditions in the package's order; require and types never match", () => {
    expect(resolveExports({ types: './x.d.ts', require: './x.cjs', import: './x.mjs' }, '.')).toBe('./x.mjs');
    expect(
      resolveExports({ node: { import: './node.mjs', require: './node.cjs' }, default: './browser.js' }, '.'),
    ).toBe('./node.mjs');
    expect(resolveExports({ require: './x.cjs' }, '.')).toBeUndefined();
    expect(resolveExports({ '.': { 'module-sync': './sync.js', default: './x.js' } }, '.')).toBe('./sync.js');
  });

  test('subpaths, patterns (longest prefix wins), arrays and null exclusions', () => {
    const exports = {
      '.': './index.js',
      './runners/*': './dist/runners/*.js',
      './runners/private/*': null,
      './alt': ['./missing-condition-free.js'],
    };
    expect(resolveExports(exports, './runners/ntfy')).toBe('./dist/runners/ntfy.js');
    expect(resolveExports(exports, './runners/private/x')).toBeNull();
    expect(resolveExports(exports, './alt')).toBe('./missing-condition-free.js');
    expect(resolveExports(exports, './nope')).toBeUndefined();
  });
});

describe('resolveModule', () => {
  let scratch: Scratch;
  beforeEach(() => {
    scratch = makeScratch();
  });
  afterEach(() => scratch.cleanup());

  test('walks node_modules up from the folder, skipping node_modules folders themselves', () => {
    scratch.write(
      'node_modules/@scope/pkg/package.json',
      JSON.stringify({ exports: { import: './esm.js', require: './cjs.cjs' } }),
    );
    scratch.write('node_modules/@scope/pkg/esm.js', '');
    scratch.write('a/b/c/.keep', '');
    expect(resolveModule('@scope/pkg', `${scratch.path}/a/b/c`)).toEqual({
      found: true,
      url: pathToFileURL(`${scratch.path}/node_modules/@scope/pkg/esm.js`).href,
    });
  });

  test('main, the legacy fallbacks, relative paths', () => {
    scratch.write('node_modules/old/package.json', JSON.stringify({ main: 'lib/main' }));
    scratch.write('node_modules/old/lib/main.js', '');
    scratch.write('local/runner.js', '');
    expect(resolveModule('old', scratch.path)).toMatchObject({
      found: true,
      url: expect.stringMatching(/old\/lib\/main\.js$/),
    });
    expect(resolveModule('./local/runner.js', scratch.path)).toMatchObject({ found: true });
  });

  test('says why when it cannot', () => {
    scratch.write('node_modules/closed/package.json', JSON.stringify({ exports: { './inner': './inner.js' } }));
    expect(resolveModule('absent', scratch.path)).toEqual({
      found: false,
      reason: `cannot find package "absent" from ${scratch.path}`,
    });
    expect(resolveModule('closed', scratch.path)).toMatchObject({
      found: false,
      reason: expect.stringContaining('does not export "." for import'),
    });
    expect(resolveModule('closed/inner', scratch.path)).toMatchObject({
      found: false,
      reason: expect.stringContaining('which does not exist'),
    });
  });
});
