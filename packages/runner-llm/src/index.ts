export { DEFAULT_TOOL_OUTPUT_BYTES, llmRunner, type LlmRunnerSettings } from './llm-runner.ts';
export {
  agentOptions,
  DEFAULT_MAX_TOOL_ROUNDS,
  MAX_TOOL_ROUNDS_LIMIT,
  promptOptions,
  type AgentHookOptions,
  type PromptHookOptions,
} from './llm-keys.ts';
export {
  DEFAULT_MODEL_ALIAS,
  DEFAULT_MODELS,
  MODELS_CHOSEN_ON,
  modelsSchema,
  modelsSettingsTable,
  resolveModel,
  type ModelResolution,
  type ModelTable,
} from './models.ts';
export { MISSING_CREDENTIALS } from './credentials.ts';
export { DECISION_TOOL_NAME } from './hook-instructions.ts';
export type { MessageRequest, MessageRequestOptions, MessagesClient } from './messages-client.ts';
