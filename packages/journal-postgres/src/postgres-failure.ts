import { JournalError, messageOf } from '@hookline/core/plugin';
import { PostgresFailureCause } from './postgres-failure-cause.ts';
import { scrub } from './redact-url.ts';

// Node's and the client's codes for a server that cannot be reached or dropped the connection.
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ETIMEDOUT',
  'ECONNRESET',
  'EPIPE',
  'CONNECT_TIMEOUT',
  'CONNECTION_CLOSED',
  'CONNECTION_ENDED',
  'CONNECTION_DESTROYED',
]);

// SQLSTATEs of a statement that gave up on another session rather than failed: the journal is fine and
// the same operation succeeds once that session lets go. Each reads as what happened, for the message.
const BUSY: Readonly<Record<string, string>> = {
  '55P03': 'another session held a lock it needed past its lock timeout', // lock_not_available
  '57014': 'a statement was cancelled, by a statement or lock timeout', // query_canceled
  '40001': "a transaction conflicted with another session's", // serialization_failure
  '40P01': 'a statement deadlocked with another session', // deadlock_detected
};

/** The wait a lock timeout ended, as the message names it: lockTimeoutMs, or the server's own setting at 0. */
function lockWait(lockTimeoutMs: number | undefined): string {
  if (lockTimeoutMs === undefined) return '';
  return lockTimeoutMs === 0 ? " (the server's lock_timeout)" : ` of ${lockTimeoutMs} ms`;
}

/**
 * A one-line {@link JournalError} for what the server or the client reported, worded by its cause
 * and saying what to do. `url` is already redacted; every secret the error's text might quote is
 * scrubbed, and the cause kept is a scrubbed copy ({@link PostgresFailureCause}), never the client's own error.
 */
export function describePostgresFailure(
  error: unknown,
  url: string,
  secrets: readonly string[],
  lockTimeoutMs?: number,
): JournalError {
  if (JournalError.isInstance(error)) return error;
  const given = (error as { code?: unknown } | null)?.code;
  const code = typeof given === 'string' || typeof given === 'number' ? String(given) : '';
  const detail = scrub(oneLine(messageOf(error)), secrets);
  const cause = new PostgresFailureCause(detail, code);
  const fail = (message: string): JournalError => new JournalError(message, { location: url, cause });
  if (UNREACHABLE.has(code))
    return fail(
      `The hook journal ${url} cannot be reached (${detail}). Check that the PostgreSQL server runs and that the URL's host and port are right.`,
    );
  // Busy, not unusable: the engine then fails an emit's durable hooks instead of running them unjournaled.
  const busy = BUSY[code];
  if (busy !== undefined)
    return new JournalError(
      `The hook journal ${url} is busy: ${busy}${code === '55P03' ? lockWait(lockTimeoutMs) : ''} (${detail}). The journal is fine: retry once the other session lets go, or raise lockTimeoutMs.`,
      { location: url, cause, busy: true },
    );
  // 28P01 invalid_password, 28000 invalid_authorization_specification (no pg_hba.conf entry, …).
  if (code === '28P01' || code === '28000' || code === 'SASL_SIGNATURE_MISMATCH') {
    return fail(
      `The hook journal ${url} refused the login (${detail}). Put the right user and password in the URL, or the password in PGPASSWORD.`,
    );
  }
  if (code === '3D000')
    return fail(
      `The hook journal ${url} names a database that does not exist (${detail}). Create it (createdb NAME) or fix the URL's database.`,
    );
  if (code === '42501')
    return fail(
      `The hook journal ${url} refused an operation (${detail}). Grant the user CREATE on the database and the schema, or choose a schema it may use.`,
    );
  return fail(`The hook journal ${url} failed: ${detail}.`);
}

/** The error for tables written by a newer version of this package; they are left as they are. */
export function newerSchema(url: string, found: number, known: number): JournalError {
  return new JournalError(
    `The hook journal ${url} was written by a newer @hookline/journal-postgres (schema ${found}; this one knows ${known}). Upgrade @hookline/journal-postgres on this machine; the tables were left as they are.`,
    { location: url },
  );
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
