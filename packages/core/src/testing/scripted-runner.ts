import * as v from 'valibot';
import type { EventContext } from '../context/event-context.ts';
import type { OnErrorPolicy } from '../decisions/decision.ts';
import { defineRunner, type RunResult, type Runner } from '../plugins/runner.ts';

/** One call the scripted runner received. */
export interface ScriptedCall {
  readonly hook: string;
  readonly context: EventContext;
  /** The run id of the sandbox session the engine handed over, if any. */
  readonly sandboxRunId?: string;
}

/** Settings of {@link scriptedRunner}. */
export interface ScriptedRunnerSettings {
  /** The hook type it provides; default `scripted`. */
  readonly type?: string;
  readonly usesSandbox?: boolean;
  readonly defaultOnError?: OnErrorPolicy;
  readonly defaultTimeoutMs?: number;
}

/** A runner whose behaviour each hook scripts in its config, with a record of what it was asked. */
export interface ScriptedRunner extends Runner {
  readonly calls: ScriptedCall[];
  /** Most hooks that were running at the same time. */
  readonly maxActive: number;
}

const options = v.object({
  decision: v.optional(v.picklist(['proceed', 'skip', 'block', 'override'])),
  reason: v.optional(v.string()),
  edge_to: v.optional(v.string()),
  /** Answer after this long; an abort ends the wait early (as a well-behaved runner does). */
  delay_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
  /** Return `status: "failed"` with this error text. */
  fail: v.optional(v.string()),
  /** Throw an Error with this message (a runner bug). */
  throw: v.optional(v.string()),
  /** Never settle, ignoring the abort signal. */
  hang: v.optional(v.boolean()),
  /** Keep waiting `delay_ms` even after an abort, then answer late. */
  ignore_abort: v.optional(v.boolean()),
  /** Return a result that is not a valid decision. */
  invalid: v.optional(v.boolean()),
});

/**
 * An in-memory runner for engine tests and demos: each hook says in its own keys what to answer, how
 * long to take, or how to misbehave (`fail`, `throw`, `hang`, `ignore_abort`, `invalid`).
 *
 * ```toml
 * [[hooks]]
 * event = "stage_start"
 * type = "scripted"
 * decision = "skip"
 * reason = "not today"
 * ```
 */
export function scriptedRunner(settings: ScriptedRunnerSettings = {}): ScriptedRunner {
  const type = settings.type ?? 'scripted';
  const calls: ScriptedCall[] = [];
  let active = 0;
  let maxActive = 0;
  const runner = defineRunner({
    name: '@hookline/core/testing',
    types: {
      [type]: {
        options,
        defaultTimeoutMs: settings.defaultTimeoutMs ?? 5_000,
        defaultOnError: settings.defaultOnError ?? 'block',
        usesSandbox: settings.usesSandbox ?? false,
        identity: (script) => `${type}:${script.decision ?? 'proceed'}:${script.reason ?? ''}`,
        // An instant answer comes back synchronously, as an in-memory runner's would; only a script
        // that waits (`delay_ms`, `hang`) answers through a promise.
        doRun(hook, call) {
          const script = hook.options;
          calls.push({
            hook: hook.name,
            context: call.context,
            ...(call.sandbox === undefined ? {} : { sandboxRunId: call.sandbox.runId }),
          });
          active++;
          maxActive = Math.max(maxActive, active);
          if (script.hang !== true && script.delay_ms === undefined) {
            try {
              return answer(script);
            } finally {
              active--;
            }
          }
          return (async () => {
            try {
              if (script.hang === true) return await new Promise<never>(() => undefined);
              // The signal is read only when waiting: an instant answer should cost what the engine costs.
              await sleep(script.delay_ms!, script.ignore_abort === true ? undefined : call.signal);
              if (call.signal.aborted && script.ignore_abort !== true) return { status: 'failed', error: 'aborted' };
              return answer(script);
            } finally {
              active--;
            }
          })();
        },
      },
    },
  });
  return Object.defineProperties(runner, {
    calls: { value: calls, enumerable: true },
    maxActive: { get: () => maxActive, enumerable: true },
  }) as ScriptedRunner;
}

/** What a script answers once any wait is over (or throws, as a buggy runner would). */
function answer(script: v.InferOutput<typeof options>): RunResult {
  if (script.throw !== undefined) throw new Error(script.throw);
  if (script.fail !== undefined) return { status: 'failed', error: script.fail };
  // `override` without the edge it needs: well-typed, and still not a valid decision.
  if (script.invalid === true) return { status: 'ok', decision: { decision: 'override' } };
  return {
    status: 'ok',
    decision: {
      decision: script.decision ?? 'proceed',
      ...(script.reason === undefined ? {} : { reason: script.reason }),
      ...(script.edge_to === undefined ? {} : { edge_to: script.edge_to }),
    },
    details: { scripted: true },
  };
}

function sleep(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, milliseconds);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
