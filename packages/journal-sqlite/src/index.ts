export { sqliteJournal, type SqliteJournal, type SqliteJournalSettings } from './sqlite-journal.ts';
