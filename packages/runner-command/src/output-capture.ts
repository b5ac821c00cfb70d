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
 * Creates a capture that keeps at most `limit` bytes. The reader keeps draining the pipe after the
 * limit, so a talkative process never blocks on a full pipe and is not killed for its volume (SPEC §7).
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
      // Copy the boundary piece so the kept bytes do not pin the whole read buffer.
      const kept = chunk.length <= room ? chunk : chunk.slice(0, room);
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
