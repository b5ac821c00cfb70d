// When Hookline runs as root, the sandbox's user is nobody on the host too: a file only root may read
// stays unreadable inside wherever it lies, and a hook writes only where nobody may.
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { bubblewrapProblem, reportBubblewrapProblem } from '../test-support/bubblewrap-probe.ts';
import { bubblewrapSandbox } from './bubblewrap-sandbox.ts';
import { STAGE_FAILED, STAGE_SCRIPT } from './plan-binds.ts';

const problem = bubblewrapProblem();
reportBubblewrapProblem(problem, 'root-identity.test.ts');
const root = process.getuid?.() === 0;
if (!root)
  console.warn(
    '[root-identity.test.ts] not running as root: the root-only tests are skipped (they need to make root-owned files in /etc and /opt)',
  );

let work: string;
let secrets: string[];
beforeEach(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'hookline-bwrap-root-')));
  chmodSync(work, 0o755);
  secrets = [];
});
afterEach(() => {
  rmSync(work, { recursive: true, force: true });
  for (const secret of secrets) rmSync(secret, { force: true });
});

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

// A root-owned 0600 file with a recognisable content, removed after the test.
function plantSecret(path: string): string {
  const content = `root-only-${Math.random().toString(36).slice(2)}`;
  writeFileSync(path, content, { mode: 0o600 });
  chownSync(path, 0, 0);
  secrets.push(path);
  return content;
}

describe.skipIf(problem !== undefined || !root)('bubblewrap started by root', () => {
  test('a root-only file is unreadable inside: in /etc, in /opt, in the cwd, in a readable path', async () => {
    mkdirSync(join(work, 'shared'));
    const places = [
      `/etc/hookline-secret-${process.pid}`,
      `/opt/hookline-secret-${process.pid}`,
      join(work, 'secret.key'),
      join(work, 'shared', 'keytab'),
    ];
    const contents = places.map(plantSecret);
    const session = await bubblewrapSandbox({ readable: [join(work, 'shared')] }).doOpen(
      'root-files',
      new AbortController().signal,
    );
    const result = await session.exec({
      command:
        places.map((place) => `cat '${place}' 2>&1`).join('; ') + '; cat /etc/default/cacerts /etc/shadow 2>&1; true',
      cwd: work,
    });
    const seen = text(result.stdout);
    for (const content of contents) expect(seen).not.toContain(content);
    expect(seen.match(/Permission denied/g)?.length).toBeGreaterThanOrEqual(places.length);
    // The same files are readable to root outside: the test would see them if the sandbox's user were root.
    for (const [index, place] of places.entries()) expect(readFileSync(place, 'utf8')).toBe(contents[index]);
    await session.dispose();
  });

  test('a root-owned cwd is read-only to the hook; one given to nobody is writable; one nobody cannot enter is refused', async () => {
    const session = await bubblewrapSandbox().doOpen('root-cwd', new AbortController().signal);
    const denied = await session.exec({ command: 'id -u; touch written 2>&1; true', cwd: work });
    expect(text(denied.stdout)).toMatch(/^65534\n.*Permission denied/s);
    const given = join(work, 'given');
    mkdirSync(given);
    chownSync(given, 65534, 65534);
    const allowed = await session.exec({ command: 'echo ok > written', cwd: given });
    expect(allowed.exitCode, text(allowed.stderr)).toBe(0);
    expect(readFileSync(join(given, 'written'), 'utf8')).toBe('ok\n');
    const closed = join(work, 'closed');
    mkdirSync(closed, { mode: 0o700 });
    await expect(session.exec({ command: 'true', cwd: closed })).rejects.toThrow(
      /runs as root, so hooks run as uid 65534 .* may not enter that folder/,
    );
    await session.dispose();
  });

  test('the context file arrives as a copy: root-only on the host, readable by the hook, its host path nowhere in mountinfo', async () => {
    const session = await bubblewrapSandbox().doOpen('root-context', new AbortController().signal);
    const file = await session.writeFile({ name: 'context-root.json', data: '{"event":"x"}' });
    const result = await session.exec({
      command: 'cat "$CONTEXT"; echo; cat /proc/self/mountinfo',
      cwd: work,
      env: { CONTEXT: file },
    });
    const seen = text(result.stdout);
    expect(seen.startsWith('{"event":"x"}\n')).toBe(true);
    expect(seen).toMatch(/ \/tmp\/context-root\.json /);
    expect(seen).not.toMatch(/hookline-[A-Za-z0-9]{6}\/context-root\.json/);
    await session.dispose();
  });

  test('a project below a folder only root may pass (as under /root) still runs: binds are staged by root', async () => {
    const closed = join(work, 'private');
    mkdirSync(join(closed, 'project'), { recursive: true, mode: 0o700 });
    chmodSync(closed, 0o700);
    chownSync(join(closed, 'project'), 65534, 65534);
    const session = await bubblewrapSandbox().doOpen('root-staged', new AbortController().signal);
    const result = await session.exec({ command: 'pwd; echo staged > out.txt', cwd: join(closed, 'project') });
    expect(result.exitCode, text(result.stderr)).toBe(0);
    expect(text(result.stdout)).toBe(`${join(closed, 'project')}\n`);
    expect(readFileSync(join(closed, 'project', 'out.txt'), 'utf8')).toBe('staged\n');
    await session.dispose();
  });

  test('the staging step binds each object in a private mount namespace; the host sees nothing of it', () => {
    mkdirSync(join(work, 'checked'));
    writeFileSync(join(work, 'checked', 'inside.txt'), 'seen');
    writeFileSync(join(work, 'file.txt'), 'file');
    const stage = mkdtempSync(join(tmpdir(), 'hookline-stage-test-'));
    try {
      const run = spawnSync(
        'unshare',
        [
          '--mount',
          '--propagation',
          'private',
          '--',
          'sh',
          '-c',
          STAGE_SCRIPT,
          'hookline-stage',
          stage,
          '',
          'd',
          join(work, 'checked'),
          'f',
          join(work, 'file.txt'),
          '--',
          'sh',
          '-c',
          `cat ${stage}/1/inside.txt ${stage}/2; stat -c %d:%i ${stage}/1`,
        ],
        { encoding: 'utf8' },
      );
      expect(run.stdout, run.stderr).toBe(`seenfile${identity(join(work, 'checked'))}\n`);
      expect(readdirSync(stage)).toEqual([]);
      const missing = spawnSync(
        'unshare',
        [
          '--mount',
          '--propagation',
          'private',
          '--',
          'sh',
          '-c',
          STAGE_SCRIPT,
          'hookline-stage',
          stage,
          '',
          'd',
          join(work, 'gone'),
          '--',
          'echo',
          'ran',
        ],
        { encoding: 'utf8' },
      );
      expect(missing.status).toBe(STAGE_FAILED);
      expect(missing.stdout).toBe('');
      expect(missing.stderr).toMatch(/^hookline-stage: mount: /);
    } finally {
      rmSync(stage, { recursive: true, force: true });
    }
  });
});

function identity(path: string): string {
  const stats = statSync(path);
  return `${stats.dev}:${stats.ino}`;
}
