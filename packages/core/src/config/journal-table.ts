import * as v from 'valibot';
import type { ConfigIssue } from './config-issue.ts';

/**
 * The `[journal]` table: where durable hooks are journaled and who runs them. One schema for loading
 * and for the JSON Schema. The host (the CLI) reads the values; core only checks them.
 */
export const journalTableSchema = v.strictObject({
  url: v.optional(
    v.pipe(
      v.string(),
      v.nonEmpty(),
      v.description('postgres://user@host:port/database for a journal shared by many machines (password from the URL or PGPASSWORD), or the path of an SQLite file. Default .hookline/journal.db.'),
    ),
  ),
  run: v.optional(
    v.pipe(
      v.picklist(['emitter', 'workers']),
      v.description('"emitter" (default): the process that emits runs its durable hooks. "workers": emit and run only record them; `hookline worker` processes run them.'),
    ),
  ),
  max_attempts: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Attempts before an entry is dead-lettered (default 10).'))),
  lease_ms: v.optional(v.pipe(v.number(), v.integer(), v.minValue(3), v.description('How long a hold on an entry lasts without renewal (default 30000); renewed every third of it.'))),
});

/** The issues of a `[journal]` value, each with the line of the table. */
export function checkJournalTable(value: unknown, file: string, line: number): ConfigIssue[] {
  if (value === undefined) return [];
  const result = v.safeParse(journalTableSchema, value);
  if (result.success) return [];
  return result.issues.map((issue) => {
    const key = issue.path?.map((item) => String(item.key)).join('.');
    return {
      file,
      line,
      message: key === undefined || key === '' ? `\`journal\` must be a table: ${issue.message}` : `\`journal.${key}\`: ${issue.message}`,
      fix: 'write [journal] with url = "postgres://…" or a file path, run = "emitter" or "workers", max_attempts = N, lease_ms = N',
    };
  });
}
