import type { WireAnswer } from '@hookline/core';
import type { CliIo } from '../cli-io.ts';

/**
 * The one answer a bridge run gives: the first one written wins, later ones (a deadline that fires
 * while the hooks' answer is written, a crash after the answer) are dropped. Only this writes to the
 * agent's stdout.
 */
export interface BridgeAnswer {
  /** Writes `answer` unless one was written; resolves to the exit code of the answer that was written. */
  give(answer: WireAnswer): number;
  readonly given: boolean;
}

export function bridgeAnswer(io: CliIo): BridgeAnswer {
  let written: WireAnswer | undefined;
  return {
    give(answer) {
      if (written !== undefined) return written.exitCode;
      written = answer;
      if (answer.stdout !== undefined) io.stdout.write(answer.stdout);
      if (answer.stderr !== undefined) io.stderr.write(answer.stderr);
      return answer.exitCode;
    },
    get given() {
      return written !== undefined;
    },
  };
}
