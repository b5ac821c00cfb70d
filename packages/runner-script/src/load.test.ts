// Script hooks through core's real loader: keys, the one-of rule, load-time syntax errors with
// file:line, effective names and limits.
import { ConfigError, formatConfigIssue, loadConfig } from '@hookline/core';
import { describe, expect, test } from 'vitest';
import { scriptRunner } from './script-runner.ts';

const runners = [scriptRunner()];

function problems(text: string): string[] {
  try {
    loadConfig([{ text, source: 'hooks/hookline.toml' }], { runners });
  } catch (error) {
    if (error instanceof ConfigError) return error.issues.map(formatConfigIssue);
    throw error;
  }
  return [];
}

describe('loading script hooks', () => {
  test('defaults: 1 s timeout, on_error block, not sandboxed; identity is the script start or the file', () => {
    const config = loadConfig(
      [
        {
          source: 'hookline.toml',
          text: `
[[hooks]]
event = "stage_start"
type = "script"
script = "return context.node_id !== 'deploy'"

[[hooks]]
event = "stage_start"
type = "script"
file = "checks/freeze.js"
memory_limit_mb = 64
timeout_ms = 250
`,
        },
      ],
      { runners },
    );
    expect(config.hooks.map((hook) => hook.name)).toEqual([
      'stage_start:return context.node_',
      'stage_start:checks/freeze.js',
    ]);
    expect(config.hooks[0]).toMatchObject({
      type: 'script',
      timeoutMs: 1_000,
      onError: 'block',
      options: { script: "return context.node_id !== 'deploy'" },
    });
    expect(config.hooks[1]).toMatchObject({
      timeoutMs: 250,
      options: { file: 'checks/freeze.js', memory_limit_mb: 64 },
    });
  });

  test('a syntax error in an inline script is a load error with the file, the line and the script line', () => {
    const text = `[[hooks]]
name = "broken"
event = "stage_start"
type = "script"
script = """
const allowed = ['build'];
if (!allowed.includes(context.node_id)) {
  return { decision: 'block', reason: 'not allowed' }}
}
"""
`;
    expect(problems(text)).toEqual([
      `hooks/hookline.toml:5: hooks[0] "broken": syntax error in \`script\`: Unexpected token '}' (line 4, column 1 of the script)`,
    ]);
  });

  test('an unclosed block is reported as such', () => {
    expect(
      problems(`[[hooks]]\nname = "open"\nevent = "stage_start"\ntype = "script"\nscript = "if (true) {"\n`),
    ).toEqual([
      'hooks/hookline.toml:5: hooks[0] "open": syntax error in `script`: Unexpected end of input: a bracket, brace, string or template is left open',
    ]);
  });

  test('after an await, an unbalanced body gets both possible causes', () => {
    expect(
      problems(`[[hooks]]\nname = "open"\nevent = "stage_start"\ntype = "script"\nscript = "await 1\\nif (true) {"\n`),
    ).toEqual([
      'hooks/hookline.toml:5: hooks[0] "open": syntax error in `script`: the script ends with a bracket, brace or string left open, or a `}` closes the script\'s function early',
    ]);
  });

  test('a body that closes its function early is refused at the stray brace, though it parses as a program', () => {
    expect(
      problems(
        `[[hooks]]\nname = "escape"\nevent = "stage_start"\ntype = "script"\nscript = "return 1 }); (async function () {"\n`,
      ),
    ).toEqual([
      `hooks/hookline.toml:5: hooks[0] "escape": syntax error in \`script\`: Unexpected token '}' (line 1, column 10 of the script)`,
    ]);
  });

  test('strict mode applies at load too', () => {
    expect(
      problems(
        `[[hooks]]\nname = "with"\nevent = "stage_start"\ntype = "script"\nscript = "with (context) { return true }"\n`,
      ),
    ).toEqual([
      `hooks/hookline.toml:5: hooks[0] "with": syntax error in \`script\`: Strict mode code may not include a with statement (line 1, column 1 of the script)`,
    ]);
  });

  test('exactly one of script and file', () => {
    expect(problems(`[[hooks]]\nname = "none"\nevent = "stage_start"\ntype = "script"\n`)).toEqual([
      'hooks/hookline.toml:1: hooks[0] "none": a script hook needs `script` (inline JavaScript) or `file` (the path of a JavaScript file); add one of them',
    ]);
    expect(
      problems(
        `[[hooks]]\nname = "both"\nevent = "stage_start"\ntype = "script"\nscript = "return true"\nfile = "x.js"\n`,
      ),
    ).toEqual([
      'hooks/hookline.toml:6: hooks[0] "both": `script` and `file` are both set; keep one: `script` for inline JavaScript, `file` for a path to a JavaScript file',
    ]);
  });

  test('bad values are load errors on their lines', () => {
    const text = `[[hooks]]\nname = "bad"\nevent = "stage_start"\ntype = "script"\nscript = "  "\nmemory_limit_mb = 4\n`;
    expect(problems(text)).toEqual([
      'hooks/hookline.toml:5: hooks[0] "bad": `script` must not be empty or only whitespace — fix the value of `script`',
      'hooks/hookline.toml:6: hooks[0] "bad": `memory_limit_mb` must be an integer from 8 to 2048 (MiB) — fix the value of `memory_limit_mb`',
    ]);
  });

  test('an unknown key gets the nearest suggestion', () => {
    const found = problems(
      `[[hooks]]\nname = "typo"\nevent = "stage_start"\ntype = "script"\nscirpt = "return true"\n`,
    );
    expect(found).toContain(
      'hooks/hookline.toml:5: hooks[0] "typo": unknown key `scirpt` for a script hook — did you mean `script`?',
    );
  });

  test('the runner validates its own settings', () => {
    expect(() => scriptRunner({ memoryLimitMb: 4 })).toThrow(/memoryLimitMb must be an integer from 8 to 2048/);
    expect(() => scriptRunner({ poolSize: 0 })).toThrow(/poolSize must be a positive integer/);
    expect(() => scriptRunner({ poolSize: 0 })).toThrow(
      expect.objectContaining({ name: 'InvalidOptionError', code: 'HOOKLINE_INVALID_OPTION', option: 'poolSize' }),
    );
  });
});
