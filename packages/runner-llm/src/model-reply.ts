import * as v from 'valibot';

/** A `tool_use` block of a reply: the model asks the runner to call `name` with `input`. */
export interface ToolCall {
  readonly type: 'tool_use';
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

// The blocks of a reply that go back in the next request's assistant turn, each as it came (extra
// fields such as `citations` included), so that tool_use ids match their results and thinking keeps
// its signature. Typed by these schemas, they are request blocks as the SDK declares them. Other
// block types come only from server tools and citations sources, which the runner never enables.
const assistantBlockSchema = v.variant('type', [
  v.looseObject({ type: v.literal('text'), text: v.string() }),
  v.looseObject({ type: v.literal('tool_use'), id: v.string(), name: v.string(), input: v.unknown() }),
  v.looseObject({ type: v.literal('thinking'), thinking: v.string(), signature: v.string() }),
  v.looseObject({ type: v.literal('redacted_thinking'), data: v.string() }),
]);

/** One block of a reply that is sent back in the next turn. */
export type AssistantBlock = v.InferOutput<typeof assistantBlockSchema>;

/** What the runner reads from a Messages API reply; `content` keeps its blocks as sent, for the next turn. */
export interface ModelReply {
  readonly content: readonly AssistantBlock[];
  readonly stopReason: string | null;
  readonly inputTokens: number;
  readonly outputTokens: number;
  /** The text blocks joined with newlines. */
  readonly text: string;
  readonly toolCalls: readonly ToolCall[];
}

const tokens = v.optional(v.nullable(v.number()));
const replySchema = v.looseObject({
  content: v.array(v.looseObject({ type: v.string() })),
  stop_reason: v.optional(v.nullable(v.string())),
  usage: v.optional(v.nullable(v.looseObject({ input_tokens: tokens, output_tokens: tokens }))),
});
const toolCallSchema = v.looseObject({
  type: v.literal('tool_use'),
  id: v.string(),
  name: v.string(),
  input: v.unknown(),
});

/**
 * Checks that a reply has the Messages API shape before anything relies on it: a proxy, a
 * misconfigured `ANTHROPIC_BASE_URL` or a broken gateway can answer 200 with anything.
 */
export function readModelReply(
  value: unknown,
): { readonly ok: true; readonly reply: ModelReply } | { readonly ok: false; readonly error: string } {
  if (typeof value === 'string')
    return { ok: false, error: `the Anthropic API answered with a body that is not JSON: ${excerpt(value)}` };
  const parsed = v.safeParse(replySchema, value);
  if (!parsed.success)
    return {
      ok: false,
      error: `the Anthropic API's answer is not a Messages API reply (${describeIssue(parsed.issues[0])}): ${excerpt(safeJson(value))}`,
    };
  const { content, stop_reason: stopReason, usage } = parsed.output;
  const toolCalls: ToolCall[] = [];
  const texts: string[] = [];
  const assistantBlocks: AssistantBlock[] = [];
  for (const block of content) {
    const sendBack = v.safeParse(assistantBlockSchema, block);
    if (sendBack.success) assistantBlocks.push(sendBack.output);
    if (block.type === 'text' && typeof block['text'] === 'string') texts.push(block['text']);
    if (block.type !== 'tool_use') continue;
    const call = v.safeParse(toolCallSchema, block);
    if (!call.success)
      return {
        ok: false,
        error: `the Anthropic API's answer has a malformed tool_use block: ${excerpt(safeJson(block))}`,
      };
    toolCalls.push({ type: 'tool_use', id: call.output.id, name: call.output.name, input: call.output.input });
  }
  return {
    ok: true,
    reply: {
      content: assistantBlocks,
      stopReason: stopReason ?? null,
      inputTokens: usage?.input_tokens ?? 0,
      outputTokens: usage?.output_tokens ?? 0,
      text: texts.join('\n'),
      toolCalls,
    },
  };
}

/** At most `limit` characters of `text` on one line, for error messages. */
export function excerpt(text: string, limit = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const characters = Array.from(flat);
  return JSON.stringify(characters.length <= limit ? flat : `${characters.slice(0, limit).join('')}…`);
}

function describeIssue(issue: v.BaseIssue<unknown> | undefined): string {
  if (issue === undefined) return 'unexpected shape';
  const path = issue.path?.map((item) => String(item.key)).join('.');
  return path === undefined || path === '' ? issue.message : `${path}: ${issue.message}`;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
