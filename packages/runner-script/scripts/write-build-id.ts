// Writes dist/build-id: a hash of the emitted JavaScript. It is part of the script host's key
// (src/script-host/open-script-host.ts), so a host started from another build of this package never
// serves this one. Run by `pnpm build` after tsc.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const hash = createHash('sha256');
const files = readdirSync(dist, { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.js'))
  .sort();
for (const file of files) hash.update(file).update(readFileSync(`${dist}${file}`));
writeFileSync(`${dist}build-id`, `${hash.digest('hex')}\n`);
