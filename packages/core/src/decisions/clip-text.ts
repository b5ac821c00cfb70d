/**
 * The most characters a hook's reason, error or warning keeps in its report. A reason is read by a
 * person or a model, and the whole outcome must stay printable: one hook returning a 300-million
 * character reason once made `hookline run` fail with "Invalid string length". The engine applies it
 * to every runner's answer, first- and third-party alike.
 */
export const MAX_REASON_CHARACTERS = 4_096;

/**
 * `text` unchanged when it has at most `max` characters; else its first `max` characters (never half
 * a surrogate pair) followed by `… (cut at N characters)`, so a reader sees that something is missing.
 */
export function clipText(text: string, max: number = MAX_REASON_CHARACTERS): string {
  if (text.length <= max) return text;
  const end = (text.charCodeAt(max - 1) & 0xfc00) === 0xd800 ? max - 1 : max;
  return `${text.slice(0, end)}… (cut at ${max} characters)`;
}
