import * as v from 'valibot';
import type { HookDecision } from '@hookline/core/plugin';
import { excerpt } from './model-reply.ts';

/** The answer a hook's model gives, `{ ok, reason? }`: also the input of the prompt hook's decision tool. */
export const ANSWER_SCHEMA = v.looseObject({
  ok: v.pipe(v.boolean(), v.description('true: the event proceeds; false: it is blocked.')),
  reason: v.optional(v.pipe(v.string(), v.description('Why, in one or two sentences; required when ok is false.'))),
});

/** The model's `{ ok, reason? }` as a decision: ok → proceed, not ok → block with the reason. */
export type AnswerReading =
  { readonly ok: true; readonly decision: HookDecision } | { readonly ok: false; readonly error: string };

/** Why a block without a reason blocked: every block is explained. */
const NO_REASON = 'the model answered ok: false without a reason';

/**
 * Reads a structured answer (a prompt hook's tool input, or an agent's parsed JSON). Unknown fields
 * are ignored; a missing or non-boolean `ok` is unparseable.
 */
export function readAnswer(value: unknown): AnswerReading {
  const parsed = v.safeParse(ANSWER_SCHEMA, value);
  if (!parsed.success)
    return {
      ok: false,
      error: `unparseable answer: expected {"ok": true|false, "reason"?: "…"}, got ${excerpt(JSON.stringify(value) ?? String(value))}`,
    };
  const reason = parsed.output.reason?.trim();
  if (parsed.output.ok)
    return {
      ok: true,
      decision: reason === undefined || reason === '' ? { decision: 'proceed' } : { decision: 'proceed', reason },
    };
  return {
    ok: true,
    decision: { decision: 'block', reason: reason === undefined || reason === '' ? NO_REASON : reason },
  };
}

// A whole reply wrapped in one Markdown code fence, with an optional language tag: ```json … ```.
const FENCE = /^```[\w-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/;

/**
 * Reads an agent's final text: the whole trimmed text must be one JSON object, optionally inside a
 * single code fence. Prose around it, or prose instead of it, is unparseable: guessing at a
 * decision buried in prose could turn a "no" into a "yes".
 */
export function readTextAnswer(text: string): AnswerReading {
  const trimmed = text.trim();
  const body = FENCE.exec(trimmed)?.[1]?.trim() ?? trimmed;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    return {
      ok: false,
      error: `unparseable answer: expected only a JSON object {"ok": true|false, "reason"?: "…"}, got ${excerpt(trimmed === '' ? '(no text)' : trimmed)}`,
    };
  }
  return readAnswer(value);
}
