/** One contender of a comparison: a name and one timed operation. */
export interface Contender {
  readonly name: string;
  run(): Promise<void>;
}

/** Per-operation durations of each contender, in microseconds, one per batch. */
export type Samples = Map<string, number[]>;

/**
 * Times `rounds` batches of `batch` sequential operations of every contender, interleaved round by
 * round in a rotating order, so drift in the machine's load (other processes, CPU frequency, GC)
 * spreads evenly over all of them. Each sample is a batch's mean time per operation.
 */
export async function measureInterleaved(contenders: readonly Contender[], rounds: number, batch: number, warmup: number): Promise<Samples> {
  const samples: Samples = new Map(contenders.map((contender) => [contender.name, []]));
  for (let round = -warmup; round < rounds; round++) {
    for (let offset = 0; offset < contenders.length; offset++) {
      const contender = contenders[(Math.abs(round) + offset) % contenders.length]!;
      const started = performance.now();
      for (let index = 0; index < batch; index++) await contender.run();
      const elapsed = ((performance.now() - started) * 1_000) / batch;
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
