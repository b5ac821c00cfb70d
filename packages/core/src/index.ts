export { configHookTypes } from './config/config-hook-types.ts';
export { configJsonSchema } from './config/config-json-schema.ts';
export type { ConfigDialect, DialectHook, DialectPreset, DialectResult, DialectSource } from './config/config-dialect.ts';
export type { HookExtras, HookSchemas } from './config/hook-schemas.ts';
export { formatConfigIssue, type ConfigIssue } from './config/config-issue.ts';
export { commonHookKeys, MAX_TIMEOUT_MS } from './config/common-hook-keys.ts';
export { firstCharacters } from './config/effective-name.ts';
export { nearestWord } from './config/nearest-word.ts';
export type { HookConfig, HookDefinition, SandboxSettings, SourceLocation } from './config/hook-definition.ts';
export { loadConfig, type LoadConfigOptions } from './config/load-config.ts';
export { readConfigSource, type ConfigFormat, type ConfigSource, type ConfigText } from './config/read-config-source.ts';
export { MAX_CONFIG_BYTES, MAX_CONFIG_STRING_BYTES, MAX_HOOKS } from './config/config-bounds.ts';
export { oversizedConfigSource } from './config/oversized-config-source.ts';
export { readSettingsTables, type SettingsReading } from './config/read-settings-tables.ts';
export type { SourceLines } from './config/source-lines.ts';
export { fieldsOf, requiredFields, type CliContextDefault, type ContextField, type ContextFieldType, type ContextSchema } from './context/context-field.ts';
export type { EventContext } from './context/event-context.ts';
export { clipText, MAX_REASON_CHARACTERS } from './decisions/clip-text.ts';
export { DECISION_KINDS, OUTCOME_EXTRAS, type DecisionKind, type HookDecision, type OnErrorPolicy, type OutcomeExtra } from './decisions/decision.ts';
export { mergeDecisions, type MergedDecision } from './decisions/merge-decisions.ts';
export { mergeExtras, type MergedExtras } from './decisions/merge-extras.ts';
export { parseDecision, parseDecisionText } from './decisions/parse-decision.ts';
export { createHookEngine, type HookEngine, type HookEngineOptions } from './engine/create-hook-engine.ts';
export type { EmitOutcome, HookReport, HookStatus, PendingEmitOutcome } from './engine/emit-outcome.ts';
export type { ResumeOptions, ResumeReport } from './engine/resume-journal.ts';
export { ConfigError } from './errors/config-error.ts';
export { EngineClosedError } from './errors/engine-closed-error.ts';
export { HooklineError } from './errors/hookline-error.ts';
export { InvalidContextError } from './errors/invalid-context-error.ts';
export { InvalidOptionError } from './errors/invalid-option-error.ts';
export { JournalError } from './errors/journal-error.ts';
export { messageOf } from './errors/message-of.ts';
export { PluginError } from './errors/plugin-error.ts';
export { SettingsError } from './errors/settings-error.ts';
export { UnknownEventError } from './errors/unknown-event-error.ts';
export { combineObservers } from './plugins/combine-observers.ts';
export type { EmitObservation, EmitStart, EngineObserver, HookObservation } from './plugins/engine-observer.ts';
export { FIRST_PARTY_TYPES } from './plugins/first-party-types.ts';
export { createInFlight, type InFlight } from './plugins/create-in-flight.ts';
export { createOutputCapture, type OutputCapture } from './plugins/output-capture.ts';
export { parseByteSize } from './plugins/parse-byte-size.ts';
export { byteSizeProblem, settingKey, unknownSettingMessage } from './plugins/settings-issues.ts';
export { sleepUnlessAborted } from './plugins/sleep-unless-aborted.ts';
export { journalSettingsTable, type JournalSettings } from './plugins/journal-settings.ts';
export { defineSettingsTable, settingsTableOf, type SettingsFactory, type SettingsOf, type SettingsTable } from './plugins/settings-table.ts';
export { snakeCase, snakeCaseTable } from './plugins/snake-case-table.ts';
export { isSandboxVariable, SANDBOX_VARIABLES, sandboxEnvironment } from './plugins/sandbox-environment.ts';
export {
  defineJournal,
  JOURNAL_INTERFACE_VERSION,
  journalEntryState,
  type Journal,
  type DisabledTarget,
  type JournalAttempt,
  type JournalEntry,
  type JournalEntryState,
  type JournalNext,
  type JournalListQuery,
  type JournalProcessGroup,
  type JournalRecord,
  type JournalRetryOptions,
  type JournalStats,
  type ProcessGroupSealer,
} from './plugins/journal.ts';
export { purgeDeadLetters, retryDeadLetters, type DeadLetterRetry, type DeadLetterSelection } from './plugins/dead-letters.ts';
export { canonicalJson, createJournalSeal, type JournalKey, type JournalSeal, type SealVerdict } from './plugins/journal-seal.ts';
export { interfaceVersionProblem, type PluginInterface } from './plugins/interface-version.ts';
export {
  defineRunner,
  defineRunnerType,
  RUNNER_INTERFACE_VERSION,
  type DeliveryCall,
  type DeliveryVerdict,
  type RunCall,
  type Runner,
  type RunnerDeclaration,
  type RunnerType,
  type RunResult,
} from './plugins/runner.ts';
export type { HookKeyProblem, HookOptions, HookOptionsSchema, HookTypeDeclaration } from './plugins/runner-type.ts';
export type { KeyRule } from './plugins/key-rule.ts';
export { integerInRange } from './plugins/integer-in-range.ts';
export {
  defineSandboxProvider,
  SANDBOX_PROVIDER_INTERFACE_VERSION,
  type ExecRequest,
  type ExecResult,
  type SandboxFileRequest,
  type SandboxProvider,
  type SandboxSession,
} from './plugins/sandbox-provider.ts';
export { AGENT_CONTEXT_VARIABLE_LIMIT, agentPreset } from './presets/agent-preset.ts';
export { arcPreset } from './presets/arc-preset.ts';
export {
  findEvent,
  HOOKLINE_CONFIG_FILES,
  matcherFieldsOf,
  sessionEndEvents,
  type CommandProtocol,
  type EventSpec,
  type Preset,
  type PresetAnswer,
  type PresetCommand,
  type PresetConfigFile,
  type PresetStarter,
  type PresetEnvironment,
  type PresetHookDefaults,
} from './presets/preset.ts';
export { claudeMatcher } from './presets/claude-matcher.ts';
export { claudePreset } from './presets/claude-preset.ts';
export { readClaudeAnswer } from './presets/claude-answer.ts';
export { DEFAULT_PRESET, presetFor, presets } from './presets/presets.ts';
export { taskHookName } from './presets/task-dialect.ts';
export { taskPreset } from './presets/task-preset.ts';
export { explainHook, selectHooks, type HookSelection } from './selection/explain-selection.ts';
export type { Matcher } from './selection/compile-matcher.ts';
