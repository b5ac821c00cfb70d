// The staging folder of a root host: made again when a temp cleaner removed it, never used once it
// is not a root-owned 0755 folder any more.
import { chmodSync, lstatSync, rmdirSync } from 'node:fs';
import process from 'node:process';
import { describe, expect, test } from 'vitest';
import { stagingFolder } from './staging-folder.ts';

describe.skipIf(process.getuid?.() !== 0)('stagingFolder (as root)', () => {
  test('a root-owned 0755 folder in /tmp, made again when removed or changed', () => {
    const staging = stagingFolder();
    const first = staging.current();
    expect(first).toMatch(/^\/tmp\/hookline-bwrap-stage-/);
    expect(lstatSync(first).mode & 0o777).toBe(0o755);
    expect(staging.current()).toBe(first);
    rmdirSync(first);
    const second = staging.current();
    expect(second).not.toBe(first);
    chmodSync(second, 0o777);
    const third = staging.current();
    expect(third).not.toBe(second);
    rmdirSync(second);
    staging.remove();
    expect(() => lstatSync(third)).toThrow();
  });
});
