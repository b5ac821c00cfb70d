#!/usr/bin/env node
// TypeScript 7's compiler under a name of its own. Its package is also called `typescript` and its
// command also `tsc`, so installed at the root beside TypeScript 6 (whose JavaScript API typescript-eslint
// and scripts/api-report need, and which TypeScript 7 does not have) the two would fight over
// node_modules/.bin/tsc. Here it is this package's own dependency, under another name, started through
// its own launcher (which replaces this process with the native compiler).
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

const manifest = createRequire(import.meta.url).resolve('typescript-7/package.json');
await import(pathToFileURL(join(dirname(manifest), 'bin', 'tsc')).href);
