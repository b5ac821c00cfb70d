// Writes (or, with --check, compares) the API report of every typed entry point of every published
// package: <package>/etc/<name>.api.md, generated from the emitted .d.ts (build first).
//
//   pnpm api-report              (node scripts/api-report/write-api-reports.ts)
//   pnpm api-report --check      (what `pnpm test:repo` checks)
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { workspacePackages } from '../workspace/workspace-packages.ts';
import { apiReport, declarationsProgram } from './api-report.ts';
import { entryPoints } from './entry-points.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const check = process.argv.includes('--check');
const entries = [...workspacePackages(root).values()].flatMap(entryPoints);
const missing = entries.filter((entry) => !existsSync(entry.declarations));
if (missing.length > 0) {
  console.error(
    `api-report: no declarations at ${missing.map((entry) => relative(root, entry.declarations)).join(', ')}; run \`pnpm build\` first`,
  );
  process.exit(1);
}
const program = declarationsProgram(entries);
const stale: string[] = [];
for (const entry of entries) {
  const report = apiReport(entry, entry.packageDir, program);
  const current = existsSync(entry.report) ? readFileSync(entry.report, 'utf8') : undefined;
  if (current === report) continue;
  if (check) {
    stale.push(relative(root, entry.report));
  } else {
    mkdirSync(dirname(entry.report), { recursive: true });
    writeFileSync(entry.report, report);
    console.log(`api-report: wrote ${relative(root, entry.report)}`);
  }
}
if (stale.length > 0) {
  console.error(
    `api-report: the public surface changed and these reports no longer match: ${stale.join(', ')}.\nRun \`pnpm build && pnpm api-report\`, review the diff, and commit it (with a changeset when users see the change).`,
  );
  process.exit(1);
}
if (check) console.log(`api-report: ${entries.length} entry points match their reports`);
