/** RFC 9110 field names: a token of visible ASCII without separators. */
const FIELD_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Characters that would split or end a header line: never allowed in a value (RFC 9110 §5.5). */
export const FORBIDDEN_VALUE_CHARACTERS = /[\r\n\0]/;

// The runner owns message framing and connection management; a hook setting these would corrupt it.
const RUNNER_OWNED = new Set([
  'content-length',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'te',
  'trailer',
  'expect',
  'proxy-connection',
]);

/** The headers the runner sets when it signs a delivery (Standard Webhooks). */
export const SIGNATURE_HEADERS: readonly string[] = ['webhook-id', 'webhook-timestamp', 'webhook-signature'];

/** Why a hook may not set header `name` (with signing on or off), or `undefined` when it may. */
export function headerNameProblem(name: string, signing: boolean): string | undefined {
  if (!FIELD_NAME.test(name))
    return `header name ${JSON.stringify(name)} is not a valid HTTP field name (letters, digits and !#$%&'*+-.^_\`|~ only)`;
  const lower = name.toLowerCase();
  if (RUNNER_OWNED.has(lower)) return `header \`${name}\` is managed by the HTTP client and cannot be set by a hook`;
  if (signing && SIGNATURE_HEADERS.includes(lower))
    return `header \`${name}\` is set by signing (signing_secret_env) and cannot also be set by the hook`;
  return undefined;
}
