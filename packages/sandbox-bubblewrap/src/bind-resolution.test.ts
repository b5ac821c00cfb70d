// Every bound path is resolved before it is checked, and what is bound is what was checked: links to
// `/` or a system folder — direct, in the middle of a path, planted by an earlier hook, in `writable`
// or `readable`, `..` — are refused with the resolved target named, and nothing reaches the host.
import { spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import type { SandboxSession } from '@hookline/core/plugin';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { bubblewrapProblem, reportBubblewrapProblem } from '../test-support/bubblewrap-probe.ts';
import { bubblewrapSandbox, type BubblewrapSandboxSettings } from './bubblewrap-sandbox.ts';
import { STAGE_FAILED, VERIFY_SCRIPT } from './plan-binds.ts';

const problem = bubblewrapProblem();
reportBubblewrapProblem(problem, 'bind-resolution.test.ts');

let work: string;
let marker: string;
beforeEach(() => {
  work = realpathSync(mkdtempSync(join(tmpdir(), 'hookline-bwrap-links-')));
  if (process.getuid?.() === 0) chownSync(work, 65534, 65534);
  marker = `hookline-link-probe-${process.pid}-${Date.now()}`;
});
afterEach(() => {
  rmSync(work, { recursive: true, force: true });
  for (const place of ['/', '/etc', '/usr']) rmSync(join(place, marker), { force: true });
});

const text = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);

async function open(settings: BubblewrapSandboxSettings = {}): Promise<SandboxSession> {
  return bubblewrapSandbox({ baseDir: work, ...settings }).doOpen('links', new AbortController().signal);
}

// The hook tries to write into the folder it was given and to read a root-only file: neither may happen.
const attempt = (): string => `touch ${marker}; cat /etc/shadow`;

describe.skipIf(problem !== undefined)('bubblewrap binds what it checked', () => {
  test('a working directory that links to / is refused, naming /', async () => {
    symlinkSync('/', join(work, 'rootlink'));
    const session = await open();
    await expect(session.exec({ command: attempt(), cwd: join(work, 'rootlink') })).rejects.toThrow(
      /does not bind \/ \(.*rootlink resolves to it through a link\) as the working directory/,
    );
    expect(existsSync(join('/', marker))).toBe(false);
    await session.dispose();
  });

  test('links to system folders, a link in the middle of the path and `..` are refused alike', async () => {
    symlinkSync('/etc', join(work, 'etclink'));
    symlinkSync('/', join(work, 'middle'));
    const session = await open();
    await expect(session.exec({ command: attempt(), cwd: join(work, 'etclink') })).rejects.toThrow(
      /does not bind \/etc /,
    );
    await expect(session.exec({ command: attempt(), cwd: join(work, 'middle', 'usr') })).rejects.toThrow(
      /does not bind \/usr /,
    );
    await expect(
      session.exec({ command: attempt(), cwd: `${work}/${'../'.repeat(work.split('/').length)}` }),
    ).rejects.toThrow(/does not bind \/ as the working directory/);
    for (const place of ['/', '/etc', '/usr']) expect(existsSync(join(place, marker))).toBe(false);
    await session.dispose();
  });

  test('a link an earlier hook planted in its own folder is refused as the cwd of a later one', async () => {
    const session = await open();
    const planted = await session.exec({ command: 'ln -s / planted && ln -s /etc planted-etc', cwd: work });
    expect(planted.exitCode, text(planted.stderr)).toBe(0);
    await expect(session.exec({ command: attempt(), cwd: join(work, 'planted') })).rejects.toThrow(
      /does not bind \/ .*planted resolves to it/,
    );
    await expect(session.exec({ command: attempt(), cwd: join(work, 'planted-etc') })).rejects.toThrow(
      /does not bind \/etc .*planted-etc resolves to it/,
    );
    expect(existsSync(join('/', marker))).toBe(false);
    await session.dispose();
  });

  test('writable and readable paths that resolve to / or a system folder are refused', async () => {
    symlinkSync('/', join(work, 'rootlink'));
    symlinkSync('/usr', join(work, 'usrlink'));
    mkdirSync(join(work, 'cwd'));
    if (process.getuid?.() === 0) chownSync(join(work, 'cwd'), 65534, 65534);
    for (const settings of [
      { writable: ['rootlink'] },
      { writable: ['usrlink'] },
      { readable: ['rootlink'] },
      { writable: ['rootlink/.'] },
    ]) {
      const session = await open(settings);
      await expect(session.exec({ command: attempt(), cwd: join(work, 'cwd') })).rejects.toThrow(
        /does not bind \/(usr)? .* as the (writable|readable) path/,
      );
      await session.dispose();
    }
    expect(existsSync(join('/usr', marker))).toBe(false);
  });

  test('a link to an ordinary folder is followed: the hook runs in, and writes to, its target', async () => {
    mkdirSync(join(work, 'real'));
    if (process.getuid?.() === 0) chownSync(join(work, 'real'), 65534, 65534);
    symlinkSync(join(work, 'real'), join(work, 'alias'));
    const session = await open();
    const result = await session.exec({ command: 'pwd; echo written > out.txt', cwd: join(work, 'alias') });
    expect(result.exitCode, text(result.stderr)).toBe(0);
    expect(text(result.stdout)).toBe(`${join(work, 'real')}\n`);
    expect(readFileSync(join(work, 'real', 'out.txt'), 'utf8')).toBe('written\n');
    await session.dispose();
  });

  test('a missing working directory or writable path is a clear failure, not a bwrap error', async () => {
    const session = await open({ writable: ['missing'] });
    await expect(session.exec({ command: 'true', cwd: work })).rejects.toThrow(
      /cannot bind the writable path .*missing: it does not exist/,
    );
    await session.dispose();
    const plain = await open();
    await expect(plain.exec({ command: 'true', cwd: join(work, 'nowhere') })).rejects.toThrow(
      /working directory .*nowhere: it does not exist/,
    );
    writeFileSync(join(work, 'file'), '');
    await expect(plain.exec({ command: 'true', cwd: join(work, 'file') })).rejects.toThrow(/not a folder/);
    await plain.dispose();
  });

  test('inside the sandbox, the binds are checked by device and inode before the hook starts', () => {
    mkdirSync(join(work, 'a'));
    mkdirSync(join(work, 'b'));
    const paths = `${join(work, 'a')}\n${join(work, 'b')}`;
    const run = (identities: string) =>
      spawnSync(
        'sh',
        ['-c', VERIFY_SCRIPT, 'hookline-verify', identities, paths, 'sh', '-c', 'echo "ran $0"', 'hook'],
        { encoding: 'utf8' },
      );
    const checked = run(`${identity(join(work, 'a'))}\n${identity(join(work, 'b'))}`);
    expect(checked.stdout, checked.stderr).toBe('ran hook\n');
    // b swapped for another object after the check: the hook does not start.
    const swapped = run(`${identity(join(work, 'a'))}\n${identity(join(work, 'a'))}`);
    expect(swapped.status).toBe(STAGE_FAILED);
    expect(swapped.stdout).toBe('');
    expect(swapped.stderr).toMatch(/^hookline-verify: a bound path is not the object that was checked/);
  });
});

function identity(path: string): string {
  const stats = statSync(path);
  return `${stats.dev}:${stats.ino}`;
}
