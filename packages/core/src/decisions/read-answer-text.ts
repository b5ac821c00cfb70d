import { messageOf } from '../errors/message-of.ts';
import type { Preset } from '../presets/preset.ts';
import type { HookDecision } from './decision.ts';
import { decisionProblem } from './decision-problem.ts';
import { parseDecision } from './parse-decision.ts';

/** What a hook's output (a command's stdout, an HTTP body) turned out to be. */
export type AnswerReading =
  /** Not meant as a decision (plain text, nothing): the protocol's own rule applies. */
  | { readonly kind: 'none'; readonly warnings: readonly string[] }
  /** A decision the hook meant and the host can honour. */
  | {
      readonly kind: 'answer';
      readonly decision: HookDecision;
      readonly warnings: readonly string[];
      readonly details?: Readonly<Record<string, unknown>>;
    }
  /** Meant as a decision, but it cannot be honoured: the hook failed, and `on_error` decides. */
  | { readonly kind: 'unreadable'; readonly problem: string; readonly warnings: readonly string[] };

/** What reading an answer needs besides its text. */
export interface AnswerTextScope {
  /** The text was cut at a size cap: it is not the whole answer. */
  readonly truncated?: boolean;
  /** The cap it was cut at, for the message. */
  readonly capBytes?: number;
  /** The active preset: its answer format (`readAnswer`) when it has one, else Hookline's decision JSON. */
  readonly preset?: Preset | undefined;
  readonly event: string;
  /** How messages name the text: `stdout`, `the response body`. */
  readonly what: string;
}

const NONE: AnswerReading = Object.freeze({ kind: 'none', warnings: Object.freeze([]) });
const HOOKLINE_FORM =
  'expected {"decision": "proceed"|"skip"|"block"|"override", "reason"?: string, "edge_to"?: string (required for override)}';

/**
 * Reads a hook's output as an answer, one rule for every preset and every hook type that prints
 * or returns one. Output that looks like JSON — it starts with `{`, `[` or `"` once trimmed — is
 * meant as a decision; so a JSON answer that cannot be honoured (not valid JSON, cut at the output
 * cap, not an object, a decision field of the wrong type or value) is `unreadable`: the hook failed,
 * and its `on_error` applies. Reading it as "no decision" would turn a hook's garbled "deny" into an
 * approval. Anything else is `none`, and the protocol's rule for plain output applies.
 */
export function readAnswerText(text: string, scope: AnswerTextScope): AnswerReading {
  const trimmed = text.trim();
  const looksLikeJson = trimmed.startsWith('{') || trimmed.startsWith('[') || trimmed.startsWith('"');
  if (scope.truncated === true) {
    if (!looksLikeJson) return NONE;
    const cap = scope.capBytes === undefined ? 'the size cap' : String(scope.capBytes);
    return unreadable(
      `${scope.what} is a JSON answer larger than ${cap} bytes; it was cut at ${cap}, so no decision can be read from it (keep the answer smaller)`,
    );
  }
  if (!looksLikeJson) return NONE;
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    return unreadable(
      `${scope.what} starts like a JSON answer but is not valid JSON (${messageOf(error)}); print exactly one JSON object`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return unreadable(
      `${scope.what} is a JSON ${Array.isArray(value) ? 'array' : typeof value}, not an object; an answer is one JSON object`,
    );
  }
  const record = value as Record<string, unknown>;
  const preset = scope.preset;
  if (preset?.readAnswer !== undefined) {
    const answer = preset.readAnswer(record, scope.event);
    if (answer === undefined) return NONE;
    if (answer.problems !== undefined && answer.problems.length > 0) {
      return unreadable(
        `${scope.what} is an answer that cannot be honoured: ${answer.problems.join('; ')}`,
        answer.warnings,
      );
    }
    return {
      kind: 'answer',
      decision: answer.decision,
      warnings: answer.warnings,
      ...(answer.details === undefined ? {} : { details: answer.details }),
    };
  }
  // A JSON object without a `decision` field ({"ok": true} from a web service) decides nothing.
  if (!Object.hasOwn(record, 'decision')) return NONE;
  const decision = parseDecision(record);
  if (decision === undefined)
    return unreadable(
      `${scope.what} is an invalid decision: ${decisionProblem(record) ?? 'it was refused'}; ${HOOKLINE_FORM}`,
    );
  return { kind: 'answer', decision, warnings: [] };
}

function unreadable(problem: string, warnings: readonly string[] = []): AnswerReading {
  return { kind: 'unreadable', problem, warnings };
}
