/**
 * Decodes process output as UTF-8. Hooks may print anything, so invalid sequences become U+FFFD
 * instead of throwing.
 */
export function decodeOutput(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes);
}

/**
 * The last `limit` bytes of `bytes`, decoded. The cut is moved forward past UTF-8 continuation
 * bytes so it does not start in the middle of a character.
 */
export function decodeTail(bytes: Uint8Array, limit: number): string {
  if (limit <= 0) return '';
  let start = Math.max(0, bytes.length - limit);
  // 0b10xxxxxx marks a continuation byte; a character has at most three of them.
  for (let step = 0; step < 3 && start > 0 && start < bytes.length && (bytes[start]! & 0xc0) === 0x80; step++) start++;
  return decodeOutput(bytes.subarray(start));
}
