/** Collects one output stream up to a byte limit, dropping and flagging the excess. */
export interface OutputCapture {
  /** Takes a chunk as it arrives; bytes past the limit are dropped, never buffered. */
  write(chunk: Uint8Array): void;
  /** The kept bytes, at most the limit. */
  bytes(): Uint8Array;
  /** Whether anything was dropped. */
  readonly truncated: boolean;
}

/**
 * Creates a capture that keeps at most `limit` bytes — for sandbox providers honouring
 * `ExecRequest.maxOutputBytes`. The caller keeps draining the stream after the limit, so a talkative
 * process never blocks on a full pipe and is not killed for its volume.
 */
export function createOutputCapture(limit: number): OutputCapture {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  return {
    write(chunk) {
      if (chunk.length === 0) return;
      const room = limit - size;
      if (room <= 0) {
        truncated = true;
        return;
      }
      // Copy what is kept: a chunk is often a view into a larger read buffer, which must not be pinned.
      const kept = chunk.slice(0, Math.min(room, chunk.length));
      if (kept.length < chunk.length) truncated = true;
      chunks.push(kept);
      size += kept.length;
    },
    bytes() {
      const joined = new Uint8Array(size);
      let offset = 0;
      for (const chunk of chunks) {
        joined.set(chunk, offset);
        offset += chunk.length;
      }
      return joined;
    },
    get truncated() {
      return truncated;
    },
  };
}
