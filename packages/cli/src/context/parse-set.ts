import type { ContextFieldType } from '@hookline/core';
import { CliError } from '../cli-error.ts';

/**
 * Reads one `--set key=value` (top-level fields only; the first `=` splits). The value is read by
 * the type the preset's context schema gives the field:
 * - `string`: the text as it is — `--set node_id=007` is "007";
 * - `integer`: a whole number — `--set attempt=abc` is an error;
 * - `number`: a JSON number (`12`, `0.5`); `boolean`: `true` or `false`;
 * - `object`, `array`: JSON of that shape — `--set 'tool_input={"command":"ls"}'` is an object;
 * - a field the preset does not document: JSON when it parses (`3`, `true`, `null`, `"x"`, `[1,2]`,
 *   `{"a":1}`), else the text.
 */
export function parseSet(
  assignment: string,
  types: ReadonlyMap<string, ContextFieldType>,
): { readonly key: string; readonly value: unknown } {
  const equals = assignment.indexOf('=');
  if (equals <= 0) {
    throw new CliError(
      'HOOKLINE_CLI_USAGE',
      `--set needs key=value, got "${assignment}"; for example --set node_id=build.`,
    );
  }
  const key = assignment.slice(0, equals);
  const text = assignment.slice(equals + 1);
  if (key === 'event') {
    throw new CliError(
      'HOOKLINE_CLI_USAGE',
      "--set event=… is not allowed: the event is the command's first argument.",
    );
  }
  const type = types.get(key);
  if (type === 'string') return { key, value: text };
  if (type === 'integer') {
    if (!/^-?\d+$/.test(text.trim())) throw wrongType(key, text, 'an integer field; give a whole number', '2');
    return { key, value: Number.parseInt(text, 10) };
  }
  const json = parseJson(text);
  if (type === undefined) return { key, value: json.ok ? json.value : text };
  if (json.ok && typeOfJson(json.value) === type) return { key, value: json.value };
  throw wrongType(key, text, ...EXPECTED[type]);
}

// What each non-text type asks for in an error, with an example value.
const EXPECTED: Readonly<
  Record<Exclude<ContextFieldType, 'string' | 'integer'>, readonly [what: string, example: string]>
> = {
  number: ['a number field; give a number', '1.5'],
  boolean: ['a true/false field; give true or false', 'true'],
  object: ['an object field; give a JSON object (quote it for the shell)', '\'{"a":1}\''],
  array: ['an array field; give a JSON array (quote it for the shell)', '\'["a"]\''],
};

function wrongType(key: string, text: string, what: string, example: string): CliError {
  return new CliError('HOOKLINE_CLI_USAGE', `--set ${key}=${text}: ${key} is ${what}, e.g. --set ${key}=${example}.`);
}

function parseJson(text: string): { readonly ok: true; readonly value: unknown } | { readonly ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function typeOfJson(value: unknown): string {
  if (value === null) return 'null';
  return Array.isArray(value) ? 'array' : typeof value;
}
