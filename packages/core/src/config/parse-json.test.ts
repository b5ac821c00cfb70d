import { describe, expect, test } from 'vitest';
import { parseJson } from './parse-json.ts';

describe('parseJson', () => {
  test('parses like JSON.parse and records the line of every key and element', () => {
    const text =
      '{\n  "hooks": {\n    "PreToolUse": [\n      {\n        "matcher": "Bash",\n        "hooks": [{"type": "command", "command": "x"}]\n      }\n    ]\n  },\n  "n": [1, -2.5e3, true, null, "\\u00e9"]\n}\n';
    const parsed = parseJson(text, 'settings.json');
    if (!parsed.ok) throw new Error(parsed.issue.message);
    expect(parsed.data).toEqual(JSON.parse(text));
    expect(parsed.lineAt(['hooks'])).toBe(2);
    expect(parsed.lineAt(['hooks', 'PreToolUse'])).toBe(3);
    expect(parsed.lineAt(['hooks', 'PreToolUse', 0])).toBe(4);
    expect(parsed.lineAt(['hooks', 'PreToolUse', 0, 'matcher'])).toBe(5);
    expect(parsed.lineAt(['hooks', 'PreToolUse', 0, 'hooks', 0, 'command'])).toBe(6);
    expect(parsed.lineAt(['n', 4])).toBe(10);
    expect(parsed.lineAt(['missing'])).toBeUndefined();
  });

  test('keeps a __proto__ key as data', () => {
    const parsed = parseJson('{"__proto__": {"x": 1}}', 'a.json');
    expect(parsed.ok && Object.keys(parsed.data as object)).toEqual(['__proto__']);
  });

  test.each([
    ['{\n  "hooks": {,\n}', 2, 13, 'expected a double-quoted key, found ","'],
    ['{\n  "a": 1,\n}', 3, 1, 'trailing comma'],
    ['{"a" 1}', 1, 6, 'expected ":" after the key "a"'],
    ['{"a": [1 2]}', 1, 10, 'expected "," or "]"'],
    ['{"a": tru}', 1, 7, 'expected a value'],
    ['{"a": 1} x', 1, 10, 'the end of the text'],
    ['{"a": "b', 1, 7, 'unterminated string'],
    ['// comment\n{}', 1, 1, 'expected a value'],
  ])('a syntax error names line and column: %j', (text, line, column, message) => {
    const parsed = parseJson(text, 'settings.json');
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.issue).toMatchObject({ file: 'settings.json', line });
    expect(parsed.issue.message).toContain(`invalid JSON at column ${column}:`);
    expect(parsed.issue.message).toContain(message);
    expect(parsed.issue.fix).toContain('no trailing comma');
  });
});
