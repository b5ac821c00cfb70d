import { messageOf } from '@hookline/core/plugin';
import { PrivateAddressError } from './private-address-error.ts';
import { redactSecrets } from './redact-secrets.ts';

/** What a message about a failed request needs. */
export interface RequestErrorScope {
  /** `POST https://host/path`, as messages show it. */
  readonly request: string;
  readonly secrets: readonly string[];
}

// OpenSSL's verification failures (node's `error.code`) and what they mean in words.
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_REVOKED',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
]);

interface ErrorFacts {
  readonly message: string;
  readonly code?: string;
}

/**
 * Turns what the HTTP client threw into one sentence that says what failed and what to do. The
 * client's own text is passed through the redactor, as it may quote what was sent.
 */
export function describeRequestError(error: unknown, scope: RequestErrorScope): string {
  return redactSecrets(sentence(error, scope.request), scope.secrets);
}

function sentence(error: unknown, request: string): string {
  const refused = findError(error, (candidate) => PrivateAddressError.isInstance(candidate));
  if (refused !== undefined) return `${request}: ${messageOf(refused)}`;
  const facts = factsOf(error);
  const code = facts.code;
  if (code !== undefined && TLS_CODES.has(code)) {
    return `${request}: the server's TLS certificate was rejected: ${facts.message} (${code}); give the server a certificate from a CA this host trusts (NODE_EXTRA_CA_CERTS adds one), or set tls = "no_verify" to skip the check for this hook`;
  }
  if (code === 'ECONNREFUSED')
    return `${request}: connection refused (${facts.message}); is the server running and listening there?`;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN')
    return `${request}: the host name could not be resolved (${facts.message})`;
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return `${request}: connecting timed out (${facts.message})`;
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return `${request}: no response headers arrived in time`;
  if (code === 'UND_ERR_BODY_TIMEOUT') return `${request}: the response body stalled`;
  if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE') {
    return `${request}: the connection closed before a complete answer (${facts.message})`;
  }
  if (code !== undefined && /^ERR_SSL_|^ERR_TLS_|^EPROTO$/.test(code)) {
    return `${request}: the TLS handshake failed: ${facts.message} (${code}); is the server speaking https on that port?`;
  }
  return `${request} failed: ${facts.message}${code === undefined ? '' : ` (${code})`}`;
}

// Node reports a refused dual-stack connect as an AggregateError with an empty message; the parts say more.
function factsOf(error: unknown): ErrorFacts {
  const code = codeOf(error);
  if (error instanceof AggregateError && error.errors.length > 0) {
    const parts = [...new Set(error.errors.map(messageOf).filter((part) => part !== ''))];
    return { message: parts.join('; ') || messageOf(error), ...(code === undefined ? {} : { code }) };
  }
  const cause = error instanceof Error ? error.cause : undefined;
  if (code === undefined && cause !== undefined) return factsOf(cause);
  return { message: messageOf(error), ...(code === undefined ? {} : { code }) };
}

function findError(error: unknown, test: (candidate: unknown) => boolean, depth = 0): unknown {
  if (depth > 5 || error === undefined || error === null) return undefined;
  if (test(error)) return error;
  if (error instanceof AggregateError) {
    for (const inner of error.errors) {
      const found = findError(inner, test, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return error instanceof Error ? findError(error.cause, test, depth + 1) : undefined;
}

function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}
