import {
  access as accessCallback,
  appendFile as appendFileCallback,
  mkdir as mkdirCallback,
  mkdtemp as mkdtempCallback,
  rm as rmCallback,
  stat as statCallback,
} from 'node:fs';
import { promisify } from 'node:util';

// The file system calls of this package, as promises over node:fs's callbacks. node:fs/promises does
// the same, but loading it loads more of Node with it (readline, the fs watchers and streams): ≈ 5 ms
// of a fresh `hookline emit`, whose command hooks need only mkdtemp and rm.

/** `fs/promises`' `access`. */
export const access = promisify(accessCallback);
/** `fs/promises`' `appendFile`. */
export const appendFile = promisify(appendFileCallback);
/** `fs/promises`' `mkdir`. */
export const mkdir = promisify(mkdirCallback);
/** `fs/promises`' `mkdtemp`. */
export const mkdtemp = promisify(mkdtempCallback);
/** `fs/promises`' `rm`. */
export const rm = promisify(rmCallback);
/** `fs/promises`' `stat`. */
export const stat = promisify(statCallback);
