import * as v from 'valibot';
import { defineSettingsTable, type SettingsTable } from './settings-table.ts';

/**
 * `[journal]`: where durable hooks are journaled and who runs them, for every journal (SQLite and
 * PostgreSQL read the same table). The loader validates it at its lines; a host reads the output
 * from `config.settings.journal` to choose and configure the journal.
 */
/** The `[journal]` settings as the loader hands them over. */
export interface JournalSettings {
  readonly url?: string | undefined;
  readonly run?: 'emitter' | 'workers' | undefined;
  readonly max_attempts?: number | undefined;
  readonly lease_ms?: number | undefined;
  readonly busy_timeout_ms?: number | undefined;
}

// Typed by hand rather than inferred: a published symbol of core needs an explicit type (JSR).
export const journalSettingsTable: SettingsTable<v.GenericSchema<JournalSettings, JournalSettings>> =
  defineSettingsTable({
    path: 'journal',
    description: 'Where durable hooks are journaled and who runs them.',
    schema: v.object({
      url: v.optional(
        v.pipe(
          v.string(),
          v.nonEmpty(),
          v.description(
            'postgres://user@host:port/database for a journal shared by many machines (password from the URL or PGPASSWORD), or the path of an SQLite file. Default .hookline/journal.db; HOOKLINE_JOURNAL wins.',
          ),
        ),
      ),
      run: v.optional(
        v.pipe(
          v.picklist(['emitter', 'workers']),
          v.description(
            '"emitter" (default): the process that emits runs its durable hooks. "workers": emit and run only record them; `hookline worker` processes run them.',
          ),
        ),
      ),
      max_attempts: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(1),
          v.description('Takes of an entry before it is dead-lettered (default 10; recording counts as the first).'),
        ),
      ),
      lease_ms: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(3),
          v.description(
            'How long a hold on an entry lasts without renewal (default 30000); renewed every third of it.',
          ),
        ),
      ),
      busy_timeout_ms: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(0),
          v.description(
            "How long a journal operation waits, in all, for a lock another process holds (default 30000): the SQLite file's lock, or a PostgreSQL row or table lock (its lock_timeout; 0 waits not at all). Past it the emit reports its durable hooks failed; they never run unjournaled.",
          ),
        ),
      ),
    }),
  });
