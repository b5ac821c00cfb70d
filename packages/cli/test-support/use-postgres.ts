import { afterAll, beforeAll, test } from 'vitest';
import {
  createDatabase,
  findPostgresBinaries,
  postgresRequired,
  psql,
  startPostgres,
  type PostgresServer,
} from '../../../scripts/postgres-test-server.ts';

/** A test file's own throwaway PostgreSQL server (the repository's test server script). */
export interface TestPostgres {
  readonly available: boolean;
  /** A new database on the server, as a URL with the test password in it. */
  database(name: string): string;
  /** Runs SQL in `database` and returns psql's unaligned output. */
  sql(database: string, text: string): string;
}

/**
 * Starts a server for the file's tests and stops it after them. Without server binaries the tests are
 * skipped with a message — but fail with CI=true or HOOKLINE_REQUIRE_POSTGRES=1.
 */
export function usePostgres(file: string): TestPostgres {
  const available = findPostgresBinaries() !== undefined;
  let server: PostgresServer | undefined;
  if (!available) {
    if (postgresRequired()) {
      test('a PostgreSQL server can be started (required: CI=true or HOOKLINE_REQUIRE_POSTGRES=1)', () => {
        throw new Error(
          'PostgreSQL server binaries are required for these tests: none in /usr/lib/postgresql/*/bin (apt-get install postgresql)',
        );
      });
    } else
      console.warn(
        `[${file}] PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb), so its tests are skipped.`,
      );
  } else {
    beforeAll(async () => {
      server = await startPostgres();
    }, 120_000);
    afterAll(() => server?.stop());
  }
  return {
    available,
    database: (name) => createDatabase(server!, name),
    sql: (database, text) => psql(server!, text, database),
  };
}
