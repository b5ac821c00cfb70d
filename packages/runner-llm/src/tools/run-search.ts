import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { SearchJob, SearchResult } from './search-job.ts';

// The worker's module sits beside this one, as .ts in the sources and .js once built.
const WORKER = new URL(`./search-worker${extname(fileURLToPath(import.meta.url))}`, import.meta.url);

/**
 * Runs a search in a worker thread that `signal` (the hook's deadline) terminates. The model
 * chooses the pattern, and a regular expression with catastrophic backtracking, or a brace pattern
 * that expands without end, would otherwise block the host's event loop — and with it every other
 * hook and the deadline itself. The worker's heap is capped for the same reason.
 */
export function runSearch(
  job: SearchJob,
  signal: AbortSignal,
): Promise<{ readonly ok: true; readonly result: SearchResult } | { readonly ok: false; readonly error: string }> {
  if (signal.aborted) return Promise.resolve({ ok: false, error: 'the hook ended before the search started' });
  return new Promise((resolve) => {
    const worker = new Worker(WORKER, {
      workerData: job,
      resourceLimits: { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32 },
    });
    let settled = false;
    const finish = (outcome: { ok: true; result: SearchResult } | { ok: false; error: string }): void => {
      if (settled) return;
      settled = true;
      signal.removeEventListener('abort', stop);
      resolve(outcome);
      void worker.terminate();
    };
    const stop = (): void => finish({ ok: false, error: 'the search was stopped: the hook ended' });
    signal.addEventListener('abort', stop, { once: true });
    worker.once('message', (result: SearchResult) => finish({ ok: true, result }));
    worker.once('error', (error: Error) => finish({ ok: false, error: `the search failed: ${error.message}` }));
    worker.once('exit', (code) =>
      finish({ ok: false, error: `the search ended without a result (exit code ${code})` }),
    );
  });
}
