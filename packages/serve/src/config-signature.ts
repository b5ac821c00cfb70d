import { statSync } from 'node:fs';

/**
 * A string that changes when any of `files` is created, removed, replaced or written: each file's
 * inode, size, and modification and change times. Cheap enough (a stat per file) to take on every
 * request, so an edit is seen by the very next call without a watcher's delay or its platform quirks.
 */
export function filesSignature(files: readonly string[]): string {
  let signature = '';
  for (const file of files) {
    const stat = statSync(file, { throwIfNoEntry: false });
    signature +=
      stat === undefined ? `${file}:-|` : `${file}:${stat.ino}:${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}|`;
  }
  return signature;
}
