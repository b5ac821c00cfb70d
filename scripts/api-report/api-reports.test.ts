// Every typed entry point of every published package has a committed API report that matches its
// emitted .d.ts (build first: `pnpm test` does). A change of public surface is always a diff of
// <package>/etc/*.api.md; `pnpm api-report` writes them.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { workspacePackages } from '../workspace/workspace-packages.ts';
import { apiReport, declarationsProgram } from './api-report.ts';
import { entryPoints } from './entry-points.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const entries = [...workspacePackages(root).values()].flatMap(entryPoints);
const built = entries.every((entry) => existsSync(entry.declarations));

describe('API reports', () => {
  test('every published package with typed entry points has them, core with its three readers', () => {
    expect(entries.map((entry) => entry.specifier)).toEqual(
      expect.arrayContaining([
        '@hookline/core',
        '@hookline/core/plugin',
        '@hookline/core/testing',
        '@hookline/runner-script/script-host',
      ]),
    );
    expect(
      built,
      `the packages are not built (no ${entries.find((entry) => !existsSync(entry.declarations))?.declarations}): run \`pnpm build\` first`,
    ).toBe(true);
  });

  const program = built ? declarationsProgram(entries) : undefined;
  test.each(entries.map((entry) => [entry.specifier, entry] as const))(
    '%s matches its committed report',
    (_, entry) => {
      if (program === undefined) return;
      const report = relative(root, entry.report);
      const committed = existsSync(entry.report) ? readFileSync(entry.report, 'utf8') : '';
      expect(
        apiReport(entry, entry.packageDir, program),
        `the public surface of ${entry.specifier} is not what ${report} records: run \`pnpm build && pnpm api-report\`, review the diff of ${report}, commit it (and add a changeset when users see the change)`,
      ).toBe(committed);
    },
  );

  test('a changed signature is a diff of the report', () => {
    const entry = entries.find((candidate) => candidate.specifier === '@hookline/core/plugin');
    if (program === undefined || entry === undefined) return;
    const report = apiReport(entry, entry.packageDir, program);
    expect(report).toContain('export declare function defineRunner<');
    expect(report).toMatch(
      /export interface Runner \{[^}]*readonly runnerInterfaceVersion: typeof RUNNER_INTERFACE_VERSION;/,
    );
    // What a host alone needs is not in the plugin entry.
    expect(report).not.toContain('export declare function createHookEngine(');
  });
});
