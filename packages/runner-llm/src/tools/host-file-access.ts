import { mkdir, realpath } from 'node:fs/promises';
import { dirname } from 'node:path';
import { messageOf } from '@hookline/core/plugin';
import { confinePath, isInside, refusal } from './confine-path.ts';
import type { FileAccess } from './file-access.ts';
import { openRegularFile } from './open-regular-file.ts';
import { runSearch } from './run-search.ts';

/**
 * The file tools on the host's directory `root` (a real path): paths are confined with
 * {@link confinePath}, files opened with {@link openRegularFile} (never blocking on a FIFO or a
 * device), and searches run in a worker thread ({@link runSearch}).
 */
export function hostFileAccess(root: string): FileAccess {
  return {
    where: 'host',
    root,
    async read(requested, maxBytes) {
      const target = await confinePath(root, requested);
      if (!target.ok) return target;
      const opened = await openRegularFile(target.path, target.shown, 'read');
      if (!opened.ok) return opened;
      const { file, stats } = opened;
      try {
        const buffer = Buffer.alloc(Math.min(stats.size, maxBytes));
        const { bytesRead } = await file.read(buffer, 0, buffer.length, 0);
        return { ok: true, text: new TextDecoder().decode(buffer.subarray(0, bytesRead)), size: stats.size, bytesRead };
      } finally {
        await file.close();
      }
    },
    async write(requested, content) {
      const target = await confinePath(root, requested, true);
      if (!target.ok) return target;
      try {
        await mkdir(dirname(target.path), { recursive: true });
        // Re-checked after mkdir: the directory the file lands in must still be inside.
        if (!isInside(root, await realpath(dirname(target.path)))) return refusal(target.shown, root, true);
        const opened = await openRegularFile(target.path, target.shown, 'write');
        if (!opened.ok) return opened;
        try {
          await opened.file.writeFile(content, 'utf8');
        } finally {
          await opened.file.close();
        }
      } catch (error) {
        return { ok: false, error: `cannot write ${JSON.stringify(target.shown)}: ${messageOf(error)}` };
      }
      return { ok: true, shown: target.shown };
    },
    async search(request, signal) {
      const start = await confinePath(root, request.path ?? '.');
      if (!start.ok) return start;
      const { kind, pattern, include, ignoreCase } = request;
      return runSearch(
        {
          kind,
          root,
          start: start.path,
          pattern,
          ...(include === undefined ? {} : { include }),
          ...(ignoreCase === undefined ? {} : { ignoreCase }),
        },
        signal,
      );
    },
  };
}
