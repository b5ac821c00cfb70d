import process from 'node:process';
import type { CliOutput } from '../cli-io.ts';

/** Writes lines to an output, several at once when they are ready together. */
export interface LineWriter {
  /** Queues `line` (without its newline); it goes out before the process waits for anything. */
  write(line: string): void;
  /** Writes what is queued now. */
  flush(): void;
}

/**
 * Gathers the lines written while one batch of ready work runs and writes them in one call once
 * that work is done: the flush is a `process.nextTick`. Queued from a promise callback, it runs once
 * the promise callbacks ready then have run; queued from a plain callback (a chunk of input answered
 * at once), it runs when that callback returns, before any promise callback. Either way no line
 * waits for anything but the work already under way, and a host that sends many lines at once gets
 * one write per chunk of them instead of one per line.
 */
export function createLineWriter(output: CliOutput): LineWriter {
  let queued = '';
  let scheduled = false;
  const flush = (): void => {
    scheduled = false;
    if (queued === '') return;
    const text = queued;
    queued = '';
    output.write(text);
  };
  return {
    write(line) {
      queued += `${line}\n`;
      if (scheduled) return;
      scheduled = true;
      process.nextTick(flush);
    },
    flush,
  };
}
