/** The journal key of every engine in these tests, child processes included: seals made by one verify in the others. */
export const TEST_JOURNAL_KEY = new Uint8Array(32).fill(3);
