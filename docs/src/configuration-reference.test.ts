import { join } from 'node:path';
import { expect, test } from 'vitest';
import { REFERENCE_PAGE, renderConfigurationReference } from './configuration-reference.ts';
import { DOCS, read } from './doc-files.ts';

test(`${REFERENCE_PAGE} is what hookline schema and hookline list generate (else run pnpm -F @hookline/docs reference)`, async () => {
  expect(read(join(DOCS, REFERENCE_PAGE))).toBe(await renderConfigurationReference());
});
