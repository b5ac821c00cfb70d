import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { cliManifest } from './cli-manifest.ts';
import { CLI, makeScratch, type Scratch } from '../test-support/run-cli.ts';

// The executable on a Node older than `engines.node`: one line, exit 1, before any dependency loads.
// The machine's system Node (20 on the development image) plays the old one.
const OLD_NODE = process.env['HOOKLINE_OLD_NODE'] ?? '/usr/bin/node';
const LAUNCHER = fileURLToPath(new URL('../bin/hookline.js', import.meta.url));
const needed = /^>=(\S+)$/.exec(cliManifest().engines?.node ?? '')?.[1];
const oldVersion = existsSync(OLD_NODE)
  ? spawnSync(OLD_NODE, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout.trim()
  : '';
const usable = oldVersion !== '' && Number(oldVersion.split('.')[0]) < Number(needed?.split('.')[0]);
if (!usable)
  console.warn(
    `[node-version.test.ts] no Node older than ${needed} at ${OLD_NODE} (found ${oldVersion || 'none'}): skipping; set HOOKLINE_OLD_NODE to one`,
  );

let scratch: Scratch;
beforeEach(() => {
  scratch = makeScratch();
});
afterEach(() => scratch.cleanup());

test('engines.node is a plain lower bound, the form the check reads', () => {
  expect(cliManifest().engines?.node).toMatch(/^>=\d+\.\d+(\.\d+)?$/);
});

describe.skipIf(!usable)(`on Node ${oldVersion}`, () => {
  test.each([
    ['the launcher', LAUNCHER],
    ['dist/bin.js', CLI],
  ])('%s prints the version needed and the one found, in one line, and exits 1', (_name, script) => {
    // An http hook makes the CLI load undici, which throws a TypeError on this Node.
    scratch.write(
      'hookline.toml',
      '[[hooks]]\nevent = "stage_start"\ntype = "http"\nurl = "http://127.0.0.1:9/hook"\ntls = "off"\n',
    );
    const result = spawnSync(OLD_NODE, [script, 'emit', 'stage_start'], {
      cwd: scratch.path,
      encoding: 'utf8',
      env: { ...process.env, XDG_CONFIG_HOME: scratch.path },
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `hookline needs Node.js ${needed} or newer, but this is Node.js ${oldVersion} (${OLD_NODE}): install a newer Node.js and run it again.\n`,
    );
  });
});
