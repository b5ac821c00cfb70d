/** The failure text of a hook that has no credentials to call the API with (fail-open, but visible). */
export const MISSING_CREDENTIALS = 'set ANTHROPIC_API_KEY (or pass a client to llmRunner)';

// The SDK throws this (not an APIError) before sending anything when neither an API key, an auth
// token nor its credential chain (profiles, config files) gave it a way to authenticate.
const UNRESOLVED_AUTH = /could not resolve authentication method/i;

/** True when `error` is the SDK's refusal to send a request without credentials. */
export function isMissingCredentials(error: unknown): boolean {
  return (
    error instanceof Error &&
    !('status' in error && typeof error.status === 'number') &&
    UNRESOLVED_AUTH.test(error.message)
  );
}

/**
 * Removes the client's API key and auth token from a text bound for a report. The SDK's own
 * messages do not contain them, but an error from a host's custom `fetch` or proxy might.
 */
export function redactCredentials(
  text: string,
  client: { readonly apiKey?: unknown; readonly authToken?: unknown } | undefined,
): string {
  let redacted = text;
  for (const secret of [client?.apiKey, client?.authToken]) {
    // Very short strings would redact ordinary words; real keys and tokens are long.
    if (typeof secret === 'string' && secret.length >= 8) redacted = redacted.split(secret).join('[redacted]');
  }
  return redacted;
}
