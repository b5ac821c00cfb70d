export { sqliteJournal, type SqliteJournalSettings } from './sqlite-journal.ts';
