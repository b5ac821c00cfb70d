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
 * Creates a capture that keeps at most `limit` bytes (SPEC §7). The exec stream keeps being read
 * after the limit, so a talkative hook never stalls on a full pipe and is not killed for its volume.
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
      // Copy what is kept: the chunk is a view into the socket's read buffer, which must not be pinned.
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
