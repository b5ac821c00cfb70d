/** One answer of the container agent. */
export interface AgentAnswer {
  /** The text after `ok`. */
  readonly text: string;
  /** The agent's message when it answered `err`. */
  readonly error?: string;
  /** What an `o` answer carried: each stream's bytes, decoded from the base64 lines before it. */
  readonly stdout: Uint8Array;
  readonly stderr: Uint8Array;
}

/** What the agent's stdout says, line by line. */
export interface AnswerHandlers {
  answer(id: number, answer: AgentAnswer): void;
  /** `0 ready PID SPAWNS`: the detail after `ready`. */
  ready?(detail: string): void;
  /** `0 err MESSAGE`: it could not start. */
  failed?(message: string): void;
  /** `0 gone STATUS`: the agent exited, the container's main process lives on. */
  gone?(status: string): void;
}

/** Reads the agent's stdout as it arrives. */
export interface AnswerReader {
  push(bytes: Uint8Array): void;
}

const ANSWER = /^(\d+) (ok|err)(?: (.*))?$/;
const DATA_START = /^(\d+) ([oe])$/;
const BASE64 = /^[A-Za-z0-9+/=]+$/;
const EMPTY = new Uint8Array(0);

/**
 * Splits the agent's stdout into lines and answers: `ID ok [TEXT]`, `ID err MESSAGE`, and before an
 * `o` answer, `ID o` / `ID e` each followed by the stream's bytes as base64 lines. Only the agent's
 * loop writes to its stdout, so lines of different answers never interleave. Anything else (a line
 * the agent's shell printed by mistake) is skipped.
 */
export function createAnswerReader(handlers: AnswerHandlers): AnswerReader {
  const decoder = new TextDecoder();
  let buffered = '';
  let collecting: { id: number; stream: 'o' | 'e' } | undefined;
  const collected = new Map<number, { o: string[]; e: string[] }>();

  const line = (text: string): void => {
    if (collecting !== undefined && BASE64.test(text)) {
      collected.get(collecting.id)![collecting.stream].push(text);
      return;
    }
    collecting = undefined;
    const start = DATA_START.exec(text);
    if (start !== null) {
      const id = Number(start[1]);
      if (!collected.has(id)) collected.set(id, { o: [], e: [] });
      collecting = { id, stream: start[2] as 'o' | 'e' };
      return;
    }
    if (text.startsWith('0 ready')) return handlers.ready?.(text.slice('0 ready '.length));
    if (text.startsWith('0 gone ')) return handlers.gone?.(text.slice('0 gone '.length));
    const match = ANSWER.exec(text);
    if (match === null) return;
    const [, idText, status, rest = ''] = match;
    const id = Number(idText);
    if (id === 0) {
      if (status === 'err') handlers.failed?.(rest);
      return;
    }
    const data = collected.get(id);
    collected.delete(id);
    const decode = (lines: readonly string[] | undefined): Uint8Array =>
      lines === undefined || lines.length === 0 ? EMPTY : new Uint8Array(Buffer.from(lines.join(''), 'base64'));
    handlers.answer(id, {
      text: status === 'ok' ? rest : '',
      ...(status === 'err' && { error: rest }),
      stdout: decode(data?.o),
      stderr: decode(data?.e),
    });
  };

  return {
    push(bytes) {
      buffered += decoder.decode(bytes, { stream: true });
      let start = 0;
      let newline = buffered.indexOf('\n');
      while (newline >= 0) {
        line(buffered.slice(start, newline));
        start = newline + 1;
        newline = buffered.indexOf('\n', start);
      }
      buffered = buffered.slice(start);
    },
  };
}
