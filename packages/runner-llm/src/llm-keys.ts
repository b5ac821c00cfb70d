import { integerInRange, type HookOptions } from '@hookline/core/plugin';
import * as v from 'valibot';

/** An agent gets up to 50 tool rounds unless its hook says otherwise. */
export const DEFAULT_MAX_TOOL_ROUNDS = 50;

/** Upper bound of `max_tool_rounds`: every round re-sends the whole conversation, so the cost grows with its square. */
export const MAX_TOOL_ROUNDS_LIMIT = 1_000;

const promptMessage = 'must be a string holding the instructions for the model';
const modelMessage = 'must be a model alias ("haiku", "sonnet", "opus", or one from [models]) or a full model id';
const roundsMessage = `must be an integer from 1 to ${MAX_TOOL_ROUNDS_LIMIT}`;

const prompt = v.pipe(
  v.string(promptMessage),
  v.regex(/\S/, 'must not be empty or only whitespace'),
  v.description(
    'What the model is asked to judge; the event context follows it. It answers ok (proceed) or not (block).',
  ),
);
const model = v.optional(
  v.pipe(
    v.string(modelMessage),
    v.regex(/^\S+$/, modelMessage),
    v.description('A model alias ("haiku", the default, "sonnet", "opus", or one from [models]) or a full model id.'),
  ),
);

const rounds = integerInRange(1, MAX_TOOL_ROUNDS_LIMIT, roundsMessage);

/** The valibot object schema of a prompt hook's own keys; the core merges them with the common hook keys. */
export const promptOptions = v.object({ prompt, model });

/** The valibot object schema of an agent hook's own keys: a prompt hook's, and its tool rounds. */
export const agentOptions = v.object({
  prompt,
  model,
  max_tool_rounds: v.optional(
    v.pipe(
      rounds,
      v.description('How many rounds of tool calls the agent may make before it must answer (default 50).'),
    ),
  ),
});

/** The keys of a `type = "prompt"` hook as its runner receives them: `prompt`, and `model` (`"haiku"` when absent). */
export type PromptHookOptions = HookOptions<typeof promptOptions>;

/** The keys of a `type = "agent"` hook: a prompt hook's, and `max_tool_rounds` (50 when absent). */
export type AgentHookOptions = HookOptions<typeof agentOptions>;
