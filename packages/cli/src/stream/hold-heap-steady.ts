import { setFlagsFromString } from 'node:v8';

/**
 * Keeps V8's heap near its live size for a long-lived `hookline run`, whatever the stream's pace.
 * Both flags are read each time V8 resizes a space, so setting them after start works (unlike
 * `--max-semi-space-size` or `--max-old-space-size`, read once when the heap is made).
 *
 * - The young generation keeps its starting size. V8 grows it each time the bytes that survived
 *   collections since the last growth add up to its size — which, for a process that allocates
 *   steadily for hours, always happens sooner or later: on a 64-bit machine it goes to 2 × 64 MB.
 *   What a stream keeps per event lives for under a millisecond, so a small young generation costs
 *   little: collections come more often, each with as little to copy.
 * - The old generation may grow by half its live size (at least V8's minimum step, some MB) before
 *   the next full collection. By default V8 picks a factor of up to 4 from how fast collecting is
 *   compared with the program, so garbage could pile up to several times the ≈ 20 MB that is live,
 *   and resident memory depended on the moment: over 300 000 events one build levelled off at
 *   116 MB in one run and reached 147–158 MB in others; with this setting, side by side with a run
 *   that reached 147 MB, it stayed at 121 MB. A full collection of this small heap then comes every
 *   few tens of thousands of events and takes a few milliseconds, mostly off the main thread.
 */
export function holdHeapSteady(): void {
  setFlagsFromString('--semi-space-growth-factor=1');
  setFlagsFromString('--heap-growing-percent=50');
}
