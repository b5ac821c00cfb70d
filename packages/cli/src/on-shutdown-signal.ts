import process from 'node:process';

const SIGNAL_NUMBERS: Readonly<Record<string, number>> = { SIGINT: 2, SIGTERM: 15 };

/** The conventional exit code of a process ended by `signal`: 128 + its number (130, 143). */
export function signalExitCode(signal: NodeJS.Signals): number {
  return 128 + (SIGNAL_NUMBERS[signal] ?? 1);
}

/**
 * Calls `handler` on the first SIGINT or SIGTERM instead of dying at once, so in-flight hooks can
 * be aborted and their process groups killed; a second signal exits immediately. Returns a function
 * that removes the listeners.
 */
export function onShutdownSignal(handler: (signal: NodeJS.Signals) => void): () => void {
  let received = false;
  const listener = (signal: NodeJS.Signals): void => {
    if (received) process.exit(signalExitCode(signal));
    received = true;
    handler(signal);
  };
  process.on('SIGINT', listener);
  process.on('SIGTERM', listener);
  return () => {
    process.off('SIGINT', listener);
    process.off('SIGTERM', listener);
  };
}
