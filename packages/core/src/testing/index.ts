export {
  journalConformanceCases,
  type JournalCaseSettings,
  type JournalConformanceOptions,
} from './journal-conformance.ts';
export { memoryJournal, type MemoryJournal } from './memory-journal.ts';
export {
  runnerConformanceCases,
  type ConformanceCase,
  type ConformanceScenarios,
  type RunnerConformanceOptions,
} from './runner-conformance.ts';
export {
  scriptedRunner,
  type ScriptedCall,
  type ScriptedRunner,
  type ScriptedRunnerSettings,
} from './scripted-runner.ts';
