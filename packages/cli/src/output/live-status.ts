import type { EmitObservation, EngineObserver } from '@hookline/core';
import type { CliOutput } from '../cli-io.ts';
import type { Style } from './style.ts';
import { terminalText } from './terminal-text.ts';

/**
 * A live line on a terminal: which hooks have been running for more than a second, ticking. As an
 * engine observer it is told when each hook starts and ends, the engine's own and resumed ones too.
 */
export interface LiveStatus extends EngineObserver {
  /** A hook starts; returns the token `end` takes. */
  start(hookName: string): number;
  /** The hook of `token` ended. */
  end(token: number): void;
  /** Stops ticking and erases the line. */
  stop(): void;
}

const SHOW_AFTER_MS = 1_000;
const TICK_MS = 100;
const CLEAR_LINE = '\r\u001B[2K';

/**
 * `⏳ pre-check 3.2s` on `output` (stderr), redrawn every 100 ms while a hook runs longer than a
 * second, erased when none does. Only for terminals: piped output never gets control characters.
 */
export function createLiveStatus(output: CliOutput, style: Style): LiveStatus {
  const running = new Map<number, { name: string; started: number }>();
  let next = 0;
  let shown = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  const draw = (): void => {
    const now = performance.now();
    const slow = [...running.values()].filter((hook) => now - hook.started >= SHOW_AFTER_MS);
    if (slow.length === 0) {
      if (shown) output.write(CLEAR_LINE);
      shown = false;
      return;
    }
    const text = terminalText(
      slow.map((hook) => `${hook.name} ${((now - hook.started) / 1_000).toFixed(1)}s`).join('  '),
    );
    output.write(`${CLEAR_LINE}⏳ ${style.paint('dim', text)}`);
    shown = true;
  };
  const status: LiveStatus = {
    emitStarted: () => emitWatch,
    start(name) {
      running.set(next, { name, started: performance.now() });
      if (timer === undefined) {
        timer = setInterval(draw, TICK_MS);
        // The line must never keep the CLI alive on its own.
        timer.unref();
      }
      return next++;
    },
    end(token) {
      running.delete(token);
      if (running.size === 0) draw();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
      running.clear();
      draw();
    },
  };
  const emitWatch: EmitObservation = {
    hookStarted(hook) {
      const token = status.start(hook.name);
      return { ended: () => status.end(token) };
    },
    ended: () => undefined,
    failed: () => undefined,
  };
  return status;
}
