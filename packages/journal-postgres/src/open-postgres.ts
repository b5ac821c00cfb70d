import type { Sql } from 'postgres';
import { newerSchema } from './postgres-failure.ts';
import { migrations, SCHEMA_VERSION } from './postgres-schema.ts';
import type { TableNames } from './table-names.ts';

/** How the client connects. */
export interface ConnectSettings {
  readonly url: string;
  readonly maxConnections: number;
  readonly connectTimeoutSeconds: number;
  /** The server's `lock_timeout` for the journal's sessions, in ms; 0 sends none (the server's own applies). */
  readonly lockTimeoutMs: number;
}

/**
 * Loads the client (on first use: constructing a journal loads nothing), connects, and makes or
 * migrates the tables in one transaction under an advisory lock on the schema, so processes that
 * start together wait for one another and the later ones find the tables made. Tables of a newer
 * schema version are refused, untouched. Rejects with what the client threw (the caller words it).
 */
export async function openPostgres(settings: ConnectSettings, names: TableNames, shownUrl: string): Promise<Sql> {
  const { default: postgres } = await import('postgres');
  const sql = postgres(settings.url, {
    max: settings.maxConnections,
    connect_timeout: settings.connectTimeoutSeconds,
    // CREATE … IF NOT EXISTS says "already exists, skipping" as a notice; nobody needs to read it.
    onnotice: () => undefined,
    // The journal uses built-in types only: no round trip at connect to learn the database's own.
    fetch_types: false,
    // lock_timeout as a startup parameter: every session of the pool gets it at connect, without a
    // round trip of its own. A statement that waits longer fails with 55P03, which the journal reports
    // as busy. 0 is left out (the client drops falsy parameters): the server's or role's setting applies.
    connection: { application_name: 'hookline-journal', lock_timeout: settings.lockTimeoutMs },
  });
  try {
    await sql.begin(async (transaction) => {
      await transaction.unsafe('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [names.lockName]);
      const [found] = await transaction.unsafe('SELECT to_regclass($1) IS NOT NULL AS present', [names.meta]);
      let version = 0;
      if (found?.['present'] === true) {
        const [row] = await transaction.unsafe(`SELECT value FROM ${names.meta} WHERE key = 'schema_version'`);
        version = Number(row?.['value'] ?? 0);
      }
      if (version > SCHEMA_VERSION) throw newerSchema(shownUrl, version, SCHEMA_VERSION);
      if (version === SCHEMA_VERSION) return;
      for (const statement of migrations(names, version)) await transaction.unsafe(statement);
      await transaction.unsafe(
        `INSERT INTO ${names.meta} (key, value) VALUES ('schema_version', $1) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [String(SCHEMA_VERSION)],
      );
    });
  } catch (error) {
    await sql.end({ timeout: 1 }).catch(() => undefined);
    throw error;
  }
  return sql;
}
