// The staging folder of a root host: one shared folder, made again when a temp cleaner removed it,
// never used once it is not a root-owned 0755 folder.
import { chmodSync, lstatSync } from 'node:fs';
import process from 'node:process';
import { describe, expect, test } from 'vitest';
import { stagingFolder } from './staging-folder.ts';

describe.skipIf(process.getuid?.() !== 0)('stagingFolder (as root)', () => {
  test('a shared root-owned 0755 folder in /tmp; a folder of its own while the shared one is not usable', () => {
    const staging = stagingFolder();
    const shared = staging.current();
    expect(shared).toBe('/tmp/hookline-bwrap-stage');
    expect(lstatSync(shared).mode & 0o777).toBe(0o755);
    chmodSync(shared, 0o777);
    try {
      const own = staging.current();
      expect(own).toMatch(/^\/tmp\/hookline-bwrap-stage-/);
      expect(lstatSync(own).mode & 0o777).toBe(0o755);
      staging.remove();
      expect(() => lstatSync(own)).toThrow();
    } finally {
      chmodSync(shared, 0o755);
    }
    expect(staging.current()).toBe(shared);
  });
});
