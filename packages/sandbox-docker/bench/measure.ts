/** One contender of a comparison: a name and one timed operation. */
export interface Contender {
  readonly name: string;
  run(): Promise<void>;
}

/**
 * Times `rounds` runs of every contender, round by round in a rotating order, so drift in the
 * machine's load spreads evenly over all of them. Returns each contender's durations in ms.
 */
export async function measureInterleaved(contenders: readonly Contender[], rounds: number, warmup: number): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>(contenders.map((contender) => [contender.name, []]));
  for (let round = -warmup; round < rounds; round++) {
    for (let offset = 0; offset < contenders.length; offset++) {
      const contender = contenders[(Math.abs(round) + offset) % contenders.length]!;
      const started = performance.now();
      await contender.run();
      if (round >= 0) samples.get(contender.name)!.push(performance.now() - started);
    }
  }
  return samples;
}

/** The `fraction` quantile (0.5 = median) of `values`, by nearest rank. */
export function quantile(values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1))] ?? Number.NaN;
}
