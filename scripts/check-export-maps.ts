// Keeps a package's JSR manifest (deno.json or jsr.json) in step with its package.json: npm gets the
// compiled ./dist/X.js with types ./dist/X.d.ts, JSR gets the source ./src/X.ts, and the two must
// export the same entry points, under the same name and version, with the same npm dependency ranges.
//
//   node scripts/check-export-maps.ts [package-dir]    (default: the current directory)
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const SOURCE = /^\.\/src\/(.+)\.ts$/;
// A target that is a JavaScript module; anything else (./package.json, a JSON schema) is npm-only.
const MODULE_TARGET = /\.(?:js|mjs|cjs|d\.ts|d\.mts)$/;

/** A parsed manifest; only the fields this check reads. */
interface Manifest {
  readonly name?: unknown;
  readonly version?: unknown;
  readonly exports?: unknown;
  readonly imports?: unknown;
  readonly dependencies?: unknown;
  readonly peerDependencies?: unknown;
  readonly optionalDependencies?: unknown;
}

/** One leaf of a package.json export: its target and whether it sits under a `types` condition. */
interface ExportTarget {
  readonly target: string;
  readonly types: boolean;
}

/** Every disagreement between the two manifests, as sentences naming the entry and the fix. */
function compareExportMaps(packageJson: Manifest, jsrJson: Manifest, jsrFile: string): string[] {
  const problems: string[] = [];
  for (const field of ['name', 'version'] as const) {
    if (jsrJson[field] !== packageJson[field]) {
      problems.push(
        `${jsrFile} "${field}" is ${JSON.stringify(jsrJson[field])} but package.json's is ${JSON.stringify(packageJson[field])}; make them equal`,
      );
    }
  }

  const jsrExports = subpathMap(jsrJson.exports);
  const npmExports = subpathMap(packageJson.exports);
  for (const [subpath, value] of Object.entries(jsrExports)) {
    const source = typeof value === 'string' ? SOURCE.exec(value) : null;
    if (source === null) {
      problems.push(
        `${jsrFile} exports["${subpath}"] is ${JSON.stringify(value)}; it must be a source file "./src/….ts"`,
      );
      continue;
    }
    const expected = { js: `./dist/${source[1]}.js`, types: `./dist/${source[1]}.d.ts` };
    if (!(subpath in npmExports) || npmExports[subpath] === null) {
      problems.push(
        `${jsrFile} exports "${subpath}" but package.json does not; add "${subpath}": { "types": "${expected.types}", "default": "${expected.js}" } to package.json or drop it from ${jsrFile}`,
      );
      continue;
    }
    const targets = exportTargets(npmExports[subpath]);
    const typeTargets = targets.filter((leaf) => leaf.types).map((leaf) => leaf.target);
    const jsTargets = targets.filter((leaf) => !leaf.types).map((leaf) => leaf.target);
    if (typeTargets.length === 0)
      problems.push(
        `package.json exports["${subpath}"] has no "types" condition; add "types": "${expected.types}" (first)`,
      );
    if (jsTargets.length === 0)
      problems.push(`package.json exports["${subpath}"] has no JavaScript target; add "default": "${expected.js}"`);
    for (const target of typeTargets.filter((found) => found !== expected.types)) {
      problems.push(
        `package.json exports["${subpath}"] types is "${target}", but ${jsrFile} maps "${subpath}" to ${JSON.stringify(value)}, whose types are "${expected.types}"`,
      );
    }
    for (const target of jsTargets.filter((found) => found !== expected.js)) {
      problems.push(
        `package.json exports["${subpath}"] points at "${target}", but ${jsrFile} maps "${subpath}" to ${JSON.stringify(value)}, which compiles to "${expected.js}"`,
      );
    }
  }
  for (const [subpath, value] of Object.entries(npmExports)) {
    if (subpath in jsrExports || value === null) continue;
    if (exportTargets(value).some((leaf) => MODULE_TARGET.test(leaf.target))) {
      problems.push(
        `package.json exports module "${subpath}" but ${jsrFile} does not; add "${subpath}": "./src/….ts" to ${jsrFile}'s exports`,
      );
    }
  }

  const ranges = npmRanges(packageJson);
  for (const [specifier, target] of Object.entries(isRecord(jsrJson.imports) ? jsrJson.imports : {})) {
    const npm = typeof target === 'string' ? /^npm:((?:@[^@/]+\/)?[^@/]+)(?:@([^/]+))?/.exec(target) : null;
    if (npm === null) continue;
    const [, name = '', range] = npm;
    if (!(name in ranges)) {
      problems.push(
        `${jsrFile} imports "${specifier}" from npm package ${name}, which package.json does not depend on; add it to package.json's dependencies`,
      );
    } else if (range !== ranges[name]) {
      problems.push(
        `${jsrFile} imports ${name}@${range ?? '(any version)'} but package.json depends on ${name}@${ranges[name]}; use the same range`,
      );
    }
  }
  return problems;
}

// `exports` may be a string, a conditions object, or a map of subpaths (Node's rules).
function subpathMap(exports: unknown): Record<string, unknown> {
  if (exports === undefined) return {};
  if (typeof exports === 'string' || Array.isArray(exports)) return { '.': exports };
  if (!isRecord(exports)) return {};
  const keys = Object.keys(exports);
  return keys.length > 0 && keys.every((key) => !key.startsWith('.')) ? { '.': exports } : exports;
}

function exportTargets(value: unknown, underTypes = false): ExportTarget[] {
  if (typeof value === 'string') return [{ target: value, types: underTypes }];
  if (Array.isArray(value)) return value.flatMap((item) => exportTargets(item, underTypes));
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([condition, inner]) =>
    exportTargets(inner, underTypes || condition === 'types'),
  );
}

function npmRanges(packageJson: Manifest): Record<string, string> {
  const ranges: Record<string, string> = {};
  for (const field of [packageJson.optionalDependencies, packageJson.peerDependencies, packageJson.dependencies]) {
    if (!isRecord(field)) continue;
    for (const [name, range] of Object.entries(field)) if (typeof range === 'string') ranges[name] = range;
  }
  return ranges;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readJson(file: string): Manifest {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch (error) {
    throw new Error(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

function main(): number {
  const packageDir = resolve(process.argv[2] ?? process.cwd());
  const shown = relative(process.cwd(), packageDir) || '.';
  if (!existsSync(join(packageDir, 'package.json'))) {
    console.error(`check-export-maps: ${packageDir} has no package.json; pass a package's folder`);
    return 1;
  }
  if (existsSync(join(packageDir, 'deno.jsonc')) && !existsSync(join(packageDir, 'deno.json'))) {
    console.error(
      `check-export-maps: ${shown}/deno.jsonc is not supported (comments are not JSON); rename it to deno.json`,
    );
    return 1;
  }
  const jsrFile = ['deno.json', 'jsr.json'].find((name) => existsSync(join(packageDir, name)));
  if (jsrFile === undefined) {
    // A Node-only package (one that imports node: modules) is not published to JSR.
    console.log(`check-export-maps: ${shown} has no deno.json or jsr.json; nothing to compare`);
    return 0;
  }
  let packageJson: Manifest;
  let jsrJson: Manifest;
  try {
    packageJson = readJson(join(packageDir, 'package.json'));
    jsrJson = readJson(join(packageDir, jsrFile));
  } catch (error) {
    console.error(`check-export-maps: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
  const problems = compareExportMaps(packageJson, jsrJson, jsrFile);
  if (problems.length > 0) {
    console.error(
      `check-export-maps: ${shown}/${jsrFile} and ${shown}/package.json disagree:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`,
    );
    return 1;
  }
  const count = Object.keys(subpathMap(jsrJson.exports)).length;
  console.log(
    `check-export-maps: ${shown}/${jsrFile} matches package.json (${count} entry point${count === 1 ? '' : 's'})`,
  );
  return 0;
}

process.exitCode = main();
