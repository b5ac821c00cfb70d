import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, relative, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { docPages, linkedFiles, read, REPOSITORY, shown } from './doc-files.ts';
import { headingAnchors, markdownLinks } from './markdown.ts';

/** A link that leaves the repository's files: a URL with a scheme, or a mail address. */
const EXTERNAL = /^[a-z][a-z0-9+.-]*:/i;

describe.each(linkedFiles().map((file) => [shown(file), file]))('%s', (_name, file) => {
  const text = read(file);

  test('every relative link resolves to a file or folder of the repository, and every anchor to a heading', () => {
    const broken: string[] = [];
    for (const link of markdownLinks(text)) {
      if (EXTERNAL.test(link.target)) continue;
      const [path = '', anchor] = link.target.split('#', 2) as [string, string | undefined];
      const target = path === '' ? file : resolve(dirname(file), decodeURIComponent(path));
      const where = `${shown(file)}:${link.line}: ${link.target}`;
      if (isAbsolute(path) || relative(REPOSITORY, target).startsWith('..')) {
        broken.push(`${where} points outside the repository`);
      } else if (!existsSync(target)) {
        broken.push(`${where} does not exist`);
      } else if (anchor !== undefined && anchor !== '' && statSync(target).isFile() && target.endsWith('.md')) {
        if (!headingAnchors(read(target)).has(anchor))
          broken.push(`${where}: no heading with anchor #${anchor} in ${shown(target)}`);
      }
    }
    expect(broken).toEqual([]);
  });
});

test('the root README links the user documentation', () => {
  const targets = markdownLinks(read(resolve(REPOSITORY, 'README.md'))).map((link) => link.target);
  expect(targets).toContain('docs/README.md');
});

test.each(docPages().map((file) => [shown(file), file]))(
  '%s refers to nothing outside the repository',
  (_name, file) => {
    const outside = read(file)
      .split('\n')
      .flatMap((line, index) =>
        /\.\.\/shared|SPEC\.md|\bseeds?\b/i.test(line) ? [`${shown(file)}:${index + 1}: ${line.trim()}`] : [],
      );
    expect(outside).toEqual([]);
  },
);

// The repository stands alone: its code and docs say each rule themselves, not by citing section
// numbers or source documents of a specification that a clone does not have.
test('no file of the repository cites a document outside it', () => {
  const files = execFileSync('git', ['ls-files', '--', 'packages', 'examples', 'docs', 'scripts', '.ci', 'README.md'], {
    cwd: REPOSITORY,
    encoding: 'utf8',
  })
    .split('\n')
    .filter(
      (file) =>
        /\.(ts|md|toml|json|sh)$/.test(file) && !file.endsWith('CHANGELOG.md') && file !== 'docs/src/links.test.ts',
    );
  const citing = files.flatMap((file) =>
    read(resolve(REPOSITORY, file))
      .split('\n')
      .flatMap((line, index) =>
        /\b(?:SPEC|STYLE) §|\bsource 00\d\b|\.\.\/shared\/|SPEC\.md/i.test(line)
          ? [`${file}:${index + 1}: ${line.trim()}`]
          : [],
      ),
  );
  expect(citing).toEqual([]);
});
