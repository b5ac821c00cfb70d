// Loaded into a CLI process with `--expose-gc --import` by memory tests (never imported by a test
// itself): on SIGUSR2 it collects all garbage and prints the process's memory figures on stderr, as
// one line starting with `heap-probe:` and then JSON.
//
// Each figure is the least of a few samples, each taken after a full collection and a short pause: V8
// frees the memory behind dead ArrayBuffers on a background thread after the collection, so one sample
// taken at once can still count megabytes of Buffers that are already garbage. What stays in every
// sample is what the process really holds, and a leak raises that floor.
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('heap-probe needs node --expose-gc');

const SAMPLES = 4;
const PAUSE_MS = 20;

interface Figures {
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  rss: number;
}

const sample = (): Figures => {
  gc();
  const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage();
  return { heapUsed, external, arrayBuffers, rss };
};

const least = (a: Figures, b: Figures): Figures => ({
  heapUsed: Math.min(a.heapUsed, b.heapUsed),
  external: Math.min(a.external, b.external),
  arrayBuffers: Math.min(a.arrayBuffers, b.arrayBuffers),
  rss: Math.min(a.rss, b.rss),
});

process.on('SIGUSR2', () => {
  let floor = sample();
  let taken = 1;
  const next = (): void => {
    floor = least(floor, sample());
    taken += 1;
    if (taken < SAMPLES) setTimeout(next, PAUSE_MS);
    else process.stderr.write(`heap-probe:${JSON.stringify(floor)}\n`);
  };
  setTimeout(next, PAUSE_MS);
});
