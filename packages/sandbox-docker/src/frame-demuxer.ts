/** Where the payloads of a Docker attach stream go, by stream. */
export interface FrameSinks {
  readonly stdout: (payload: Uint8Array) => void;
  readonly stderr: (payload: Uint8Array) => void;
}

/** Feeds raw bytes of a multiplexed Docker stream; payloads come out on the sinks as they complete. */
export interface FrameDemuxer {
  push(chunk: Uint8Array): void;
}

const HEADER_BYTES = 8;

/**
 * Splits Docker's multiplexed attach stream (used when the exec has no TTY): frames of an 8-byte
 * header — stream type (0 stdin, 1 stdout, 2 stderr), three zero bytes, the payload size as a
 * big-endian uint32 — followed by the payload. Frames may be split across chunks or share one; a
 * payload is passed on in pieces as it arrives, so a large frame is never held whole in memory.
 */
export function createFrameDemuxer(sinks: FrameSinks): FrameDemuxer {
  const header = new Uint8Array(HEADER_BYTES);
  let headerFill = 0;
  let remaining = 0;
  let target: ((payload: Uint8Array) => void) | undefined;
  return {
    push(chunk) {
      let offset = 0;
      while (offset < chunk.length) {
        if (remaining === 0) {
          const take = Math.min(HEADER_BYTES - headerFill, chunk.length - offset);
          header.set(chunk.subarray(offset, offset + take), headerFill);
          headerFill += take;
          offset += take;
          if (headerFill < HEADER_BYTES) return;
          headerFill = 0;
          remaining = ((header[4]! << 24) >>> 0) + (header[5]! << 16) + (header[6]! << 8) + header[7]!;
          // Stdin frames never come back; anything unexpected is counted as stdout rather than lost.
          target = header[0] === 2 ? sinks.stderr : sinks.stdout;
          continue;
        }
        const take = Math.min(remaining, chunk.length - offset);
        target!(chunk.subarray(offset, offset + take));
        remaining -= take;
        offset += take;
      }
    },
  };
}
