// `@hookline/core/plugin`: what a runner, sandbox provider, journal or preset author needs — the
// define* helpers and interface versions, the types the engine calls them with, settings tables,
// shared helpers (in-flight tracking, output capture, byte sizes, decisions from text) and the errors
// plugins throw. Hosts import `@hookline/core`; a symbol both need is in both (the same binding).
// Only re-exports here. etc/core-plugin.api.md records this surface (scripts/api-report).
export type {
  ConfigDialect,
  DialectHook,
  DialectPreset,
  DialectResult,
  DialectSource,
} from './config/config-dialect.ts';
export type { HookExtras, HookSchemas } from './config/hook-schemas.ts';
export { formatConfigIssue, type ConfigIssue } from './config/config-issue.ts';
export { commonHookKeys, MAX_TIMEOUT_MS } from './config/common-hook-keys.ts';
export { firstCharacters } from './config/effective-name.ts';
export { nearestWord } from './config/nearest-word.ts';
export type { HookDefinition, SourceLocation } from './config/hook-definition.ts';
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
export { clipText, MAX_REASON_CHARACTERS } from './decisions/clip-text.ts';
export {
  DECISION_KINDS,
  OUTCOME_EXTRAS,
  type DecisionKind,
  type HookDecision,
  type OnErrorPolicy,
  type OutcomeExtra,
} from './decisions/decision.ts';
export { parseDecision, parseDecisionText } from './decisions/parse-decision.ts';
export { decisionProblem } from './decisions/decision-problem.ts';
export { readAnswerText, type AnswerReading, type AnswerTextScope } from './decisions/read-answer-text.ts';
export { PROTECTED_NAMES, type ProtectedPathsSettings } from './plugins/protected-paths.ts';
export { MATCHER_INPUT_LIMIT } from './selection/lookaround-matcher.ts';
export type { EmitOutcome, HookReport, HookStatus } from './engine/emit-outcome.ts';
export { ConfigError } from './errors/config-error.ts';
export { HooklineError } from './errors/hookline-error.ts';
export { InvalidOptionError } from './errors/invalid-option-error.ts';
export { JournalError } from './errors/journal-error.ts';
export { messageOf } from './errors/message-of.ts';
export { PluginError } from './errors/plugin-error.ts';
export { PresetError } from './errors/preset-error.ts';
export { SandboxRefusedError } from './errors/sandbox-refused-error.ts';
export { SettingsError } from './errors/settings-error.ts';
export { combineObservers } from './plugins/combine-observers.ts';
export type { EmitObservation, EmitStart, EngineObserver, HookObservation } from './plugins/engine-observer.ts';
export { FIRST_PARTY_TYPES } from './plugins/first-party-types.ts';
export { createInFlight, type InFlight } from './plugins/create-in-flight.ts';
export { createOutputCapture, type OutputCapture } from './plugins/output-capture.ts';
export { parseByteSize } from './plugins/parse-byte-size.ts';
export { byteSizeProblem, settingKey, unknownSettingMessage } from './plugins/settings-issues.ts';
export { sleepUnlessAborted } from './plugins/sleep-unless-aborted.ts';
export { journalSettingsTable, type JournalSettings } from './plugins/journal-settings.ts';
export {
  defineSettingsTable,
  settingsTableOf,
  type SettingsFactory,
  type SettingsOf,
  type SettingsTable,
} from './plugins/settings-table.ts';
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
export {
  canonicalJson,
  createJournalSeal,
  type JournalKey,
  type JournalSeal,
  type SealVerdict,
} from './plugins/journal-seal.ts';
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
export {
  findEvent,
  matcherFieldsOf,
  sessionEndEvents,
  PRESET_INTERFACE_VERSION,
  type CommandExit,
  type CommandExitReading,
  type CommandExitScope,
  type EventSpec,
  type Preset,
  type PresetAnswer,
  type PresetCommand,
  type PresetConfigFile,
  type PresetStarter,
  type PresetEnvironment,
  type PresetHookDefaults,
  type SandboxEvents,
  type WireAnswer,
} from './presets/preset.ts';
export {
  agentNames,
  findAgentPreset,
  type AgentAdapter,
  type AgentCall,
  type AgentSettings,
  type BridgeAnswerRequest,
  type BridgedEvent,
  type BridgeEntry,
  type BridgeForm,
  type SettingsCommand,
  type WireVerdict,
} from './presets/agent-adapter.ts';
export { matcherGroupSettings, type MatcherGroupOptions } from './presets/matcher-group-settings.ts';
export { definePreset, type PresetDefinition } from './presets/define-preset.ts';
export { PresetRegistry, type PresetSource } from './presets/preset-registry.ts';
export { builtInPresets } from './presets/built-in-presets.ts';
export { readHooklineExit } from './presets/hookline-exit.ts';
export { stdoutAnswerScope } from './presets/command-exit.ts';
export * from './presets/built-in-exports.ts';
export type { Matcher } from './selection/compile-matcher.ts';
