import { DECISION_KINDS, parseDecision, type RunResult } from '@hookline/core/plugin';
import type { ScriptSource } from './script-source.ts';

const EXPECTED = 'expected a decision object, true, false or nothing';

// Globals a script might reach for out of habit; none exists inside the isolate.
const HOST_NAMES = new Set([
  'console',
  'process',
  'require',
  'fetch',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'queueMicrotask',
  'Buffer',
  'module',
  'exports',
  'WebAssembly',
  'FinalizationRegistry',
]);

/**
 * Turns the harness's answer (one JSON string) into a run result: `true` or nothing proceeds, `false`
 * blocks, an object must be a decision (the decision JSON hooks answer with), anything else fails the hook with
 * what the script returned or threw.
 */
export function readAnswer(text: unknown, source: ScriptSource): RunResult {
  const answer = parseAnswer(text);
  switch (answer?.['kind']) {
    case 'nothing':
      return { status: 'ok', decision: { decision: 'proceed' } };
    case 'boolean':
      return answer['value'] === true
        ? { status: 'ok', decision: { decision: 'proceed' } }
        : { status: 'ok', decision: { decision: 'block', reason: 'the script returned false' } };
    case 'object':
      return objectResult(answer['json']);
    case 'other':
      return failed(`script returned ${String(answer['description'])}, ${EXPECTED}`);
    case 'error':
      return failed(thrownMessage(answer, source));
    default:
      return failed("the script's answer could not be read (did the script replace JSON or a built-in prototype?)");
  }
}

function parseAnswer(text: unknown): Record<string, unknown> | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function objectResult(json: unknown): RunResult {
  if (typeof json !== 'string') return failed(`script returned an object that JSON cannot represent, ${EXPECTED}`);
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return failed(`script returned an object that JSON cannot represent, ${EXPECTED}`);
  }
  const decision = parseDecision(value);
  if (decision !== undefined) return { status: 'ok', decision };
  return failed(`script returned ${excerpt(json, 200)}, ${EXPECTED}${decisionHint(value)}`);
}

/** Says which rule of the decision format the object broke. */
function decisionHint(value: unknown): string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return '';
  const record = value as Record<string, unknown>;
  if (!('decision' in record)) return ' (the object has no `decision` field)';
  if (typeof record['decision'] !== 'string' || !(DECISION_KINDS as readonly string[]).includes(record['decision'])) {
    return ` (\`decision\` must be ${DECISION_KINDS.map((kind) => `"${kind}"`)
      .join(', ')
      .replace(/, ([^,]*)$/, ' or $1')})`;
  }
  if (record['reason'] !== undefined && record['reason'] !== null && typeof record['reason'] !== 'string')
    return ' (`reason` must be a string)';
  if (record['decision'] === 'override') return ' (an override needs a non-empty string `edge_to`)';
  return ' (`updated_input` must be an object, `continue` true or false, `additional_context`, `stop_reason` and `system_message` strings)';
}

function thrownMessage(answer: Record<string, unknown>, source: ScriptSource): string {
  if (typeof answer['thrown'] === 'string') return `script threw ${answer['thrown']}`;
  const text = (key: string, fallback: string): string => {
    const value = answer[key];
    return typeof value === 'string' ? value : value === undefined || value === null ? fallback : JSON.stringify(value);
  };
  const name = text('name', 'Error');
  const message = text('message', '');
  const where = position(text('stack', ''), source);
  return `script threw ${name}${message === '' ? '' : `: ${message}`}${where}${errorHint(name, message)}`;
}

/** The first stack frame inside the hook's own lines (the harness's lines number 0 and below). */
function position(stack: string, source: ScriptSource): string {
  const pattern = new RegExp(`${escapeRegExp(source.filename)}:(-?\\d+):(\\d+)`, 'g');
  for (const match of stack.matchAll(pattern)) {
    const line = Number(match[1]);
    if (line < 1) continue;
    return source.origin === 'file'
      ? ` (at ${source.filename}:${line}:${match[2]})`
      : ` (line ${line}, column ${match[2]} of the script)`;
  }
  return '';
}

function errorHint(name: string, message: string): string {
  if (name === 'ReferenceError') {
    const missing = /^(\S+) is not defined$/.exec(message)?.[1];
    if (missing !== undefined && HOST_NAMES.has(missing)) {
      return '; scripts run in an isolate with no host objects and no I/O (no console, require, process, fetch or timers): compute a decision from `context` and put any message in its reason';
    }
  }
  if (name === 'TypeError' && /read[- ]only|not extensible|Cannot (add|delete|define) property/i.test(message)) {
    return '; `context` is deep-frozen: copy what you want to change, e.g. `const copy = JSON.parse(JSON.stringify(context))`';
  }
  return '';
}

function failed(error: string): RunResult {
  return { status: 'failed', error };
}

function excerpt(text: string, length: number): string {
  return text.length > length ? `${text.slice(0, length)}…` : text;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
