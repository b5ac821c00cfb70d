import type { EventContext } from '../context/event-context.ts';
import type { HookDefinition } from '../config/hook-definition.ts';
import type { EmitOutcome, HookReport } from '../engine/emit-outcome.ts';

/**
 * Watches what an engine does, for tracing or metrics (`otelObserver()` from `@hookline/otel` turns
 * it into OpenTelemetry spans). Core only calls these points; it depends on no telemetry library.
 * An engine without an observer pays nothing for them. Observers must not throw: what they throw
 * is caught and dropped, so telemetry can never change an outcome.
 */
export interface EngineObserver {
  /**
   * An emit starts (before its hooks are selected, so emits that select none are seen too), or a
   * journaled emit is resumed. Returns the observation of this emit, or `undefined` to ignore it.
   */
  emitStarted(start: EmitStart): EmitObservation | undefined;
}

/** What is known when an emit starts. */
export interface EmitStart {
  readonly event: string;
  readonly preset: string;
  /** The context as the host gave it (checked, not yet normalised). */
  readonly context: Readonly<Record<string, unknown>>;
  /** The value of the preset's session field (`run_id`, `task`, `session_id`), when it is a string. */
  readonly session?: string;
  /** The emit re-runs the durable hooks of a journal entry (`engine.resume()`), not a host's call. */
  readonly resumed?: boolean;
}

/** One emit being watched. */
export interface EmitObservation {
  /** A selected hook starts (its sandbox, if any, is opened after this). */
  hookStarted(hook: HookDefinition, context: EventContext): HookObservation | undefined;
  /** Every hook of the emit is over: the final outcome, non-blocking hooks included. Called once. */
  ended(outcome: EmitOutcome): void;
  /** The emit failed as a whole (a bug or misuse, not a hook's failure, which is in the outcome). */
  failed(error: unknown): void;
}

/** One hook run being watched. */
export interface HookObservation {
  /**
   * Trace context for the hook's process or request, as W3C Trace Context fields by lower-case name
   * (`traceparent`, `tracestate`): HTTP runners send them as headers, command runners as upper-case
   * environment variables (`TRACEPARENT`); runners read them as `RunCall.traceContext`.
   */
  readonly traceContext?: Readonly<Record<string, string>>;
  /** The hook's report: ran, failed, timed out, or skipped because the engine closed. Called once. */
  ended(report: HookReport): void;
}
