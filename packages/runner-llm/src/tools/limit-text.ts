/**
 * Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character, so a tool result stays
 * within what the model is sent.
 */
export function limitText(text: string, maxBytes: number): { readonly text: string; readonly truncated: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, truncated: false };
  let end = maxBytes;
  // Step back over continuation bytes (10xxxxxx) to the start of the character that would be cut.
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString('utf8'), truncated: true };
}
