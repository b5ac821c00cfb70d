import { describe, expect, test } from 'vitest';
import { createFrameDemuxer } from './frame-demuxer.ts';

function frame(stream: number, payload: string): Uint8Array {
  const body = new TextEncoder().encode(payload);
  const bytes = new Uint8Array(8 + body.length);
  bytes[0] = stream;
  new DataView(bytes.buffer).setUint32(4, body.length);
  bytes.set(body, 8);
  return bytes;
}

function collect(chunks: readonly Uint8Array[]): { stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const decoder = new TextDecoder();
  const demuxer = createFrameDemuxer({
    stdout: (payload) => (stdout += decoder.decode(payload)),
    stderr: (payload) => (stderr += decoder.decode(payload)),
  });
  for (const chunk of chunks) demuxer.push(chunk);
  return { stdout, stderr };
}

describe('createFrameDemuxer', () => {
  test('separates stdout and stderr frames that share a chunk', () => {
    const joined = new Uint8Array([...frame(1, 'out-1 '), ...frame(2, 'err-1 '), ...frame(1, 'out-2')]);
    expect(collect([joined])).toEqual({ stdout: 'out-1 out-2', stderr: 'err-1 ' });
  });

  test('reassembles headers and payloads split at every byte', () => {
    const joined = new Uint8Array([...frame(2, 'a warning'), ...frame(1, '{"decision":"proceed"}')]);
    const bytes = [...joined].map((byte) => new Uint8Array([byte]));
    expect(collect(bytes)).toEqual({ stdout: '{"decision":"proceed"}', stderr: 'a warning' });
  });

  test('passes a large frame on in pieces as they arrive', () => {
    const big = frame(1, 'x'.repeat(100_000));
    const pieces: number[] = [];
    const demuxer = createFrameDemuxer({ stdout: (payload) => pieces.push(payload.length), stderr: () => undefined });
    for (let offset = 0; offset < big.length; offset += 16_384) demuxer.push(big.subarray(offset, offset + 16_384));
    expect(pieces.reduce((sum, length) => sum + length, 0)).toBe(100_000);
    expect(pieces.length).toBeGreaterThan(1);
  });

  test('an empty frame is fine', () => {
    expect(collect([new Uint8Array([...frame(1, ''), ...frame(2, 'e')])])).toEqual({ stdout: '', stderr: 'e' });
  });
});
