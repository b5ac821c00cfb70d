import type IsolatedVM from 'isolated-vm';
import type { PooledIsolate } from './isolate-pools.ts';

/**
 * A context for the next run of `member`: the one made ahead of time while the isolate was idle,
 * or a new one. Either way no run has touched it: a prepared context is handed out once and only
 * made after the previous run's context was released.
 */
export function takeFreshContext(member: PooledIsolate): Promise<IsolatedVM.Context> {
  const prepared = member.nextContext;
  member.nextContext = undefined;
  return prepared ?? member.isolate.createContext();
}

/**
 * Starts making the next run's context now, on the isolate's own thread, so that the next run does
 * not wait for it (making a context is most of what a short script costs). Only an isolate that can
 * serve again prepares one; one that is disposed meanwhile rejects the promise, which nobody awaits
 * then and which is therefore marked handled here.
 */
export function prepareNextContext(member: PooledIsolate): void {
  if (member.isolate.isDisposed || member.nextContext !== undefined) return;
  const next = member.isolate.createContext();
  next.catch(() => undefined);
  member.nextContext = next;
}
