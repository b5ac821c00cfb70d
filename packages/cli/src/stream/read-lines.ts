import { StringDecoder } from 'node:string_decoder';

/** The lines of an input stream, read one at a time. */
export interface LineReader extends AsyncIterable<string> {
  /** Ends the iteration at once, whether or not the stream has more. */
  close(): void;
}

/** How much decoded input may wait before the stream is paused, in UTF-16 units. */
const READ_AHEAD = 1 << 20;

/**
 * Splits `input` into lines as `readline` does with `crlfDelay: Infinity` — a line ends at `\n`,
 * `\r\n` or a lone `\r`, and a last line without an end still counts — without readline's queue of
 * line strings and events. Each chunk is decoded the moment it arrives, so no byte buffer waits in
 * the stream (a buffer that waits long enough is promoted, and its memory then stays until the next
 * full collection); lines are cut from the decoded text only when they are asked for. Input that
 * races ahead pauses the stream once about a megabyte waits.
 */
export function readLines(input: NodeJS.ReadableStream): LineReader {
  const decoder = new StringDecoder('utf8');
  const texts: string[] = [];
  let waiting = 0;
  let ended = false;
  let closed = false;
  let failure: { readonly error: unknown } | undefined;
  let wake: (() => void) | undefined;
  const onData = (chunk: string | Buffer): void => {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    if (text !== '') {
      texts.push(text);
      waiting += text.length;
      if (waiting > READ_AHEAD) input.pause();
    }
    wake?.();
  };
  const onEnd = (): void => {
    if (ended) return;
    ended = true;
    const rest = decoder.end();
    if (rest !== '') texts.push(rest);
    wake?.();
  };
  const onError = (error: unknown): void => {
    failure ??= { error };
    onEnd();
  };
  const close = (): void => {
    closed = true;
    wake?.();
  };
  input.on('data', onData);
  input.once('end', onEnd);
  input.once('close', onEnd);
  input.once('error', onError);

  return {
    close,
    async *[Symbol.asyncIterator]() {
      // The text being cut, where the next line starts in it, and the start of a line that began
      // in an earlier chunk; `afterCr`: the previous chunk ended with `\r`, so a leading `\n` is its.
      let text = '';
      let start = 0;
      let head = '';
      let afterCr = false;
      let nextLf = -1;
      let nextCr = -1;
      try {
        while (!closed) {
          if (start >= text.length) {
            if (texts.length === 0) {
              if (ended) break;
              await new Promise<void>((resolve) => (wake = resolve));
              wake = undefined;
              continue;
            }
            text = texts.shift()!;
            waiting -= text.length;
            if (waiting <= READ_AHEAD / 2 && input.isPaused()) input.resume();
            start = afterCr && text.charCodeAt(0) === 0x0a ? 1 : 0;
            afterCr = false;
            nextLf = text.indexOf('\n', start);
            nextCr = text.indexOf('\r', start);
            continue;
          }
          if (nextLf === -1 && nextCr === -1) {
            head += text.slice(start);
            start = text.length;
            continue;
          }
          const end = nextCr === -1 || (nextLf !== -1 && nextLf < nextCr) ? nextLf : nextCr;
          const line = head === '' ? text.slice(start, end) : head + text.slice(start, end);
          head = '';
          start = end + 1;
          if (end === nextCr) {
            if (start === text.length) afterCr = true;
            else if (text.charCodeAt(start) === 0x0a) start += 1;
            nextCr = text.indexOf('\r', start);
          }
          if (nextLf !== -1 && nextLf < start) nextLf = text.indexOf('\n', start);
          yield line;
        }
        if (failure !== undefined) throw failure.error;
        if (!closed && head !== '') yield head;
      } finally {
        input.off('data', onData);
        input.off('end', onEnd);
        input.off('close', onEnd);
        input.off('error', onError);
        input.pause();
      }
    },
  };
}
