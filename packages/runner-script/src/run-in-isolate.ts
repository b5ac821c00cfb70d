import { messageOf } from '@hookline/core/plugin';
import { prepareNextContext, takeFreshContext } from './fresh-context.ts';
import { compiledScript, type PooledIsolate } from './isolate-pools.ts';
import { CONTEXT_GLOBAL, type ScriptSource } from './script-source.ts';

/** How one run inside an isolate ended. Only `answer` leaves the isolate usable. */
export type IsolateRunOutcome =
  | { readonly kind: 'answer'; readonly text: unknown }
  | { readonly kind: 'out-of-memory' }
  | { readonly kind: 'timed-out' }
  | { readonly kind: 'aborted'; readonly reason: unknown }
  | { readonly kind: 'broken'; readonly error: string };

/** What a run needs besides the isolate and the program. */
export interface IsolateRunLimits {
  readonly signal: AbortSignal;
  /** Wall-clock time for the whole run, awaited promises included. */
  readonly timeoutMs: number;
}

/**
 * Runs the program once in a fresh context of the leased isolate (made ahead of time, while the
 * isolate was idle, when it could be), with the context JSON as input.
 *
 * Two clocks guard the run. isolated-vm's `timeout` stops JavaScript that keeps running (a loop,
 * before or after an `await`) on its own watchdog thread; it does not count time spent waiting on a
 * promise that never settles. The timer here and the caller's signal cover that: either disposes the
 * isolate, which ends whatever it was doing. A disposed isolate is never reused: the pool replaces it.
 */
export function runInIsolate(
  member: PooledIsolate,
  source: ScriptSource,
  contextJson: string,
  limits: IsolateRunLimits,
): Promise<IsolateRunOutcome> {
  const { isolate } = member;
  const { signal, timeoutMs } = limits;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: IsolateRunOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (outcome.kind !== 'answer' && !isolate.isDisposed) isolate.dispose();
      resolve(outcome);
    };
    const onAbort = (): void => settle({ kind: 'aborted', reason: signal.reason });
    const timer = setTimeout(() => settle({ kind: 'timed-out' }), timeoutMs);
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) {
      onAbort();
      return;
    }
    run(member, source, contextJson, timeoutMs).then(
      (text) => settle({ kind: 'answer', text }),
      (error: unknown) => settle(classify(error, member)),
    );
  });
}

async function run(
  member: PooledIsolate,
  source: ScriptSource,
  contextJson: string,
  timeoutMs: number,
): Promise<unknown> {
  const script = await compiledScript(member, source);
  const context = await takeFreshContext(member);
  try {
    // A string crosses as a copy; the harness parses, deep-freezes and deletes it before the hook runs.
    // isolated-vm runs an isolate's calls in the order they were queued, so the fire-and-forget set
    // lands before the run and spares a wait for the isolate's thread.
    context.global.setIgnored(CONTEXT_GLOBAL, contextJson);
    return await script.run(context, { promise: true, timeout: timeoutMs });
  } finally {
    if (!member.isolate.isDisposed) {
      context.release();
      // Made after this run's context is gone, ready when the next run comes: that run waits only for its script.
      prepareNextContext(member);
    }
  }
}

function classify(error: unknown, member: PooledIsolate): IsolateRunOutcome {
  const message = messageOf(error);
  // isolated-vm disposes an isolate that passes its memory limit and says so in the rejection.
  if (member.isolate.isDisposed && /memory limit/i.test(message)) return { kind: 'out-of-memory' };
  if (/execution timed out/i.test(message)) return { kind: 'timed-out' };
  return { kind: 'broken', error: message };
}
