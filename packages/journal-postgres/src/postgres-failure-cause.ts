import { HooklineError } from '@hookline/core/plugin';

/**
 * The scrubbed copy of what the server or the client reported, kept as a {@link JournalError}'s
 * cause: its message with every secret removed, and `reason`, the server's SQLSTATE or the client's
 * code (`28P01`, `ECONNREFUSED`) when there was one. Never the client's own error, which may quote
 * the password.
 */
export class PostgresFailureCause extends HooklineError {
  readonly reason: string | undefined;

  constructor(message: string, reason: string) {
    super('HOOKLINE_POSTGRES_FAILED', message);
    this.name = 'PostgresFailureCause';
    this.reason = reason === '' ? undefined : reason;
  }
}
