export { postgresJournal, type PostgresJournal, type PostgresJournalSettings } from './postgres-journal.ts';
export { redactUrl } from './redact-url.ts';
