import { InvalidOptionError } from '@hookline/core/plugin';

/** Where a journal's tables live: a PostgreSQL schema and a prefix for the table names. */
export interface TableNames {
  /** The schema, quoted. */
  readonly schema: string;
  /** `"schema"."<prefix>journal"`: one row per entry not cleared yet. */
  readonly journal: string;
  /** `"schema"."<prefix>meta"`: key/value rows; `schema_version` is the one that matters. */
  readonly meta: string;
  /** `"schema"."<prefix>disabled_targets"`: endpoints that get no delivery until re-enabled. */
  readonly disabledTargets: string;
  /** The claim index's name, unquoted (index names take the table's schema). */
  readonly claimIndex: string;
  /** `"schema"."<prefix>claim_entry"`: the function that leases the oldest claimable entry. */
  readonly claimFunction: string;
  /** `"schema"."<prefix>claim_next"`: clears an entry its holder finished and claims the next, in one call. */
  readonly claimNextFunction: string;
  /** The NOTIFY channel on which entries that became claimable are announced. */
  readonly channel: string;
  /** What the advisory lock that serialises schema changes in this schema is keyed by. */
  readonly lockName: string;
}

// Lower-case identifiers only: they need no quoting rules of their own and read the same in psql.
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/;
// PostgreSQL truncates identifiers (and channel names) beyond 63 bytes.
const MAX_IDENTIFIER = 63;

/** The names for `schema` and `prefix`; an InvalidOptionError says what is allowed when they do not fit. */
export function tableNames(schema: string, prefix: string): TableNames {
  if (!IDENTIFIER.test(schema) || schema.length > MAX_IDENTIFIER) {
    throw new InvalidOptionError(
      'postgresJournal',
      'schema',
      `schema must be a lower-case SQL identifier (a-z, 0-9, _; not starting with a digit; at most ${MAX_IDENTIFIER} characters), got ${JSON.stringify(schema)}.`,
    );
  }
  if (prefix !== '' && !IDENTIFIER.test(prefix))
    throw new InvalidOptionError(
      'postgresJournal',
      'tablePrefix',
      `tablePrefix must be lower-case letters, digits and _ (not starting with a digit), got ${JSON.stringify(prefix)}.`,
    );
  const channel = `${schema}.${prefix}journal`;
  if (channel.length > MAX_IDENTIFIER) {
    throw new InvalidOptionError(
      'postgresJournal',
      'tablePrefix',
      `schema and tablePrefix together are too long for PostgreSQL's 63-character names ("${channel}"); shorten one of them.`,
    );
  }
  const claimFunction = `${prefix}claim_entry`;
  if (claimFunction.length > MAX_IDENTIFIER)
    throw new InvalidOptionError(
      'postgresJournal',
      'tablePrefix',
      `tablePrefix is too long for PostgreSQL's 63-character names ("${claimFunction}"); shorten it.`,
    );
  return {
    schema: `"${schema}"`,
    journal: `"${schema}"."${prefix}journal"`,
    meta: `"${schema}"."${prefix}meta"`,
    disabledTargets: `"${schema}"."${prefix}disabled_targets"`,
    claimIndex: `${prefix}journal_claim`,
    claimFunction: `"${schema}"."${claimFunction}"`,
    // Shorter than claim_entry, so the length check above covers it.
    claimNextFunction: `"${schema}"."${prefix}claim_next"`,
    channel,
    lockName: `hookline-journal:${schema}`,
  };
}
