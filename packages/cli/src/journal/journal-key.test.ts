// The journal key is made once per user, by whichever process needs it first — often several at the
// same moment (`hookline worker`s and emitters started together). Each must find a whole key.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, test } from 'vitest';

const MODULE = new URL('./journal-key.ts', import.meta.url).href;
// A process that loads the key and prints it in hex, or the error it got.
const LOAD = `
const { loadJournalKey } = await import(${JSON.stringify(MODULE)});
try {
  const { bytes } = loadJournalKey(process.env);
  process.stdout.write('key ' + Buffer.from(bytes).toString('hex'));
} catch (error) {
  process.stdout.write('error ' + error.message);
}`;

let state: string;
beforeEach(() => {
  state = mkdtempSync(join(tmpdir(), 'hookline-key-'));
});
afterEach(() => rmSync(state, { recursive: true, force: true }));

async function loadInProcess(stateHome: string): Promise<string> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', LOAD], {
    env: { PATH: process.env['PATH'] ?? '', XDG_STATE_HOME: stateHome },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  await once(child, 'close');
  return out;
}

test('processes that start at once on a fresh home all get one whole key, and leave no draft behind', async () => {
  for (let round = 0; round < 8; round++) {
    const home = join(state, `round-${round}`);
    const answers = await Promise.all(Array.from({ length: 8 }, () => loadInProcess(home)));
    const keys = new Set(answers);
    expect(answers.filter((answer) => !answer.startsWith('key '))).toEqual([]);
    expect(keys.size).toBe(1);
    const folder = join(home, 'hookline');
    expect(readdirSync(folder)).toEqual(['journal.key']);
    const file = join(folder, 'journal.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(`key ${readFileSync(file, 'utf8').trim()}`).toBe([...keys][0]);
  }
}, 120_000);

test('a key already there is kept as it is', async () => {
  const folder = join(state, 'hookline');
  mkdirSync(folder, { mode: 0o700 });
  const key = 'ab'.repeat(32);
  writeFileSync(join(folder, 'journal.key'), `${key}\n`, { mode: 0o600 });
  expect(await loadInProcess(state)).toBe(`key ${key}`);
  expect(readdirSync(folder)).toEqual(['journal.key']);
});
