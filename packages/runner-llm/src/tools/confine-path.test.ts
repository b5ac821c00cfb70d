import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { scratchDirectory } from '../../test-support/scratch.ts';
import { confinePath, isInside } from './confine-path.ts';
import { limitText } from './limit-text.ts';

describe('isInside', () => {
  test('the root and paths below it, not siblings sharing a prefix', () => {
    expect(isInside('/work/a', '/work/a')).toBe(true);
    expect(isInside('/work/a', '/work/a/b/c')).toBe(true);
    expect(isInside('/work/a', '/work/ab')).toBe(false);
    expect(isInside('/work/a', '/work')).toBe(false);
    expect(isInside('/', '/etc/passwd')).toBe(true);
  });
});

describe('confinePath', () => {
  test('resolves existing paths inside, including through inner links and a "..", that stays inside', async () => {
    const root = await scratchDirectory('confine');
    await mkdir(join(root, 'a', 'b'), { recursive: true });
    await writeFile(join(root, 'a', 'file.txt'), 'x');
    await symlink(join(root, 'a'), join(root, 'alias'));
    expect(await confinePath(root, 'a/b/../file.txt')).toEqual({
      ok: true,
      path: join(root, 'a', 'file.txt'),
      shown: 'a/file.txt',
    });
    expect(await confinePath(root, 'alias/file.txt')).toEqual({
      ok: true,
      path: join(root, 'a', 'file.txt'),
      shown: 'alias/file.txt',
    });
    expect(await confinePath(root, join(root, 'a'))).toMatchObject({ ok: true, shown: 'a' });
  });

  test('refuses climbing out, absolute paths elsewhere and links out; reports missing files', async () => {
    const root = await scratchDirectory('confine-out');
    const outside = await scratchDirectory('confine-target');
    await symlink(outside, join(root, 'out'));
    await symlink(join(outside, 'missing'), join(root, 'dangling'));
    for (const path of ['..', '../x', '/etc/passwd', 'out', 'out/anything', 'dangling']) {
      expect(await confinePath(root, path), path).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^refused: /),
      });
    }
    expect(await confinePath(root, 'nope.txt')).toEqual({ ok: false, error: 'no such file or directory: "nope.txt"' });
    expect(await confinePath(root, 'a\0b')).toMatchObject({
      ok: false,
      error: 'path must not contain a NUL character',
    });
    expect(await confinePath(root, 42)).toMatchObject({ ok: false });
  });

  test('for writing: new paths inside are allowed; new paths under a link out, or a dangling link, are refused', async () => {
    const root = await scratchDirectory('confine-write');
    const outside = await scratchDirectory('confine-write-target');
    await symlink(outside, join(root, 'out'));
    await symlink(join(outside, 'new-dir'), join(root, 'dangling'));
    expect(await confinePath(root, 'new/deeper/file.txt', true)).toEqual({
      ok: true,
      path: join(root, 'new', 'deeper', 'file.txt'),
      shown: 'new/deeper/file.txt',
    });
    expect(await confinePath(root, 'out/new.txt', true)).toMatchObject({
      ok: false,
      error: expect.stringContaining('through a symbolic link'),
    });
    expect(await confinePath(root, 'dangling', true)).toMatchObject({
      ok: false,
      error: expect.stringContaining('through a symbolic link'),
    });
    expect(await confinePath(root, 'dangling/file.txt', true)).toMatchObject({
      ok: false,
      error: expect.stringContaining('through a symbolic link'),
    });
  });
});

describe('limitText', () => {
  test('cuts on a character boundary', () => {
    expect(limitText('héllo', 2)).toEqual({ text: 'h', truncated: true });
    expect(limitText('héllo', 3)).toEqual({ text: 'hé', truncated: true });
    expect(limitText('héllo', 6)).toEqual({ text: 'héllo', truncated: false });
  });
});
