/** What stands in for a secret in messages. */
export const REDACTED = '[redacted]';

/**
 * Replaces every occurrence of each secret in `text`. Used on everything that comes from outside
 * the runner (response bodies, client errors) before it reaches a report: a server that echoes the
 * request's headers must not leak a token into logs.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  // Longest first, so a secret that contains another is replaced whole.
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret !== '') result = result.split(secret).join(REDACTED);
  }
  return result;
}
