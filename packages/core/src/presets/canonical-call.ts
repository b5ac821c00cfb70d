import type { AgentCall, BridgedEvent, BridgeForm } from './agent-adapter.ts';

/** An agent's tool call in canonical terms: the tool's canonical name, its input, context fields to add. */
export interface CanonicalToolCall {
  readonly toolName: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly fields?: Readonly<Record<string, unknown>>;
}

/** What an agent's adapter tells {@link canonicalContext} about one call. */
export interface CanonicalCallParts {
  /** The agent's name as the context's `agent` gives it (`gemini`). */
  readonly agent: string;
  /** The payload field naming the session, when it is not `session_id` (Cursor: `conversation_id`). */
  readonly sessionField?: string;
  /** The tool the call is about and its input as the agent wrote them, if it is about one. */
  readonly tool?: { readonly name: string; readonly input: Readonly<Record<string, unknown>> } | undefined;
  /** The agent's tool in canonical terms. */
  canonicalTool(name: string, input: Readonly<Record<string, unknown>>): CanonicalToolCall;
}

/**
 * The canonical context of an agent's call: the payload's fields (its event name left out), the session
 * as `session_id`, the tool under its canonical name with the agent's name kept in `agent_tool_name`,
 * and which agent and event it came from (`agent`, `agent_event`).
 */
export function canonicalContext(call: AgentCall, parts: CanonicalCallParts): BridgedEvent['context'] {
  const { hook_event_name: _event, ...payload } = call.payload;
  const context: Record<string, unknown> = { ...payload, agent: parts.agent, agent_event: call.agentEvent };
  if (parts.sessionField !== undefined && typeof payload[parts.sessionField] === 'string')
    context['session_id'] = payload[parts.sessionField];
  if (parts.tool !== undefined) {
    const canonical = parts.canonicalTool(parts.tool.name, parts.tool.input);
    Object.assign(context, canonical.fields ?? {}, {
      tool_name: canonical.toolName,
      tool_input: canonical.input,
      agent_tool_name: parts.tool.name,
    });
  }
  return context;
}

/** The input a canonical rewrite stands for: the fields it gave over the ones the agent sent. */
export function mergedInput(
  call: AgentCall,
  rewrite: Readonly<Record<string, unknown>>,
  field = 'tool_input',
): Record<string, unknown> {
  const original = call.payload[field];
  return { ...(isObject(original) ? original : {}), ...rewrite };
}

export function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `AgentAdapter.presetEvent` for an agent whose events map onto the `agent` preset's by `canonical`
 * (`PreToolUse` → `pre_tool_use`): in the agent's own form the event keeps its name; an event the table
 * does not name has no canonical one.
 */
export function presetEventBy(
  canonical: Readonly<Record<string, string>>,
): (agentEvent: string, form: BridgeForm) => string | undefined {
  return (agentEvent, form) =>
    form === 'native' ? agentEvent : Object.hasOwn(canonical, agentEvent) ? canonical[agentEvent] : undefined;
}
