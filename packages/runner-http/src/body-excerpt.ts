import { redactSecrets } from './redact-secrets.ts';

/** How much of a response body an error message quotes. */
const EXCERPT_CHARACTERS = 200;

/**
 * A short, single-line, secret-free quote of a response body for an error message, or `''` for an
 * empty body. Secrets are removed before cutting, so a secret cannot survive half-cut at the edge.
 */
export function bodyExcerpt(text: string, secrets: readonly string[]): string {
  const flat = redactSecrets(text, secrets)
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const characters = Array.from(flat);
  return characters.length <= EXCERPT_CHARACTERS ? flat : `${characters.slice(0, EXCERPT_CHARACTERS).join('')}…`;
}
