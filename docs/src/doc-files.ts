import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The docs folder. */
export const DOCS = fileURLToPath(new URL('..', import.meta.url));
/** The repository root. */
export const REPOSITORY = join(DOCS, '..');

/** The user documentation's pages: every `.md` file under docs/, outside node_modules. */
export function docPages(): string[] {
  return markdownFiles(DOCS);
}

/** Every Markdown file whose links must resolve: the docs, the root README and each package's README. */
export function linkedFiles(): string[] {
  const readmes = ['packages', 'examples', 'e2e'].flatMap((folder) =>
    readdirSync(join(REPOSITORY, folder), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(REPOSITORY, folder, entry.name, 'README.md'))
      .filter((file) => existsSync(file)),
  );
  return [join(REPOSITORY, 'README.md'), ...readmes, ...docPages()];
}

/** A path relative to the repository root, for test names and messages. */
export function shown(file: string): string {
  return relative(REPOSITORY, file);
}

export function read(file: string): string {
  return readFileSync(file, 'utf8');
}

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true })
    .filter((entry) => entry.name !== 'node_modules' && !entry.name.startsWith('.'))
    .flatMap((entry) => {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) return markdownFiles(path);
      return entry.name.endsWith('.md') ? [path] : [];
    })
    .sort();
}
