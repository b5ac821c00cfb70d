import { parseArgs } from 'node:util';
import { expect, test } from 'vitest';
import { COMMANDS } from './command-table.ts';
import { parseCommandArgs } from './parse-command-args.ts';

// parseCommandArgs reads plain arguments itself and hands the rest to node:util's parseArgs; either
// way the values must be exactly what parseArgs gives, and every error parseArgs's own message.
const emit = COMMANDS['emit']!.spec;
const options = { ...emit.options, help: { type: 'boolean', short: 'h' } } as const;
const nodeParse = (args: readonly string[]) =>
  parseArgs({ args: [...args], options, allowPositionals: true, strict: true });

test.each([
  [['stage_start']],
  [['stage_start', '--json']],
  [['--json', 'stage_start', '--config', 'a.toml', '-c', 'b.toml', '--config=c.toml']],
  [['stage_start', '--set', 'a=1', '--set=b=2', '--set', 'tool_input={"command":"ls"}']],
  [['stage_start', '--context', '-']],
  [['stage_start', '--context', 'ctx.json', '--context', 'other.json']],
  [['stage_start', '--config=']],
  [['-']],
  [['stage_start', '--preset', 'claude', '--journal', 'postgres://127.0.0.1/x']],
  [['--', 'stage_start']],
  [['stage_start', '-h']],
  [['--help']],
])('%j reads as parseArgs reads it', (args) => {
  const parsed = parseCommandArgs('emit', emit, args);
  const expected = nodeParse(args);
  expect({ ...parsed.values }).toStrictEqual({ ...expected.values });
  if (!parsed.help) expect(Object.values(parsed.positionals)).toEqual(expected.positionals.slice(0, 1));
});

test.each([
  [['stage_start', '--nope']],
  [['stage_start', '--config']],
  [['stage_start', '--config', '--json']],
  [['stage_start', '--json=yes']],
  [['stage_start', '-jc', 'x']],
  [['stage_start', '-x']],
  [['stage_start', '-cfile.toml']],
])("%j fails with parseArgs's message", (args) => {
  let message: string | undefined;
  try {
    nodeParse(args);
  } catch (error) {
    message = (error as Error).message.replace(/\.$/, '');
  }
  if (message === undefined) {
    // parseArgs accepts it (e.g. `-cfile.toml`): so must the fast path's fallback.
    expect(parseCommandArgs('emit', emit, args).values).toStrictEqual(nodeParse(args).values);
    return;
  }
  expect(() => parseCommandArgs('emit', emit, args)).toThrow(`${message}; see \`hookline emit --help\`.`);
});
