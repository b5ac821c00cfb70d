/** The signal of one attempt of a retried delivery: the hook's signal, or the attempt's timeout, whichever comes first. */
export interface AttemptSignal {
  readonly signal: AbortSignal;
  /** Stops the timer and stops following the hook's signal; call it once the attempt is over. */
  dispose(): void;
}

/**
 * One controller, one timer and one listener, all dropped when the attempt ends. The same as
 * `AbortSignal.any([signal, AbortSignal.timeout(ms)])`, which a profile of durable deliveries showed
 * costing several percent of their CPU time: a composite signal follows its sources through weak
 * references, and a timeout signal's timer lives on until it fires.
 */
export function attemptSignal(hookSignal: AbortSignal, timeoutMs: number): AttemptSignal {
  const controller = new AbortController();
  if (hookSignal.aborted) {
    controller.abort(hookSignal.reason);
    return { signal: controller.signal, dispose: () => undefined };
  }
  const onHookAbort = (): void => {
    clearTimeout(timer);
    controller.abort(hookSignal.reason);
  };
  const timer = setTimeout(() => {
    hookSignal.removeEventListener('abort', onHookAbort);
    controller.abort(new DOMException(`the attempt timeout of ${timeoutMs} ms ran out`, 'TimeoutError'));
  }, timeoutMs);
  hookSignal.addEventListener('abort', onHookAbort, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      clearTimeout(timer);
      hookSignal.removeEventListener('abort', onHookAbort);
    },
  };
}
