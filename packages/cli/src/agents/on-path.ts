import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Whether `program` is an executable file in one of PATH's folders. */
export function onPath(program: string, env: Readonly<Record<string, string | undefined>>): boolean {
  return (env['PATH'] ?? '').split(delimiter).some((folder) => {
    if (folder === '') return false;
    try {
      accessSync(join(folder, program), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}
