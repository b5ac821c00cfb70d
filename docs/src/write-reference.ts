// Writes docs/configuration.md from `hookline schema` and `hookline list` (after a build of the CLI):
// `pnpm -F @hookline/docs reference`. The docs tests fail when the committed page differs.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REFERENCE_PAGE, renderConfigurationReference } from './configuration-reference.ts';

const target = fileURLToPath(new URL(`../${REFERENCE_PAGE}`, import.meta.url));
writeFileSync(target, await renderConfigurationReference());
console.log(`wrote ${target}`);
