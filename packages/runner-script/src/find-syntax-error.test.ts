// The load-time parse: what a function body may hold, and where errors are placed.
import { describe, expect, test } from 'vitest';
import { findSyntaxError } from './find-syntax-error.ts';

describe('findSyntaxError', () => {
  test.each([
    'return true',
    'await null; return { decision: "proceed" }',
    'return true // a trailing comment',
    '/* a block comment */',
    'const text = `template ${context.node_id}`;\nreturn /}/.test(text)',
    'for await (const x of [Promise.resolve(1)]) {}\nreturn',
    '"use strict";\nreturn false',
  ])('accepts %j', (body) => {
    expect(findSyntaxError(body)).toBeUndefined();
  });

  test.each([
    ['return }', { message: "Unexpected token '}'", line: 1, column: 8 }],
    ['const a = 1;\nconst a = 2;', { message: "Identifier 'a' has already been declared", line: 2, column: 7 }],
    ['let yield = 1', { message: 'Unexpected strict mode reserved word', line: 1, column: 5 }],
    [
      'const x = `open',
      { message: 'Unexpected end of input: a bracket, brace, string or template is left open', atEnd: true },
    ],
    // One `}` too many on line 3 closes the function; the parse of the body alone points at it.
    ['if (context.node_id) {\n  return 1\n}}', { message: "Unexpected token '}'", line: 3, column: 2 }],
    ['foo(', { message: 'Unexpected end of input: a bracket, brace, string or template is left open', atEnd: true }],
  ])('rejects %j', (body, expected) => {
    expect(findSyntaxError(body)).toEqual(expected);
  });

  test('never runs the body', () => {
    const marker = `__hookline_ran_${Date.now()}`;
    expect(findSyntaxError(`globalThis.${marker} = true`)).toBeUndefined();
    expect(findSyntaxError(`}); globalThis.${marker} = true; (async function () {`)).toBeDefined();
    expect(marker in globalThis).toBe(false);
  });
});
