// A throwaway PostgreSQL server for tests and benchmarks: initdb + pg_ctl in a temporary directory,
// listening on a free port of 127.0.0.1 only, its unix socket in that directory, all removed when it
// stops. initdb refuses to run as root, so as root the server runs as the `postgres` user (Debian's
// package makes it) through runuser. Also a vitest globalSetup: one server for a package's test run.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';

/** The superuser's password; the tests check that no message ever shows it. */
export const TEST_PASSWORD = 'pw-Zq8vK3tL9x-hookline';

/** Where a running test server is, as the globalSetup hands it to the tests (plain data). */
export interface PostgresServerInfo {
  readonly port: number;
  /** The folder of the server binaries (psql included). */
  readonly bin: string;
  /** The server's data directory and its options, for {@link restartPostgres}. */
  readonly data: string;
  readonly options: string;
}

/** A running server. */
export interface PostgresServer extends PostgresServerInfo {
  /** Stops the server at once and removes its directory; safe to call twice. */
  stop(): void;
}

// Debian's layout; 15 is the version the tests are written against, a newer one serves too.
const ROOT = '/usr/lib/postgresql';

/** The folder of the server binaries (15 if there, else the newest), or undefined when none is installed. */
export function findPostgresBinaries(): string | undefined {
  if (existsSync(join(ROOT, '15', 'bin', 'initdb'))) return join(ROOT, '15', 'bin');
  if (!existsSync(ROOT)) return undefined;
  const versions = readdirSync(ROOT)
    .filter((name) => existsSync(join(ROOT, name, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(ROOT, versions[0], 'bin');
}

/** Whether a missing server fails the run instead of skipping its tests. */
export function postgresRequired(): boolean {
  return process.env['CI'] === 'true' || process.env['HOOKLINE_REQUIRE_POSTGRES'] === '1';
}

/**
 * Starts a server with a `hookline` superuser (password {@link TEST_PASSWORD}, scram-sha-256).
 * Durability is off (fsync, synchronous_commit): the data lives only as long as the run.
 */
export async function startPostgres(): Promise<PostgresServer> {
  const bin = findPostgresBinaries();
  if (bin === undefined)
    throw new Error(`no PostgreSQL server binaries in ${ROOT}/*/bin: install Debian's postgresql package`);
  const asRoot = process.getuid?.() === 0;
  const directory = mkdtempSync(join(tmpdir(), 'hookline-pg-'));
  try {
    if (asRoot) {
      const [uid, gid] = ['-u', '-g'].map((flag) =>
        Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim()),
      );
      chownSync(directory, uid!, gid!);
    }
    const data = join(directory, 'data');
    const run = (file: string, args: readonly string[]): void => runAsServer(bin, file, args);
    const passwordFile = join(directory, 'password');
    writeFileSync(passwordFile, `${TEST_PASSWORD}\n`, { mode: 0o644 });
    run('initdb', [
      '-D',
      data,
      '-U',
      'hookline',
      '--auth=scram-sha-256',
      `--pwfile=${passwordFile}`,
      '-E',
      'UTF8',
      '--no-sync',
    ]);
    rmSync(passwordFile);
    const port = await freePort();
    const options = `-c listen_addresses=127.0.0.1 -p ${port} -c unix_socket_directories=${directory} -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
    run('pg_ctl', ['-D', data, '-o', options, '-l', join(directory, 'server.log'), '-w', '-t', '60', 'start']);
    let stopped = false;
    return {
      port,
      bin,
      data,
      options,
      stop() {
        if (stopped) return;
        stopped = true;
        try {
          run('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
        } finally {
          rmSync(directory, { recursive: true, force: true });
        }
      },
    };
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
}

// The server's programs run as the postgres user when we are root (initdb and postgres refuse root).
function runAsServer(bin: string, file: string, args: readonly string[]): void {
  const [command, argv] =
    process.getuid?.() === 0
      ? ['runuser', ['-u', 'postgres', '--', join(bin, file), ...args]]
      : [join(bin, file), [...args]];
  execFileSync(command, argv, { cwd: tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Restarts the server (`pg_ctl restart -m fast`): every connection is dropped; it listens again when this returns. */
export function restartPostgres(server: PostgresServerInfo): void {
  runAsServer(server.bin, 'pg_ctl', [
    '-D',
    server.data,
    '-o',
    server.options,
    '-l',
    join(server.data, '..', 'server.log'),
    '-m',
    'fast',
    '-w',
    '-t',
    '60',
    'restart',
  ]);
}

/** `postgres://hookline:PASSWORD@127.0.0.1:PORT/DATABASE`. */
export function serverUrl(server: PostgresServerInfo, database = 'postgres'): string {
  return `postgres://hookline:${TEST_PASSWORD}@127.0.0.1:${server.port}/${database}`;
}

/** Runs SQL through psql as the superuser and returns its unaligned, tuples-only output. */
export function psql(server: PostgresServerInfo, sql: string, database = 'postgres'): string {
  return execFileSync(
    join(server.bin, 'psql'),
    [
      '-X',
      '-q',
      '-t',
      '-A',
      '-v',
      'ON_ERROR_STOP=1',
      '-h',
      '127.0.0.1',
      '-p',
      String(server.port),
      '-U',
      'hookline',
      '-d',
      database,
      '-c',
      sql,
    ],
    {
      encoding: 'utf8',
      env: { ...process.env, PGPASSWORD: TEST_PASSWORD },
    },
  );
}

/** Makes a database and returns its URL. */
export function createDatabase(server: PostgresServerInfo, name: string): string {
  psql(server, `CREATE DATABASE "${name}"`);
  return serverUrl(server, name);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** What the globalSetup provides to the tests under the key `postgres`. */
export type ProvidedPostgres =
  | { readonly available: true; readonly server: PostgresServerInfo }
  | { readonly available: false; readonly reason: string };

/**
 * vitest globalSetup: one server for the run, stopped afterwards. Without server binaries the tests
 * learn why and skip — unless CI=true or HOOKLINE_REQUIRE_POSTGRES=1, where the run fails here.
 */
export default async function setup(context: {
  provide(key: 'postgres', value: ProvidedPostgres): void;
}): Promise<() => void> {
  if (findPostgresBinaries() === undefined) {
    const reason = `PostgreSQL is not installed (no ${ROOT}/*/bin/initdb; Debian's postgresql package has it)`;
    if (postgresRequired())
      throw new Error(`${reason}, and these tests require it (CI=true or HOOKLINE_REQUIRE_POSTGRES=1).`);
    context.provide('postgres', { available: false, reason });
    return () => undefined;
  }
  const server = await startPostgres();
  context.provide('postgres', {
    available: true,
    server: { port: server.port, bin: server.bin, data: server.data, options: server.options },
  });
  return () => server.stop();
}

// Run directly (`node scripts/postgres-test-server.ts COMMAND ARGS…`): starts a server, runs the
// command with HOOKLINE_TEST_POSTGRES_URL set to it, stops the server and exits with the command's
// code. For test runners without a globalSetup (Deno's).
if (process.argv[1] !== undefined && import.meta.url === new URL(process.argv[1], 'file://').href) {
  const [command, ...args] = process.argv.slice(2);
  if (command === undefined) throw new Error('usage: node scripts/postgres-test-server.ts COMMAND [ARGS…]');
  if (findPostgresBinaries() === undefined && !postgresRequired()) {
    console.warn(
      `PostgreSQL is not installed (no ${ROOT}/*/bin/initdb), so ${command} runs without a server and skips what needs one.`,
    );
    process.exitCode = spawnSync(command, args, { stdio: 'inherit' }).status ?? 1;
  } else {
    const server = await startPostgres();
    try {
      process.exitCode =
        spawnSync(command, args, {
          stdio: 'inherit',
          env: { ...process.env, HOOKLINE_TEST_POSTGRES_URL: serverUrl(server) },
        }).status ?? 1;
    } finally {
      server.stop();
    }
  }
}
