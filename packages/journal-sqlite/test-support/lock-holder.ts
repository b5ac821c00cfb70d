// Another process holding the journal's write lock: opens the SQLite file, takes the lock with
// `BEGIN IMMEDIATE`, prints "locked", and lets go (ROLLBACK) when a line arrives on stdin, then exits.
// Run as `node test-support/lock-holder.ts <journal file>`.
import process from 'node:process';
import { DatabaseSync } from 'node:sqlite';

const db = new DatabaseSync(process.argv[2]!, { timeout: 10_000 });
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\n');
process.stdin.once('data', () => {
  db.exec('ROLLBACK');
  db.close();
  process.stdout.write('released\n');
  process.exit(0);
});
