// Measurement helpers shared by the packages' benchmarks (`pnpm bench`): interleaved timing, so
// drift in the machine's load spreads evenly over the contenders, and the statistics they report.

/** One contender of a comparison: a name and one timed operation. */
export interface Contender {
  readonly name: string;
  run(): Promise<void>;
}

/** Durations of each contender in milliseconds per operation, in the order they were taken. */
export type Samples = Map<string, number[]>;

/** How {@link measureInterleaved} times. */
export interface MeasureOptions {
  readonly rounds: number;
  /** Untimed rounds first, to warm caches and the JIT. */
  readonly warmup: number;
  /** Operations per sample; a sample is their mean (for operations close to the clock's cost). Default 1. */
  readonly batch?: number;
}

/**
 * Times every contender round by round, in a rotating order, so drift in the machine's load (other
 * processes, CPU frequency, GC) spreads evenly over all of them.
 */
export async function measureInterleaved(contenders: readonly Contender[], options: MeasureOptions): Promise<Samples> {
  const batch = options.batch ?? 1;
  const samples: Samples = new Map(contenders.map((contender) => [contender.name, []]));
  for (let round = -options.warmup; round < options.rounds; round++) {
    for (let offset = 0; offset < contenders.length; offset++) {
      const contender = contenders[(Math.abs(round) + offset) % contenders.length]!;
      const started = performance.now();
      for (let index = 0; index < batch; index++) await contender.run();
      const elapsed = (performance.now() - started) / batch;
      if (round >= 0) samples.get(contender.name)!.push(elapsed);
    }
  }
  return samples;
}

/** The `fraction` quantile (0.5 = median) of `values`, by nearest rank. */
export function quantile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? Number.NaN;
}

/** The usual figures of one contender's samples. */
export interface Summary {
  readonly name: string;
  readonly median: number;
  readonly p90: number;
  readonly p99: number;
  readonly mean: number;
  readonly samples: number;
}

/** Median, p90, p99 and mean of `times`. */
export function summarize(name: string, times: readonly number[]): Summary {
  const mean = times.reduce((sum, time) => sum + time, 0) / times.length;
  return {
    name,
    median: quantile(times, 0.5),
    p90: quantile(times, 0.9),
    p99: quantile(times, 0.99),
    mean,
    samples: times.length,
  };
}

/** Milliseconds shown as microseconds, e.g. `209.5 µs`. */
export function formatMicros(milliseconds: number): string {
  return `${(milliseconds * 1_000).toFixed(1)} µs`;
}
