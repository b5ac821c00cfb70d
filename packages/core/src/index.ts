// `@hookline/core`: what a host needs — load a config, make the engine, emit events, read outcomes,
// pick a preset, catch Hookline's errors. Plugin authors (runners, sandbox providers, journals,
// presets) import from `@hookline/core/plugin`; conformance kits are in `@hookline/core/testing`.
// A symbol both kinds of reader need (HookDefinition, the error classes, Preset, Runner, …) is in
// both entries: the same binding, so identity checks hold whichever entry a caller imports.
// Only re-exports here. etc/core.api.md records this surface (scripts/api-report).
export { configHookTypes } from './config/config-hook-types.ts';
export { configJsonSchema } from './config/config-json-schema.ts';
export { formatConfigIssue, type ConfigIssue } from './config/config-issue.ts';
export { MAX_TIMEOUT_MS } from './config/common-hook-keys.ts';
export { nearestWord } from './config/nearest-word.ts';
export type { HookConfig, HookDefinition, SandboxSettings, SourceLocation } from './config/hook-definition.ts';
export { loadConfig, type LoadConfigOptions } from './config/load-config.ts';
export {
  readConfigSource,
  type ConfigFormat,
  type ConfigSource,
  type ConfigText,
} from './config/read-config-source.ts';
export { MAX_CONFIG_BYTES, MAX_CONFIG_STRING_BYTES, MAX_HOOKS } from './config/config-bounds.ts';
export { oversizedConfigSource } from './config/oversized-config-source.ts';
export { readSettingsTables, type SettingsReading } from './config/read-settings-tables.ts';
export type { SourceLines } from './config/source-lines.ts';
export {
  fieldsOf,
  requiredFields,
  type CliContextDefault,
  type ContextField,
  type ContextFieldType,
  type ContextSchema,
} from './context/context-field.ts';
export type { EventContext } from './context/event-context.ts';
export {
  DECISION_KINDS,
  OUTCOME_EXTRAS,
  type DecisionKind,
  type HookDecision,
  type OnErrorPolicy,
  type OutcomeExtra,
} from './decisions/decision.ts';
export { mergeDecisions, type MergedDecision } from './decisions/merge-decisions.ts';
export { mergeExtras, type MergedExtras } from './decisions/merge-extras.ts';
export { createHookEngine, type HookEngine, type HookEngineOptions } from './engine/create-hook-engine.ts';
export type { EmitOutcome, HookReport, HookStatus, PendingEmitOutcome } from './engine/emit-outcome.ts';
export type { ResumeOptions, ResumeReport } from './engine/resume-journal.ts';
export { ConfigError } from './errors/config-error.ts';
export { EngineClosedError } from './errors/engine-closed-error.ts';
export { HooklineError } from './errors/hookline-error.ts';
export { InvalidContextError } from './errors/invalid-context-error.ts';
export { InvalidOptionError } from './errors/invalid-option-error.ts';
export { JournalError } from './errors/journal-error.ts';
export { HookStoppedError } from './errors/hook-stopped-error.ts';
export { messageOf } from './errors/message-of.ts';
export { PresetError } from './errors/preset-error.ts';
export { SandboxRefusedError } from './errors/sandbox-refused-error.ts';
export { UnknownEventError } from './errors/unknown-event-error.ts';
export { combineObservers } from './plugins/combine-observers.ts';
export type { EmitObservation, EmitStart, EngineObserver, HookObservation } from './plugins/engine-observer.ts';
export {
  journalEntryState,
  type Journal,
  type JournalAttempt,
  type JournalEntry,
  type JournalEntryState,
  type JournalStats,
} from './plugins/journal.ts';
export {
  purgeDeadLetters,
  retryDeadLetters,
  type DeadLetterRetry,
  type DeadLetterSelection,
} from './plugins/dead-letters.ts';
export type { Runner } from './plugins/runner.ts';
export type { SandboxProvider } from './plugins/sandbox-provider.ts';
export {
  findEvent,
  HOOKLINE_CONFIG_FILES,
  matcherFieldsOf,
  sessionEndEvents,
  type EventSpec,
  type Preset,
  type PresetConfigFile,
  type PresetStarter,
  type WireAnswer,
} from './presets/preset.ts';
export { PresetRegistry, type PresetSource } from './presets/preset-registry.ts';
export {
  agentNames,
  findAgentPreset,
  type AgentAdapter,
  type AgentCall,
  type BridgedEvent,
  type BridgeForm,
  type SettingsCommand,
  type WireVerdict,
} from './presets/agent-adapter.ts';
export { builtInPresets } from './presets/built-in-presets.ts';
export * from './presets/built-in-exports.ts';
export { explainHook, selectHooks, type HookSelection } from './selection/explain-selection.ts';
export type { Matcher } from './selection/compile-matcher.ts';
export { PROTECTED_NAMES, type ProtectedPathsSettings } from './plugins/protected-paths.ts';
export { MATCHER_INPUT_LIMIT } from './selection/lookaround-matcher.ts';
