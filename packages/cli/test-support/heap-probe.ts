// Loaded into a CLI process with `--expose-gc --import` by memory tests (never imported by a test
// itself): on SIGUSR2 it collects all garbage and prints the process's memory figures on stderr, as
// one line starting with `heap-probe:` and then JSON.
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined) throw new Error('heap-probe needs node --expose-gc');

process.on('SIGUSR2', () => {
  gc();
  const { heapUsed, external, arrayBuffers, rss } = process.memoryUsage();
  process.stderr.write(`heap-probe:${JSON.stringify({ heapUsed, external, arrayBuffers, rss })}\n`);
});
