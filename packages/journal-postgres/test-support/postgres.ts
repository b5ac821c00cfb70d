import { inject } from 'vitest';
import {
  createDatabase,
  type PostgresServerInfo,
  type ProvidedPostgres,
  psql,
  restartPostgres,
  serverUrl,
} from '../../../scripts/postgres-test-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: ProvidedPostgres;
  }
}

export { TEST_PASSWORD } from '../../../scripts/postgres-test-server.ts';

/** The run's PostgreSQL server, as the test files use it. */
export interface TestPostgres {
  readonly port: number;
  url(database?: string): string;
  createDatabase(name: string): string;
  psql(sql: string, database?: string): string;
  /** Restarts the server, dropping every connection. */
  restart(): void;
}

/**
 * The server the globalSetup started, or undefined after saying why this file's tests are skipped
 * (the globalSetup already failed the run where PostgreSQL is required).
 */
export function testPostgres(file: string): TestPostgres | undefined {
  const provided = inject('postgres');
  if (!provided.available) {
    console.warn(`[${file}] ${provided.reason}, so its tests are skipped.`);
    return undefined;
  }
  const server: PostgresServerInfo = provided.server;
  return {
    port: server.port,
    url: (database) => serverUrl(server, database),
    createDatabase: (name) => createDatabase(server, name),
    psql: (sql, database) => psql(server, sql, database),
    restart: () => restartPostgres(server),
  };
}
