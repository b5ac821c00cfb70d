import { CliError } from '../cli-error.ts';
import type { FieldKind } from './context-fields.ts';

/**
 * Reads one `--set key=value` (top-level fields only; the first `=` splits). The value's type:
 * - a documented text field (`node_id`, `status`, …) takes the text as it is: `--set node_id=007` is "007";
 * - a documented integer field (`attempt`, `max_attempts`) needs a whole number: `attempt=abc` is an error;
 * - any other field is JSON when it parses (`3`, `true`, `null`, `"x"`, `[1,2]`, `{"a":1}`), else the text.
 */
export function parseSet(assignment: string, kinds: ReadonlyMap<string, FieldKind>): { readonly key: string; readonly value: unknown } {
  const equals = assignment.indexOf('=');
  if (equals <= 0) {
    throw new CliError('HOOKLINE_CLI_USAGE', `--set needs key=value, got "${assignment}"; for example --set node_id=build.`);
  }
  const key = assignment.slice(0, equals);
  const text = assignment.slice(equals + 1);
  if (key === 'event') {
    throw new CliError('HOOKLINE_CLI_USAGE', '--set event=… is not allowed: the event is the command\'s first argument.');
  }
  const kind = kinds.get(key);
  if (kind === 'string') return { key, value: text };
  if (kind === 'integer') {
    if (!/^-?\d+$/.test(text.trim())) {
      throw new CliError('HOOKLINE_CLI_USAGE', `--set ${key}=${text}: ${key} is an integer field; give a whole number, e.g. --set ${key}=2.`);
    }
    return { key, value: Number.parseInt(text, 10) };
  }
  try {
    return { key, value: JSON.parse(text) as unknown };
  } catch {
    return { key, value: text };
  }
}
